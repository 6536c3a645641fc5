"""The search made visible: trees, cut-offs, node counts, solution trees, evaluation
terms, table statistics and their pictures, checked against independent oracles
(a plain recursive minimax over nested lists, published formulas and figures, the
game's own rules) and against the visits the real searches report.
"""

from __future__ import annotations

import fcntl
import io
import os
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pytest

import games
from engine import tablefile
from engine.game import NO_MOVE
from engine.pns import solution_tree
from engine.search import Searcher
from engine.textbook import Textbook, knuth_moore
from engine.timeman import Limits
from engine.trace import Counter, Recorder, best_line
from games.tree import TreeGame
from protocol import draw

ROOT = Path(__file__).resolve().parent.parent
#: The textbook's example (Russell and Norvig): max backs up 3, by the first move.
AIMA = "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"


def zermelo(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    out = subprocess.run([sys.executable, "-m", "protocol", *args], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    if check:
        assert out.returncode == 0, out.stderr
    return out


def oracle(tree, maximising: bool = True) -> int:
    """Plain minimax over nested lists: the independent reference."""
    if not isinstance(tree, list):
        return tree
    values = [oracle(child, not maximising) for child in tree]
    return max(values) if maximising else min(values)


def paths(tree, prefix=()) -> set[tuple[int, ...]]:
    """Every node of a nested-list tree as its path of child indices."""
    out = {prefix}
    if isinstance(tree, list):
        for i, child in enumerate(tree):
            out |= paths(child, prefix + (i,))
    return out


class PathListener:
    """Records the path of every node a search enters."""

    def __init__(self):
        self.stack: list[tuple[int, ...]] = []
        self.visited: list[tuple[int, ...]] = []

    def enter(self, move, depth, alpha, beta, quiescence):
        path = self.stack[-1] + (move,) if self.stack else ()
        self.stack.append(path)
        self.visited.append(path)

    def leave(self, value):
        self.stack.pop()


def random_tree(b: int, d: int, rng: random.Random, distinct: bool = True):
    leaves = iter(rng.sample(range(-10_000, 10_000), b ** d) if distinct else
                  [rng.randint(-5, 5) for _ in range(b ** d)])

    def build(level):
        return next(leaves) if level == d else [build(level + 1) for _ in range(b)]
    return build(0)


TEXTBOOK_TREES = [
    AIMA,
    "[[[5, 6], [7, 4, 5]], [[3]], [[6], [6, 9]], [[7]], [[5]], [[9, 8], [6]]]",
    "[[[[5, 3], [8, 1]], [[2, 7], [4, 6]]], [[[9, 0], [3, 5]], [[1, 8], [7, 2]]]]",
    "[7, [3, 9], [[1, 2], 8]]",
]


# -- trees from files ---------------------------------------------------------------------

@pytest.mark.parametrize("text", TEXTBOOK_TREES)
@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "pvs"])
@pytest.mark.parametrize("order", ["none", "static", "perfect", "random"])
def test_a_tree_from_a_file_backs_up_the_root_value_and_choice(text, algorithm, order):
    game = TreeGame.from_text(text)
    tree = game.tree
    expected = oracle(tree)
    best_children = {i for i, child in enumerate(tree) if oracle(child, False) == expected}
    pos = game.new_position()
    recorder = Recorder(pos)
    value = Textbook(pos, recorder, order, seed=3).search(algorithm, game.height())
    assert value == expected
    line = best_line(recorder.root)
    assert line[1].move in best_children


def test_the_textbook_example_on_the_command_line():
    out = zermelo("tree", "--file", "-", check=False)
    assert out.returncode == 2  # no such file: one clear line
    path = ROOT / "tests" / "data" / "aima_tree.json"
    out = zermelo("tree", "--file", str(path), "--algorithm", "alphabeta").stdout
    assert "value: 3 for max; best move: 1" in out
    assert "7 leaves evaluated" in out
    assert out.count("cut (never searched)") == 2


def test_the_engine_search_walks_a_tree_file_to_the_same_value():
    game = TreeGame.from_text(TEXTBOOK_TREES[2])
    pos = game.new_position()
    result = Searcher(1).search(game, pos, Limits(depth=game.height()))
    assert result.score == oracle(game.tree)
    out = zermelo("tree", "--file", str(ROOT / "tests" / "data" / "aima_tree.json"), "--algorithm", "engine").stdout
    assert "value: 3 for max; best move: 1" in out
    uneven = zermelo("tree", "--file", str(ROOT / "tests" / "data" / "uneven_tree.json"), "--algorithm", "engine",
                     check=False)
    assert uneven.returncode == 2 and "same depth" in uneven.stderr


