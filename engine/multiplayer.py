"""The search for games of more than two players: max^n, paranoid and best-reply search.

A position of an N-player game gives a vector of values, one per player
(``values()`` in play, ``result()`` once over; every entry ``>= 0``, their sum at
most ``game.value_sum``, called S below). Three searches turn those vectors into
a move, chosen by :attr:`MultiplayerSearcher.algorithm`:

- ``"maxn"`` (Luckhardt & Irani 1986): a node's value is the vector of the child
  that is best for the player to move there, ties going to the child searched
  first. Immediate and shallow pruning (Korf 1991): once the mover has S, no
  later child can be better; once the mover has ``x``, the player who moved into
  this node can get at most ``S - x`` here, and when that is no better than what
  that player already has elsewhere, the rest of the node is skipped. Pruning
  never changes the root's value or move.
- ``"paranoid"`` (Sturtevant & Korf 2000): the root player maximises, all the
  others minimise one scalar as a coalition, with alpha-beta.
- ``"brs"``, best-reply search (Schadd & Winands 2011): the root player
  maximises; between two of its turns only one opponent's moves are branched on,
  and the minimum is taken over all opponents' moves. The paper lets that one
  opponent move out of turn while the others pass; a position here has no way to
  move a player out of turn or to pass, so every other opponent of the segment
  plays its fixed move instead (the form of Esser et al. 2013, "BRS+"), and every
  line searched is a legal game. A segment of opponent plays counts as one ply,
  as the paper's MIN layer does.

The scalar of paranoid and BRS, from the root player's view, is its entry of the
vector minus the best other entry: the contract's ``evaluate()``, what decides the
outcome (first place), and zero-sum against the strongest opponent, so the
coalition is not led to crush a weak opponent when a strong one stays ahead. It
runs over ``[-S, S]`` (S = 1000: one unit is a tenth of a percent of the game's
value); final positions score ``±(WIN - ply)`` (0 when first place is shared), as
in the two-player search, so that shorter wins score higher. Max^n reports the
same scalar of its backed-up vector.

Fixed move of an opponent (BRS): the move after which its own scalar (own entry
minus best other) is highest, first in ``legal_moves()`` order among equals.

Iterative deepening, the clock, ``stop``/``ponderhit`` and the reports are
those of every search, :mod:`engine.driver` (:class:`engine.driver.SearchResult`,
and :class:`VectorInfo`, an :class:`engine.driver.Info` carrying the vector). The
transposition table is :class:`engine.tt.TranspositionTable`, keyed by the
position's key mixed with the algorithm, the root player and the node kind:
paranoid and BRS values depend on who the root player is. Max^n stores exact
vectors at their depth (packed into the table's value when ``N * bits(S)`` fits
31 bits, else only the move); a node cut short by shallow pruning is a bound and
is stored with its move only.

Move ordering: the table's move, two killers per ply, then history per player
(moves that caused a cutoff, or were best at a max^n node). With
:attr:`MultiplayerSearcher.ordering` off, moves are searched in
``legal_moves()`` order without the table: ties then go to the first legal move,
which is how the tests compare the search with brute force.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, cast

from engine.clock import Clock
from engine.control import Control
from engine.driver import CHECK_EVERY, NO_TABLES, Info, Line, Report, SearchResult, TableHook, checkpoint
from engine.driver import search as drive
from engine.game import MAX_PLY, NO_MOVE, WIN, Game, mate_plies
from engine.position import Position
from engine.timeman import Limits
from engine.tt import EXACT, LOWER, UPPER, TranspositionTable, value_from_tt, value_to_tt

ALGORITHMS = ("maxn", "paranoid", "brs")
MAX_DEPTH = MAX_PLY // 2
INF = WIN + 1
#: Bits a packed max^n vector may use: the table stores a value as a C int in the
#: compiled build, so a packed vector must stay a non-negative 32-bit int.
PACK_BITS = 31
HISTORY_LIMIT = 1 << 20


def _mix(x: int) -> int:
    """SplitMix64's finaliser: a well-spread 64-bit salt from a small number."""
    x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


