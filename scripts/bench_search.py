"""Search speed per game: the bench node signature and the median nodes per second.

Runs :func:`engine.bench.run_bench` several times per game (fresh searchers, fixed
table size) and reports the node total, which must be identical on every run,
and the median speed. Run it niced; the machine may be shared.

    nice python scripts/bench_search.py                 # every game, default depths
    nice python scripts/bench_search.py chess --depth 6 --runs 5
"""

from __future__ import annotations

import argparse
import statistics
import sys

import games
from engine.bench import run_bench

#: Depths that take a few seconds per game.
DEFAULT_DEPTH = {"chess": 5, "checkers": 8, "shashki": 8, "reversi": 5, "kalah": 8,
                 "tictactoe": 9, "mnk": 5, "nim": 20, "connect4": 8}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=games.names())
    parser.add_argument("--depth", type=int, help="fixed depth (default: per game)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"{'game':<10} {'depth':>5} {'nodes':>10} {'median nps':>11} {'min nps':>9}")
    for name in args.games:
        game = games.load(name)
        depth = args.depth or DEFAULT_DEPTH.get(game.name, 5)
        signatures, speeds = set(), []
        try:
            for _ in range(args.runs):
                nodes, seconds = run_bench(game, game.bench_texts, depth)
                signatures.add(nodes)
                speeds.append(nodes / seconds)
        except ValueError as e:
            print(f"{game.name:<10} bench positions rejected: {e}")
            continue
        if len(signatures) != 1:
            print(f"{name}: node count differs between runs: {sorted(signatures)}", file=sys.stderr)
            return 1
        print(f"{game.name:<10} {depth:>5} {signatures.pop():>10} {statistics.median(speeds):>11.0f} "
              f"{min(speeds):>9.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
