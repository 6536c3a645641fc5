"""The Connect Four solver against Pascal Pons' published scores, an independent
simple solver, and the position's incremental state on every board size.

The whole benchmark set (120 positions 10-19 plies from the start) is solved by
``scripts/connect4_solve.py``; the suite takes its quick end.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import games
from games.connect4 import Solver, solve
from tests.connect4_simple import simple_score

DATA = Path(__file__).with_name("data") / "connect4_pons.txt"


def published() -> list[tuple[str, int, str]]:
    rows = []
    for line in DATA.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            columns, score, name = line.split()
            rows.append((columns, int(score), name))
    return rows


def test_the_set_is_sourced_and_covers_10_to_19_plies():
    assert "Pons" in DATA.read_text() and "AlphaZero.jl" in DATA.read_text()
    rows = published()
    game = games.load("connect4")
    assert len(rows) >= 100 and len({c for c, _, _ in rows}) == len(rows)
    assert {len(c) for c, _, _ in rows} == set(range(10, 20))
    for columns, _, _ in rows:
        pos = game.new_position(columns)
        assert pos.moves == len(columns) and pos.outcome() is None


#: The quick end of the set: the easy middle positions, 17-19 plies from the start.
QUICK = [row for row in published() if row[2] == "Test_L2_R1" and len(row[0]) >= 17]


@pytest.mark.parametrize("columns,score,name", QUICK, ids=[c for c, _, _ in QUICK])
def test_published_scores(columns, score, name):
    assert solve(games.load("connect4").new_position(columns)) == score


#: The simple solver is slow: the positions nearest the end.
SIMPLE = [row for row in QUICK if len(row[0]) == 19][:4]


@pytest.mark.parametrize("columns,score,name", SIMPLE, ids=[c for c, _, _ in SIMPLE])
def test_the_simple_solver_agrees(columns, score, name):
    assert simple_score(columns)[0] == score


def test_a_kept_table_gives_the_same_scores():
    # Bounds in the table are true of a position wherever it occurs.
    game = games.load("connect4")
    solver = Solver(game.geometry, 257)  # tiny: slots are overwritten all the time
    for columns, score, _ in QUICK:
        assert solve(game.new_position(columns), None, solver) == score
    assert solver.nodes > 0


@pytest.mark.parametrize("width,height,connect", [(7, 6, 4), (8, 7, 5), (10, 7, 4), (4, 10, 6)])
def test_push_and_pop_keep_the_incremental_state(width, height, connect):
    game = games.load("connect4", width=width, height=height, connect=connect)
    rng = random.Random(f"connect4/pushpop/{width}x{height}x{connect}")
    for _ in range(20):
        pos, states = game.new_position(), []
        while pos.legal_moves():
            states.append((pos.cur, pos.mask, pos.turn, pos.key, pos.moves, pos.won, pos.evaluate()))
            pos.push(rng.choice(pos.legal_moves()))
            assert pos.key == pos.compute_key() and 0 <= pos.key < 2 ** 64
            fresh = game.new_position(pos.to_text()) if pos.outcome() is None else None
            if fresh is not None:
                assert (fresh.key, fresh.evaluate(), fresh.threats()) == (pos.key, pos.evaluate(), pos.threats())
        while states:
            pos.pop()
            assert (pos.cur, pos.mask, pos.turn, pos.key, pos.moves, pos.won, pos.evaluate()) == states.pop()
