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
``move_score`` hint; for the games that opt in (``Game.capture_history`` and the
others), a capture history, a one-ply continuation history, a correction history
of the static evaluation, singular extensions and ProbCut.

A :class:`Searcher` is the two-player strategy of :mod:`engine.driver`, which
runs iterative deepening over it: the searcher is one worker (the position,
killers, history, the principal-variation stack and node counters) over a
transposition table it may share, and the driver asks it for one iteration at a
time (:meth:`Searcher.iterate`: aspiration windows around each line's previous
score). :meth:`Searcher.search` blocks; :meth:`Searcher.stop` and
:meth:`Searcher.ponderhit` may be called from another thread. Aborting raises
:class:`engine.driver.SearchAborted` at a node entry, which unwinds to the
driver; the driver undoes the moves still pushed, so the position is always
left as it was found.

Endgame tables plug in through :attr:`Searcher.tb_probe`; a tree listener
(:attr:`Searcher.trace`, see :mod:`engine.trace`) sees every node the search visits.
"""

from __future__ import annotations

import math
from array import array
from typing import Callable, cast

import cython  # type: ignore[import-untyped]

from engine.clock import Clock
from engine.control import Control
from engine.driver import CHECK_EVERY, NO_TABLES, Info, Line, Report, SearchResult, TableHook, checkpoint
from engine.driver import search as drive
from engine.game import EVAL_LIMIT, MAX_PLY, NO_MOVE, WIN, WIN_BOUND, Game, mate_moves, mate_plies
from engine.game import Position as GamePosition
from engine.position import Position
from engine.timeman import Limits
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

ASPIRATION_DEPTH = 4
ASPIRATION_MAX_DELTA = 1000
NULL_MIN_DEPTH = cython.declare(cython.int, 2)
FUTILITY_MAX_DEPTH = cython.declare(cython.int, 2)
#: Razoring (``Game.razoring``) up to this depth.
RAZOR_MAX_DEPTH = cython.declare(cython.int, 2)
LMR_MIN_DEPTH = cython.declare(cython.int, 3)
#: The tunable numbers of the search, by field of ``engine.options.SearchParams`` (whose
#: defaults these are, the protocol's edge): :meth:`Searcher.configure` copies them into
#: the searcher's C attributes. The aspiration window's first half-width; the null-move
#: reduction ``null_base + depth // null_divisor``; reverse futility pruning up to
#: ``rfp_max_depth`` with ``rfp_margin`` a ply, futility pruning with ``futility_margin``
#: a ply; the reduction table's ``lmr_base`` and ``lmr_divisor`` (hundredths, below);
#: exchange pruning's ``see_quiet`` and ``see_noisy``; late-move pruning's ``lmp_base``.
DEFAULT_PARAMS: dict[str, int] = {
    "aspiration_delta": 30, "null_base": 3, "null_divisor": 6, "rfp_margin": 90, "rfp_max_depth": 3,
    "futility_margin": 120, "lmr_base": 75, "lmr_divisor": 225, "see_quiet": 60, "see_noisy": 25,
    "lmp_base": 3,
}
#: Internal iterative reduction: a node this deep without a table move is searched
#: one ply shallower (a cheap stand-in for searching it first to find a move).
IIR_MIN_DEPTH = cython.declare(cython.int, 4)
#: Exchange pruning up to this depth: quiet moves that lose more than see_quiet·d
#: and noisy ones that lose more than see_noisy·d² in the exchange are skipped.
SEE_MAX_DEPTH = cython.declare(cython.int, 6)
#: Late-move pruning up to this depth: quiet moves after the first lmp_base + d² are pruned.
LMP_MAX_DEPTH = cython.declare(cython.int, 3)
HISTORY_LIMIT = cython.declare(cython.int, 1 << 20)
#: The capture and continuation histories move an entry by a bonus scaled down as it
#: nears this bound ("gravity"), so they stay within it and need no ageing.
GRAVITY_LIMIT = cython.declare(cython.int, 1 << 14)
#: Largest capture-history bonus (it is 16·depth² below).
CAPTURE_BONUS_MAX = cython.declare(cython.int, 1200)
#: Correction history: entries per side (a power of two), in 1/CORR_GRAIN of the
#: evaluation's unit, each at most CORR_MAX units; a search's finding counts with
#: weight min(depth + 1, CORR_WEIGHT_MAX) in 256, its difference capped at CORR_DIFF_MAX.
CORR_SIZE = cython.declare(cython.int, 1 << 14)
CORR_GRAIN = cython.declare(cython.int, 256)
CORR_MAX = cython.declare(cython.int, 64)
CORR_WEIGHT_MAX = cython.declare(cython.int, 16)
CORR_DIFF_MAX = cython.declare(cython.int, 1024)
#: Singular extensions from this depth, for a table move whose lower bound is at most
#: SE_DEPTH_GAP plies shallower: searched without it at half depth, the other moves
#: fail below the table value minus SE_MARGIN a ply, so it gets one ply more.
SE_MIN_DEPTH = cython.declare(cython.int, 4)
SE_DEPTH_GAP = cython.declare(cython.int, 3)
SE_MARGIN = cython.declare(cython.int, 2)
#: The reduction tables made so far, by (lmr_base, lmr_divisor).
_LMR_TABLES: dict[tuple[int, int], array] = {}


def lmr_table(base: int, divisor: int) -> array:
    """Reduction for the i-th move at depth d: base/100 + ln(d) * ln(i) / (divisor/100)
    (Ethereal's formula at 75 and 225), flat: the entry of (d, i) is at d * 64 + i."""
    table = _LMR_TABLES.get((base, divisor))
    if table is None:
        table = array("b", [0]) * (MAX_PLY * 64)
        for d in range(1, MAX_PLY):
            for i in range(1, 64):
                table[d * 64 + i] = int(base / 100 + math.log(d) * math.log(i) / (divisor / 100))
        _LMR_TABLES[(base, divisor)] = table
    return table


def _proves_more(old: int, new: int) -> bool:
    """Whether the root score ``old`` proves more than ``new``: a win counted in fewer
    plies, or a loss in fewer (a mate found is a bound no deeper search can undo).

    A counted win is a proof that the score is at least ``old``, a counted loss that
    it is at most ``old``; a later iteration that loses the shorter mate (its line
    reduced, or cut by a bound from a shallower search) does not replace it.
    """
    plies = mate_plies(old)
    return plies is not None and (new < old if plies > 0 else new > old)


def _first(line: Line, lines: list[Line]) -> list[Line]:
    """``line`` first, then the others of ``lines`` that do not start with its move."""
    return [line] + [other for other in lines if other.pv[0] != line.pv[0]]


def _gravity(table: dict[int, int], move: int, bonus: int) -> None:
    """Move ``table[move]`` by ``bonus`` (negative: a malus), the less the nearer it is to
    ±``GRAVITY_LIMIT`` on that side."""
    h = table.get(move, 0)
    table[move] = h + bonus - h * abs(bonus) // GRAVITY_LIMIT


@cython.locals(table=dict, m=cython.longlong)
def _gravity_after(tables: dict[int, dict[int, int]], prev: int, move: int, bonus: int,
                   quiets_tried: list[int]) -> None:
    """:func:`_gravity` in the table ``tables`` keeps for the move ``prev`` (made when
    first needed): ``move`` rewarded by ``bonus``, the moves of ``quiets_tried`` punished."""
    table = tables.get(prev)
    if table is None:
        table = tables[prev] = {}
    _gravity(table, move, bonus)
    for m in quiets_tried:
        _gravity(table, m, -bonus)


def _result_score(result: int, ply: int) -> int:
    """:func:`engine.game.result_score`, as a C function in the compiled build (it scores every game end)."""
    return _WIN - ply if result > 0 else -_WIN + ply if result < 0 else 0


class Searcher:
    """Two-player PVS alpha-beta: one worker of the search, and the strategy the
    driver (:mod:`engine.driver`) deepens.

    One searcher serves one search at a time; it keeps its history between
    searches, and takes each search's table hook (``tb_probe``, ``tb_report``) from
    the search's caller. Its table is its own, or one shared with other workers (``tt``).
    """

    tb_probe: Callable[[GamePosition], int | None] | None
    """The running search's endgame-table hook (:attr:`engine.driver.TableHook.probe`),
    called at interior nodes (never at the root) after the TT probe. It returns ``None`` (unknown) or the exact value of the position
    for the side to move *at that node*, with distances counted from that node
    as :func:`engine.game.result_score` does: ``WIN - n`` for a win ``n`` plies
    ahead, ``KNOWN_WIN`` for a win of unknown distance, ``0`` for a draw, and
    the negatives for losses. The search shifts proven values by the node's ply.
    """
    tb_report: Callable[[GamePosition, list[int], int], tuple[int, list[int]] | None] | None
    """The running search's reporting hook (``TableHook.report``) for exact PV scores without a distance (Kalah and reversi
    margins): ``(root, pv, score)`` gives ``(score, line)`` with the line run to
    the game's end and the score counted along it (``WIN - len(line)``), or
    ``None``. Called once per reported line, never inside the tree."""

    trace: Listener | None
    """Tree listener, ``None`` in play: told ``enter(move, depth, alpha, beta, quiescence)``
    at each node the search visits and ``leave(value)`` when it returns (see
    :mod:`engine.trace`). ``move`` is the move that led there, ``NO_MOVE`` at the root
    and after a null move. One test per node and per move when unset."""

    def __init__(self, hash_mb: int = 16, tt: TranspositionTable | None = None):
        # Shared with other workers when given: the table, and (per search) the control.
        self.tt = tt if tt is not None else TranspositionTable(hash_mb)
        #: The running search's stop flag and deadline (the go's, set by the driver).
        self.control = Control()
        self.tb_probe = None
        self.tb_report = None
        #: Least remaining depth at which ``tb_probe`` is called (``SyzygyProbeDepth``).
        self.tb_probe_depth = 1
        self.trace = None
        self.trace_move = NO_MOVE
        self.trace_pass = False
        # This worker's own state: move ordering, the per-ply stack, the counters.
        self.history: list[dict[int, int]] = [{}, {}]
        #: Per side: the capture history (by move), the continuation and follow-up histories
        #: (by the move one and two plies before, then by move) and the correction history
        #: (by correction key).
        self.capture_hist: list[dict[int, int]] = [{}, {}]
        self.cont_hist: list[dict[int, dict[int, int]]] = [{}, {}]
        self.correction = array("i", [0]) * (2 * CORR_SIZE)
        #: The game's opt-ins (``Game.capture_history`` and the others), set at every search;
        #: ``Game.probcut``'s numbers (``pc_on`` False: none): by a node's depth, the
        #: shallow search's depth and the margins above beta and below alpha.
        self.capt_on = self.cont_on = self.corr_on = self.se_on = self.lazy_on = False
        self.follow_hist: list[dict[int, dict[int, int]]] = [{}, {}]
        self.follow_on = False
        self.qs_delta = 0
        self.razor = 0
        self.hist_red = 0
        self.pc_on = self.pc_noisy = False
        self.pc_depth = 0
        self.pc_shallow = array("i", [0]) * (MAX_PLY + 1)
        self.pc_up = array("i", [0]) * (MAX_PLY + 1)
        self.pc_down = array("i", [0]) * (MAX_PLY + 1)
        self.pc_source: object = None
        #: Two killer moves per ply: those of ply p at 2p and 2p + 1.
        self.killers = array("q", [NO_MOVE]) * (2 * (MAX_PLY + 1))
        # Per-ply search stack: triangular PV table, TT move and check status of each node.
        self.pv_table: list[list[int]] = [[] for _ in range(MAX_PLY + 1)]
        self.tt_move_at = array("q", [NO_MOVE]) * (MAX_PLY + 1)
        self.in_check_at = array("b", [0]) * (MAX_PLY + 1)
        self.futile_at = array("b", [0]) * (MAX_PLY + 1)
        # The move played at each ply (NO_MOVE for a null move), and a node's corrected
        # static evaluation and correction entry.
        self.move_at = array("q", [NO_MOVE]) * (MAX_PLY + 1)
        self.static_at = array("i", [0]) * (MAX_PLY + 1)
        self.corr_at = array("q", [0]) * (MAX_PLY + 1)
        # A singular extension's search of a node without its table move (NO_MOVE: none),
        # and the node's table move found singular (searched a ply deeper).
        self.excluded_at = array("q", [NO_MOVE]) * (MAX_PLY + 1)
        self.singular_at = array("b", [0]) * (MAX_PLY + 1)
        # The compiled build's move sort: two keys and the order of a stage's moves.
        self.key_a = array("q", [0]) * 256
        self.key_b = array("q", [0]) * 256
        self.order = array("i", [0]) * 256
        self.configure(DEFAULT_PARAMS)
        self.extension_plies = 0
        self.nodes = self.seldepth = self.tbhits = 0
        self.node_limit = 1 << 62
        self.next_check = CHECK_EVERY
        # The searched position: the caller's (``pos``), walked by the tree as ``node``
        # (typed as the base class, a C type when compiled), and the game's null-move trait.
        self.pos: GamePosition = cast(GamePosition, None)
        self.node: Position = cast(Position, None)
        self.null_ok = False
        self.root_moves: list[int] = []
        #: The best line so far of an unfinished iteration: (score, pv, multipv index).
        self.partial: tuple[int, list[int], int] | None = None

    # -- control from other threads -------------------------------------------

    def configure(self, params: dict[str, int]) -> None:
        """Set the tunable numbers (:data:`DEFAULT_PARAMS`'s fields) for the next searches:
        the tree reads them from C attributes, never from ``params``."""
        self.aspiration_delta = params["aspiration_delta"]
        self.null_base, self.null_divisor = params["null_base"], params["null_divisor"]
        self.rfp_margin, self.rfp_max_depth = params["rfp_margin"], params["rfp_max_depth"]
        self.futility_margin = params["futility_margin"]
        self.see_quiet, self.see_noisy = params["see_quiet"], params["see_noisy"]
        self.lmp_base = params["lmp_base"]
        self.lmr = lmr_table(params["lmr_base"], params["lmr_divisor"])

    def resize(self, hash_mb: int) -> None:
        """Resize (and clear) the transposition table."""
        self.tt.resize(hash_mb)

    def clear(self) -> None:
        """Forget the transposition table and the move-ordering statistics."""
        self.tt.clear()
        self.forget()

    def forget(self) -> None:
        """Forget this worker's move-ordering statistics (a shared table is its owner's to clear)."""
        self.history = [{}, {}]
        self.capture_hist = [{}, {}]
        self.cont_hist = [{}, {}]
        self.follow_hist = [{}, {}]
        for i in range(len(self.correction)):
            self.correction[i] = 0

    def stop(self) -> None:
        """Make the running search return as soon as possible.

        Only the running search is stopped: each search has its own control, so a
        late ``stop`` cannot cut short the next one.
        """
        self.control.stop()

    def ponderhit(self) -> None:
        """Turn the running ponder search into a timed search, timed from now."""
        self.control.ponderhit()

    # -- the strategy the driver deepens -------------------------------------------

    def search(self, game: Game, pos: GamePosition, limits: Limits, *, multipv: int = 1,
               move_overhead_ms: int = 10, on_info: Callable[[Info], None] | None = None,
               control: Control | None = None, clock: Clock | None = None,
               tables: TableHook = NO_TABLES) -> SearchResult:
        """:func:`engine.driver.search` with this searcher: ``clock`` is the go's (else
        one is made from ``limits``, ``control`` and ``move_overhead_ms``); ``tables``
        the game's exact knowledge."""
        return drive(self, game, pos, limits, multipv=multipv, on_info=on_info, clock=clock, control=control,
                     move_overhead_ms=move_overhead_ms, tables=tables)

    def begin(self, game: Game, pos: GamePosition, limits: Limits, tables: TableHook = NO_TABLES) -> int:
        """Ready the worker for ``pos``: counters, table generation, aged history, the
        root moves, and this search's table hook."""
        if not isinstance(pos, Position):
            raise TypeError(f"{type(pos).__name__} does not derive from engine.position.Position")
        self.pos = self.node = pos
        self.null_ok = game.null_move_ok
        self.capt_on, self.cont_on = game.capture_history, game.continuation_history
        self.corr_on, self.se_on = game.correction_history, game.singular_extensions
        self.lazy_on = game.table_move_first
        self.follow_on = game.followup_history
        self.qs_delta = game.delta_pruning
        self.razor = game.razoring
        self.hist_red = game.history_reduction
        probcut = game.probcut
        self.pc_on = probcut is not None
        if probcut is not None and probcut is not self.pc_source:
            self.pc_source = probcut
            self.pc_depth, self.pc_noisy = probcut.min_depth, probcut.noisy
            for d in range(probcut.min_depth, MAX_PLY + 1):
                self.pc_shallow[d], self.pc_up[d], self.pc_down[d] = probcut.at(d)
        self.tb_probe, self.tb_probe_depth, self.tb_report = tables.probe, tables.depth, tables.report
        self.nodes = self.seldepth = self.tbhits = 0
        self.node_limit = limits.nodes if limits.nodes else 1 << 62
        self.next_check = min(CHECK_EVERY, self.node_limit + 1)
        self.tt.new_search()
        for table in self.history:
            for m in table:
                table[m] >>= 1
        for i in range(len(self.killers)):
            self.killers[i] = NO_MOVE
        # An aborted search may have left a singular extension's excluded move behind.
        for i in range(len(self.excluded_at)):
            self.excluded_at[i] = NO_MOVE
        self.partial = None
        self.root_moves = self._root_order(limits.searchmoves)
        return min(limits.depth or MAX_DEPTH, MAX_DEPTH)

    def first_lines(self) -> list[Line]:
        return [Line(self.pos.evaluate(), [self.root_moves[0]])]

    def iterate(self, depth: int, multipv: int, lines: list[Line] | None, report: Report) -> list[Line]:
        """One iteration: each of the ``multipv`` lines searched with the better ones'
        first moves left out; the root moves then follow the new lines' order."""
        self.extension_plies = 2 * depth
        new_lines: list[Line] = []
        for index in range(multipv):
            skip = {line.pv[0] for line in new_lines}
            prev = lines[index].score if lines is not None and index < len(lines) else None
            self.partial = None
            new_lines.append(self._aspiration(depth, index, prev, skip, report))
        new_lines.sort(key=lambda line: -line.score)
        if lines is not None and _proves_more(lines[0].score, new_lines[0].score):
            new_lines = _first(lines[0], new_lines)[:multipv]
        self.partial = None
        rank = {line.pv[0]: i for i, line in enumerate(new_lines)}
        self.root_moves.sort(key=lambda m: rank.get(m, multipv))
        return new_lines

    def _aspiration(self, depth: int, index: int, prev: int | None, skip: set[int], report: Report) -> Line:
        """One root search for line ``index``, widening the window around ``prev`` until it holds."""
        delta = self.aspiration_delta
        if prev is not None and depth >= ASPIRATION_DEPTH and abs(prev) < EVAL_LIMIT:
            alpha, beta = max(prev - delta, -INF), min(prev + delta, INF)
        else:
            alpha, beta = -INF, INF
        while True:
            score, pv = self._root(depth, alpha, beta, skip, index)
            if score <= alpha:
                report(depth, index, Line(score, pv), "upper")
                beta = (alpha + beta) // 2
                alpha = max(score - delta, -INF)
            elif score >= beta:
                report(depth, index, Line(score, pv), "lower")
                beta = min(score + delta, INF)
            else:
                return Line(score, pv)
            delta += delta
            if delta > ASPIRATION_MAX_DELTA:
                alpha, beta = -INF, INF

    def salvage(self, lines: list[Line], completed: int) -> list[Line]:
        """The unfinished iteration's best line replaces the first line when it was
        searching that line (or nothing was completed)."""
        partial = self.partial
        if partial is None or (partial[2] != 0 and completed) or _proves_more(lines[0].score, partial[0]):
            return lines
        return _first(Line(partial[0], partial[1]), lines[1:])

    def settled(self, depth: int, line: Line, limits: Limits) -> bool:
        """A mate within ``go mate``, or a proven score searched well past its distance."""
        plies, moves, mate = mate_plies(line.score), mate_moves(line.score), limits.mate
        if mate and plies is not None and plies > 0 and moves is not None and moves <= mate:
            return True
        return plies is not None and depth >= 2 * abs(plies) + 4

    def finish(self, line: Line) -> Line:
        return Line(line.score, self._legal_prefix(line.pv))

    def info(self, fields: dict, line: Line) -> Info:
        """The report; an exact score without a distance is told along its line to the game's end."""
        score = fields["score"]
        if (self.tb_report is not None and fields["bound"] is None and abs(score) > EVAL_LIMIT
                and mate_plies(score) is None):
            exact = self.tb_report(self.pos, fields["pv"], score)
            if exact is not None:
                fields["score"], fields["pv"] = exact[0], list(exact[1])
        return Info(**fields)

    def _checkpoint(self, ply: int) -> int:
        """Every ``CHECK_EVERY`` nodes: :func:`engine.driver.checkpoint`."""
        return checkpoint(self, ply)

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
            self.move_at[0] = m
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

    def ponder_move(self, pv: list[int]) -> int | None:
        """The expected reply: the PV's second move, else the TT move after the best one."""
        if len(pv) >= 2:
            return pv[1]
        pos = self.pos
        pos.push(pv[0])
        entry = self.tt.probe(pos.key)
        reply = entry[1] if entry is not None and entry[1] in pos.legal_moves() else None
        pos.pop()
        return reply


    # -- the tree ----------------------------------------------------------------

    @cython.locals(pos=Position, tt=TranspositionTable, pv_node=cython.bint, in_check=cython.bint,
                   futile=cython.bint, tt_move=cython.longlong, key=cython.ulonglong, v=cython.int,
                   bound=cython.int, static=cython.int, r=cython.int, moves=list, excluded=cython.longlong,
                   tt_value=cython.int, tt_depth=cython.int, tt_bound=cython.int, singular=cython.bint,
                   s_beta=cython.int, pc_beta=cython.int, pc_alpha=cython.int, pc_depth=cython.int, pc_up=cython.int,
                   pc_down=cython.int, d=cython.int,
                   us=cython.int, flip=cython.bint, m=cython.longlong)
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
        # A singular extension's search without the table move (excluded) neither
        # cuts off on the table nor prunes: its value is not the node's.
        key = pos.key
        tt = self.tt
        tt_move = _NO_MOVE
        tt_depth = tt_bound = tt_value = 0
        excluded = self.excluded_at[ply]
        if tt.lookup(key):
            tt_move = tt.found_move
            tt_depth, tt_bound = tt.found_depth, tt.found_bound
            tt_value = value_from_tt(tt.found_value, ply)
            if not pv_node and tt_depth >= depth and excluded == _NO_MOVE:
                v = tt_value
                bound = tt_bound
                if bound == _EXACT or (v >= beta if bound == _LOWER else v <= alpha):
                    return v

        # Step 5. Endgame tables: an exact value, distance counted from this node.
        if self.tb_probe is not None and depth >= self.tb_probe_depth and excluded == _NO_MOVE:
            exact = self.tb_probe(self.pos)
            if exact is not None:
                self.tbhits += 1
                v = value_from_tt(exact, ply)
                tt.store(key, _NO_MOVE, _MAX_DEPTH, _EXACT, value_to_tt(v, ply))
                return v

        # Step 6. Internal iterative reduction: no move to try first suggests a node
        # the previous iterations did not think worth searching deeply. Not while a
        # proven win is being bettered (or a proven loss delayed): a shorter mate
        # needs the full depth to be seen.
        if depth >= IIR_MIN_DEPTH and tt_move == _NO_MOVE and alpha < _WIN_BOUND and beta > -_WIN_BOUND:
            depth -= 1

        # Step 7. Check extension: a threatened side gets one more ply to answer
        # (bounded, so that long series of checks cannot run away).
        in_check = pos.in_check()
        if in_check and ply < self.extension_plies:
            depth += 1

        # Step 8. Reverse futility, null-move and futility pruning, at non-PV nodes not in check.
        futile = False
        static = 0
        if self.corr_on and not in_check:
            # Every node not in check: the correction learns from PV nodes too.
            static = self._corrected(ply)
            self.static_at[ply] = static
        if not pv_node and not in_check and abs(beta) < _EVAL_LIMIT and excluded == _NO_MOVE:
            if not self.corr_on:
                static = pos.evaluate()
            if depth <= self.rfp_max_depth and static - self.rfp_margin * depth >= beta:
                return static
            # Razoring: this far below alpha near the horizon, only a noisy move (in chess
            # a capture or a promotion) could lift the position; when quiescence finds none
            # that does, the node fails low.
            if self.razor and depth <= RAZOR_MAX_DEPTH and static + self.razor * depth <= alpha:
                v = self._qsearch(alpha, alpha + 1, ply, 0)
                if v <= alpha:
                    return v
            # Near the horizon, quiet moves cannot lift a position this far below alpha.
            futile = depth <= FUTILITY_MAX_DEPTH and static + self.futility_margin * depth <= alpha
            if (null_ok and self.null_ok and depth >= NULL_MIN_DEPTH and static >= beta
                    and pos.null_move_allowed()):
                r = self.null_base + depth // self.null_divisor
                self.move_at[ply] = _NO_MOVE
                pos.push_null()
                v = -self._search(depth - 1 - r, -beta, -beta + 1, ply + 1, False)
                pos.pop()
                if v >= beta:
                    return beta if v >= _WIN_BOUND else v
            # Step 8a. ProbCut: a shallower search that clears beta by the game's margin
            # predicts the full one fails high (Buro's form: or that one below alpha by
            # it fails low). A cut returns the shallow value less the margin (a bound past
            # the window) and leaves in the table only what was searched: a bound at the
            # reduced depth. Multi-ProbCut: the shallow depth and margins by depth.
            if self.pc_on and depth >= self.pc_depth:
                d = depth if depth < _MAX_PLY else _MAX_PLY
                pc_depth = self.pc_shallow[d]
                pc_up = self.pc_up[d]
                pc_beta = beta + pc_up
                if self.pc_noisy:
                    # Not when the table already has the node below the raised bound that deep.
                    if not (tt_depth >= pc_depth and tt_value < pc_beta):
                        us = pos.turn
                        for m in pos.noisy_moves():
                            if not pos.see_ge(m, pc_beta - static):
                                continue
                            self.move_at[ply] = m
                            pos.push(m)
                            if self.trace is not None:
                                self.trace_move = m
                            flip = pos.turn != us
                            # Quiescence first: a capture that does not hold there is not searched.
                            v = (-self._qsearch(-pc_beta, -pc_beta + 1, ply + 1, 0) if flip
                                 else self._qsearch(pc_beta - 1, pc_beta, ply + 1, 0))
                            if v >= pc_beta and pc_depth > 1:
                                v = (-self._search(pc_depth - 1, -pc_beta, -pc_beta + 1, ply + 1, True) if flip
                                     else self._search(pc_depth - 1, pc_beta - 1, pc_beta, ply + 1, True))
                            pos.pop()
                            if v >= pc_beta:
                                tt.store(key, m, pc_depth, _LOWER, value_to_tt(v, ply))
                                return v - pc_up if v < _WIN_BOUND else v
                else:
                    # The node's own shallow searches, which store their bounds themselves;
                    # each side only when the static evaluation is already past that side of
                    # the window (as Edax gates Multi-ProbCut), or the searches cost more than they cut.
                    if static >= beta:
                        v = self._search(pc_depth, pc_beta - 1, pc_beta, ply, null_ok)
                        if v >= pc_beta:
                            return v - pc_up if v < _WIN_BOUND else v
                    elif static <= alpha:
                        pc_down = self.pc_down[d]
                        pc_alpha = alpha - pc_down
                        v = self._search(pc_depth, pc_alpha, pc_alpha + 1, ply, null_ok)
                        if v <= pc_alpha:
                            return v + pc_down if v > -_WIN_BOUND else v
                    if self.corr_on:
                        # Their subtrees may have moved the correction this node's static value read.
                        self.static_at[ply] = static

        # Step 9. Moves; none left ends the game. Where the game opts in, the legal moves
        # wait until the quiet ones are due (None: not generated yet): the table move
        # (when legal), the noisy moves and the killers (when legal) come first, and a
        # cutoff by one of them generates nothing more. A node that then finds no move
        # at all ends the game there (the move loop).
        moves = None
        if self.lazy_on and excluded == _NO_MOVE and not self.se_on:
            if tt_move != _NO_MOVE and not pos.is_legal(tt_move):
                tt_move = _NO_MOVE
        else:
            moves = pos.legal_moves()
            if not moves:
                return _result_score(pos.no_moves_value(), ply)

        # Step 9a. Singular extension: when every other move fails well below the table
        # move's lower bound in a shallower search, the table move is searched a ply
        # deeper; when even that bound holds without it above beta, the node is cut.
        singular = False
        if (self.se_on and depth >= SE_MIN_DEPTH and excluded == _NO_MOVE and tt_move != _NO_MOVE
                and tt_bound != _UPPER and tt_depth >= depth - SE_DEPTH_GAP and abs(tt_value) < _WIN_BOUND
                and ply < self.extension_plies and moves is not None and len(moves) > 1 and tt_move in moves):
            s_beta = tt_value - SE_MARGIN * depth
            self.excluded_at[ply] = tt_move
            v = self._search((depth - 1) // 2, s_beta - 1, s_beta, ply, False)
            self.excluded_at[ply] = _NO_MOVE
            if self.corr_on and not in_check:
                # Its subtree may have moved the correction this node's static value read.
                self.static_at[ply] = static
            if v < s_beta:
                singular = True
            elif s_beta >= beta:
                return s_beta
        self.singular_at[ply] = singular
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
                   batch=list, quiets_tried=list, noisy_tried=list, pv_table=list, static=cython.int,
                   excluded=cython.longlong, d_first=cython.int)
    def _move_loop(self, moves: list[int] | None, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Steps 10-13 of :meth:`_search`: search ``moves`` in order (None: generated when
        the quiet moves are due); store the result."""
        tt_move, in_check, futile = self.tt_move_at[ply], self.in_check_at[ply], self.futile_at[ply]
        excluded = self.excluded_at[ply]
        pos, pv_table = self.node, self.pv_table
        us = pos.turn
        pv_node = beta - alpha > 1
        old_alpha = alpha
        ply1, d1 = ply + 1, depth - 1
        best, best_move = -INF, _NO_MOVE
        prunable = not pv_node and not in_check
        lmp = self.lmp_base + depth * depth if prunable and depth <= LMP_MAX_DEPTH else 1 << 30
        quiets_tried: list[int] = []
        noisy_tried: list[int] = []
        count = 0
        # Moves come in stages, so that an early cutoff skips the later stages' work:
        # stage 0 the TT move, 1 the noisy moves that do not lose material, 2 the
        # killers, 3 the quiet moves, 4 the noisy moves that lose material.
        stage = 0
        if moves is None:
            batch = [tt_move] if tt_move != _NO_MOVE else []
        else:
            batch = [tt_move] if tt_move != _NO_MOVE and tt_move != excluded and tt_move in moves else []
        losing: list[int] = []
        i = 0
        while True:
            if i == len(batch):
                stage += 1
                if stage > 4:
                    break
                if moves is None and stage == 3:
                    moves = pos.legal_moves()
                batch = self._stage(stage, moves, tt_move, excluded, ply, losing)
                i = 0
                continue
            m = batch[i]
            i += 1
            quiet = count > 0 and not pos.is_noisy(m)
            # Step 10. Exchange pruning: near the horizon, a move that loses material in
            # the exchange it starts is not worth a search (unless it checks, below).
            losing_move = (prunable and count > 0 and depth <= SEE_MAX_DEPTH
                           and not pos.see_ge(m, -self.see_quiet * depth if quiet else -self.see_noisy * depth * depth))
            count += 1
            r = 0
            # Once alpha is a proven win, only a shorter mate can raise it, and a reduced
            # or pruned move would fail low without showing it: every move gets the full depth.
            if quiet and not in_check and depth >= LMR_MIN_DEPTH and alpha < _WIN_BOUND:
                r = self.lmr[depth * 64 + (count if count < 63 else 63)] - pv_node
                if self.hist_red:
                    r -= self._history_plies(m, ply, us)
                r = 0 if r < 0 else min(r, d1 - 1)
            self.move_at[ply] = m
            pos.push(m)
            if self.trace is not None:
                self.trace_move = m
            # Step 11. Futility and late-move pruning, late-move reductions: at low depth, quiet
            # moves far down the order or far below alpha rarely matter; later ones get a
            # shallower search. Checks are spared.
            late = (quiet and (futile or count > lmp) or losing_move) and alpha < _WIN_BOUND
            if (r or late) and pos.in_check():
                r = 0
            elif late and best > -_WIN_BOUND:
                pos.pop()
                continue
            flip = pos.turn != us
            if pv_node:
                pv_table[ply1] = []
            if count == 1:
                d_first = d1 + 1 if stage == 0 and self.singular_at[ply] else d1
                v = (-self._search(d_first, -beta, -alpha, ply1, True) if flip
                     else self._search(d_first, alpha, beta, ply1, True))
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
                            if self.capt_on:
                                self._capture_reward(_NO_MOVE, depth, us, noisy_tried)
                        elif self.capt_on:
                            self._capture_reward(m, depth, us, noisy_tried)
                        break
                    alpha = v
            if quiet:
                quiets_tried.append(m)
            elif self.capt_on and (count > 1 or pos.is_noisy(m)):
                noisy_tried.append(m)

        if count == 0:
            # No move at all (the moves generated late, Step 9): the game ends here.
            return _result_score(pos.no_moves_value(), ply)
        # Step 13. Store the result: a lower bound on a cutoff, exact if alpha rose, else an upper bound.
        bound = _LOWER if best >= beta else _EXACT if best > old_alpha else _UPPER
        if excluded != _NO_MOVE:
            return best
        self.tt.store(pos.key, best_move, depth, bound, value_to_tt(best, ply))
        # Step 14. Correction history: how far the search found the static evaluation off,
        # unless a noisy best move explains it or the bound says nothing on that side.
        if self.corr_on and not in_check and abs(best) < _EVAL_LIMIT and (
                best_move == _NO_MOVE or not pos.is_noisy(best_move)):
            static = self.static_at[ply]
            if not (bound == _LOWER and best <= static or bound == _UPPER and best >= static):
                self._correct(ply, best - static, depth)
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
                   ranked=list, by_score=list, table=dict, cont=dict, follow=dict, history=dict,
                   prev=cython.longlong,
                   killer0=cython.longlong, killer1=cython.longlong)
    def _stage(self, stage: int, moves: list[int] | None, tt_move: int, excluded: int, ply: int,
               losing: list[int]) -> list[int]:
        """The moves of ordering ``stage`` (1 noisy, 2 killers, 3 quiet, 4 losing noisy)
        not searched before (nor ``excluded``); ``moves`` may be None before stage 3.

        Noisy moves come as the game orders them, those that lose material by the
        game's exchange evaluation set aside in ``losing`` for stage 4; killers
        newest first, quiet moves by history, ties broken by the game's
        ``move_score``. What an earlier stage took is told by what it takes (the
        table move, ``is_noisy``, the killers, which only this node's cutoff changes),
        not kept in a set.
        """
        pos = self.node
        out = []
        if stage == 4:
            return losing
        if stage == 1:
            noisy = pos.noisy_moves()
            for m in noisy:
                if m != tt_move and m != excluded:
                    if pos.see_ge(m, 0):
                        out.append(m)
                    else:
                        losing.append(m)
            if self.capt_on and len(out) > 1:
                # The game's score plus the capture history, ties in the game's order.
                table = self.capture_hist[pos.turn]
                if cython.compiled:
                    self._keys(len(out))
                    for i in range(len(out)):
                        m = out[i]
                        self.key_a[i] = pos.move_score(m) + table.get(m, 0)
                        self.key_b[i] = 0
                    out = self._ranked(out)
                else:
                    by_score = []
                    for i in range(len(out)):
                        m = out[i]
                        by_score.append((-(pos.move_score(m) + table.get(m, 0)), i, m))
                    by_score.sort()
                    out = [entry[2] for entry in by_score]
        elif stage == 2:
            for k in range(2):
                m = self.killers[2 * ply + k]
                if (m != _NO_MOVE and m != tt_move and m != excluded and (k == 0 or m != self.killers[2 * ply])
                        and (pos.is_legal(m) if moves is None else m in moves) and not pos.is_noisy(m)):
                    out.append(m)
        else:
            # The killers stage 2 took are exactly those among these moves.
            killer0, killer1 = self.killers[2 * ply], self.killers[2 * ply + 1]
            assert moves is not None  # generated for this stage at the latest (the move loop)
            for m in moves:
                if m != tt_move and m != excluded and m != killer0 and m != killer1 and not pos.is_noisy(m):
                    out.append(m)
            if len(out) > 1:
                # One stable sort, best first: history (plus the continuation history of
                # the move before, and the follow-up history of the side's move before that),
                # then move_score, then generation order.
                history = self.history[pos.turn]
                cont = follow = None
                if self.cont_on and ply > 0:
                    prev = self.move_at[ply - 1]
                    if prev != _NO_MOVE:
                        cont = self.cont_hist[pos.turn].get(prev)
                if self.follow_on and ply > 1:
                    prev = self.move_at[ply - 2]
                    if prev != _NO_MOVE:
                        follow = self.follow_hist[pos.turn].get(prev)
                if cython.compiled:
                    self._keys(len(out))
                    for i in range(len(out)):
                        m = out[i]
                        self.key_a[i] = (history.get(m, 0) + (0 if cont is None else cont.get(m, 0))
                                         + (0 if follow is None else follow.get(m, 0)))
                        self.key_b[i] = pos.move_score(m)
                    out = self._ranked(out)
                else:
                    ranked = []
                    for i in range(len(out)):
                        m = out[i]
                        h = (history.get(m, 0) + (0 if cont is None else cont.get(m, 0))
                             + (0 if follow is None else follow.get(m, 0)))
                        ranked.append((-h, -pos.move_score(m), i, m))
                    ranked.sort()
                    out = [entry[3] for entry in ranked]
        return out

    def _keys(self, n: int) -> None:
        """Room for ``n`` moves' sort keys (compiled build)."""
        if n > len(self.order):
            self.key_a = array("q", [0]) * (2 * n)
            self.key_b = array("q", [0]) * (2 * n)
            self.order = array("i", [0]) * (2 * n)

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.locals(n=cython.Py_ssize_t, i=cython.Py_ssize_t, j=cython.Py_ssize_t, k=cython.int,
                   a=cython.longlong, b=cython.longlong)
    def _ranked(self, moves: list[int]) -> list[int]:
        """``moves`` by ``key_a``, then ``key_b``, both descending, ties in their order:
        the tuple sort of the pure build, as an insertion sort on C arrays (a stage
        holds a few dozen moves) that makes no objects."""
        n = len(moves)
        for i in range(n):
            self.order[i] = i
        for i in range(1, n):
            k = self.order[i]
            a, b = self.key_a[k], self.key_b[k]
            j = i - 1
            while j >= 0 and (self.key_a[self.order[j]] < a
                              or self.key_a[self.order[j]] == a and self.key_b[self.order[j]] < b):
                self.order[j + 1] = self.order[j]
                j -= 1
            self.order[j + 1] = k
        return [moves[self.order[i]] for i in range(n)]

    @cython.locals(bonus=cython.int, k=cython.int, history=dict)
    def _reward(self, move: int, depth: int, ply: int, side: int, quiets_tried: list[int]) -> None:
        """A quiet move caused a cutoff: make it a killer, raise its history, lower the ones tried before it."""
        k = 2 * ply
        if self.killers[k] != move:
            self.killers[k + 1] = self.killers[k]
            self.killers[k] = move
        history = self.history[side]
        bonus = depth * depth
        history[move] = history.get(move, 0) + bonus
        for m in quiets_tried:
            history[m] = history.get(m, 0) - bonus
        # Age the table before its values grow without bound.
        if history[move] > HISTORY_LIMIT or quiets_tried and history[quiets_tried[-1]] < -HISTORY_LIMIT:
            for m in history:
                history[m] //= 2
        if self.cont_on and ply > 0 and self.move_at[ply - 1] != _NO_MOVE:
            _gravity_after(self.cont_hist[side], self.move_at[ply - 1], move, bonus, quiets_tried)
        if self.follow_on and ply > 1 and self.move_at[ply - 2] != _NO_MOVE:
            _gravity_after(self.follow_hist[side], self.move_at[ply - 2], move, bonus, quiets_tried)

    @cython.locals(table=dict, prev=cython.longlong)
    def _history_after(self, tables: dict[int, dict[int, int]], at: int, move: int) -> int:
        """``move``'s entry in the table ``tables`` keeps for the move played at ply ``at`` (0: none)."""
        if at < 0:
            return 0
        prev = self.move_at[at]
        if prev == _NO_MOVE:
            return 0
        table = tables.get(prev)
        return 0 if table is None else table.get(move, 0)

    @cython.locals(h=cython.longlong, plies=cython.longlong)
    def _history_plies(self, move: int, ply: int, side: int) -> int:
        """How many plies less (negative: more) the quiet ``move`` is reduced for its
        history (``Game.history_reduction``), the ordering's sum, truncated toward zero."""
        h = self.history[side].get(move, 0)
        if self.cont_on:
            h += self._history_after(self.cont_hist[side], ply - 1, move)
        if self.follow_on:
            h += self._history_after(self.follow_hist[side], ply - 2, move)
        plies = h // self.hist_red if h >= 0 else -(-h // self.hist_red)
        return 2 if plies > 2 else -2 if plies < -2 else plies

    @cython.locals(bonus=cython.int, table=dict)
    def _capture_reward(self, move: int, depth: int, side: int, noisy_tried: list[int]) -> None:
        """A cutoff: raise the capture history of ``move`` when it is noisy (not ``NO_MOVE``),
        lower the noisy moves tried before it."""
        table = self.capture_hist[side]
        bonus = min(16 * depth * depth, CAPTURE_BONUS_MAX)
        if move != _NO_MOVE:
            _gravity(table, move, bonus)
        for m in noisy_tried:
            _gravity(table, m, -bonus)

    @cython.locals(pos=Position, v=cython.int, i=cython.longlong)
    def _corrected(self, ply: int) -> int:
        """The static evaluation plus the correction history's entry (noted at ``ply``)."""
        pos = self.node
        i = (pos.correction_key() & (CORR_SIZE - 1)) + pos.turn * CORR_SIZE
        self.corr_at[ply] = i
        v = pos.evaluate() + self.correction[i] // CORR_GRAIN
        return max(-_EVAL_LIMIT + 1, min(v, _EVAL_LIMIT - 1))

    @cython.locals(i=cython.longlong, w=cython.int, e=cython.int)
    def _correct(self, ply: int, diff: int, depth: int) -> None:
        """Blend the search's finding ``diff`` (its value minus the static evaluation) into
        the correction entry of ``ply``'s node, weighted by the depth."""
        i = self.corr_at[ply]
        w = min(depth + 1, CORR_WEIGHT_MAX)
        diff = max(-CORR_DIFF_MAX, min(diff, CORR_DIFF_MAX))
        e = (self.correction[i] * (256 - w) + diff * CORR_GRAIN * w) // 256
        self.correction[i] = max(-CORR_GRAIN * CORR_MAX, min(e, CORR_GRAIN * CORR_MAX))

    @cython.locals(pos=Position, tt=TranspositionTable, key=cython.ulonglong, v=cython.int, bound=cython.int,
                   old_alpha=cython.int, best=cython.int, us=cython.int, ply1=cython.int, q1=cython.int,
                   stand_pat=cython.bint,
                   best_move=cython.longlong, m=cython.longlong, moves=list, tt_move=cython.longlong)
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
        tt_move = _NO_MOVE
        if tt.lookup(key):
            tt_move = tt.found_move
            v = value_from_tt(tt.found_value, ply)
            bound = tt.found_bound
            if bound == _EXACT or (v >= beta if bound == _LOWER else v <= alpha):
                return v

        old_alpha = alpha
        stand_pat = pos.can_stand_pat()
        if stand_pat:
            best = self._corrected(ply) if self.corr_on else pos.evaluate()
            if best >= beta or qply >= QS_NOISY_PLIES:
                tt.store(key, _NO_MOVE, 0, _LOWER if best >= beta else _EXACT, value_to_tt(best, ply))
                return best
            if best > alpha:
                alpha = best
            moves = pos.noisy_moves()
            # The table's move first: it refuted this position before.
            if tt_move != _NO_MOVE and len(moves) > 1 and moves[0] != tt_move and tt_move in moves:
                moves.remove(tt_move)
                moves.insert(0, tt_move)
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
            # Standing pat, a capture that loses material cannot raise alpha; with delta
            # pruning, nor one whose gain leaves the stand-pat value more than the margin short.
            if stand_pat and not pos.see_ge(m, 0 if self.qs_delta == 0 or alpha - best <= self.qs_delta
                                            else alpha - best - self.qs_delta):
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

