"""``zermelo tables build`` and ``zermelo tables info``."""

from __future__ import annotations

from protocol import cli


def test_build_then_info(tmp_path, capsys):
    assert cli.main(["tables", "build", "chess", "KRK", "--out", str(tmp_path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "KRvK: 59,136 entries" in out
    path = tmp_path / "chess-KRvK.ztb"
    assert cli.main(["tables", "info", str(path)]) == 0
    out = capsys.readouterr().out
    assert "material: KRvK" in out
    assert "white to move:" in out and "longest win 31 plies (mate in 16)" in out
    assert "black to move: wins 0," in out
    # A second build keeps the file.
    assert cli.main(["tables", "build", "chess", "KRvK", "--out", str(tmp_path), "--quiet"]) == 0
    assert "exists" in capsys.readouterr().out


def test_info_reports_a_defective_file(tmp_path, capsys):
    bad = tmp_path / "chess-KQvK.ztb"
    bad.write_bytes(b"ZRMTBL\r\n\x05\x00\x00\x00{")
    assert cli.main(["tables", "info", str(bad)]) == 1
    assert "error:" in capsys.readouterr().err


def test_build_rejects_unknown_games_and_classes(tmp_path, capsys):
    assert cli.main(["tables", "build", "shogi", "X", "--out", str(tmp_path)]) == 2
    assert cli.main(["tables", "build", "chess", "KPvKP", "--out", str(tmp_path), "--quiet"]) == 2
    assert cli.main(["tables", "build", "chess", "QQ", "--out", str(tmp_path)]) == 2
    assert "bad material class" in capsys.readouterr().err
