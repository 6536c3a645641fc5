"""The stop flag and clock of one ``go``, shared by everything it runs.

A ``go`` runs root oracles (book, mate prover, exact solvers), may build tables on
first use, and then searches. All of them look at the same :class:`Control`, so a
``stop`` or ``ponderhit`` reaches whichever part is running, including one that
has not started yet: the flags are set on the control, never on a running
object, and nothing clears them. The go's :class:`engine.clock.Clock` owns the
deadline: it writes it when the go starts, when the search starts and at the
ponderhit, and nothing else does.
"""

from __future__ import annotations

import math
import time
from typing import Protocol


class Restamped(Protocol):
    """What a control tells of the ponderhit: the go's clock (:class:`engine.clock.Clock`)."""

    def restamp(self, at: float) -> None: ...


class Stopped(Exception):
    """Raised by :meth:`Control.check` (and long computations) when their time is up."""


class Control:
    """Stop request, ponderhit time and deadline of one piece of work.

    ``deadline`` (a ``time.perf_counter()`` value) bounds the work of the current
    phase: before the search proper, the oracles and table builds; once the search
    runs, it holds the search's hard limit, so that an exact solver called inside
    the search (:meth:`check`) stops with it. Attributes are plain values, written
    by one thread and read by another: each write is atomic.
    """

    __slots__ = ("stopped", "ponderhit_at", "deadline", "clock", "check_every", "checked_at")

    def __init__(self, deadline: float = math.inf):
        self.stopped = False
        #: ``time.perf_counter()`` of the ponderhit, ``None`` before it.
        self.ponderhit_at: float | None = None
        self.deadline = deadline
        #: The go's clock (:class:`engine.clock.Clock`), which sets ``deadline``; ``None``
        #: for work timed by nothing but its fixed deadline.
        self.clock: Restamped | None = None
        #: Nodes between a search's looks at this control, and when it last looked:
        #: :func:`engine.driver.checkpoint` adapts the one by the other.
        self.check_every = 1
        self.checked_at = 0.0

    def stop(self) -> None:
        self.stopped = True

    def ponderhit(self) -> float:
        """Record the ponderhit now, and return its time: the clock re-stamps at once,
        so whatever runs (a table build, the search) is timed from here."""
        at = self.ponderhit_at = time.perf_counter()
        clock = self.clock
        if clock is not None:
            clock.restamp(at)
        return at

    def expired(self) -> bool:
        """True once stopped or past the deadline."""
        return self.stopped or time.perf_counter() >= self.deadline

    def check(self) -> None:
        """Raise :class:`Stopped` once :meth:`expired`."""
        if self.stopped or time.perf_counter() >= self.deadline:
            raise Stopped

