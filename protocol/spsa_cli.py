"""``zermelo tune spsa``: SPSA tuning of the search's numbers through the match runner.

::

    zermelo tune spsa GAME --state FILE --csv FILE [--plot FILE] --iterations N
                      (--nodes N | --tc TC) [--tune NAME ...] [--r-end R] [--seed S]
                      [--openings FILE] [--concurrency C | --backend ray [--address A]]

The parameters are the search's tunable options (``engine.options.SearchParams``:
their bounds and SPSA's ``c_end``); each iteration is one game pair of the match
runner between the engine told ``theta + c_k * delta`` and the one told
``theta - c_k * delta``, from one of the openings, each side once with each colour
(:mod:`engine.spsa`). Locally ``--concurrency`` pairs are played at once, each on
its own two engine processes kept from pair to pair (the new values are set by
``setoption`` between pairs); on Ray each pair is a task, and each Ray worker keeps
its engines as ``zermelo match --backend ray`` does.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import os
import random
import signal
import sys
import time
from typing import Any

import games
from engine import spsa
from engine.execution import ExecutionError, cluster_cpus, map_unordered
from engine.options import SearchParams, engine_specs, spsa_steps
from protocol import backend as backend_args
from protocol import draw
from protocol.match.openings import Opening, add_random_plies, load_openings
from protocol.match.process import EngineProcess, EngineSpec
from protocol.match.runner import Adjudication, GameJob, Limits, Match, MatchConfig, PairPlayer, TimeControl
from protocol.tools import game_params

#: Openings drawn from a book for the run (they are played in turn).
OPENINGS = 1000


def _parser() -> argparse.ArgumentParser:
    fields = SearchParams.model_fields
    names = ", ".join(info.alias or f for f, info in fields.items())
    p = argparse.ArgumentParser(
        prog="zermelo tune spsa",
        description="SPSA tuning of the search's numbers by game pairs of the match runner (as fishtest and "
                    "OpenBench do); resumable from its state file.",
        epilog=f"tunable options: {names}")
    p.add_argument("game", help="game name or alias (a game searched by alpha-beta)")
    p.add_argument("--param", "-p", action="append", default=[], metavar="K=V", help="a game parameter (repeatable)")
    p.add_argument("--tune", nargs="+", metavar="NAME", help="the options to tune (default: all)")
    p.add_argument("--iterations", type=int, required=True, help="game pairs in the run (its schedule's length)")
    p.add_argument("--state", required=True, help="the run's state (JSON, written after every batch; the same "
                                                  "command resumes it)")
    p.add_argument("--csv", required=True, help="progress: one line per iteration (result, then every value)")
    p.add_argument("--plot", help="draw each value over the iterations to this PNG after every batch")
    p.add_argument("--r-end", type=float, default=0.002, help="learning rate at the run's end (default 0.002)")
    p.add_argument("--seed", type=int, default=1, help="seed of the perturbations and the openings (default 1)")
    p.add_argument("--nodes", type=int, help="fixed nodes a move")
    p.add_argument("--tc", help="time control [moves/]seconds[+increment], e.g. 2+0.02")
    p.add_argument("--openings", help="as zermelo match's (default: its built-in set)")
    p.add_argument("--opening-plies", type=int, help="cap on plies taken from PGN lines and books")
    p.add_argument("--random-plies", type=int, default=0, help="random moves added after each opening")
    p.add_argument("--adjudicate", nargs="+", metavar="K=V", default=[],
                   help="as zermelo match's: win=SCORE[:MOVES] draw=SCORE[:MOVES[:FROM_MOVE]] maxplies=N")
    p.add_argument("--engine", default=None, metavar="SPEC",
                   help="the engine, as zermelo match's spec (default: this zermelo); its option.X are kept")
    p.add_argument("--concurrency", type=int,
                   help="pairs played at once (default 1; with --backend ray: the cluster's CPUs)")
    backend_args.add_arguments(p)
    return p


def _selected(parser: argparse.ArgumentParser, wanted: list[str] | None, r_end: float) -> list[spsa.Param]:
    fields = SearchParams.model_fields
    by_name = {(info.alias or f).lower(): f for f, info in fields.items()}
    chosen = list(fields) if not wanted else []
    for name in wanted or []:
        if name.lower() not in by_name:
            parser.error(f"--tune: unknown option {name!r}")
        chosen.append(by_name[name.lower()])
    specs = {spec.field: spec for spec in engine_specs(games) if spec.field in fields}
    steps = spsa_steps()
    out = []
    for f in chosen:
        spec = specs[f]
        assert spec.min is not None and spec.max is not None  # every tunable is a bounded spin
        out.append(spsa.Param(spec.name, spec.default, spec.min, spec.max, steps[f], r_end))
    return out


async def _pair(match: Match, engines: list[EngineProcess], trial: spsa.Trial, names: list[str],
                opening: Opening) -> float:
    """Iteration ``trial.k``'s pair, engine 0 at ``trial.plus`` and 1 at ``trial.minus``:
    the wins minus losses of engine 0."""
    for eng, values in zip(engines, (trial.plus, trial.minus)):
        options = {name: str(v) for name, v in zip(names, values)}
        eng.spec.options.update(options)  # a restarted engine is told them at its start
        if eng.alive:
            for name, value in options.items():
                await eng.send(f"setoption name {name} value {value}")
    score = 0.0
    for number, seat in ((2 * trial.k + 1, (0, 1)), (2 * trial.k + 2, (1, 0))):
        result = await match.play(GameJob(number, trial.k, seat, opening), engines)
        score += result.score(0) - result.score(1)
    if match.aborted:
        raise ExecutionError(match.aborted)
    return score


def _ray_pair(player: PairPlayer, item: tuple[spsa.Trial, list[str], Opening]) -> float:
    return player.loop.run_until_complete(_pair(player.match, player.engines, *item))


class LocalSlots:
    """``n`` game slots of this machine, each with its two engines kept between pairs."""

    def __init__(self, config: MatchConfig, n: int):
        self.match = Match(config, out=open(os.devnull, "w"))
        self.loop = asyncio.new_event_loop()
        # The current loop, as asyncio.run makes it: a child watcher that follows the
        # current loop (set up by other code in this process) then sees the engines exit.
        asyncio.set_event_loop(self.loop)
        self.slots = [self.match.new_engines() for _ in range(n)]

    def play(self, items: list[tuple[spsa.Trial, list[str], Opening]]) -> list[float]:
        async def batch() -> list[float]:
            return list(await asyncio.gather(*(_pair(self.match, engines, *item)
                                               for engines, item in zip(self.slots, items))))

        return self.loop.run_until_complete(batch())

    def close(self) -> None:
        async def close_all() -> None:
            # An interrupted batch leaves its games' tasks behind: end them before the engines.
            left = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in left:
                task.cancel()
            await asyncio.gather(*left, return_exceptions=True)
            await asyncio.gather(*(e.close() for engines in self.slots for e in engines), return_exceptions=True)

        self.loop.run_until_complete(close_all())
        self.loop.close()
        asyncio.set_event_loop(None)


def plot(csv_path: str, out: str, params: list[spsa.Param]) -> None:
    """Each parameter's value over the iterations (its start dashed), one panel each, as PNG."""
    plt = draw.require_matplotlib()
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    x = [0] + [int(row["iteration"]) for row in rows]
    cols = 3
    rows_of_panels = (len(params) + cols - 1) // cols
    fig, axes = plt.subplots(rows_of_panels, cols, figsize=(4 * cols, 2.6 * rows_of_panels), squeeze=False)
    for ax, p in zip(axes.flat, params):
        ax.plot(x, [p.start] + [float(row[p.name]) for row in rows], lw=1)
        ax.axhline(p.start, ls="--", lw=0.8, color="grey")
        ax.set_title(p.name, fontsize=9)
        ax.tick_params(labelsize=7)
        ax.ticklabel_format(axis="y", useOffset=False)
    for ax in list(axes.flat)[len(params):]:
        ax.axis("off")
    fig.supxlabel("iteration", fontsize=9)
    fig.tight_layout()
    # Written whole or not at all: the plot is redrawn while someone may be looking at it.
    tmp = out + ".tmp.png"
    fig.savefig(tmp, dpi=90)
    plt.close(fig)
    os.replace(tmp, out)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    params = game_params(parser, args.param)
    if args.iterations < 1 or not args.r_end > 0 or (args.concurrency is not None and args.concurrency < 1):
        parser.error("--iterations and --concurrency must be at least 1, --r-end above 0")
    if not (args.nodes or args.tc):
        parser.error("give --nodes or --tc")
    if args.plot:
        try:
            draw.require_matplotlib()
        except draw.PlotsUnavailable as e:
            parser.error(str(e))
    tuned = _selected(parser, args.tune, args.r_end)
    names = [p.name for p in tuned]
    began = time.monotonic()
    # Stopped by a signal (a background run's only way), the run ends as on Ctrl-C:
    # engines closed, the state of the last batch kept.
    signal.signal(signal.SIGTERM, _interrupt)
    slots: LocalSlots | None = None
    try:
        game = games.canonical(args.game)
        if games.load(game, **params).value_sum:
            raise ValueError(f"{game} is not searched by alpha-beta between two players")
        rng = random.Random(args.seed)
        openings = load_openings(args.openings, game, plies=args.opening_plies, count=OPENINGS, rng=rng,
                                 warn=lambda text: print(text, file=sys.stderr), params=params)
        rng.shuffle(openings)
        if args.random_plies > 0:
            g = games.load(game, **params)
            openings = [add_random_plies(g, o, args.random_plies, rng) for o in openings]
        base = EngineSpec.parse(args.engine or f"cmd='{sys.executable} -m protocol'")
        specs = [EngineSpec(list(base.argv), name, base.proto, base.dir, dict(base.options), {}, None)
                 for name in ("plus", "minus")]
        limits = Limits(TimeControl.parse(args.tc) if args.tc else None, nodes=args.nodes)
        backend = backend_args.from_args(args)
        # Engines started at low priority on a busy machine may take long to answer:
        # a start that fails would be a forfeit counted as a result.
        config = MatchConfig(game=game, specs=specs, limits=[limits, limits], games=2, params=params,
                             adjudication=Adjudication.parse(args.adjudicate), event="zermelo tune spsa",
                             start_timeout=60.0, ping_timeout=60.0)
        settings = {"game": game, "params": params, "limits": limits.describe(), "openings": args.openings,
                    "random_plies": args.random_plies, "adjudicate": config.adjudication.words()}
        state = spsa.start(args.state, tuned, args.iterations, args.seed, settings)
        if state.done:
            print(f"resuming at iteration {state.done + 1} of {state.iterations}", flush=True)

        def items(trials: list[spsa.Trial]) -> list[tuple[spsa.Trial, list[str], Opening]]:
            return [(t, names, openings[t.k % len(openings)]) for t in trials]

        if backend.is_ray:
            batch = args.concurrency or cluster_cpus(backend)

            def play(trials: list[spsa.Trial]) -> list[float]:
                out: list[Any] = [None] * len(trials)
                for index, score in map_unordered(backend, (PairPlayer, (config,)), _ray_pair, items(trials),
                                                  jobs=batch):
                    out[index] = score
                return out
        else:
            batch = args.concurrency or 1
            slots = LocalSlots(config, batch)
            local = slots

            def play(trials: list[spsa.Trial]) -> list[float]:
                return local.play(items(trials))

        def progress(s: spsa.State) -> None:
            values = " ".join(f"{n} {v:.2f}" for n, v in zip(names, s.theta))
            print(f"iteration {s.done}/{s.iterations}: {values}; {time.monotonic() - began:.0f} s", flush=True)
            if args.plot:
                plot(args.csv, args.plot, tuned)

        state = spsa.run(state, args.state, args.csv, play, batch, on_batch=progress)
    except (ValueError, OSError, ExecutionError) as exc:
        print(f"zermelo tune spsa: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"zermelo tune spsa: interrupted; the state in {args.state} resumes it", file=sys.stderr)
        return 130
    finally:
        if slots is not None:
            slots.close()
    tuned_values = " ".join(f"option.{n}={round(v)}" for n, v in zip(names, state.theta))
    print(f"{state.done} iterations in {time.monotonic() - began:.0f} s; tuned: {tuned_values}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
