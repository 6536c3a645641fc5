"""Solve a chess test suite (EPD with ``bm``/``am``) by a UCI engine at a fixed time a position.

The engine is driven over pipes by python-chess's UCI client, a real client: each
position is set up by ``position fen`` and searched by ``go movetime``; a position is
solved when the move played is one of its ``bm`` moves and none of its ``am`` moves.

    python scripts/epd_suite.py tests/data/wac.epd --seconds 1
    python scripts/epd_suite.py tests/data/bk.epd --seconds 5 --engine "python -m protocol" --cwd ../other

The default engine is this checkout's server (``python -m protocol``). Prints one line
a position (solved or not, the move, the expected, depth and nodes) and the total.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("epd", type=Path)
    ap.add_argument("--seconds", type=float, default=1.0, help="movetime a position")
    ap.add_argument("--engine", default=f"{sys.executable} -m protocol", help="the UCI engine's command")
    ap.add_argument("--cwd", type=Path, default=ROOT, help="where the engine runs (default: this checkout)")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a UCI option (repeatable)")
    ap.add_argument("--first", type=int, default=0, help="only the first N positions (0: all)")
    args = ap.parse_args()

    lines = [ln for ln in args.epd.read_text().splitlines() if ln.strip()]
    if args.first:
        lines = lines[:args.first]
    engine = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine), cwd=args.cwd, timeout=60)
    try:
        engine.configure(dict(opt.split("=", 1) for opt in args.option))
        solved, depths, nodes = 0, [], []
        for line in lines:
            board, ops = chess.Board.from_epd(line)
            best, avoid = ops.get("bm", []), ops.get("am", [])
            # A new game object a position: python-chess sends ucinewgame (a fresh table).
            result = engine.play(board, chess.engine.Limit(time=args.seconds), game=object(),
                                 info=chess.engine.INFO_BASIC)
            ok = result.move is not None and (not best or result.move in best) and result.move not in avoid
            solved += ok
            depth, n = result.info.get("depth", 0), result.info.get("nodes", 0)
            depths.append(depth)
            nodes.append(n)
            want = " ".join(board.san(m) for m in best) + "".join(f" not {board.san(m)}" for m in avoid)
            played = board.san(result.move) if result.move else "(none)"
            print(f"{ops.get('id', '?'):10} {'ok ' if ok else '-- '} {played:8} want {want:16} depth {depth:3} nodes {n}",
                  flush=True)
    finally:
        engine.quit()
    print(f"solved {solved}/{len(lines)} at {args.seconds:g} s a position; median depth "
          f"{statistics.median(depths):g}, median nodes {statistics.median(nodes):g}")


if __name__ == "__main__":
    main()
