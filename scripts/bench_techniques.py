"""The bench's nodes and speed of a game with each of its search techniques alone,
none, and all, side by side in one run: the median nodes a second of ``--runs``
interleaved runs and its ratio to none. Run it niced; the machine may be shared.

    nice python scripts/bench_techniques.py --game chess --depth 5 --runs 3
    nice python scripts/bench_techniques.py --game chess --probcut 4 3 120 --noisy

ProbCut, when on, is the game's own numbers (``Game.probcut``) or ``--probcut``'s;
delta pruning, razoring and the history reduction, the game's numbers
(``Game.delta_pruning``, ``Game.razoring``, ``Game.history_reduction``). A game
without them runs without them.
"""

from __future__ import annotations

import argparse
import statistics

import games
from engine.bench import run_bench
from engine.game import Game, ProbCut

TECHNIQUES = ("capture_history", "continuation_history", "followup_history", "correction_history",
              "singular_extensions", "delta_pruning", "razoring", "history_reduction", "probcut")
#: The techniques that are a switch; the others carry numbers.
SWITCHES = TECHNIQUES[:-4]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="chess")
    parser.add_argument("--depth", type=int, default=0, help="the game's bench depth by default")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--probcut", nargs=3, type=int, metavar=("MIN_DEPTH", "REDUCTION", "MARGIN"),
                        help="ProbCut's numbers (Buro's form; with --noisy Stockfish's)")
    parser.add_argument("--noisy", action="store_true")
    args = parser.parse_args()
    game = games.load(args.game)
    cls: type[Game] = type(game)
    depth = args.depth or game.bench_depth
    # A game that declares no ProbCut and is given none runs without it.
    probcut = ProbCut(*args.probcut, noisy=args.noisy) if args.probcut else cls.probcut
    delta, razor, hist = cls.delta_pruning, cls.razoring, cls.history_reduction
    techniques = (SWITCHES + (("delta_pruning",) if delta else ()) + (("razoring",) if razor else ())
                  + (("history_reduction",) if hist else ()) + (("probcut",) if probcut is not None else ()))
    configs = {"none": (), **{name: (name,) for name in techniques}, "all": techniques}
    speeds: dict[str, list[float]] = {label: [] for label in configs}
    nodes: dict[str, int] = {}
    for _ in range(args.runs):
        for label, on in configs.items():
            for name in SWITCHES:
                setattr(cls, name, name in on)
            cls.delta_pruning = delta if "delta_pruning" in on else 0
            cls.razoring = razor if "razoring" in on else 0
            cls.history_reduction = hist if "history_reduction" in on else 0
            cls.probcut = probcut if "probcut" in on else None
            n, seconds = run_bench(game, game.bench_texts, depth, None)
            nodes[label] = n
            speeds[label].append(n / seconds)
    base = statistics.median(speeds["none"])
    print(f"{args.game}, depth {depth}, median of {args.runs} runs")
    for label in configs:
        median = statistics.median(speeds[label])
        print(f"{label:22s} nodes {nodes[label]:9d}  nodes/s {median:9.0f}  ratio {median / base:.3f}")


if __name__ == "__main__":
    main()
