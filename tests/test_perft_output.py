"""``zermelo perft``'s output read as one stream (``2>&1``): the counts, then the time, line by line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _merged(*args: str) -> list[str]:
    # Without PYTHONUNBUFFERED, as a user's shell runs it: stdout into a pipe is block-buffered.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    run = subprocess.run([sys.executable, "-m", "protocol", "perft", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env, timeout=120)
    assert run.returncode == 0, run.stdout
    return run.stdout.splitlines()


def test_divide_then_total_then_time_each_on_its_line():
    lines = _merged("-g", "tictactoe", "1", "--divide")
    assert lines[:9] == [f"{c}{r}: 1" for r in "123" for c in "abc"]
    assert lines[9:11] == ["", "Nodes searched: 9"]
    assert len(lines) == 12 and lines[11].startswith("Time: ") and lines[11].endswith(" s")


@pytest.mark.parametrize("args, last_count", [
    (("-g", "tictactoe", "2"), "Nodes searched: 72"),
    (("-g", "tictactoe", "--games"), "bound: 9! = 362,880 orders"),
    (("-g", "tictactoe", "--estimate", "10"), "b^d: "),
])
def test_time_comes_after_the_counts(args, last_count):
    lines = _merged(*args)
    assert lines[-1].startswith("Time: ") and sum(line.startswith("Time: ") for line in lines) == 1
    assert lines[-2].startswith(last_count)
