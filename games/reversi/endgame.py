"""Exact reversi endgame solver: the final disc difference with perfect play.

The value of a position is the side to move's discs minus the opponent's when neither
side can move any more, empties not counted (the game's own scoring, see
:mod:`games.reversi`; on a full board it is the usual Othello score).

Alpha-beta (negamax, fail-soft) over the two bitboards, with the techniques of
endgame solvers such as Edax and Zebra, scaled to Python:

- moves are the empty squares next to an opponent disc whose flip mask (along
  precomputed rays) is not empty; passes are followed by a second look for the
  opponent, and two passes end the game;
- far from the end (more than ``SHALLOW`` empties): fastest-first ordering (the
  reply that leaves the opponent the fewest moves, corners first), a table of bounds
  keyed by the two bitboards, and principal-variation search (null windows after
  the first move);
- near the end: empties tried in odd regions (quadrants holding an odd number of
  empties) first, no table;
- the last empty square is counted directly: the flips of one move, or of the
  opponent's, or none.
"""

from __future__ import annotations

from engine.control import Control
from engine.game import margin_score
from games.reversi.bitboard import PASS, flips, mobility

#: Default endgame: solved exactly at the root from this many empties (``EndgameEmpties``),
#: and in the search (at every node, so much smaller) from ``SEARCH_EMPTIES``.
ROOT_EMPTIES = 12
SEARCH_EMPTIES = 8

#: Empties at and below which the search stops ordering by mobility and using the table.
SHALLOW = 7
#: Nodes between two looks at the control of a root solve.
CHECK_EVERY = 1024

