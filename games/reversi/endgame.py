"""Exact reversi endgame solver: the final disc difference with perfect play.

The value of a position is the side to move's discs minus the opponent's when neither
side can move any more, empties not counted (the game's own scoring, see
:mod:`games.reversi`; on a full board it is the usual Othello score).

Alpha-beta (negamax, fail-soft) over the two bitboards, with the techniques of
endgame solvers such as Edax and Zebra:

- moves come from the Kogge-Stone mobility mask, the discs each flips from rays
  (:mod:`games.reversi.bitboard`); passes are followed by a second look for the
  opponent, and two passes end the game;
- far from the end (more than ``SHALLOW`` empties): fastest-first ordering (the
  move that leaves the opponent the fewest replies, a corner reply counting twice;
  our own corner moves a little earlier) after the move a table of bounds remembers, and principal-variation search (null windows after the
  first move). The table has ``TABLE_SIZE`` slots indexed by a hash of the two
  bitboards, each slot one position (both bitboards kept, so a hit is exact), the
  newest position winning a slot;
- near the end: moves in odd regions (quadrants holding an odd number of empties)
  first, corners first and X-squares last within each, no table;
- the last empty square is counted directly: the flips of one move, or of the
  opponent's, or none.

In the compiled build (``endgame.pxd``) the search runs on C integers: the move
lists of each depth and the table live in C arrays of the :class:`Solver`.
"""

from __future__ import annotations

from typing import Any

import cython  # type: ignore[import-untyped]

from engine.control import Control
from engine.game import Exact, margin_score
from engine.switch import switch_point
from games.reversi.bitboard import PASS, bit_index, flips, mobility, popcount

#: Default endgame: solved exactly at the root from this many empties (``EndgameEmpties``),
#: and in the search (at every node, so much smaller) from ``SEARCH_EMPTIES``.
ROOT_EMPTIES = 12
SEARCH_EMPTIES = 8

#: Empties at and below which the search stops ordering by mobility and using the table.
SHALLOW = 6
#: Nodes between two looks at the control of a root solve (and two switch points).
CHECK_EVERY = 1024
#: Slots of the table of bounds (a power of two), and the hash's shift to index them.
TABLE_BITS = 16
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


