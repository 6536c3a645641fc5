"""Nim: the misère subtraction game's published facts."""

from __future__ import annotations

import pytest

import games
from engine.perft import count_games

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds


def test_seven_coins_has_21_complete_games():
    assert count_games(games.load("nim").new_position()) == 21


def test_losing_heaps_match_the_closed_form():
    # Brute force over the game tree: the mover loses exactly when h ≡ 1 (mod T+1).
    def wins(pos) -> bool:
        moves = pos.legal_moves()
        if not moves:
            return pos.no_moves_value() > 0
        for m in moves:
            pos.push(m)
            lost = not wins(pos)
            pos.pop()
            if lost:
                return True
        return False

    for t in (1, 2, 3, 4):
        for h in range(0, 14):
            pos = games.load("nim", heaps=(h,), max_take=t).new_position()
            assert wins(pos) == (h % (t + 1) != 1), (h, t)
