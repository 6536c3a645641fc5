"""A game's network from nothing: self-play data, training, and the match that measures it.

Runs the three documented commands in order, each printed before it starts and
timed, in one output directory:

1. ``zermelo datagen GAME`` writes ``DIR/GAME.zdata`` (resumable: run the script
   again with the same arguments and the data continues where it stopped);
2. ``zermelo train GAME`` fits ``DIR/GAME.znn`` to it and draws ``DIR/loss.png``
   when matplotlib is there;
3. ``zermelo match`` plays the network (``EvalFile``) against the hand-written
   evaluation (``Use NNUE false``) at equal time, each opening with both colours,
   the games in ``DIR/match.txt``.

Between 2 and 3 a ``d`` on the server with the new file shows it loads
(``Evaluation: … (network …)``). The end is a table of the three wall times.

    python scripts/pipeline.py GAME --dir DIR [--games 10000] [--nodes 5000]
        [--random-plies 8] [--acc 128] [--epochs 15] [--scale auto] [--match-games 100]
        [--tc 5+0.05] [--match-random-plies 6] [--concurrency 1] [--seed 1]

The game plays on its default board (the match runner takes no game parameters).

The reversi network shipped in ``games/nets`` was made by these steps; the
measured run is in docs/guide/networks.md.
"""

from __future__ import annotations

import argparse
import pathlib
import shlex
import subprocess
import sys
import time

ZERMELO = [sys.executable, "-m", "protocol"]


def run(step: str, argv: list[str], times: list[tuple[str, float]]) -> None:
    print(f"== {step}: zermelo {shlex.join(argv)}", flush=True)
    start = time.monotonic()
    # Passed through as it comes: datagen and the match report as they go, for hours.
    done = subprocess.run([*ZERMELO, *argv], stderr=subprocess.STDOUT)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        raise SystemExit(f"{step} failed (exit {done.returncode})")
    times.append((step, seconds))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("--dir", required=True, help="output directory (created)")
    p.add_argument("--games", type=int, default=10000, help="self-play games (datagen --games)")
    p.add_argument("--nodes", type=int, default=5000, help="nodes a move in self-play")
    p.add_argument("--random-plies", type=int, default=8, help="random plies opening each self-play game")
    p.add_argument("--acc", type=int, default=128, help="accumulator size (train --acc)")
    p.add_argument("--epochs", type=int, default=15)
    p.add_argument("--scale", default="auto", help="the score's sigmoid scale (train --scale; default auto)")
    p.add_argument("--match-games", type=int, default=100)
    p.add_argument("--tc", default="5+0.05", help="the match's time control")
    p.add_argument("--match-random-plies", type=int, default=6, help="random plies opening each match game")
    p.add_argument("--concurrency", type=int, default=1, help="datagen processes and match games at once")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)

    out = pathlib.Path(args.dir).resolve()
    out.mkdir(parents=True, exist_ok=True)
    data, net, records = out / f"{args.game}.zdata", out / f"{args.game}.znn", out / "match.txt"
    times: list[tuple[str, float]] = []

    run("datagen", ["datagen", args.game, "--games", str(args.games), "--nodes", str(args.nodes),
                    "--random-plies", str(args.random_plies), "--seed", str(args.seed),
                    "--concurrency", str(args.concurrency), "--out", str(data)], times)
    try:
        import matplotlib  # noqa: F401
        plot = ["--plot", str(out / "loss.png")]
    except ImportError:
        plot = []
    run("train", ["train", args.game, "--data", str(data), "--out", str(net), "--acc", str(args.acc),
                  "--epochs", str(args.epochs), "--scale", args.scale, "--seed", str(args.seed), *plot], times)

    shown = subprocess.run(ZERMELO, input=f"setoption name UCI_Variant value {args.game}\n"
                           f"setoption name EvalFile value {net}\nd\nquit\n",
                           stdout=subprocess.PIPE, text=True).stdout
    line = next((s for s in shown.splitlines() if s.startswith("Evaluation:")), "")
    print(f"== loaded: {line}", flush=True)
    if "(network" not in line:
        raise SystemExit(f"the server did not load {net}:\n{shown}")

    engine = shlex.join(ZERMELO)
    run("match", ["match", "--game", args.game, "--games", str(args.match_games), "--tc", args.tc,
                  "--random-plies", str(args.match_random_plies), "--seed", str(args.seed), "--concurrency", str(args.concurrency),
                  "--records", str(records), "--force",
                  "--engine", f"cmd={shlex.quote(engine)} name=net option.EvalFile={shlex.quote(str(net))}",
                  "--engine", f"cmd={shlex.quote(engine)} name=hand 'option.Use NNUE=false'"], times)

    print("\nstep      wall time")
    for step, seconds in times:
        print(f"{step:8s} {seconds:9.1f} s")
    print(f"{'total':8s} {sum(s for _, s in times):9.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
