"""A clock simulator: whole time controls played against the real time manager.

No real waiting: time is a float of milliseconds. One move is a search made of
iterations whose durations grow by a random branching factor; the real
:meth:`TimeManager.stop_iterating` decides after each iteration whether to start
another, and the search is aborted at the hard limit. Every move then costs an
abort latency (the checkpoint comes late) and the GUI's lag, and the clock is
kept as a GUI keeps it: the time used is taken off, the increment added, the
control's time added after every ``moves`` moves. On a pondered move the search
starts on the opponent's time; the ``ponderhit`` comes after the opponent's
thinking time, and only the time from it on is charged.

Root oracles (a book, an exact solver) may run before the search, on the same
clock, as :class:`engine.clock.Clock` runs them: they answer nothing within
some part of :attr:`TimeManager.oracle_ms`, or give up at its end (a solver that
cannot finish), and the search then starts where they stopped.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.timeman import Limits, TimeManager

#: The engine's default ``Move Overhead``.
OVERHEAD_MS = 10
#: Latencies (uniform in 0..max): the abort after the hard limit, the GUI's lag.
ABORT_LATENCY_MS, GUI_LAG_MS = 3.0, 2.0
#: The first iteration takes this long (uniform in the range).
FIRST_ITERATION_MS = (0.3, 3.0)
#: Iterations grow by a factor in this range, and by ``SPIKE`` with chance ``SPIKE_CHANCE``.
BRANCHING = (1.5, 6.0)
SPIKE, SPIKE_CHANCE = 15.0, 0.05
#: Chance that an oracle which runs uses its whole share (and gives up at its deadline).
ORACLE_GIVES_UP = 0.5


@dataclass
class Control:
    """``moves``/``base`` + ``inc`` in ms (``moves`` None: sudden death), or a fixed ``movetime``."""

    base: int = 0
    inc: int = 0
    moves: int | None = None
    movetime: int | None = None
    start: int | None = None
    """Clock at the first move (default ``base``)."""


@dataclass
class Move:
    clock: float
    """Before the move."""
    movestogo: int | None
    used: float
    soft: int | None
    ponderhit: bool
    oracle: float = 0.0
    """Time the oracles spent before the search."""
    searched: float = 0.0
    """Time the search itself ran (charged or not)."""
    end: str = ""
    """What ended the search: ``"soft"`` (the soft limit), ``"hard"`` (aborted there, or
    the next iteration would have ended past it), ``"depth"`` (the last iteration)."""


@dataclass
class Game:
    moves: list[Move] = field(default_factory=list)
    clock_at_control: list[float] = field(default_factory=list)
    """Clock left after the last move of each control, before its time is added."""
    min_clock: float = float("inf")
    """Least clock after any move, before increment and control time are added."""


def search(rng: random.Random, tm: TimeManager, start: float, hit: float | None) -> tuple[float, str]:
    """When a search started at ``start`` ends, and what ended it (see :attr:`Move.end`);
    the clock started at 0, oracles ran before ``start``; ``hit`` is the ponderhit
    time (``tm`` runs from it)."""
    clock_start = 0.0 if hit is None else hit
    now, duration, stable = start, rng.uniform(*FIRST_ITERATION_MS), 0
    for _depth in range(64):
        end = now + duration
        if hit is None or end > hit:
            # Timed from clock_start: the search is aborted at the hard limit.
            deadline = clock_start + tm.hard_ms
            if end >= deadline:
                return max(deadline, now) + rng.uniform(0, ABORT_LATENCY_MS), "hard"
        now = end
        stable = stable + 1 if rng.random() < 0.7 else 0
        searched = now - max(start, clock_start)
        if (hit is None or now >= hit) and tm.stop_iterating(now - clock_start, stable, duration,
                                                             searched_ms=searched):
            # Without the prediction of the next iteration, only the soft limit stops.
            soft = tm.stop_iterating(now - clock_start, stable, 0.0, searched_ms=searched)
            return now, "soft" if soft and now - clock_start < tm.hard_ms else "hard"
        duration *= SPIKE if rng.random() < SPIKE_CHANCE else rng.uniform(*BRANCHING)
    return now, "depth"


def oracles(rng: random.Random, tm: TimeManager) -> float:
    """Time the oracles spend without an answer: some of their share, or all of it
    and the latency of a late check."""
    if tm.oracle_ms is None:
        return 0.0
    if rng.random() < ORACLE_GIVES_UP:
        return tm.oracle_ms + rng.uniform(0, ABORT_LATENCY_MS)
    return rng.uniform(0, tm.oracle_ms)


def play(control: Control, n_moves: int, seed: int, ponder_chance: float = 0.0, oracle_chance: float = 0.0) -> Game:
    """One side's clock through ``n_moves`` moves; the opponent mirrors the clock.
    With ``oracle_chance``, oracles run before an unpondered move's search."""
    rng = random.Random(seed)
    clock = float(control.base if control.start is None else control.start)
    game = Game()
    for moved in range(n_moves):
        mtg = control.moves - moved % control.moves if control.moves else None
        has_clock = control.base or control.inc
        own = max(1, round(clock)) if has_clock else None
        limits = Limits(time=(own, own), inc=(control.inc, control.inc), movestogo=mtg,
                        movetime=control.movetime)
        tm = TimeManager(limits, turn=0, overhead_ms=OVERHEAD_MS)
        pondered = rng.random() < ponder_chance
        oracle = 0.0
        if pondered:
            # The ponder search has run for the opponent's thinking time when the hit comes.
            hit = rng.uniform(0, 2 * (clock / (mtg or 30) if has_clock else control.movetime))
            ended, end = search(rng, tm, 0.0, hit)
            used = searched = ended - hit
        else:
            if rng.random() < oracle_chance:
                oracle = oracles(rng, tm)
            used, end = search(rng, tm, oracle, None)
            searched = used - oracle
        used = max(0.0, used) + rng.uniform(0, GUI_LAG_MS)
        game.moves.append(Move(clock, mtg, used, tm.soft_ms, pondered, oracle, searched, end))
        clock -= used
        game.min_clock = min(game.min_clock, clock)
        if control.moves and (moved + 1) % control.moves == 0:
            game.clock_at_control.append(clock)
        clock += control.inc
        if control.moves and (moved + 1) % control.moves == 0:
            clock += control.base
    return game
