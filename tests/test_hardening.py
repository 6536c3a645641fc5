"""Stop, clocks and refused input over real pipes: what a GUI that stops an
analysis, sends a position it believes valid, or switches games relies on.

Every search mode (normal, ponder, infinite, the mate prover, table builds and
exact root solvers, ``go perft``) must answer ``stop`` at once, a ``stop`` that
arrives before the search proper starts must not be lost, ``isready`` must be
answered while anything runs, and a ``go`` after a refused ``position`` must not
answer for another position. Bounds are generous liveness limits, not speed
figures.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from test_protocol import REPO, Pipe, pipe, start  # noqa: F401  (pipe is a fixture)

#: A reversi position with 16 empty squares whose exact solve takes seconds.
REVERSI_16 = "-XXXXX---OOOOX--XOOXOOOO-OXOOOO-OOXOOX--OOX-OOOOOXXXXXX-X----XXX X"


def timed(pipe: Pipe, pattern: str, limit: float) -> tuple[list[str], float]:
    """Lines up to ``pattern``, and the seconds it took; fails beyond ``limit``."""
    t0 = time.monotonic()
    lines = pipe.until(pattern, timeout=limit)
    return lines, time.monotonic() - t0


def stop_answers(pipe: Pipe, limit: float = 2.0) -> list[str]:
    pipe.send("stop")
    lines, _ = timed(pipe, "bestmove", limit)
    return lines


# -- refused positions and rules ------------------------------------------------------------


def test_go_after_a_refused_position_answers_no_move(pipe):
    start(pipe, "chess")
    pipe.send("position startpos moves e2e4")
    pipe.send("position startpos moves e2e4 e7e5 e1e3")  # illegal third move
    assert pipe.line().startswith("info string error: ")
    pipe.send("go depth 2")
    lines = pipe.until("bestmove")
    assert lines[-1] == "bestmove (none)"
    errors = [line for line in lines if line.startswith("info string error: ")]
    assert len(errors) == 1 and len(lines) == 2, lines
    # The state stays the last accepted position: d, query and the next position work.
    pipe.send("d")
    assert any(line.startswith("Text: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b") for line in pipe.until("Legal"))
    pipe.send("query p1turn")
    assert pipe.line() == "response false"
    pipe.send("position startpos moves e2e4 e7e5", "go depth 2")
    assert pipe.until("bestmove")[-1] != "bestmove (none)"


def test_go_after_an_unparsable_position_answers_no_move(pipe):
    start(pipe, "reversi")
    pipe.send("position startpos moves f5", "position fen this is not a board", "go depth 1")
    lines = pipe.until("bestmove")
    assert lines[-1] == "bestmove (none)"
    pipe.send("ucinewgame", "go depth 1")  # a new game is the start position again
    assert pipe.until("bestmove")[-1] != "bestmove (none)"


def test_go_after_refused_rules_answers_no_move(pipe):
    pipe.handshake()
    pipe.send("setoption name UCI_Variant value crazyhouse")
    assert pipe.line().startswith("info string error: ")
    pipe.send("go depth 1")
    assert pipe.until("bestmove")[-1] == "bestmove (none)"
    pipe.send("setoption name UCI_Variant value chess", "go depth 1")
    assert pipe.until("bestmove")[-1] != "bestmove (none)"
    pipe.send("setoption name UCI_Chess960 value true", "isready")
    refused = pipe.until("readyok")[:-1]
    pipe.send("go depth 1")
    answer = pipe.until("bestmove")[-1]
    if refused:  # Chess960 not supported: no move for a game the GUI believes is 960
        assert answer == "bestmove (none)"
        pipe.send("setoption name UCI_Chess960 value false", "go depth 1")
        assert pipe.until("bestmove")[-1] != "bestmove (none)"


# -- stop in every search mode --------------------------------------------------------------


def test_stop_ends_the_mate_prover(pipe):
    start(pipe, "chess")
    pipe.send("go mate 30")
    time.sleep(0.5)
    stop_answers(pipe)
    pipe.ready()


def test_stop_ends_a_kalah_search_building_its_table(pipe):
    start(pipe, "kalah")
    pipe.send("setoption name kalah_pits value 7", "go depth 60")
    time.sleep(0.3)
    stop_answers(pipe)
    pipe.send("go depth 60")  # the table is built (again) or used by the next search
    time.sleep(1.5)
    stop_answers(pipe)
    pipe.ready()


def test_stop_ends_the_exact_reversi_root_solve(pipe):
    start(pipe, "reversi")
    pipe.send("setoption name EndgameEmpties value 16", f"position fen {REVERSI_16}", "isready")
    pipe.until("readyok")
    pipe.send("go movetime 50")
    timed(pipe, "bestmove", 1.5)  # the clock bounds the solve too
    pipe.send("go wtime 600000 btime 600000")
    time.sleep(0.3)
    stop_answers(pipe, 1.0)
    pipe.ready()


def test_perft_leaves_the_reader_free_and_stops(pipe):
    start(pipe, "chess")
    pipe.send("go perft 6")
    time.sleep(0.2)
    pipe.send("isready")
    timed(pipe, "readyok", 1.0)
    pipe.send("stop")
    lines = pipe.quiet(1.5)
    assert lines == ["info string perft stopped"], lines
    pipe.send("go perft 2")
    assert pipe.until("Nodes searched")[-1] == "Nodes searched: 400"


# -- stops that come before the search proper ---------------------------------------------


@pytest.mark.parametrize("script", [
    ["go mate 30", "position startpos", "isready"],
    ["go mate 30", "stop", "isready"],
    ["go infinite", "stop", "isready"],
    ["go ponder wtime 1000 btime 1000", "stop", "isready"],
])
def test_early_stop_is_not_lost(pipe, script):
    start(pipe, "chess")
    t0 = time.monotonic()
    pipe.send(*script)
    lines = pipe.until("readyok", timeout=3.0)
    if not any(line.startswith("bestmove") for line in lines):
        lines += pipe.until("bestmove", timeout=3.0 - (time.monotonic() - t0))
    assert sum(line.startswith("bestmove") for line in lines) == 1
    pipe.send("quit")
    assert pipe.proc.wait(3.0) == 0


def test_early_stop_of_the_first_kalah_search(pipe):
    start(pipe, "kalah")
    pipe.send("setoption name kalah_pits value 7", "go depth 60", "stop", "isready")
    lines = pipe.until("readyok", timeout=2.0)
    if not any(line.startswith("bestmove") for line in lines):
        pipe.until("bestmove", timeout=2.0)


def test_checkers_burst_in_one_write():
    proc = subprocess.run([sys.executable, "-m", "protocol"], cwd=REPO, capture_output=True, timeout=20,
                          input=b"uci\nsetoption name UCI_Variant value checkers\ngo wtime 100000\n"
                                b"ucinewgame\nisready\nquit\n")
    out = proc.stdout.decode().splitlines()
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    assert sum(line.startswith("bestmove ") for line in out) == 1 and "readyok" in out


# -- game switches ---------------------------------------------------------------------------


@pytest.mark.parametrize("first", ["tictactoe", "connect4", "reversi", "kalah"])
def test_game_switch_leaves_no_table_hook_behind(pipe, first):
    start(pipe, first)
    pipe.send("go movetime 20")
    pipe.until("bestmove")
    second = "reversi" if first == "kalah" else "chess"
    pipe.send(f"setoption name UCI_Variant value {second}", "go infinite")
    time.sleep(1.0)
    lines = stop_answers(pipe)
    assert not any("error" in line for line in lines), lines
    pipe.send("isready", "position startpos", "isready")
    pipe.until("readyok", timeout=2.0)
    pipe.until("readyok", timeout=2.0)


# -- slow input ---------------------------------------------------------------------------------


def test_long_searchmoves_lists_are_parsed_cheaply(pipe):
    start(pipe, "chess")
    pipe.send("go movetime 50 searchmoves " + " ".join(["e2e4", "d2d4", "g1f3"] * 50_000))
    timed(pipe, "bestmove", 1.0)


def test_a_long_game_history_is_not_copied_per_go(pipe):
    start(pipe, "chess")
    pipe.send("position startpos moves " + " ".join(["g1f3 g8f6 f3g1 f6g8"] * 50_000), "isready")
    pipe.until("readyok", timeout=30)
    pipe.send("go movetime 50")
    timed(pipe, "bestmove", 1.0)
    pipe.send("position startpos moves " + " ".join(["g1f3 g8f6 f3g1 f6g8"] * 50_000) + " e2e4", "isready")
    pipe.until("readyok", timeout=2.0)  # one more move is pushed, not the game replayed
    pipe.send("d")
    assert any(line.startswith("Text: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b") for line in pipe.until("Legal"))


# -- one bestmove per go, whatever the interleaving ---------------------------------------------


@pytest.mark.parametrize("game", ["chess", "kalah", "reversi", "connect4", "checkers", "tictactoe"])
def test_one_bestmove_per_go_in_a_scripted_session(pipe, game):
    start(pipe, game)
    script = ["go depth 3", "stop", "go infinite", "isready", "position startpos", "go mate 3",
              "stop", "go movetime 30", "setoption name MultiPV value 2", "go ponder wtime 500 btime 500",
              "ponderhit", "go nodes 500", "ucinewgame", "go wtime 200 btime 200", "stop", "stop",
              "setoption name UCI_Variant value " + game, "go infinite", "go depth 2",
              "position fen nonsense", "go depth 2", "position startpos", "go movetime 20",
              "go perft 1", "go infinite", "isready", "stop"]
    pipe.send(*script)
    pipe.send("isready")
    gos = sum(line.startswith("go ") and "perft" not in line for line in script)
    lines = []
    deadline = time.monotonic() + 15
    while sum(line.startswith("bestmove") for line in lines) < gos or lines.count("readyok") < 3:
        lines.append(pipe.line(max(0.01, deadline - time.monotonic())))
    assert pipe.quiet(0.5) == []
    assert sum(line.startswith("bestmove") for line in lines) == gos


# -- a search that ignores stop ---------------------------------------------------------------


def test_a_search_that_ignores_stop_is_given_up(monkeypatch):
    """No command waits for ever: a stopped search that does not answer is replaced
    by a legal move, and the next go runs on fresh state."""
    import asyncio
    import io
    import threading

    from protocol.server import core as srv

    monkeypatch.setattr(srv, "STOP_GRACE", 0.3, raising=False)
    out = io.BytesIO()
    server = srv.Server(out)
    release = threading.Event()
    calls = []

    def deaf_oracle(game, pos, limits, context):  # a defect: blocks the first go, deaf to stop
        calls.append(1)
        if len(calls) == 1:
            release.wait(10)
        return None

    async def main():
        server.loop = asyncio.get_running_loop()
        server.engine.oracles.insert(0, deaf_oracle)
        reader = asyncio.StreamReader()
        reader.feed_data(b"uci\ngo depth 2\nposition startpos moves e2e4\ngo depth 2\nisready\nquit\n")
        reader.feed_eof()
        t0 = time.monotonic()
        await server.run(reader)
        release.set()
        return time.monotonic() - t0

    took = asyncio.run(main())
    lines = out.getvalue().decode().splitlines()
    best = [line for line in lines if line.startswith("bestmove")]
    assert len(best) == 2 and best[0] != "bestmove (none)" and "readyok" in lines, lines
    assert any("did not stop" in line for line in lines)
    assert took < 5
