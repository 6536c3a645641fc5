"""Nodes max^n visits with and without Korf's immediate and shallow pruning.

Runs the max^n search of engine/multiplayer.py on random positions of the toy
N-player take-away game of tests/multiplayer_toys.py (heuristic vectors: random
splits of at most S = 1000), once with pruning and once without, at the same
fixed depth, and prints the node totals and their ratio, in legal-move order
without the table and with the full move ordering. In legal-move order the two
must agree on value and move (checked); with the ordering, the history and table
differ between the two runs, so moves of equal value for the mover (frequent:
every lost line is worth 0 to the loser) may be ordered, and so chosen, differently.

    python scripts/multiplayer_pruning.py [--positions 300] [--depth 7] [--seed 1]
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from engine.multiplayer import MultiplayerSearcher  # noqa: E402
from engine.timeman import Limits  # noqa: E402
from tests.multiplayer_toys import TakeAway  # noqa: E402


def nodes(game, pos, depth: int, ordering: bool, pruning: bool) -> tuple[int, tuple[int, ...], int | None]:
    searcher = MultiplayerSearcher(16, "maxn")
    searcher.ordering, searcher.pruning = ordering, pruning
    infos = []
    result = searcher.search(game, pos, Limits(depth=depth), on_info=infos.append)
    return result.nodes, infos[-1].vector, result.best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for players in (3, 4):
        for ordering in (False, True):
            rng = random.Random(args.seed)
            with_pruning = without = 0
            for _ in range(args.positions):
                game = TakeAway(players=players, seed=rng.randrange(1 << 30), max_take=rng.choice((3, 4)))
                pos = game.new_position(f"{rng.randrange(12, 40)} {rng.randrange(players)}")
                a = nodes(game, pos, args.depth, ordering, True)
                b = nodes(game, pos, args.depth, ordering, False)
                if not ordering and a[1:] != b[1:]:
                    sys.exit(f"pruning changed the result at {pos.to_text()} (seed {game.seed}): {a} {b}")
                with_pruning += a[0]
                without += b[0]
            order = "ordered, table" if ordering else "legal order   "
            print(f"{players} players, {order}: {without:>9} nodes without pruning, {with_pruning:>9} with, "
                  f"ratio {without / with_pruning:.2f}")


if __name__ == "__main__":
    main()
