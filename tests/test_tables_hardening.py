"""Table files are untrusted: every defect found on opening is a :class:`TableError`
naming the file, and a file is used only in the role its header declares. Also
``zermelo tables info`` on both sides of a class."""

from __future__ import annotations

import pytest

from protocol import cli


def test_info_shows_the_losing_sides_longest_loss(tmp_path, capsys):
    assert cli.main(["tables", "build", "chess", "KRK", "--out", str(tmp_path), "--quiet"]) == 0
    capsys.readouterr()
    assert cli.main(["tables", "info", str(tmp_path / "chess-KRvK.ztb")]) == 0
    lines = capsys.readouterr().out.splitlines()
    white = next(line for line in lines if "white to move:" in line)
    black = next(line for line in lines if "black to move:" in line)
    assert "longest win 31 plies (mate in 16)" in white and "longest loss" not in white
    # Black never wins KRvK: its longest loss is what the table tells about it.
    assert "longest loss 32 plies (mated in 16)" in black and "longest win" not in black
