"""Games between two Hub engines, refereed by pydraughts: each move is the
engine's ``done``, checked and played by pydraughts' rules, to the end of the game.

Usage: ``nice python scripts/draughts_hub_games.py [--variants standard russian brazilian]
[--games 2] [--depth 4 --other-depth 2] [--other "/path/to/scan/scan hub" --other-dir /path/to/scan]``

By default both engines are ``zermelo hub`` (the first searching ``--depth``
plies, the other ``--other-depth``), colours alternating game by game;
``--other`` names another Hub engine's command line, e.g. Scan's, run in
``--other-dir`` (Scan reads its ``data/`` from there). Prints each
game's result (White's points first: 2-0, 1-1, 0-2) and plies, then the first
engine's score per variant.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def play(draughts, engines, variant: str, depths, max_plies: int) -> tuple[str, int]:
    from draughts.engine import Limit

    board = draughts.Board(variant=variant)
    plies = 0
    while not board.is_over() and plies < max_plies:
        side = 0 if board.turn == draughts.WHITE else 1
        result = engines[side].play(board, Limit(depth=depths[side]), ponder=False)
        board.push(result.move)  # raises on a move pydraughts' rules refuse
        plies += 1
    winner = board.winner() if board.is_over() else 0
    return {draughts.WHITE: "2-0", draughts.BLACK: "0-2"}.get(winner, "1-1"), plies


def main() -> int:
    import draughts
    from draughts.engine import HubEngine

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", nargs="+", default=["standard", "russian", "brazilian"])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--other-depth", type=int, default=2)
    ap.add_argument("--other", help="the other engine's command line (default: zermelo hub)")
    ap.add_argument("--other-dir", help="the other engine's working directory")
    ap.add_argument("--max-plies", type=int, default=400)
    args = ap.parse_args()
    ours = [sys.executable, "-m", "protocol", "hub"]
    theirs = shlex.split(args.other) if args.other else ours
    for variant in args.variants:
        points = 0
        for g in range(args.games):
            engines = [HubEngine(ours, cwd=str(ROOT)), HubEngine(theirs, cwd=args.other_dir or str(ROOT))]
            for engine in engines:
                if variant != "standard" and engine.variants:
                    engine.setoption("variant", variant)
                engine.init()
            depths = [args.depth, args.other_depth]
            if g % 2:  # the other engine has White
                engines.reverse()
                depths.reverse()
            start = time.perf_counter()
            result, plies = play(draughts, engines, variant, depths, args.max_plies)
            for engine in engines:
                engine.quit()
                engine.p.communicate(timeout=30)
            mine = int(result[0] if g % 2 == 0 else result[2])
            points += mine
            print(f"{variant} game {g + 1}: zermelo depth {args.depth} as {'black' if g % 2 else 'white'}: "
                  f"{result} in {plies} plies, {time.perf_counter() - start:.0f} s", flush=True)
        print(f"{variant}: {points}/{2 * args.games} points for zermelo depth {args.depth}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
