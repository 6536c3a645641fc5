"""The memory of a depth-first search (``zermelo lab memory``): on uniform trees b^m
the nodes grow as b^m while what the search holds grows linearly in m: a path of
m + 1 open nodes keeping b moves each, and the peak of the memory Python
allocates during the search (tracemalloc); SSS*'s OPEN list, best first, grows as
b^⌈m/2⌉.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from protocol.lab_cli import memory_row

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta"])
def test_space_grows_linearly_while_nodes_grow_as_b_to_the_m(algorithm):
    b = 3
    rows = {m: memory_row(b, m, algorithm, 1) for m in (2, 4, 5, 6, 7, 8)}
    for m, (nodes, path, moves, _) in rows.items():
        assert path == m + 1 and moves == b * m
        if algorithm == "minimax":
            assert nodes == (b ** (m + 1) - 1) // (b - 1)
    # From m = 2 to 8 the nodes grow a hundredfold and more, the peak bytes less than fourfold,
    assert rows[8][0] > 20 * rows[4][0] and rows[4][0] > 5 * rows[2][0]
    assert rows[8][3] < 4 * rows[2][3]
    # and each level adds a bounded amount: a line through the points, not a curve upwards.
    steps = [rows[m + 1][3] - rows[m][3] for m in (5, 6, 7)]
    assert all(0 < step < 1000 for step in steps)
    # The same figures whatever the process ran before (the free lists are emptied and refilled).
    assert memory_row(b, 6, algorithm, 1) == rows[6]


def test_lab_memory_on_the_command_line():
    out = subprocess.run([sys.executable, "-m", "protocol", "lab", "memory", "--depth", "6"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = [line.split() for line in out.stdout.splitlines() if re.match(r"\d+ ", line)]
    assert [int(r[0]) for r in rows] == [1, 2, 3, 4, 5, 6]
    for r in rows:
        m = int(r[0])
        nodes, path, moves, most_open = int(r[1].replace(",", "")), int(r[3]), int(r[4]), int(r[-1])
        assert nodes == (3 ** (m + 1) - 1) // 2 and path == m + 1 and moves == 3 * m
        assert most_open == 3 ** ((m + 1) // 2)
