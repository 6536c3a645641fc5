"""Solve FFO endgame test positions with the reversi endgame solver and compare with
the published values.

    nice python scripts/reversi_ffo.py [--set 1-19] [--cap 120] [--threads 1] [--verify]

``--set`` picks positions by FFO number (``1-19``, 14-16 empties; ``20-39``, 20-26;
``40-59``, the field's benchmark, 20-34; lists like ``1,5,40-42``). Each position is
solved by a fresh solver (the win/draw/loss first, then the exact score) under a
wall-time cap (``--cap`` seconds; an unfinished position is reported as such).
Prints per position the empties, the solver's move and value against the published
ones (tests/data/reversi_ffo.txt, sources named there), nodes, wall and CPU seconds
and nodes per CPU second; then the totals (positions solved and matching, wall and CPU
seconds, nodes) and the median wall time over the positions (an unfinished one counts
as slower than all). When the solver picks another move of the published value, the
published move is solved too (not timed) to show the tie.

``--threads N`` (N > 1) solves each position of 20 empties or more with N worker
processes (:mod:`games.reversi.split`), started once before the first position and
given fresh tables at each; the CPU seconds are then the workers' and the
coordinator's, and the nodes theirs together (the speed-up is the ratio of wall
seconds against a ``--threads 1`` run).

The published values count the empties of a game that ends early for the winner
(zermelo's own scoring does not): the solver here runs with ``count_empties``.

``--verify`` also solves each position by plain alpha-beta over the game's own rules
(tests/test_reversi_ffo.py, no solver code; very slow beyond 14 empties).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine.build  # noqa: E402

engine.build.install()

import games  # noqa: E402
from engine.control import Control, Stopped  # noqa: E402
from games.reversi import endgame as rv  # noqa: E402
from games.reversi import split  # noqa: E402
from tests.test_reversi_ffo import alphabeta, load_ffo  # noqa: E402  (the independent check)


def parse_set(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def cpu_seconds(pool: split.Pool | None) -> float:
    """CPU seconds of this process and of the pool's workers (Linux's /proc)."""
    total = time.process_time()
    for pid in pool.pids() if pool is not None else []:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", default="1-19", help="FFO numbers, e.g. 1-19, 40-46 or 1,5,40-42")
    ap.add_argument("--cap", type=float, default=120.0, help="seconds per position before giving up")
    ap.add_argument("--threads", type=int, default=1, help="worker processes per solve (default 1)")
    ap.add_argument("--verify", action="store_true", help="also solve by plain alpha-beta")
    args = ap.parse_args()
    pool = None
    if args.threads > 1:
        pool = split.Pool(args.threads, rv.Solver, count_empties=True)
        pool.start()
    ffo = load_ffo()
    game = games.load("reversi")
    print(f"build: {engine.build.describe()}; threads: {args.threads}")
    print(f"{'#':>3} {'empties':>7} {'move':>5} {'value':>6} {'published':>12} {'nodes':>14} "
          f"{'seconds':>8} {'CPU s':>8} {'nodes/s':>10}")
    times: list[float] = []
    total_wall = total_cpu = 0.0
    total_nodes = matched = 0
    for number in parse_set(args.set):
        text, best_moves, value = ffo[number]
        pos = game.new_position(text)
        empties = 64 - (pos.own | pos.opp).bit_count()
        solver: Any = rv.Solver(count_empties=True)
        if pool is not None and empties >= split.PARALLEL_EMPTIES:
            pool.fresh()
            pool.nodes, pool.busy = 0, 0.0
            solver = pool
        solver.control = Control(time.perf_counter() + args.cap)
        t0, c0 = time.perf_counter(), cpu_seconds(pool)
        try:
            score, move = solver.best(pos.own, pos.opp)
        except Stopped:
            seconds, cpu = time.perf_counter() - t0, cpu_seconds(pool) - c0
            times.append(float("inf"))
            total_wall, total_cpu, total_nodes = total_wall + seconds, total_cpu + cpu, total_nodes + solver.nodes
            print(f"{number:>3} {empties:>7} {'-':>5} {'-':>6} {','.join(best_moves) + f' {value:+d}':>12} "
                  f"{solver.nodes:>14,} {seconds:>8.2f} {cpu:>8.2f} {solver.nodes / cpu:>10,.0f}  unfinished (cap)",
                  flush=True)
            continue
        seconds, cpu = time.perf_counter() - t0, cpu_seconds(pool) - c0
        times.append(seconds)
        total_wall, total_cpu, total_nodes = total_wall + seconds, total_cpu + cpu, total_nodes + solver.nodes
        text_move = pos.move_text(move)
        if score == value and text_move in best_moves:
            verdict = "ok"
        elif score == value:
            # Another move of the published value: check that the published move has it too.
            pos.push(pos.parse_move(best_moves[0]))
            after = -rv.Solver(count_empties=True).solve(pos.own, pos.opp, -value - 1, -value + 1)
            pos.pop()
            verdict = f"ok (ties with {best_moves[0]})" if after == value else "MISMATCH (move)"
        else:
            verdict = "MISMATCH"
        matched += verdict.startswith("ok")
        line = (f"{number:>3} {empties:>7} {text_move:>5} {score:>+6d} {','.join(best_moves) + f' {value:+d}':>12} "
                f"{solver.nodes:>14,} {seconds:>8.2f} {cpu:>8.2f} {solver.nodes / max(cpu, 1e-9):>10,.0f}  {verdict}")
        if solver is pool:
            line += f"; workers busy {pool.busy / (seconds * pool.size):.0%}"
        if args.verify:
            c0 = time.process_time()
            line += f"; plain alpha-beta {alphabeta(pos, -65, 65, count_empties=True):+d} ({time.process_time() - c0:.0f}s)"
        print(line, flush=True)
    finished = [t for t in times if t != float("inf")]
    median = statistics.median(times) if times else float("nan")
    print(f"{len(finished)} of {len(times)} finished within {args.cap:.0f}s, {matched} at the published value and "
          f"move; median " + (f"{median:.2f}s" if median != float("inf") else "unfinished"))
    print(f"total: {total_wall:.1f}s wall, {total_cpu:.1f}s CPU, {total_nodes:,} nodes "
          f"({total_nodes / max(total_cpu, 1e-9):,.0f} nodes per CPU second)")
    if pool is not None:
        pool.close()


if __name__ == "__main__":
    main()
