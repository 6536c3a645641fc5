"""The protocol reader answers while compiled loops run: searches, perft, solvers, the table.

Compiled code never reaches the interpreter's switch check, so a compiled loop that
does not offer the GIL keeps the server's reader waiting for the whole loop (see
:mod:`engine.switch`). These dialogues run the real server over pipes, in whichever
build is installed. Their bounds are liveness bounds (a starved reader waits for
seconds), not timing claims; the perft test asserts only an order of events.
"""

from __future__ import annotations

import statistics
import time
import types

import pytest

import engine.build
import engine.switch
from tests.test_protocol import bestmove, pipe, start  # noqa: F401 (pipe is a fixture)

pytestmark = pytest.mark.both_builds


def test_the_switch_point_is_interpreted():
    # Compiled, it would make no switch check: every compiled loop would starve the reader again.
    assert "engine.switch" not in engine.build.COMPILED_MODULES
    assert type(engine.switch.switch_point) is types.FunctionType


def _isready_seconds(pipe) -> float:  # noqa: F811
    sent = time.monotonic()
    pipe.ready()
    return time.monotonic() - sent


def test_isready_and_stop_answer_while_a_compiled_search_runs(pipe):  # noqa: F811
    start(pipe, "nim")
    # Too many positions for the whole-game solver: the alpha-beta search plays.
    pipe.send("setoption name nim_heaps value 200,200,200,200,200", "setoption name nim_max_take value 60")
    pipe.ready()
    pipe.send("go infinite")
    pipe.until("info depth")
    for _ in range(5):
        time.sleep(0.2)
        assert _isready_seconds(pipe) < 0.5, engine.build.describe()
    sent = time.monotonic()
    pipe.send("stop")
    assert bestmove(pipe.until("bestmove")) != "(none)"
    assert time.monotonic() - sent < 0.5


def test_reversi_search_leaves_the_reader_live(pipe):  # noqa: F811
    # Reversi's compiled nodes are fast: a search that released the GIL at every
    # checkpoint still starved the reader (each release restarted its wait), for
    # seconds at a time.
    start(pipe, "reversi")
    pipe.send("go infinite")
    pipe.until("info depth")
    waits = []
    for _ in range(9):
        time.sleep(0.15)
        waits.append(_isready_seconds(pipe))
    sent = time.monotonic()
    pipe.send("stop")
    pipe.until("bestmove")
    stop = time.monotonic() - sent
    assert statistics.median(waits) < 0.25 and max(waits) < 2, (waits, engine.build.describe())
    assert stop < 1, (stop, engine.build.describe())


def test_go_perft_reads_isready_and_stop_before_it_ends(pipe):  # noqa: F811
    # Perft 6 on the 15×15 board counts about 10**14 paths, each root move's share
    # for minutes even compiled: a reader kept from the GIL reads isready and stop
    # only when the count is over.
    start(pipe, "mnk")
    pipe.send("go perft 6")
    time.sleep(0.2)
    pipe.send("isready", "stop")
    lines = pipe.until("info string perft stopped|Nodes searched", timeout=60)
    assert lines[-1] == "info string perft stopped", lines
    assert lines.index("readyok") < len(lines) - 1
    # The server is in its idle state again: another perft counts in full.
    pipe.send("go perft 2")
    assert pipe.until("Nodes searched")[-1] == "Nodes searched: 50400"  # 225 × 224


def test_a_large_hash_is_allocated_and_cleared_without_blocking_the_reader(pipe):  # noqa: F811
    start(pipe, "chess")
    pipe.send("setoption name Hash value 4096")
    assert _isready_seconds(pipe) < 2
    pipe.send("setoption name Clear Hash")
    assert _isready_seconds(pipe) < 2
    pipe.send("ucinewgame", "position startpos")
    assert _isready_seconds(pipe) < 2
    pipe.send("go depth 4")
    assert bestmove(pipe.until("bestmove", timeout=60)) != "(none)"
    # Back to a small table, and a search on it.
    pipe.send("setoption name Hash value 1")
    assert _isready_seconds(pipe) < 2
    pipe.send("go depth 3")
    assert bestmove(pipe.until("bestmove", timeout=60)) != "(none)"
