"""Exact reversi endgame solver: the final disc difference with perfect play.

The value of a position is the side to move's discs minus the opponent's when neither
side can move any more, empties not counted (the game's own scoring, see
:mod:`games.reversi`; on a full board it is the usual Othello score).

Alpha-beta (negamax, fail-soft) over the two bitboards, with the techniques of
endgame solvers such as Edax and Zebra:

- the root proves the win, draw or loss first (the window -1..1), then the exact
  score on its side by null windows (:func:`games.reversi.split.prove`), all the
  searches sharing the table;
- moves come from the Kogge-Stone mobility mask, the discs each flips from rays
  (:mod:`games.reversi.bitboard`); passes are followed by a second look for the
  opponent, and two passes end the game;
- far from the end (more than ``SHALLOW`` empties): the move the table remembers
  first, searched before the others are ordered (when it ends the node, their
  ordering is never paid for); then fastest-first ordering (the move that leaves
  the opponent the fewest replies, a corner reply counting twice, ties broken by
  the fewest empties beside our discs; our own corner moves a little earlier), and
  principal-variation search (null windows after the first move). From
  ``SORT_EMPTIES`` empties on, where each node costs a whole subtree, moves are
  ordered instead by a shallow alpha-beta search (0-3 plies by the empties) over a
  cheap evaluation (mobility, potential mobility and discs held at the corners),
  with the opponent's replies and potential mobility after the move added once
  more (it only orders, never bounds a score).
  The table has ``TABLE_SIZE`` slots in pairs indexed by a hash of the two
  bitboards, each slot one position (both bitboards kept, so a hit is exact): the
  first of a pair keeps the position with the most empties of the current solve,
  the second the newest;
- enhanced transposition cut-offs from ``ETC_EMPTIES`` empties: a child whose
  bound in the table already refutes the window ends the node before any search;
- stability cut-offs from 5 empties: when the window asks for a big win, the
  opponent's stable discs (whole lines filled in the four directions, stable edge
  discs, and discs held by stable neighbours in every direction) bound the score
  from above;
- near the end: moves in odd regions (quadrants holding an odd number of empties)
  first, corners first and X-squares last within each, no table; from ``SMALL``
  empties down the empty squares are tried directly (a square that flips nothing is
  no move), without a mobility mask;
- the last empty square is counted directly: the flips of one move, or of the
  opponent's, or none.

In the compiled build (``endgame.pxd``) the search runs on C integers: the move
lists of each depth and the table live in C arrays of the :class:`Solver`.

``Threads`` > 1 (:class:`ReversiExact`, :func:`solve_margin`) solves a root of
``PARALLEL_EMPTIES`` empties or more on worker processes, each with a solver of its
own, split along the principal variation (:mod:`games.reversi.split`); the values are
the one solver's.
"""

from __future__ import annotations

from typing import Any

import cython  # type: ignore[import-untyped]

import math
import time
from dataclasses import dataclass
from typing import Callable

from engine.control import Control, Stopped
from engine.game import Exact, ExactConfig, margin_score
from engine.switch import switch_point
from games.reversi.bitboard import PASS, bit_index, flips, mobility, popcount
from games.reversi.board import _edge_bits, _neighbours, edge_stable
from games.reversi.split import PARALLEL_EMPTIES, Pool, prove

#: Endgames are solved exactly in the search (at every node, so much smaller than the
#: root's ``EndgameEmpties``) from this many empties.
SEARCH_EMPTIES = 8
#: Most empties a root solve takes: the whole board (a clock stops it where it cannot finish).
MAX_EMPTIES = 60

