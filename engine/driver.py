"""Iterative deepening, once for every tree search.

The driver runs one search: it starts the search phase of the go's
:class:`engine.clock.Clock`, asks a *strategy* for one iteration's root result
at a time, reports each completed iteration, decides between iterations
whether to go deeper (the strategy's own reasons first, a settled score or a
tree searched to its end, then the clock), and unwinds an abort (stop, the
hard deadline, the node limit): the moves still pushed are popped and the
unfinished iteration's best line is used as the strategy sees fit.

A strategy is a *worker*: the state one thread needs to search (the position,
killers, history, the principal-variation stack, its node counters) and the
tree functions over it. What workers share is handed to them: the
transposition table (``tt``, given at construction) and the go's control (the
stop flag and the deadline, :attr:`Strategy.control`, set for each search). The
strategies are the two-player PVS alpha-beta (:class:`engine.search.Searcher`)
and the N-player max^n, paranoid and best-reply searches
(:class:`engine.multiplayer.MultiplayerSearcher`); a Monte-Carlo search would
be one more, its iteration a batch of playouts.

Lazy SMP (``Threads``): helper workers in other processes (:mod:`engine.smp`)
search the same root over the same table at the same time, each with its own
move-ordering state. A helper (``helper=i``) skips some depths, by Stockfish's
skip pattern, so that the workers spread over depths; it ignores the clock and
ends only when stopped or at its last depth. The main worker finds the helpers'
results in the table and reports; once it ends, its caller's ``conclude`` stops
the helpers and picks the line to play among every worker's last completed
iteration.

The search never prints: reports go to the caller's ``on_info``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Protocol

from engine.clock import Clock
from engine.control import Control
from engine.game import NO_MOVE, Game
from engine.game import Position as GamePosition
from engine.switch import switch_point
from engine.timeman import Limits
from engine.tt import TranspositionTable

#: Nodes between two looks at the stop flag, the node limit and the deadline, at most;
#: fewer where nodes are slow (see :func:`checkpoint`).
CHECK_EVERY = 128
#: The time between two looks that :func:`checkpoint` aims at, seconds.
CHECK_GAP = 0.002

# Lazy SMP's depth skipping (Stockfish 9): helper i skips iteration d when
# (d + ply + phase) // size is odd, with size and phase the (i - 1) % 20-th entries.
_SKIP_SIZE = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4)
_SKIP_PHASE = (0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7)


def skips(helper: int, depth: int, ply: int) -> bool:
    """Whether helper ``helper`` (1, 2, ...) skips the iteration to ``depth`` at game ply ``ply``."""
    i = (helper - 1) % len(_SKIP_SIZE)
    return (depth + ply + _SKIP_PHASE[i]) // _SKIP_SIZE[i] % 2 == 1


@dataclass
class Info:
    """One search report (per completed iteration, aspiration failure, and at the end)."""

    depth: int
    seldepth: int
    multipv: int
    """1-based index of the line."""
    score: int
    """Internal score from the side to move's view (see the mate helpers in :mod:`engine.game`)."""
    bound: str | None
    """``"lower"``/``"upper"`` when an aspiration window failed, else ``None``."""
    nodes: int
    time_ms: int
    """Milliseconds since the go line arrived."""
    nps: int
    hashfull: int
    """Per mille of the transposition table used by this search."""
    tbhits: int
    pv: list[int]


@dataclass
class SearchResult:
    best: int | None
    """The move to play; ``None`` only when there is no legal move."""
    ponder: int | None
    score: int
    depth: int
    pv: list[int]
    nodes: int


@dataclass(frozen=True)
class TableHook:
    """A game's exact knowledge as one search uses it, handed to the strategy at each
    search (:meth:`Strategy.begin`) so that no other game's hook can outlive its go.

    ``probe(pos)`` answers at interior nodes from ``depth`` plies of remaining depth
    on (see :attr:`engine.search.Searcher.tb_probe`); ``report(root, pv, score)``
    runs a reported margin score's line to the game's end (``tb_report``)."""

    probe: Callable[[GamePosition], int | None] | None = None
    depth: int = 1
    report: Callable[[GamePosition, list[int], int], tuple[int, list[int]] | None] | None = None


