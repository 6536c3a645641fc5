"""Solve the Connect Four benchmark set exactly and compare with the published scores.

    nice python scripts/connect4_solve.py                  # every position, then max/median
    nice python scripts/connect4_solve.py --check 400000 --check-from 15   # and the simple solver

The set, ``tests/data/connect4_pons.txt``, holds 120 positions 10-19 plies from the
start with the scores Pascal Pons published (its header names the source). Each is
solved by :class:`games.connect4.Solver` with an empty table; one line per position
gives the wall and CPU time, the nodes and the score against the published one.
``--check N`` also solves each position by the independent simple solver of
``tests/connect4_simple.py`` (no code shared), skipping those that need more than
``N`` of its nodes (``--check-from P``: on positions of at least ``P`` plies only,
as it is slow on the early ones). Prints which build runs; exits 1 on any disagreement or on a
position over ``--limit`` seconds (wall).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine.build  # noqa: E402  (after the path: this checkout's code)
import games  # noqa: E402
from games.connect4 import Solver, solve  # noqa: E402
from tests.connect4_simple import TooSlow, simple_score  # noqa: E402

DATA = ROOT / "tests" / "data" / "connect4_pons.txt"


def load(path: Path = DATA) -> list[tuple[str, int, str]]:
    """(columns played, published score, set name) of every line of the set."""
    rows = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            columns, score, name = line.split()
            rows.append((columns, int(score), name))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", type=int, default=0, metavar="N",
                    help="also run the simple solver, up to N nodes a position")
    ap.add_argument("--check-from", type=int, default=0, metavar="P",
                    help="run the simple solver on positions of at least P plies only")
    ap.add_argument("--limit", type=float, default=30.0, help="seconds (wall) allowed a position")
    ap.add_argument("--table", type=int, default=4_194_319, help="solver table entries (a prime)")
    args = ap.parse_args(argv)

    print(f"build: {engine.build.describe()}")
    game = games.load("connect4")
    solver = Solver(game.geometry, args.table)
    walls, cpus, failures, confirmed, skipped = [], [], 0, 0, 0
    for columns, published, name in load():
        pos = game.new_position(columns)
        solver.reset()
        solver.nodes = 0
        w0, c0 = time.perf_counter(), time.process_time()
        value = solve(pos, None, solver)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        walls.append(wall)
        cpus.append(cpu)
        ok = value == published and wall <= args.limit
        failures += not ok
        line = (f"{columns:<20} {name:<10} plies {len(columns):2}  score {value:3} published {published:3} "
                f"{'ok' if value == published else 'WRONG'}  wall {wall:7.3f}s cpu {cpu:7.3f}s "
                f"nodes {solver.nodes:>10,}")
        if args.check and len(columns) >= args.check_from:
            try:
                simple, nodes = simple_score(columns, args.check)
            except TooSlow:
                skipped += 1
                line += "  simple: over budget"
            else:
                confirmed += simple == published
                failures += simple != published
                line += f"  simple {simple:3} {'ok' if simple == published else 'WRONG'} ({nodes:,} nodes)"
        print(line, flush=True)
    print(f"{len(walls)} positions, {failures} failures; wall: max {max(walls):.3f}s median "
          f"{statistics.median(walls):.3f}s; cpu: max {max(cpus):.3f}s median {statistics.median(cpus):.3f}s")
    if args.check:
        print(f"simple solver: {confirmed} confirmed, {skipped} over its budget of {args.check:,} nodes")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
