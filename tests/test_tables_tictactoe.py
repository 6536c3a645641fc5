"""Tic-tac-toe's whole game as a table file (games/mnk_table.py): ``zermelo tables
build tictactoe`` writes it in the endgame tables' format, reads the start position
back from it (a draw), and ``--stats`` and ``tables info`` read it; every entry
agrees with the game's own solver, the legal entries are exactly the 5,478
positions reachable from the start, and a damaged file is refused naming it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import games
from engine import tablefile
from games import mnk_table
from games.solved_game import SolvedGame

ROOT = Path(__file__).resolve().parent.parent


def zermelo(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "protocol", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("tables")
    proc = zermelo("tables", "build", "tictactoe", "--out", str(out), "--stats")
    assert proc.returncode == 0, proc.stderr
    return out / "tictactoe.ztb", proc.stdout


def test_the_table_is_written_and_read_back(built):
    path, out = built
    assert path.exists()
    assert f"tictactoe: the start position, read back from {path}: draw" in out
    assert "tictactoe: 5,478 legal positions of 39,366 entries" in out
    info = zermelo("tables", "info", str(path))
    assert info.returncode == 0 and "x to move: wins 1,830, draws 441, losses 468" in info.stdout


def test_every_entry_is_the_solver_s_and_only_reachable_positions_are_legal(built):
    path, _ = built
    game = games.load("tictactoe")
    values = tablefile.open_table(path).values
    solver = SolvedGame(game)
    reachable = set()
    pos = game.new_position()

    def walk():
        idx = mnk_table.index(game, pos)
        if idx in reachable:
            return
        reachable.add(idx)
        wdl, plies = solver.value(pos)
        assert values[idx] == (0 if wdl == 0 else (plies + 1) * wdl), pos.to_text()
        assert mnk_table.position_text(game, idx) == pos.to_text()
        if pos.outcome() is None:
            for m in pos.legal_moves():
                pos.push(m)
                walk()
                pos.pop()
    walk()
    assert len(reachable) == 5478
    assert set(np.flatnonzero(values != tablefile.open_table(path).illegal).tolist()) == reachable


def test_a_damaged_table_is_refused_naming_the_file(built, tmp_path):
    path, _ = built
    bad = tmp_path / "tictactoe.ztb"
    bad.write_bytes(path.read_bytes()[:-100])
    game = games.load("tictactoe")
    with pytest.raises(tablefile.TableError, match=str(bad)):
        mnk_table.probe(bad, game, game.new_position())
    proc = zermelo("tables", "build", "tictactoe", "KRK", "--out", str(tmp_path))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "whole game" in proc.stderr


def test_a_missing_out_directory_is_made(tmp_path):
    out = tmp_path / "new" / "tables"
    proc = zermelo("tables", "build", "tictactoe", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert (out / "tictactoe.ztb").exists()
