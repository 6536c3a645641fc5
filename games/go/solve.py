"""Small boards solved: Black's margin under best play, by alpha-beta over the margin.

The value searched is the final area margin (the mover's area minus the
opponent's, komi left out: it only shifts the result), to the end of the game,
never cut by a depth: every bound the search finds is a bound of the true value,
so the transposition table keeps a lower and an upper bound per position and
reuses them at any depth. The root is solved by MTD(f) (Plaat et al. 1996): a
sequence of null-window searches that close in on the margin. As in MIGOS
(van der Werf 2002):

- **the simple ko rule**, as the published small-board solutions use it; so that
  every line ends, a play may not repeat a board of the line being searched (the
  table ignores the line, as MIGOS does: positions are keyed by board, ko point,
  passes and mover only);
- **symmetry lookups**: a position is stored under the least of its keys over the
  board's symmetries (8 on a square, 4 on a rectangle), and keys name the mover's
  and the opponent's stones rather than Black's and White's, so a position and its
  colour-swapped twin share one entry (the margin is the mover's either way);
- **Benson cut-offs**: each side ends with at least its unconditionally safe
  points (:mod:`games.go.benson`), which bound the margin; a node whose bounds
  fall outside the window, or meet, is scored without searching further;
- **move ordering**: the table's move, then the history heuristic (Schaeffer)
  over plays that caused cut-offs, then the points far from the edge; pass last.
"""

from __future__ import annotations

import sys
import time
from array import array
from dataclasses import dataclass

from engine.control import Stopped
from games.go.benson import unconditional
from games.go.board import GoPosition
from games.zobrist import keys

__all__ = ["GoSolver", "Solution", "solve_margin"]

#: Log2 of the transposition table's slots (two 8-byte words each: 64 MiB).
TABLE_BITS = 22
#: How often (nodes) the clock and the node budget are read.
_CHECK_EVERY = 4096
# Cell values (games.go.board's), C ints in the compiled build (solve.pxd).
_EMPTY, _BLACK, _WHITE = 0, 1, 2


def symmetries(width: int, height: int) -> list[list[int]]:
    """The board's symmetries as permutations of move indices ``row * width + col``:
    the 8 of the square's dihedral group, or the 4 of a rectangle's."""
    maps = []
    for transpose in ([False, True] if width == height else [False]):
        for flip_r in (False, True):
            for flip_c in (False, True):
                perm = []
                for r in range(height):
                    for c in range(width):
                        rr = height - 1 - r if flip_r else r
                        cc = width - 1 - c if flip_c else c
                        if transpose:
                            rr, cc = cc, rr
                        perm.append(rr * width + cc)
                maps.append(perm)
    return maps


@dataclass
class Solution:
    """Black's margin with best play (komi left out), the first move, the proof's cost."""
    margin: int
    move: int
    nodes: int
    seconds: float
    searches: int


