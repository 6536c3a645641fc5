"""Two settings of the Monte-Carlo tree search (engine/mcts.py) play each other at the
same number of simulations per move: RAVE on against off, or two exploration
constants. Games are played in this process in pairs, each setting taking each
colour once, from the start position or from random openings of a few plies
(each opening played twice); results are counted by the rules.

    nice -n 19 python scripts/mcts_match.py --game go -p size=7 komi=9 --playouts 200 --games 6
    nice -n 19 python scripts/mcts_match.py --game connect4 --playouts 400 --games 10 --random-plies 2
    nice -n 19 python scripts/mcts_match.py --game connect4 --exploration 0.7 1.4 --games 10 --random-plies 2
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import games  # noqa: E402
from engine.mcts import EXPLORATION, MCTSSearcher  # noqa: E402
from engine.timeman import Limits  # noqa: E402
from protocol.records import rules_result  # noqa: E402


def play(game, opening: list[int], players: list[MCTSSearcher], playouts: int, max_plies: int) -> int:
    """One game; the result for player 0 (+1/0/-1), a draw at ``max_plies``."""
    pos = game.new_position()
    for move in opening:
        pos.push(move)
    for _ in range(max_plies):
        r0 = rules_result(pos)
        if r0 is not None:
            return r0
        result = players[pos.turn].search(game, pos, Limits(nodes=playouts))
        pos.push(result.best)
    return 0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="go")
    p.add_argument("-p", "--param", nargs="*", default=[], metavar="NAME=VALUE")
    p.add_argument("--playouts", type=int, default=200)
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--random-plies", type=int, default=0)
    p.add_argument("--max-plies", type=int, default=400)
    p.add_argument("--exploration", type=float, nargs=2, metavar=("A", "B"),
                   help="compare two exploration constants (RAVE off) instead of RAVE on and off")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    params = dict(item.split("=", 1) for item in args.param)
    game = games.load(args.game, **params)
    rng = random.Random(args.seed)
    if args.exploration:
        names = [f"C={args.exploration[0]:g}", f"C={args.exploration[1]:g}"]
    else:
        names = ["RAVE", "UCT"]
    searchers = [MCTSSearcher(seed=args.seed), MCTSSearcher(seed=args.seed + 1)]
    if args.exploration:
        searchers[0].exploration, searchers[1].exploration = args.exploration
    else:
        searchers[0].rave = True
        searchers[1].exploration = EXPLORATION
    points = [0.0, 0.0]
    start = time.perf_counter()
    for number in range(args.games):
        if number % 2 == 0:
            pos, opening = game.new_position(), []
            for _ in range(args.random_plies):
                moves = pos.legal_moves()
                if not moves:
                    break
                opening.append(rng.choice(moves))
                pos.push(opening[-1])
        first = number % 2
        seats = [searchers[first], searchers[1 - first]]
        r0 = play(game, opening, seats, args.playouts, args.max_plies)
        points[first] += (1 + r0) / 2
        points[1 - first] += (1 - r0) / 2
        print(f"game {number + 1}: {names[first]} first, result {r0:+d}; {names[0]} {points[0]:g} - "
              f"{points[1]:g} {names[1]} ({time.perf_counter() - start:.0f} s)", flush=True)
    print(f"{args.game} {params or ''} {args.playouts} playouts a move, {args.games} games: "
          f"{names[0]} {points[0]:g}, {names[1]} {points[1]:g}")


if __name__ == "__main__":
    main()
