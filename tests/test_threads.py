"""Threads: Lazy SMP helper processes over the shared table, and their lifetime."""

from __future__ import annotations

import mmap
import os
import signal
import time
from pathlib import Path

import numpy as np
import pytest
from test_protocol import Pipe, pipe, start  # noqa: F401 (fixture)

import games
from engine.game import ExactConfig, is_proven
from engine.options import CORES
from engine.session import exact_settings
from engine.smp import Helpers
from engine.tt import EXACT, TranspositionTable

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

needs_two = pytest.mark.skipif(CORES < 2 or not hasattr(os, "memfd_create"),
                               reason="helpers need two cores and shareable memory")


def helpers_of(pid: int) -> list[int]:
    """The helper processes (``engine.smp``) whose parent is ``pid``, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        # The command name may hold spaces: the fields after it follow its ')'.
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"engine.smp" in cmdline:
            found.append(int(entry.name))
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_gone(pids: list[int], seconds: float = 10.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := [p for p in pids if running(p)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def wait_helpers(pid: int, count: int, seconds: float = 10.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while len(found := helpers_of(pid)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def table_mappings(pid: int) -> list[int]:
    """Sizes in bytes of the table memory ``pid`` maps."""
    sizes = []
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        if "zermelo-tt" in line:
            low, high = (int(x, 16) for x in line.split()[0].split("-"))
            sizes.append(high - low)
    return sizes


@pytest.mark.skipif(not hasattr(os, "memfd_create"), reason="the table's memory is shared through memfd")
def test_a_torn_slot_is_a_miss():
    """Helpers write slots without locks: a slot holding the words of two stores (the
    key word of one, the move and data of the other) must match no key. The slot is
    written here through a second mapping of the table, as another process would."""
    table = TranspositionTable(1)
    slots = 2 * table.buckets
    view = mmap.mmap(os.dup(table.fileno()), 24 * slots)
    words = np.frombuffer(view, dtype=np.uint64)
    keys, moves = words[0::3], words[1::3]  # a slot's key, move and data side by side
    table.store(0x1234, 7, 3, EXACT, 42)
    (slot,) = np.flatnonzero(words[2::3])
    first = int(keys[slot])
    table.store(0x1234, 9, 5, EXACT, -17)
    assert table.probe(0x1234)[1:5] == (9, 5, 0, -17)
    keys[slot] = first
    assert table.probe(0x1234) is None
    table.store(0x1234, 9, 5, EXACT, -17)
    moves[slot] = 7
    assert table.probe(0x1234) is None
    del words, keys, moves


@needs_two
def test_a_helper_searches_into_the_shared_table():
    table = TranspositionTable(4)
    helpers = Helpers("games")
    try:
        helpers.resize(1, table)
        generation = table.generation % 255 + 1
        helpers.start({"registry": "games", "variant": "chess", "params": None, "root": None,
                       "moves": ["e2e4", "e7e5"], "key": _key("chess", ["e2e4", "e7e5"]),
                       "generation": generation, "depth": 6, "searchmoves": []})
        helpers.settle()
        assert helpers.errors == []
        assert helpers.nodes() > 1000
        table.generation = generation
        assert table.hashfull() > 0
        # A position the helper cannot rebuild is reported, and the helper carries on.
        helpers.start({"registry": "games", "variant": "chess", "params": None, "root": None,
                       "moves": ["e2e4"], "key": 1, "generation": generation, "depth": 3, "searchmoves": []})
        helpers.settle()
        assert len(helpers.errors) == 1 and "not the server's" in helpers.errors[0]
        assert len(helpers.pids()) == 1
    finally:
        helpers.close()


@needs_two
def test_a_helper_probes_the_servers_endgame_tables():
    # The rook takes the knight into KRvK, a table position (the capture resets the
    # fifty-move counter, as a WDL probe needs): a helper that probes the tables scores
    # the root a proven win at depth 3, where the evaluation alone cannot.
    fen = "8/8/8/4k3/n7/8/8/R3K3 w - - 0 1"
    syzygy = str(Path(__file__).parent / "data" / "syzygy")
    table = TranspositionTable(4)
    helpers = Helpers("games")
    try:
        helpers.resize(1, table)
        helpers.start({"registry": "games", "variant": "chess", "params": None, "root": fen, "moves": [],
                       "key": games.load("chess").new_position(fen).key, "generation": table.generation % 255 + 1,
                       "depth": 3, "searchmoves": [], "exact": exact_settings(ExactConfig(syzygy_path=syzygy))})
        helpers.settle()
        assert helpers.errors == []
        [(depth, score, pv)] = helpers.finish()
        assert is_proven(score) and score > 0, (depth, score, pv)
    finally:
        helpers.close()


def _key(game: str, moves: list[str]) -> int:
    pos = games.load(game).new_position(None)
    for move in moves:
        pos.push(pos.parse_move(move))
    return pos.key


@needs_two
@pytest.mark.parametrize("end", ["quit", "eof", "sigterm", "sigkill"])
def test_no_helper_outlives_the_server(end):
    server = Pipe()
    try:
        server.handshake()
        server.send("setoption name Threads value 2", "isready")
        server.until("readyok$")
        server.send("position startpos", "go infinite")
        helpers = wait_helpers(server.proc.pid, 1)
        assert len(helpers) == 1
        server.until("info depth 3 ")
        if end == "quit":
            server.send("quit")
        elif end == "eof":
            server.proc.stdin.close()
        elif end == "sigterm":
            server.proc.send_signal(signal.SIGTERM)
        else:
            server.proc.kill()
        server.proc.wait(10)
        assert wait_gone(helpers) == []
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait()


@needs_two
def test_every_go_gets_one_bestmove_with_two_threads(pipe):
    start(pipe, "chess")
    pipe.send("setoption name Threads value 2", "isready")
    assert any("searched by 2 processes" in line for line in pipe.until("readyok$"))
    helpers = wait_helpers(pipe.proc.pid, 1)
    pipe.send("position startpos moves e2e4", "go depth 8")
    pipe.until("bestmove ")
    pipe.send("position startpos moves e2e4 e7e5", "go movetime 300")
    pipe.until("bestmove ")
    pipe.send("go infinite")
    pipe.until("info depth 4 ")
    pipe.send("stop")
    pipe.until("bestmove ")
    pipe.send("position startpos moves e2e4 e7e5 g1f3", "go ponder wtime 2000 btime 2000")
    pipe.until("info depth 2 ")
    pipe.send("ponderhit")
    pipe.until("bestmove ")
    pipe.send("position startpos moves e2e4 e7e5 g1f3", "go depth 6 searchmoves a7a6 h7h6")
    assert pipe.until("bestmove ")[-1].split()[1] in ("a7a6", "h7h6")
    # A new table: the helper leaves the old one and maps the new one, nothing else.
    pipe.send("setoption name Hash value 32", "ucinewgame", "position startpos", "go depth 5")
    lines = pipe.until("bestmove ")
    assert not [line for line in lines if "error" in line]
    assert [p for p in helpers if running(p)] == helpers
    for pid in helpers:
        assert table_mappings(pid) == [32 << 20]
    assert pipe.quiet(0.3) == []
    # Threads 1 ends the helpers.
    pipe.send("setoption name Threads value 1", "isready")
    pipe.until("readyok$")
    assert wait_gone(helpers) == []


@needs_two
def test_a_helper_that_dies_is_reported_and_replaced(pipe):
    start(pipe, "chess")
    pipe.send("setoption name Threads value 2", "isready")
    pipe.until("readyok$")
    (helper,) = wait_helpers(pipe.proc.pid, 1)
    pipe.send("go infinite")
    pipe.until("info depth 3 ")
    os.kill(helper, signal.SIGKILL)
    pipe.send("stop")
    pipe.until("bestmove ")
    pipe.send("go depth 4")
    lines = pipe.until("bestmove ")
    assert [line for line in lines if line.startswith("info string")] == [
        "info string error: a Threads helper ended or stopped answering; a new one is started"]
    assert [p for p in wait_helpers(pipe.proc.pid, 1) if p != helper]
    pipe.send("go depth 4")
    assert not [line for line in pipe.until("bestmove ") if line.startswith("info string")]


@needs_two
def test_games_of_more_than_two_players_say_they_use_one_thread(pipe):
    start(pipe, "mnkmulti")
    pipe.send("setoption name Threads value 2", "isready")
    pipe.until("readyok$")
    pipe.send("go depth 2")
    lines = pipe.until("bestmove ")
    assert [line for line in lines if "searched by one thread" in line] == [
        "info string Threads 2: games of more than two players are searched by one thread"]


def test_threads_1_starts_no_helper(pipe):
    start(pipe, "chess")
    pipe.send("setoption name Threads value 1", "go depth 4")
    pipe.until("bestmove ")
    assert helpers_of(pipe.proc.pid) == []
