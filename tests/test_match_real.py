"""Tiny real matches: sunfish against itself (chess) and the zermelo server
against itself on several games; every record is read back and re-verified."""

from __future__ import annotations

import shutil
import sys

import pytest

from protocol.match.runner import main
from protocol.records import read_records, verify

ZERMELO = f"cmd='{sys.executable} -m protocol'"


def play(tmp_path, capsys, *argv) -> tuple[str, list]:
    out_file = tmp_path / "games.rec"
    code = main([*argv, "--pgn", str(out_file)])
    out = capsys.readouterr().out
    assert code == 0, out
    recs = read_records(out_file.read_text())
    for rec in recs:
        assert verify(rec) == [], rec
    return out, recs


@pytest.mark.skipif(shutil.which("sunfish-uci") is None, reason="sunfish-uci not installed")
def test_sunfish_vs_sunfish(tmp_path, capsys):
    out, recs = play(tmp_path, capsys, "--game", "chess", "--games", "2", "--concurrency", "2",
                     "--movetime", "50", "--margin-ms", "3000", "--adjudicate", "maxplies=24",
                     "--engine", "cmd=sunfish-uci name=s1", "--engine", "cmd=sunfish-uci name=s2")
    assert len(recs) == 2
    # One opening, played once from each side.
    assert recs[0].moves[:6] == recs[1].moves[:6]
    assert {recs[0].players, recs[1].players} == {("s1", "s2"), ("s2", "s1")}
    assert "chess: s1 vs s2, 2 games" in out and "pentanomial" in out


@pytest.mark.parametrize("game,limit,proto", [
    ("nim", ["--depth", "3"], "uci"),
    ("tictactoe", ["--depth", "3"], "ugi"),
    ("connect4", ["--movetime", "30"], "uci"),
    ("checkers", ["--depth", "2"], "ugi"),
])
def test_zermelo_vs_zermelo(tmp_path, capsys, game, limit, proto):
    out, recs = play(tmp_path, capsys, "--game", game, "--games", "2", *limit, "--margin-ms", "3000",
                     "--adjudicate", "maxplies=80",
                     "--engine", f"{ZERMELO} name=z1 option.Hash=8",
                     "--engine", f"{ZERMELO} name=z2 proto={proto}")
    assert len(recs) == 2
    assert all(r.termination in ("normal", "adjudication") for r in recs), out
    assert f"{game}: z1 vs z2, 2 games" in out