#: Empties at and below which the search stops ordering by mobility and using the table.
SHALLOW = 6
#: Empties at and below which the empty squares are tried directly, with no mobility mask.
SMALL = 4
#: Empties from which the children's table entries are looked at before any search.
ETC_EMPTIES = 8
#: Empties from which moves are ordered by a shallow search of an evaluation
#: (``_SORT_DEPTH`` plies deep) instead of by the opponent's mobility alone.
SORT_EMPTIES = 12
#: Weights, in the ordering search's units (8 a move), of the opponent's replies
#: (corner replies count twice) and potential mobility added to its value.
_SORT_MOBILITY = 8
_SORT_POTENTIAL = 4
#: Fastest first: the weight of a reply against one empty beside our discs.
_FAST_MOBILITY = 16
#: Plies of that ordering search per number of empties (-1: none).
_SORT_DEPTH = [-1 if n < SORT_EMPTIES else min(3, (n - SORT_EMPTIES) // 3) for n in range(61)]
#: Nodes between two looks at the control of a root solve (and two switch points).
CHECK_EVERY = 4096
#: Slots of the table of bounds (a power of two: 2**20 slots, 19 MB in the compiled
#: build), and the hash's shift to index them.
TABLE_BITS = 20
TABLE_SIZE = 1 << TABLE_BITS
#: Most moves a reversi position can have (the record is 33) plus room: the width of
#: one depth's move list.
MAX_MOVES = 48

_MASK = (1 << 64) - 1  # a C constant in the compiled build
_ONE = 1  # shifted by a square: in C, ``1 << sq`` would be a 32-bit int
#: Odd multipliers for the table's hash of the two bitboards.
_HASH_OWN = 0x9E3779B97F4A7C15
_HASH_OPP = 0xC2B2AE3D27D4EB4F
_TABLE_SHIFT = 64 - TABLE_BITS
_CORNERS = 1 | 1 << 7 | 1 << 56 | 1 << 63
_X_SQUARES = 1 << 9 | 1 << 14 | 1 << 49 | 1 << 54
_PLAIN = _MASK & ~_CORNERS & ~_X_SQUARES
_QUADRANTS = (0x0F0F0F0F, 0xF0F0F0F0, 0x0F0F0F0F << 32, 0xF0F0F0F0 << 32)
_Q0, _Q1, _Q2, _Q3 = _QUADRANTS
#: A score below every real one (scores lie in -64..64).
_NONE = -65
#: Beyond every value of the ordering search.
_SORT_INF = 1 << 20

# Stability: lines of the board and its border.
_COL_A = 0x0101010101010101
_NOT_A = _MASK & ~_COL_A
_NOT_H = _MASK & ~(_COL_A << 7)
_ROW_1 = 0xFF
_COLS_AH = _COL_A | _COL_A << 7
_ROWS_18 = _ROW_1 | _ROW_1 << 56
_BORDER = _COLS_AH | _ROWS_18


def _diagonals(step: int) -> list[int]:
    """The 15 diagonals of the board along ``step`` (7: towards a8, 9: towards h8), as masks."""
    out = []
    for start in range(15):
        mask = 0
        for sq in range(64):
            r, c = divmod(sq, 8)
            if (r + c if step == 7 else r - c + 7) == start:
                mask |= 1 << sq
        out.append(mask)
    return out


_DIAG7 = _diagonals(7)
_DIAG9 = _diagonals(9)
#: Per 8-bit edge ``own << 8 | opp``: the own discs no play along the edge can flip.
_EDGE_STABLE = [s & (i >> 8) for i, s in enumerate(edge_stable())]
#: Per number of empties: the least alpha at which the stability cut-off is tried (Edax's
#: thresholds, about: below them the opponent rarely has stable discs enough to cut).
_STAB_THRESHOLD = [99 if n < 4 else 2 * n - 2 if n < 10 else 2 * n if n <= 24 else min(64, 24 + n)
                   for n in range(61)]


def _zeros(n: int) -> list[Any]:
    """A list of ``n`` zeros (what the compiled build copies into a C array)."""
    return [0] * n


def _odd_regions(empty: int) -> int:
    """The empties lying in quadrants that hold an odd number of empties."""
    odd = 0
    if popcount(empty & _Q0) & 1:
        odd |= _Q0
    if popcount(empty & _Q1) & 1:
        odd |= _Q1
    if popcount(empty & _Q2) & 1:
        odd |= _Q2
    if popcount(empty & _Q3) & 1:
        odd |= _Q3
    return odd & empty


def _column(bits: int, col: int) -> int:
    """The 8-bit row ``bits`` (bit k = row k) put back as column ``col`` of the board."""
    out = 0
    for k in range(8):
        if bits >> k & 1:
            out |= _ONE << (8 * k + col)
    return out


def stable_discs(own: int, opp: int) -> int:
    """Discs of ``own`` that no continuation can flip (a subset of them: what the three
    rules below find).

    A disc with every line through it filled cannot be flanked; an edge disc that no
    play along its edge can flip is stable; and a disc is stable when, in each of the
    four directions, its line is full, it lies on the border, or a neighbour along the
    line is a stable disc of its colour (a flanked run would have to flip that one too).
    """
    filled = own | opp
    full_h = full_v = full_d7 = full_d9 = 0
    for i in range(8):
        m = _ROW_1 << (8 * i)
        if filled & m == m:
            full_h |= m
        m = _COL_A << i
        if filled & m == m:
            full_v |= m
    for i in range(15):
        m = _DIAG7[i]
        if filled & m == m:
            full_d7 |= m
        m = _DIAG9[i]
        if filled & m == m:
            full_d9 |= m
    st = (own & full_h & full_v & full_d7 & full_d9
          | _EDGE_STABLE[(own & 0xFF) << 8 | (opp & 0xFF)]
          | _ONE * _EDGE_STABLE[(own >> 56) << 8 | (opp >> 56)] << 56
          | _column(_EDGE_STABLE[_edge_bits(own, 0) << 8 | _edge_bits(opp, 0)], 0)
          | _column(_EDGE_STABLE[_edge_bits(own, 7) << 8 | _edge_bits(opp, 7)], 7))
    if not st:
        return st
    while True:
        h = full_h | _COLS_AH | (st << 1 & _NOT_A) | (st >> 1 & _NOT_H)
        v = full_v | _ROWS_18 | st << 8 | st >> 8
        d7 = full_d7 | _BORDER | (st << 7 & _NOT_H) | (st >> 7 & _NOT_A)
        d9 = full_d9 | _BORDER | (st << 9 & _NOT_A) | (st >> 9 & _NOT_H)
        grown = st | (own & h & v & d7 & d9)
        if grown == st:
            return st
        st = grown


def _final(own: int, opp: int, count_empties: bool) -> int:
    """Score of a finished game: the disc difference, plus the empties for the winner
    when ``count_empties``."""
    diff = popcount(own) - popcount(opp)
    if count_empties and diff:
        empties = 64 - popcount(own | opp)
        return diff + empties if diff > 0 else diff - empties
    return diff


def _last(own: int, opp: int, sq: int, count_empties: bool) -> int:
    """Score with one empty square left: the mover plays it, else the opponent, else nobody."""
    diff = popcount(own) - popcount(opp)
    n = popcount(flips(own, opp, sq))
    if n:
        return diff + 2 * n + 1
    n = popcount(flips(opp, own, sq))
    if n:
        return diff - 2 * n - 1
    return _final(own, opp, count_empties)


def _corner_stable(p: int) -> int:
    """Corners of ``p`` and the edge squares beside them that ``p`` also holds."""
    return popcount((((0x0100000000000001 & p) << 1) | ((0x8000000000000080 & p) >> 1)
                     | ((0x0000000000000081 & p) << 8) | ((0x8100000000000000 & p) >> 8) | _CORNERS) & p)


def _sort_eval(own: int, opp: int) -> int:
    """A cheap value for the side to move, for move ordering only (never a score): its
    mobility against the opponent's (corner moves counting twice), potential mobility
    (empties beside the opponent's discs) and discs held at the corners."""
    empty = ~(own | opp) & _MASK
    m_own = mobility(own, opp)
    m_opp = mobility(opp, own)
    return (8 * (popcount(m_own) + popcount(m_own & _CORNERS) - popcount(m_opp) - popcount(m_opp & _CORNERS))
            + popcount(_neighbours(opp) & empty) - popcount(_neighbours(own) & empty)
            + 16 * (_corner_stable(own) - _corner_stable(opp)))


class Solver:
    """Solves positions exactly: counts its nodes and keeps its table of bounds across
    solves (entries are exact facts about positions, valid for any later solve).

    ``count_empties`` scores as the FFO test suite and most Othello programs do: the
    empty squares of a game that ends before the board is full go to the winner.

    While :attr:`control` is set, the solve raises :class:`engine.control.Stopped` when
    it expires, and also once :attr:`max_nodes` (when not 0) have been searched; the
    table keeps only bounds of finished nodes, so it stays valid.
    """

    def __init__(self, count_empties: bool = False) -> None:
        self.count_empties = count_empties
        self.nodes = 0
        self.max_nodes = 0
        self.control: Control | None = None
        self._next_check = CHECK_EVERY
        self._generation = 0
        if not cython.compiled:  # in C these arrays are part of the object, zeroed with it
            # The move lists, one per depth (indexed by the number of empties): square,
            # flipped discs and ordering cost of each move at ``MAX_MOVES * empties + i``.
            self._sq = _zeros(MAX_MOVES * 61)
            self._flip = _zeros(MAX_MOVES * 61)
            self._cost = _zeros(MAX_MOVES * 61)
            # The table of bounds: a slot is empty while both of its bitboards are 0; its
            # position's empties and the solve (generation) that stored it.
            self._t_own = _zeros(TABLE_SIZE)
            self._t_opp = _zeros(TABLE_SIZE)
            self._t_lo = _zeros(TABLE_SIZE)
            self._t_hi = _zeros(TABLE_SIZE)
            self._t_move = _zeros(TABLE_SIZE)
            self._t_empties = _zeros(TABLE_SIZE)
            self._t_gen = _zeros(TABLE_SIZE)

    def solve(self, own: int, opp: int, alpha: int = -64, beta: int = 64) -> int:
        """Exact score if it lies strictly inside ``(alpha, beta)``, else a bound on
        the side of the window it falls (fail-soft)."""
        return self._search(own, opp, alpha, beta, False)

    def best(self, own: int, opp: int) -> tuple[int, int]:
        """``(score, move)``: the exact score and a move achieving it (``PASS`` when the
        side to move must pass, ``-1`` when the game is over). The win, draw or loss is
        proved first, then the exact score on its side by null windows (:func:`prove`)."""
        self.begin()
        return prove(self.root, own, opp)

    def begin(self) -> None:
        """Start a new solve: the table's first slots go to its positions from now on."""
        self._generation = (self._generation + 1) & 255

    def root_moves(self, own: int, opp: int, first: int) -> list:
        """The moves of the side to move as ``(square, flipped discs)``, in the order the
        root searches them: ``first`` (a square, -1 for none) ahead, then ordered."""
        empties = popcount(~(own | opp) & _MASK)
        count = self._gen_moves(own, opp, empties, first)
        self._order(own, opp, empties, 1 if count and self._sq[MAX_MOVES * empties] == first else 0, count)
        # Copied: the searches below reuse this depth's list.
        base = MAX_MOVES * empties
        return [(self._sq[base + i], self._flip[base + i]) for i in range(count)]

    def root(self, own: int, opp: int, alpha: int, beta: int) -> tuple[int, int]:
        """``(score, move)`` at the root within the window ``(alpha, beta)``, fail-soft:
        the score is exact inside it, a bound outside it; the move is the best one
        found (the first one when every move fails low)."""
        slot = self._lookup(own, opp)
        moves = self.root_moves(own, opp, self._t_move[slot] if slot >= 0 else -1)
        if not moves:
            if mobility(opp, own):
                return -self._search(opp, own, -beta, -alpha, True), PASS
            return _final(own, opp, self.count_empties), -1
        best, best_move = _NONE, moves[0][0]
        for sq, f in moves:
            no, nq = opp & ~f, own | f | _ONE << sq
            a = max(alpha, best)
            # Null window first: only a move that beats the best so far is searched exactly.
            if best > _NONE:
                v = -self._search(no, nq, -a - 1, -a, False)
                if v <= a:
                    # Still a bound: the root's own upper bound is the highest of them.
                    best = max(best, v)
                    continue
            v = -self._search(no, nq, -beta, -a, False)
            if v > best:
                best, best_move = v, sq
                if v >= beta:
                    break
        return best, best_move

    def _lookup(self, own: int, opp: int) -> int:
        """The table slot holding the position, or -1."""
        slot = (((own * _HASH_OWN ^ opp * _HASH_OPP) & _MASK) >> _TABLE_SHIFT) & ~1
        if self._t_own[slot] == own and self._t_opp[slot] == opp:
            return slot
        slot |= 1
        if self._t_own[slot] == own and self._t_opp[slot] == opp:
            return slot
        return -1

    def _store(self, own: int, opp: int, n: int, lo: int, hi: int, move: int) -> None:
        """Keep the bounds: in the slot already holding the position, else in the first
        of its pair when it has at least that slot's empties or that slot is from an
        earlier solve, else in the second."""
        slot = self._lookup(own, opp)
        if slot < 0:
            slot = (((own * _HASH_OWN ^ opp * _HASH_OPP) & _MASK) >> _TABLE_SHIFT) & ~1
            if n < self._t_empties[slot] and self._t_gen[slot] == self._generation:
                slot |= 1
        self._t_own[slot] = own
        self._t_opp[slot] = opp
        self._t_lo[slot] = lo
        self._t_hi[slot] = hi
        self._t_move[slot] = move
        self._t_empties[slot] = n
        self._t_gen[slot] = self._generation

    def _gen_moves(self, own: int, opp: int, empties: int, first: int) -> int:
        """Fill this depth's move list, unordered but for ``first`` (a square from the
        table) at its head; returns the number of moves."""
        base = MAX_MOVES * empties
        mob = mobility(own, opp)
        count = 0
        while mob:
            b = mob & -mob
            mob ^= b
            sq = bit_index(b)
            f = flips(own, opp, sq)
            if sq == first and count:
                self._sq[base + count] = self._sq[base]
                self._flip[base + count] = self._flip[base]
                self._sq[base] = sq
                self._flip[base] = f
            else:
                self._sq[base + count] = sq
                self._flip[base + count] = f
            count += 1
        return count

    def _order(self, own: int, opp: int, empties: int, start: int, count: int) -> None:
        """Order the moves ``start..count`` of this depth's list: fastest first, or by
        the ordering search far from the end."""
        base = MAX_MOVES * empties
        depth = _SORT_DEPTH[empties]
        for j in range(start, count):
            sq = self._sq[base + j]
            f = self._flip[base + j]
            b = _ONE << sq
            nq = own | f | b
            reply = mobility(opp & ~f, nq)
            if depth >= 0:
                # Far from the end: the opponent's value after a shallow search, with
                # its replies and potential mobility weighed in once more (as Edax does).
                cost = (self._sort_search(opp & ~f, nq, depth, -_SORT_INF, _SORT_INF, False)
                        + _SORT_MOBILITY * (popcount(reply) + popcount(reply & _CORNERS))
                        + _SORT_POTENTIAL * popcount(_neighbours(nq) & ~(nq | opp) & _MASK))
            else:
                # Fewest replies (corner replies count twice) first, ties broken by the
                # fewest empties beside our discs (the opponent's potential mobility);
                # our corners a little earlier.
                cost = (_FAST_MOBILITY * (popcount(reply) + popcount(reply & _CORNERS))
                        + popcount(_neighbours(nq) & ~(nq | opp) & _MASK))
                if b & _CORNERS:
                    cost -= 8
            # Insertion into the sorted part (stable: equal costs keep square order).
            i = j
            while i > start and self._cost[base + i - 1] > cost:
                self._sq[base + i] = self._sq[base + i - 1]
                self._flip[base + i] = self._flip[base + i - 1]
                self._cost[base + i] = self._cost[base + i - 1]
                i -= 1
            self._sq[base + i] = sq
            self._flip[base + i] = f
            self._cost[base + i] = cost

    def _sort_search(self, own: int, opp: int, depth: int, alpha: int, beta: int, passed: bool) -> int:
        """Alpha-beta over :func:`_sort_eval`, ``depth`` plies: the value that orders a move."""
        self.nodes += 1
        if depth == 0:
            return _sort_eval(own, opp)
        mob = mobility(own, opp)
        if not mob:
            if passed:
                return 64 * _final(own, opp, False)
            return -self._sort_search(opp, own, depth, -beta, -alpha, True)
        best = -_SORT_INF
        while mob:
            b = mob & -mob
            mob ^= b
            f = flips(own, opp, bit_index(b))
            v = -self._sort_search(opp & ~f, own | f | b, depth - 1, -beta, -max(alpha, best), False)
            if v > best:
                best = v
                if v >= beta:
                    break
        return best

    def _check(self) -> int:
        """Every ``CHECK_EVERY`` nodes: a switch point, the control and the node limit."""
        self._next_check = self.nodes + CHECK_EVERY
        # Compiled, the solve would keep the GIL from the protocol reader until it ends.
        switch_point()
        if self.control is not None:
            self.control.check()
        if self.max_nodes and self.nodes >= self.max_nodes:
            raise Stopped
        return 0

    def _search(self, own: int, opp: int, alpha: int, beta: int, passed: bool) -> int:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check()
        empty = ~(own | opp) & _MASK
        n = popcount(empty)
        if n <= SHALLOW:
            if n <= SMALL:
                if n == 1:
                    return _last(own, opp, bit_index(empty), self.count_empties)
                return self._small(own, opp, empty, n, alpha, beta, passed)
            return self._shallow(own, opp, empty, alpha, beta, passed)
        if alpha >= _STAB_THRESHOLD[n]:
            # The opponent's stable discs are theirs at the end: our score is at most this.
            top = 64 - 2 * popcount(stable_discs(opp, own))
            if top <= alpha:
                return top
            if top < beta:
                beta = top
        slot = self._lookup(own, opp)
        first = -1
        lo, hi = -64, 64
        if slot >= 0:
            lo, hi, first = self._t_lo[slot], self._t_hi[slot], self._t_move[slot]
            if lo >= beta:
                return lo
            if hi <= alpha or lo == hi:
                # An exact value inside the window ends the node too: searched with
                # the window closed to it, a cut-off would be stored as the wrong bound.
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        a0 = alpha
        count = self._gen_moves(own, opp, n, first)
        if not count:
            if passed:
                return _final(own, opp, self.count_empties)
            return -self._search(opp, own, -beta, -alpha, True)
        base = MAX_MOVES * n
        if n >= ETC_EMPTIES:
            # A child whose table bound already refutes the window ends this node.
            for i in range(count):
                f = self._flip[base + i]
                no, nq = opp & ~f, own | f | _ONE << self._sq[base + i]
                child = self._lookup(no, nq)
                if child >= 0 and -self._t_hi[child] >= beta:
                    return -self._t_hi[child]
        best, best_move = _NONE, -1
        # The table's move first, before the others are ordered: it often ends the node.
        start = 1 if self._sq[base] == first else 0
        for i in range(count):
            if i == start:
                self._order(own, opp, n, start, count)
            sq = self._sq[base + i]
            f = self._flip[base + i]
            no, nq = opp & ~f, own | f | _ONE << sq
            if i == 0:
                v = -self._search(no, nq, -beta, -alpha, False)
            else:
                v = -self._search(no, nq, -alpha - 1, -alpha, False)
                if alpha < v < beta:
                    v = -self._search(no, nq, -beta, -v, False)
            if v > best:
                best, best_move = v, sq
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        if best <= a0:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        self._store(own, opp, n, lo, hi, best_move)
        return best

    def _shallow(self, own: int, opp: int, empty: int, alpha: int, beta: int, passed: bool) -> int:
        if alpha >= _STAB_THRESHOLD[popcount(empty)]:
            # As in the search above: the opponent's stable discs bound our score.
            top = 64 - 2 * popcount(stable_discs(opp, own))
            if top <= alpha:
                return top
            if top < beta:
                beta = top
        # Odd regions first: the side that moves last in a region gains there. Within
        # each, corners first and X-squares (next to a corner) last.
        mob = mobility(own, opp)
        if not mob:
            if passed:
                return _final(own, opp, self.count_empties)
            return -self._search(opp, own, -beta, -alpha, True)
        odd = _odd_regions(empty)
        best = _NONE
        for k in range(6):
            group = mob & (odd if k < 3 else ~odd)
            k3 = k % 3
            group &= _CORNERS if k3 == 0 else _PLAIN if k3 == 1 else _X_SQUARES
            while group:
                b = group & -group
                group ^= b
                f = flips(own, opp, bit_index(b))
                v = -self._search(opp & ~f, own | f | b, -beta, -max(alpha, best), False)
                if v > best:
                    best = v
                    if v >= beta:
                        return v
        return best

    def _small(self, own: int, opp: int, empty: int, n: int, alpha: int, beta: int, passed: bool) -> int:
        """2 to ``SMALL`` empties: each empty square in turn (odd regions first), a move
        when it flips something; the last square counted directly."""
        odd = _odd_regions(empty)
        best = _NONE
        for k in range(2):
            group = empty & odd if k == 0 else empty & ~odd
            while group:
                b = group & -group
                group ^= b
                f = flips(own, opp, bit_index(b))
                if not f:
                    continue
                no, nq = opp & ~f, own | f | b
                self.nodes += 1
                if n == 2:
                    v = -_last(no, nq, bit_index(empty ^ b), self.count_empties)
                else:
                    v = -self._small(no, nq, empty ^ b, n - 1, -beta, -max(alpha, best), False)
                if v > best:
                    best = v
                    if v >= beta:
                        return v
        if best == _NONE:
            if passed:
                return _final(own, opp, self.count_empties)
            self.nodes += 1
            return -self._small(opp, own, empty, n, -beta, -alpha, True)
        return best


def solve(pos) -> tuple[int, int]:
    """``(score, move)`` of a :class:`games.reversi.ReversiPosition`: its exact final disc
    difference for the side to move and a move that achieves it."""
    return Solver().best(pos.own, pos.opp)


@dataclass
class Solution:
    """Black's exact final disc difference with best play, a first move that achieves
    it (``-1``: none), and the solve's cost."""

    margin: int
    move: int
    nodes: int
    seconds: float
    searches: int


def solve_margin(pos, deadline: float | None = None, max_nodes: int | None = None,
                 report: Callable[[int, int, int, float], None] | None = None, threads: int = 1) -> Solution:
    """Solve ``pos`` exactly, the win/draw/loss first (:func:`games.reversi.split.prove`):
    ``report(lo, hi, nodes, seconds)`` gets the mover's bounds after each search that
    leaves them apart. Raises :class:`engine.control.Stopped`
    past ``deadline`` (``time.perf_counter()``) or ``max_nodes``. ``threads`` > 1 solves
    a position of ``PARALLEL_EMPTIES`` empties or more with that many worker processes
    (:mod:`games.reversi.split`), closed before the answer."""
    t0 = time.perf_counter()
    solver: Any = Solver()
    pool = None
    if threads > 1 and 64 - popcount(pos.own | pos.opp) >= PARALLEL_EMPTIES:
        pool = solver = Pool(threads, Solver)
        solver.start()
    solver.control = Control(math.inf if deadline is None else deadline)
    solver.max_nodes = max_nodes or 0
    searches = 0

    def step(lo: int, hi: int) -> None:
        nonlocal searches
        searches += 1
        if report is not None and lo != hi:
            report(lo, hi, solver.nodes, time.perf_counter() - t0)

    try:
        score, move = prove(solver.root, pos.own, pos.opp, step)
    finally:
        if pool is not None:
            pool.close()
    sign = 1 if pos.turn == 0 else -1
    return Solution(sign * score, move, solver.nodes, time.perf_counter() - t0, searches)


class ReversiExact(Exact):
    """Exact scores (search units, see :func:`engine.game.margin_score`) of reversi
    positions with at most ``search_empties`` empty squares, and the best move at the
    root with at most ``root_empties``. The table of bounds is kept between probes.
    With ``threads`` > 1 a root of ``PARALLEL_EMPTIES`` empties or more is solved by
    that many worker processes (:mod:`games.reversi.split`), started at the first such
    root and kept, with their tables, until :meth:`close`."""

    margin_unit = "discs"

    def __init__(self, game, search_empties: int = SEARCH_EMPTIES, root_empties: int = ExactConfig.endgame_empties,
                 threads: int = 1):
        self.search_empties, self.root_empties = search_empties, root_empties
        self.solver = Solver()
        self.threads = threads
        self.pool: Pool | None = None

    def _empties(self, pos) -> int:
        return 64 - popcount(pos.own | pos.opp)

    def score(self, pos) -> int | None:
        if self._empties(pos) > self.search_empties:
            return None
        return margin_score(self.solver.solve(pos.own, pos.opp))

    def best(self, pos, control: Control | None = None) -> tuple[int, int] | None:
        """``(move, score)`` at the root, or ``None`` beyond ``root_empties`` or at the end.
        Raises :class:`engine.control.Stopped` when ``control`` expires first."""
        if self._empties(pos) > self.root_empties or not pos.legal_moves():
            return None
        solver: Any = self.solver
        if self.threads > 1 and self._empties(pos) >= PARALLEL_EMPTIES:
            if self.pool is None:
                self.pool = Pool(self.threads, Solver)
            solver = self.pool
        solver.control = control
        try:
            score, move = solver.best(pos.own, pos.opp)
        finally:
            solver.control = None
        return move, margin_score(score)

    def nodes(self) -> int | None:
        return self.solver.nodes + (self.pool.nodes if self.pool is not None else 0)

    def set_threads(self, threads: int) -> None:
        if threads != self.threads:
            self.close()
            self.threads = threads

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = None