@pytest.mark.parametrize("text", TEXTBOOK_TREES)
@pytest.mark.parametrize("order", ["none", "static", "perfect"])
def test_the_nodes_drawn_as_cut_are_exactly_those_alpha_beta_does_not_visit(tmp_path, text, order):
    game = TreeGame.from_text(text)
    listener = PathListener()
    Textbook(game.new_position(), listener, order).alphabeta(game.height())
    visited = set(listener.visited)
    assert len(visited) == len(listener.visited)  # alpha-beta enters each node once

    from protocol.tree_cli import cut_expander, move_namer
    pos = game.new_position()
    recorder = Recorder(pos)
    Textbook(pos, recorder, order).alphabeta(game.height())
    name = move_namer(game, pos)
    shown = draw.shown_tree(recorder.root, name, cut_expander(game, pos, name))

    def walk(node, path):
        yield node, path
        for child in node.children:
            yield from walk(child, path + (int(child.move) - 1,))
    drawn = {path: node.kind for node, path in walk(shown, ())}
    cut = {path for path, kind in drawn.items() if kind == "cut"}
    assert set(drawn) == paths(game.tree)
    assert cut == paths(game.tree) - visited
    # The picture holds the same nodes, each one SVG group named by its kind.
    svg = tmp_path / "tree.svg"
    assert draw.draw_tree(shown, str(svg)) == len(drawn)
    ids = [g.get("id") for g in ET.parse(svg).iter("{http://www.w3.org/2000/svg}g") if g.get("id", "").startswith("node-")]
    assert len(ids) == len(drawn)
    assert sum(i.endswith("-cut") for i in ids) == len(cut)


# -- alpha-beta on uniform trees (Knuth and Moore) -------------------------------------------

@pytest.mark.parametrize("b, d", [(2, 3), (3, 4), (2, 6), (4, 3), (3, 5), (5, 2), (2, 7), (4, 4)])
def test_leaf_counts_on_uniform_trees_equal_the_formulas(b, d):
    game = TreeGame.uniform(b, d, seed=b * 10 + d)
    minimax = Textbook(game.new_position())
    minimax.minimax(d)
    perfect = Textbook(game.new_position(), order="perfect")
    perfect.alphabeta(d)
    assert minimax.leaves == b ** d
    assert perfect.leaves == knuth_moore(b, d)
    # Random trees with distinct leaves, written as files: each node's worst child first
    # cuts nothing up to depth 3 (from depth 4 on, a window handed down two levels
    # still makes deep cut-offs), so all b^d leaves are evaluated there.
    tree = random_tree(b, d, random.Random(b * d))
    orders = [("perfect", knuth_moore(b, d))] + ([("worst", b ** d)] if d <= 3 else [])
    for order, leaves in orders:
        book = Textbook(TreeGame(tree=tree).new_position(), order=order)
        assert book.alphabeta(d) == oracle(tree)
        assert book.leaves == leaves
    some = Textbook(TreeGame(tree=tree).new_position(), order="random", seed=1)
    some.alphabeta(d)
    assert knuth_moore(b, d) <= some.leaves <= b ** d


def test_reference_figures_for_uniform_trees():
    assert (knuth_moore(3, 4), 3 ** 4) == (17, 81)
    assert (knuth_moore(2, 3), 2 ** 3) == (5, 8)


def test_lab_alphabeta_prints_the_counts_and_plots_them(tmp_path):
    plot = tmp_path / "lab.png"
    out = zermelo("lab", "alphabeta", "--branching", "3", "--depth", "4", "--plot", str(plot)).stdout
    assert "minimax leaves = b^d: yes; perfect-order alpha-beta leaves = Knuth-Moore: yes" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("alpha-beta, perfect order"))
    assert row.split()[-4:] == ["3", "5", "11", "17"]
    _check_png(plot)


