"""International draughts (10×10) and Brazilian draughts: published perft, the
majority rule, crowning only at the end of a move, notation, draw rules."""

from __future__ import annotations

import pytest

import games
from engine.game import IllegalMoveError
from engine.perft import perft

#: The rules this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

# Published: international draughts from the start (Aart Bik, Rein Halbersma) and
# the Woldouby position. Brazilian draughts from the start: pydraughts counts the
# same to depth 6 (scripts/draughts_referee.py's perft, from the start position).
INTERNATIONAL_PERFT = [9, 81, 658, 4_265, 27_117, 167_140, 1_049_442]
WOLDOUBY = "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26"
WOLDOUBY_PERFT = [6, 12, 30, 73, 215, 590, 1_944, 6_269, 22_369]
BRAZILIAN_PERFT = [7, 49, 302, 1_469, 7_473, 37_628, 187_302]


@pytest.fixture(scope="module")
def international():
    return games.load("international")


@pytest.fixture(scope="module")
def brazilian():
    return games.load("brazilian")


def texts(pos):
    return sorted(pos.move_text(m) for m in pos.legal_moves())


@pytest.mark.parametrize("depth", range(1, 7))
def test_international_perft(international, depth):
    assert perft(international.new_position(), depth) == INTERNATIONAL_PERFT[depth - 1]


@pytest.mark.parametrize("depth", range(1, 10))
def test_woldouby_perft(international, depth):
    assert perft(international.new_position(WOLDOUBY), depth) == WOLDOUBY_PERFT[depth - 1]


@pytest.mark.parametrize("depth", range(1, 7))
def test_brazilian_perft(brazilian, depth):
    assert perft(brazilian.new_position(), depth) == BRAZILIAN_PERFT[depth - 1]


def test_start_and_names(international):
    pos = international.new_position()
    assert texts(pos)[:3] == ["31-26", "31-27", "32-27"] and len(pos.legal_moves()) == 9
    assert pos.to_text() == international.start_fen
    assert games.load("draughts").name == "international"


def test_majority_rule(international):
    """Taking one piece (33x22) or two (33x24x13): only the two-piece capture is
    legal, even though the single piece is a king: the majority counts pieces."""
    pos = international.new_position("W:W33:BK28,29,19")
    assert texts(pos) == ["33x24x13"]


def test_man_passing_the_last_row_stays_a_man(international):
    """A man that reaches the crowning row mid-capture goes on capturing as a man
    and is not crowned where its move ends off that row."""
    pos = international.new_position("W:W11:B7,8")
    assert texts(pos) == ["11x2x13"]
    pos.push(pos.legal_moves()[0])
    assert not pos.kings


def test_crowning_only_where_the_capture_ends(brazilian):
    """Brazilian: d6:f8:h6 leaves a man on h6; in Russian draughts the man is
    crowned on f8 and goes on as a king."""
    pos = brazilian.new_position("W:Wd6:Be7,g7")
    assert texts(pos) == ["d6:f8:h6"]
    pos.push(pos.legal_moves()[0])
    assert not pos.kings
    russian = games.load("russian").new_position("W:Wd6:Be7,g7")
    assert texts(russian) == ["d6:f8:h6"]
    russian.push(russian.legal_moves()[0])
    assert russian.kings
    pos = brazilian.new_position("W:Wd6:Be7")
    assert texts(pos) == ["d6:f8"]
    pos.push(pos.legal_moves()[0])
    assert pos.kings


def test_notation_round_trip(international):
    pos = international.new_position(WOLDOUBY)
    for m in pos.legal_moves():
        assert pos.parse_move(pos.move_text(m)) == m
    with pytest.raises(IllegalMoveError):
        pos.parse_move("51-47")


def test_twenty_five_move_rule(international):
    pos = international.new_position("W:WK46,K47:BK5,K4,K3")
    assert pos.outcome() is None
    pos = international.new_position("W:WK46,K47:BK5,K4,K3:H50")
    assert pos.outcome() == 0


def test_sixteen_and_five_move_rules(international):
    """Against a lone king: three pieces have 16 moves each, two pieces 5."""
    assert international.new_position("W:WK46,K47,K48:BK5:H31").outcome() is None
    assert international.new_position("W:WK46,K47,K48:BK5:H32").outcome() == 0
    assert international.new_position("W:WK46,K47:BK5:H9").outcome() is None
    assert international.new_position("W:WK46,K47:BK5:H10").outcome() == 0
    # Four pieces against a king: only the 25-move rule.
    assert international.new_position("W:WK46,K47,K48,K49:BK5:H40").outcome() is None


def test_render(international):
    lines = international.new_position().render().splitlines()
    assert len(lines) == 11 and lines[0].split()[-5:] == ["1", "2", "3", "4", "5"]
