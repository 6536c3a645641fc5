"""Small Go boards solved: ``zermelo solve go`` run as a subprocess finds Black's
margin with best play as published (area scoring, no komi, Black first).

Square boards from the literature collected in van der Werf's MIGOS papers: 2×2 is
won by 1 point, 3×3 by 9. Rectangles from Ted Drange's mini-Go table (area counting,
1998, http://www.mathpuzzle.com/go): 2×3 is a draw (its best first move a pass) and
2×4 is won by 8. (van der Werf & Winands, "Solving Go for Rectangular Boards", ICGA
Journal 2009, was not at hand; its values are to be preferred where they differ.)
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import games
from games.go.solve import GoSolver, symmetries

pytestmark = pytest.mark.both_builds


def solve(*params: str) -> str:
    args = [sys.executable, "-m", "protocol", "solve", "go"]
    for p in params:
        args += ["-p", p]
    done = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


#: (parameters, published margin, nodes): the node counts pin the search itself, the
#: same in the pure and the compiled build (a change must be a deliberate one).
SOLVED = [(("size=2",), 1, 302), (("size=3",), 9, 9_702),
          (("width=3", "height=2"), 0, 1_529), (("width=4", "height=2"), 8, 9_733)]


@pytest.mark.parametrize("params,margin,nodes", SOLVED, ids=["2x2", "3x3", "3x2", "4x2"])
def test_published_margins(params, margin, nodes):
    out = solve(*params)
    assert f"margin: {margin:+d} points for black with best play" in out, out
    assert f"searched {nodes:,} nodes" in out, out


def test_the_first_move_and_the_result_with_komi():
    out = solve("size=3", "komi=9.5")
    assert "first move: B2" in out and "value: white wins by 0.5 (komi 9.5)" in out, out
    # The move of the search that proved the lower bound, as Drange's table opens.
    assert "first move: pass" in solve("width=3", "height=2")


def test_a_set_position_is_solved_from_there():
    """White to move on 3×3 after Black's centre: Black still wins by 9; the margin is
    Black's whoever moves."""
    game = games.load("go", size=3)
    pos = game.new_position()
    pos.push(pos.parse_move("B2"))
    assert GoSolver(game, table_bits=16).solve(pos).margin == 9


def test_symmetries_are_the_board_s():
    assert len(symmetries(4, 4)) == 8 and len(symmetries(4, 3)) == 4
    for perm in symmetries(3, 3) + symmetries(4, 2):
        assert sorted(perm) == list(range(len(perm)))
    assert len({tuple(p) for p in symmetries(3, 3)}) == 8


def test_a_budget_that_runs_out_says_so():
    done = subprocess.run([sys.executable, "-m", "protocol", "solve", "go", "-p", "size=4", "--budget", "2000"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 1 and "value: unknown (the budget ran out" in done.stdout, done.stdout
