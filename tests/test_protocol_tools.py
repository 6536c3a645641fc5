"""``zermelo perft`` and ``zermelo bench`` against published counts and their own determinism."""

from __future__ import annotations

import subprocess
import sys

import pytest

from protocol.tools import bench_main, perft_main
from test_protocol import REPO

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def run(main, argv, capsys) -> list[str]:
    assert main(argv) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("argv, total", [
    (["3"], 8902),  # chess start position
    (["--fen", KIWIPETE, "2"], 2039),
    (["--game", "othello", "5"], 1396),
    (["--game", "checkers", "5"], 7361),
    (["--game", "connect4", "4"], 2401),
])
def test_perft_published_counts(argv, total, capsys):
    assert run(perft_main, argv, capsys)[-1] == f"Nodes searched: {total}"


def test_divide_lists_every_root_move(capsys):
    lines = run(perft_main, ["--fen", KIWIPETE, "2", "--divide"], capsys)
    counts = dict(line.split(": ") for line in lines[:-2])
    assert len(counts) == 48 and lines[-2] == ""  # Kiwipete has 48 moves
    assert sum(map(int, counts.values())) == 2039
    assert lines[-1] == "Nodes searched: 2039"


def test_bench_node_count_is_deterministic(capsys):
    first = run(bench_main, ["--game", "connect4", "--depth", "4"], capsys)
    second = run(bench_main, ["--game", "connect4", "--depth", "4"], capsys)
    nodes = [line for line in first if line.startswith("Nodes searched: ")]
    assert nodes and nodes == [line for line in second if line.startswith("Nodes searched: ")]
    assert int(nodes[0].split(": ")[1]) > 0
    assert any(line.startswith("Nodes/second: ") for line in first)


def test_bench_searches_with_the_network_it_names(tmp_path, capsys):
    """``--eval-file`` replaces the evaluation the bench searches with (its node count
    changes and ``Evaluation:`` names the file); ``--hand-written`` keeps the game's own;
    a file for another game is one error line."""
    from tests.test_nnue_protocol import write_network

    path = tmp_path / "connect4.znn"
    write_network(path, game="connect4")
    argv = ["--game", "connect4", "--depth", "5"]
    net = run(bench_main, [*argv, "--eval-file", str(path)], capsys)
    hand = run(bench_main, [*argv, "--hand-written"], capsys)
    assert f"Evaluation: network {path}" in net and "Evaluation: hand-written" in hand
    nodes = [[line for line in out if line.startswith("Nodes searched: ")] for out in (net, hand)]
    assert nodes[0] != nodes[1]
    chess = tmp_path / "chess.znn"
    write_network(chess)
    assert bench_main([*argv, "--eval-file", str(chess)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(chess) in err and "zermelo bench:" in err


def test_command_line_dispatch_and_errors():
    ok = subprocess.run([sys.executable, "-m", "protocol", "perft", "--game", "nim", "2"], cwd=REPO,
                        capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and ok.stdout.strip() == "Nodes searched: 4"  # 7 coins: 2 moves, then 2 each
    bad = subprocess.run([sys.executable, "-m", "protocol", "perft", "--game", "shogi", "2"], cwd=REPO,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "unknown game" in bad.stderr


@pytest.mark.parametrize("argv", [["--game", "rolit", "5"], ["--game", "mnk3", "--fen", "6/6/2x3/2o+2/6/6 x", "2"]])
def test_perft_of_games_of_more_players(argv, capsys):
    # Rolit's figure is the simple version's (tests/test_nplayer_games.py); 33 empty cells, 33 * 32.
    total = run(perft_main, argv, capsys)[-1]
    assert total == ("Nodes searched: 7427" if argv[1] == "rolit" else "Nodes searched: 1056")


@pytest.mark.parametrize("main_name, argv", [("bench", ["--game", "rolit", "--depth", "2"]),
                                             ("solve", ["mnkmulti", "--budget", "100"])])
def test_two_player_tools_refuse_games_of_more_players(main_name, argv, capsys):
    """The bench signature and proof-number search are about two-player games: an
    N-player game gets one clear line, not a traceback or a meaningless proof."""
    from protocol.solve_cli import main as solve_main

    main = bench_main if main_name == "bench" else solve_main
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "players" in captured.err and "two-player" in captured.err
