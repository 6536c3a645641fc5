"""Go's position key under superko: positions alike but for their history are told
apart (their legal moves differ), and the key kept move by move is the one computed
from scratch."""

from __future__ import annotations

import random

import pytest

import games

pytestmark = pytest.mark.both_builds


def play(pos, *moves):
    for m in moves:
        pos.push(pos.parse_move(m))
    return pos


def test_the_same_board_and_mover_with_other_histories_have_other_keys():
    """On 1×3, A1 B1 pass C1 and pass B1 pass C1 both leave ``.oo`` with Black to move;
    after the first, A1 would bring back the board ``x..`` and superko refuses it, after
    the second it is legal. A table keyed without the history would hand one line's
    result to the other."""
    game = games.load("go", width=3, height=1)
    one = play(game.new_position(), "A1", "B1", "pass", "C1")
    two = play(game.new_position(), "pass", "B1", "pass", "C1")
    assert one.to_text() == two.to_text() == ".oo x - 0"
    a1 = game.parse_point("A1")
    assert a1 not in one.legal_moves() and a1 in two.legal_moves()
    assert one.key != two.key
    assert one.key == one.compute_key() and two.key == two.compute_key()


def test_under_simple_ko_the_key_ignores_the_history():
    game = games.load("go", width=3, height=1, ko="simple")
    one = play(game.new_position(), "A1", "B1", "pass", "C1")
    two = play(game.new_position(), "pass", "B1", "pass", "C1")
    assert one.key == two.key


@pytest.mark.parametrize("ko", ["superko", "simple"])
def test_the_kept_key_matches_the_computed_one_through_random_games(ko):
    rng = random.Random(7)
    game = games.load("go", size=4, ko=ko)
    pos = game.new_position()
    keys = []
    for _ in range(300):
        moves = pos.legal_moves()
        if not moves:
            break
        keys.append(pos.key)
        pos.push(rng.choice(moves))
        assert pos.key == pos.compute_key()
        assert pos.copy().key == pos.key
    while keys:
        pos.pop()
        assert pos.key == keys.pop()
