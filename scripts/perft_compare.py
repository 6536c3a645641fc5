"""Perft speed: zermelo's chess board against python-chess, same positions, same run.

Both count with a bulk count at the last ply (``len`` of the legal move list);
python-chess walks ``board.legal_moves`` with ``push``/``pop``. Each measurement
is repeated and the median reported, with the ratio python-chess / zermelo.

    nice python scripts/perft_compare.py [--repeats 5] [--depth-scale 0]
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import chess  # noqa: E402

import games  # noqa: E402
from engine.perft import perft  # noqa: E402

# (name, FEN, depth): each takes about a second in python-chess.
POSITIONS = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
    ("pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3),
    ("pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3),
    ("pos6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3),
]


def python_chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def timed(fn) -> tuple[int, float]:
    t0 = time.perf_counter()
    n = fn()
    return n, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--depth-scale", type=int, default=0, help="add this to every depth")
    args = ap.parse_args(argv)
    game = games.load("chess")
    print(f"{'position':<10} {'depth':>5} {'nodes':>10} {'zermelo s':>10} {'python-chess s':>15} {'ratio':>6}")
    ratios = []
    for name, fen, depth in POSITIONS:
        depth += args.depth_scale
        ours, theirs = [], []
        for _ in range(args.repeats):
            pos = game.new_position(fen)
            n1, t1 = timed(lambda: perft(pos, depth))
            board = chess.Board(fen)
            n2, t2 = timed(lambda: python_chess_perft(board, depth))
            if n1 != n2:
                raise SystemExit(f"{name}: perft mismatch {n1} != {n2}")
            ours.append(t1)
            theirs.append(t2)
        a, b = statistics.median(ours), statistics.median(theirs)
        ratios.append(b / a)
        print(f"{name:<10} {depth:>5} {n1:>10,} {a:>10.3f} {b:>15.3f} {b / a:>6.2f}")
    print(f"median ratio (python-chess time / zermelo time): {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
