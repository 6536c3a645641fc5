"""Chess960 perft: zermelo against python-chess's ``chess.Board(fen, chess960=True)``.

For each start position (Scharnagl number, 518 = standard chess) both count
the move paths to ``--depth`` with a bulk count at the last ply; the script
prints both counts and times per position and ``all equal`` when every count
agrees (exit status 1 otherwise). The default sample is every 19th number from
0 plus 518: 52 positions.

    nice python scripts/chess960_perft.py [--depth 4] [--positions 0 518 959]
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import chess  # noqa: E402

import games  # noqa: E402
from engine.perft import perft  # noqa: E402
from perft_compare import python_chess_perft  # noqa: E402  (this script's folder is on sys.path)

SAMPLE = sorted(set(range(0, 960, 19)) | {518})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--positions", type=int, nargs="+", default=SAMPLE,
                        help="Scharnagl numbers 0..959 (default: a sample of 52)")
    args = parser.parse_args(argv)
    game = games.load("chess", chess960=True)
    equal = True
    ours_total = theirs_total = 0.0
    print(f"{'n':>3}  {'FEN':<56} {'zermelo':>10} {'s':>6} {'python-chess':>12} {'s':>6}")
    for n in args.positions:
        board = chess.Board.from_chess960_pos(n)
        pos = game.new_position(board.fen())
        t0 = time.perf_counter()
        ours = perft(pos, args.depth)
        t1 = time.perf_counter()
        theirs = python_chess_perft(board, args.depth)
        t2 = time.perf_counter()
        ours_total += t1 - t0
        theirs_total += t2 - t1
        mark = "" if ours == theirs else "  DIFFERENT"
        equal &= ours == theirs
        print(f"{n:>3}  {board.fen():<56} {ours:>10} {t1 - t0:>6.2f} {theirs:>12} {t2 - t1:>6.2f}{mark}", flush=True)
    print(f"{len(args.positions)} positions, depth {args.depth}: zermelo {ours_total:.1f} s, "
          f"python-chess {theirs_total:.1f} s; " + ("all equal" if equal else "COUNTS DIFFER"))
    return 0 if equal else 1


if __name__ == "__main__":
    sys.exit(main())
