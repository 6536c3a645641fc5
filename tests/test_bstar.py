"""Berliner's B* (engine.bestfirst.bstar): on random trees whose bounds hold (every
node's interval contains its minimax value, leaves exact) it stops, and the move
it returns is truly best (its value is the root's minimax value, from a plain
recursive minimax); the root's chosen move is separated from the others at the
end; it never expands a node twice nor more nodes than the tree has. The shipped
example (docs/trees/bstar.json) is proven in three expansions, fewer nodes than
alpha-beta; tree files without bounds, or with bounds that do not hold, are
refused in one line over the real command.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from engine.bestfirst import BSTAR_STRATEGIES, DISPROVE_REST, PROVE_BEST, bstar
from engine.game import InvalidPositionError
from engine.textbook import Textbook
from games.tree import TreeGame
from tests.conftest import ROOT, zermelo

TREES = ROOT / "docs" / "trees"

# Leaves from a small range, so that ties are common.
shapes = st.recursive(st.integers(-6, 6), lambda sub: st.lists(sub, min_size=1, max_size=4), max_leaves=30)


def minimax(tree, maximising: bool) -> int:
    """Plain minimax over nested lists, values from max's view."""
    if not isinstance(tree, list):
        return tree
    values = [minimax(c, not maximising) for c in tree]
    return max(values) if maximising else min(values)


def with_bounds(tree, maximising: bool, draw) -> dict | int:
    """The tree as a file's nodes: every interior node gets bounds that hold its minimax value,
    from 0 to 5 below and above it (``draw`` picks the widths)."""
    if not isinstance(tree, list):
        return tree
    value = minimax(tree, maximising)
    return {"bounds": [value - draw(st.integers(0, 5)), value + draw(st.integers(0, 5))],
            "children": [with_bounds(c, not maximising, draw) for c in tree]}


def interior(tree) -> int:
    return 1 + sum(interior(c) for c in tree) if isinstance(tree, list) else 0


@settings(max_examples=300, deadline=None)
@given(shapes, st.booleans(), st.sampled_from(BSTAR_STRATEGIES), st.data())
def test_bstar_proves_a_best_move_on_random_trees_with_bounds_that_hold(shape, min_root, strategy, data):
    if not isinstance(shape, list):
        shape = [shape]
    doc = {"tree": with_bounds(shape, not min_root, data.draw)}
    if min_root:
        doc["root"] = "min"
    game = TreeGame(tree=doc)
    pos = game.new_position()
    run = bstar(pos, game.height(), strategy=strategy)
    assert pos.path == []
    # Values from the root side's view: min's are max's negated.
    sign = -1 if min_root else 1
    true = [sign * minimax(c, min_root) for c in shape]
    assert run.separated and true[run.best] == max(true)
    assert run.low <= max(true) <= run.high
    # Every node B* built keeps an interval that holds its true value (backing up keeps bounds valid).
    for k in range(len(run.parent)):
        node = game.root
        for m in run.path(k):
            node = node.children[m]
        assert run.lows[k] <= sign * node.minimax <= run.highs[k]
    expanded = [k for k in range(len(run.parent)) if run.order[k]]
    assert sorted(run.order[k] for k in expanded) == list(range(1, run.expanded + 1))
    assert run.expanded == len(run.expansions) <= interior(shape)
    assert run.generated == len(run.parent) <= sum(1 for _ in game._nodes())
    # Separation: the chosen move's pessimistic value reaches every other move's optimistic value.
    children = run.root_children()
    chosen = next(low for move, low, _ in children if move == run.best)
    assert all(chosen >= high for move, _, high in children if move != run.best)
    if strategy != "auto":
        forced = PROVE_BEST if strategy == "provebest" else DISPROVE_REST
        assert all(how in ("", forced, PROVE_BEST) for _, how, _ in run.expansions)