class GoSolver:
    """Exact margins of positions of one (small) board under the simple ko rule."""

    def __init__(self, game, table_bits: int = TABLE_BITS):
        # The solver's own rules: the same board under the simple ko rule.
        self.game = type(game)(game.params.model_copy(update={"komi": 0, "ko": "simple"}))
        g = self.game
        self.width, self.height = g.width, g.height
        self.n = n = g.width * g.height
        self.points = g.points
        self.stride = g.stride
        self.syms = symmetries(g.width, g.height)
        self.nsym = len(self.syms)
        # Per symmetry s, per point i, at s * n + i: the key of a mover's stone, an
        # opponent's stone, the ko point; the point that s maps i to (forward) and the
        # one it maps to i (inverse).
        table = keys(3 * n + 1, f"zermelo/go/solve/{g.width}x{g.height}")
        self.own_keys = array("Q", [table[perm[i]] for perm in self.syms for i in range(n)])
        self.opp_keys = array("Q", [table[n + perm[i]] for perm in self.syms for i in range(n)])
        self.ko_keys = array("Q", [table[2 * n + perm[i]] for perm in self.syms for i in range(n)])
        self.pass_key = table[3 * n]
        self.forward = array("q", [j for perm in self.syms for j in perm])
        self.inverse = array("q", bytes(8 * n * self.nsym))
        for s, perm in enumerate(self.syms):
            for i, j in enumerate(perm):
                self.inverse[s * n + j] = i
        self.index_of = {pt: i for i, pt in enumerate(g.points)}
        self.line_value = g.line_value
        self.size = 1 << table_bits
        self.mask = self.size - 1
        self.tt_keys = array("Q", bytes(8 * self.size))
        # lo + 128 | (hi + 128) << 8 | (canonical move + 1) << 16; 0 is an empty slot's.
        self.tt_data = array("q", bytes(8 * self.size))
        # The history heuristic's score of each move, by mover: turn * (n + 1) + move.
        self.history = array("q", bytes(8 * 2 * (n + 1)))
        self.nodes = 0
        self.line_dependent = False
        self.deadline: float | None = None
        self.max_nodes: int | None = None
        self.next_check = _CHECK_EVERY

    # -- keys and the table ------------------------------------------------------------

    def _canonical(self, pos: GoPosition) -> tuple[int, int]:
        """(least key over the symmetries, the symmetry giving it)."""
        board, points, n = pos.board, self.points, self.n
        own = pos.turn + 1
        nsym = self.nsym
        ks = [0, 0, 0, 0, 0, 0, 0, 0]  # at most 8 symmetries
        own_keys, opp_keys = self.own_keys, self.opp_keys
        for i in range(n):
            c = board[points[i]]
            if c == own:
                for s in range(nsym):
                    ks[s] ^= own_keys[s * n + i]
            elif c != _EMPTY:
                for s in range(nsym):
                    ks[s] ^= opp_keys[s * n + i]
        if pos.ko:
            i = self.index_of[pos.ko]
            for s in range(nsym):
                ks[s] ^= self.ko_keys[s * n + i]
        if pos.passes:
            for s in range(nsym):
                ks[s] ^= self.pass_key
        best = 0
        for s in range(1, nsym):
            if ks[s] < ks[best]:
                best = s
        return ks[best], best

    def _probe(self, key: int) -> int:
        slot = key & self.mask
        return self.tt_data[slot] if self.tt_keys[slot] == key else 0

    def _store(self, key: int, lo: int, hi: int, move: int, sym: int) -> None:
        slot = key & self.mask
        canon = self.forward[sym * self.n + move] + 1 if 0 <= move < self.n else (self.n + 1 if move == self.n else 0)
        if self.tt_keys[slot] == key and self.tt_data[slot]:
            old = self.tt_data[slot]
            lo = max(lo, (old & 255) - 128)
            hi = min(hi, ((old >> 8) & 255) - 128)
            if not canon:
                canon = old >> 16
        self.tt_keys[slot] = key
        self.tt_data[slot] = (lo + 128) | (hi + 128) << 8 | canon << 16

    # -- search --------------------------------------------------------------------------

    def _check(self) -> None:
        self.next_check = self.nodes + _CHECK_EVERY
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise Stopped()
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise Stopped()

    def _search(self, pos: GoPosition, line: set[int], alpha: int, beta: int) -> int:
        """The mover's final margin, fail-soft within (alpha, beta)."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check()
        n = self.n
        self.line_dependent = False
        if pos.passes >= 2:
            black, white = pos.area()
            return black - white if pos.turn == 0 else white - black
        key, sym = self._canonical(pos)
        data = self._probe(key)
        lo, hi, tt_move = -n, n, -1
        if data:
            lo, hi = (data & 255) - 128, ((data >> 8) & 255) - 128
            canon = data >> 16
            if canon:
                tt_move = n if canon == n + 1 else self.inverse[sym * n + canon - 1]
            if lo >= beta:
                return lo
            if hi <= alpha or lo == hi:
                return hi
        board, points = pos.board, self.points
        alive, owner = unconditional(board, points, self.stride)
        black = white = 0
        for i in range(n):
            p = points[i]
            c = alive[p] if alive[p] else owner[p]
            if c == _BLACK:
                black += 1
            elif c == _WHITE:
                white += 1
        if pos.turn == 0:
            own, opp = black, white
        else:
            own, opp = white, black
        lo = max(lo, 2 * own - n)
        hi = min(hi, n - 2 * opp)
        if lo >= beta or hi <= alpha or lo >= hi:
            value = lo if lo >= beta or lo >= hi else hi
            self._store(key, lo, hi, -1, sym)
            return value
        a = max(alpha, lo)
        b = min(beta, hi)
        moves = pos.legal_moves()
        if black + white:
            moves = self._useful(board, owner, moves)
        self._order(moves, tt_move, pos.turn * (n + 1))
        best = -n - 1
        best_move = -1
        dependent = False
        for m in moves:
            pos.push(m)
            if m != n:
                if pos.board_key in line:
                    pos.pop()
                    dependent = True
                    continue
                line.add(pos.board_key)
                v = -self._search(pos, line, -b, -max(a, best))
                line.discard(pos.board_key)
            else:
                v = -self._search(pos, line, -b, -max(a, best))
            dependent = dependent or self.line_dependent
            pos.pop()
            if v > best:
                best, best_move = v, m
                if best >= b:
                    self.history[pos.turn * (n + 1) + m] += 1 << min(len(moves), 20)
                    break
        if best_move < 0:
            # Every play repeats a board of the line and pass is always legal: unreachable.
            best = lo
        best = min(max(best, lo), hi)
        self.line_dependent = dependent
        if dependent:
            # A value that a refused repetition shaped holds for this line only: the
            # table keeps its move for the ordering, not its bounds.
            self._store(key, -n, n, best_move, sym)
        elif best >= b:
            self._store(key, best, hi, best_move, sym)
        elif best <= a:
            self._store(key, lo, best, best_move, sym)
        else:
            self._store(key, best, best, best_move, sym)
        return best

    def _order(self, moves: list[int], tt_move: int, hist_base: int) -> None:
        """Sort ``moves`` in place: the table's move, then by history score, then by line
        (pass last); ties keep their order. An insertion sort: a node has few moves."""
        n, hist, line_value = self.n, self.history, self.line_value
        for i in range(1, len(moves)):
            m = moves[i]
            top = m == tt_move
            h = hist[hist_base + m]
            lv = line_value[m] if m < n else -1
            j = i - 1
            while j >= 0:
                o = moves[j]
                if o == tt_move:
                    break
                if not top:
                    ho = hist[hist_base + o]
                    if ho > h or (ho == h and (line_value[o] if o < n else -1) >= lv):
                        break
                moves[j + 1] = o
                j -= 1
            moves[j + 1] = m

    def _useful(self, board: list[int], owner: list[int], moves: list[int]) -> list[int]:
        """The moves left after dropping plays inside unconditional territory that holds
        no opponent stone: neither side gains there (the owner keeps it at the end
        anyway, the invader's stones are taken), as in MIGOS. Territory still holding
        an invader stays open to both, so that the owner can take it."""
        points = self.points
        invaded = 0
        for p in points:
            if owner[p] and board[p] != _EMPTY and board[p] != owner[p]:
                invaded |= owner[p]
        out = []
        for m in moves:
            if m < self.n:
                o = owner[points[m]]
                if o and not invaded & o:
                    continue
            out.append(m)
        return out

    def solve(self, pos: GoPosition, deadline: float | None = None, max_nodes: int | None = None,
              report=None) -> Solution:
        """Black's margin from ``pos`` (its stones, mover, ko point and passes) with best
        play under the simple ko rule; raises :class:`Stopped` past the deadline or budget.
        ``report(lo, hi, nodes, seconds)`` hears each step of the MTD(f) sequence."""
        started = time.perf_counter()
        # A line may be as long as the board has legal positions: deeper than Python's default.
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 200_000))
        root = self.game.new_position(pos.to_text())
        self.deadline, self.max_nodes = deadline, max_nodes
        self.nodes = 0
        self.next_check = _CHECK_EVERY
        lo, hi = -self.n, self.n
        guess = 0
        searches = 0
        while lo < hi:
            beta = guess + 1 if guess == lo else guess
            v = self._search(root, {root.board_key}, beta - 1, beta)
            searches += 1
            if v < beta:
                hi = v
            else:
                lo = v
            guess = v
            if report is not None:
                report(lo, hi, self.nodes, time.perf_counter() - started)
        key, sym = self._canonical(root)
        data = self._probe(key)
        canon = data >> 16 if data else 0
        move = -1 if not canon else self.n if canon == self.n + 1 else self.inverse[sym * self.n + canon - 1]
        margin = lo if root.turn == 0 else -lo
        return Solution(margin, move, self.nodes, time.perf_counter() - started, searches)


def solve_margin(pos: GoPosition, deadline: float | None = None, max_nodes: int | None = None) -> Solution:
    """Black's margin with best play from ``pos`` (see :class:`GoSolver`)."""
    return GoSolver(pos.game).solve(pos, deadline, max_nodes)