_QUAD = [(sq // 32) * 2 + (sq % 8) // 4 for sq in range(64)]


def _neighbour_masks() -> list[int]:
    out = []
    for sq in range(64):
        r, c = divmod(sq, 8)
        m = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= r + dr < 8 and 0 <= c + dc < 8:
                    m |= 1 << (8 * (r + dr) + c + dc)
        out.append(m)
    return out


_NEIGHBOURS = _neighbour_masks()
_CORNER = {0, 7, 56, 63}
#: Square order for the shallow search: corners, then edges and inner squares, X-squares last.
_PRIORITY = sorted(range(64), key=lambda s: (s not in _CORNER, s in (9, 14, 49, 54)))


class Solver:
    """One solve: its node count and its table of bounds (reusable across solves).

    While :attr:`control` is set, the solve raises :class:`engine.control.Stopped` when
    it expires; the table keeps only bounds of finished nodes, so it stays valid.
    """

    def __init__(self) -> None:
        self.nodes = 0
        self.table: dict[tuple[int, int], tuple[int, int, int]] = {}
        self.control: Control | None = None
        self._next_check = CHECK_EVERY

    def solve(self, own: int, opp: int, alpha: int = -64, beta: int = 64) -> int:
        """Exact score if it lies strictly inside ``(alpha, beta)``, else a bound on
        the side of the window it falls (fail-soft)."""
        empties = [s for s in _PRIORITY if not (own | opp) >> s & 1]
        return self._search(own, opp, empties, alpha, beta, False)

    def best(self, own: int, opp: int) -> tuple[int, int]:
        """``(score, move)``: the exact score and a move achieving it (``PASS`` when the
        side to move must pass, ``-1`` when the game is over)."""
        empties = [s for s in _PRIORITY if not (own | opp) >> s & 1]
        moves = self._moves(own, opp, empties, len(empties) > SHALLOW)
        if not moves:
            if mobility(opp, own):
                return -self._search(opp, own, empties, -64, 64, True), PASS
            return own.bit_count() - opp.bit_count(), -1
        best, best_move = -65, -1
        for sq, f in moves:
            rest = [e for e in empties if e != sq]
            no, nq = opp & ~f, own | f | 1 << sq
            # Null window first: only a move that beats the best so far is searched exactly.
            if best > -65:
                v = -self._search(no, nq, rest, -best - 1, -best, False)
                if v <= best:
                    continue
            v = -self._search(no, nq, rest, -64, -best if best > -65 else 64, False)
            if v > best:
                best, best_move = v, sq
        return best, best_move

    def _moves(self, own: int, opp: int, empties: list[int], order: bool) -> list[tuple[int, int]]:
        out = []
        for sq in empties:
            if _NEIGHBOURS[sq] & opp:
                f = flips(own, opp, sq)
                if f:
                    out.append((sq, f))
        if order and len(out) > 1:
            def cost(item):
                sq, f = item
                return (mobility(opp & ~f, own | f | 1 << sq).bit_count() * 4
                        - (8 if sq in _CORNER else 0))
            out.sort(key=cost)
        return out

    def _search(self, own: int, opp: int, empties: list[int], alpha: int, beta: int,
                passed: bool) -> int:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + CHECK_EVERY
            if self.control is not None:
                self.control.check()
        n = len(empties)
        if n == 1:
            return _last(own, opp, empties[0])
        if n <= SHALLOW:
            return self._shallow(own, opp, empties, alpha, beta, passed)
        key = (own, opp)
        entry = self.table.get(key)
        if entry is not None:
            lo, hi, _ = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        a0 = alpha
        moves = self._moves(own, opp, empties, True)
        if not moves:
            if passed:
                return own.bit_count() - opp.bit_count()
            return -self._search(opp, own, empties, -beta, -alpha, True)
        if entry is not None and entry[2] >= 0:
            moves.sort(key=lambda m: m[0] != entry[2])
        best, best_move = -65, -1
        for i, (sq, f) in enumerate(moves):
            rest = [e for e in empties if e != sq]
            no, nq = opp & ~f, own | f | 1 << sq
            if i == 0:
                v = -self._search(no, nq, rest, -beta, -alpha, False)
            else:
                v = -self._search(no, nq, rest, -alpha - 1, -alpha, False)
                if alpha < v < beta:
                    v = -self._search(no, nq, rest, -beta, -v, False)
            if v > best:
                best, best_move = v, sq
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        lo, hi = (entry[0], entry[1]) if entry is not None else (-64, 64)
        if best <= a0:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.table[key] = (lo, hi, best_move)
        return best

    def _shallow(self, own: int, opp: int, empties: list[int], alpha: int, beta: int,
                 passed: bool) -> int:
        # Odd regions first: the side that moves last in a region gains there.
        parity = 0
        for e in empties:
            parity ^= 1 << _QUAD[e]
        best = -65
        moved = False
        for odd in (True, False):
            for sq in empties:
                if bool(parity >> _QUAD[sq] & 1) != odd or not _NEIGHBOURS[sq] & opp:
                    continue
                f = flips(own, opp, sq)
                if not f:
                    continue
                moved = True
                rest = [e for e in empties if e != sq]
                v = -self._search(opp & ~f, own | f | 1 << sq, rest, -beta, -max(alpha, best), False)
                if v > best:
                    best = v
                    if v >= beta:
                        return v
        if moved:
            return best
        if passed:
            return own.bit_count() - opp.bit_count()
        return -self._search(opp, own, empties, -beta, -alpha, True)


def _last(own: int, opp: int, sq: int) -> int:
    """Score with one empty square left: the mover plays it, else the opponent, else nobody."""
    f = flips(own, opp, sq)
    if f:
        n = f.bit_count()
        return own.bit_count() - opp.bit_count() + 2 * n + 1
    f = flips(opp, own, sq)
    if f:
        n = f.bit_count()
        return own.bit_count() - opp.bit_count() - 2 * n - 1
    return own.bit_count() - opp.bit_count()


def solve(pos) -> tuple[int, int]:
    """``(score, move)`` of a :class:`games.reversi.ReversiPosition`: its exact final disc
    difference for the side to move and a move that achieves it."""
    return Solver().best(pos.own, pos.opp)


class ReversiExact:
    """Exact scores (search units, see :func:`engine.game.margin_score`) of reversi
    positions with at most ``search_empties`` empty squares, and the best move at the
    root with at most ``root_empties``. The bound table is kept between probes."""

    margin_unit = "discs"

    def __init__(self, game, search_empties: int = SEARCH_EMPTIES, root_empties: int = ROOT_EMPTIES):
        self.search_empties, self.root_empties = search_empties, root_empties
        self.solver = Solver()

    def _empties(self, pos) -> int:
        return 64 - (pos.own | pos.opp).bit_count()

    def score(self, pos) -> int | None:
        if self._empties(pos) > self.search_empties:
            return None
        if len(self.solver.table) > 1_000_000:
            self.solver.table.clear()
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
