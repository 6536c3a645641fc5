"""Write docs/chapters.md: the textbook chapters' figures, each with the command that reproduces it.

    python scripts/make_chapters.py              # the page and its pictures (docs/img/chapters-*.svg)
    python scripts/make_chapters.py --out /tmp/page   # elsewhere (tests)
    python scripts/make_chapters.py --reuse-slow      # the slow commands' output taken from the page as it is

zermelo's design follows five textbook chapters on game-tree search. Every
figure and worked example of theirs is a row here (1.1 … 5.8): what it must
show, the command that shows it, that command's output as this script captured
it from this checkout, and a picture where one helps; a row no command
reproduces yet says so. The commands are shown as run from the repository
root. Every block is marked not to be run by ``tests/test_docs.py``:
``tests/test_chapters.py`` runs them all (those marked ``<!-- slow -->`` only
here), compares their output with the page and checks each row's figure.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shlex
import subprocess
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.chdir(REPO)

from protocol import cli  # noqa: E402

NOT_RUN = "<!-- not-run -->"
SLOW = "<!-- slow -->"
#: Output lines shown per command; the rest is one "…" line.
SHOWN_LINES = 24


def run(command: str, shims: Path | None = None) -> tuple[int, str]:
    """Run one page command from the repository root: (status, stdout and stderr).
    ``zermelo …`` runs in this process (the same code as the console script, without
    an interpreter start per command); a shell pipeline runs in bash, with ``zermelo``
    from ``shims`` (a directory holding a ``zermelo`` that runs this checkout)."""
    if "|" in command or ";" in command:
        env = dict(os.environ, PYTHONPATH=str(REPO))
        if shims is not None:
            env["PATH"] = f"{shims}{os.pathsep}{env['PATH']}"
        proc = subprocess.run(["bash", "-c", command], cwd=REPO, env=env, capture_output=True, text=True,
                              timeout=300)
        return proc.returncode, proc.stdout + proc.stderr
    args = shlex.split(command)
    assert args[0] == "zermelo", command
    buf = io.StringIO()
    with redirect_stdout(buf), redirect_stderr(buf):
        try:
            status = cli.main(args[1:])
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else 1
    return status or 0, buf.getvalue()


def shim_dir(where: Path) -> Path:
    """A directory with ``zermelo`` running this checkout with this interpreter."""
    shim = where / "zermelo"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m protocol "$@"\n')
    shim.chmod(0o755)
    return where


@dataclass
class Command:
    text: str
    keep: list[str] = field(default_factory=list)
    """Substrings of the output lines to show (default: the first SHOWN_LINES lines)."""
    slow: bool = False
    picture: str = ""
    alt: str = ""


@dataclass
class Row:
    number: str
    item: str
    figure: str
    commands: list[Command] = field(default_factory=list)
    note: str = ""
    """Text after the commands: how the output shows the figure."""
    not_yet: str = ""
    """What nothing reproduces yet (the row's whole answer when there is no command)."""


def C(text: str, *keep: str, slow: bool = False, picture: str = "", alt: str = "") -> Command:  # noqa: N802
    return Command(text, list(keep), slow, picture, alt)


FIG_824 = "[[8, 9], [6, 7]]"

CHAPTERS: list[tuple[str, list[Row]]] = [
    ("Chapter 1 — games as problem reduction; minimax; alpha-beta", [
        Row("1.1", "The class of games: two players, perfect information, no chance (chess, checkers, reversi, "
                   "Kalah, tic-tac-toe)", "every one playable",
            [C("zermelo perft -g chess 1", "Nodes searched"), C("zermelo perft -g checkers 1", "Nodes searched"),
             C("zermelo perft -g reversi 1", "Nodes searched"), C("zermelo perft -g kalah 1", "Nodes searched"),
             C("zermelo perft -g tictactoe 1", "Nodes searched")],
            "Each game's first moves from its start position; every one is played over the protocol, "
            "in matches and at the terminal (`zermelo play GAME`)."),
        Row("1.2", "A game as problem reduction: W(X) (PLUS can force a win) and V(X) (MINUS can force a win) "
                   "as AND/OR problems: the positions of the player who is to win are OR nodes, the opponent's "
                   "AND nodes",
            "labels AND/OR on nodes, W or V chosen",
            [C("zermelo solve nim --graph --problem W", "game graph", "W(7+):", "V(7+):", "has no solution graph",
               "solution graphs:", "  1: ", "* 7+", "* 6−", "* 0−")],
            "`--problem W` or `V` poses the problem; PLUS is the side to move (the first player here), MINUS "
            "the other; the positions of the player who is to win are OR nodes. W(7+) has no solution graph, "
            "so V(7+) is posed next: MINUS, the second player, can force a win."),
        Row("1.3", "7 coins, take 1 or 2, whoever takes the last loses: the complete game graph of V(7, first "
                   "player), the solution graph in bold; the second player wins by answering 1 with 2 and 2 "
                   "with 1",
            "the graph with repeated positions merged; the solution graph's 8 positions (7+, 6−, 5−, 4+, 3−, "
            "2−, 1+, 0); W(7+) has no solution graph",
            [C("zermelo solve nim --graph docs/img/chapters-coins.svg --problem V",
               "game graph", "V(7+):", "solvable:", "solution graphs", "  1: ", "     7+ ->", "picture:",
               picture="chapters-coins.svg",
               alt="the seven-coin game graph, the second player's solution graph in bold")],
            "14 positions once repeated positions are merged (n+: n coins, the first player to move; n−: the "
            "second). V(7+), MINUS (the second player) can force a win, has one solution graph: the chapter's "
            "8 positions; W(7+) has none (1.2)."),
        Row("1.4", "Size: checkers' complete tree ≈ 10^40 nodes", "a measured estimate beside it",
            [C("zermelo perft -g checkers --estimate 1000", "Knuth's estimate", "complete games",
               "nodes of the complete game tree", "average branching", "b^d", "chapters", "why they differ")],
            "Knuth's estimate from random games, ≈ 10^154, is far above the chapters' 10^40: it is the mean of "
            "the probes' products, carried by the few longest random games (the spread line), and random play "
            "makes long games. The chapters' figure is b^d, the paths of one game of typical length: with b the "
            "moves a ply along the same games (3.92) and d their mean length (68.7 plies), b^d ≈ 10^40.8."),
        Row("1.5", "Tic-tac-toe: at most 9! = 362,880 paths, many end earlier",
            "the real count of complete games, 255,168",
            [C("zermelo perft -g tictactoe --games", "complete games", "by length", "nodes of the complete",
               "bound")]),
        Row("1.6", "Open-lines evaluation E(P) = +∞ / −∞ at wins, else (lines still open for X) − (lines still "
                   "open for O)",
            "Fig. 3a on 4×4: 8 − 5 = 3; the function usable in search",
            [C('zermelo explain mnk -p m=4 -p n=4 -p k=4 -p eval=textbook --fen ".o../.xx./..../.... o" '
               '--no-moves', "evaluation", "open lines", "8 - 5 = 3"),
             C('zermelo tree mnk -p m=4 -p n=4 -p k=4 -p eval=textbook --fen ".o../.xx./..../.... o" '
               '--depth 2 --algorithm alphabeta', "game:", "value:", "visited:")],
            "`-p eval=textbook` makes the chapters' E(P) the evaluation the search, `tree`, `lab`, `explain` "
            "and `play` use."),
        Row("1.7", "Minimax to depth N: the four-step procedure; Fig. 4's best move is the first of two",
            "backed-up values on a tree; ties resolved consistently",
            [C("zermelo tree --file docs/trees/ties.json --algorithm minimax", "value:", "visited:", "root",
               "├─", "└─")],
            "The tree has two best moves of value 3; every algorithm chooses the first (see 1.11)."),
        Row("1.8", "Active positions (a capture pending): static and backed-up values differ",
            "quiescence changes the move", [C("zermelo lab quiescence")]),
        Row("1.9", "Alpha-beta on Fig. 5, rebuilt from the text as `[[[1,3,2],[4,5]],[[2,3],[1,2],[8]]]`: a "
                   "β-cut under W3, then an α-cut under W4",
            "11 of 17 nodes built and 6 of 10 evaluations (root excluded)",
            [C("zermelo tree --file docs/trees/fig5.json --algorithm alphabeta "
               "--svg docs/img/chapters-fig5.svg", picture="chapters-fig5.svg",
               alt="Fig. 5: a β-cut under W3 and an α-cut under W4")],
            "12 nodes visited with the root, 11 below it; 6 of the 10 leaves evaluated."),
        Row("1.10", "Rule A (α-cut below an AND node) and rule B (β-cut below an OR node), shallow and deep",
            "each cut named, with the ancestor whose bound causes it",
            [C("zermelo tree --file docs/trees/deep-cutoff.json --algorithm alphabeta")],
            "Fig. 5 (1.9) shows the shallow cuts; here the bound that cuts comes from the root, two levels up."),
        Row("1.11", "Alpha-beta finds the same best first move as minimax", "same move on every tree, ties included",
            [C(f"zermelo tree --file docs/trees/ties.json --algorithm {a}", "value:")
             for a in ("minimax", "alphabeta", "alphabeta1", "pvs", "engine")]),
        Row("1.12", "Best case: strongest moves first → about as many leaves at depth N as minimax at N/2",
            "Knuth–Moore b^⌈d/2⌉ + b^⌊d/2⌋ − 1",
            [C("zermelo lab alphabeta --branching 3 --depth 6 --seed 1 --plot docs/img/chapters-knuth-moore.svg",
               picture="chapters-knuth-moore.svg", alt="leaves against depth for each algorithm, log scale")]),
        Row("1.13", "Worst case: no cut-offs", "b^d leaves",
            [C("zermelo tree tree -p branching=3 -p depth=3 --algorithm alphabeta --order worst", "algorithm:",
               "value:", "visited:", "nodes per level")],
            "Each node's worst move first: all 3^3 = 27 leaves are evaluated."),
        Row("1.14", "Iterative deepening from depth 2 with reordering after each iteration; fixed ordering by a "
                    "cheap static function; dynamic (best-first) ordering of the built tree",
            "node counts with and without",
            [C("zermelo lab deepening --game tictactoe --depth 7"),
             C("zermelo tree --file docs/trees/sss.json --algorithm sss", "algorithm:", "value:", "visited:",
               "alpha-beta, same order", "leaves in the order", "evaluated by"),
             C("zermelo lab sss --depth 6"),
             C("zermelo tree --file docs/trees/bstar.json --algorithm bstar --svg docs/img/chapters-bstar.svg",
               "algorithm:", "value:", "proof:", "expanded:", "alpha-beta, same order", "expansions in order",
               "  1. ", "  2. ", "  3. ", "picture:", picture="chapters-bstar.svg",
               alt="B*: move 2 proven best after three expansions, each node with its bounds"),
             C("zermelo tree tictactoe --depth 3 --algorithm bstar --margin 20", "bounds:", "value:", "proof:",
               "expanded:", "alpha-beta, same order")],
            "The static order is `--order static` of `zermelo tree` and `zermelo lab alphabeta` (1.12). "
            "Best-first: Stockman's SSS* (`--algorithm sss`, and its dual `dual`) keeps an OPEN list of "
            "the built tree's frontier and always refines the highest bound; it never evaluates a leaf "
            "alpha-beta in the same order leaves alone, and on the example tree it skips two that alpha-beta "
            "evaluates. Its price is memory: OPEN holds b^⌈d/2⌉ states (`zermelo lab memory`, 5.4). "
            "Berliner's B* (`--algorithm bstar`) gives every node a pessimistic and an optimistic value, "
            "bounds on its true value (a tree file's `\"bounds\"`; in a game the static evaluation ± "
            "`--margin`, exact at game ends and at the horizon), backs them up from the children (a MAX node "
            "takes their largest of each, a MIN node their smallest) and stops as soon as one root move's "
            "pessimistic value reaches every other move's optimistic value: that move is proven best without "
            "its exact value. At the root it raises the best move's pessimistic value (prove best) or lowers "
            "the others' optimistic values (disprove rest), whichever is likelier to succeed if each value "
            "were spread evenly over its bounds. On the example it proves move 2 after 3 expansions and 8 "
            "nodes, without evaluating a leaf, where alpha-beta visits 19 nodes. Bounds from a margin are a "
            "guess that may not hold: on tic-tac-toe (an evaluation in tens) a margin of 20 still finds "
            "alpha-beta's move, b2, in fewer nodes."),
        Row("1.15", "Libraries of typical situations", "books, tables",
            [C("zermelo tables build chess KRK --out tables/ --quiet --stats", "KRvK", "white to move",
               "won:", "a longest win")],
            "Opening books (`zermelo book`) and endgame tables (`zermelo tables`, Syzygy probing) are the "
            "libraries zermelo has.",
            not_yet="zermelo has no middle-game library of typical situations: its middle-game knowledge is "
                    "in its evaluation (hand-written terms, or a trained network), not in a library of "
                    "situations."),
        Row("1.16", "A general AND/OR graph (Fig. 10): root P0, two different solution graphs, {P0, M1, P1, P2, "
                    "P5} and {P0, M2, P3, P4, P5}; M3 and P6 unsolvable",
            "solvability marking; both solution graphs",
            [C("zermelo solve --file docs/graphs/fig10.json --draw docs/img/chapters-fig10.svg",
               picture="chapters-fig10.svg", alt="Fig. 10: the AND/OR graph, solution graph 1 in bold"),
             C("zermelo solve --file docs/graphs/fig10.json --draw docs/img/chapters-fig10-2.svg --solution 2",
               "solution graphs", "  2: ", "picture:",
               picture="chapters-fig10-2.svg", alt="Fig. 10: the AND/OR graph, solution graph 2 in bold")],
            "The graph is rebuilt from the chapter's text: P0 is solved through M1 or through M2, the two "
            "solution graphs sharing P5; M3 is not solvable since P6 is not. The pictures draw each solution "
            "graph in bold."),
    ]),
    ("Chapter 2 — minimax and alpha-beta as procedures", [
        Row("2.1", "Checkers evaluation: (men difference) + 3 × (kings difference)",
            "the textbook value on a position, usable in search",
            [C('zermelo explain checkers -p eval=textbook --fen "W:W21,22,K30:B1,2,K5,K6" --no-moves',
               "evaluation", "men difference", "kings difference", "sum")],
            "With `-p eval=textbook` the search uses this value too (the engine's own weighs a king 1.4 men)."),
        Row("2.2", "A minimiser to move at the root (three moves, value −7, choice C)",
            "tree files with MIN at the root and named nodes",
            [C("zermelo tree --file docs/trees/min-root.json", "value:", "visited:", "root", "├─", "└─")]),
        Row("2.3", "`minimax(p, level)` with a level limit and a time limit", "depth and time limits",
            [C("zermelo tree tictactoe --depth 2 --algorithm minimax", "algorithm:", "value:", "nodes per level"),
             C("(printf 'uci\\nposition startpos\\ngo movetime 500\\n'; sleep 2) | zermelo | tail -1",
               "bestmove")],
            "A level limit (`--depth`, `go depth N`) and a time limit (`go movetime`, clocks)."),
        Row("2.4", "Alpha-beta with one bound (the parent's \"guarantee\"): no deep cut-offs",
            "node counts of one-bound against two-bound on the same trees",
            [C("zermelo tree --file docs/trees/deep-cutoff.json --algorithm alphabeta1", "algorithm:", "value:",
               "visited:"),
             C("zermelo lab alphabeta --branching 3 --depth 6 --seed 1", "depth", "leaves:", "alpha-beta",
               "one bound")],
            "The one-bound search misses the deep cut-off of 1.10 (9 nodes against 8) and, on uniform "
            "trees, evaluates more leaves from depth 4 on."),
        Row("2.5", "Fig. 8.24: the first branch is worth 8; the second meets 6 and its remaining child is skipped "
                   "(`[[8,9],[6,7]]`)", "\"7 never searched\"",
            [C("zermelo tree --file docs/img/chapters-fig824.json --algorithm alphabeta")]),
    ]),
    ("Chapter 3 — games in a logic language", [
        Row("3.1", "A game as an AND/OR tree: the player's positions OR, the opponent's AND", "as 1.2",
            [C("zermelo solve nim --tree", "solution tree", "root", "├─", "└─")],
            "The proof's tree: at the prover's (OR) positions one answer, at the opponent's (AND) every move."),
        Row("3.2", "A won position: some move after which every reply leaves a won position",
            "proof of a win, loss or draw",
            [C("zermelo solve mnk -p m=4 -p n=4 -p k=3", "game:", "value:", "first move"),
             C("zermelo solve tictactoe", "game:", "value:", "first move")]),
        Row("3.3", "Chess ≈ 10^120 positions; Go needs far stronger methods", "an estimate; Go at least on small boards",
            [C("zermelo perft -g chess --estimate 1000", "Knuth's estimate", "complete games",
               "nodes of the complete game tree", "average branching", "b^d", "chapters", "why they differ",
               slow=True),
             C("zermelo perft -g go -p size=5 --estimate 200", "Knuth's estimate", "complete games",
               "nodes of the complete game tree", "average branching"),
             C("zermelo solve go -p size=3", "margin:", "value:", "first move:")],
            "Random games of chess run far longer than played ones (about 340 plies against some 80), so "
            "both the estimate of the complete tree and b^d exceed 10^120 by far; b^d over a played game, "
            "some 30 moves a ply for 80 plies, is 10^118, the chapters' order. Go is played on boards from 1×1 to 19×19; even 5×5 has a tree of about "
            "10^79 nodes by the same estimate. Alpha-beta with a table, symmetry lookups and Benson's "
            "unconditional life solves the smallest boards (3×3: Black wins by 9, 4×4: by 2 in 7.08 M nodes, "
            "the published values; 2×2, 2×3, 2×4 and 3×4 too, while 5×5 stays out of reach, see "
            "[Go's measured results](measured/go.md)); the stronger method of the Go programs, Monte-Carlo "
            "tree search, is the engine's option `Strategy mcts`. On 9×9, alpha-beta and Monte-Carlo tree "
            "search at 2 s a move each lost 20 of 20 to GNU Go at level 1, by the whole board "
            "([measured](measured/go.md#against-gnu-go)).",
            not_yet="5×5 solved: the search was stopped at 26.35 M nodes after 25 minutes without a bound "
                    "([Go's measured results](measured/go.md))."),
    ]),
    ("Chapter 4 — exhaustive analysis", [
        Row("4.1", "Alpha-beta turns 4^n into about 3^n (a gain of (4/3)^n)", "the counts on a b = 4 tree",
            [C("zermelo lab alphabeta --branching 4 --depth 6", "depth", "leaves:", "minimax", "alpha-beta",
               "3^d", "gain over", "(4/3)^d")],
            "The chapters' 3^n and (4/3)^n are the rows `3^d` and `(4/3)^d`; alpha-beta in random order comes "
            "close to them (a gain of 4.71 at depth 6 against 5.62), and a good order gains far more, down to "
            "Knuth and Moore's minimum."),
        Row("4.2", "KBNK by retrograde analysis: the fewest moves to mate from every position",
            "longest win 33 moves",
            [C("zermelo tables build chess KBNK --out tables/ --quiet --stats --plot docs/img/chapters-KBNK.svg",
               "KBNvK: ", "white to move", "won: 33", "a longest win", "black to move", slow=True,
               picture="chapters-KBNK.svg", alt="KBNK: positions per moves to mate, log scale")],
            "The plot counts on a logarithmic axis, so the few positions 1–3 moves and 33 moves from mate show "
            "beside the peak near 28."),
        Row("4.3", "Four pieces: 64^4 = 2^24 = 16 M positions, 32 M with the side to move",
            "the naive index beside the symmetric one (462 king pairs × 64 × 64 × 2 = 3,784,704)",
            [C("zermelo tables build chess KBNK --steps --out tables/", "index:", slow=True)],
            "The same line for three pieces comes first in 4.4."),
        Row("4.4", "The marking: mates get 0, then positions from which a move reaches a 0 get −1 … in the "
                   "chapter's alternating labels (0, −1, 2, −3, …) until nothing new is marked",
            "the rounds shown one by one on a small class",
            [C("zermelo tables build chess KRK --steps --out tables/ --plot docs/img/chapters-KRK-rounds.svg",
               "index:", "the chapters' words", "round 0:", "round 1:", "round 2:", "round 3:", "nothing new",
               "never marked", picture="chapters-KRK-rounds.svg",
               alt="KRK: positions marked per round, won and lost in two colours, log scale")],
            "Won and lost are the chapter's words: for the player who moved into the position, so the mated "
            "positions (label 0) are won and those that mate (−1) lost; the side to move has the other result."),
        Row("4.5", "Positions never marked are draws", "counts won / drawn / lost",
            [C("zermelo tables build chess KRK --steps --out tables/", "never marked")],
            "KRK has no draw with White to move; the draws are Black's positions where the rook is lost or "
            "the king is stalemated."),
        Row("4.6", "Zermelo's theorem: every such finite game has a value; tic-tac-toe is a draw",
            "the value, by search and by a table",
            [C("zermelo solve tictactoe", "value:"),
             C("zermelo tables build tictactoe --out tables/ --stats", "tictactoe", "to move:", "a longest win"),
             C("zermelo tables info tables/tictactoe.ztb", "game:", "material:", "to move:")],
            "By search (the proof-number search of `zermelo solve`) and by a table: the whole game written "
            "to a table file (every one of the 5,478 positions reachable from the start, a part per side to "
            "move), whose start position is read back from the file: a draw."),
        Row("4.7", "Brudno's KQK with the white king fixed (c3): a tiny table", "built, with its memory",
            [C("zermelo tables build chess KQK --fixed-king c3 --out tables/", "fixed on c3", "king on c3",
               "white to move", "black to move")]),
    ]),
    ("Chapter 5 — adversarial search", [
        Row("5.1", "A game as a search problem: initial state, successor function, terminal test, utility",
            "protocol `d`, `query gameover`, `query result`",
            [C("printf 'uci\\nsetoption name UCI_Variant value tictactoe\\n"
               "position startpos moves a1 b1 b2 c1 c3\\nd\\nquery gameover\\nquery result\\n' | zermelo",
               "Text:", "To move:", "Legal moves:", "response")],
            "`position` sets the state, `go perft 1` counts the successors, `query gameover` is the terminal "
            "test and `query result` the utility."),
        Row("5.2", "MAX has nine first moves in tic-tac-toe", "perft 1 = 9",
            [C("zermelo perft -g tictactoe 1 --divide", "Nodes searched")]),
        Row("5.3", "The two-ply tree: B = min(3, 12, 8) = 3, C = 2, D = 2, root 3, move a1; alpha-beta skips 4 "
                   "and 6", "exact",
            [C("zermelo tree --file docs/img/aima-tree.json --algorithm minimax", "value:", "visited:"),
             C("zermelo tree --file docs/img/aima-tree.json --algorithm alphabeta", "value:", "visited:",
               "cut:", "at 2:")],
            "Moves are numbered 1, 2, 3 (the chapter's a1, a2, a3)."),
        Row("5.4", "Minimax time O(b^m), space O(bm)", "node counts; the memory of a depth-first search",
            [C("zermelo tree tictactoe --depth 9 --algorithm minimax", "visited:", "nodes per level", slow=True),
             C("zermelo lab memory --branching 3 --depth 8")],
            "549,946 nodes visited for the complete tree of tic-tac-toe. On uniform trees the nodes grow as "
            "b^m while a depth-first search holds one path: m + 1 open nodes keeping b moves each, and the "
            "peak of the memory allocated during the search (Python's tracemalloc) grows by a few hundred "
            "bytes a level once the interpreter's free lists are full (m = 4 is their bump). SSS*'s OPEN list, best first, grows as b^⌈m/2⌉."),
        Row("5.5", "Games of more than two players: a vector of values at each node; at node X player C "
                   "chooses ⟨1,2,6⟩ over ⟨4,2,3⟩", "the vector tree backed up, node X marked",
            [C("zermelo tree --file docs/trees/node-x.json --svg docs/img/chapters-node-x.svg",
               "value:", "visited:", "X  C", picture="chapters-node-x.svg",
               alt="max^n: node X backs up ⟨1, 2, 6⟩")]),
        Row("5.6", "Alliances: two weak players attack a strong third, then the alliance breaks up",
            "an example where max^n's choices show the alliance form and dissolve",
            [C("zermelo tree --file docs/trees/alliance.json", "value:", "visited:", "at "),
             C("zermelo tree --file docs/trees/alliance.json --algorithm paranoid", "value:")]),
        Row("5.7", "Non-zero-sum cooperation: a leaf ⟨1000, 1000⟩ best for both",
            "a two-player vector tree where both prefer the same leaf",
            [C("zermelo tree --file docs/trees/cooperation.json", "value:"),
             C("zermelo tree --file docs/trees/cooperation.json --algorithm paranoid", "value:", "line ends")],
            "max^n finds the shared ⟨1000, 1000⟩; the paranoid search, assuming the other player hostile, "
            "plays safe."),
        Row("5.8", "4×4 tic-tac-toe is small enough to solve", "a draw (k = 4); k = 3 a first-player win",
            [C("zermelo solve mnk -p m=4 -p n=4 -p k=4", "game:", "value:"),
             C("zermelo solve mnk -p m=4 -p n=4 -p k=3", "game:", "value:")]),
    ]),
]


def shown(output: str, keep: list[str], limit: int = SHOWN_LINES) -> list[str]:
    """The output lines the page shows: those holding one of ``keep`` (all when empty,
    up to ``limit``), a line "…" where lines are left out."""
    # Timings, and the move of a search stopped by the clock, differ from run to run: "…" stands
    # for them (any text, as the docs test reads it).
    lines = [re.sub(r"\d+\.\d+( ?s)\b", r"…\1", line) for line in output.rstrip().splitlines()]
    lines = ["bestmove …" if line.startswith("bestmove ") else line for line in lines]
    out: list[str] = []
    for line in lines:
        wanted = any(k in line for k in keep) if keep else len([o for o in out if o != "…"]) < limit
        if wanted and len([o for o in out if o != "…"]) < 60:
            out.append(line.rstrip())
        elif not out or out[-1] != "…":
            out.append("…")
    return out


def page_blocks(page: Path) -> dict[str, str]:
    """The console blocks of a page written before: command -> the output lines shown."""
    blocks: dict[str, str] = {}
    if page.exists():
        for command, body in re.findall(r"```console\n\$ (.*)\n(.*?)\n```", page.read_text(), re.S):
            blocks[command] = body
    return blocks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(REPO / "docs"), help="directory of the page (default docs/)")
    parser.add_argument("--reuse-slow", action="store_true",
                        help="take the output of the commands marked slow from the page already written "
                             "(their pictures stay as they are); the others are run")
    args = parser.parse_args()
    out = Path(args.out).resolve()
    previous = page_blocks(out / "chapters.md") if args.reuse_slow else {}
    img = out / "img"
    img.mkdir(parents=True, exist_ok=True)
    (img / "chapters-fig824.json").write_text(FIG_824 + "\n")
    if not (img / "aima-tree.json").exists():
        (img / "aima-tree.json").write_text("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n")
    parts = ["""# The chapters, figure by figure

<!-- Generated by scripts/make_chapters.py: edit the script, not this page. -->

zermelo's design comes from five textbook chapters on game-tree search. This page
takes every figure and worked example of theirs in turn: what reproducing it must
show, the command that reproduces it (run from the repository root), and that
command's output, captured when `python scripts/make_chapters.py` wrote the page
(`…` marks lines left out). Rows that nothing reproduces yet say so. The tree
files are in `docs/trees/`, the graph files in `docs/graphs/`; pictures need
`pip install 'zermelo[plots]'`. `tests/test_chapters.py` runs these commands and
checks each figure.
"""]
    with tempfile.TemporaryDirectory() as tmp:
        tables = Path(tmp) / "tables"
        tables.mkdir()
        shims = shim_dir(Path(tmp))
        for title, rows in CHAPTERS:
            parts.append(f"## {title}\n")
            for row in rows:
                parts.append(f"### {row.number} {row.item}\n\nTo show: {row.figure}.\n")
                for command in row.commands:
                    if command.slow and command.text in previous:
                        body = previous[command.text]
                    else:
                        text = command.text.replace("docs/img/", f"{img}/").replace("tables/", f"{tables}/")
                        status, output = run(text, shims)
                        if status:
                            raise SystemExit(f"{command.text} failed ({status}):\n{output}")
                        output = output.replace(f"{img}/", "docs/img/").replace(f"{tables}/", "tables/")
                        body = "\n".join(shown(output, command.keep))
                    marker = f"{SLOW}\n{NOT_RUN}" if command.slow else NOT_RUN
                    parts.append(f"{marker}\n\n```console\n$ {command.text}\n{body}\n```\n")
                    if command.picture:
                        parts.append(f"![{command.alt}](img/{command.picture})\n")
                if row.note:
                    parts.append(row.note + "\n")
                if row.not_yet:
                    parts.append(f"**Not yet:** {row.not_yet}\n")
    page = out / "chapters.md"
    page.write_text("\n".join(parts))
    print(f"wrote {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
