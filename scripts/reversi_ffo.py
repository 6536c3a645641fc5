"""Time the reversi endgame solver on FFO endgame position #1 and confirm its value.

    nice python scripts/reversi_ffo.py [--runs 3] [--verify]

FFO #1 (14 empties, Black to move) is published as G8, +18. Prints the solver's
score, move, nodes and the median CPU and wall seconds over ``--runs`` fresh solves;
``--verify`` also runs a plain alpha-beta over the game's own rules (no solver code,
about 20 s) and prints its value.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games  # noqa: E402
from games.reversi import endgame as rv  # noqa: E402
from tests.test_reversi_ffo import FFO_1, alphabeta  # noqa: E402  (the independent check)

def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--verify", action="store_true")
    args = ap.parse_args()
    pos = games.load("reversi").new_position(FFO_1)
    cpu, wall = [], []
    for _ in range(args.runs):
        solver = rv.Solver()
        c0, t0 = time.process_time(), time.monotonic()
        score, move = solver.best(pos.own, pos.opp)
        cpu.append(time.process_time() - c0)
        wall.append(time.monotonic() - t0)
    print(f"FFO #1: {pos.move_text(move)} {score:+d} (published G8 +18), {solver.nodes:,} nodes, "
          f"median {statistics.median(cpu):.2f}s CPU, {statistics.median(wall):.2f}s wall")
    if args.verify:
        c0 = time.process_time()
        print(f"plain alpha-beta: {alphabeta(pos, -65, 65):+d} ({time.process_time() - c0:.1f}s CPU)")


if __name__ == "__main__":
    main()
