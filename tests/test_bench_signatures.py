"""Every game's bench node count, pinned (Stockfish's signature habit).

The bench searches fixed positions to a fixed depth with a fresh table, so its
node count changes only when the search or a game's rules, evaluation or move
order change. A change here must be a deliberate edit, named in its commit.
"""

from __future__ import annotations

import pytest

import games
from engine import nnue
from engine.bench import run_bench

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

#: (game, depth, nodes): ``zermelo bench --game G --depth D`` prints ``Nodes searched: N``,
#: with the game's default evaluation (its shipped network, where one ships).
#: The default depths, except m,n,k (15×15), pinned at 4 to keep the suite quick.
SIGNATURES = [
    ("chess", 5, 44_194),
    ("checkers", 5, 3_694),
    ("shashki", 5, 3_890),
    ("brazilian", 5, 3_535),
    ("international", 5, 2_985),
    ("reversi", 5, 1_592),
    ("kalah", 7, 3_464),
    ("tictactoe", 7, 3_757),
    ("mnk", 4, 291_499),
    ("nim", 7, 80),
    ("connect4", 7, 9_247),
    ("go", 3, 2_361),
]


def test_every_game_is_pinned():
    two_player = [name for name in games.names() if len(games.load(name).players) == 2]
    assert sorted(name for name, _, _ in SIGNATURES) == sorted(two_player)


@pytest.mark.parametrize("name,depth,nodes", SIGNATURES, ids=[s[0] for s in SIGNATURES])
def test_bench_signature(name, depth, nodes):
    game = games.load(name)
    chosen = nnue.chosen_for(game)
    assert run_bench(game, game.bench_texts, depth, chosen and chosen[1])[0] == nodes


#: The hand-written evaluation of the games whose default is a shipped network
#: (``zermelo bench --hand-written``): it stays pinned, since ``Use NNUE false`` plays it.
HAND_WRITTEN = [
    ("checkers", 5, 3_034),
    ("reversi", 5, 1_337),
]


def test_every_shipped_network_has_its_hand_written_signature():
    shipped = sorted(name for name, _, _ in SIGNATURES if nnue.chosen_for(games.load(name)))
    assert sorted(name for name, _, _ in HAND_WRITTEN) == shipped


@pytest.mark.parametrize("name,depth,nodes", HAND_WRITTEN, ids=[s[0] for s in HAND_WRITTEN])
def test_hand_written_bench_signature(name, depth, nodes):
    game = games.load(name)
    assert run_bench(game, game.bench_texts, depth, None)[0] == nodes


def test_larger_nim_signature():
    """The larger Nim that ``scripts/speed.py`` times, since the default game's tree is tiny."""
    game = games.load("nim", heaps="3,4,5,6", max_take=3)
    assert run_bench(game, game.bench_texts, 10)[0] == 16_669
