"""The game-agnostic search: iterative deepening over a PVS negamax with quiescence.

The search sees a game only through :mod:`engine.game`: moves are ints, values
are from the side to move's view, and a score is negated only when ``turn``
changed after ``push`` (a Kalah extra turn keeps the same side, so its child is
searched with the same window, un-negated).

Techniques, all standard: aspiration windows around the previous iteration's
score; a transposition table (:mod:`engine.tt`); quiescence on
``noisy_moves()`` with stand-pat; check extension; null-move pruning (only for
games that declare it sound); reverse futility pruning; late-move reductions and
late-move pruning of quiet moves; mate-distance pruning; move ordering by TT
move, noisy moves, two killers per ply, the history heuristic and the game's
``move_score`` hint.

:meth:`Searcher.search` blocks; :meth:`Searcher.stop` and
:meth:`Searcher.ponderhit` may be called from another thread. Aborting raises
:class:`SearchAborted` at a node entry, which unwinds to the iterative-deepening
loop; that loop undoes the moves still pushed, so the position is always left
as it was found.

Endgame tables plug in through :attr:`Searcher.tb_probe`; a tree listener
(:attr:`Searcher.trace`, see :mod:`engine.trace`) sees every node the search visits.
"""

from __future__ import annotations

import math
import time
from array import array
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Callable

import cython  # type: ignore[import-untyped]

from engine.control import Control
from engine.game import EVAL_LIMIT, MAX_PLY, NO_MOVE, WIN, WIN_BOUND, Game, mate_moves, mate_plies
from engine.game import Position as GamePosition
from engine.position import Position
from engine.switch import switch_point
from engine.timeman import Limits, TimeManager
from engine.trace import Listener
from engine.tt import EXACT, LOWER, UPPER, TranspositionTable, value_from_tt, value_to_tt

#: Deepest iteration; the ply cap leaves room for extensions and quiescence.
MAX_DEPTH = MAX_PLY // 2

# The tree's constants are C constants in the compiled build (cython.declare) and
# plain ints in the pure one; the _-prefixed ones are C copies of imported constants.
INF = cython.declare(cython.int, WIN + 1)
_WIN = cython.declare(cython.int, WIN)
_WIN_BOUND = cython.declare(cython.int, WIN_BOUND)
_EVAL_LIMIT = cython.declare(cython.int, EVAL_LIMIT)
_MAX_PLY = cython.declare(cython.int, MAX_PLY)
_MAX_DEPTH = cython.declare(cython.int, MAX_DEPTH)
_NO_MOVE = cython.declare(cython.longlong, NO_MOVE)
_EXACT = cython.declare(cython.int, EXACT)
_LOWER = cython.declare(cython.int, LOWER)
_UPPER = cython.declare(cython.int, UPPER)
#: Quiescence depth caps: resolving noisy moves on top of a stand-pat, and
#: answering forced moves (check evasions, compulsory captures).
QS_NOISY_PLIES = cython.declare(cython.int, 12)
QS_FORCED_PLIES = cython.declare(cython.int, 24)
#: Nodes between two looks at the clock and the stop flag.
CHECK_EVERY = cython.declare(cython.int, 128)

ASPIRATION_DEPTH = 4
ASPIRATION_DELTA = 30
ASPIRATION_MAX_DELTA = 1000
NULL_MIN_DEPTH = cython.declare(cython.int, 2)
RFP_MAX_DEPTH = cython.declare(cython.int, 3)
RFP_MARGIN = cython.declare(cython.int, 90)
FUTILITY_MAX_DEPTH = cython.declare(cython.int, 2)
FUTILITY_MARGIN = cython.declare(cython.int, 120)
LMR_MIN_DEPTH = cython.declare(cython.int, 3)
#: Internal iterative reduction: a node this deep without a table move is searched
#: one ply shallower (a cheap stand-in for searching it first to find a move).
IIR_MIN_DEPTH = cython.declare(cython.int, 4)
#: Exchange pruning up to this depth: quiet moves that lose more than SEE_QUIET·d
#: and noisy ones that lose more than SEE_NOISY·d² in the exchange are skipped.
SEE_MAX_DEPTH = cython.declare(cython.int, 6)
SEE_QUIET = cython.declare(cython.int, 60)
SEE_NOISY = cython.declare(cython.int, 25)
#: Late-move pruning up to this depth: quiet moves after the first 3 + d² are pruned.
LMP_MAX_DEPTH = cython.declare(cython.int, 3)
HISTORY_LIMIT = cython.declare(cython.int, 1 << 20)
#: Reduction for the i-th move at depth d: 0.75 + ln(d) * ln(i) / 2.25 (Ethereal's
#: formula), flat: the entry of (d, i) is at d * 64 + i.
_LMR = array("b", [0]) * (MAX_PLY * 64)
for _d in range(1, MAX_PLY):
    for _i in range(1, 64):
        _LMR[_d * 64 + _i] = int(0.75 + math.log(_d) * math.log(_i) / 2.25)


