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


@dataclass
class Game:
    moves: list[Move] = field(default_factory=list)
    clock_at_control: list[float] = field(default_factory=list)
    """Clock left after the last move of each control, before its time is added."""
    min_clock: float = float("inf")
    """Least clock after any move, before increment and control time are added."""


def search(rng: random.Random, tm: TimeManager, start: float, hit: float | None) -> float:
    """When a search started at 0 ends; ``hit`` is the ponderhit time (``tm`` runs from it)."""
    clock_start = 0.0 if hit is None else hit
    now, duration, stable = 0.0, rng.uniform(*FIRST_ITERATION_MS), 0
    for _depth in range(64):
        end = now + duration
        if hit is None or end > hit:
            # Timed from clock_start: the search is aborted at the hard limit.
            deadline = clock_start + tm.hard_ms
            if end >= deadline:
                return max(deadline, now) + rng.uniform(0, ABORT_LATENCY_MS)
        now = end
        stable = stable + 1 if rng.random() < 0.7 else 0
        if (hit is None or now >= hit) and tm.stop_iterating(now - clock_start, stable, duration):
            return now
        duration *= SPIKE if rng.random() < SPIKE_CHANCE else rng.uniform(*BRANCHING)
    return now


def play(control: Control, n_moves: int, seed: int, ponder_chance: float = 0.0) -> Game:
    """One side's clock through ``n_moves`` moves; the opponent mirrors the clock."""
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
        if pondered:
            # The ponder search has run for the opponent's thinking time when the hit comes.
            hit = rng.uniform(0, 2 * (clock / (mtg or 30) if has_clock else control.movetime))
            used = search(rng, tm, 0.0, hit) - hit
        else:
            used = search(rng, tm, 0.0, None)
        used = max(0.0, used) + rng.uniform(0, GUI_LAG_MS)
        game.moves.append(Move(clock, mtg, used, tm.soft_ms, pondered))
        clock -= used
        game.min_clock = min(game.min_clock, clock)
        if control.moves and (moved + 1) % control.moves == 0:
            game.clock_at_control.append(clock)
        clock += control.inc
        if control.moves and (moved + 1) % control.moves == 0:
            clock += control.base
    return game
