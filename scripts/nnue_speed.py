"""Nodes per second of a game with a random (untrained) network against its hand-written
evaluation, in the compiled and the pure build.

    nice -n 19 python scripts/nnue_speed.py [--game chess] [--runs 3] [--acc 256] [--depth D]
                                            [--pure-depth P] [--builds compiled,pure]

Each run is a fresh process searching the game's bench positions (``zermelo bench``'s;
the start position for a game without them) to a fixed depth with a fresh searcher per
position, once with the hand-written evaluation and once with a network of ``--acc``
neurons per perspective (random weights, written to a temporary file and read back as
the engine reads ``EvalFile``). The depths default to the game's in :data:`DEPTHS`
(compiled, pure: the pure build searches shallower). ``--game`` may be repeated.
Printed: the median and the worst of ``--runs`` runs, nodes/s, per game, build and
evaluation; the evaluations alternate run by run so that a change in the machine's load
falls on both.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: Default search depths (compiled build, pure build): a few seconds a run on a quiet core.
DEPTHS = {"chess": (5, 2), "connect4": (12, 8), "kalah": (12, 8), "mnk": (4, 2), "reversi": (6, 3),
          "checkers": (7, 4), "shashki": (7, 4)}

_CHILD = """
import sys, time
import games
from engine import build, nnue
from engine.bench import BENCH_HASH_MB
from engine.search import Searcher
from engine.timeman import Limits

name, path, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
game = games.load(name)
network = nnue.load_for_game(game, path) if path else None
nodes, seconds = 0, 0.0
for text in game.bench_texts or (None,):
    pos = game.new_position(text)
    if network is not None:
        pos.nn_attach(network)
    searcher = Searcher(BENCH_HASH_MB)
    start = time.perf_counter()
    result = searcher.search(game, pos, Limits(depth=depth))
    seconds += time.perf_counter() - start
    nodes += result.nodes
print(build.COMPILED, nodes, seconds)
"""


def run(game: str, path: str, depth: int, pure: bool) -> tuple[int, float]:
    env = {**os.environ, "ZERMELO_PURE": "1" if pure else "0"}
    out = subprocess.run([sys.executable, "-c", _CHILD, game, path, str(depth)], cwd=REPO, env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    if (out[0] == "True") == pure:
        sys.exit(f"the {'pure' if pure else 'compiled'} build did not run (rebuild: pip install -e .)")
    return int(out[1]), float(out[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=sorted(DEPTHS),
                        help="a game with network inputs (repeatable; default chess)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--acc", type=int, default=256, help="neurons per perspective of the random network")
    parser.add_argument("--depth", type=int, help="search depth of the compiled build (default: DEPTHS)")
    parser.add_argument("--pure-depth", type=int, help="search depth of the pure build (default: DEPTHS)")
    parser.add_argument("--builds", default="compiled,pure", help="the builds timed, comma-separated")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    import numpy as np

    import games
    from engine.nnue import save_network

    for name in args.game or ["chess"]:
        game = games.load(name)
        rng = np.random.default_rng(1)
        with tempfile.TemporaryDirectory() as tmp:
            path = str(Path(tmp) / "random.znn")
            # Small weights: the most active inputs stay far inside int16, as a trained network's do.
            save_network(path, game=name, features=game.inputs.name, scale=400,
                         ft_weight=rng.normal(0, 0.05, (game.inputs.size, args.acc)),
                         ft_bias=rng.normal(0, 0.05, args.acc),
                         out_weight=rng.normal(0, 1 / np.sqrt(2 * args.acc), 2 * args.acc), out_bias=0.0)
            print(f"{name} bench positions, network {game.inputs.size}->{args.acc}x2->1 (random), "
                  f"{args.runs} runs, median (worst) nodes/s", flush=True)
            depths = (args.depth or DEPTHS[name][0], args.pure_depth or DEPTHS[name][1])
            for pure, depth in zip((False, True), depths):
                if ("pure" if pure else "compiled") in args.builds.split(","):
                    time_build(name, path, depth, pure, args.runs)


def time_build(game: str, path: str, depth: int, pure: bool, runs: int) -> None:
    rates: dict[str, list[float]] = {"hand-written": [], "network": []}
    nodes: dict[str, int] = {}
    for _ in range(runs):
        for name, file in (("hand-written", ""), ("network", path)):
            n, seconds = run(game, file, depth, pure)
            nodes[name] = n
            rates[name].append(n / seconds)
    build_name = "pure" if pure else "compiled"
    for name, values in rates.items():
        print(f"  {build_name:8} depth {depth}  {name:12}  {statistics.median(values):>9,.0f} "
              f"({min(values):,.0f})  nodes {nodes[name]:,}", flush=True)
    ratio = statistics.median(rates["network"]) / statistics.median(rates["hand-written"])
    print(f"  {build_name:8} network / hand-written: {ratio:.2f}", flush=True)


if __name__ == "__main__":
    main()
