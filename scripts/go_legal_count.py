"""Legal Go positions of a small board counted by enumeration, with the game's own group code.

    nice python scripts/go_legal_count.py [--width 4] [--height 4]

Every colouring of the board (3^points of them: empty, Black, White on each point)
is set up on one position, one point changing at a time as an odometer turns, and
kept when every group has a liberty (``GoPosition.all_groups_live``, what
:func:`games.go.legal_position` asks). Tromp and Farnebäck's counts ("Combinatorics
of Go"): 2×2 57, 3×3 12,675, 4×4 24,318,165. The 4×4 board's 43 million colourings
take minutes in the compiled build; the pure build is far slower.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games  # noqa: E402
from engine import build  # noqa: E402


def count_legal(width: int, height: int) -> int:
    game = games.load("go", width=width, height=height)
    pos = game.new_position()
    board, points = pos.board, game.points
    digits = [0] * len(points)
    legal = 0
    while True:
        legal += pos.all_groups_live()
        # The odometer: the first point that is not White steps on, the ones before it
        # (all White) go back to empty.
        i = 0
        while i < len(points) and digits[i] == 2:
            digits[i] = 0
            board[points[i]] = 0
            i += 1
        if i == len(points):
            return legal
        digits[i] += 1
        board[points[i]] = digits[i]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--width", type=int, default=4)
    ap.add_argument("--height", type=int, default=4)
    args = ap.parse_args()
    started = time.perf_counter()
    legal = count_legal(args.width, args.height)
    print(f"{args.width}x{args.height}: {legal:,} legal positions of {3 ** (args.width * args.height):,} "
          f"colourings; {time.perf_counter() - started:.1f}s, {build.describe()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