class Solver:
    """Solves positions exactly: counts its nodes and keeps its table of bounds across
    solves (entries are exact facts about positions, valid for any later solve).

    ``count_empties`` scores as the FFO test suite and most Othello programs do: the
    empty squares of a game that ends before the board is full go to the winner.

    While :attr:`control` is set, the solve raises :class:`engine.control.Stopped` when
    it expires; the table keeps only bounds of finished nodes, so it stays valid.
    """

    def __init__(self, count_empties: bool = False) -> None:
        self.count_empties = count_empties
        self.nodes = 0
        self.control: Control | None = None
        self._next_check = CHECK_EVERY
        if not cython.compiled:  # in C these arrays are part of the object, zeroed with it
            # The move lists, one per depth (indexed by the number of empties): square,
            # flipped discs and ordering cost of each move at ``MAX_MOVES * empties + i``.
            self._sq = _zeros(MAX_MOVES * 61)
            self._flip = _zeros(MAX_MOVES * 61)
            self._cost = _zeros(MAX_MOVES * 61)
            # The table of bounds: a slot is empty while both of its bitboards are 0.
            self._t_own = _zeros(TABLE_SIZE)
            self._t_opp = _zeros(TABLE_SIZE)
            self._t_lo = _zeros(TABLE_SIZE)
            self._t_hi = _zeros(TABLE_SIZE)
            self._t_move = _zeros(TABLE_SIZE)

    def solve(self, own: int, opp: int, alpha: int = -64, beta: int = 64) -> int:
        """Exact score if it lies strictly inside ``(alpha, beta)``, else a bound on
        the side of the window it falls (fail-soft)."""
        return self._search(own, opp, alpha, beta, False)

    def best(self, own: int, opp: int) -> tuple[int, int]:
        """``(score, move)``: the exact score and a move achieving it (``PASS`` when the
        side to move must pass, ``-1`` when the game is over)."""
        empties = popcount(~(own | opp) & _MASK)
        count = self._gen_moves(own, opp, empties, -1)
        if not count:
            if mobility(opp, own):
                return -self._search(opp, own, -64, 64, True), PASS
            return _final(own, opp, self.count_empties), -1
        # The root's moves, copied: the searches below reuse this depth's list.
        base = MAX_MOVES * empties
        moves = [(self._sq[base + i], self._flip[base + i]) for i in range(count)]
        best, best_move = _NONE, -1
        for sq, f in moves:
            no, nq = opp & ~f, own | f | _ONE << sq
            # Null window first: only a move that beats the best so far is searched exactly.
            if best > _NONE:
                v = -self._search(no, nq, -best - 1, -best, False)
                if v <= best:
                    continue
            v = -self._search(no, nq, -64, -best if best > _NONE else 64, False)
            if v > best:
                best, best_move = v, sq
        return best, best_move

    def _gen_moves(self, own: int, opp: int, empties: int, first: int) -> int:
        """Fill this depth's move list, fastest first (``first``, a square from the
        table, before all); returns the number of moves."""
        base = MAX_MOVES * empties
        mob = mobility(own, opp)
        count = 0
        while mob:
            b = mob & -mob
            mob ^= b
            sq = bit_index(b)
            f = flips(own, opp, sq)
            # Fewest replies (corner replies count twice) first; our corners a little
            # earlier; the table's move first of all.
            reply = mobility(opp & ~f, own | f | b)
            cost = 4 * (popcount(reply) + popcount(reply & _CORNERS))
            if b & _CORNERS:
                cost -= 8
            if sq == first:
                cost = -1000
            # Insertion into the sorted list (stable: equal costs keep square order).
            i = count
            while i > 0 and self._cost[base + i - 1] > cost:
                self._sq[base + i] = self._sq[base + i - 1]
                self._flip[base + i] = self._flip[base + i - 1]
                self._cost[base + i] = self._cost[base + i - 1]
                i -= 1
            self._sq[base + i] = sq
            self._flip[base + i] = f
            self._cost[base + i] = cost
            count += 1
        return count

    def _search(self, own: int, opp: int, alpha: int, beta: int, passed: bool) -> int:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + CHECK_EVERY
            # Compiled, the solve would keep the GIL from the protocol reader until it ends.
            switch_point()
            if self.control is not None:
                self.control.check()
        empty = ~(own | opp) & _MASK
        n = popcount(empty)
        if n == 1:
            return _last(own, opp, bit_index(empty), self.count_empties)
        if n <= SHALLOW:
            return self._shallow(own, opp, empty, alpha, beta, passed)
        slot = ((own * _HASH_OWN ^ opp * _HASH_OPP) & _MASK) >> _TABLE_SHIFT
        first = -1
        lo, hi = -64, 64
        if self._t_own[slot] == own and self._t_opp[slot] == opp:
            lo, hi, first = self._t_lo[slot], self._t_hi[slot], self._t_move[slot]
            if lo >= beta:
                return lo
            if hi <= alpha:
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
        best, best_move = _NONE, -1
        for i in range(count):
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
        self._t_own[slot] = own
        self._t_opp[slot] = opp
        self._t_lo[slot] = lo
        self._t_hi[slot] = hi
        self._t_move[slot] = best_move
        return best

    def _shallow(self, own: int, opp: int, empty: int, alpha: int, beta: int, passed: bool) -> int:
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


def solve(pos) -> tuple[int, int]:
    """``(score, move)`` of a :class:`games.reversi.ReversiPosition`: its exact final disc
    difference for the side to move and a move that achieves it."""
    return Solver().best(pos.own, pos.opp)


class ReversiExact(Exact):
    """Exact scores (search units, see :func:`engine.game.margin_score`) of reversi
    positions with at most ``search_empties`` empty squares, and the best move at the
    root with at most ``root_empties``. The table of bounds is kept between probes."""

    margin_unit = "discs"

    def __init__(self, game, search_empties: int = SEARCH_EMPTIES, root_empties: int = ROOT_EMPTIES):
        self.search_empties, self.root_empties = search_empties, root_empties
        self.solver = Solver()

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
        self.solver.control = control
        try:
            score, move = self.solver.best(pos.own, pos.opp)
        finally:
            self.solver.control = None
        return move, margin_score(score)

    def nodes(self) -> int | None:
        return self.solver.nodes
