"""A new transposition table costs the protocol reader nothing but its mapping.

``Hash``, ``Clear Hash`` and ``ucinewgame`` make a new table, which nothing writes
before a search does, and leave the old one to a background thread, which frees
its pages outside the GIL; the protocol reader must be able to run while the
system does that. The checks are of memory and of what another thread can see
during one freeing call, never of time.
"""

from __future__ import annotations

import gc
import mmap
import os
import random
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
def test_other_threads_run_while_a_table_is_given_back():
    fd = os.memfd_create("test-tt")
    os.ftruncate(fd, SIZE)
    mapping = mmap.mmap(fd, SIZE)
    os.close(fd)
    np.frombuffer(mapping, dtype=np.uint64)[:] = 1  # every page resident
    full = _resident_shared_kb()
    assert full >= SIZE >> 10
    # The table is given back in one call: a call that held the GIL would let this
    # thread look only before it began or after it ended.
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


def _give_backs_done() -> None:
    for thread in threading.enumerate():
        if thread.name.startswith("tt-"):
            thread.join(60)


@pytest.mark.skipif(not hasattr(os, "memfd_create") or not os.path.exists("/proc/self/status"),
                    reason="Linux shared memory")
def test_a_table_is_written_only_by_searches():
    # Writing a new table in advance took the CPU and the memory map from the protocol
    # reader right when it answered the command that made the table.
    _give_backs_done()
    before = _resident_shared_kb()
    table = tt.TranspositionTable(64)
    _give_backs_done()
    assert _resident_shared_kb() - before < 8 << 10
    keys = random.Random(68)
    for n in range(1, 20_000):  # random keys, as Zobrist keys are: spread over the table
        table.store(keys.getrandbits(64), n, 1, tt.EXACT, n)
    assert _resident_shared_kb() - before > 8 << 10
    table.clear()  # the old table given back, the new one not written
    _give_backs_done()
    assert _resident_shared_kb() - before < 8 << 10


def _server_shared_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("RssShmem:"):
                return int(line.split()[1])
    raise AssertionError("no RssShmem")


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the server's /proc status")
@pytest.mark.parametrize("change", ["setoption name Hash value 1024", "setoption name Clear Hash", "ucinewgame"])
def test_a_new_table_is_not_written_before_a_search(pipe, change):  # noqa: F811
    start(pipe, "chess")
    pipe.send("setoption name Hash value 1024", "isready")
    pipe.until("readyok$")
    pipe.send(change, "isready")
    pipe.until("readyok$")
    pipe.quiet(1.0)
    assert _server_shared_kb(pipe.proc.pid) < 100 << 10
    pipe.send("position startpos", "go depth 3")
    assert pipe.until("bestmove")[-1].split()[1] != "(none)"


def _open_files() -> set[int]:
    """The inodes of the files this process holds a descriptor of."""
    inodes = set()
    for name in os.listdir("/proc/self/fd"):
        try:
            inodes.add(os.stat(f"/proc/self/fd/{name}").st_ino)
        except OSError:
            pass  # the listing's own descriptor, closed by now
    return inodes


@pytest.mark.skipif(not hasattr(os, "memfd_create"), reason="tables with a descriptor need memfd")
def test_a_dropped_table_closes_its_descriptor():
    # An engine made and dropped (a match, a tool, a test) kept one open for good:
    # past 1,024 of them the terminal's keyboard pipe could no longer be read.
    tables = [tt.TranspositionTable(1) for _ in range(30)]
    memory = {os.fstat(table.fileno()).st_ino for table in tables}
    assert memory <= _open_files()
    del tables
    gc.collect()
    assert not memory & _open_files()
