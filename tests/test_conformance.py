"""One conformance suite, run against every registered game.

Random playouts check the invariants the search relies on: push/pop restores
key and text, the incremental key equals a recomputed one, position text and
move text round-trip, noisy moves are legal, and terminal detection agrees with
the move list.
"""

from __future__ import annotations

import random

from engine.game import EVAL_LIMIT, Position

PLAYOUTS = 12
MAX_PLIES = 300


def check_position(game, pos: Position) -> list[int]:
    assert pos.key == pos.compute_key()
    text = pos.to_text()
    again = game.new_position(text)
    assert again.to_text() == text
    assert again.key == pos.key
    assert again.turn == pos.turn
    moves = pos.legal_moves()
    assert len(set(moves)) == len(moves), "duplicate legal moves"
    legal = set(moves)
    noisy = pos.noisy_moves()
    assert set(noisy) <= legal
    for m in moves:
        assert pos.is_noisy(m) == (m in noisy) or not noisy and not pos.is_noisy(m)
        assert pos.parse_move(pos.move_text(m)) == m
        pos.push(m)
        assert pos.key == pos.compute_key()
        pos.pop()
        assert pos.key == again.key and pos.to_text() == text
    assert abs(pos.evaluate()) < EVAL_LIMIT
    if not moves and pos.outcome() is None:
        assert pos.no_moves_value() in (-1, 0, 1)
    if pos.outcome() is not None:
        assert pos.outcome() in (-1, 0, 1)
    assert isinstance(pos.render(), str)
    return moves


def test_random_playouts(game):
    rng = random.Random(f"conformance/{game.name}")
    for _ in range(PLAYOUTS):
        pos = game.new_position()
        start = pos.to_text()
        played = 0
        for _ in range(MAX_PLIES):
            moves = check_position(game, pos)
            if not moves or pos.outcome() is not None:
                break
            pos.push(rng.choice(moves))
            played += 1
        for _ in range(played):
            pos.pop()
        assert pos.to_text() == start
        assert pos.key == pos.compute_key()


def test_copy_is_independent(game):
    pos = game.new_position()
    text = pos.to_text()
    other = pos.copy()
    other.push(other.legal_moves()[0])
    assert pos.to_text() == text
    assert other.to_text() != text or other.turn != pos.turn


def test_null_move_round_trip(game):
    if not game.null_move_ok:
        return
    pos = game.new_position()
    key, turn = pos.key, pos.turn
    pos.push_null()
    assert pos.turn != turn and pos.key == pos.compute_key()
    pos.pop()
    assert (pos.key, pos.turn) == (key, turn)


def test_bad_text_rejected(game):
    import pytest

    from engine.game import IllegalMoveError, InvalidPositionError

    for bad in ("", "garbage", "x" * 5000, "1 2 3 4 5 6 7 8 9"):
        with pytest.raises(InvalidPositionError):
            game.new_position(bad)
    pos = game.new_position()
    for bad in ("", "zz", "99:99", "pass?", "a9a9"):
        with pytest.raises(IllegalMoveError):
            pos.parse_move(bad)