def test_lab_alphabeta_prints_the_chapters_3_to_the_n_and_4_thirds_to_the_n():
    """Chapter 4: alpha-beta turns 4^n into about 3^n, a gain of (4/3)^n."""
    out = zermelo("lab", "alphabeta", "--branching", "4", "--depth", "6").stdout
    lines = out.splitlines()
    three = next(line for line in lines if line.strip().startswith("3^d (the chapters' alpha-beta"))
    assert three.split()[-6:] == [f"{3 ** d:,}" for d in range(1, 7)]
    gain = next(line for line in lines if line.strip().startswith("(4/3)^d (the chapters')"))
    assert gain.split()[-6:] == [f"{(4 / 3) ** d:.2f}" for d in range(1, 7)]
    # The measured gains follow: minimax's leaves over alpha-beta's, random order first.
    at = lines.index(gain)
    assert lines[at - 1].startswith("gain over minimax") and lines[at + 1].strip().startswith("alpha-beta, random")


def test_lab_on_a_real_position_and_deepening():
    out = zermelo("lab", "alphabeta", "--game", "tictactoe", "--depth", "3").stdout
    values = next(line for line in out.splitlines() if line.strip().startswith("minimax")
                  and "," not in line.split("minimax")[1][:2])
    assert values
    out = zermelo("lab", "deepening", "--game", "tictactoe", "--depth", "5").stdout
    rows = {line.split("  ")[0]: line for line in out.splitlines()}
    with_tt = [int(x.replace(",", "")) for x in rows["alpha-beta, previous best move first"].split()[-6:]]
    without = [int(x.replace(",", "")) for x in rows["alpha-beta, same order every iteration"].split()[-6:]]
    assert with_tt[-1] < without[-1]  # totals: reordering pays


def test_quiescence_shown_side_by_side():
    out = zermelo("lab", "quiescence").stdout
    lines = out.splitlines()
    plain = next(line for line in lines if line.startswith("alpha-beta, depth 1"))
    engine = next(line for line in lines if line.startswith("engine search, depth 1"))
    deeper = next(line for line in lines if line.startswith("alpha-beta, depth 2"))
    assert plain.split()[-1] == "d1d6"  # takes the defended pawn: the recapture is past the horizon
    assert engine.split()[-1] != "d1d6"
    assert "d1d6" not in deeper.split()[-2:]


# -- the listener in the engine's search --------------------------------------------------------

@pytest.mark.parametrize("name, depth", [("chess", 4), ("checkers", 5), ("kalah", 5), ("tictactoe", 4)])
def test_the_listener_sees_every_node_the_search_counts_and_changes_nothing(name, depth):
    game = games.load(name)
    plain = Searcher(16).search(game, game.new_position(), Limits(depth=depth))
    searcher = Searcher(16)
    counter = Counter()
    searcher.trace = counter
    traced = searcher.search(game, game.new_position(), Limits(depth=depth))
    assert (traced.best, traced.score, traced.nodes, traced.pv) == (plain.best, plain.score, plain.nodes, plain.pv)
    assert counter.nodes == traced.nodes
    assert counter._had_child == []  # every enter was left


def test_every_node_the_engine_enters_is_named_by_its_move():
    # At depth 2 the engine makes no null move: every node below the root came by a
    # move, also the re-searches of PVS, which enter without a new push.
    game = games.load("chess")
    pos = game.new_position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    searcher = Searcher(16)
    recorder = Recorder(pos)
    searcher.trace = recorder
    searcher.search(game, pos, Limits(depth=2))
    for root in recorder.roots:
        below = [n for n in root.walk() if n is not root]
        assert below and all(n.move != NO_MOVE for n in below)


def test_engine_tree_picture_of_a_real_position(tmp_path):
    svg = tmp_path / "chess.svg"
    out = zermelo("tree", "chess", "--depth", "2", "--algorithm", "engine", "--svg", str(svg)).stdout
    drawn = int(re.search(r"picture: .* \((\d+) nodes drawn", out).group(1))
    ids = [g.get("id") for g in ET.parse(svg).iter("{http://www.w3.org/2000/svg}g") if g.get("id", "").startswith("node-")]
    assert len(ids) == drawn <= 300


# -- solution trees -----------------------------------------------------------------------------

def _play_all_strategies(game, pos, node, prover) -> list[int]:
    """Every game the opponent can play against the tree: at the opponent's turns each
    legal move, at the prover's the tree's answer; the results for the prover."""
    result = pos.outcome()
    moves = pos.legal_moves()
    if result is not None or not moves:
        r = result if result is not None else pos.no_moves_value()
        return [r if pos.turn == prover else -r]
    if pos.turn == prover:
        assert len(node.children) == 1, "the prover answers with exactly one move"
        plan = node.children
    else:
        assert {c.move for c in node.children} == set(moves), "every opponent move is answered"
        plan = node.children
    out = []
    for child in plan:
        assert child.move in moves
        pos.push(child.move)
        out += _play_all_strategies(game, pos, child, prover)
        pos.pop()
    return out


