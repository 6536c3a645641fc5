"""zermelo's engine with some of a game's search techniques turned off, for matches
that measure a technique against the same build without it.

The techniques are the search traits a game opts into (``Game.capture_history``,
``continuation_history``, ``correction_history``, ``singular_extensions``); the
ones named are set False on the game's class before the protocol starts, so the
search runs exactly as for a game that never opted in.

    python scripts/technique_engine.py --game chess --off correction_history singular_extensions
    zermelo match --game chess --nodes 5000 --random-plies 2 --seed 38 --games 200 \\
        --engine "cmd=\\"python scripts/technique_engine.py\\" name=all" \\
        --engine "cmd=\\"python scripts/technique_engine.py --off singular_extensions\\" name=base"
"""

from __future__ import annotations

import argparse
import sys

import games
from engine.game import Game
from protocol.cli import main

TECHNIQUES = ("capture_history", "continuation_history", "correction_history", "singular_extensions")


def turn_off(game: str, names: list[str]) -> None:
    cls: type[Game] = type(games.load(game))
    for name in names:
        setattr(cls, name, False)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="chess")
    parser.add_argument("--off", nargs="*", default=[], choices=TECHNIQUES)
    args = parser.parse_args()
    turn_off(args.game, args.off)
    sys.exit(main([]))
