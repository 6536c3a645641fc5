"""A dropped transposition table is given back outside the GIL.

``Hash``, ``Clear Hash`` and ``ucinewgame`` make a new table and leave the old one
to a background thread, which frees its pages; the protocol reader must be able
to run while the system does that. The check is of what another thread can see
during one freeing call, never of time.
"""

from __future__ import annotations

import mmap
import os
import threading

import numpy as np
import pytest

from engine import tt
from tests.test_protocol import pipe, start  # noqa: F401 (pipe is a fixture)

pytestmark = pytest.mark.both_builds

SIZE = 512 << 20


def _resident_shared_kb() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("RssShmem:"):
                return int(line.split()[1])
    raise AssertionError("no RssShmem in /proc/self/status")


@pytest.mark.skipif(not hasattr(os, "memfd_create") or not hasattr(mmap, "MADV_REMOVE")
                    or not os.path.exists("/proc/self/status"), reason="Linux shared memory")
def test_other_threads_run_while_a_table_is_given_back(monkeypatch):
    fd = os.memfd_create("test-tt")
    os.ftruncate(fd, SIZE)
    mapping = mmap.mmap(fd, SIZE)
    os.close(fd)
    np.frombuffer(mapping, dtype=np.uint64)[:] = 1  # every page resident
    full = _resident_shared_kb()
    assert full >= SIZE >> 10
    # One freeing call for the whole table: a call that held the GIL would let this
    # thread look only before it began or after it ended.
    monkeypatch.setattr(tt, "PAGE_IN_CHUNK", SIZE)
    giving = threading.Thread(target=tt._unmap, args=(mapping,))
    del mapping
    giving.start()
    seen_midway = 0
    while giving.is_alive():
        kb = _resident_shared_kb()
        seen_midway += full - 0.9 * (SIZE >> 10) < kb < full - 0.1 * (SIZE >> 10)
    giving.join()
    assert _resident_shared_kb() <= full - (SIZE >> 10)
    assert seen_midway


def test_a_new_table_does_not_wait_for_the_old_one_to_be_paged_in():
    table = tt.TranspositionTable(1024)  # paged in by a background thread
    page_in = next((t for t in threading.enumerate() if t.name == "tt-page-in" and t.is_alive()), None)
    if page_in is None:
        pytest.skip("the table was paged in before the test could look")
    # A page-in in the middle of a chunk, for as long as the test holds its lock.
    page_in.lock.acquire()
    try:
        clearing = threading.Thread(target=table.clear, daemon=True)
        clearing.start()
        clearing.join(30)
        assert not clearing.is_alive(), "clearing the table waited for the page-in of the old one"
    finally:
        page_in.lock.release()
    page_in.join(30)
    assert not page_in.is_alive()
    table.resize(1)


def _server_shared_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("RssShmem:"):
                return int(line.split()[1])
    raise AssertionError("no RssShmem")


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the server's /proc status")
@pytest.mark.parametrize("change", ["setoption name Clear Hash", "ucinewgame", "setoption name Hash value 16"])
def test_the_answer_comes_while_the_old_table_is_given_back(pipe, change):  # noqa: F811
    start(pipe, "chess")
    pipe.send("setoption name Hash value 1024")
    pipe.ready()
    # The whole table resident (paged in by the background thread): 1 GB to give back.
    pid = pipe.proc.pid
    for _ in range(600):
        if _server_shared_kb(pid) >= 1000 << 10:
            break
        pipe.quiet(0.1)
    else:
        pytest.skip("the 1 GB table was not paged in within a minute")
    pipe.send(change, "isready")
    pipe.until("readyok$")
    assert _server_shared_kb(pid) > 500 << 10
    pipe.send("position startpos", "go depth 3")
    assert pipe.until("bestmove")[-1].split()[1] != "(none)"
