"""``zermelo gtp`` driven by the GTP client of a real Go GUI: Sabaki's ``@sabaki/gtp``
(tests/gtp_client/relay.js). Its Controller sends every command zermelo lists and its
parser must read each answer as the success (or the error) expected; then it relays a
9x9 game between zermelo and GNU Go to the end, where every move must have been
accepted by the other engine and both must see the same stones. The opening of a 19x19
game is then played as Sabaki's engine games play it, every analysis line read by
Sabaki's parser."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CLIENT = REPO / "tests" / "gtp_client"
NODE, NPM = shutil.which("node"), shutil.which("npm")
GNUGO = shutil.which("gnugo") or shutil.which("/usr/games/gnugo")
#: Each side's moves at most: a 9x9 game between them ends (two passes) well before.
MOVES = 100
#: Generous: the machine may be loaded; no test measures time.
TIMEOUT = 900
REQUIRED = {"protocol_version", "name", "version", "known_command", "list_commands", "quit", "boardsize",
            "clear_board", "komi", "play", "genmove"}
VERTEX = re.compile(r"[A-HJ][1-9]|pass")

pytestmark = [
    pytest.mark.skipif(NODE is None or NPM is None, reason="Node.js (node and npm) is not installed: .ci/peers installs it"),
    pytest.mark.skipif(GNUGO is None, reason="GNU Go (gnugo) is not installed: .ci/peers installs it"),
]


def client(script: str, *args: str) -> dict:
    """The JSON summary of one of the client's scripts, run with Node."""
    if not (CLIENT / "node_modules" / "@sabaki" / "gtp").is_dir() or \
            not (CLIENT / "node_modules" / "@sabaki" / "go-board").is_dir():
        # The pinned client from the lock file, as .ci/peers installs it.
        done = subprocess.run([NPM, "ci", "--prefix", str(CLIENT)], capture_output=True, text=True, timeout=TIMEOUT)
        assert done.returncode == 0, f"npm ci --prefix tests/gtp_client failed:\n{done.stderr[-2000:]}"
    run = subprocess.run([NODE, str(CLIENT / script), "--python", sys.executable, "--gnugo", GNUGO, *args],
                         cwd=REPO, capture_output=True, text=True, timeout=TIMEOUT)
    assert run.returncode == 0, run.stdout + run.stderr
    result = json.loads(run.stdout.splitlines()[-1])
    assert "crash" not in result, result["crash"]
    return result


@pytest.fixture(scope="module")
def summary(tmp_path_factory) -> dict:
    return client("relay.js", "--dir", str(tmp_path_factory.mktemp("gtp_client")), "--moves", str(MOVES),
                  "--movetime", "200")


def test_every_listed_command_is_answered_as_expected(summary):
    assert REQUIRED <= set(summary["commands"])
    assert summary["untested"] == []
    assert summary["failures"] == []
    assert summary["errors"] == []  # no "?" to a valid command
    assert summary["keptAfterErrors"] and summary["keptAfterBadLoad"]
    assert summary["regGenmoveKeepsBoard"] and summary["sgfRoundTrip"]
    assert summary["quit"]["zermelo"] == {"error": False, "exit": 0}


def test_interrupt_and_lz_analyze_through_the_client(summary):
    assert not summary["interrupt"]["error"] and VERTEX.fullmatch(summary["interrupt"]["move"])
    analyze = summary["analyze"]
    for name in ("lz-analyze", "kata-analyze"):  # read by Sabaki's parser, ownership included
        record = analyze[name]
        assert not record["error"] and record["next"] == "zermelo", record
        assert record["lines"] >= 1 and record["parsed"] == record["lines"], record
    for name in ("lz-genmove_analyze", "kata-genmove_analyze"):
        record = analyze[name]
        assert not record["error"] and VERTEX.fullmatch(record["play"]), record
        assert record["parsed"] == record["lines"], record


def test_a_game_against_gnu_go(summary):
    game = summary["game"]
    moves = game["moves"]
    assert game["refused"] == [], game["refused"]
    # A lost game may end by zermelo's resignation (ResignThreshold).
    assert game["ended"] in ("two passes", "zermelo resigned") or len(moves) >= 40, game["ended"]
    played = [m["move"] for m in moves if m["engine"] == "zermelo"]
    assert all(VERTEX.fullmatch(move) for move in played), played
    assert any(move != "pass" for move in played)
    stones = game["stones"]
    assert stones["zermelo"]["black"] and stones["zermelo"]["white"]
    assert game["stonesAgree"], stones


def test_a_19x19_game_as_sabaki_plays_it():
    """The opening of a 19x19 game as Sabaki's engine games play it (session.js): each
    engine synchronised by Sabaki's state tracker before every move, zermelo's moves
    asked with kata-genmove_analyze, analyses (lz-analyze, kata-analyze with ownership)
    stopped by the next command. Sabaki's parser reads every analysis line: candidates
    on the board with visits and a win rate, and 361 owners from -1 to 1."""
    game = client("session.js", "--size", "19", "--byoyomi", "1", "--max-moves", "16",
                  "--analyze-every", "5", "--analyze-ms", "1000", "--interval", "20")
    assert game["protocolErrors"] == [] and game["refused"] == []
    assert game["moves"] == 16 and game["ended"] == "move limit"
    analysis, during = game["analysis"], game["genmoveAnalysis"]
    assert analysis["commands"] == {"lz-analyze": 2, "kata-analyze": 2}
    assert analysis["problems"] == [] and analysis["lines"] >= 4 and analysis["parsed"] == analysis["lines"]
    assert analysis["withOwnership"] >= 2
    assert during["command"] == "kata-genmove_analyze" and during["problems"] == []
    assert during["parsed"] == during["lines"]
    assert re.fullmatch(r"0|[BW]\+[0-9]+(\.[0-9]+)?", game["finalScore"]["zermelo"]), game["finalScore"]
