"""The exact reversi solver against independent references, in both builds: a plain
minimax (alpha-beta over the full window, no table, no ordering, no cut-off but
alpha-beta's) on every position of small enumerated subtrees, and the published FFO
#1-#19 values; and its node counts, which both builds must reach alike. (The random
12-14-empty positions against the same minimax are in tests/test_reversi_endgame.py.)"""

from __future__ import annotations

import random

import pytest

import games
from games.reversi import endgame as rv
from games.reversi.bitboard import flips, mobility
from tests.test_reversi_ffo import load_ffo

pytestmark = pytest.mark.both_builds

FULL = (1 << 64) - 1


def minimax(own: int, opp: int, alpha: int, beta: int, passed: bool = False) -> int:
    """Final disc difference for the side to move by plain alpha-beta over the rules'
    bitboard primitives (fail-hard, moves in square order, passes as moves)."""
    mob = mobility(own, opp)
    if not mob:
        if passed:
            return own.bit_count() - opp.bit_count()
        return -minimax(opp, own, -beta, -alpha, True)
    for sq in range(64):
        if mob >> sq & 1:
            f = flips(own, opp, sq)
            v = -minimax(opp & ~f, own | f | 1 << sq, -beta, -alpha)
            if v >= beta:
                return beta
            alpha = max(alpha, v)
    return alpha


def random_position(seed: int, empties: int):
    """A position with ``empties`` empty squares and a move to play, by random play."""
    game = games.load("reversi")
    rng = random.Random(seed)
    while True:
        pos = game.new_position()
        while 64 - (pos.own | pos.opp).bit_count() > empties and pos.legal_moves():
            pos.push(rng.choice(pos.legal_moves()))
        if 64 - (pos.own | pos.opp).bit_count() == empties and pos.legal_moves():
            return pos


def enumerate_positions(own: int, opp: int, depth: int, out: dict) -> None:
    """Every position reachable in ``depth`` plies (passes included), by its bitboards."""
    if (own, opp) in out or depth < 0:
        return
    out[own, opp] = None
    mob = mobility(own, opp)
    if not mob:
        if mobility(opp, own):
            enumerate_positions(opp, own, depth - 1, out)
        return
    for sq in range(64):
        if mob >> sq & 1:
            f = flips(own, opp, sq)
            enumerate_positions(opp & ~f, own | f | 1 << sq, depth - 1, out)


def test_every_position_of_enumerated_subtrees():
    # All positions within 3 plies of three 10-empty positions: solved with one solver
    # (its table shared by all) and with windows, each against minimax.
    solver = rv.Solver()
    for seed in (1, 2, 3):
        pos = random_position(seed, 10)
        found: dict = {}
        enumerate_positions(pos.own, pos.opp, 3, found)
        assert len(found) > 50
        for own, opp in found:
            want = minimax(own, opp, -65, 65)
            assert solver.solve(own, opp) == want
            assert solver.solve(own, opp, want - 1, want + 1) == want
            assert solver.solve(own, opp, want, want + 1) <= want
            assert solver.solve(own, opp, want - 1, want) >= want


@pytest.mark.parametrize("number", range(1, 20))
def test_ffo_1_to_19_published_values(number):
    text, best_moves, value = load_ffo()[number]
    pos = games.load("reversi").new_position(text)
    score, move = rv.Solver(count_empties=True).best(pos.own, pos.opp)
    assert score == value
    assert pos.move_text(move) in best_moves or -rv.Solver(count_empties=True).solve(
        *_after(pos, move), -value - 1, -value + 1) == value


def _after(pos, move: int) -> tuple[int, int]:
    f = flips(pos.own, pos.opp, move)
    return pos.opp & ~f, pos.own | f | 1 << move


#: Nodes of the solver on FFO #1 (best: the win/draw/loss proof, then null windows to
#: the exact score): the same in both builds.
FFO_1_NODES = 31_996
#: Nodes of the solver on a 17-empty position: the moves near the root are ordered by
#: the shallow evaluation search, whose nodes count too.
ORDERING_SEARCH_NODES = 370_257


def test_both_builds_search_the_same_nodes():
    text, _, _ = load_ffo()[1]
    pos = games.load("reversi").new_position(text)
    solver = rv.Solver(count_empties=True)
    assert solver.best(pos.own, pos.opp) == (18, 62)
    assert solver.nodes == FFO_1_NODES


def test_both_builds_order_by_the_shallow_search_alike():
    pos = random_position(0, 17)
    solver = rv.Solver()
    assert solver.best(pos.own, pos.opp) == (-4, 16)
    assert solver.nodes == ORDERING_SEARCH_NODES
