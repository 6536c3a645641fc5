"""The exact reversi endgame solver against brute-force minimax over the game's rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import engine.build
import games
from engine.control import Stopped
from engine.endgame import Endgames
from engine.game import ExactConfig, margin_score
from engine.timeman import Limits
from games.reversi import endgame as rv
from games.reversi.bitboard import flips
from tests.test_reversi_exact import minimax, random_position


def brute(pos):
    """Final disc difference for the side to move, by plain minimax (passes are moves)."""
    moves = pos.legal_moves()
    if not moves:
        return pos.own.bit_count() - pos.opp.bit_count()
    best = -65
    for m in moves:
        pos.push(m)
        best = max(best, -brute(pos))
        pos.pop()
    return best


def late_positions(n, empties, seed):
    game = games.load("reversi")
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = game.new_position()
        while 64 - (pos.own | pos.opp).bit_count() > empties and pos.legal_moves():
            pos.push(rng.choice(pos.legal_moves()))
        if pos.legal_moves():
            out.append(game.new_position(pos.to_text()))
    return out


def test_solver_matches_brute_force():
    for pos in late_positions(30, 8, 1):
        want = brute(pos)
        score, move = rv.solve(pos)
        assert score == want, pos.to_text()
        # The move achieves the score, and windows give bounds on the right side.
        pos.push(move)
        assert -brute(pos) == want
        pos.pop()
        s = rv.Solver()
        assert s.solve(pos.own, pos.opp, want - 1, want + 1) == want
        assert s.solve(pos.own, pos.opp, want, want + 1) <= want
        assert s.solve(pos.own, pos.opp, want - 1, want) >= want


def test_passes_and_game_end():
    game = games.load("reversi")
    # Black to move has no move but White has: a pass, then White's best.
    pos = game.new_position("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO-- X")
    assert rv.solve(pos)[0] == brute(pos)


def test_engine_plays_the_solved_move():
    game = games.load("reversi")
    endgames = Endgames(ExactConfig(endgame_empties=8))
    for pos in late_positions(5, 8, 7):
        move, score = endgames.oracle(game, pos, Limits()).move, None
        pos.push(move)
        after = -brute(pos)
        pos.pop()
        assert after == brute(pos)
        small = late_positions(1, 6, 3)[0]
        assert endgames.hook(game).probe(small) == margin_score(brute(small))


def test_root_windows_give_bounds_and_the_best_move():
    # root() is fail-soft: exact inside the window, a bound on the side it falls; the
    # win/draw/loss proof then the exact score (best) agree with brute force.
    for pos in late_positions(10, 7, 11):
        want = brute(pos)
        s = rv.Solver()
        assert s.best(pos.own, pos.opp)[0] == want
        lo, _ = s.root(pos.own, pos.opp, -1, 1)
        # A bound on the proved side, never past the exact score.
        assert (want >= lo >= 1) if want >= 1 else (want <= lo <= -1) if want <= -1 else lo == 0
        for w in range(want - 5, want + 5):
            v, _ = rv.Solver().root(pos.own, pos.opp, w, w + 1)
            assert (want <= v <= w) if v <= w else (want >= v >= w + 1)
        score, move = rv.Solver().root(pos.own, pos.opp, -65, 65)
        pos.push(move)
        assert (score, -brute(pos)) == (want, want)
        pos.pop()


def test_stable_discs_never_change_colour():
    # Whatever is played afterwards, a disc the solver calls stable keeps its colour.
    game = games.load("reversi")
    rng = random.Random(5)
    found = 0
    for empties in (30, 20, 12, 6) * 10:
        pos = late_positions(1, empties, rng.randrange(1 << 30))[0]
        for side in (0, 1):
            own, opp = (pos.own, pos.opp) if side == 0 else (pos.opp, pos.own)
            stable = rv.stable_discs(own, opp)
            assert stable & ~own == 0
            found += bin(stable).count("1")
            for _ in range(5):
                line = game.new_position(pos.to_text())
                while line.legal_moves():
                    line.push(rng.choice(line.legal_moves()))
                mine = line.own if line.turn == pos.turn ^ side else line.opp
                assert stable & ~mine == 0, (pos.to_text(), side)
    assert found > 100  # the rules found something to check


def test_solve_margin_gives_blacks_exact_margin():
    game = games.load("reversi")
    pos = late_positions(1, 9, 21)[0]
    bounds = []
    result = game.solve_margin(pos, report=lambda lo, hi, nodes, seconds: bounds.append((lo, hi)))
    want = brute(pos) * (1 if pos.turn == 0 else -1)
    assert result.margin == want and result.move in pos.legal_moves()
    assert result.searches == len(bounds) + 1
    mover = want if pos.turn == 0 else -want
    assert all(lo <= mover <= hi for lo, hi in bounds)
    with pytest.raises(Stopped):
        game.solve_margin(late_positions(1, 16, 3)[0], max_nodes=5000)


#: A plain minimax over the whole window takes about 1 s at 12 empties, 6 s at 14 and
#: 2-3 minutes at 15-16 (compiled rules); over the window of one score around the
#: solver's (fail-hard: it answers that score only if it is the value) about 1 s at 15
#: and 3 s at 16. The pure build checks up to 14 empties.
@settings(max_examples=5, deadline=None)
@given(st.integers(0, 1 << 30), st.integers(12, 16))
def test_exact_score_equals_plain_minimax(seed, empties):
    assume(empties <= 14 or engine.build.COMPILED)
    pos = random_position(seed, empties)
    solver = rv.Solver()
    score, move = solver.best(pos.own, pos.opp)
    want = minimax(pos.own, pos.opp, score - 1, score + 1)
    assert score == want, pos.to_text()
    assert rv.Solver().solve(pos.own, pos.opp) == want
    # The move keeps the score.
    f = flips(pos.own, pos.opp, move) if move < 64 else 0
    after = (pos.opp & ~f, pos.own | f | 1 << move) if move < 64 else (pos.opp, pos.own)
    assert -rv.Solver().solve(*after, -65, 65) == want