#: No exact knowledge: what a search without a table hook is given.
NO_TABLES = TableHook()


class SearchAborted(Exception):
    """Raised at a node entry to unwind the tree; ``ply`` moves are still pushed."""

    def __init__(self, ply: int):
        super().__init__(ply)
        self.ply = ply


@dataclass
class Line:
    """One root line: its score (the root mover's), its moves and, for N players, the
    value vector where it ends (empty until known)."""

    score: int
    pv: list[int]
    vector: tuple[int, ...] = ()


#: ``report(depth, index, line, bound)``: what a strategy calls for an aspiration failure.
Report = Callable[[int, int, Line, "str | None"], None]


class Strategy(Protocol):
    """A worker's tree search, as the driver calls it."""

    tt: TranspositionTable
    #: The go's stop flag and deadline, set by the driver before :meth:`begin`.
    control: Control
    nodes: int
    seldepth: int
    tbhits: int
    node_limit: int
    next_check: int
    #: The root moves, in the order the next iteration searches them.
    root_moves: list[int]

    def begin(self, game: Game, pos: GamePosition, limits: Limits, tables: TableHook) -> int:
        """Get ready to search ``pos`` (counters, table generation, root moves, the
        table hook ``tables``); returns the deepest iteration allowed."""

    def first_lines(self) -> list[Line]:
        """The answer before any iteration completes."""

    def iterate(self, depth: int, multipv: int, lines: list[Line] | None, report: Report) -> list[Line]:
        """One complete iteration to ``depth``: its ``multipv`` lines, best first.
        ``lines`` are the previous iteration's (``None`` before the first). Raises
        :class:`SearchAborted` when the search must end."""

    def salvage(self, lines: list[Line], completed: int) -> list[Line]:
        """After an abort: ``lines`` (of the last completed iteration, ``completed``
        deep) improved by the best line of the unfinished one, where trusted."""

    def settled(self, depth: int, line: Line, limits: Limits) -> bool:
        """Whether deeper iterations cannot change the answer (a mate within the
        ``go mate`` bound, a proven score, a tree searched to its end)."""

    def finish(self, line: Line) -> Line:
        """``line`` as reported and played (a legal line, its vector known)."""

    def info(self, fields: dict, line: Line) -> Info:
        """The report of ``line`` from the common ``fields`` of :class:`Info`."""

    def ponder_move(self, pv: list[int]) -> int | None:
        """The expected reply to the best line's first move."""


def checkpoint(worker: Strategy, ply: int) -> int:
    """Every few nodes of ``worker`` (``CHECK_EVERY`` at most): honour the node limit, stop and the
    deadline (the clock moves it at the ponderhit), by raising :class:`SearchAborted`."""
    # Compiled nodes never reach the interpreter's switch check: offer the GIL
    # here, so that the protocol reader answers while the search runs.
    switch_point()
    if worker.nodes > worker.node_limit:
        worker.nodes -= 1  # this node is not searched
        raise SearchAborted(ply)
    control = worker.control
    now = time.perf_counter()
    if control.stopped or now >= control.deadline:
        raise SearchAborted(ply)
    # A look every CHECK_GAP seconds whatever a node costs: 128 nodes of a slow game in
    # the pure build take a tenth of a second, which a stop would wait for. The
    # interval halves after a long gap and doubles after a short one.
    every, gap = control.check_every, now - control.checked_at
    if gap > CHECK_GAP:
        every = max(1, every >> 1)
    elif gap < CHECK_GAP / 4:
        every = min(CHECK_EVERY, every << 1)
    control.check_every, control.checked_at = every, now
    worker.next_check = min(worker.nodes + every, worker.node_limit + 1)
    return 0