def test_the_shipped_example_expansions_and_proof():
    game = TreeGame.from_text((TREES / "bstar.json").read_text())
    run = bstar(game.new_position(), 3)
    assert (run.low, run.high, run.best, run.separated) == (5, 8, 1, True)
    assert (run.expanded, run.generated) == (3, 8)
    assert [(path, how) for path, how, _ in run.expansions] == [((), ""), ((1,), PROVE_BEST), ((0,), DISPROVE_REST)]
    assert [intervals for _, _, intervals in run.expansions] == [
        [(2, 6), (4, 9), (1, 5)], [(2, 6), (5, 8), (1, 5)], [(2, 4), (5, 8), (1, 5)]]
    assert run.root_children() == [(0, 2, 4), (1, 5, 8), (2, 1, 5)]
    # Either strategy alone proves the same move.
    assert bstar(game.new_position(), 3, strategy="provebest").best == 1
    assert bstar(game.new_position(), 3, strategy="disproverest").best == 1
    book = Textbook(game.new_position())
    assert book.alphabeta(3) == 6 and book.best == 1 and book.leaves == 10


def test_bstar_on_a_game_uses_the_evaluation_and_a_margin():
    game = games.load("tictactoe")
    pos = game.new_position("x../.o./... x")
    # No margin: every node below the root is a point, its static value; B* is a one-ply search.
    run = bstar(pos, 3, margin=0)
    one_ply = Textbook(game.new_position(pos.to_text()))
    assert (run.low, run.high) == (one_ply.minimax(1),) * 2 and run.best == one_ply.best
    assert run.expanded == 1 and pos.to_text() == "x../.o./... x"
    # A margin wider than any evaluation's change: bounds that hold, so the move is best at the depth.
    book = Textbook(game.new_position(pos.to_text()))
    value = book.minimax(3)
    wide = bstar(pos, 3, margin=1000)
    assert wide.separated and wide.low <= value <= wide.high
    after = game.new_position(pos.to_text())
    after.push(wide.best)
    assert -Textbook(after).minimax(2) == value
    # A limit stops it without a proof, on the move of best pessimistic value.
    stopped = bstar(pos, 4, margin=1000, limit=20)
    assert not stopped.separated and stopped.best in pos.legal_moves()


def test_tree_files_with_bounds_are_checked_when_read():
    ok = TreeGame.from_text('{"tree": [{"bounds": [1, 4], "children": [3, 5]}, 2]}')
    assert ok.root.children[0].bounds == (1, 4) and ok.root.children[0].minimax == 3
    bad = {
        '[{"bounds": [4, 9], "children": [3, 5]}, 2]': "1: bounds [4, 9] do not hold the node's minimax value 3",
        '[{"name": "A", "bounds": [5, 4], "children": [3, 5]}]': "A: bounds [5, 4]: the first is the lower one",
        '[{"bounds": [1, 4], "value": 3}]': "1: a leaf's value is exact",
        '[{"bounds": 3, "children": [3]}]': "1: bounds are [pessimistic, optimistic]",
        '[{"bounds": [1, true], "children": [3]}]': "1: bound True",
        '{"players": 3, "tree": [{"bounds": [1, 2], "children": [[1, 2, 3]]}]}': "bounds are for trees of one value",
    }
    for text, message in bad.items():
        with pytest.raises(InvalidPositionError, match=message.replace("[", r"\[")):
            TreeGame.from_text(text if text.startswith("{") else f'{{"tree": {text}}}')
    # A min root: the check backs up min's choices.
    TreeGame.from_text('{"root": "min", "tree": [{"bounds": [5, 9], "children": [3, 5]}, 2]}')


def test_zermelo_tree_bstar_shows_the_proof():
    out = zermelo("tree", "--file", str(TREES / "bstar.json"), "--algorithm", "bstar")
    assert out.returncode == 0, out.stderr
    assert "value: [5, 8] for max; best move: 2" in out.stdout
    assert "proof: 2 is best for max: its pessimistic value, 5, reaches every other move's optimistic value " \
           "(at most 5)" in out.stdout
    assert "expanded: 3 nodes; generated 8 nodes in all" in out.stdout
    assert "alpha-beta, same order: 19 nodes, 10 leaves evaluated" in out.stdout
    assert "  3. 1 (disprove rest): 1 [2, 4], 2 [5, 8], 3 [1, 5]" in out.stdout
    assert "├─ 2  min  [5, 8]  expanded 2 (prove best)  *" in out.stdout
    assert "generated by bstar, never visited by alpha-beta: 0" in out.stdout


