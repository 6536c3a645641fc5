"""A match on a Ray cluster: game pairs as tasks, statistics and records here.

The unit of work is a pair of games from one opening, one with each colour, so the
pentanomial statistics stay exact whichever workers played. Each Ray worker
process keeps a :class:`PairPlayer` (its two engine processes and an event loop)
for the pairs it is given, and sends back the pair's two results. The coordinator
(:func:`run`) counts them, writes the records and prints the progress lines as the
local match does; when the SPRT decides, the pairs not yet done are cancelled. A
pair whose worker or node dies is played again from its start, so each game is
counted once. Before the first pair, every node is asked whether it has the
engines' programs.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import shutil
import socket

from engine.execution import Backend, ExecutionError, cluster_cpus, map_unordered, on_each_node
from protocol.match.process import EngineSpec
from protocol.match.runner import GameJob, GameResult, Match, MatchConfig


def missing_programs(specs: list[EngineSpec]) -> list[str]:
    """What keeps the engines of ``specs`` from starting on this machine (empty: nothing)."""
    problems = []
    for spec in specs:
        if spec.dir is not None and not os.path.isdir(spec.dir):
            problems.append(f"{spec.name}: no directory {spec.dir}")
            continue
        program = spec.argv[0]
        if os.sep in program:
            path = os.path.join(spec.dir or os.getcwd(), program)
            found = os.access(path, os.X_OK)
        else:
            found = shutil.which(program) is not None
        if not found:
            problems.append(f"{spec.name}: no program {program!r}")
        elif len(spec.argv) > 1 and spec.argv[1].endswith(".py") and \
                not os.path.exists(os.path.join(spec.dir or os.getcwd(), spec.argv[1])):
            # A script given to an interpreter: the commonest engine spec of a test setup.
            problems.append(f"{spec.name}: no script {spec.argv[1]!r}")
    return [f"{socket.gethostname()}: {p}" for p in problems]


class PairPlayer:
    """The engines of one worker process, kept from pair to pair as a local game
    slot keeps them; plays with the match runner's own referee."""

    def __init__(self, config: MatchConfig):
        self.match = Match(config, out=open(os.devnull, "w"))
        self.loop = asyncio.new_event_loop()
        self.engines = self.match.new_engines()

    def play(self, jobs: list[GameJob]) -> tuple[list[GameResult], list[dict], str | None]:
        """The pair's results, the least clocks left, and why the match must stop (if so)."""
        self.match.clock_left = [{}, {}]

        async def both() -> list[GameResult]:
            return [await self.match.play(job, self.engines) for job in jobs]

        results = self.loop.run_until_complete(both())
        return results, self.match.clock_left, self.match.aborted

    def close(self) -> None:
        self.loop.run_until_complete(asyncio.gather(*(e.close() for e in self.engines),
                                                    return_exceptions=True))
        self.loop.close()


def play_pair(player: PairPlayer, jobs: list[GameJob]):
    return player.play(jobs)


def run(match: Match) -> list[GameResult]:
    """Play ``match`` on its Ray backend; returns its results as :meth:`Match.run` does."""
    cfg = match.cfg
    problems = [p for found in on_each_node(cfg.backend, missing_programs, cfg.specs).values() for p in found]
    if problems:
        raise ExecutionError("engines missing on the workers: " + "; ".join(problems))
    match.open_records()
    pairs: dict[int, list[GameJob]] = {}
    for job in match._jobs:
        pairs.setdefault(job.pair, []).append(job)
    work = list(pairs.values())
    # What the workers need: the rules and the engines; records, logs and the backend stay here.
    shipped = dataclasses.replace(cfg, records=None, log=None, backend=Backend(), resume=False, sprt=None)
    jobs = cfg.concurrency or cluster_cpus(cfg.backend)

    def rescheduled(index: int, why: str) -> None:
        match.rescheduled += 1
        match.print(f"pair {work[index][0].pair + 1}: its worker was lost ({why}); played again")

    results = map_unordered(cfg.backend, (PairPlayer, (shipped,)), play_pair, work, jobs=jobs,
                            on_reschedule=rescheduled)
    try:
        for _, (games, clock_left, aborted) in results:
            for result in games:
                match._finish(result)
            for engine, left in enumerate(clock_left):
                for key, value in left.items():
                    best = match.clock_left[engine].get(key)
                    match.clock_left[engine][key] = value if best is None else min(best, value)
            if aborted:
                match.aborted = aborted
            if match.sprt_decision is not None or match.aborted:
                break
    finally:
        # Closing drops the pairs not done: cancelled before they start, or stopped.
        results.close()
        if match._records_file:
            match._records_file.close()
    return match.results