def test_the_seven_coin_solution_tree_answers_every_first_player_move():
    game = games.load("nim")  # 7 coins, take 1 or 2, the last one loses
    pos = game.new_position()
    prover, tree = solution_tree(game, pos, -1)
    assert game.players[prover] == "second"
    results = _play_all_strategies(game, pos, tree, prover)
    assert results and all(r == 1 for r in results)
    assert len(results) == sum(1 for n in tree.walk() if not n.children)
    # A tree with one answer changed loses somewhere: the check can fail.
    answer = tree.children[0].children[0]
    other = next(m for m in game.new_position("5 2").legal_moves() if m != answer.move)
    answer.move = other
    with pytest.raises(AssertionError):
        assert all(r == 1 for r in _play_all_strategies(game, game.new_position(), tree, prover))


def test_solve_tree_on_the_command_line(tmp_path):
    out = zermelo("solve", "nim", "--tree").stdout
    assert "second's strategy for the win" in out
    assert out.count("second wins") == 4  # first player's choices: 2 x 2 lines, all lost
    svg = tmp_path / "ttt.svg"
    out = zermelo("solve", "tictactoe", "--tree", str(svg)).stdout
    nodes = int(re.search(r"solution tree: ([\d,]+) nodes", out).group(1).replace(",", ""))
    ids = [g.get("id") for g in ET.parse(svg).iter("{http://www.w3.org/2000/svg}g") if g.get("id", "").startswith("node-")]
    assert len(ids) == min(nodes, len(ids)) and len(ids) <= 300


@pytest.mark.parametrize("name, params", [("tictactoe", {}), ("nim", {"heaps": "1,2,3", "normal": True}),
                                          ("kalah", {"pits": 3, "seeds": 1})])
def test_solution_trees_of_small_games_hold(name, params):
    game = games.load(name, **params)
    pos = game.new_position()
    from engine.pns import solve
    value = solve(game, pos).value
    prover, tree = solution_tree(game, pos, value)
    goal = 1 if value != 0 else 0
    assert min(_play_all_strategies(game, pos, tree, prover)) >= goal


# -- evaluations explained ------------------------------------------------------------------------

def test_the_open_lines_example_by_explain():
    out = zermelo("explain", "mnk", "-p", "m=4", "-p", "n=4", "-p", "k=4", "--fen", ".o../.xx./..../.... o").stdout
    assert "8 open lines" in out and "5 open lines" in out
    assert "x - o = 8 - 5 = 3" in out


