"""One conformance suite, run against every registered game and player count.

Random playouts check the invariants the search relies on: push/pop restores
key and text, the incremental key equals a recomputed one, position text and
move text round-trip, noisy moves are legal, ``is_legal`` agrees with the move
list, and terminal detection agrees with the move list. Games of more than two players are checked for the N-player
conventions of :mod:`engine.game` too: the turn among N, the value vectors'
bounds, and the final vector, ranking and outcome telling the same story.
"""

from __future__ import annotations

import random

import pytest

import games
from engine.game import EVAL_LIMIT, Position

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

PLAYOUTS = 12
MAX_PLIES = 300


#: Games whose player count is a parameter, at the counts other than the default.
PLAYER_COUNTS = [("rolit", 2), ("rolit", 3), ("mnkmulti", 2), ("mnkmulti", 4)]


@pytest.fixture(params=PLAYER_COUNTS, ids=[f"{name}-{n}" for name, n in PLAYER_COUNTS])
def counted_game(request):
    name, players = request.param
    return games.load(name, players=players)


def check_vectors(game, pos: Position, moves: list[int]) -> None:
    """The N-player conventions: vectors in bounds, the end scored the same three ways."""
    n, total = len(game.players), game.value_sum
    assert total > 0
    values = pos.values()
    assert len(values) == n and all(isinstance(v, int) and 0 <= v < total for v in values)
    assert sum(values) <= total
    assert pos.evaluate() == values[pos.turn] - max(v for p, v in enumerate(values) if p != pos.turn)
    result, ranking, outcome = pos.result(), pos.ranking(), pos.outcome()
    assert (result is None) == (ranking is None) == (outcome is None) == bool(moves)
    assert pos.noisy_moves() == [] and not pos.in_check() and pos.can_stand_pat() and not pos.is_repetition()
    if result is None or ranking is None:
        return
    assert len(result) == len(ranking) == n
    first = [p for p in range(n) if ranking[p] == 1]
    assert first, "somebody is first"
    # Places skip as many as the players tied before them.
    assert all(ranking[p] == 1 + sum(ranking[q] < ranking[p] for q in range(n)) for p in range(n))
    assert result == [total // len(first) if p in first else 0 for p in range(n)]
    assert outcome == (-1 if pos.turn not in first else 1 if len(first) == 1 else 0)
    assert pos.no_moves_value() == outcome


def check_position(game, pos: Position, seen: set[int] | None = None) -> list[int]:
    """The invariants at ``pos``; ``seen``, moves of other positions, are legal here
    by ``is_legal`` exactly when they are among the legal moves."""
    assert pos.key == pos.compute_key()
    assert 0 <= pos.turn < len(game.players)
    text = pos.to_text()
    again = game.new_position(text)
    assert again.to_text() == text
    key = pos.key  # a history-holding key (Go's superko) is the played position's own
    if not game.key_holds_history:
        assert again.key == key
    assert again.turn == pos.turn
    moves = pos.legal_moves()
    assert len(set(moves)) == len(moves), "duplicate legal moves"
    legal = set(moves)
    if seen is not None:
        assert all(pos.is_legal(m) == (m in legal) for m in seen | legal)
        seen |= legal
    noisy = pos.noisy_moves()
    assert set(noisy) <= legal
    for m in moves:
        assert pos.is_noisy(m) == (m in noisy) or not noisy and not pos.is_noisy(m)
        assert pos.parse_move(pos.move_text(m)) == m
        pos.push(m)
        assert pos.key == pos.compute_key()
        pos.pop()
        assert pos.key == key and pos.to_text() == text
    assert abs(pos.evaluate()) < EVAL_LIMIT
    if not moves and pos.outcome() is None:
        assert pos.no_moves_value() in (-1, 0, 1)
    if pos.outcome() is not None:
        assert pos.outcome() in (-1, 0, 1)
    assert isinstance(pos.render(), str)
    if len(game.players) > 2 or game.value_sum:
        check_vectors(game, pos, moves)
    return moves


def test_random_playouts(game):
    playouts(game)


def test_random_playouts_other_player_counts(counted_game):
    playouts(counted_game)
    test_copy_is_independent(counted_game)
    test_bad_text_rejected(counted_game)


def test_player_counts_cover_the_parameterised_games():
    """Every registered game of more than two players is checked at its other counts too."""
    multi = {name for name in games.names() if len(games.load(name).players) > 2}
    assert multi == {name for name, _ in PLAYER_COUNTS}


def playouts(game) -> None:
    rng = random.Random(f"conformance/{game.name}/{len(game.players)}")
    for _ in range(PLAYOUTS):
        pos = game.new_position()
        start = pos.to_text()
        played = 0
        seen: set[int] = set()
        for _ in range(MAX_PLIES):
            moves = check_position(game, pos, seen)
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
    from engine.game import IllegalMoveError, InvalidPositionError

    for bad in ("", "garbage", "x" * 5000, "1 2 3 4 5 6 7 8 9"):
        with pytest.raises(InvalidPositionError):
            game.new_position(bad)
    pos = game.new_position()
    for bad in ("", "zz", "99:99", "pass?", "a9a9"):
        with pytest.raises(IllegalMoveError):
            pos.parse_move(bad)
