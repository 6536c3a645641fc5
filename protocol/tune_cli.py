"""``zermelo tune``: Texel tuning of a game's hand-written evaluation weights
(``zermelo tune spsa``: the search's numbers, :mod:`protocol.spsa_cli`).

::

    zermelo tune GAME [-p K=V ...] --data FILE.zdata [FILE ...] --out weights.json
                 [--steps 2000] [--lr 1.0] [--limit N] [--seed 1] [--holdout 0.2]

The data are ``zermelo datagen``'s files of ``GAME`` (quiet positions of its own
self-play with their games' results). The scale ``K`` of the sigmoid is fitted
first for the weights in play, then the weights are fitted to the results
(:mod:`engine.tuning`). ``--holdout`` keeps the last games of the data out of the
fit and reports their loss before and after: positions of one game share its
result, so only unseen games tell a fit to the games from a fit to the results.
Progress is printed every 50 steps; the run's state is
kept in ``OUT.state`` (written atomically), so the same command resumes it. The
weights file is written atomically at the end; the game evaluates with it under
its ``EvalWeights`` option (``-p eval_weights=FILE`` for the command-line tools).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Callable, Sequence

import numpy as np

import games
from engine.game import Game
from engine.nnue_data import Dataset, DataFileError, read
from engine.tuning import State, loss, save_weights, texel
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
    p.add_argument("--holdout", type=float, default=0.0, metavar="FRACTION",
                   help="keep this fraction of the positions, the data's last games, out of the tuning and "
                        "report their loss (default 0: none)")
    return p


def _held_out(game: Game, held: Dataset) -> Callable[[int, Sequence[float]], float]:
    """The loss over the held-out records for a ``K`` and weights."""
    base, x = game.eval_features(held)
    target = (held.result.astype(np.float64) + 1) / 2
    return lambda k, w: loss(base, x, target, k, np.asarray(w, float))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["spsa"]:
        from protocol import spsa_cli

        return spsa_cli.main(argv[1:])
    parser = _parser()
    args = parser.parse_args(argv)
    params = game_params(parser, args.param)
    if args.steps < 1 or args.limit < 0 or not args.lr > 0 or not 0 <= args.holdout < 1:
        parser.error("--steps must be at least 1, --limit at least 0, --lr above 0 and --holdout in [0, 1)")
    began = time.monotonic()
    try:
        game = games.load(args.game, **params)
        name = games.canonical(args.game)
        weights = game.eval_weights()
        if weights is None or game.inputs is None:
            raise ValueError(f"{name} has no tunable evaluation weights")
        data = read(args.data, game=name, features=game.inputs.name)
        held = None
        if args.holdout:
            # datagen writes whole games in order: the last records are the last games.
            cut = len(data) - round(len(data) * args.holdout)
            held, data = data.take(np.arange(cut, len(data))), data.take(np.arange(cut))
        if args.limit and len(data) > args.limit:
            data = data.take(np.sort(np.random.default_rng(args.seed).choice(len(data), args.limit, replace=False)))
        if not len(data) or held is not None and not len(held):
            raise ValueError("no positions in the data" if not len(data) else "no positions held out")
        base, x = game.eval_features(data)
        held_loss = _held_out(game, held) if held is not None else None
        print(f"{len(data)} positions" + (f" ({len(held)} held out)" if held is not None else "") +
              f", {len(weights.names)} weights; features in {time.monotonic() - began:.1f} s", flush=True)

        def progress(state: State, now: float) -> None:
            shown = f", held out {held_loss(state.k, state.w):.6f}" if held_loss is not None else ""
            print(f"step {state.step}/{args.steps}: loss {now:.6f} (from {state.loss_before:.6f}, K {state.k})"
                  f"{shown}, {time.monotonic() - began:.0f} s", flush=True)

        state, tuned = texel(base, x, data, weights, steps=args.steps, lr=args.lr,
                             state_path=args.out + ".state", progress=progress)
        target = (data.result.astype(np.float64) + 1) / 2
        after = loss(base, x, target, state.k, np.asarray(tuned, float))
        info: dict[str, Any] = {"k": state.k, "positions": len(data), "steps": state.step,
                                "loss_before": round(state.loss_before, 6), "loss_after": round(after, 6)}
        if held is not None and held_loss is not None:
            info.update(held_out=len(held), held_out_before=round(held_loss(state.k, weights.values), 6),
                        held_out_after=round(held_loss(state.k, tuned), 6))
        save_weights(args.out, name, weights.names, tuned, info)
    except (DataFileError, ValueError, KeyError, OSError) as exc:
        print(f"zermelo tune: {exc.args[0] if isinstance(exc, KeyError) and exc.args else exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"zermelo tune: interrupted; the state in {args.out}.state resumes it", file=sys.stderr)
        return 130
    changed = sum(a != b for a, b in zip(tuned, weights.values))
    shown = f"; held out {info['held_out_before']:.6f} -> {info['held_out_after']:.6f}" if "held_out" in info else ""
    print(f"K {state.k}; loss {state.loss_before:.6f} -> {after:.6f} (rounded weights){shown}, {changed} of "
          f"{len(tuned)} weights changed; wrote {args.out} in {time.monotonic() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
