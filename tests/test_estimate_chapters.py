"""``zermelo perft --estimate`` prints the chapters' size of a game beside its own
estimate (checkers ≈ 10^40, chess ≈ 10^120), from the start position only, and no
such line for a game the chapters give no figure for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from games import game_class, names

ROOT = Path(__file__).resolve().parent.parent


def perft(*args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "protocol", "perft", *args], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_chapters_figure_stands_beside_the_estimate():
    out = perft("-g", "checkers", "--estimate", "20")
    lines = out.splitlines()
    estimate = next(i for i, line in enumerate(lines) if line.startswith("nodes of the complete game tree: ≈"))
    chapters = next(i for i, line in enumerate(lines) if line.startswith("chapters: ≈ 10^40 "))
    assert chapters > estimate
    assert "chapters: ≈ 10^120" in perft("-g", "chess", "--estimate", "2")
    assert {name for name in names() if game_class(name).size_in_chapters} == {"checkers", "chess"}


def test_no_chapters_line_where_they_give_none_or_elsewhere_than_the_start():
    assert "chapters" not in perft("-g", "kalah", "--estimate", "5")
    assert "chapters" not in perft("-g", "checkers", "--estimate", "5", "3")
    assert "chapters" not in perft("-g", "checkers", "--fen", "B:W21,22:B1,2", "--estimate", "5")