def search(worker: Strategy, game: Game, pos: GamePosition, limits: Limits, *, multipv: int = 1,
           on_info: Callable[[Info], None] | None = None, clock: Clock | None = None,
           control: Control | None = None, move_overhead_ms: int = 10, helper: int = 0,
           ply: int = 0, conclude: Callable[[int, Line], tuple[int, Line]] | None = None,
           tables: TableHook = NO_TABLES) -> SearchResult:
    """Search ``pos`` with ``worker`` within ``limits``; blocks, and leaves ``pos`` unchanged.

    ``clock`` is the go's; a search run on its own (tools, tests) gets one made from
    ``limits``, ``control`` and ``move_overhead_ms``. Reports through ``on_info``
    after every completed iteration (one :class:`Info` per line), after every
    aspiration failure (with ``bound``), and once at the end. Returns a legal
    best move even when stopped before the first iteration finished. Ponder and
    infinite searches may return early (a mate found, the depth limit): the caller
    holds the move until ``stop`` or ``ponderhit``.

    ``helper`` > 0 searches as Lazy SMP's helper of that number, ``ply`` being the
    game's ply (the skip pattern's phase): not timed, deepening until ``control``
    is stopped or the depth limit is reached. ``conclude(depth, line)``, called once
    the search ends, before the final report, with the completed depth and the best
    line, returns the depth and the line to report and play instead (Lazy SMP's main
    worker stops its helpers there and may answer a deeper iteration of theirs).
    ``tables`` is the game's exact knowledge for this search (none by default).
    """
    if clock is None:
        clock = Clock(limits, pos.turn, move_overhead_ms, control=control)
    if not helper:
        clock.begin_search()
    worker.control = clock.control
    max_depth = worker.begin(game, pos, limits, tables)
    root = worker.root_moves
    if not root:
        return SearchResult(None, None, 0, 0, [], 0)
    multipv = min(max(1, multipv), len(root))

    def report(depth: int, index: int, line: Line, bound: str | None) -> None:
        if on_info is None:
            return
        ms = int(clock.elapsed_ms())
        fields = dict(depth=depth, seldepth=max(worker.seldepth, depth), multipv=index + 1, score=line.score,
                      bound=bound, nodes=worker.nodes, time_ms=ms, nps=worker.nodes * 1000 // max(ms, 1),
                      hashfull=worker.tt.hashfull(), tbhits=worker.tbhits, pv=list(line.pv))
        on_info(worker.info(fields, line))

    lines = worker.first_lines()
    completed, stable, prev_best = 0, 0, NO_MOVE
    iteration_start = time.perf_counter()
    try:
        for depth in range(1, max_depth + 1):
            # Stopped before an iteration (a stop during the root oracles): answer now, as
            # the first checkpoint comes only after iterations of a hundred nodes.
            if worker.control.stopped:
                raise SearchAborted(0)
            # A helper's last depth is searched whatever the pattern: it ends there.
            if helper and depth < max_depth and skips(helper, depth, ply):
                continue
            lines = worker.iterate(depth, multipv, lines if completed else None, report)
            completed = depth
            best = lines[0].pv[0]
            stable = stable + 1 if best == prev_best else 0
            prev_best = best
            for index, line in enumerate(lines):
                report(depth, index, worker.finish(line), None)
            now = time.perf_counter()
            iteration_ms, iteration_start = (now - iteration_start) * 1000, now
            if worker.settled(depth, lines[0], limits):
                break
            if not helper and clock.stop_iterating(stable, iteration_ms, only_move=len(root) == 1):
                break
    except SearchAborted as abort:
        for _ in range(abort.ply):
            pos.pop()
        lines = worker.salvage(lines, completed)
    lines = [worker.finish(line) for line in lines]
    if conclude is not None:
        completed, best_line = conclude(completed, lines[0])
        lines[0] = worker.finish(best_line)
    for index, line in enumerate(lines):
        report(completed, index, line, None)
    best_line = lines[0]
    pv = best_line.pv
    return SearchResult(pv[0], worker.ponder_move(pv), best_line.score, completed, pv, worker.nodes)
