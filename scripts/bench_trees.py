"""Search speed of two checkouts side by side: the bench of each, alternating, in one run.

Each run benches the game in a fresh process of each checkout (its own build, found
through ``PYTHONPATH``), one after the other, so that both see the same load. The
node counts must agree (a change meant to cost nothing in play must search the same
tree); the speed is the median nodes per second of each and their ratio.

    nice python scripts/bench_trees.py . ../before --game chess --depth 8 --runs 7
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

#: Run inside each checkout: the bench's node total and its nodes per second.
PROBE = """
import games
from engine.bench import run_bench
game = games.load({game!r})
nodes, seconds = run_bench(game, game.bench_texts, {depth})
print(nodes, nodes / seconds)
"""


def bench_once(tree: Path, game: str, depth: int) -> tuple[int, float]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", PROBE.format(game=game, depth=depth)], cwd=tree, env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), float(out[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("new", type=Path, help="the checkout measured")
    parser.add_argument("base", type=Path, help="the checkout it is compared with")
    parser.add_argument("--game", default="chess")
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    trees = (args.new.resolve(), args.base.resolve())
    results: dict[Path, list[tuple[int, float]]] = {tree: [] for tree in trees}
    for _ in range(args.runs):
        for tree in trees:
            results[tree].append(bench_once(tree, args.game, args.depth))
    speeds = {}
    for tree in trees:
        nodes = {n for n, _ in results[tree]}
        speeds[tree] = statistics.median(s for _, s in results[tree])
        print(f"{tree}: nodes {sorted(nodes)}, median {speeds[tree]:,.0f} nodes/s, "
              f"runs {', '.join(f'{s:,.0f}' for _, s in results[tree])}")
    print(f"ratio {speeds[trees[0]] / speeds[trees[1]]:.3f}")
    if {n for n, _ in results[trees[0]]} != {n for n, _ in results[trees[1]]}:
        print("the node counts differ: the two checkouts search different trees", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
