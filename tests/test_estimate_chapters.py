"""``zermelo perft --estimate`` prints the chapters' size of a game beside its own
estimate (checkers ≈ 10^40, chess ≈ 10^120), from the start position only, and no
such line for a game the chapters give no figure for."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_the_estimate_says_why_it_differs_and_gives_b_to_the_d():
    """Knuth's mean (≈ 10^154 for checkers) is carried by the longest random games; the
    chapters' 10^40 is b^d: b the moves a ply along the games, d their mean length."""
    lines = perft("-g", "checkers", "--estimate", "1000").splitlines()
    bd = next(line for line in lines if line.startswith("b^d: ≈ 10^"))
    assert bd.startswith("b^d: ≈ 10^40.8, b = 3.92 moves a ply") and "d = 68.7 plies" in bd
    at = next(i for i, line in enumerate(lines) if line.startswith("chapters: ≈ 10^40 "))
    assert lines[at + 1].startswith("why they differ: Knuth's estimate is the mean of the probes' products")
    assert "longest random games (up to 244 plies" in lines[at + 1]


def test_b_to_the_d_from_the_probes():
    from engine.estimate import Estimate

    # Two probes: 2·2 over 2 plies and 2·2·2·2 over 4: b = 2, d = 3.
    est = Estimate(2, [2, 4, 8, 8, 16], 20, [math.log10(4), math.log10(16)], [2, 4])
    assert est.ply_branching() == pytest.approx(2.0) and est.mean_length() == 3
    assert est.log10_bd() == pytest.approx(3 * math.log10(2))
