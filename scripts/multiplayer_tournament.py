"""A seat-rotated Rolit tournament of the three N-player searches, and each against random play.

Three zermelo engines, identical but for ``MultiplayerSearch`` (``brs``,
``paranoid``, ``maxn``), play 3-player Rolit at the same time per move, every
opening in all six seatings (:mod:`protocol.match.multi`); the openings are the
start plus ``--random-plies`` random moves. Then each algorithm plays two
random-move engines (``scripts/random_engine.py``) in the same schedule. Points
go by place, 1 / 0.5 / 0 for first / second / third, shared places split; the
share is points per game. Records are written to ``--records-dir``::

    nice python scripts/multiplayer_tournament.py --movetime 150 --games 60 \\
        --random-games 24 --concurrency 2
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from protocol.match.multi import MultiConfig, MultiMatch, seatings  # noqa: E402
from protocol.match.openings import Opening, add_random_plies  # noqa: E402
from protocol.match.process import EngineSpec  # noqa: E402
from protocol.match.runner import Limits  # noqa: E402

ALGORITHMS = ("brs", "paranoid", "maxn")


def zermelo(algorithm: str) -> EngineSpec:
    return EngineSpec.parse(f'cmd="{sys.executable} -m protocol" dir={ROOT} name={algorithm} '
                            f"option.MultiplayerSearch={algorithm}")


def randomer(seed: int) -> EngineSpec:
    return EngineSpec.parse(f'cmd="{sys.executable} {ROOT / "scripts" / "random_engine.py"} {seed}" '
                            f"name=random{seed}")


def play(specs: list[EngineSpec], n_games: int, movetime: int, openings: list[Opening], concurrency: int,
         records: pathlib.Path) -> MultiMatch:
    config = MultiConfig(game="rolit", players=3, specs=specs, limits=[Limits(movetime=movetime)] * 3,
                         games=n_games, openings=openings, concurrency=concurrency, records=str(records))
    match = MultiMatch(config, out=sys.stdout)
    started = time.monotonic()
    match.run()
    print(match.summary())
    print(f"{len(match.results)} games in {time.monotonic() - started:.0f} s\n", flush=True)
    return match


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--movetime", type=int, default=150, help="ms per move (default 150)")
    p.add_argument("--games", type=int, default=60, help="games of the three algorithms (rounded up to 6s)")
    p.add_argument("--random-games", type=int, default=24, help="games of each algorithm against two random seats")
    p.add_argument("--random-plies", type=int, default=2, help="random moves after the start in each opening")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--records-dir", default="multiplayer_tournament", help="where the records go")
    args = p.parse_args()
    out = pathlib.Path(args.records_dir)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    game = games.load("rolit", players=3)
    rounds = len(seatings(3))
    openings = [add_random_plies(game, Opening(), args.random_plies, rng) for _ in range(-(-args.games // rounds))]

    print(f"# rolit, 3 players, {args.movetime} ms a move: {', '.join(ALGORITHMS)}", flush=True)
    main_match = play([zermelo(a) for a in ALGORITHMS], args.games, args.movetime, openings, args.concurrency,
                      out / "algorithms.txt")
    shares = {}
    for algorithm in ALGORITHMS:
        print(f"# {algorithm} against two random-move seats", flush=True)
        match = play([zermelo(algorithm), randomer(1), randomer(2)], args.random_games, args.movetime,
                     openings, args.concurrency, out / f"{algorithm}_random.txt")
        shares[algorithm] = match.points(0) / max(1, len(match.results))
    print("# summary")
    for e, algorithm in enumerate(ALGORITHMS):
        print(f"{algorithm:<9} {main_match.points(e):6.2f} points of {len(main_match.results)} games"
              f" against the others; {100 * shares[algorithm]:5.1f}% against random seats")


if __name__ == "__main__":
    main()
