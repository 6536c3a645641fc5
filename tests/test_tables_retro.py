"""The generic retrograde driver, on Nim: values from the published theory, distances
from a plain recursive search, and classes chained through exits."""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np
import pytest

import games
from engine import retro


class NimIndexing:
    """Nim positions (heap sizes, mixed radix) solved through the game interface: the
    moves come from :class:`games.nim.NimPosition`, not from the indexing.

    Positions with more than ``low`` coins in total form the class; a move to ``low``
    coins or fewer is an exit, valued by ``below`` (a solved table of the whole range).
    """

    def __init__(self, game, limits, low=-1, below=None):
        self.game, self.limits, self.low, self.below = game, limits, low, below
        self.radix = [h + 1 for h in limits]
        self.size = int(np.prod(self.radix))

    def heaps(self, i: int) -> list[int]:
        out = []
        for r in reversed(self.radix):
            i, h = divmod(i, r)
            out.append(h)
        return out[::-1]

    def index(self, heaps) -> int:
        i = 0
        for h, r in zip(heaps, self.radix):
            i = i * r + h
        return i

    def valid(self, idx):
        return np.array([sum(self.heaps(int(i))) > self.low for i in idx], bool)

    def moves(self, idx):
        src, dst, esrc, evalue = [], [], [], []
        for i in idx:
            pos = self.game.new_position(",".join(map(str, self.heaps(int(i)))) + " 1")
            for move in pos.legal_moves():
                pos.push(move)
                j = self.index(pos.heaps)
                if sum(pos.heaps) > self.low:
                    src.append(i), dst.append(j)
                else:
                    esrc.append(i), evalue.append(int(self.below[j]))
                pos.pop()
        return retro.Moves(*(np.array(a, np.int64) for a in (src, dst, esrc, evalue)))

    def terminal(self, idx):
        pos = self.game.new_position(",".join("0" * len(self.limits)) + " 1")
        return np.full(len(idx), retro.win_in(0) if pos.no_moves_value() > 0 else retro.loss_in(0))


def _negamax(game, heaps):
    """(result, plies) by exhaustive search: quickest win, slowest loss."""

    @lru_cache(maxsize=None)
    def solve(hs):
        pos = game.new_position(",".join(map(str, hs)) + " 1")
        moves = pos.legal_moves()
        if not moves:
            return pos.no_moves_value(), 0
        best = None
        for move in moves:
            pos.push(move)
            r, d = solve(tuple(pos.heaps))
            pos.pop()
            cand = (-r, d + 1)
            key = lambda x: (x[0], -x[1] if x[0] > 0 else x[1])
            if best is None or key(cand) > key(best):
                best = cand
        return best

    return solve(tuple(heaps))


@pytest.mark.parametrize("take", [1, 2, 3, 5])
def test_misere_single_heap_matches_the_published_rule(take):
    game = games.load("nim", heaps=(40,), max_take=take)
    values = retro.solve(NimIndexing(game, [40]))
    for h in range(41):
        wdl, _ = retro.decode(int(values[h]))
        assert (wdl < 0) == (h % (take + 1) == 1), h


def test_seven_coins_take_two_is_a_second_player_win():
    game = games.load("nim")
    assert retro.decode(int(retro.solve(NimIndexing(game, [7]))[7]))[0] == -1


def test_normal_play_heaps_follow_sprague_grundy_and_distances_match_search():
    game = games.load("nim", heaps=(4, 5, 6), max_take=3, normal=True)
    ix = NimIndexing(game, [4, 5, 6])
    values = retro.solve(ix, batch=17)
    for heaps in itertools.product(range(5), range(6), range(7)):
        wdl, plies = retro.decode(int(values[ix.index(heaps)]))
        grundy = 0
        for h in heaps:
            grundy ^= h % 4
        assert (wdl > 0) == (grundy != 0), heaps
        assert (wdl, plies) == _negamax(game, heaps), heaps


def test_misere_distances_match_search():
    game = games.load("nim", heaps=(3, 4, 4), max_take=2)
    ix = NimIndexing(game, [3, 4, 4])
    values = retro.solve(ix)
    for heaps in itertools.product(range(4), range(5), range(5)):
        assert retro.decode(int(values[ix.index(heaps)])) == _negamax(game, heaps), heaps


def test_exits_to_a_solved_class_give_the_same_values():
    game = games.load("nim", heaps=(5, 6), max_take=3)
    whole = NimIndexing(game, [5, 6])
    full = retro.solve(whole)
    upper = retro.solve(NimIndexing(game, [5, 6], low=4, below=full))
    lines = []
    values = retro.solve(whole, progress=lines.append, batch=8)
    assert np.array_equal(values, full) and lines
    for i in range(whole.size):
        if sum(whole.heaps(i)) > 4:
            assert upper[i] == full[i], whole.heaps(i)
        else:
            assert upper[i] == retro.ILLEGAL