#: Node kinds, each with its own table salt: max^n nodes, paranoid nodes, the
#: root player's BRS nodes, and BRS opponent nodes before anyone branched.
_MAXN, _PARANOID, _BRS_MAX, _BRS_MIN = range(4)


@dataclass
class VectorInfo(Info):
    """An :class:`engine.search.Info` of an N-player search: ``score`` is the root
    player's scalar, ``vector`` the values of all players (index = player)."""

    vector: tuple[int, ...] = ()
    algorithm: str = ""


class MultiplayerSearcher:
    """Max^n, paranoid or best-reply search: one worker, and the strategy the driver
    (:mod:`engine.driver`) deepens, as it does :class:`engine.search.Searcher`.

    Called as :class:`engine.search.Searcher` is (``search``, ``stop``,
    ``ponderhit``, ``resize``, ``clear``); one searcher serves one search at a time.
    Its table is its own, or one shared with other workers (``tt``).
    """

    def __init__(self, hash_mb: int = 16, algorithm: str = "brs", tt: TranspositionTable | None = None):
        # Shared with other workers when given: the table, and (per search) the control.
        self.tt = tt if tt is not None else TranspositionTable(hash_mb)
        #: The running search's stop flag and deadline (the go's, set by the driver).
        self.control = Control()
        self.algorithm = algorithm
        #: Korf's immediate and shallow pruning in max^n.
        self.pruning = True
        #: Table, killers and history; off: ``legal_moves()`` order and no table.
        self.ordering = True
        # This worker's own state: move ordering, the PV stack, the counters.
        self.history: dict[int, dict[int, int]] = {}
        self.killers = [[NO_MOVE, NO_MOVE] for _ in range(MAX_PLY + 1)]
        self.pv_table: list[list[int]] = [[] for _ in range(MAX_PLY + 2)]
        self.nodes = self.seldepth = self.tbhits = 0
        self.node_limit = 1 << 62
        self.next_check = CHECK_EVERY
        # The running search: the position, the game's player count and bound S, the
        # root player, the bits of a packed vector, the table salts of the node kinds.
        self.pos: Position = cast(Position, None)
        self.n = self.S = self.root = self.bits = 0
        self.salts: list[int] = []
        #: The BRS fixed move of each position met in this search.
        self.fixed_moves: dict[int, int] = {}
        self.root_moves: list[int] = []
        #: Whether the last iteration left a leaf at its horizon (else deeper ones repeat it).
        self.horizon = False
        #: The best line so far of an unfinished iteration: (scalar, pv, vector).
        self.partial: tuple[int, list[int], tuple[int, ...]] | None = None

    # -- control from other threads -------------------------------------------

    def resize(self, hash_mb: int) -> None:
        """Resize (and clear) the transposition table."""
        self.tt.resize(hash_mb)

    def clear(self) -> None:
        """Forget the transposition table and the move-ordering statistics."""
        self.tt.clear()
        self.forget()

    def forget(self) -> None:
        """Forget this worker's move-ordering statistics (a shared table is its owner's to clear)."""
        self.history = {}

    def stop(self) -> None:
        """Make the running search return as soon as possible."""
        self.control.stop()

    def ponderhit(self) -> None:
        """Turn the running ponder search into a timed search, timed from now."""
        self.control.ponderhit()

    # -- the strategy the driver deepens -------------------------------------------

    def search(self, game: Game, pos: Position, limits: Limits, *, multipv: int = 1,
               move_overhead_ms: int = 10, on_info: Callable[[Info], None] | None = None,
               control: Control | None = None, clock: Clock | None = None,
               tables: TableHook = NO_TABLES) -> SearchResult:
        """:func:`engine.driver.search` with this searcher. Reports one line
        (``multipv`` reads as 1), as :class:`VectorInfo`."""
        return drive(self, game, pos, limits, on_info=on_info, clock=clock, control=control,
                     move_overhead_ms=move_overhead_ms, tables=tables)

    def begin(self, game: Game, pos: Position, limits: Limits, tables: TableHook = NO_TABLES) -> int:
        """Ready the worker for ``pos``; a ``go mate`` bound caps the depth. ``tables`` is
        unused: games of more than two players have no exact knowledge here."""
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"unknown multiplayer search {self.algorithm!r}")
        if not isinstance(pos, Position):
            raise TypeError(f"{type(pos).__name__} does not derive from engine.position.Position")
        self.pos = pos
        self.n = len(game.players)
        # Korf's bound S: an N-player game declares it (engine.game's N-player conventions).
        self.S = game.value_sum
        self.root = pos.turn
        bits = max(1, self.S.bit_length())
        self.bits = bits if self.n * bits <= PACK_BITS else 0
        self.nodes = self.seldepth = 0
        self.node_limit = limits.nodes if limits.nodes else 1 << 62
        self.next_check = min(CHECK_EVERY, self.node_limit + 1)
        self.tt.new_search()
        base = 4 * (self.root * len(ALGORITHMS) + ALGORITHMS.index(self.algorithm))
        self.salts = [_mix(base + kind) for kind in range(4)]
        self.fixed_moves = {}
        for table in self.history.values():
            for m in table:
                table[m] >>= 1
        for pair in self.killers:
            pair[0] = pair[1] = NO_MOVE
        self.partial = None
        moves = pos.legal_moves()
        if limits.searchmoves:
            wanted = set(limits.searchmoves)
            moves = [m for m in moves if m in wanted] or moves
        self.root_moves = moves
        max_depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)
        if limits.mate:
            # A mate in N (the mover's own moves) ends within N rounds: N plies per
            # player, or 2N layers of BRS (a root move, then the others' segment).
            max_depth = min(max_depth, limits.mate * (2 if self.algorithm == "brs" else self.n))
        return max_depth

    def first_lines(self) -> list[Line]:
        vector = tuple(self.pos.values())
        return [Line(self._scalar(vector), [self.root_moves[0]], vector)]

    def iterate(self, depth: int, multipv: int, lines: list[Line] | None, report: Report) -> list[Line]:
        """One complete search to ``depth`` (one line); the best move is searched first next."""
        self.partial = None
        self.horizon = False
        line = self._iteration(depth)
        self.partial = None
        if self.ordering:
            best = line.pv[0]
            self.root_moves = [best] + [m for m in self.root_moves if m != best]
        return [line]

    def _iteration(self, depth: int) -> Line:
        if self.algorithm == "maxn":
            vector = self._maxn(depth, 0, -1, -1)
            return Line(self._scalar(vector), self.pv_table[0], tuple(vector))
        if self.algorithm == "paranoid":
            score = self._paranoid(depth, -INF, INF, 0)
        else:
            score = self._brs_max(depth, -INF, INF, 0)
        pv = self.pv_table[0]
        return Line(score, pv, self._line_vector(pv))

    def salvage(self, lines: list[Line], completed: int) -> list[Line]:
        """The unfinished iteration searched the last best move first (with the
        ordering on): its best so far is at least as well founded."""
        if self.partial is not None and (self.ordering or not completed):
            return [Line(*self.partial)]
        return lines

    def settled(self, depth: int, line: Line, limits: Limits) -> bool:
        """No leaf stood at the horizon (every deeper iteration would search the same
        tree), or a win within the ``go mate`` bound, counted in the mover's own moves."""
        plies, mate = mate_plies(line.score), limits.mate
        return not self.horizon or bool(mate and plies is not None and 0 < plies <= mate * self.n)

    def finish(self, line: Line) -> Line:
        return line if line.vector else Line(line.score, line.pv, self._line_vector(line.pv))

    def info(self, fields: dict, line: Line) -> Info:
        return VectorInfo(**fields, vector=tuple(line.vector), algorithm=self.algorithm)

    def ponder_move(self, pv: list[int]) -> int | None:
        return pv[1] if len(pv) > 1 else None

    def _line_vector(self, pv: list[int]) -> tuple[int, ...]:
        """The vector where ``pv`` ends (final or heuristic)."""
        pos = self.pos
        for m in pv:
            pos.push(m)
        result = pos.result()
        vector = tuple(result if result is not None else pos.values())
        for _ in pv:
            pos.pop()
        return vector

    # -- shared pieces of the tree -----------------------------------------------

    def _scalar(self, vector) -> int:
        """The root player's entry minus the best other entry."""
        r = self.root
        return vector[r] - max(vector[:r] + vector[r + 1:])

    def _final(self, result: list[int], ply: int) -> int:
        """A final vector as a proven score: a sole first place wins, a shared one draws."""
        d = self._scalar(result)
        return WIN - ply if d > 0 else -WIN + ply if d < 0 else 0

    def _enter(self, ply: int) -> None:
        """Count a node; look at the clock every ``CHECK_EVERY`` nodes."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            checkpoint(self, ply)
        if ply > self.seldepth:
            self.seldepth = ply

    def _order(self, moves: list[int], tt_move: int, ply: int, me: int) -> list[int]:
        """``moves`` best guess first: the table's move, the killers, then by history."""
        if not self.ordering:
            return moves
        history = self.history.get(me)
        if history:
            ranked = sorted(range(len(moves)), key=lambda i: (-history.get(moves[i], 0), i))
            moves = [moves[i] for i in ranked]
        front = [m for m in (tt_move, *self.killers[ply]) if m != NO_MOVE and m in moves]
        if front:
            front = list(dict.fromkeys(front))
            moves = front + [m for m in moves if m not in front]
        return moves

    def _reward(self, move: int, depth: int, ply: int, me: int) -> None:
        """``move`` decided the node: make it a killer and raise its history."""
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        history = self.history.setdefault(me, {})
        history[move] = history.get(move, 0) + depth * depth
        if history[move] > HISTORY_LIMIT:
            for m in history:
                history[m] //= 2

    def _moves(self, ply: int) -> list[int]:
        return self.root_moves if ply == 0 else self.pos.legal_moves()

    # -- max^n --------------------------------------------------------------------

    def _pack(self, vector) -> int:
        bits, out = self.bits, 0
        for i in range(self.n - 1, -1, -1):
            out = (out << bits) | vector[i]
        return out

    def _unpack(self, packed: int) -> list[int]:
        bits = self.bits
        mask = (1 << bits) - 1
        return [(packed >> (bits * i)) & mask for i in range(self.n)]

    def _maxn(self, depth: int, ply: int, parent: int, bound: int) -> list[int]:
        """The max^n vector of the node ``ply`` plies below the root.

        ``parent`` moved into this node and has ``bound`` at its best child so far
        (-1: none yet): the node is left as soon as it cannot beat that (Korf's
        shallow pruning), and the vector returned is then only a bound.
        """
        self._enter(ply)
        pos = self.pos
        pv_table = self.pv_table
        pv_table[ply] = []
        result = pos.result()
        if result is not None:
            return result
        if depth <= 0:
            self.horizon = True
            return pos.values()
        use_tt = self.ordering
        key = pos.key ^ self.salts[_MAXN]
        tt = self.tt
        tt_move = NO_MOVE
        if use_tt and tt.lookup(key):
            tt_move = tt.found_move
            if ply and tt.found_bound == EXACT and tt.found_depth >= depth and self.bits:
                self.horizon = True
                return self._unpack(tt.found_value)
        me = pos.turn
        S = self.S
        # The mover stops at S (nothing beats it; ties keep the first child), or earlier
        # where the parent can no longer gain here.
        if not self.pruning:
            cut = S + 1
        elif parent != me and bound >= 0:
            cut = S - bound
        else:
            cut = S
        best: list[int] = []
        best_move = NO_MOVE
        ply1, d1 = ply + 1, depth - 1
        first = True
        for m in self._order(self._moves(ply), tt_move, ply, me):
            pos.push(m)
            child = self._maxn(d1, ply1, me, best[me] if best else -1)
            pos.pop()
            if first or child[me] > best[me]:
                best, best_move = child, m
                pv_table[ply] = [m] + pv_table[ply1]
                if ply == 0:
                    self.partial = (self._scalar(best), pv_table[0], tuple(best))
                if best[me] >= cut:
                    break
            first = False
        exact = best[me] < cut or best[me] >= S
        if use_tt:
            if exact and self.bits:
                tt.store(key, best_move, depth, EXACT, self._pack(best))
            else:
                tt.store(key, best_move, 0, UPPER, 0)
            self._reward(best_move, depth, ply, me)
        return best

    # -- paranoid -----------------------------------------------------------------

    def _open(self, depth: int, alpha: int, beta: int, ply: int, kind: int) -> tuple[int, int, int | None]:
        """What a scalar node (paranoid, BRS's MAX layer) does first: a game end, the
        horizon, the table. Returns ``(key, table move, value)``; a value ends the node."""
        self._enter(ply)
        pos = self.pos
        self.pv_table[ply] = []
        result = pos.result()
        if result is not None:
            return 0, NO_MOVE, self._final(result, ply)
        if depth <= 0:
            self.horizon = True
            return 0, NO_MOVE, self._scalar(pos.values())
        key = pos.key ^ self.salts[kind]
        tt_move, v = self._probe(key, depth, alpha, beta, ply)
        return key, tt_move, v

    def _probe(self, key: int, depth: int, alpha: int, beta: int, ply: int) -> tuple[int, int | None]:
        """The table's move for ``key`` and, when its bound decides the window, its value."""
        tt = self.tt
        if not self.ordering or not tt.lookup(key):
            return NO_MOVE, None
        if ply and tt.found_depth >= depth:
            v = value_from_tt(tt.found_value, ply)
            bound = tt.found_bound
            # An exact value inside the window would end a principal line here, and the
            # line's vector (read where it ends) would not be the value's: searched instead.
            if (v >= beta or v <= alpha) if bound == EXACT else (v >= beta if bound == LOWER else v <= alpha):
                self.horizon = True
                return tt.found_move, v
        return tt.found_move, None

    def _store(self, key: int, move: int, depth: int, best: int, alpha: int, beta: int, ply: int) -> None:
        """A fail-soft result searched in (alpha, beta): a bound or exact."""
        if self.ordering:
            bound = UPPER if best <= alpha else LOWER if best >= beta else EXACT
            self.tt.store(key, move, depth, bound, value_to_tt(best, ply))

    def _paranoid(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Paranoid value (root player's scalar) in (alpha, beta): the root player
        maximises, every other player minimises."""
        key, tt_move, v = self._open(depth, alpha, beta, ply, _PARANOID)
        if v is not None:
            return v
        pos = self.pos
        pv_table = self.pv_table
        me = pos.turn
        maximising = me == self.root
        a0, b0 = alpha, beta
        best = -INF if maximising else INF
        best_move = NO_MOVE
        ply1, d1 = ply + 1, depth - 1
        for m in self._order(self._moves(ply), tt_move, ply, me):
            pos.push(m)
            v = self._paranoid(d1, alpha, beta, ply1)
            pos.pop()
            if v > best if maximising else v < best:
                best, best_move = v, m
                pv_table[ply] = [m] + pv_table[ply1]
                if ply == 0:
                    self.partial = (best, pv_table[0], ())
                if maximising:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
                if alpha >= beta:
                    if self.ordering:
                        self._reward(m, depth, ply, me)
                    break
        self._store(key, best_move, depth, best, a0, b0, ply)
        return best

    # -- best-reply search ----------------------------------------------------------

    def _brs_max(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """BRS value of a node where the root player moves (a MAX layer)."""
        key, tt_move, v = self._open(depth, alpha, beta, ply, _BRS_MAX)
        if v is not None:
            return v
        pos = self.pos
        pv_table = self.pv_table
        me = pos.turn
        a0 = alpha
        best, best_move = -INF, NO_MOVE
        ply1, d1 = ply + 1, depth - 1
        for m in self._order(self._moves(ply), tt_move, ply, me):
            pos.push(m)
            v = self._brs_next(d1, alpha, beta, ply1)
            pos.pop()
            if v > best:
                best, best_move = v, m
                pv_table[ply] = [m] + pv_table[ply1]
                if ply == 0:
                    self.partial = (best, pv_table[0], ())
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        if self.ordering:
                            self._reward(m, depth, ply, me)
                        break
        self._store(key, best_move, depth, best, a0, beta, ply)
        return best

    def _brs_next(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """After a move of the root player, ``depth`` layers left: its next turn, the
        horizon, or an opponent segment."""
        pos = self.pos
        if pos.turn == self.root or pos.result() is not None:
            return self._brs_max(depth, alpha, beta, ply)
        if depth <= 0:
            self._enter(ply)
            self.pv_table[ply] = []
            self.horizon = True
            return self._scalar(pos.values())
        return self._brs_min(depth, alpha, beta, ply, False)

    def _brs_after(self, depth: int, alpha: int, beta: int, ply: int, branched: bool) -> int:
        """After an opponent's move in a segment: the segment goes on, or it ends
        (the root player's turn, one layer spent); a segment where nobody branched
        is no BRS line (+INF, which the minimum ignores)."""
        pos = self.pos
        result = pos.result()
        if result is not None:
            self._enter(ply)
            self.pv_table[ply] = []
            return self._final(result, ply)
        if pos.turn == self.root:
            return self._brs_max(depth - 1, alpha, beta, ply) if branched else INF
        return self._brs_min(depth, alpha, beta, ply, branched)

    def _brs_min(self, depth: int, alpha: int, beta: int, ply: int, branched: bool) -> int:
        """BRS value of an opponent's node in a segment: it branches on all its moves,
        or (when no other opponent of the segment has) plays its fixed move and
        leaves the branching to a later opponent of the segment."""
        self._enter(ply)
        pos = self.pos
        pv_table = self.pv_table
        pv_table[ply] = []
        ply1 = ply + 1
        if branched:
            m = self._fixed()
            pos.push(m)
            v = self._brs_after(depth, alpha, beta, ply1, True)
            pos.pop()
            pv_table[ply] = [m] + pv_table[ply1]
            return v
        key = pos.key ^ self.salts[_BRS_MIN]
        tt_move, found = self._probe(key, depth, alpha, beta, ply)
        if found is not None:
            return found
        me = pos.turn
        b0 = beta
        best, best_move = INF, NO_MOVE
        moves = self._order(pos.legal_moves(), tt_move, ply, me)
        fixed = self._fixed()
        # The branching moves, then the fixed move that passes the branching on.
        for i in range(len(moves) + 1):
            m = moves[i] if i < len(moves) else fixed
            pos.push(m)
            v = self._brs_after(depth, alpha, beta, ply1, i < len(moves))
            pos.pop()
            if v < best:
                best, best_move = v, m
                pv_table[ply] = [m] + pv_table[ply1]
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        if self.ordering:
                            self._reward(m, depth, ply, me)
                        break
        self._store(key, best_move, depth, best, alpha, b0, ply)
        return best

    def _fixed(self) -> int:
        """The fixed move of the player to move: best for its own scalar after one ply."""
        pos = self.pos
        key = pos.key
        cached = self.fixed_moves.get(key)
        if cached is not None:
            return cached
        me = pos.turn
        best, move = -INF, NO_MOVE
        for m in pos.legal_moves():
            pos.push(m)
            result = pos.result()
            vector = result if result is not None else pos.values()
            pos.pop()
            v = vector[me] - max(vector[:me] + vector[me + 1:])
            if v > best:
                best, move = v, m
        self.fixed_moves[key] = move
        return move
