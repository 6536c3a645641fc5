"""Static exchange evaluation of the chess board against a plain recursive one.

The reference plays the exchange out on a python-chess board: each side takes
with its least valuable attacker (pins ignored, pieces behind the taken ones
joining in) or stops when taking would lose; it shares nothing with the
bitboard swap loop of ``Board.see_ge`` but the piece values.
"""

from __future__ import annotations

import random

import chess
import pytest

import games
from games.chess.evaluate import VALUE

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

#: Piece values of the exchange: the evaluation's middlegame material (king: none).
_VAL = {pt: VALUE[pt] for pt in range(1, 6)}


def _gain(board: chess.Board, sq: int, side: bool) -> int:
    """What ``side`` can still win by capturing on ``sq`` (0 when it better stops)."""
    attackers = board.attackers(side, sq)
    if not attackers:
        return 0
    # The least valuable attacker; the king last.
    frm = min(attackers, key=board.piece_type_at)
    piece = board.piece_at(frm)
    if piece.piece_type == chess.KING:
        saved = board.remove_piece_at(frm)
        taken = board.piece_at(sq)
        board.set_piece_at(sq, saved)
        defended = bool(board.attackers(not side, sq))
        board.set_piece_at(frm, saved)
        board.set_piece_at(sq, taken)
        if defended:
            return 0
        return _VAL.get(taken.piece_type, 0)
    taken = board.piece_at(sq)
    board.remove_piece_at(frm)
    board.set_piece_at(sq, piece)
    value = _VAL[taken.piece_type] - _gain(board, sq, not side)
    board.set_piece_at(sq, taken)
    board.set_piece_at(frm, piece)
    return max(0, value)


def reference_see(board: chess.Board, move: chess.Move) -> int:
    """The material the side to move ends up with after ``move`` and the best replies."""
    piece = board.piece_at(move.from_square)
    taken = board.piece_at(move.to_square)
    gain = _VAL[taken.piece_type] if taken else 0
    b = board.copy(stack=False)
    b.remove_piece_at(move.from_square)
    b.set_piece_at(move.to_square, piece)
    if piece.piece_type == chess.KING:
        return gain
    return gain - _gain(b, move.to_square, not board.turn)


def _positions(count: int, seed: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = chess.Board()
        for _ in range(rng.randrange(6, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            captures = [m for m in moves if board.is_capture(m)]
            board.push(rng.choice(captures if captures and rng.random() < 0.3 else moves))
        if not board.is_game_over():
            out.append(board)
    return out


def test_losing_and_winning_captures_by_hand():
    game = games.load("chess")
    # Rxe5 wins a pawn nobody defends; Nxe5 (a defended pawn, then lost knight) loses.
    pos = game.new_position("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1")
    assert pos.see_ge(pos.parse_move("e1e5"), VALUE[chess.PAWN])
    assert not pos.see_ge(pos.parse_move("e1e5"), VALUE[chess.PAWN] + 1)
    pos = game.new_position("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1")
    assert not pos.see_ge(pos.parse_move("d3e5"), 0)


@pytest.mark.parametrize("seed", [1, 2])
def test_see_equals_the_plain_exchange(seed):
    game = games.load("chess")
    checked = 0
    for board in _positions(60, seed):
        pos = game.new_position(board.fen())
        for move in board.legal_moves:
            if move.promotion or board.is_en_passant(move) or board.is_castling(move):
                continue
            value = reference_see(board, move)
            m = pos.parse_move(move.uci())
            assert pos.see_ge(m, value) and not pos.see_ge(m, value + 1), (board.fen(), move.uci(), value)
            checked += 1
    assert checked > 1000
