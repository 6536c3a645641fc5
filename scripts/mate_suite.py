"""Forced mates in 2 and 3 moves by proof-number search, each within a time limit.

    nice python scripts/mate_suite.py [--seconds 10] [--verify]

The positions are classic mate-in-2/3 puzzles (Opera-game and Légal-style
sacrifices, WAC positions) plus one without a mate. The expected distance of
each was established by brute force with python-chess (``--verify`` repeats
that check). For every position zermelo's ``find_mate`` must find a mate of
exactly that many moves within the limit, and its line must end in
checkmate under python-chess's rules; the position without a mate must be
disproved.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import chess  # noqa: E402

import games  # noqa: E402
from engine.pns import find_mate  # noqa: E402

#: (FEN, moves to mate; None = no mate in 3)
POSITIONS = [
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2),
    ("r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1", 2),
    ("5rkr/pp2Rp2/1b1p1Pb1/3P2Q1/2n3P1/2p5/P4P2/4R1K1 w - - 1 1", 2),
    ("1r1kr3/Nbppn1pp/1b6/8/6Q1/3B1P2/Pq3P1P/3RR1K1 w - - 1 1", 2),
    ("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", 2),
    ("r1b2k1r/ppppq3/5N1p/4P2Q/4PP2/1B6/PP5P/n2K2R1 w - - 1 1", 2),
    ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2),
    ("1rb4r/pkPp3p/1b1P3n/1Q6/N3Pp2/8/P1P3PP/7K w - - 1 1", 2),
    ("r1bq2r1/b4pk1/p1pp1p2/1p2pP2/1P2P1PB/3P4/1PPQ2P1/R3K2R w - - 0 1", 2),
    ("7k/1p4p1/p4b1p/3N3P/2p5/2rb4/PP2r3/K2R2R1 b - - 0 1", 2),
    ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3),
    ("r3k2r/ppp2Npp/1b5n/4p2b/2B1P2q/BQP2P2/P5PP/RN5K w kq - 1 1", 3),
    ("r1b3kr/ppp1Bp1p/1b6/n2P4/2p3q1/2Q2N2/P4PPP/RN2R1K1 w - - 1 1", 3),
    ("r2n1rk1/1ppb2pp/1p1p4/3Ppq1n/2B3P1/2P4P/PP1N1P1K/R2Q1RN1 b - - 0 1", 3),
    ("3q1r1k/2p4p/1p1pBrp1/p2Pp3/2PnP3/5PP1/PP1Q2K1/5R1R w - - 1 1", 3),
    ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 1 1", 3),
    ("2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3),
    ("kr6/pp6/8/8/8/8/8/K6Q w - - 0 1", None),
]


def brute_force(board: chess.Board, plies: int) -> bool:
    """The side to move mates within ``plies`` plies (python-chess, exhaustive)."""
    if plies <= 0:
        return False
    for move in board.legal_moves:
        board.push(move)
        ok = board.is_checkmate() or (plies >= 3 and not board.is_game_over() and all(
            _reply(board, r, plies - 2) for r in board.legal_moves))
        board.pop()
        if ok:
            return True
    return False


def _reply(board: chess.Board, move: chess.Move, plies: int) -> bool:
    board.push(move)
    ok = brute_force(board, plies)
    board.pop()
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="limit per position")
    ap.add_argument("--verify", action="store_true", help="re-check the expected distances by brute force")
    args = ap.parse_args()
    game = games.load("chess")
    solved, times = 0, []
    for fen, expected in POSITIONS:
        board = chess.Board(fen)
        if args.verify:
            truth = next((n for n in (1, 2, 3) if brute_force(board, 2 * n - 1)), None)
            assert truth == expected, f"{fen}: brute force says {truth}, listed {expected}"
        pos = game.new_position(fen)
        t0 = time.perf_counter()
        result = find_mate(game, pos, 3, deadline=t0 + args.seconds)
        elapsed = time.perf_counter() - t0
        line = [pos.move_text(m) for m in result.pv]
        if expected is None:
            ok = result.found is False
        else:
            moves = None if result.plies is None else (result.plies + 1) // 2
            for text in line:
                board.push_uci(text)
            ok = bool(result.found) and moves == expected and board.is_checkmate()
        solved += ok
        times.append(elapsed)
        what = "no mate" if expected is None else f"mate in {expected}"
        print(f"{'ok ' if ok else 'FAIL'} {what:10} {elapsed:6.2f}s {result.nodes:8,} nodes  "
              f"{' '.join(line) or '-'}  [{fen}]", flush=True)
    print(f"{solved}/{len(POSITIONS)} solved within {args.seconds:g}s each; "
          f"median {statistics.median(times):.2f}s, max {max(times):.2f}s")
    return 0 if solved == len(POSITIONS) else 1


if __name__ == "__main__":
    sys.exit(main())
