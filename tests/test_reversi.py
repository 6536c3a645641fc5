"""Reversi: published perft, OpenSpiel as an oracle for the rules, passes,
game ends, position text and the evaluation's edge stability."""

from __future__ import annotations

import random

import pytest

import games
from engine.game import IllegalMoveError, InvalidPositionError
from engine.perft import perft
from games.reversi import PASS, _edge_table, flips, mobility

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

START = "---------------------------OX------XO--------------------------- X"
# Published perft from the start (a pass counts as a ply).
PERFT = [4, 12, 56, 244, 1396, 8200, 55092, 390216]


@pytest.fixture(scope="module")
def game():
    return games.load("othello")


def board(rows: str, side: str) -> str:
    """Position text from eight 8-character rows separated by spaces."""
    cells = "".join(rows.split())
    assert len(cells) == 64
    return f"{cells} {side}"


@pytest.mark.parametrize("depth", range(1, len(PERFT) + 1))
def test_perft_from_the_start(game, depth):
    assert perft(game.new_position(), depth) == PERFT[depth - 1]


def test_start_position_and_first_moves(game):
    pos = game.new_position()
    assert pos.to_text() == START
    assert pos.turn == 0 and game.players[0] == "black"
    assert sorted(pos.move_text(m) for m in pos.legal_moves()) == ["c4", "d3", "e6", "f5"]
    pos.push(pos.parse_move("d3"))
    # d3 flanks d4 (white) against d5 (black).
    assert pos.to_text() == "-------------------X-------XX------XO--------------------------- O"
    assert sorted(pos.move_text(m) for m in pos.legal_moves()) == ["c3", "c5", "e3"]


def test_matches_openspiel_on_random_games(game):
    pyspiel = pytest.importorskip("pyspiel")
    spiel = pyspiel.load_game("othello")
    rng = random.Random("reversi/openspiel")
    passes = 0
    for _ in range(25):
        state, pos = spiel.new_initial_state(), game.new_position()
        while not state.is_terminal():
            assert sorted(pos.legal_moves()) == state.legal_actions()
            assert pos.outcome() is None
            move = rng.choice(pos.legal_moves())
            passes += move == PASS
            state.apply_action(move)
            pos.push(move)
        assert pos.legal_moves() == []
        black_result = pos.outcome() if pos.turn == 0 else -pos.outcome()
        assert black_result == state.returns()[0]
    assert passes > 0, "the sample should include passes"


def test_pass_is_the_only_move_and_the_same_side_moves_again(game):
    # White (to move) has only b1 and cannot flank the corner disc on a1.
    pos = game.new_position(board("XO------ " + "-------- " * 6 + "-------X", "O"))
    assert pos.legal_moves() == [PASS]
    assert pos.move_text(PASS) == "pass" and pos.parse_move("PA") == PASS
    key = pos.key
    pos.push(PASS)
    assert pos.turn == 0 and pos.key == pos.compute_key() != key
    assert [pos.move_text(m) for m in pos.legal_moves()] == ["c1"]
    with pytest.raises(IllegalMoveError):
        pos.parse_move("pass")
    pos.push(pos.parse_move("c1"))
    # White has no disc left: the game is over and Black won.
    assert pos.legal_moves() == [] and pos.turn == 1 and pos.outcome() == -1
    pos.pop()
    pos.pop()
    assert pos.legal_moves() == [PASS] and pos.key == key


def test_pass_in_a_real_game(game):
    # Search random games for a pass: the passing side's opponent moves twice in a row.
    rng = random.Random("reversi/pass")
    found = 0
    while found < 5:
        pos = game.new_position()
        while pos.legal_moves():
            moves = pos.legal_moves()
            if moves == [PASS]:
                found += 1
                mover = pos.turn ^ 1
                assert not mobility(pos.own, pos.opp) and mobility(pos.opp, pos.own)
                pos.push(PASS)
                assert pos.turn == mover and pos.legal_moves() != [PASS]
                continue
            pos.push(rng.choice(moves))


def test_game_over_with_empty_squares_left(game):
    # Neither side can flank anything, though 60 squares are empty.
    pos = game.new_position(board("XX------ " + "-------- " * 6 + "------OO", "O"))
    assert pos.legal_moves() == [] and pos.outcome() == 0
    pos = game.new_position(board("XXX----- " + "-------- " * 6 + "------OO", "O"))
    assert pos.outcome() == -1 and pos.no_moves_value() == -1
    assert "game over" in pos.render()


