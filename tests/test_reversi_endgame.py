"""The exact reversi endgame solver against brute-force minimax over the game's rules."""

from __future__ import annotations

import random

import games
from engine.endgame import Endgames
from engine.game import ExactConfig, margin_score
from engine.timeman import Limits
from games.reversi import endgame as rv


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
        assert endgames.hook(game)[0](small) == margin_score(brute(small))
