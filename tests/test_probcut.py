"""ProbCut, the search technique a game opts into through ``Game.probcut``.

Off by default; a game that opts in searches other trees (fewer nodes to a depth);
both forms (Stockfish's over noisy moves, Buro's over the node itself) search the
same nodes in the pure and the compiled build, pinned here as the bench pins the
games' own searches.
"""

from __future__ import annotations

import pytest

import games
from engine.bench import run_bench
from engine.game import Game, ProbCut
from engine.search import Searcher
from engine.timeman import Limits
from engine.trace import Counter

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

#: The games that opt in, with the numbers their matches measured (docs/measured/strength.md;
#: chess measured no gain, docs/measured/chess.md).
OPTED_IN: dict[str, ProbCut] = {"reversi": ProbCut(min_depth=4, reduction=2, margin=250)}


def test_off_by_default():
    assert Game.probcut is None
    for name in games.names():
        assert games.load(name).probcut == OPTED_IN.get(name), name


@pytest.mark.parametrize("numbers", [(3, 3, 100), (3, 0, 100), (4, 2, 0)])
def test_numbers_are_checked(numbers):
    with pytest.raises(ValueError):
        ProbCut(*numbers)


@pytest.mark.parametrize("ladder,noisy", [(((3, 100, 100),), False),   # shallow as deep as the node
                                          (((0, 100, 100),), False),
                                          (((1, 0, 100),), False),
                                          (((1, 100, -5),), False),
                                          (((1, 100, 100),), True)])   # Buro's form only
def test_a_ladder_is_checked(ladder, noisy):
    with pytest.raises(ValueError):
        ProbCut(3, 2, 100, noisy=noisy, ladder=ladder)


def test_the_numbers_by_depth():
    assert [ProbCut(4, 2, 250).at(d) for d in (4, 9)] == [(2, 250, 250), (7, 250, 250)]
    multi = ProbCut(3, 2, 1, ladder=((1, 400, 380), (2, 290, 400)))
    assert [multi.at(d) for d in (3, 4, 5, 40)] == [(1, 400, 380), (2, 290, 400), (2, 290, 400), (2, 290, 400)]


#: (game, ProbCut, depth, nodes without, nodes with): the game's bench positions,
#: hand-written evaluation, searched with the game's own techniques and this ProbCut
#: (chess: Stockfish's form, the numbers its match measured; reversi: Buro's).
PINNED = [
    ("chess", ProbCut(4, 3, 120, noisy=True), 5, 44_194, 43_041),
    ("reversi", ProbCut(3, 2, 300), 7, 6_089, 6_656),
    ("reversi", ProbCut(3, 2, 1, ladder=((1, 425, 401), (2, 288, 398), (3, 349, 340), (2, 335, 581))), 7,
     6_089, 5_515),
]


_IDS = ["chess", "reversi", "reversi-ladder"]


@pytest.mark.parametrize("name,probcut,depth,without,with_", PINNED, ids=_IDS)
def test_probcut_changes_the_tree_the_same_in_both_builds(monkeypatch, name, probcut, depth, without, with_):
    game = games.load(name)
    monkeypatch.setattr(type(game), "probcut", None)
    assert run_bench(game, game.bench_texts, depth)[0] == without
    monkeypatch.setattr(type(game), "probcut", probcut)
    assert run_bench(game, game.bench_texts, depth)[0] == with_


def test_a_ladder_of_equal_steps_is_the_plain_form(monkeypatch):
    game = games.load("reversi")
    plain = ProbCut(3, 2, 300)
    ladder = ProbCut(3, 2, 1, ladder=tuple(plain.at(d) for d in range(3, 8)))
    counts = []
    for probcut in (plain, ladder):
        monkeypatch.setattr(type(game), "probcut", probcut)
        counts.append(run_bench(game, game.bench_texts, 7)[0])
    assert counts[0] == counts[1] == 6_656


@pytest.mark.parametrize("name,probcut,depth", [p[:3] for p in PINNED], ids=_IDS)
def test_the_listener_sees_every_node_of_probcut(monkeypatch, name, probcut, depth):
    # ProbCut's searches (a noisy move's, or the node's own at the same ply) are nodes
    # like any other: told to the tree listener, which changes nothing.
    game = games.load(name)
    monkeypatch.setattr(type(game), "probcut", probcut)
    text = game.bench_texts[0] if game.bench_texts else None
    plain = Searcher(16).search(game, game.new_position(text), Limits(depth=depth))
    searcher = Searcher(16)
    counter = Counter()
    searcher.trace = counter
    traced = searcher.search(game, game.new_position(text), Limits(depth=depth))
    assert (traced.best, traced.score, traced.nodes, traced.pv) == (plain.best, plain.score, plain.nodes, plain.pv)
    assert counter.nodes == traced.nodes
    assert counter._had_child == []