def test_full_board_is_scored_by_discs(game):
    text = board("XXXXXXXX " * 4 + "OOOOOOOO " * 3 + "OOOOOOOX", "X")
    pos = game.new_position(text)
    assert pos.legal_moves() == [] and pos.outcome() == 1
    assert game.new_position(text.replace(" X", " O")).outcome() == -1


def test_flips_in_all_directions(game):
    # A black disc on d4 flanks white runs in all eight directions.
    rows = ("X--X--X- "
            "-O-O-O-- "
            "--OOO--- "
            "XOO-OOOX "
            "--OOO--- "
            "-O-O-O-- "
            "X--X--X- "
            "-------- ")
    pos = game.new_position(board(rows, "X"))
    d4 = pos.parse_move("d4")
    assert flips(pos.own, pos.opp, d4) == pos.opp  # all 17 white discs
    pos.push(d4)
    assert pos.own == 0 and pos.legal_moves() == []


def test_no_wrap_around_the_board_edge(game):
    # h1 and a2 are neighbours in bit order only: Black on g1 cannot flank h1 by playing a2.
    pos = game.new_position(board("------XO " + "-------- " * 7, "X"))
    assert pos.legal_moves() == [PASS]
    pos.push(PASS)
    assert [pos.move_text(m) for m in pos.legal_moves()] == ["f1"]


@pytest.mark.parametrize("text", [
    START,
    START.lower(),
    START.replace("X", "*"),
    "8 " + START.replace("X", "*"),
    "/".join(START[i:i + 8] for i in range(0, 64, 8)) + " black",
    START[:64] + "X",
    START[:64] + " B",
])
def test_position_text_variants(game, text):
    pos = game.new_position(text)
    assert pos.to_text() == START and pos.turn == 0


def test_white_to_move_text(game):
    pos = game.new_position(START[:64] + " w")
    assert pos.turn == 1 and pos.to_text() == START[:64] + " O"
    assert sorted(pos.move_text(m) for m in pos.legal_moves()) == ["c5", "d6", "e3", "f4"]


@pytest.mark.parametrize("text", [
    START[:63] + " X",            # 63 squares
    START[:64] + " Z",            # unknown side
    START[:64],                   # no side
    START.replace("-", "?", 1),   # unknown square
])
def test_bad_position_text(game, text):
    with pytest.raises(InvalidPositionError):
        game.new_position(text)


def test_bad_moves(game):
    pos = game.new_position()
    for text in ("a1", "i1", "d9", "pass", "d33"):
        with pytest.raises(IllegalMoveError):
            pos.parse_move(text)
    assert pos.parse_move(" D3 ") == pos.parse_move("d3") == 19


def test_edge_stability():
    table = _edge_table()

    def stable(edge: str) -> int:
        own = sum(1 << i for i, c in enumerate(edge) if c == "X")
        opp = sum(1 << i for i, c in enumerate(edge) if c == "O")
        return table[own << 8 | opp]

    assert stable("XX------") == 2       # anchored in a corner
    assert stable("-XXXXXX-") == 0       # both ends open
    assert stable("XXXOOOXX") == 5 - 3   # a full edge cannot change
    assert stable("XOOOOOO-") == 1       # the O run can still be flanked from h1
    assert stable("X------O") == 0       # one corner each
    assert stable("OX------") == -1


# White may take a1 now (flanking b2); otherwise Black takes it (flanking b1).
CORNER_RACE = board("-OX----- -X------ --O----- ---XO--- ---OX--- -------- -------- --------", "O")


def test_evaluation_prefers_the_corner(game):
    pos = game.new_position(CORNER_RACE)
    values = {}
    for m in pos.legal_moves():
        pos.push(m)
        values[pos.move_text(m)] = -pos.evaluate()
        pos.pop()
    assert len(values) == 8 and max(values, key=values.get) == "a1"


def test_search_takes_the_corner(game):
    from engine.search import Searcher
    from engine.timeman import Limits

    pos = game.new_position(CORNER_RACE)
    result = Searcher(1).search(game, pos, Limits(depth=4))
    assert pos.move_text(result.best) == "a1" and pos.to_text() == CORNER_RACE
