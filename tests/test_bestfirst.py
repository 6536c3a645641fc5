"""Best-first minimax (engine.bestfirst): SSS* and DUAL* return the minimax value and
the first of equally good root moves, and never evaluate a leaf that alpha-beta in
the same left-to-right order leaves alone (Stockman 1979; Pearl 1984), checked by
hypothesis on random trees (uneven depths, ties, a minimiser at the root) against
the textbook minimax and alpha-beta; on the chapters' example tree SSS* evaluates
fewer leaves, shown by ``zermelo tree --algorithm sss``.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

import games
from engine.bestfirst import sss
from engine.textbook import Textbook
from games.tree import TreeGame
from tests.conftest import ROOT, zermelo

TREES = ROOT / "docs" / "trees"

# Leaves from a small range, so that ties are common.
trees = st.recursive(st.integers(-4, 4), lambda sub: st.lists(sub, min_size=1, max_size=4), max_leaves=40)


class Leaves:
    """The leaves a depth-first search evaluates, as paths of moves (a node left without a child)."""

    def __init__(self):
        self.stack: list[tuple[tuple[int, ...], bool]] = []
        self.leaves: set[tuple[int, ...]] = set()

    def enter(self, move, depth, alpha, beta, quiescence):
        if self.stack:
            path, _ = self.stack[-1]
            self.stack[-1] = (path, True)
            self.stack.append((path + (move,), False))
        else:
            self.stack.append(((), False))

    def leave(self, value):
        path, had_child = self.stack.pop()
        if not had_child:
            self.leaves.add(path)


def check(game: TreeGame, depth: int) -> tuple[int, int, int]:
    """Both best-first searches against minimax and alpha-beta: (alpha-beta's, SSS*'s, DUAL*'s leaves)."""
    minimax = Textbook(game.new_position())
    value = minimax.minimax(depth)
    listener = Leaves()
    alphabeta = Textbook(game.new_position(), listener)
    assert alphabeta.alphabeta(depth) == value
    counts = [alphabeta.leaves]
    for dual in (False, True):
        pos = game.new_position()
        run = sss(pos, depth, dual)
        assert run.value == value
        assert run.best == minimax.best == alphabeta.best
        evaluated = [path for path, _ in run.evaluated]
        assert len(set(evaluated)) == len(evaluated) == run.leaves
        assert set(evaluated) <= listener.leaves
        assert pos.path == []
        counts.append(run.leaves)
    return counts[0], counts[1], counts[2]


@settings(max_examples=300, deadline=None)
@given(trees, st.booleans())
def test_sss_and_dual_on_random_trees(tree, min_root):
    if not isinstance(tree, list):
        tree = [tree]
    game = TreeGame(tree={"tree": tree, "root": "min"} if min_root else tree)
    check(game, game.height())


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 5), st.integers(0, 10_000))
def test_sss_on_uniform_trees_and_below_the_horizon(branching, depth, seed):
    game = TreeGame.uniform(branching, depth, seed)
    check(game, depth)
    # A depth short of the tree's: interior nodes are scored by their static value.
    if depth > 1:
        check(game, depth - 1)


def test_sss_on_a_real_game_agrees_with_alpha_beta():
    game = games.load("tictactoe")
    pos = game.new_position("x../.o./... x")
    for depth in (1, 2, 3, 4):
        book = Textbook(game.new_position(pos.to_text()))
        value = book.alphabeta(depth)
        run = sss(pos, depth)
        assert (run.value, run.best) == (value, book.best) and run.leaves <= book.leaves
        assert pos.to_text() == "x../.o./... x"


def test_sss_evaluates_fewer_leaves_on_the_chapters_example():
    out = zermelo("tree", "--file", str(TREES / "sss.json"), "--algorithm", "sss")
    assert out.returncode == 0, out.stderr
    assert "value: 6 for max; best move: 2" in out.stdout
    assert "6 leaves evaluated" in out.stdout and "alpha-beta, same order: 15 nodes, 8 leaves" in out.stdout
    assert "evaluated by alpha-beta, never by sss: 2 (1 2 1, 1 2 2)" in out.stdout
    assert "evaluated by sss, never by alpha-beta: 0" in out.stdout
    # A minimiser at the root: its value and choice, from max's view as the other algorithms give them.
    out = zermelo("tree", "--file", str(TREES / "min-root.json"), "--algorithm", "dual")
    assert "value: -7 for max (min to move); best move: C" in out.stdout


def test_best_first_refuses_what_it_cannot_do_in_one_line(tmp_path):
    out = zermelo("tree", "--file", str(TREES / "node-x.json"), "--algorithm", "sss")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "two players" in out.stderr
    out = zermelo("tree", "--file", str(TREES / "sss.json"), "--algorithm", "sss", "--svg", str(tmp_path / "t.svg"))
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "no --order, --svg or --png" in out.stderr
    assert not (tmp_path / "t.svg").exists()


def test_lab_sss_counts_leaves_depth_by_depth():
    out = zermelo("lab", "sss", "--depth", "4", "--seeds", "10")
    assert out.returncode == 0, out.stderr
    rows = {line[:20].strip(): [float(v.replace(",", "")) for v in line[20:].split()]
            for line in out.stdout.splitlines()[2:7]}
    assert rows["minimax b^d"] == [3, 9, 27, 81] and rows["Knuth-Moore minimum"] == [3, 5, 11, 17]
    for d in range(4):
        assert rows["Knuth-Moore minimum"][d] <= rows["SSS*"][d] <= rows["alpha-beta"][d]
        assert rows["Knuth-Moore minimum"][d] <= rows["DUAL*"][d] <= rows["alpha-beta"][d]
    assert re.search(r"fewer leaves than alpha-beta on [1-9]\d* of 40 trees, more on 0", out.stdout)
