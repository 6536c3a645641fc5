"""Search limits and time allocation.

:class:`Limits` carries everything a ``go`` command can ask for, built here once
from what each dialect parsed (:func:`uci_limits`, :func:`gtp_limits`). :class:`TimeManager`
turns the clock of the side to move into two budgets, in the manner of Ethereal
and Weiss:

- the *soft* limit, checked between iterations: no new iteration starts after it
  (scaled by how stable the best move has been), and none starts when it would
  probably not finish before the hard limit;
- the *hard* limit, checked inside the search: the search is aborted there.

Both are measured from the moment the clock started (the ``go``, or the
``ponderhit`` of a ponder search) and never exceed the time left on the clock
minus the move overhead. The work before the search (root oracles, table builds)
runs on the same clock, within :attr:`TimeManager.oracle_ms`; whatever it spends
is elapsed time, and the search after it is still owed a share of the soft budget.
:class:`engine.clock.Clock` applies these budgets to the real time of one ``go``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

#: Sudden death: the remaining time is treated as this many moves, each increment
#: counted this many times over (as Ethereal does).
_HORIZON_MOVES = 50
_INC_WEIGHT = 20
#: Sudden death: ratio of the soft and hard budgets to the per-move share.
_SOFT_SHARE, _HARD_SHARE = 2.0, 5.0
#: With movestogo the share is even (the pool over the moves to go); the soft limit
#: is that share, the hard limit this many shares.
_MTG_SOFT, _MTG_HARD = 1.0, 2.0
#: The hard limit keeps, for each further move of the horizon (the moves to go,
#: or the sudden-death horizon), the move overhead plus this fraction of the share
#: (less the increment): whatever one move overruns, the later ones still get time.
_MIN_SHARE = 0.5
#: The increment is fully credited only while the clock holds this many of them:
#: below, spending less than the increment rebuilds a reserve against lag spikes.
_INC_RESERVE = 10
#: The hard limit spends at most this fraction of the usable clock, so that a late
#: abort and a delayed reply still fit on a loaded machine.
_HARD_CLOCK_FRACTION = 0.5
#: The next iteration is expected to take this many times as long as the last one;
#: an iteration that would end past the hard limit is not started. Before a control
#: the prediction is more cautious: an overrun there is paid by the last moves.
_BRANCHING, _MTG_BRANCHING = 3.0, 5.0
#: Root oracles and table builds get this fraction of the soft budget: a solver that
#: gives up has spent no more than half of what the move was meant to take.
_ORACLE_SHARE = 0.5
#: The search after the oracles is not stopped by the soft limit before it has had
#: this fraction of the soft budget itself. With the oracles' share, a move then
#: takes at most the soft budget, inside the 0.7-1.3 range stability gives it anyway.
_SEARCH_FLOOR = 0.5


@dataclass
class Limits:
    """What a ``go`` asks for; unset fields do not limit the search."""

    time: tuple[int | None, ...] = (None, None)
    """Milliseconds on each player's clock, indexed by player number (0 moves first);
    one per player, so more than two in a game of more than two players."""
    inc: tuple[int, ...] = (0, 0)
    """Increment per move in milliseconds, per player."""
    movestogo: int | None = None
    movetime: int | None = None
    """Search exactly this many milliseconds."""
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None
    """Stop once a mate in at most this many moves is found."""
    infinite: bool = False
    ponder: bool = False
    searchmoves: list[int] | None = None
    """Restrict the root to these moves."""


#: UGI's clocks of the K-th mover: ``p1time`` … ``pNtime``, ``p1inc`` … ``pNinc``.
PLAYER_CLOCK = re.compile(r"p([1-9][0-9]?)(time|inc)")


def uci_limits(ints: Mapping[str, int], players: int, clock_players: tuple[int, int], *,
               infinite: bool = False, ponder: bool = False, searchmoves: list[int] | None = None) -> Limits:
    """The limits of a UCI/UGI ``go`` from its numbers (``wtime``, ``movestogo``, ``p2inc``, ...,
    already in range): ``wtime``/``btime`` are the clocks of the two players
    ``clock_players`` names (the engine's ``clock_players()``), ``pKtime`` the K-th mover's
    of ``players``."""
    white, black = clock_players
    time: list[int | None] = [None] * players
    inc = [0] * players
    for key, player in (("wtime", white), ("btime", black)):
        if key in ints:
            time[player] = ints[key]
    for key, player in (("winc", white), ("binc", black)):
        if key in ints:
            inc[player] = ints[key]
    for key, value in ints.items():
        m = PLAYER_CLOCK.fullmatch(key)
        if m is not None and int(m.group(1)) <= players:
            (time if m.group(2) == "time" else inc)[int(m.group(1)) - 1] = value
    return Limits(time=tuple(time), inc=tuple(inc),
                  movestogo=ints.get("movestogo") or None, movetime=ints.get("movetime"),
                  depth=ints.get("depth"), nodes=ints.get("nodes"), mate=ints.get("mate"),
                  infinite=infinite, ponder=ponder, searchmoves=searchmoves)


@dataclass(frozen=True)
class GtpClock:
    """A GTP time control in milliseconds: ``main`` time, then byo-yomi ``period``:
    Canadian (``time_settings``), ``stones`` to play in each period; Japanese
    (``kgs-time_settings byoyomi``), ``stones`` periods of ``period`` each, a move that
    ends within its period keeping it. ``period`` 0 is absolute time; Canadian
    ``stones`` 0 with a ``period`` is GTP's "no time limits"."""

    main: int
    period: int
    stones: int
    japanese: bool = False

    @property
    def unlimited(self) -> bool:
        return not self.japanese and self.period > 0 and self.stones == 0


def gtp_limits(colour: int, clock: GtpClock | None, left: tuple[int, int] | None, movetime: int) -> Limits:
    """The limits of a GTP ``genmove`` for ``colour`` (0 Black): ``clock`` from
    ``time_settings`` (or KGS's ``kgs-time_settings``), ``left`` the last ``time_left``
    (milliseconds, and the stones (Canadian) or periods (Japanese) left in byo-yomi; 0
    in main time); ``movetime`` a move's time when there is no clock.

    Absolute time is the sudden death of :class:`TimeManager`. Byo-yomi time not spent
    is lost, so a move there gets its share of the period, all of it (``movetime``), less
    a margin for the reply to arrive in time (:func:`byo_yomi_budget`): Canadian, the
    time left over the stones left; Japanese, the period's time. In main time before
    byo-yomi, a move gets a share of the main time left plus what a byo-yomi move would
    get: when the main time runs short, the period carries the move.

    >>> gtp_limits(0, GtpClock(0, 2_000, 1), (2_000, 1), 1000).movetime  # 2 s a move
    1800
    >>> gtp_limits(1, GtpClock(600_000, 30_000, 5), (20_000, 4), 1000).movetime  # 20 s for 4 stones
    4650
    >>> gtp_limits(0, GtpClock(600_000, 30_000, 5), (1_000, 0), 1000).movetime  # main time nearly out
    5619
    >>> gtp_limits(0, GtpClock(300_000, 0, 0), (42_000, 0), 1000).time  # absolute: the clock
    (42000, None)
    """
    if clock is not None and clock.unlimited:
        return Limits(movetime=movetime)
    if left is None:
        if clock is None:
            return Limits(movetime=movetime)
        left = (clock.main, 0) if clock.main > 0 else (clock.period, clock.stones)
    ms, in_byo_yomi = left
    if clock is None or clock.period == 0:
        times: list[int | None] = [None, None]
        times[colour] = ms
        return Limits(time=tuple(times))
    if in_byo_yomi > 0:
        share = ms if clock.japanese else ms // in_byo_yomi
        return Limits(movetime=byo_yomi_budget(share))
    per_move = clock.period if clock.japanese else clock.period // max(1, clock.stones)
    return Limits(movetime=byo_yomi_budget(ms // _HORIZON_MOVES + per_move))


#: What a byo-yomi move keeps back of its share: this many milliseconds and this
#: fraction, for the reply to reach the controller before the period ends.
_BYO_YOMI_MARGIN_MS, _BYO_YOMI_MARGIN_SHARE = 100, 0.05


def byo_yomi_budget(share_ms: int) -> int:
    """The milliseconds a move spends of a byo-yomi share: the share less the margin,
    never less than half the share.

    >>> byo_yomi_budget(2_000), byo_yomi_budget(30_000), byo_yomi_budget(100)
    (1800, 28400, 50)
    """
    margin = min(_BYO_YOMI_MARGIN_MS + _BYO_YOMI_MARGIN_SHARE * share_ms, share_ms / 2)
    return max(1, int(share_ms - margin))


class TimeManager:
    """Soft and hard time budgets (in milliseconds) for one move.

    ``soft_ms``/``hard_ms`` are ``None`` when time does not limit the search
    (no clock, infinite analysis, or a ponder search before ``ponderhit``).

    >>> tm = TimeManager(Limits(time=(10_000, 10_000), inc=(100, 100)), turn=0, overhead_ms=10)
    >>> tm.soft_ms, tm.hard_ms
    (479, 1199)
    >>> tm = TimeManager(Limits(time=(120_000, 120_000), movestogo=40), turn=0, overhead_ms=10)
    >>> tm.soft_ms, tm.hard_ms  # the even share of 40/2min, and two shares
    (2989, 5979)
    >>> TimeManager(Limits(movetime=500), turn=1, overhead_ms=10).hard_ms
    490
    """

    def __init__(self, limits: Limits, turn: int, overhead_ms: int = 10):
        self.soft_ms: int | None = None
        self.hard_ms: int | None = None
        #: True for ``movetime``: use the whole budget, never stop between iterations early.
        self.exact = False
        self.branching = _BRANCHING
        #: Budget of the work before the search (oracles, table builds); ``None`` untimed.
        self.oracle_ms: int | None = None
        if limits.infinite or limits.ponder:
            return
        overhead = max(0, overhead_ms)
        clock = limits.time[turn] if turn < len(limits.time) else None
        if clock is not None:
            inc: float = max(0, limits.inc[turn] if turn < len(limits.inc) else 0)
            usable = max(1, clock - overhead)
            if inc:
                inc = inc * min(1.0, usable / (_INC_RESERVE * inc))
            mtg = limits.movestogo
            if mtg is not None and mtg > 0:
                # Every move to go costs an overhead; the rest is shared evenly.
                horizon = mtg
                share = max(1.0, clock - (mtg + 1) * overhead) / mtg + inc
                soft, hard = _MTG_SOFT * share, _MTG_HARD * share
                self.branching = _MTG_BRANCHING
            else:
                horizon = _HORIZON_MOVES
                share = (usable + _INC_WEIGHT * inc) / _HORIZON_MOVES
                soft, hard = _SOFT_SHARE * share, _HARD_SHARE * share
            # The moves after this one are each owed an overhead and a minimum, less
            # the increment they bring.
            reserve = (horizon - 1) * max(0.0, overhead + _MIN_SHARE * share - inc)
            hard = min(hard, usable - reserve, _HARD_CLOCK_FRACTION * usable)
            soft = min(soft, hard)
            self.soft_ms, self.hard_ms = max(1, int(soft)), max(1, int(hard))
        if limits.movetime is not None:
            budget = max(1, limits.movetime - overhead)
            if self.hard_ms is None or budget <= self.hard_ms:
                self.soft_ms = self.hard_ms = budget
                self.exact = True
        if self.soft_ms is not None:
            self.oracle_ms = max(1, int(_ORACLE_SHARE * self.soft_ms))

    def scale(self, share: float) -> None:
        """Keep ``share`` (0..1] of every budget: a weak level spends part of its clock."""
        if self.soft_ms is not None and self.hard_ms is not None and self.oracle_ms is not None:
            self.soft_ms = max(1, int(self.soft_ms * share))
            self.hard_ms = max(1, int(self.hard_ms * share))
            self.oracle_ms = max(1, int(self.oracle_ms * share))

    @property
    def timed(self) -> bool:
        """True if time limits this search."""
        return self.hard_ms is not None

    def stop_iterating(self, elapsed_ms: float, stable_iterations: int, last_iteration_ms: float = 0.0,
                       searched_ms: float | None = None) -> bool:
        """Whether to start no further iteration after one that ended at ``elapsed_ms``.

        ``stable_iterations`` counts the consecutive completed iterations whose
        best move did not change: a stable best move shrinks the soft budget (down
        to 0.7 of it), a fresh one stretches it (up to 1.3). ``last_iteration_ms``,
        the duration of the iteration just completed, predicts the next one.
        ``searched_ms`` is the part of ``elapsed_ms`` the search itself has run (less
        when oracles ran first): the soft limit waits until it reaches half the
        soft budget.

        >>> tm = TimeManager(Limits(time=(60_000, 60_000)), turn=0)
        >>> tm.soft_ms, tm.oracle_ms
        (2399, 1199)
        >>> tm.stop_iterating(2000, 9), tm.stop_iterating(2000, 9, searched_ms=800)
        (True, False)
        """
        if self.hard_ms is None or self.soft_ms is None:  # both are set together
            return False
        if elapsed_ms >= self.hard_ms:
            return True
        if self.exact:
            return False
        scale = max(0.7, 1.3 - 0.1 * stable_iterations)
        searched = elapsed_ms if searched_ms is None else searched_ms
        if elapsed_ms >= self.soft_ms * scale and searched >= _SEARCH_FLOOR * self.soft_ms:
            return True
        return elapsed_ms + self.branching * last_iteration_ms > self.hard_ms
