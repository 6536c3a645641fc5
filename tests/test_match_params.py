"""``zermelo match -p NAME=VALUE``: a game's parameters reach the referee, every
engine (UCI and UGI as the game's options, GTP as ``boardsize`` and ``komi``) and
the records, which replay and resume with them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from sgfmill import sgf

from protocol.match.runner import main
from protocol.records import read_records, verify

REPO = Path(__file__).resolve().parents[1]
ZERMELO = f"{sys.executable} -m protocol"
RANDOM = f"{sys.executable} {REPO / 'scripts' / 'random_engine.py'}"
FAKE = Path(__file__).parent / "fake_engines" / "random_mover.py"


def play(tmp_path, capsys, *argv):
    records = tmp_path / "games.rec"
    code = main([*argv, "--records", str(records), "--log", str(tmp_path / "log.txt"), "--force"])
    captured = capsys.readouterr()
    recs = read_records(records.read_text()) if records.exists() else []
    return code, captured.out + captured.err, recs, (tmp_path / "log.txt")


def test_a_5x5_go_match_between_zermelo_gtp_engines(tmp_path, capsys):
    sgf_path = tmp_path / "games.sgf"
    engine = f"cmd='{ZERMELO} gtp --movetime 40' protocol=gtp"
    code, out, recs, log = play(tmp_path, capsys, "--game", "go", "-p", "size=5", "-p", "komi=3.5",
                                "--games", "2", "--depth", "1", "--adjudicate", "maxplies=80",
                                "--sgf", str(sgf_path), "--engine", f"{engine} name=a", "--engine", f"{engine} name=b")
    assert code == 0, out
    assert out.startswith("go (size=5, komi=3.5): a")
    sent = [line.split(" > ", 1)[1].split(" ", 1)[1] for line in log.read_text().splitlines() if " > " in line]
    # Each engine, at each game's start.
    assert [c for c in sent if c.startswith(("boardsize", "komi"))] == ["boardsize 5", "komi 3.5"] * 4
    assert len(recs) == 2
    for rec in recs:
        assert rec.params == {"size": "5", "komi": "3.5"}
        assert verify(rec) == [], rec
        assert all(m == "pass" or (m[0] in "ABCDE" and 1 <= int(m[1:]) <= 5) for m in rec.moves)
    trees = sgf_path.read_bytes().split(b")\n(")
    assert len(trees) == 2
    root = sgf.Sgf_game.from_bytes(trees[0] + b")").get_root()
    assert root.get("SZ") == 5 and root.get("KM") == 3.5
    assert main(["--replay", str(tmp_path / "games.rec")]) == 0
    assert "2 games, 0 with problems" in capsys.readouterr().out


def test_uci_and_ugi_engines_are_told_the_parameters_as_options(tmp_path, capsys):
    code, out, recs, log = play(tmp_path, capsys, "--game", "connect4", "-p", "width=5", "-p", "height=4",
                                "--games", "2", "--depth", "2",
                                "--engine", f"cmd='{ZERMELO}' name=zermelo", "--engine", f"cmd='{RANDOM}' name=random")
    assert code == 0, out
    sent = log.read_text()
    assert sent.count("setoption name connect4_width value 5") == 2
    assert sent.count("setoption name connect4_height value 4") == 2
    for rec in recs:
        assert rec.params == {"width": "5", "height": "4"} and verify(rec) == []
        assert all(1 <= int(m) <= 5 for m in rec.moves)


def test_kalah_pits_and_nim_heaps(tmp_path, capsys):
    for game, param, check in (("kalah", "pits=4", lambda m: 1 <= int(m) <= 4),
                               ("nim", "heaps=3,4,5", lambda m: m.count(":") == 1 or m.isdigit())):
        code, out, recs, _ = play(tmp_path, capsys, "--game", game, "-p", param, "--games", "2", "--depth", "1",
                                  "--engine", f"cmd='{RANDOM} 1' name=r1", "--engine", f"cmd='{RANDOM} 2' name=r2")
        assert code == 0, out
        key, value = param.split("=")
        assert all(rec.params == {key: value} and verify(rec) == [] for rec in recs), recs
        assert all(check(m) for rec in recs for m in rec.moves)


def test_a_bad_parameter_is_one_line_before_any_game(tmp_path, capsys):
    base = ["--games", "2", "--depth", "1", "--engine", f"cmd='{RANDOM}' name=a", "--engine", f"cmd='{RANDOM}' name=b"]
    assert main(["--game", "go", "-p", "siz=19", *base]) == 2
    assert "go has no parameter 'siz'" in capsys.readouterr().err
    assert main(["--game", "go", "-p", "size=40", *base]) == 2
    assert "size" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:
        main(["--game", "go", "-p", "size", *base])
    assert usage.value.code == 2 and "expected NAME=VALUE" in capsys.readouterr().err
    gtp = f"cmd='{ZERMELO} gtp' protocol=gtp"
    assert main(["--game", "go", "-p", "ko=simple", *base[:4], "--engine", f"{gtp} name=a",
                 "--engine", f"{gtp} name=b"]) == 2
    assert "GTP tells an engine the board size and komi only, not ko" in capsys.readouterr().err


def test_an_engine_without_the_option_cannot_start(tmp_path, capsys):
    # The fake engine declares options, but none for Nim's parameters: it would play another game.
    code, out, recs, _ = play(tmp_path, capsys, "--game", "nim", "-p", "heaps=3,4", "--games", "1",
                              "--depth", "1", "--engine", f"cmd='{sys.executable} {FAKE}' name=fake",
                              "--engine", f"cmd='{RANDOM}' name=random")
    assert recs and recs[0].termination == "abandoned"
    assert "fake has no option nim_heaps" in recs[0].reason


def test_resume_refuses_records_of_other_parameters(tmp_path, capsys):
    engines = ["--depth", "1", "--engine", f"cmd='{RANDOM} 1' name=r1", "--engine", f"cmd='{RANDOM} 2' name=r2"]
    records = str(tmp_path / "k.rec")
    assert main(["--game", "kalah", "-p", "pits=4", "--games", "2", "--records", records, *engines]) == 0
    capsys.readouterr()
    assert main(["--game", "kalah", "-p", "pits=5", "--games", "4", "--records", records, "--resume", *engines]) == 2
    assert "other game, parameters" in capsys.readouterr().err
    assert main(["--game", "kalah", "-p", "pits=4", "--games", "4", "--records", records, "--resume", *engines]) == 0
    assert "resumed: 2 games" in capsys.readouterr().out
