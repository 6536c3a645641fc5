"""Go in both builds side by side: light playouts a second on an empty board, and the
small-board solver's nodes a second, pure against compiled, in one run on one machine.

    nice python scripts/go_speed.py [--runs 5] [--size 9] [--playouts 200]
                                    [--solve 4x4] [--budget 200000]

Each figure is the median of ``--runs`` fresh processes (``ZERMELO_PURE=1`` for the
pure build), the builds alternating run by run so that a change in the machine's load
falls on both; the worst run is shown beside it. The solver runs to the same node budget
in both builds (the script says so if they stop at other counts; the playouts' moves
are compared with a simple implementation by the tests). ``zermelo bench
--game go`` (the search on 9×9) is timed by ``scripts/speed.py --games go``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from engine import build  # noqa: E402

_CODE = """
import random, sys, time
import games
from engine import build
from engine.control import Stopped
kind, size, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
if kind == "playouts":
    game = games.load("go", size=int(size), komi=7.5)
    rng = random.Random(1)
    plies = 0
    start = time.perf_counter()
    for _ in range(count):
        pos = game.new_position()
        # A light playout to two passes (superko and the eye rule end it).
        while pos.passes < 2:
            moves = pos.playout_moves()
            pos.push(moves[rng.randrange(len(moves))])
            plies += 1
    print(build.COMPILED, plies, count / (time.perf_counter() - start))
else:
    from games.go.solve import GoSolver
    width, height = map(int, size.split("x"))
    game = games.load("go", width=width, height=height)
    solver = GoSolver(game)
    start = time.perf_counter()
    try:
        solver.solve(game.new_position(), max_nodes=count)
    except Stopped:
        pass
    print(build.COMPILED, solver.nodes, solver.nodes / (time.perf_counter() - start))
"""


def run(kind: str, size: str, count: int, pure: bool) -> tuple[int, float]:
    env = {**os.environ, "ZERMELO_PURE": "1" if pure else "0"}
    out = subprocess.run([sys.executable, "-c", _CODE, kind, size, str(count)], cwd=REPO, env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    if (out[0] == "True") == pure:
        raise SystemExit(f"the {'pure' if pure else 'compiled'} build did not run")
    return int(out[1]), float(out[2])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--size", type=int, default=9, help="the playouts' board")
    ap.add_argument("--playouts", type=int, default=200, help="playouts a run (compiled; pure runs a tenth)")
    ap.add_argument("--solve", default="4x4", help="the solver's board, WxH")
    ap.add_argument("--budget", type=int, default=200_000, help="solver nodes a run")
    args = ap.parse_args()
    if not build.COMPILED:
        print(f"the compiled build is not in use ({build.describe()}); build it first", file=sys.stderr)
        return 2
    print(f"build: {build.describe()}; medians (and worst) of {args.runs} runs, builds alternating\n")
    rows = [("playouts", f"{args.size}", "playouts/s"), ("solve", args.solve, "nodes/s")]
    for kind, size, unit in rows:
        figures: dict[bool, list[float]] = {True: [], False: []}
        counts: dict[bool, set[int]] = {True: set(), False: set()}
        for _ in range(args.runs):
            for pure in (True, False):
                count = args.budget if kind == "solve" else max(1, args.playouts // 10 if pure else args.playouts)
                done, rate = run(kind, size, count, pure)
                figures[pure].append(rate)
                counts[pure].add(done)
        if kind == "playouts":
            same = "the moves are compared by tests/test_go_playouts.py"
        elif counts[True] == counts[False]:
            same = "same nodes in both"
        else:
            same = f"NODES DIFFER: pure {sorted(counts[True])}, compiled {sorted(counts[False])}"
        pure_med, comp_med = statistics.median(figures[True]), statistics.median(figures[False])
        print(f"{kind} {size}: pure {pure_med:,.1f} {unit} (worst {min(figures[True]):,.1f}), "
              f"compiled {comp_med:,.1f} (worst {min(figures[False]):,.1f}): {comp_med / pure_med:.1f}x; "
              f"{same}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