def _random_positions(game, count, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        pos = game.new_position()
        for _ in range(rng.randrange(0, 40)):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            pos.push(rng.choice(moves))
        out.append(pos)
    return out


@pytest.mark.parametrize("name, params", [("chess", {}), ("checkers", {}), ("shashki", {}), ("tictactoe", {}),
                                          ("mnk", {"m": 4, "n": 4, "k": 4}), ("mnk", {})])
def test_evaluation_terms_sum_to_the_evaluation(name, params):
    game = games.load(name, **params)
    for pos in _random_positions(game, 40, 11):
        terms = game.eval_terms(pos)
        assert sum(value for _, value, _ in terms) == pos.evaluate(), pos.to_text()
    # The chess terms leave the evaluation's switches as they found them.
    if name == "chess":
        pos = game.new_position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        before = pos.evaluate_scratch()
        game.eval_terms(pos)
        assert pos.evaluate_scratch() == before


def test_checkers_explain_names_men_and_kings():
    out = zermelo("explain", "checkers", "--fen", "B:W21,K30:B1,K5,K6", "--no-moves").stdout
    assert "men, 100 each" in out and "kings, 140 each" in out
    men = next(line for line in out.splitlines() if "men, 100 each" in line)
    kings = next(line for line in out.splitlines() if "kings, 140 each" in line)
    assert "+0" in men and "+140" in kings  # black to move: 1 man each, 2 kings to 1


# -- tables shown ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def table_dir(tmp_path_factory):
    """The chess tables directory the table tests share (built once per run, one lock per class)."""
    from games.chess import tables as chess_retro

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    directory = root / "chess-tables"
    directory.mkdir(exist_ok=True)
    for name in ("KRvK", "KBNvK"):
        if not chess_retro.table_path(directory, name).exists():
            with open(directory / f"{name}.lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                chess_retro.ChessTables(directory, build=True).values(name)
    return directory


def _stats(out: str, side: str) -> tuple[int, dict[int, int], int, int, int]:
    """(legal, won per moves, won, drawn, lost) of one side from --stats output."""
    block = out.split(f"{side} to move:")[1]
    legal, won, drawn, lost = (int(x.replace(",", "")) for x in
                               re.match(r" ([\d,]+) legal = ([\d,]+) won \+ ([\d,]+) drawn \+ ([\d,]+) lost",
                                        block).groups())
    per = {}
    m = re.search(r"won, positions per moves to the end: (.*)", block)
    if m:
        for cell in m.group(1).split(", "):
            k, v = cell.split(": ")
            per[int(k)] = int(v.replace(",", ""))
    return legal, per, won, drawn, lost


def test_kbnk_stats_33_moves_and_the_counts_sum_to_the_legal_positions(table_dir, tmp_path):
    from games.chess import tables as chess_retro

    plot = tmp_path / "kbnk.png"
    out = zermelo("tables", "build", "chess", "KBNK", "--out", str(table_dir), "--stats", "--plot", str(plot)).stdout
    legal, per, won, drawn, lost = _stats(out, "white")
    assert max(per) == 33
    assert sum(per.values()) == won and won + drawn + lost == legal
    values = tablefile.open_table(chess_retro.table_path(table_dir, "KBNvK"), encoding=None).values
    half = len(values) // 2
    illegal = np.iinfo(values.dtype).min
    assert legal == int((values[:half] != illegal).sum())
    fen = re.search(r"a longest win: (\S+ \S+)", out.split("white to move:")[1]).group(1)
    import chess
    board = chess.Board(fen + " - - 0 1")
    assert board.is_valid()
    assert "won: 33-move maximum" in out
    _check_png(plot)


def test_krk_stats_16_moves(table_dir):
    out = zermelo("tables", "build", "chess", "KRK", "--out", str(table_dir), "--stats").stdout
    legal, per, won, drawn, lost = _stats(out, "white")
    assert max(per) == 16 and won == legal


# -- pictures ---------------------------------------------------------------------------------------

def _check_png(path: Path) -> None:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > 100 and height > 100


def test_each_kind_of_picture_renders(tmp_path):
    # A tree as PNG, folded beyond the limit.
    game = TreeGame.uniform(3, 5, 2)
    pos = game.new_position()
    recorder = Recorder(pos)
    Textbook(pos, recorder).minimax(5)
    shown = draw.shown_tree(recorder.root, lambda path: str(path[-1] + 1))
    png = tmp_path / "tree.png"
    drawn = draw.draw_tree(shown, str(png), limit=50)
    assert drawn <= 50 + 3 ** 3
    _check_png(png)
    svg = tmp_path / "lines.svg"
    draw.plot_lines(str(svg), {"a": ([1, 2, 3], [1.0, 10.0, 100.0])}, "t", "x", "y")
    assert ET.parse(svg).getroot().tag.endswith("svg")
    bars = tmp_path / "bars.png"
    draw.plot_bars(str(bars), [1, 2], [3, 4], "t", "x", "y")
    _check_png(bars)


def test_without_matplotlib_one_clear_line(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    from protocol import tree_cli
    status = tree_cli.main(["--file", str(ROOT / "tests" / "data" / "aima_tree.json"), "--svg", str(tmp_path / "t.svg")])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and "pip install 'zermelo[plots]'" in err[0]
    assert not (tmp_path / "t.svg").exists()


def test_text_tree_is_printed_for_small_trees():
    buf = io.StringIO()
    from protocol import tree_cli
    with redirect_stdout(buf):
        assert tree_cli.main(["tictactoe", "--fen", "xo./.x./..o x", "--depth", "2", "--algorithm", "minimax"]) == 0
    out = buf.getvalue()
    assert "root  max" in out and "nodes per level: 0: 1" in out


def test_the_walkthrough_script_runs(tmp_path):
    out = subprocess.run([sys.executable, "scripts/make_walkthrough.py", "--quick", "--out", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    page = (tmp_path / "search-made-visible.md").read_text()
    assert "zermelo tree" in page and "![" in page
    for image in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", page):
        assert (tmp_path / image).exists()
