"""How much of the tree the Monte-Carlo search keeps between moves: self-play through
the engine at a fixed number of simulations a move, printing each move's root visits
carried over from the last search (``MCTSSearcher.reused``) against the simulations
it adds.

    python scripts/mcts_reuse.py --size 9 --moves 12 --nodes 1000
"""

from __future__ import annotations

import argparse
import statistics
import threading

import games
from engine.engine import Engine
from engine.mcts import MCTSSearcher
from engine.timeman import Limits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--nodes", type=int, default=1000)
    args = parser.parse_args()
    engine = Engine(games)
    engine.set_option("UCI_Variant", "go")
    engine.set_option("go_size", str(args.size))
    engine.set_option("Strategy", "mcts")
    engine.set_option("RAVE", "true")
    moves: list[str] = []
    shares = []
    for ply in range(args.moves):
        engine.set_position(None, moves)
        done = threading.Event()
        answer: list[str | None] = []
        engine.go(Limits(nodes=args.nodes), lambda info, pv: None,
                  lambda best, ponder: (answer.append(best), done.set()))
        done.wait()
        engine.wait()
        searcher = engine.searcher
        assert isinstance(searcher, MCTSSearcher)
        share = searcher.reused / (searcher.reused + args.nodes)
        if ply:
            shares.append(share)
        print(f"move {ply + 1}: {answer[0]}, root visits kept {searcher.reused}, added {args.nodes} "
              f"({100 * share:.0f} % of the root's visits kept)", flush=True)
        if answer[0] is None:
            break
        moves.append(answer[0])
    if shares:
        print(f"median share kept from move 2: {100 * statistics.median(shares):.0f} %")


if __name__ == "__main__":
    main()
