"""Perft of the draughts games against the published figures, with speed.

Usage: ``nice python scripts/draughts_perft.py [--checkers-depth 10] [--shashki-depth 8]
[--brazilian-depth 8] [--international-depth 8] [--repeat 3]``

Prints, per depth, the count, the published figure, the seconds (median of
``--repeat`` runs for depths that take under a second) and leaves per second.
Also counts Russian depth 8 with every capture path kept (929,905 published).
Exits non-zero on any mismatch.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games  # noqa: E402
from engine.perft import perft  # noqa: E402

PUBLISHED = {
    "checkers": [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128],
    "shashki": [7, 49, 302, 1469, 7482, 37986, 190146, 929899],
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302, 907830],
    "international": [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423],
}
SHASHKI_D8_ALL_PATHS = 929905


def path_perft(pos, depth: int) -> int:
    """Perft counting every capture path as its own move."""
    moves = [m for m, _ in pos.capture_sequences()] if pos.noisy_moves() else pos.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        pos.push(m)
        total += path_perft(pos, depth - 1)
        pos.pop()
    return total


def timed(fn, repeat: int):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
        if times[-1] > 1.0:
            break
    return result, statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkers-depth", type=int, default=10)
    ap.add_argument("--shashki-depth", type=int, default=8)
    ap.add_argument("--brazilian-depth", type=int, default=8)
    ap.add_argument("--international-depth", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    ok = True
    for name, depth in (("checkers", args.checkers_depth), ("shashki", args.shashki_depth),
                        ("brazilian", args.brazilian_depth), ("international", args.international_depth)):
        game = games.load(name)
        print(f"{name}: {game.new_position().to_text()}")
        for d in range(1, depth + 1):
            pos = game.new_position()
            count, secs = timed(lambda: perft(pos, d), args.repeat)
            want = PUBLISHED[name][d - 1] if d <= len(PUBLISHED[name]) else None
            flag = "" if want is None else ("ok" if count == want else f"MISMATCH (published {want:,})")
            ok &= want is None or count == want
            print(f"  d{d:<2} {count:>12,}  {secs:8.3f} s  {count / max(secs, 1e-9):>10,.0f} leaves/s  {flag}")
    if args.shashki_depth >= 8:
        pos = games.load("shashki").new_position()
        count, secs = timed(lambda: path_perft(pos, 8), 1)
        good = count == SHASHKI_D8_ALL_PATHS
        ok &= good
        print(f"shashki d8 counting every capture path: {count:,} ({secs:.2f} s) "
              f"{'ok' if good else f'MISMATCH (published {SHASHKI_D8_ALL_PATHS:,})'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
