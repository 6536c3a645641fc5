"""Sizes of games: complete games counted, and Knuth's random-probe estimate checked
against exact counts (REFERENCE figures: tic-tac-toe's 255,168 games, chess perft 5)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import games
from engine.estimate import complete_games, knuth_estimate
from protocol.tools import perft_main

TICTACTOE_GAMES = 255_168
TICTACTOE_NODES = 549_946   # 1 + 9 + 72 + 504 + 3,024 + 15,120 + 54,720 + 148,176 + 200,448 + 127,872
CHESS_PERFT_5 = 4_865_609


def test_tictactoe_complete_games_by_result():
    count = complete_games(games.load("tictactoe").new_position())
    assert count.games == TICTACTOE_GAMES
    assert count.wins == [131_184, 77_904] and count.draws == 46_080
    assert count.lengths == {5: 1440, 6: 5328, 7: 47_952, 8: 72_576, 9: 127_872}
    assert count.nodes == TICTACTOE_NODES


def test_perft_games_command(capsys):
    assert perft_main(["-g", "tictactoe", "--games"]) == 0
    out = capsys.readouterr().out
    assert "complete games: 255,168 (x wins 131,184, o wins 77,904, draws 46,080)" in out
    assert "bound: 9! = 362,880 orders of filling the board" in out
    assert perft_main(["-g", "nim", "--games"]) == 0
    assert "complete games: 21 " in capsys.readouterr().out


def test_estimate_is_exact_where_every_probe_sees_the_same_branching():
    pos = games.load("chess").new_position()
    assert knuth_estimate(pos, 7, seed=3, depth=1).leaves() == 20
    assert pos.to_text() == games.load("chess").new_position().to_text()


def test_estimate_of_tictactoe_games_within_ten_percent():
    est = knuth_estimate(games.load("tictactoe").new_position(), 10_000, seed=1)
    assert abs(est.leaves() / TICTACTOE_GAMES - 1) < 0.10
    assert abs(est.nodes() / TICTACTOE_NODES - 1) < 0.10
    assert abs(est.branching() - (TICTACTOE_NODES - 1) / (TICTACTOE_NODES - TICTACTOE_GAMES)) < 0.1


def test_estimate_of_chess_perft_5_within_ten_percent():
    est = knuth_estimate(games.load("chess").new_position(), 5_000, seed=1, depth=5)
    assert abs(est.leaves() / CHESS_PERFT_5 - 1) < 0.10


def test_estimate_command_is_reproducible():
    def run() -> str:
        out = subprocess.run([sys.executable, "-m", "protocol", "perft", "-g", "checkers", "--estimate", "300",
                              "--seed", "7"], capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout
    first = run()
    assert first == run()
    assert re.search(r"complete games: ≈ \d\.\d\d × 10\^\d+", first)
    assert "average branching factor: " in first


@pytest.mark.parametrize("argv", [["--games", "3"], ["--estimate", "0"], [], ["--games", "--divide"]])
def test_perft_refuses_bad_combinations(argv):
    with pytest.raises(SystemExit) as e:
        perft_main(argv)
    assert e.value.code == 2
