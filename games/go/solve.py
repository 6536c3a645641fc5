"""Small boards solved: Black's margin under best play, by alpha-beta over the margin.

The value searched is the final area margin (the mover's area minus the
opponent's, komi left out: it only shifts the result). The root is solved by
MTD(f) (Plaat et al. 1996): a sequence of null-window searches that close in on
the margin. As in MIGOS (van der Werf 2002):

- **iterative deepening to a proof**: each null-window search runs 1, 2, 3, ...
  plies deep (from 4 plies on, a step of one plus a quarter of the depth), an estimate (:meth:`GoPosition.estimate`, Benson's safe points and
  the nearer colour's) standing in for the margin at the horizon, until its
  answer owes nothing to an estimate. A bound that every leaf below it proves
  (end of game, Benson, a proven table entry) is a bound of the true margin: the
  table keeps a proven lower and upper bound per position for any depth, and an
  estimated one only for the iteration that found it. (Searched to the end
  instead, the first line alone ran 15,000 plies deep on 4×4: with captures a
  line may last as long as the board has positions.)
- **the simple ko rule**, as the published small-board solutions use it; so that
  every line ends, a play may not repeat a board of the line being searched (the
  table ignores the line, as MIGOS does: positions are keyed by board, ko point,
  passes and mover only; a bound shaped by a refused return to a board above the
  node is not stored);
- **symmetry lookups**: a position is stored under the least of its keys over the
  board's symmetries (8 on a square, 4 on a rectangle), and keys name the mover's
  and the opponent's stones rather than Black's and White's, so a position and its
  colour-swapped twin share one entry (the margin is the mover's either way);
- **Benson cut-offs**: each side ends with at least its unconditionally safe
  points (:mod:`games.go.benson`), which bound the margin; a node whose bounds
  fall outside the window, or meet, is scored without searching further;
- **move ordering**: the table's move (the last iteration's best), then the
  history heuristic (Schaeffer) over plays that caused cut-offs, then the points
  far from the edge; pass last.
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
#: ``refused_ply`` when no repetition was refused.
_NO_REFUSAL = 1 << 30
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
    """Black's margin with best play (komi left out), the first move, the proof's cost
    (``depth``: the deepest iteration that a null-window search needed)."""
    margin: int
    move: int
    nodes: int
    seconds: float
    searches: int
    depth: int = 0


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
        # Proven lo + 128 | (hi + 128) << 8 | (canonical move + 1) << 16 | estimated bound
        # << 26 (see _store); 0 is an empty slot's.
        self.tt_data = array("q", bytes(8 * self.size))
        # The history heuristic's score of each move, by mover: turn * (n + 1) + move.
        self.history = array("q", bytes(8 * 2 * (n + 1)))
        self.nodes = 0
        self.refused_ply = _NO_REFUSAL
        self.heuristic = False
        self.iteration = 0
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

    def _store(self, key: int, lo: int, hi: int, move: int, sym: int, depth: int, value: int, upper: bool) -> None:
        """Merge into the entry of ``key``: proven bounds ``lo``/``hi``, the best move
        (-1: keep the old one), and with ``depth`` > 0 a bound ``value`` (an upper bound
        if ``upper``) that a heuristic horizon ``depth`` plies away shaped, valid for the
        current iteration only."""
        slot = key & self.mask
        canon = self.forward[sym * self.n + move] + 1 if 0 <= move < self.n else (self.n + 1 if move == self.n else 0)
        guess = 0
        if self.tt_keys[slot] == key and self.tt_data[slot]:
            old = self.tt_data[slot]
            lo = max(lo, (old & 255) - 128)
            hi = min(hi, ((old >> 8) & 255) - 128)
            if not canon:
                canon = (old >> 16) & 1023
            guess = old >> 26
        if depth:
            guess = (value + 128) | upper << 8 | min(depth, 1023) << 9 | (self.iteration & 4095) << 19
        self.tt_keys[slot] = key
        self.tt_data[slot] = (lo + 128) | (hi + 128) << 8 | canon << 16 | guess << 26

    # -- search --------------------------------------------------------------------------

    def _check(self) -> None:
        self.next_check = self.nodes + _CHECK_EVERY
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise Stopped()
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise Stopped()

    def _search(self, pos: GoPosition, line: dict[int, int], ply: int, depth: int, beta: int) -> int:
        """Whether the mover's final margin reaches ``beta``: a bound of the margin,
        fail-soft (a lower bound if at least ``beta``, else an upper bound), proven
        unless ``self.heuristic`` is set: then an estimate at the horizon, ``depth``
        plies away, shaped it. ``line`` maps the boards of the line to their ply
        (``pos`` is at ``ply``); ``self.refused_ply`` tells the caller the shallowest
        ply whose board a move below was refused for repeating."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check()
        n = self.n
        self.refused_ply = _NO_REFUSAL
        self.heuristic = False
        if pos.passes >= 2:
            black, white = pos.area()
            return black - white if pos.turn == 0 else white - black
        key, sym = self._canonical(pos)
        data = self._probe(key)
        lo, hi, tt_move = -n, n, -1
        if data:
            lo, hi = (data & 255) - 128, ((data >> 8) & 255) - 128
            canon = (data >> 16) & 1023
            if canon:
                tt_move = n if canon == n + 1 else self.inverse[sym * n + canon - 1]
            if lo >= beta:
                return lo
            if hi < beta:
                return hi
            guess = data >> 26
            if guess and (guess >> 19) == self.iteration & 4095 and ((guess >> 9) & 1023) >= depth:
                # A bound found this iteration, as deep, by another path. (One of an
                # earlier iteration could be the node's own, met again below it through
                # a symmetric or colour-swapped twin: never proven, never deepened.)
                value = (guess & 255) - 128
                if (value >= beta) != bool(guess & 256):
                    self.heuristic = True
                    return value
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
        if lo >= beta or hi < beta:
            self._store(key, lo, hi, -1, sym, 0, 0, False)
            return lo if lo >= beta else hi
        if depth <= 0:
            # The horizon: the evaluation's estimate of the margin, within the bounds.
            safe_b, safe_w, rest_b, rest_w = pos.estimate()
            value = safe_b + rest_b - safe_w - rest_w
            if pos.turn:
                value = -value
            self.heuristic = True
            return min(max(value, lo), hi)
        moves = pos.legal_moves()
        if black + white:
            moves = self._useful(board, owner, moves)
        self._order(moves, tt_move, pos.turn * (n + 1))
        best = -n - 1
        best_move = -1
        refused = _NO_REFUSAL
        heuristic = False
        for m in moves:
            pos.push(m)
            if m != n:
                at = line.get(pos.board_key, -1)
                if at >= 0:
                    pos.pop()
                    refused = min(refused, at)
                    continue
                line[pos.board_key] = ply + 1
                v = -self._search(pos, line, ply + 1, depth - 1, 1 - beta)
                del line[pos.board_key]
            else:
                v = -self._search(pos, line, ply + 1, depth - 1, 1 - beta)
            refused = min(refused, self.refused_ply)
            pos.pop()
            if v >= beta:
                # A cut-off: proven if this move's value is.
                best, best_move, heuristic = v, m, self.heuristic
                self.history[pos.turn * (n + 1) + m] += 1 << min(len(moves), 20)
                break
            # Below beta: the bound is proven only if every move's is.
            heuristic = heuristic or self.heuristic
            if v > best:
                best, best_move = v, m
        if best_move < 0:
            # Every play repeats a board of the line and pass is always legal: unreachable.
            best = lo
        best = min(max(best, lo), hi)
        self.refused_ply = refused
        self.heuristic = heuristic
        if heuristic:
            self._store(key, -n, n, best_move, sym, depth, best, best < beta)
        elif refused < ply:
            # A value that a refused return to a board above this node shaped holds for
            # this line only: the table keeps its move for the ordering, not its bounds.
            # Returns to this node's own board or to later ones are the node's own.
            self._store(key, -n, n, best_move, sym, 0, 0, False)
        elif best >= beta:
            self._store(key, best, hi, best_move, sym, 0, 0, False)
        else:
            self._store(key, lo, best, best_move, sym, 0, 0, False)
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

    def _root_move(self, root: GoPosition) -> int:
        """The table's move for ``root`` (-1 for none)."""
        key, sym = self._canonical(root)
        data = self._probe(key)
        canon = (data >> 16) & 1023 if data else 0
        return -1 if not canon else self.n if canon == self.n + 1 else self.inverse[sym * self.n + canon - 1]

    def solve(self, pos: GoPosition, deadline: float | None = None, max_nodes: int | None = None,
              report=None, progress=None) -> Solution:
        """Black's margin from ``pos`` (its stones, mover, ko point and passes) with best
        play under the simple ko rule; raises :class:`Stopped` past the deadline or budget.
        ``report(lo, hi, nodes, seconds)`` hears each step of the MTD(f) sequence,
        ``progress(beta, depth, proven, nodes, seconds)`` each iteration of each step."""
        # The pure build recurses once a ply, and the iterations may go deeper than Python's
        # default; the limit is given back, since it also guards the C stack of the process's
        # other recursive code (a JSON file nested 100,000 deep).
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 200_000))
        try:
            return self._mtdf(pos, deadline, max_nodes, report, progress)
        finally:
            sys.setrecursionlimit(limit)

    def _mtdf(self, pos: GoPosition, deadline: float | None, max_nodes: int | None, report,
              progress) -> Solution:
        started = time.perf_counter()
        root = self.game.new_position(pos.to_text())
        self.deadline, self.max_nodes = deadline, max_nodes
        self.nodes = 0
        self.next_check = _CHECK_EVERY
        lo, hi = -self.n, self.n
        move = -1
        guess = 0
        searches = 0
        deepest = 0
        while lo < hi:
            beta = guess + 1 if guess == lo else guess
            # Iterative deepening until the null-window search proves a bound.
            depth = 0
            self.heuristic = True
            while self.heuristic:
                # Once deep, an iteration costs little more than the last: deepen faster.
                depth += 1 + depth // 4
                self.iteration += 1
                v = self._search(root, {root.board_key: 0}, 0, depth, beta)
                if progress is not None:
                    progress(beta, depth, not self.heuristic, self.nodes, time.perf_counter() - started)
            searches += 1
            deepest = max(deepest, depth)
            if v < beta:
                hi = v
            else:
                lo = v
                # The move that proved this lower bound (a failed search's best move
                # has only the highest upper bound).
                move = self._root_move(root)
            guess = v
            if report is not None:
                report(lo, hi, self.nodes, time.perf_counter() - started)
        margin = lo if root.turn == 0 else -lo
        return Solution(margin, move, self.nodes, time.perf_counter() - started, searches, deepest)


def solve_margin(pos: GoPosition, deadline: float | None = None, max_nodes: int | None = None) -> Solution:
    """Black's margin with best play from ``pos`` (see :class:`GoSolver`)."""
    return GoSolver(pos.game).solve(pos, deadline, max_nodes)