def test_zermelo_tree_bstar_on_a_min_root(tmp_path):
    # A minimiser at the root: its proof in its own values, the value in max's as the other algorithms give it.
    tree = tmp_path / "min.json"
    tree.write_text(json.dumps({"root": "min", "tree": [{"bounds": [5, 9], "children": [5, 9]},
                                                        {"bounds": [2, 4], "children": [3, 4]}]}))
    out = zermelo("tree", "--file", str(tree), "--algorithm", "bstar")
    assert out.returncode == 0, out.stderr
    assert "value: [2, 4] for max (min to move); best move: 2" in out.stdout
    assert "proof: 2 is best for min: its pessimistic value, -4, reaches every other move's optimistic value " \
           "(at most -5); values from min's side" in out.stdout


def test_zermelo_tree_bstar_on_a_game(tmp_path):
    out = zermelo("tree", "tictactoe", "--fen", "x../.o./... x", "--depth", "3", "--algorithm", "bstar",
                  "--margin", "1000", "--bstar-strategy", "provebest")
    assert out.returncode == 0, out.stderr
    assert "bounds: the static evaluation ± 1,000 (--margin); exact at game ends and at the horizon" in out.stdout
    assert "strategy provebest, depth 3" in out.stdout
    assert "proof: " in out.stdout and "(disprove rest)" not in out.stdout


def test_zermelo_tree_bstar_refusals_in_one_line(tmp_path):
    out = zermelo("tree", "--file", str(TREES / "sss.json"), "--algorithm", "bstar")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert "sss.json: bstar needs bounds at every interior node below the root" in out.stderr
    assert "node 1 has none" in out.stderr
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps([{"bounds": [1, 5], "children": [[1, 2], 5]}, 0]))
    out = zermelo("tree", "--file", str(partial), "--algorithm", "bstar")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "node 1 1 has none" in out.stderr
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps([{"name": "A", "bounds": [4, 9], "children": [3, 5]}, 2]))
    out = zermelo("tree", "--file", str(wrong), "--algorithm", "bstar")
    assert out.returncode != 0 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert "wrong.json: A: bounds [4, 9] do not hold the node's minimax value 3" in out.stderr
    out = zermelo("tree", "--file", str(TREES / "node-x.json"), "--algorithm", "bstar")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "two players" in out.stderr
    out = zermelo("tree", "--file", str(TREES / "bstar.json"), "--algorithm", "bstar", "--order", "static")
    assert out.returncode == 2 and out.stderr == "zermelo tree: bstar searches in generated order; no --order with it\n"
    out = zermelo("tree", "--file", str(TREES / "bstar.json"), "--algorithm", "alphabeta", "--margin", "5")
    assert out.returncode == 2 and "--margin and --bstar-strategy go with --algorithm bstar" in out.stderr


def test_zermelo_tree_bstar_draws_the_tree_it_built(tmp_path):
    pytest.importorskip("matplotlib")
    from tests.svg_pictures import groups

    svg = tmp_path / "bstar.svg"
    out = zermelo("tree", "--file", str(TREES / "bstar.json"), "--algorithm", "bstar", "--svg", str(svg))
    assert out.returncode == 0, out.stderr
    assert f"picture: {svg} (22 nodes drawn of 22)" in out.stdout
    nodes = [i for i in groups(svg) if i.startswith("node-")]
    # The root and move 2 starred, the 6 other generated nodes, the 14 never generated.
    kinds = [i.rsplit("-", 1)[1] for i in nodes]
    assert (kinds.count("best"), kinds.count("visited"), kinds.count("cut")) == (2, 6, 14)
    text = svg.read_text()
    assert "bounds on the true value" in text and "never generated" in text and "cut or re-search" not in text
