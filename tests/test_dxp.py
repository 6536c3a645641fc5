"""DXP over loopback: two zermelo processes, one the follower and one the
initiator, play a whole game of international draughts and agree on its result;
and the messages' layout."""

from __future__ import annotations

import subprocess
import sys

import pytest

from protocol.dxp import game_request, move_message, parse_move
from tests.conftest import ROOT


def test_messages():
    assert game_request("zermelo", True, 10, 75, None) == "R01" + "zermelo".ljust(32) + "W010075A"
    board = "W" + "b" * 20 + "e" * 10 + "w" * 20
    assert game_request("z", False, 5, 50, board).endswith("BW" + "z" * 20 + "e" * 10 + "w" * 20)
    assert parse_move(move_message(3, 28, 19, [23, 13])) == (28, 19, [23, 13])


@pytest.mark.parametrize("colour", ["white", "black"])
def test_two_zermelos_play_a_whole_game(colour):
    command = [sys.executable, "-m", "protocol", "dxp", "--depth", "2"]
    follower = subprocess.Popen([*command, "--follow", "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    try:
        first = follower.stdout.readline()
        assert first.startswith("listening on "), first + follower.stderr.read()
        port = first.split(":")[-1].strip()
        initiator = subprocess.run([*command, "--connect", f"127.0.0.1:{port}", "--color", colour], cwd=ROOT,
                                   capture_output=True, text=True, timeout=600)
        rest, errors = follower.communicate(timeout=60)
    finally:
        follower.kill()
    mine, theirs = initiator.stdout.splitlines(), rest.splitlines()
    assert initiator.returncode == 0 and follower.returncode == 0, initiator.stderr + errors
    assert mine[-1].startswith("result ") and mine[-1].endswith(" agreed")
    assert mine[-1] == theirs[-1]
    # Both sides saw the same moves.
    assert [line for line in mine if line.startswith(("white ", "black "))] == \
        [line for line in theirs if line.startswith(("white ", "black "))]
