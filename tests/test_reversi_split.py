"""The reversi solver split over worker processes (``Threads``, games/reversi/split.py):
the values of one process, the published FFO values, and a clean stop."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import games
from engine.control import Control, Stopped
from engine.options import CORES
from games.reversi import endgame as rv
from games.reversi import split
from games.reversi.bitboard import flips
from tests.test_protocol import Pipe, bestmove, legal_texts, start
from tests.test_reversi_exact import minimax, random_position
from tests.test_reversi_ffo import load_ffo

needs_two = pytest.mark.skipif(CORES < 2, reason="the split solver is run with two workers")


@pytest.fixture
def low_splits(monkeypatch):
    """Split nodes from 10 empties and 3 plies deep: small positions split as big ones do."""
    monkeypatch.setattr(split, "SPLIT_EMPTIES", 10)


def _after(own: int, opp: int, move: int) -> tuple[int, int]:
    f = flips(own, opp, move)
    return opp & ~f, own | f | 1 << move


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not waited for, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.both_builds
def test_split_values_equal_one_process_and_minimax(low_splits):
    pool = split.Pool(2, rv.Solver)
    try:
        for seed in range(4):
            pos = random_position(seed, 11)
            want = minimax(pos.own, pos.opp, -65, 65)
            assert rv.Solver().best(pos.own, pos.opp)[0] == want
            score, move = pool.best(pos.own, pos.opp)
            assert score == want, pos.to_text()
            assert -rv.Solver().solve(*_after(pos.own, pos.opp, move)) == want
            # Fail-soft windows: exact inside, a bound on the side the value falls.
            for w in (want - 3, want, want + 2):
                v, _ = pool.root(pos.own, pos.opp, w, w + 1)
                assert (want <= v <= w) if v <= w else (want >= v >= w + 1)
    finally:
        pool.close()


@needs_two
@pytest.mark.parametrize("first", [1, 8, 15])
def test_ffo_1_to_19_split_values_are_the_published_ones(low_splits, first):
    ffo = load_ffo()
    pool = split.Pool(2, rv.Solver, count_empties=True)
    try:
        for number in range(first, first + 7 if first < 15 else 20):
            text, best_moves, value = ffo[number]
            pos = games.load("reversi").new_position(text)
            pool.fresh()
            score, move = pool.best(pos.own, pos.opp)
            assert score == value == rv.Solver(count_empties=True).best(pos.own, pos.opp)[0], number
            assert pos.move_text(move) in best_moves or -rv.Solver(count_empties=True).solve(
                *_after(pos.own, pos.opp, move), -value - 1, -value + 1) == value
    finally:
        pool.close()


@needs_two
def test_random_positions_of_16_to_20_empties_split_as_one_process():
    pool = split.Pool(2, rv.Solver)
    try:
        for seed, empties in ((1, 16), (2, 17), (3, 18), (4, 19), (5, 20)):
            pos = random_position(seed, empties)
            want = rv.Solver().best(pos.own, pos.opp)[0]
            score, move = pool.best(pos.own, pos.opp)
            assert score == want, pos.to_text()
            assert -rv.Solver().solve(*_after(pos.own, pos.opp, move), -want - 1, -want + 1) == want
    finally:
        pool.close()


@needs_two
def test_a_stopped_split_solve_stops_its_workers_and_the_pool_answers_after():
    pool = split.Pool(2, rv.Solver)
    try:
        pool.start()
        pos = random_position(7, 26)
        pool.control = Control(time.perf_counter() + 0.5)
        with pytest.raises(Stopped):
            pool.best(pos.own, pos.opp)
        pool.control = None
        pids = pool.pids()
        assert len(pids) == 2 and all(_alive(pid) for pid in pids)
        assert all(w.job is None for w in pool._workers)
        small = random_position(8, 16)
        assert pool.best(small.own, small.opp)[0] == rv.Solver().best(small.own, small.opp)[0]
        assert pool.pids() == pids
    finally:
        pool.close()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in pids)


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(stat[1]) == pid and stat[0] != "Z":
                out.append(int(entry))
    return out


@needs_two
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="child processes are found in /proc")
def test_threads_2_in_play_a_stopped_solve_then_an_exact_one_and_no_process_left():
    pipe = Pipe()
    try:
        start(pipe, "reversi")
        # FFO #54: 28 empties, more than a second of any build.
        ffo_54 = load_ffo()[54][0]
        pipe.send("setoption name Threads value 2", "setoption name EndgameEmpties value 60",
                  f"position fen {ffo_54}", "isready")
        pipe.until("readyok$")
        helpers = set(_children(pipe.proc.pid))  # Lazy SMP's search helper
        pipe.send("go movetime 1500")
        lines = pipe.until("bestmove", timeout=120)
        assert bestmove(lines) in legal_texts("reversi", ffo_54)
        assert not any(line.startswith("info string exact") for line in lines), lines
        workers = sorted(set(_children(pipe.proc.pid)) - helpers)
        assert len(workers) == 2
        # Stopped: the workers wait for the next solve, using no CPU.
        ticks = [Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[11] for pid in workers]
        time.sleep(0.5)
        assert ticks == [Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[11] for pid in workers]
        pos = random_position(3, 20)
        want = rv.Solver().best(pos.own, pos.opp)[0]
        pipe.send(f"position fen {pos.to_text()}", "go movetime 60000")
        lines = pipe.until("bestmove", timeout=120)
        assert any(line.startswith("info string exact") for line in lines), lines
        move = pos.parse_move(bestmove(lines))
        assert -rv.Solver().solve(*_after(pos.own, pos.opp, move), -want - 1, -want + 1) == want
        assert sorted(set(_children(pipe.proc.pid)) - helpers) == workers
        pipe.send("quit")
        pipe.proc.wait(30)
    finally:
        pipe.close()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in [*workers, *helpers])


@needs_two
def test_threads_reach_the_reversi_solver_without_remaking_it():
    from engine.engine import Engine

    engine = Engine(games)
    try:
        engine.set_option("UCI_Variant", "reversi")
        provider = engine.endgames.provider(engine.game)
        engine.set_option("Threads", "2")
        # The same provider (tables are not read or built again), now on two processes.
        assert engine.endgames.provider(engine.game) is provider
        assert provider.threads == 2 and engine.endgames.config.threads == 2
        engine.set_option("Threads", "1")
        assert provider.threads == 1 and provider.pool is None
    finally:
        engine.set_option("Threads", "1")
