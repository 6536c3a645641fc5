"""pydraughts as the referee of every draughts variant it shares with zermelo
(international, Russian, Brazilian, English): the legal moves of 10,000 random
positions and perft to depth 3 of some of them, as pydraughts' own move generator
gives them (``tests/data/draughts_referee.json.gz``, made by
``scripts/draughts_referee.py``), and a sample asked of pydraughts again here.
A disagreement names the position's FEN."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

import games
from engine.perft import perft
from tests.pydraughts_referee import VARIANTS, pydraughts_moves, zermelo_moves

#: The rules this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

DATA = Path(__file__).parent / "data" / "draughts_referee.json.gz"


@pytest.fixture(scope="module")
def referee() -> dict:
    with gzip.open(DATA, "rt") as f:
        return json.load(f)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_legal_moves_agree_with_pydraughts(referee, name):
    game = games.load(name)
    entries = referee[name]
    assert len(entries) >= 2000
    for entry in entries:
        fen, theirs = entry[0], set(entry[1])
        ours = zermelo_moves(game, fen)
        assert ours == theirs, (f"{name} {fen}: only zermelo {sorted(ours - theirs)}, "
                                f"only pydraughts {sorted(theirs - ours)}")


@pytest.mark.parametrize("name", list(VARIANTS))
def test_perft_agrees_with_pydraughts(referee, name):
    game = games.load(name)
    checked = 0
    for entry in referee[name]:
        if len(entry) > 2:
            pos = game.new_position(entry[0])
            assert [perft(pos, d) for d in (1, 2, 3)] == entry[2], f"{name} {entry[0]}"
            checked += 1
    assert checked >= 5


@pytest.mark.parametrize("name", list(VARIANTS))
def test_pydraughts_itself_on_a_sample(referee, name):
    """The stored answers are still pydraughts': a sample asked of it again."""
    pytest.importorskip("draughts.core.game", reason="pydraughts is in the test extra")
    game = games.load(name)
    for entry in random.Random(name).sample(referee[name], 25):
        fen = entry[0]
        theirs = pydraughts_moves(VARIANTS[name], fen)
        assert theirs == set(entry[1]) == zermelo_moves(game, fen), f"{name} {fen}"
