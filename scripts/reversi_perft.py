"""Reversi perft from the start against the published figures, with speed; and
Connect Four perft in the same run for comparison.

Usage: ``nice python scripts/reversi_perft.py [--depth 10] [--connect4-depth 8] [--repeat 3] [--jobs 2]``

Prints, per depth, the count, the published figure, the seconds (median of
``--repeat`` runs for depths that take under a second) and leaves per second.
Deep depths can be split over processes by root move (``--jobs``).

Conventions. In zermelo a finished game has no children. The published reversi
figures instead let a side with no move pass even when the game is over (a
second pass in a row ends it): they differ from depth 10 on, after the 228
wipe-outs in 9 plies. Reversi is counted in the published convention, with
zermelo's own count beside it; Connect Four beyond depth 7 in zermelo's. Exits
non-zero on any mismatch with a published figure.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games  # noqa: E402
from engine.perft import perft  # noqa: E402
from games.reversi import PASS  # noqa: E402

PUBLISHED = {
    "reversi": [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284],
    "connect4": [7, 49, 343, 2401, 16807, 117649, 823536],
}


def passing_perft(pos, depth: int, passed: bool = False) -> tuple[int, int]:
    """Reversi perft as (published convention, zermelo's): in the first, a
    finished game still has one child, a pass, unless the last move was a pass."""
    moves = pos.legal_moves()
    finished = not moves
    if finished:
        if passed:
            return 0, 0
        moves = [PASS]
    if depth == 1:
        return len(moves), 0 if finished else len(moves)
    published = own = 0
    for m in moves:
        pos.push(m)
        a, b = passing_perft(pos, depth - 1, m == PASS)
        pos.pop()
        published += a
        own += b
    return published, 0 if finished else own


def count(name: str, pos, depth: int) -> tuple[int, int]:
    """(count in the published convention, count in zermelo's)."""
    if name == "reversi":
        return passing_perft(pos, depth)
    n = perft(pos, depth)
    return n, n


def _subtree(args: tuple[str, str, int]) -> tuple[int, int]:
    name, move, depth = args
    pos = games.load(name).new_position()
    pos.push(pos.parse_move(move))
    return count(name, pos, depth - 1)


def timed_perft(name: str, depth: int, repeat: int, jobs: int) -> tuple[int, int, float]:
    pos = games.load(name).new_position()
    if jobs > 1 and depth > 1:
        work = [(name, pos.move_text(m), depth) for m in pos.legal_moves()]
        start = time.perf_counter()
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(_subtree, work))
        seconds = time.perf_counter() - start
        return sum(a for a, _ in parts), sum(b for _, b in parts), seconds
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        published, own = count(name, pos, depth)
        times.append(time.perf_counter() - start)
        if times[-1] > 1.0:
            break
    return published, own, statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--depth", type=int, default=9, help="reversi depth (published up to 10)")
    ap.add_argument("--connect4-depth", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1, help="processes for depths of 9 and more")
    args = ap.parse_args(argv)
    failed = False
    for name, max_depth in (("reversi", args.depth), ("connect4", args.connect4_depth)):
        for depth in range(1, max_depth + 1):
            n, own, seconds = timed_perft(name, depth, args.repeat, args.jobs if depth >= 9 else 1)
            figures = PUBLISHED[name]
            expected = figures[depth - 1] if depth <= len(figures) else None
            verdict = "" if expected is None else "ok" if n == expected else f"MISMATCH (published {expected:,})"
            if own != n:
                verdict += f" (zermelo's convention: {own:,})"
            failed |= expected is not None and n != expected
            print(f"{name:8} depth {depth:2}: {n:>12,} in {seconds:7.3f} s "
                  f"({n / max(seconds, 1e-9):>11,.0f} leaves/s) {verdict}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