def _result_score(result: int, ply: int) -> int:
    """:func:`engine.game.result_score`, as a C function in the compiled build (it scores every game end)."""
    return _WIN - ply if result > 0 else -_WIN + ply if result < 0 else 0


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


class SearchAborted(Exception):
    """Raised at a node entry to unwind the tree; ``ply`` moves are still pushed."""

    def __init__(self, ply: int):
        super().__init__(ply)
        self.ply = ply


class Searcher:
    """Iterative-deepening alpha-beta search with its transposition table.

    One searcher serves one search at a time; it keeps its table, history and
    the ``tb_probe`` hook between searches.
    """

    tb_probe: Callable[[GamePosition], int | None] | None
    """Endgame-table hook, called at interior nodes (never at the root) after the
    TT probe. It returns ``None`` (unknown) or the exact value of the position
    for the side to move *at that node*, with distances counted from that node
    as :func:`engine.game.result_score` does: ``WIN - n`` for a win ``n`` plies
    ahead, ``KNOWN_WIN`` for a win of unknown distance, ``0`` for a draw, and
    the negatives for losses. The search shifts proven values by the node's ply.
    """
    tb_report: Callable[[GamePosition, list[int], int], tuple[int, list[int]] | None] | None
    """Reporting hook for exact PV scores without a distance (Kalah and reversi
    margins): ``(root, pv, score)`` gives ``(score, line)`` with the line run to
    the game's end and the score counted along it (``WIN - len(line)``), or
    ``None``. Called once per reported line, never inside the tree."""

    trace: Listener | None
    """Tree listener, ``None`` in play: told ``enter(move, depth, alpha, beta, quiescence)``
    at each node the search visits and ``leave(value)`` when it returns (see
    :mod:`engine.trace`). ``move`` is the move that led there, ``NO_MOVE`` at the root
    and after a null move. One test per node and per move when unset."""

    def __init__(self, hash_mb: int = 16):
        self.tt = TranspositionTable(hash_mb)
        self.tb_probe = None
        self.tb_report = None
        self.trace = None
        self.trace_move = NO_MOVE
        self.trace_pass = False
        #: Least remaining depth at which ``tb_probe`` is called (``SyzygyProbeDepth``).
        self.tb_probe_depth = 1
        self.history: list[defaultdict[int, int]] = [defaultdict(int), defaultdict(int)]
        #: Two killer moves per ply: those of ply p at 2p and 2p + 1.
        self.killers = array("q", [NO_MOVE]) * (2 * (MAX_PLY + 1))
        # Per-ply search stack: triangular PV table, TT move and check status of each node.
        self.pv_table: list[list[int]] = [[] for _ in range(MAX_PLY + 1)]
        self.tt_move_at = array("q", [NO_MOVE]) * (MAX_PLY + 1)
        self.in_check_at = array("b", [0]) * (MAX_PLY + 1)
        self.futile_at = array("b", [0]) * (MAX_PLY + 1)
        self.lmr = _LMR
        self.extension_plies = 0
        #: The running search's stop flag and ponderhit time.
        self.control = Control()
        self.nodes = 0
        self.seldepth = 0
        self.tbhits = 0

    # -- control from other threads -------------------------------------------

    def resize(self, hash_mb: int) -> None:
        """Resize (and clear) the transposition table."""
        self.tt.resize(hash_mb)

    def clear(self) -> None:
        """Forget the transposition table and the move-ordering statistics."""
        self.tt.clear()
        self.history = [defaultdict(int), defaultdict(int)]

    def stop(self) -> None:
        """Make the running search return as soon as possible.

        Only the running search is stopped: each search has its own control, so a
        late ``stop`` cannot cut short the next one.
        """
        self.control.stop()

    def ponderhit(self) -> None:
        """Turn the running ponder search into a timed search, timed from now."""
        self.control.ponderhit()

    # -- iterative deepening ---------------------------------------------------

    def search(self, game: Game, pos: GamePosition, limits: Limits, *, multipv: int = 1,
               move_overhead_ms: int = 10, on_info: Callable[[Info], None] | None = None,
               control: Control | None = None) -> SearchResult:
        """Search ``pos`` within ``limits``; blocks, and leaves ``pos`` unchanged.

        Reports through ``on_info`` after every completed iteration (one
        :class:`Info` per line when ``multipv`` > 1), after every aspiration
        failure (with ``bound``), and once at the end. Returns a legal best
        move even when stopped before the first iteration finished. Ponder and
        infinite searches may return early (a mate found, the depth limit): the
        caller holds the move until ``stop`` or ``ponderhit``.

        ``control`` carries the stop flag and ponderhit of the caller's ``go``: one
        set before the search starts is honoured at its first check.
        """
        self.control = control if control is not None else Control()
        return self._iterate(game, pos, limits, max(1, multipv), move_overhead_ms, on_info)

    def _iterate(self, game, pos, limits, multipv, overhead_ms, on_info) -> SearchResult:
        self.start = time.perf_counter()
        self.pos, self.game, self.limits, self.overhead_ms = pos, game, limits, overhead_ms
        # The tree walks ``node``, the position typed as the base class (a C type when compiled).
        if not isinstance(pos, Position):
            raise TypeError(f"{type(pos).__name__} does not derive from engine.position.Position")
        self.node = pos
        self.null_ok = game.null_move_ok
        self.nodes = self.seldepth = self.tbhits = 0
        self.node_limit = limits.nodes if limits.nodes else 1 << 62
        self.pondering = limits.ponder
        # The clock is the root mover's, also when a ponderhit re-sets it deep in the tree.
        self.root_turn = pos.turn
        self._set_clock(self.start, limits)
        self.next_check = min(CHECK_EVERY, self.node_limit + 1)
        self.tt.new_search()
        for table in self.history:
            for m in table:
                table[m] >>= 1
        for i in range(len(self.killers)):
            self.killers[i] = NO_MOVE

        self.root_moves = self._root_order(limits.searchmoves)
        if not self.root_moves:
            return SearchResult(None, None, 0, 0, [], 0)
        multipv = min(multipv, len(self.root_moves))
        max_depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)

        # lines: the completed iteration's (score, pv) per multipv index.
        lines: list[tuple[int, list[int]]] = [(pos.evaluate(), [self.root_moves[0]])]
        completed, stable, prev_best = 0, 0, NO_MOVE
        self.iteration_start = self.start
        # The best line so far of an unfinished iteration: (score, pv, multipv index).
        self.partial: tuple[int, list[int], int] | None = None
        try:
            for depth in range(1, max_depth + 1):
                self.extension_plies = 2 * depth
                new_lines: list[tuple[int, list[int]]] = []
                for index in range(multipv):
                    skip = {pv[0] for _, pv in new_lines}
                    prev = lines[index][0] if index < len(lines) and completed else None
                    self.partial = None
                    new_lines.append(self._aspiration(depth, index, prev, skip, on_info))
                new_lines.sort(key=lambda line: -line[0])
                lines, completed, self.partial = new_lines, depth, None
                best = lines[0][1][0]
                stable = stable + 1 if best == prev_best else 0
                prev_best = best
                rank = {pv[0]: i for i, (_, pv) in enumerate(lines)}
                self.root_moves.sort(key=lambda m: rank.get(m, multipv))
                for index, (score, pv) in enumerate(lines):
                    self._report(on_info, depth, index, score, None, self._legal_prefix(pv))
                if self._done_after(depth, lines[0][0], stable):
                    break
        except SearchAborted as abort:
            for _ in range(abort.ply):
                pos.pop()
            if self.partial is not None and (self.partial[2] == 0 or not completed):
                lines = [self.partial[:2]] + [line for line in lines[1:] if line[1][0] != self.partial[1][0]]
        score, pv = lines[0]
        pv = self._legal_prefix(pv)
        for index, (line_score, line_pv) in enumerate(lines):
            self._report(on_info, completed, index, line_score, None, self._legal_prefix(line_pv))
        return SearchResult(pv[0], self._ponder_move(pv), score, completed, pv, self.nodes)

    def _aspiration(self, depth, index, prev, skip, on_info) -> tuple[int, list[int]]:
        """One root search for line ``index``, widening the window around ``prev`` until it holds."""
        delta = ASPIRATION_DELTA
        if prev is not None and depth >= ASPIRATION_DEPTH and abs(prev) < EVAL_LIMIT:
            alpha, beta = max(prev - delta, -INF), min(prev + delta, INF)
        else:
            alpha, beta = -INF, INF
        while True:
            score, pv = self._root(depth, alpha, beta, skip, index)
            if score <= alpha:
                self._report(on_info, depth, index, score, "upper", pv)
                beta = (alpha + beta) // 2
                alpha = max(score - delta, -INF)
            elif score >= beta:
                self._report(on_info, depth, index, score, "lower", pv)
                beta = min(score + delta, INF)
            else:
                return score, pv
            delta += delta
            if delta > ASPIRATION_MAX_DELTA:
                alpha, beta = -INF, INF

    def _done_after(self, depth: int, score: int, stable: int) -> bool:
        """Whether iterative deepening stops after a completed ``depth``."""
        now = time.perf_counter()
        iteration_ms = (now - self.iteration_start) * 1000
        self.iteration_start = now
        plies = mate_plies(score)
        if self.limits.mate and plies is not None and plies > 0 and mate_moves(score) <= self.limits.mate:
            return True
        if plies is not None and depth >= 2 * abs(plies) + 4:
            return True
        if self.tm is None:
            return False
        if len(self.root_moves) == 1 and not self.tm.exact:
            return True
        return self.tm.stop_iterating((now - self.clock_start) * 1000, stable, iteration_ms)

    def _set_clock(self, start: float, limits: Limits) -> None:
        """Time budgets counted from ``start`` (the go, or the ponderhit)."""
        self.clock_start = start
        tm = TimeManager(limits, self.root_turn, self.overhead_ms)
        self.tm = tm if tm.timed else None
        self.deadline = start + tm.hard_ms / 1000 if tm.hard_ms is not None else math.inf
        # Exact solvers called inside the search look at the control's deadline.
        self.control.deadline = self.deadline

    def _checkpoint(self, ply: int) -> int:
        """Every ``CHECK_EVERY`` nodes: honour stop, ponderhit, the node limit and the hard deadline."""
        # Compiled nodes never reach the interpreter's switch check: offer the GIL
        # here, so that the protocol reader answers while the search runs.
        switch_point()
        if self.nodes > self.node_limit:
            self.nodes -= 1  # this node is not searched
            raise SearchAborted(ply)
        control = self.control
        if control.stopped:
            raise SearchAborted(ply)
        if self.pondering and control.ponderhit_at is not None:
            self.pondering = False
            self._set_clock(control.ponderhit_at, replace(self.limits, ponder=False))
        if time.perf_counter() >= self.deadline:
            raise SearchAborted(ply)
        self.next_check = min(self.nodes + CHECK_EVERY, self.node_limit + 1)
        return 0

    # -- root ------------------------------------------------------------------

    def _root_order(self, searchmoves: list[int] | None) -> list[int]:
        """Legal root moves (restricted to ``searchmoves`` when that leaves any), best guess first."""
        pos = self.pos
        moves = pos.legal_moves()
        if searchmoves:
            wanted = set(searchmoves)
            moves = [m for m in moves if m in wanted] or moves
        entry = self.tt.probe(pos.key)
        tt_move = entry[1] if entry is not None else NO_MOVE
        noisy = {m: i for i, m in enumerate(pos.noisy_moves())}
        score = pos.move_score
        return sorted(moves, key=lambda m: (m != tt_move, m not in noisy, noisy.get(m, 0), -score(m)))

    def _root(self, depth: int, alpha: int, beta: int, skip: set[int], index: int) -> tuple[int, list[int]]:
        """Search the root moves not in ``skip``; returns the best score and its PV.

        Every move that raises alpha is recorded in ``self.partial`` so that an
        aborted iteration can still use it.
        """
        pos, pv_table = self.node, self.pv_table
        us = pos.turn
        best, best_pv = -INF, []
        first = True
        self.nodes += 1
        if self.trace is not None:
            self.trace.enter(NO_MOVE, depth, alpha, beta, False)
        for m in self.root_moves:
            if m in skip:
                continue
            pos.push(m)
            if self.trace is not None:
                self.trace_move = m
            flip = pos.turn != us
            pv_table[1] = []
            if first:
                v = -self._search(depth - 1, -beta, -alpha, 1, True) if flip else self._search(depth - 1, alpha, beta, 1, True)
            else:
                v = (-self._search(depth - 1, -alpha - 1, -alpha, 1, True) if flip
                     else self._search(depth - 1, alpha, alpha + 1, 1, True))
                if alpha < v < beta:
                    pv_table[1] = []
                    v = (-self._search(depth - 1, -beta, -alpha, 1, True) if flip
                         else self._search(depth - 1, alpha, beta, 1, True))
            pos.pop()
            if first or v > best:
                best = v
                best_pv = [m] + pv_table[1]
                if v > alpha:
                    alpha = v
                    self.partial = (v, best_pv, index)
                    if v >= beta:
                        break
            first = False
        if self.trace is not None:
            self.trace.leave(best)
        return best, best_pv

    def _legal_prefix(self, pv: list[int]) -> list[int]:
        """The longest prefix of ``pv`` that is a legal line from the root, extended through the TT."""
        pos = self.pos
        line = []
        seen = set()
        for m in pv:
            if m not in pos.legal_moves():
                break
            line.append(m)
            seen.add(pos.key)
            pos.push(m)
        while len(line) < MAX_DEPTH and pos.key not in seen:
            entry = self.tt.probe(pos.key)
            if entry is None or entry[1] == NO_MOVE or entry[1] not in pos.legal_moves() or entry[3] != EXACT:
                break
            seen.add(pos.key)
            line.append(entry[1])
            pos.push(entry[1])
        for _ in line:
            pos.pop()
        return line or pv[:1]

    def _ponder_move(self, pv: list[int]) -> int | None:
        """The expected reply: the PV's second move, else the TT move after the best one."""
        if len(pv) >= 2:
            return pv[1]
        pos = self.pos
        pos.push(pv[0])
        entry = self.tt.probe(pos.key)
        reply = entry[1] if entry is not None and entry[1] in pos.legal_moves() else None
        pos.pop()
        return reply

    def _report(self, on_info, depth, index, score, bound, pv) -> None:
        if on_info is None:
            return
        if self.tb_report is not None and bound is None and abs(score) > EVAL_LIMIT and mate_plies(score) is None:
            exact = self.tb_report(self.pos, pv, score)
            if exact is not None:
                score, pv = exact
        ms = int((time.perf_counter() - self.start) * 1000)
        on_info(Info(depth=depth, seldepth=max(self.seldepth, depth), multipv=index + 1, score=score,
                     bound=bound, nodes=self.nodes, time_ms=ms, nps=self.nodes * 1000 // max(ms, 1),
                     hashfull=self.tt.hashfull(), tbhits=self.tbhits, pv=list(pv)))

    # -- the tree ----------------------------------------------------------------

    @cython.locals(pos=Position, tt=TranspositionTable, pv_node=cython.bint, in_check=cython.bint,
                   futile=cython.bint, tt_move=cython.longlong, key=cython.ulonglong, v=cython.int,
                   bound=cython.int, static=cython.int, r=cython.int, moves=list)
    def _search(self, depth: int, alpha: int, beta: int, ply: int, null_ok: bool) -> int:
        """Negamax value of the position ``ply`` plies below the root, within (alpha, beta)."""
        # Step 1. Horizon: resolve noisy moves in quiescence.
        if depth <= 0:
            return self._qsearch(alpha, beta, ply, 0)
        if self.trace is not None:
            if not self.trace_pass:
                return self._traced(depth, alpha, beta, ply, null_ok)
            self.trace_pass = False
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._checkpoint(ply)
        if ply > self.seldepth:
            self.seldepth = ply
        pos = self.node
        pv_node = beta - alpha > 1

        # Step 2. Rule ends and draws by repetition.
        if pos.is_repetition():
            return 0
        result = pos.outcome()
        if result is not None:
            return _result_score(result, ply)
        if ply >= _MAX_PLY - 1:
            return pos.evaluate()

        # Step 3. Mate-distance pruning: no line from here beats a mate already found nearer the root.
        if alpha < -_WIN + ply:
            alpha = -_WIN + ply
        if beta > _WIN - ply - 1:
            beta = _WIN - ply - 1
        if alpha >= beta:
            return alpha

        # Step 4. Transposition table: cut off non-PV nodes on a deep enough bound.
        key = pos.key
        tt = self.tt
        tt_move = _NO_MOVE
        if tt.lookup(key):
            tt_move = tt.found_move
            if not pv_node and tt.found_depth >= depth:
                v = value_from_tt(tt.found_value, ply)
                bound = tt.found_bound
                if bound == _EXACT or (v >= beta if bound == _LOWER else v <= alpha):
                    return v

        # Step 5. Endgame tables: an exact value, distance counted from this node.
        if self.tb_probe is not None and depth >= self.tb_probe_depth:
            exact = self.tb_probe(self.pos)
            if exact is not None:
                self.tbhits += 1
                v = value_from_tt(exact, ply)
                tt.store(key, _NO_MOVE, _MAX_DEPTH, _EXACT, value_to_tt(v, ply))
                return v

        # Step 6. Internal iterative reduction: no move to try first suggests a node
        # the previous iterations did not think worth searching deeply.
        if depth >= IIR_MIN_DEPTH and tt_move == _NO_MOVE:
            depth -= 1

        # Step 7. Check extension: a threatened side gets one more ply to answer
        # (bounded, so that long series of checks cannot run away).
        in_check = pos.in_check()
        if in_check and ply < self.extension_plies:
            depth += 1

        # Step 8. Reverse futility, null-move and futility pruning, at non-PV nodes not in check.
        futile = False
        if not pv_node and not in_check and abs(beta) < _EVAL_LIMIT:
            static = pos.evaluate()
            if depth <= RFP_MAX_DEPTH and static - RFP_MARGIN * depth >= beta:
                return static
            # Near the horizon, quiet moves cannot lift a position this far below alpha.
            futile = depth <= FUTILITY_MAX_DEPTH and static + FUTILITY_MARGIN * depth <= alpha
            if (null_ok and self.null_ok and depth >= NULL_MIN_DEPTH and static >= beta
                    and pos.null_move_allowed()):
                r = 3 + depth // 6
                pos.push_null()
                v = -self._search(depth - 1 - r, -beta, -beta + 1, ply + 1, False)
                pos.pop()
                if v >= beta:
                    return beta if v >= _WIN_BOUND else v

        # Step 9. Moves; none left ends the game.
        moves = pos.legal_moves()
        if not moves:
            return _result_score(pos.no_moves_value(), ply)
        self.tt_move_at[ply] = tt_move
        self.in_check_at[ply] = in_check
        self.futile_at[ply] = futile
        return self._move_loop(moves, depth, alpha, beta, ply)

    @cython.locals(pos=Position, tt_move=cython.longlong, in_check=cython.bint, futile=cython.bint,
                   us=cython.int, pv_node=cython.bint, old_alpha=cython.int, ply1=cython.int, d1=cython.int,
                   best=cython.int, best_move=cython.longlong, prunable=cython.bint, lmp=cython.int,
                   count=cython.int, quiet=cython.bint, late=cython.bint, losing_move=cython.bint,
                   flip=cython.bint, r=cython.int,
                   v=cython.int, m=cython.longlong, bound=cython.int, stage=cython.int, i=cython.Py_ssize_t,
                   batch=list, quiets_tried=list, pv_table=list)
    def _move_loop(self, moves: list[int], depth: int, alpha: int, beta: int, ply: int) -> int:
        """Steps 10-13 of :meth:`_search`: search ``moves`` in order; store the result."""
        tt_move, in_check, futile = self.tt_move_at[ply], self.in_check_at[ply], self.futile_at[ply]
        pos, pv_table = self.node, self.pv_table
        us = pos.turn
        pv_node = beta - alpha > 1
        old_alpha = alpha
        ply1, d1 = ply + 1, depth - 1
        best, best_move = -INF, _NO_MOVE
        prunable = not pv_node and not in_check
        lmp = 3 + depth * depth if prunable and depth <= LMP_MAX_DEPTH else 1 << 30
        quiets_tried: list[int] = []
        count = 0
        # Moves come in stages, so that an early cutoff skips the later stages' work:
        # stage 0 the TT move, 1 the noisy moves that do not lose material, 2 the
        # killers, 3 the quiet moves, 4 the noisy moves that lose material.
        stage = 0
        batch = [tt_move] if tt_move != _NO_MOVE and tt_move in moves else []
        done: set[int] = set()
        losing: list[int] = []
        i = 0
        while True:
            if i == len(batch):
                stage += 1
                if stage > 4:
                    break
                batch = self._stage(stage, moves, tt_move, ply, done, losing)
                i = 0
                continue
            m = batch[i]
            i += 1
            quiet = count > 0 and not pos.is_noisy(m)
            # Step 10. Exchange pruning: near the horizon, a move that loses material in
            # the exchange it starts is not worth a search (unless it checks, below).
            losing_move = (prunable and count > 0 and depth <= SEE_MAX_DEPTH
                           and not pos.see_ge(m, -SEE_QUIET * depth if quiet else -SEE_NOISY * depth * depth))
            count += 1
            r = 0
            if quiet and not in_check and depth >= LMR_MIN_DEPTH:
                r = self.lmr[depth * 64 + (count if count < 63 else 63)] - pv_node
                r = 0 if r < 0 else min(r, d1 - 1)
            pos.push(m)
            if self.trace is not None:
                self.trace_move = m
            # Step 11. Futility and late-move pruning, late-move reductions: at low depth, quiet
            # moves far down the order or far below alpha rarely matter; later ones get a
            # shallower search. Checks are spared.
            late = quiet and (futile or count > lmp) or losing_move
            if (r or late) and pos.in_check():
                r = 0
            elif late and best > -_WIN_BOUND:
                pos.pop()
                continue
            flip = pos.turn != us
            if pv_node:
                pv_table[ply1] = []
            if count == 1:
                v = -self._search(d1, -beta, -alpha, ply1, True) if flip else self._search(d1, alpha, beta, ply1, True)
            else:
                # Step 12. A zero-window PVS probe (reduced first), widened when it fails high.
                v = (-self._search(d1 - r, -alpha - 1, -alpha, ply1, True) if flip
                     else self._search(d1 - r, alpha, alpha + 1, ply1, True))
                if r and v > alpha:
                    v = (-self._search(d1, -alpha - 1, -alpha, ply1, True) if flip
                         else self._search(d1, alpha, alpha + 1, ply1, True))
                if pv_node and alpha < v < beta:
                    pv_table[ply1] = []
                    v = -self._search(d1, -beta, -alpha, ply1, True) if flip else self._search(d1, alpha, beta, ply1, True)
            pos.pop()
            if v > best:
                best = v
                if v > alpha:
                    best_move = m
                    if pv_node:
                        pv_table[ply] = [m] + pv_table[ply1]
                    if v >= beta:
                        if count > 1 and quiet or count == 1 and not pos.is_noisy(m):
                            self._reward(m, depth, ply, us, quiets_tried)
                        break
                    alpha = v
            if quiet:
                quiets_tried.append(m)

        # Step 13. Store the result: a lower bound on a cutoff, exact if alpha rose, else an upper bound.
        bound = _LOWER if best >= beta else _EXACT if best > old_alpha else _UPPER
        self.tt.store(pos.key, best_move, depth, bound, value_to_tt(best, ply))
        return best

    def _traced(self, depth: int, alpha: int, beta: int, ply: int, null_ok: bool) -> int:
        """A node of :meth:`_search` (``depth`` > 0) or of :meth:`_qsearch` (``-depth`` its
        quiescence ply), told to the listener on entry and on return."""
        quiescence = depth <= 0
        trace = self.trace
        assert trace is not None
        move, self.trace_move = self.trace_move, _NO_MOVE
        trace.enter(move, depth if not quiescence else 0, alpha, beta, quiescence)
        # The node runs once through the untraced entry: trace_pass lets it past the hook.
        self.trace_pass = True
        v = self._qsearch(alpha, beta, ply, -depth) if quiescence else self._search(depth, alpha, beta, ply, null_ok)
        # A re-search of the same move (PVS, a reduced probe) enters without a new push.
        self.trace_move = move
        trace.leave(v)
        return v

    @cython.locals(pos=Position, m=cython.longlong, k=cython.int, i=cython.Py_ssize_t, noisy=list, out=list,
                   ranked=list)
    def _stage(self, stage: int, moves: list[int], tt_move: int, ply: int, done: set[int],
               losing: list[int]) -> list[int]:
        """The moves of ordering ``stage`` (1 noisy, 2 killers, 3 quiet, 4 losing noisy)
        not searched before.

        Noisy moves come as the game orders them, those that lose material by the
        game's exchange evaluation set aside in ``losing`` for stage 4; killers
        newest first, quiet moves by history, ties broken by the game's
        ``move_score``. ``done`` collects what earlier stages took.
        """
        pos = self.node
        out = []
        if stage == 4:
            return losing
        if stage == 1:
            noisy = pos.noisy_moves()
            for m in noisy:
                if m != tt_move:
                    if pos.see_ge(m, 0):
                        out.append(m)
                    else:
                        losing.append(m)
            done.update(noisy)
            done.add(tt_move)
        elif stage == 2:
            for k in range(2):
                m = self.killers[2 * ply + k]
                if m not in done and m in moves:
                    done.add(m)
                    out.append(m)
        else:
            for m in moves:
                if m not in done:
                    out.append(m)
            if len(out) > 1:
                # One stable sort, best first: history, then move_score, then generation order.
                history = self.history[pos.turn]
                ranked = []
                for i in range(len(out)):
                    m = out[i]
                    ranked.append((-history[m], -pos.move_score(m), i, m))
                ranked.sort()
                out = [entry[3] for entry in ranked]
        return out

    @cython.locals(bonus=cython.int, k=cython.int)
    def _reward(self, move: int, depth: int, ply: int, side: int, quiets_tried: list[int]) -> None:
        """A quiet move caused a cutoff: make it a killer, raise its history, lower the ones tried before it."""
        k = 2 * ply
        if self.killers[k] != move:
            self.killers[k + 1] = self.killers[k]
            self.killers[k] = move
        history = self.history[side]
        bonus = depth * depth
        history[move] += bonus
        for m in quiets_tried:
            history[m] -= bonus
        # Age the table before its values grow without bound.
        if history[move] > HISTORY_LIMIT or quiets_tried and history[quiets_tried[-1]] < -HISTORY_LIMIT:
            for m in history:
                history[m] //= 2

    @cython.locals(pos=Position, tt=TranspositionTable, key=cython.ulonglong, v=cython.int, bound=cython.int,
                   old_alpha=cython.int, best=cython.int, us=cython.int, ply1=cython.int, q1=cython.int,
                   stand_pat=cython.bint,
                   best_move=cython.longlong, m=cython.longlong, moves=list)
    def _qsearch(self, alpha: int, beta: int, ply: int, qply: int) -> int:
        """Quiescence: stand pat on the evaluation, or search forced moves, until the position is quiet."""
        if self.trace is not None:
            if not self.trace_pass:
                return self._traced(-qply, alpha, beta, ply, True)
            self.trace_pass = False
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._checkpoint(ply)
        if ply > self.seldepth:
            self.seldepth = ply
        pos = self.node
        # Noisy moves are usually irreversible: only the first quiescence node can repeat.
        if qply == 0 and pos.is_repetition():
            return 0
        result = pos.outcome()
        if result is not None:
            return _result_score(result, ply)
        if ply >= _MAX_PLY - 1:
            return pos.evaluate()

        # Capture sequences transpose often: any stored bound that decides the window ends the node.
        key = pos.key
        tt = self.tt
        if tt.lookup(key):
            v = value_from_tt(tt.found_value, ply)
            bound = tt.found_bound
            if bound == _EXACT or (v >= beta if bound == _LOWER else v <= alpha):
                return v

        old_alpha = alpha
        stand_pat = pos.can_stand_pat()
        if stand_pat:
            best = pos.evaluate()
            if best >= beta or qply >= QS_NOISY_PLIES:
                tt.store(key, _NO_MOVE, 0, _LOWER if best >= beta else _EXACT, value_to_tt(best, ply))
                return best
            if best > alpha:
                alpha = best
            moves = pos.noisy_moves()
        else:
            # Check evasions or compulsory captures: every legal move must be considered.
            moves = pos.legal_moves()
            if not moves:
                return _result_score(pos.no_moves_value(), ply)
            if qply >= QS_FORCED_PLIES:
                return pos.evaluate()
            best = -INF
            if len(moves) > 1:
                noisy = set(pos.noisy_moves())
                moves.sort(key=noisy.__contains__, reverse=True)

        us = pos.turn
        ply1, q1 = ply + 1, qply + 1
        best_move = _NO_MOVE
        for m in moves:
            # Standing pat, a capture that loses material cannot raise alpha.
            if stand_pat and not pos.see_ge(m, 0):
                continue
            pos.push(m)
            if self.trace is not None:
                self.trace_move = m
            v = -self._qsearch(-beta, -alpha, ply1, q1) if pos.turn != us else self._qsearch(alpha, beta, ply1, q1)
            pos.pop()
            if v > best:
                best = v
                if v > alpha:
                    best_move = m
                    if v >= beta:
                        break
                    alpha = v
        bound = _LOWER if best >= beta else _EXACT if best > old_alpha else _UPPER
        tt.store(key, best_move, 0, bound, value_to_tt(best, ply))
        return best

