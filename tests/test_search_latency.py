"""A search whose every node runs compiled still lets the protocol answer at once.

Compiled code that never returns to the interpreter keeps the GIL: the server's
reader thread would wait for the whole search. Nim is compiled with the search,
so its tree runs without touching the interpreter; the bounds here are liveness
bounds (a starved reader waits for seconds), not timing claims.
"""

from __future__ import annotations

import time

import engine.build
from tests.test_protocol import bestmove, pipe, start  # noqa: F401 (pipe is a fixture)


def test_isready_and_stop_answer_while_a_compiled_search_runs(pipe):  # noqa: F811
    start(pipe, "nim")
    # Too many positions for the whole-game solver: the alpha-beta search plays.
    pipe.send("setoption name nim_heaps value 200,200,200,200,200", "setoption name nim_max_take value 60")
    pipe.ready()
    pipe.send("go infinite")
    pipe.until("info depth")
    for _ in range(5):
        time.sleep(0.2)
        sent = time.monotonic()
        pipe.ready()
        assert time.monotonic() - sent < 0.5, engine.build.describe()
    sent = time.monotonic()
    pipe.send("stop")
    assert bestmove(pipe.until("bestmove")) != "(none)"
    assert time.monotonic() - sent < 0.5
