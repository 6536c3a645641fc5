"""``zermelo tune``: Texel tuning of a game's hand-written evaluation weights
(``zermelo tune spsa``: the search's numbers, :mod:`protocol.spsa_cli`).

::

    zermelo tune GAME [-p K=V ...] --data FILE.zdata [FILE ...] --out weights.json
                 [--steps 2000] [--lr 1.0] [--limit N] [--seed 1]

The data are ``zermelo datagen``'s files of ``GAME`` (quiet positions of its own
self-play with their games' results). The scale ``K`` of the sigmoid is fitted
first for the weights in play, then the weights are fitted to the results
(:mod:`engine.tuning`). Progress is printed every 50 steps; the run's state is
kept in ``OUT.state`` (written atomically), so the same command resumes it. The
weights file is written atomically at the end; the game evaluates with it under
its ``EvalWeights`` option (``-p eval_weights=FILE`` for the command-line tools).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import games
from engine.nnue_data import DataFileError, read
from engine.tuning import loss, save_weights, texel
from protocol.tools import game_params


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="zermelo tune", description="Texel tuning of the hand-written evaluation's "
                                "weights against the results of zermelo's own self-play (.zdata).",
                                epilog="zermelo tune spsa GAME ...: SPSA tuning of the search's numbers by "
                                       "matches (zermelo tune spsa --help)")
    p.add_argument("game", help="game name or alias (a game with tunable weights: chess)")
    p.add_argument("--param", "-p", action="append", default=[], metavar="K=V", help="a game parameter (repeatable)")
    p.add_argument("--data", nargs="+", required=True, metavar="FILE", help="zermelo datagen's files")
    p.add_argument("--out", required=True, help="the weights file to write (JSON); the run's state is OUT.state")
    p.add_argument("--steps", type=int, default=2000, help="Adam steps over the whole set (default 2000)")
    p.add_argument("--lr", type=float, default=1.0, help="Adam's step size in evaluation units (default 1.0)")
    p.add_argument("--limit", type=int, default=0, help="tune on at most N positions drawn with --seed (0: all)")
    p.add_argument("--seed", type=int, default=1, help="seed of the --limit draw (default 1)")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["spsa"]:
        from protocol import spsa_cli

        return spsa_cli.main(argv[1:])
    parser = _parser()
    args = parser.parse_args(argv)
    params = game_params(parser, args.param)
    if args.steps < 1 or args.limit < 0 or not args.lr > 0:
        parser.error("--steps must be at least 1, --limit at least 0 and --lr above 0")
    began = time.monotonic()
    try:
        game = games.load(args.game, **params)
        name = games.canonical(args.game)
        weights = game.eval_weights()
        if weights is None or game.inputs is None:
            raise ValueError(f"{name} has no tunable evaluation weights")
        data = read(args.data, game=name, features=game.inputs.name)
        if args.limit and len(data) > args.limit:
            data = data.take(np.sort(np.random.default_rng(args.seed).choice(len(data), args.limit, replace=False)))
        if not len(data):
            raise ValueError("no positions in the data")
        base, x = game.eval_features(data)
        print(f"{len(data)} positions, {len(weights.names)} weights; features in "
              f"{time.monotonic() - began:.1f} s", flush=True)

        def progress(state, now: float) -> None:
            print(f"step {state.step}/{args.steps}: loss {now:.6f} (from {state.loss_before:.6f}, K {state.k}), "
                  f"{time.monotonic() - began:.0f} s", flush=True)

        state, tuned = texel(base, x, data, weights, steps=args.steps, lr=args.lr,
                             state_path=args.out + ".state", progress=progress)
        target = (data.result.astype(np.float64) + 1) / 2
        after = loss(base, x, target, state.k, np.asarray(tuned, float))
        save_weights(args.out, name, weights.names, tuned,
                     {"k": state.k, "positions": len(data), "steps": state.step,
                      "loss_before": round(state.loss_before, 6), "loss_after": round(after, 6)})
    except (DataFileError, ValueError, KeyError, OSError) as exc:
        print(f"zermelo tune: {exc.args[0] if isinstance(exc, KeyError) and exc.args else exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"zermelo tune: interrupted; the state in {args.out}.state resumes it", file=sys.stderr)
        return 130
    changed = sum(a != b for a, b in zip(tuned, weights.values))
    print(f"K {state.k}; loss {state.loss_before:.6f} -> {after:.6f} (rounded weights), {changed} of "
          f"{len(tuned)} weights changed; wrote {args.out} in {time.monotonic() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
