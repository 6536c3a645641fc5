"""Go in both builds side by side: playouts a second on the empty board (light and heavy,
9×9, 13×13 and 19×19), the Monte-Carlo search's simulations a second on 9×9, and the
small-board solver's nodes a second, pure against compiled, in one run on one machine.

    nice python scripts/go_speed.py [--runs 5] [--sizes 9,13,19] [--playouts 2000]
                                    [--simulations 2000] [--solve 4x4] [--budget 200000]

Rates are per second of the process's own CPU time (``time.process_time``): a figure
per core that a machine loaded by other work (where a niced process gets a small share
of the wall clock) leaves nearly as it is. Each figure is the median of ``--runs`` fresh processes (``ZERMELO_PURE=1`` for the
pure build), the builds alternating run by run so that a change in the machine's load
falls on both; the worst run is shown beside it. A playout is what the search runs:
the position loaded into the playout board (``games/go/playout.py``) and played to two
passes. The playouts and the solver end at the same counts in both builds (the script
says so if they do not; the playouts' moves are compared by the tests). ``zermelo bench
--game go`` (the alpha-beta search on 9×9) is timed by ``scripts/speed.py --games go``.
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
import sys, time
import games
from engine import build
from engine.control import Stopped
kind, size, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
if kind in ("light", "heavy"):
    game = games.load("go", size=int(size), komi=7.5)
    pos = game.new_position()
    board = game.playout_board()
    plies = 0
    start = time.process_time()
    for seed in range(1, count + 1):
        board.load(pos.board, 0, 0, 0)
        board.run(seed, kind == "heavy")
        plies += board.nmoves
    print(build.COMPILED, plies, count / (time.process_time() - start))
elif kind == "mcts":
    from engine.mcts import MCTSSearcher
    from engine.timeman import Limits
    game = games.load("go", size=int(size), komi=7.5)
    searcher = MCTSSearcher(seed=1)
    searcher.rave = True
    start = time.process_time()
    result = searcher.search(game, game.new_position(), Limits(nodes=count))
    print(build.COMPILED, result.best, count / (time.process_time() - start))
else:
    from games.go.solve import GoSolver
    width, height = map(int, size.split("x"))
    game = games.load("go", width=width, height=height)
    solver = GoSolver(game)
    start = time.process_time()
    try:
        solver.solve(game.new_position(), max_nodes=count)
    except Stopped:
        pass
    print(build.COMPILED, solver.nodes, solver.nodes / (time.process_time() - start))
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
    ap.add_argument("--sizes", default="9,13,19", help="the playouts' boards")
    ap.add_argument("--playouts", type=int, default=2000,
                    help="playouts a run on 9×9 (compiled; pure runs a tenth; fewer on larger boards)")
    ap.add_argument("--simulations", type=int, default=2000,
                    help="simulations of the 9×9 search, heavy playouts and RAVE (compiled; pure a tenth)")
    ap.add_argument("--solve", default="4x4", help="the solver's board, WxH")
    ap.add_argument("--budget", type=int, default=200_000, help="solver nodes a run")
    args = ap.parse_args()
    if not build.COMPILED:
        print(f"the compiled build is not in use ({build.describe()}); build it first", file=sys.stderr)
        return 2
    print(f"build: {build.describe()}; medians (and worst) of {args.runs} runs, builds alternating\n")
    rows = [(kind, size, "playouts/s") for size in args.sizes.split(",") for kind in ("light", "heavy")]
    rows += [("mcts", "9", "simulations/s"), ("solve", args.solve, "nodes/s")]
    for kind, size, unit in rows:
        figures: dict[bool, list[float]] = {True: [], False: []}
        counts: dict[bool, set[int]] = {True: set(), False: set()}
        for _ in range(args.runs):
            for pure in (True, False):
                if kind == "solve":
                    count = args.budget
                else:
                    count = args.simulations if kind == "mcts" else args.playouts * 81 // int(size) ** 2
                    count = max(1, count // 10 if pure else count)
                done, rate = run(kind, size, count, pure)
                figures[pure].append(rate)
                counts[pure].add(done)
        if kind in ("light", "heavy"):
            same = "the moves are compared by tests/test_go_playout_board.py"
        elif kind == "mcts":
            same = "the search repeats from its seed (tests/test_go_playout_board.py)"
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
