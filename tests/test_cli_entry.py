"""The ``zermelo`` command line as a newcomer meets it: output piped into a reader
that stops early, pictures asked for in a directory that does not exist, the help
texts and the usage of each tool, and the solver's budget."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from protocol import cli, lab_cli, solve_cli, tree_cli

ROOT = Path(__file__).resolve().parent.parent


def _closed_reader(*args: str) -> subprocess.CompletedProcess:
    """``zermelo ARGS`` with its stdout a pipe whose reader has already gone (as
    ``| head`` leaves it): every write fails with EPIPE."""
    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run([sys.executable, "-m", "protocol", *args], cwd=ROOT, stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    return proc


@pytest.mark.parametrize("args", [
    # A few lines: the failure comes at the interpreter's final flush.
    ("perft", "--game", "tictactoe", "--divide", "2"),
    # Far more than a pipe holds: the failure comes inside a print.
    ("tree", "tictactoe", "--depth", "3", "--algorithm", "minimax", "--text"),
])
def test_a_reader_that_stops_early_ends_the_command_quietly(args):
    proc = _closed_reader(*args)
    assert "Traceback" not in proc.stderr and "BrokenPipeError" not in proc.stderr, proc.stderr
    assert "Exception ignored" not in proc.stderr
    assert proc.returncode == 1


def test_output_into_head_ends_without_an_error():
    out = subprocess.run(f"'{sys.executable}' -m protocol tree tictactoe --depth 3 --algorithm minimax --text"
                         " | head -3", shell=True, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert len(out.stdout.splitlines()) == 3
    assert "Error" not in out.stderr and "Traceback" not in out.stderr, out.stderr


PICTURE_COMMANDS = [
    ["lab", "alphabeta", "--depth", "3", "--plot", "{}"],
    ["lab", "deepening", "--depth", "2", "--plot", "{}"],
    ["tree", "tictactoe", "--depth", "1", "--svg", "{}"],
    ["tree", "tictactoe", "--depth", "1", "--png", "{}"],
    ["solve", "nim", "--tree", "{}"],
    ["tables", "build", "kalah", "--seeds", "2", "--pits", "2", "--out", "{tables}", "--stats", "--plot", "{}"],
]


@pytest.mark.parametrize("argv", PICTURE_COMMANDS, ids=lambda argv: " ".join(argv[:2]))
def test_a_picture_in_a_missing_directory_is_refused_before_the_work(argv, tmp_path, capsys):
    target = tmp_path / "nodir" / ("x.png" if "--png" in argv else "x.svg")
    argv = [a.replace("{tables}", str(tmp_path / "tables")).replace("{}", str(target)) for a in argv]
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "", "the work ran before the path was checked"
    assert len(err.strip().splitlines()) == 1 and str(target) in err
    assert "no such directory" in err
    assert not (tmp_path / "tables").exists()


def test_a_picture_path_that_is_a_directory_is_refused(tmp_path, capsys):
    folder = tmp_path / "x.svg"
    folder.mkdir()
    assert cli.main(["tree", "tictactoe", "--depth", "1", "--svg", str(folder)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "is a directory" in err


def test_a_picture_in_an_existing_directory_is_written(tmp_path, capsys):
    target = tmp_path / "x.svg"
    assert cli.main(["lab", "alphabeta", "--depth", "2", "--plot", str(target)]) == 0
    assert target.stat().st_size > 0


# -- help and usage ---------------------------------------------------------------------

def _help(main, argv: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as e:
        main(argv + ["--help"])
    assert e.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_lab_game_defaults_are_described_as_they_are(capsys):
    assert "--game GAME a game (default: uniform random trees)" in _help(lab_cli.alphabeta_main, [], capsys)
    deepening = _help(lab_cli.deepening_main, [], capsys)
    assert "(default: tictactoe)" in deepening and "uniform random trees" not in deepening
    quiescence = _help(lab_cli.quiescence_main, [], capsys)
    assert "(default: chess," in quiescence and "uniform random trees" not in quiescence


def test_tree_order_help_names_every_order(capsys):
    from engine.textbook import ORDERS

    text = _help(tree_cli.main, [], capsys)
    assert "worst" in ORDERS
    assert all(order in text.split("--order")[1][:200] for order in ORDERS)


def test_tree_accepts_worst_order(capsys):
    assert tree_cli.main(["tictactoe", "--depth", "1", "--order", "worst"]) == 0


def test_explain_does_not_advertise_the_tree_game(capsys):
    from protocol import explain_cli

    text = _help(explain_cli.main, [], capsys)
    assert "'tree'" not in text and "or tree" not in text


@pytest.mark.parametrize("argv", [[], ["nonsense"]])
def test_lab_without_an_experiment_prints_its_usage(argv, capsys):
    assert lab_cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("usage: zermelo lab {alphabeta,deepening,quiescence,memory,sss}")
    if argv:
        assert "'nonsense'" in err


def test_lab_help_goes_to_stdout(capsys):
    assert lab_cli.main(["--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: zermelo lab {alphabeta,deepening,quiescence,memory,sss}")


@pytest.mark.parametrize("main, argv", [
    (solve_cli.main, ["nosuchgame"]),
    (tree_cli.main, ["nosuchgame"]),
    (lab_cli.main, ["deepening", "--game", "nosuchgame"]),
])
def test_an_unknown_game_is_named_without_quotes_around_the_message(main, argv, capsys):
    try:
        status = main(argv)
    except SystemExit as e:
        status, message = 2, str(e.code)
    else:
        message = capsys.readouterr().err
    assert status == 2
    assert re.search(r": unknown game 'nosuchgame'; known: chess", message), message
    assert '"' not in message


def test_solve_reports_the_budget_and_how_far_past_it_the_search_ran(capsys):
    assert solve_cli.main(["connect4", "--budget", "0.3s"]) == 1
    out = capsys.readouterr().out
    m = re.search(r"value: unknown \(the budget of 0\.3s ran out after [\d,]+ nodes in ([\d.]+)s, "
                  r"([\d.]+)s past it\)", out)
    assert m, out
    assert float(m.group(1)) >= 0.3


def test_solve_node_budget_is_reported_as_nodes(capsys):
    assert solve_cli.main(["connect4", "--budget", "500"]) == 1
    assert "the budget of 500 nodes ran out" in capsys.readouterr().out
