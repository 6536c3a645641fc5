"""The N-player extension of the UGI dialect, spoken to the real server over pipes:
``go p1time … pNtime p1inc … pNinc``, ``query turn``, ``query result``,
``query ranking``, the vector on every ``info`` line, and bad input."""

from __future__ import annotations

import re
import time

import pytest

from protocol.server import uci
from tests.test_protocol import Pipe, bestmove, infos, pipe  # noqa: F401 - the fixture

# Full 3-player Rolit boards: red 30, yellow 20, green 14 balls; and red and yellow level.
RED_WINS = "r" * 30 + "y" * 20 + "g" * 14 + " r"
SHARED = "r" * 25 + "y" * 25 + "g" * 14 + " y"


def rolit3(pipe: Pipe) -> None:
    pipe.handshake("ugi")
    pipe.send("setoption name UCI_Variant value rolit", "setoption name rolit_players value 3")
    pipe.ready()


def vector_of(line: str) -> list[int]:
    m = re.search(r" string vector ((?:\d+ ?)+)$", line)
    assert m, line
    return [int(x) for x in m.group(1).split()]


def test_query_turn_result_and_ranking(pipe):
    rolit3(pipe)
    for moves, turn in (("", "p1"), (" moves d6", "p2"), (" moves d6 c6", "p3"), (" moves d6 c6 c3", "p1")):
        pipe.send(f"position startpos{moves}", "query turn", "query result", "query ranking")
        assert [pipe.line(), pipe.line(), pipe.line()] == [f"response {turn}", "response none", "response none"]
    pipe.send(f"position fen {RED_WINS}", "query gameover", "query result", "query ranking")
    assert [pipe.line(), pipe.line(), pipe.line()] == ["response true", "response p1win", "response 1 2 3"]
    # A first place shared is a draw; the ranking says who shared it.
    pipe.send(f"position fen {SHARED}", "query result", "query ranking")
    assert [pipe.line(), pipe.line()] == ["response draw", "response 1 1 3"]
    # The m,n,k-game: o (the second player) completes b1-b4; everyone else shares second place.
    pipe.send("setoption name UCI_Variant value mnkmulti",
              "position startpos moves a1 b1 c1 a2 b2 c2 a3 b3 c3 f6 b4",
              "query turn", "query result", "query ranking", "go depth 2")
    assert [pipe.line(), pipe.line(), pipe.line(), pipe.line()] == [
        "response p3", "response p2win", "response 2 1 2", "bestmove (none)"]


def test_two_player_games_answer_turn_and_ranking(pipe):
    pipe.handshake("ugi")
    pipe.send("setoption name UCI_Variant value nim", "position startpos", "query turn", "query ranking")
    assert [pipe.line(), pipe.line()] == ["response p1", "response none"]
    # Misère Nim, no coins left and player 2 to move: player 1 took the last coin and lost.
    pipe.send("position fen 0 2", "query turn", "query result", "query ranking")
    assert [pipe.line(), pipe.line(), pipe.line()] == ["response p2", "response p2win", "response 2 1"]


def test_every_info_line_carries_the_vector(pipe):
    rolit3(pipe)
    pipe.send("position startpos moves d6",
              "go p1time 60000 p2time 60000 p3time 60000 p1inc 100 p2inc 100 p3inc 100 depth 3")
    lines = pipe.until("bestmove")
    assert not [line for line in lines if line.startswith("info string error")], lines
    assert bestmove(lines) in {"c4", "c6", "e6"}
    searched = infos(lines)
    assert searched
    for line in searched:
        vector = vector_of(line)
        assert len(vector) == 3 and sum(vector) <= 1000
        assert " pv " in line and re.search(r" score (cp -?\d+|mate -?\d+) ", line)


def test_the_movers_own_clock_limits_the_search(pipe):
    rolit3(pipe)
    # Yellow to move, the others' clocks huge: only p2time can make the move quick.
    pipe.send("position startpos moves d6", "go p1time 9999999 p2time 300 p3time 9999999")
    started = time.monotonic()
    lines = pipe.until("bestmove", timeout=5)
    assert time.monotonic() - started < 5
    assert bestmove(lines) in {"c4", "c6", "e6"}
    # Green's turn with green's clock low, and the increments given too.
    pipe.send("position startpos moves d6 c6", "go p1time 9999999 p2time 9999999 p3time 300 "
              "p1inc 0 p2inc 0 p3inc 10")
    assert pipe.until("bestmove", timeout=5)[-1].startswith("bestmove ")


def test_bad_n_player_input_is_one_error_line(pipe):
    rolit3(pipe)
    pipe.send("position startpos", "go p4time 100 p1time 300 depth 1")
    lines = pipe.until("bestmove")
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 1 and "p4time" in errors[0] and "among 3 players" in errors[0], lines
    for bad in ("go p3time x depth 1", "go p2inc depth 1", "go p0time 5 depth 1", "go p99time 5 p1inc -3 depth 1"):
        pipe.send(bad)
        lines = pipe.until("bestmove")
        assert len([line for line in lines if line.startswith("info string error")]) == 1, (bad, lines)
    pipe.send("query ranking", "query nonsense", "query turn")
    assert pipe.line() == "response none"
    assert pipe.line().startswith("info string error: query:")
    assert pipe.line() == "response p1"
    # go mate is a two-player proof: said once, and the search answers.
    pipe.send("go mate 2 depth 2")
    lines = pipe.until("bestmove")
    assert any("go mate" in line for line in lines) and bestmove(lines) != "(none)"
    # A two-player game has no third clock.
    pipe.send("setoption name UCI_Variant value nim", "position startpos", "go p3time 100 depth 2")
    lines = pipe.until("bestmove")
    assert any(line.startswith("info string error") and "p3time" in line for line in lines)
    pipe.ready()


@pytest.mark.parametrize("score, players, text", [
    (1_000_000 - 7, 3, "mate 3"), (1_000_000 - 3, 3, "mate 1"), (-(1_000_000 - 6), 3, "mate -2"),
    (1_000_000 - 8, 4, "mate 2"), (1_000_000 - 7, 2, "mate 4"), (-(1_000_000 - 6), 2, "mate -3"), (12, 3, "cp 12"),
])
def test_mate_counts_the_movers_moves(score, players, text):
    assert uci.format_score(score, players) == text
