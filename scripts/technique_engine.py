"""zermelo's engine with some of a game's search techniques turned off, for matches
that measure a technique against the same build without it.

The techniques are the search traits a game opts into (``Game.capture_history``,
``continuation_history``, ``followup_history``, ``correction_history``,
``singular_extensions``, ``table_move_first``, ``delta_pruning``, ``razoring``,
``history_reduction``, ``probcut``); the ones named are set off (False, 0 for the margins
and the history reduction, ``None`` for ProbCut) on the game's class before the
protocol starts, so the search runs exactly as for a game that never opted in. ``--probcut`` sets ProbCut's numbers instead (a game that
declares none can be measured with some).

    python scripts/technique_engine.py --game chess --off correction_history singular_extensions
    zermelo match --game chess --nodes 5000 --random-plies 2 --seed 38 --games 200 \\
        --engine "cmd=\\"python scripts/technique_engine.py\\" name=all" \\
        --engine "cmd=\\"python scripts/technique_engine.py --off singular_extensions\\" name=base"
    python scripts/technique_engine.py --game reversi --probcut 4 2 250
    python scripts/technique_engine.py --game reversi --probcut 4 2 1 --ladder 2:300:400 3:350:350
"""

from __future__ import annotations

import argparse
import sys

import games
from engine.game import Game, ProbCut
from protocol.cli import main

TECHNIQUES = ("capture_history", "continuation_history", "followup_history", "correction_history",
              "singular_extensions", "table_move_first", "delta_pruning", "razoring", "history_reduction", "probcut")
#: The techniques set by a number (0: off).
_NUMBERS = ("delta_pruning", "razoring", "history_reduction")


def turn_off(game: str, names: list[str], probcut: ProbCut | None = None) -> None:
    cls: type[Game] = type(games.load(game))
    if probcut is not None:
        cls.probcut = probcut
    for name in names:
        setattr(cls, name, None if name == "probcut" else 0 if name in _NUMBERS else False)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="chess")
    parser.add_argument("--off", nargs="*", default=[], choices=TECHNIQUES)
    parser.add_argument("--probcut", nargs=3, type=int, metavar=("MIN_DEPTH", "REDUCTION", "MARGIN"),
                        help="ProbCut with these numbers (Buro's form; with --noisy Stockfish's)")
    parser.add_argument("--noisy", action="store_true")
    parser.add_argument("--ladder", nargs="+", metavar="SHALLOW:UP:DOWN",
                        help="with --probcut: Multi-ProbCut's ladder, one entry a depth from MIN_DEPTH")
    args = parser.parse_args()
    steps = [[int(n) for n in step.split(":")] for step in args.ladder or ()]
    ladder = tuple((shallow, up, down) for shallow, up, down in steps)
    probcut = None
    if args.probcut:
        min_depth, reduction, margin = args.probcut
        probcut = ProbCut(min_depth, reduction, margin, noisy=args.noisy, ladder=ladder)
    turn_off(args.game, args.off, probcut)
    sys.exit(main([]))
