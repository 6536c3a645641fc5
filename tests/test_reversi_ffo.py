"""The reversi endgame solver on FFO endgame position #1 (14 empties, Black to move:
G8 wins by 18, the published solution), and along its best line down to an ending an
independent alpha-beta over the game's own rules can check."""

from __future__ import annotations

import games
from games.reversi import endgame as rv

#: FFO endgame test #1, in the FFO board format (a1..h8 row-major, X Black, O White).
FFO_1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"


def alphabeta(pos, alpha: int, beta: int) -> int:
    """Final disc difference for the side to move by plain alpha-beta (passes are moves)."""
    moves = pos.legal_moves()
    if not moves:
        return pos.own.bit_count() - pos.opp.bit_count()
    for m in moves:
        pos.push(m)
        v = -alphabeta(pos, -beta, -alpha)
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
