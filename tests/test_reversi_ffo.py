"""The reversi endgame solver on FFO endgame test positions (tests/data/reversi_ffo.txt,
with the published values): FFO #1 (14 empties, Black to move: G8 wins by 18) and along
its best line down to an ending an independent alpha-beta over the game's own rules can
check, and a few more under FFO's scoring (the empties of a finished game to the winner)."""

from __future__ import annotations

from pathlib import Path

import pytest

import games
from games.reversi import endgame as rv

#: FFO endgame test #1, in the FFO board format (a1..h8 row-major, X Black, O White).
FFO_1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
FFO_FILE = Path(__file__).with_name("data") / "reversi_ffo.txt"


def load_ffo() -> dict[int, tuple[str, tuple[str, ...], int]]:
    """FFO number -> (position text, published best moves, published value for the side
    to move), from tests/data/reversi_ffo.txt."""
    out = {}
    for line in FFO_FILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            number, board, side, moves, value = line.split()
            out[int(number)] = (f"{board} {side}", tuple(moves.split(",")), int(value))
    return out


def alphabeta(pos, alpha: int, beta: int, count_empties: bool = False) -> int:
    """Final disc difference for the side to move by plain alpha-beta (passes are moves);
    with ``count_empties`` the empties of a finished game go to the winner (FFO scoring)."""
    moves = pos.legal_moves()
    if not moves:
        diff = pos.own.bit_count() - pos.opp.bit_count()
        empties = 64 - (pos.own | pos.opp).bit_count()
        if count_empties and diff:
            return diff + empties if diff > 0 else diff - empties
        return diff
    for m in moves:
        pos.push(m)
        v = -alphabeta(pos, -beta, -alpha, count_empties)
        pos.pop()
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return alpha


def empties(pos) -> int:
    return 64 - (pos.own | pos.opp).bit_count()


def test_ffo_1_solved_exactly():
    pos = games.load("reversi").new_position(FFO_1)
    assert empties(pos) == 14 and pos.turn == 0
    score, move = rv.solve(pos)
    assert (score, pos.move_text(move)) == (18, "g8")


def test_ffo_1_best_line_keeps_the_published_value():
    pos = games.load("reversi").new_position(FFO_1)
    # Every position of the solver's line keeps Black's +18 (the solver's root value is
    # the published one); at 9 empties plain alpha-beta confirms it independently.
    while empties(pos) > 9:
        score, move = rv.solve(pos)
        assert (score if pos.turn == 0 else -score) == 18, pos.to_text()
        pos.push(move)
    black = alphabeta(pos, -65, 65) * (1 if pos.turn == 0 else -1)
    assert black == 18, pos.to_text()


@pytest.mark.parametrize("number", [2, 5, 9, 17])
def test_ffo_published_values(number):
    # #5 ends with an empty square, which FFO scoring gives to the winner: zermelo's
    # own score is one disc less, FFO's is the published one. #9 has White to move.
    text, best_moves, value = load_ffo()[number]
    pos = games.load("reversi").new_position(text)
    score, move = rv.Solver(count_empties=True).best(pos.own, pos.opp)
    assert (score, pos.move_text(move) in best_moves) == (value, True)
    own_score = rv.Solver().solve(pos.own, pos.opp)
    assert own_score == value - (1 if number == 5 else 0)


def test_count_empties_matches_plain_alpha_beta():
    # A wipe-out with empties left: both scorings against plain alpha-beta.
    game = games.load("reversi")
    pos = game.new_position("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX-OO-O--- X")
    values = [rv.Solver(count_empties=count).solve(pos.own, pos.opp) for count in (False, True)]
    assert values == [alphabeta(pos, -65, 65, count) for count in (False, True)]
    assert values[0] != values[1]

