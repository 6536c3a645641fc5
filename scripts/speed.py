"""Both builds side by side: bench nodes/s of the pure and the compiled build for
every game, and chess perft against python-chess, in one run on one machine.

    nice python scripts/speed.py [--runs 3] [--games chess,reversi] [--no-perft]

Each figure is the median of ``--runs`` runs; the builds alternate run by run so
that a change in the machine's load falls on both. Every bench is a fresh
process (``python -m protocol bench``; ``ZERMELO_PURE=1`` for the pure build), and
the node counts of the two builds must agree (the script says so if they do not).
The compiled build must be installed (``pip install -e .``); the script refuses to
compare a pure build with itself. A bench of fewer than 1,000 nodes (the default
Nim's) times the search's fixed cost per ``go``: its row is marked "set-up bound"
and held to no target, and a larger instance of the game is timed as well. About 5 minutes with the defaults.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import games  # noqa: E402
from engine import build  # noqa: E402

#: What each game's ratio must reach (compiled / pure nodes per second).
TARGETS = {"chess": 10.0}
DEFAULT_TARGET = 5.0
#: Extra rows: a game whose default bench is too small to time the search (Nim's
#: one heap of 7 has 80 nodes, searched in a fraction of a millisecond) also runs
#: a larger instance of itself, named here with its ``zermelo bench`` arguments.
LARGER = {"nim": ("nim 3,4,5,6", ["--param", "heaps=3,4,5,6", "--param", "max_take=3", "--depth", "10"])}
#: A bench this small times the search's fixed cost per ``go``, not nodes: its row is
#: printed but held to no target (the larger instance above carries the game's).
SETUP_BOUND_NODES = 1000
#: Perft positions for the python-chess comparison: (name, FEN, depth).
PERFT = [("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
         ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3)]


def _run(args: list[str], pure: bool) -> str:
    env = {**os.environ, "ZERMELO_PURE": "1" if pure else "0"}
    out = subprocess.run([sys.executable, *args], cwd=REPO, env=env, capture_output=True, text=True,
                         check=True)
    return out.stdout


def bench(game: str, pure: bool, extra: list[str] | None = None) -> tuple[int, int]:
    """(nodes, nodes/s) of one ``zermelo bench`` of ``game`` (with ``extra`` arguments)."""
    out = _run(["-m", "protocol", "bench", "--game", game, *(extra or [])], pure)
    nodes = int(re.search(r"Nodes searched: (\d+)", out).group(1))
    nps = int(re.search(r"Nodes/second: (\d+)", out).group(1))
    return nodes, nps


_PERFT_CODE = """
import sys, time
fen, depth, which = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if which == "python-chess":
    import chess
    def perft(board, depth):
        if depth == 1:
            return board.legal_moves.count()
        total = 0
        for move in board.legal_moves:
            board.push(move)
            total += perft(board, depth - 1)
            board.pop()
        return total
    pos = chess.Board(fen)
else:
    import games
    from engine.perft import perft
    pos = games.load("chess").new_position(fen)
start = time.perf_counter()
nodes = perft(pos, depth)
print(nodes, time.perf_counter() - start)
"""


def perft_nps(fen: str, depth: int, which: str) -> tuple[int, float]:
    out = _run(["-c", _PERFT_CODE, fen, str(depth), which], pure=which == "pure").split()
    return int(out[0]), int(out[0]) / float(out[1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    # Games of more than two players are searched by the pure engine/multiplayer.py: not compared.
    two_player = [name for name in games.names() if len(games.load(name).players) == 2]
    ap.add_argument("--games", default=",".join(two_player))
    ap.add_argument("--no-perft", action="store_true")
    args = ap.parse_args()
    if not build.COMPILED:
        print(f"the compiled build is not in use ({build.describe()}); install it first", file=sys.stderr)
        return 2
    print(f"build: {build.describe()}; medians of {args.runs} runs, builds alternating\n")
    print(f"{'game':<10} {'nodes':>9} {'pure n/s':>10} {'compiled n/s':>13} {'ratio':>7} {'target':>7}")
    short = []
    rows = []
    for game in args.games.split(","):
        rows.append((game, game, []))
        if game in LARGER:
            rows.append((game, *LARGER[game]))
    for game, label, extra in rows:
        pure, comp, counts = [], [], set()
        for _ in range(args.runs):
            for is_pure, into in ((True, pure), (False, comp)):
                nodes, nps = bench(game, is_pure, extra)
                counts.add(nodes)
                into.append(nps)
        ratio = statistics.median(comp) / statistics.median(pure)
        target = TARGETS.get(game, DEFAULT_TARGET)
        setup_bound = max(counts) < SETUP_BOUND_NODES
        if ratio < target and not setup_bound:
            short.append(label)
        nodes_text = str(counts.pop()) if len(counts) == 1 else "DIFFER:" + "/".join(map(str, sorted(counts)))
        target_text = "set-up bound" if setup_bound else f"{target:>6.0f}x"
        print(f"{label:<10} {nodes_text:>9} {statistics.median(pure):>10,.0f} {statistics.median(comp):>13,.0f} "
              f"{ratio:>6.1f}x {target_text:>7}", flush=True)
    if not args.no_perft:
        print(f"\n{'perft':<16} {'nodes':>9} {'python-chess n/s':>17} {'pure n/s':>10} {'compiled n/s':>13} "
              f"{'vs python-chess':>16}")
        for name, fen, depth in PERFT:
            figures = {}
            for which in ("python-chess", "pure", "compiled"):
                runs = [perft_nps(fen, depth, which) for _ in range(args.runs)]
                figures[which] = statistics.median(nps for _, nps in runs)
                nodes = runs[0][0]
            print(f"{name + ' d' + str(depth):<16} {nodes:>9,} {figures['python-chess']:>17,.0f} "
                  f"{figures['pure']:>10,.0f} {figures['compiled']:>13,.0f} "
                  f"{figures['compiled'] / figures['python-chess']:>15.1f}x", flush=True)
    if short:
        print(f"\nbelow target: {', '.join(short)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
