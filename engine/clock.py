"""The clock of one ``go``: built once, when the go line arrives, and shared by
everything the go runs.

A go first runs its root oracles and table builds, then searches. Both phases
spend the same clock, stamped with the arrival of the go line (the protocol
passes that time in), as Stockfish's ``TimeManagement`` does with its start
time: what the oracles spend is elapsed time, nothing more. The clock answers:

- the deadline of the work before the search: :attr:`TimeManager.oracle_ms`
  from the start, written to the go's :class:`engine.control.Control`, so that
  a solver or a table build stops there (``control.check()``);
- once :meth:`Clock.begin_search` is called, the hard deadline, on the same
  control (an exact solver called inside the search stops with the search);
- between iterations, whether to start another (:meth:`Clock.stop_iterating`);
- the ponderhit: a ponder go has no budget until then; the ponderhit
  re-stamps the start (:meth:`Clock.restamp`, called by
  :meth:`engine.control.Control.ponderhit` from whichever thread sees it).

The budgets are those of one :class:`engine.timeman.TimeManager`, made here and
nowhere else during a go.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import replace

from engine.control import Control
from engine.timeman import Limits, TimeManager


class Clock:
    """The time of one go (see the module doc).

    >>> clock = Clock(Limits(time=(60_000, 60_000)), turn=0, started=100.0)
    >>> clock.control.deadline, clock.hard_deadline  # the oracles' share, the hard limit
    (101.199, 105.999)
    >>> Clock(Limits(depth=3), turn=0).control.deadline
    inf
    """

    def __init__(self, limits: Limits, turn: int, overhead_ms: int = 10, *,
                 started: float | None = None, control: Control | None = None):
        #: The stop flag and the deadline of the running phase, shared with oracles and solvers.
        self.control = control if control is not None else Control()
        # A ponder go gets its budgets at the ponderhit: they are made without the
        # ponder flag, and apply only once it is cleared.
        tm = TimeManager(replace(limits, ponder=False), turn, overhead_ms)
        #: The budgets, ``None`` when time does not limit the go.
        self.tm: TimeManager | None = tm if tm.timed else None
        #: When the go line arrived (``time.perf_counter()``): reports count from here.
        self.started = time.perf_counter() if started is None else started
        #: Where the budgets count from: the go, or the ponderhit.
        self.start = self.started
        self.pondering = limits.ponder
        #: When the search began (``None`` while oracles and table builds run).
        self.search_start: float | None = None
        #: The search's hard deadline (``math.inf`` untimed or pondering).
        self.hard_deadline = math.inf
        # The ponderhit comes from the reader thread while the worker may begin its
        # search: both re-arm the deadlines under this lock, so neither is lost.
        self._lock = threading.Lock()
        with self._lock:
            self._arm()
        self.control.clock = self
        hit = self.control.ponderhit_at
        if hit is not None:
            self.restamp(hit)

    @property
    def timed(self) -> bool:
        """True when time limits the go (also a ponder go, which is timed from its ponderhit)."""
        return self.tm is not None

    @property
    def exact(self) -> bool:
        """True for ``movetime``: the search uses its whole budget."""
        return self.tm is not None and self.tm.exact

    def _arm(self) -> None:
        """Write the deadlines of the running phase (the lock is held)."""
        tm = self.tm
        if tm is None or self.pondering:
            hard = oracle = math.inf
        else:
            assert tm.hard_ms is not None and tm.oracle_ms is not None  # set with tm.timed
            hard = self.start + tm.hard_ms / 1000
            oracle = min(hard, self.start + tm.oracle_ms / 1000)
        self.hard_deadline = hard
        self.control.deadline = oracle if self.search_start is None else hard

    def begin_search(self) -> None:
        """The oracles are done: from now on the control's deadline is the hard one."""
        with self._lock:
            self.search_start = time.perf_counter()
            self._arm()

    def restamp(self, at: float) -> None:
        """The ponderhit at ``at``: the budgets count from there (once)."""
        with self._lock:
            if not self.pondering:
                return
            self.start = at
            if self.search_start is not None:
                self.search_start = max(self.search_start, at)
            self.pondering = False
            self._arm()

    def scale(self, share: float) -> None:
        """Spend only ``share`` of every budget (a weak level)."""
        if self.tm is not None:
            with self._lock:
                self.tm.scale(share)
                self._arm()

    def elapsed_ms(self) -> float:
        """Milliseconds since the go line (what the ``info`` lines report)."""
        return (time.perf_counter() - self.started) * 1000

    def stop_iterating(self, stable_iterations: int, last_iteration_ms: float, only_move: bool = False) -> bool:
        """Whether to start no further iteration (see :meth:`TimeManager.stop_iterating`).

        ``only_move``: a single legal root move needs no more thought, except under
        ``movetime``. Never while pondering: the move is held until the ponderhit.
        """
        tm = self.tm
        if tm is None or self.pondering:
            return False
        if only_move and not tm.exact:
            return True
        now = time.perf_counter()
        began = self.search_start if self.search_start is not None else self.start
        return tm.stop_iterating((now - self.start) * 1000, stable_iterations, last_iteration_ms,
                                 searched_ms=(now - began) * 1000)

    def until(self, fraction: float) -> float | None:
        """The time (``time.perf_counter()``) when ``fraction`` of the soft budget has
        passed, ``None`` while nothing times the go."""
        tm = self.tm
        if tm is None or tm.soft_ms is None or self.pondering:
            return None
        return self.start + fraction * tm.soft_ms / 1000
