# cython: boundscheck=False, wraparound=False, cdivision=True
"""Go playouts on a board made for them: flat arrays, incremental groups, the list of
empty points, capture and ko in the stones touched.

The Monte-Carlo search (:mod:`engine.mcts`) plays one whole random game per
simulation through :meth:`games.go.board.GoPosition.playout`, which loads the
position into a :class:`Playout` and runs it here. The layout is the position's
(``stride = width + 1``, a border cell on each side and a border row above and
below), so a point has the same index in both. Each group is a circular list of
its stones (``nxt``) with a head (``head``) holding its size and its
pseudo-liberties (every stone–empty-point contact) as their count, their sum and
their sum of squares: the group is in atari exactly when ``count * squares ==
sum * sum`` (every contact is on one point, ``sum / count``), GNU Go's test
without a liberty list. Placing a stone touches its four neighbours and the groups
it merges; a capture touches the stones taken.

Only the simple ko rule holds in a playout (superko is the tree's business), and a
playout longer than three times the board's points stops where it is. The end is
scored by area with the playout's own rule: a stone counts for its colour, an empty
point for the colour of all its neighbouring stones (the playouts leave only eyes
and a few contested points empty).

Moves: *light* playouts play a random legal point but never fill one of their own
eyes (a point bordered by the mover's stones with too few opponent diagonals to be
false), passing only when no such point is left. *Heavy* playouts (MoGo's policy,
as Michi has it) first look around the last move: save a group of one's own that it
put in atari (capture an attacker, or extend when that gives two liberties),
capture a group in atari next to it, then play one of its eight neighbours that
matches a 3×3 shape (hane, cut, side moves: :data:`PATTERNS`); else a random point,
refused (nine times in ten) when it puts its own group of two or more stones in
atari without capturing. The random generator is xorshift64* in 64-bit integers, so
both builds play the same moves from the same seed.
"""

from __future__ import annotations

from array import array

import cython  # type: ignore[import-untyped]

EMPTY = 0
BLACK = 1
WHITE = 2
EDGE = 3
_EMPTY, _BLACK, _WHITE, _EDGE = EMPTY, BLACK, WHITE, EDGE
_MASK64 = 0xFFFFFFFFFFFFFFFF
_MULT = 0x2545F4914F6CDD1D
#: Michi's priors of a new node's moves, in simulations: every move starts at
#: ``PRIOR_EVEN`` visits, half of them won; a capture of one stone adds
#: ``PRIOR_CAPTURE_ONE`` won visits, of more ``PRIOR_CAPTURE_MANY``; a 3×3 shape
#: ``PRIOR_PAT3``; a move 1, 2 or 3 steps from the last one ``PRIOR_NEAR``; a self-atari
#: adds ``PRIOR_SELF_ATARI`` lost visits, a move on the first three lines with no stone
#: within three steps ``PRIOR_EMPTY_AREA`` (lost, but won on the third line), filling
#: one's own eye ``PRIOR_EYE_FILL`` (lost).
PRIOR_EVEN = 10
PRIOR_CAPTURE_ONE = 15
PRIOR_CAPTURE_MANY = 30
PRIOR_PAT3 = 10
PRIOR_NEAR = (24, 22, 8)
PRIOR_SELF_ATARI = 10
PRIOR_EMPTY_AREA = 10
#: Filling one's own eye: lost visits enough that a won game, where every move wins,
#: is not thrown away by destroying one's eyes one after another.
PRIOR_EYE_FILL = 200

#: Michi's 3×3 shapes around an empty centre, ``X`` the mover's stones, ``O`` the
#: opponent's, ``.`` empty, ``x`` not ``X``, ``o`` not ``O``, `` `` off the board, ``?``
#: anything; each shape counts in its eight symmetries and with colours swapped.
PATTERNS = (
    ("XOX", "...", "???"),  # hane: enclosing hane
    ("XO.", "...", "?.?"),  # hane: non-cutting hane
    ("XO?", "X..", "x.?"),  # hane: magari
    (".O.", "X..", "..."),  # katatsuke or diagonal attachment
    ("XO?", "O.o", "?o?"),  # cut: unprotected cut
    ("XO?", "O.X", "???"),  # cut: peeped cut
    ("?X?", "O.O", "ooo"),  # cut: de
    ("OX?", "o.O", "???"),  # cut: keima
    ("X.?", "O.?", "   "),  # side: chase
    ("OX?", "X.O", "   "),  # side: block side cut
    ("?X?", "x.O", "   "),  # side: block side connection
    ("?XO", "x.x", "   "),  # side: sagari
    ("?OX", "X.O", "   "),  # side: cut
)
#: What each shape character admits, as a set of cell values (X taken as Black).
_ADMITS = {"X": (BLACK,), "O": (WHITE,), ".": (EMPTY,), "x": (EMPTY, WHITE, EDGE), "o": (EMPTY, BLACK, EDGE),
           " ": (EDGE,), "?": (EMPTY, BLACK, WHITE, EDGE)}


def _symmetries(shape: tuple[str, str, str]) -> list[list[str]]:
    grid = [list(row) for row in shape]
    out = []
    for _ in range(4):
        grid = [list(row) for row in zip(*grid[::-1])]  # a quarter turn
        out.append([c for row in grid for c in row])
        out.append([c for row in grid[::-1] for c in row])  # and its mirror
    return out


def pattern_table() -> bytes:
    """Which of the 4⁸ neighbourhoods of an empty point match a shape: indexed by the
    eight neighbours' cells, two bits each, in the order of :meth:`Playout.code` (the
    rows of the 3×3 square from the top, centre left out)."""
    table = bytearray(1 << 16)
    swap = str.maketrans("XOxo", "OXox")
    for shape in PATTERNS:
        for cells in _symmetries(shape):
            for chars in (cells, [c.translate(swap) for c in cells]):
                ring = chars[:4] + chars[5:]
                codes = [0]
                for i, ch in enumerate(ring):
                    codes = [c | (v << (2 * i)) for c in codes for v in _ADMITS[ch]]
                for c in codes:
                    table[c] = 1
    return bytes(table)


_TABLE = pattern_table()


class Playout:
    """A board for playouts of one geometry (``width`` × ``height``), reloaded from a
    position before each one; ``owner`` adds up, point by point, who owned each point
    at the end of every playout since :meth:`clear_owner` (+1 Black, -1 White)."""

    def __init__(self, width: int, height: int):
        self.width = width
        self.height = height
        self.stride = s = width + 1
        self.cells = n = (height + 2) * s + 1
        self.npoints = width * height
        self.points = array("i", [(r + 1) * s + c + 1 for r in range(height) for c in range(width)])
        self.board = array("i", [EDGE] * n)
        self.head = array("i", bytes(4 * n))
        self.nxt = array("i", bytes(4 * n))
        self.gsize = array("i", bytes(4 * n))
        self.libs = array("q", bytes(8 * n))
        self.lsum = array("q", bytes(8 * n))
        self.lsq = array("q", bytes(8 * n))
        self.empties = array("i", bytes(4 * n))
        self.eidx = array("i", bytes(4 * n))
        self.mark = array("i", bytes(4 * n))
        self.moves = array("i", bytes(4 * (3 * self.npoints + 8)))
        self.owner = array("q", bytes(8 * self.npoints))
        self.table = array("b", _TABLE)
        self.ring = array("i", [s - 1, s, s + 1, -1, 1, -s - 1, -s, -s + 1])
        # The four neighbours' offsets, then 0 (the point itself), and the diagonals'.
        self.nb = array("i", [1, -1, s, -s, 0])
        self.diag = array("i", [s + 1, s - 1, 1 - s, -1 - s])
        self.nempty = self.ko = self.turn = self.passes = self.last = self.nmoves = 0
        self.stamp = 0
        self.state = 1

    # -- the random generator ------------------------------------------------

    def seed(self, seed: int) -> None:
        self.state = (seed & _MASK64) or 1

    def rand(self, n: int) -> int:
        """A number in ``[0, n)`` (xorshift64*)."""
        x = self.state
        x ^= x >> 12
        x ^= (x << 25) & _MASK64
        x ^= x >> 27
        self.state = x
        return (((x * _MULT) & _MASK64) >> 33) % n

    # -- the board -------------------------------------------------------------

    def load(self, board: list[int], turn: int, ko: int, passes: int) -> None:
        """Set the board from a position's cells (the same layout), ``turn`` to move."""
        cells = self.board
        self.nempty = 0
        for p in range(self.cells):
            cells[p] = board[p]
        for i in range(self.npoints):
            p = self.points[i]
            if cells[p] == _EMPTY:
                self.eidx[p] = self.nempty
                self.empties[self.nempty] = p
                self.nempty += 1
            else:
                self.head[p] = p
                self.nxt[p] = p
                self.gsize[p] = 1
                self.libs[p] = self.lsum[p] = self.lsq[p] = 0
        for i in range(self.npoints):
            p = self.points[i]
            if cells[p] != _EMPTY:
                for k in range(4):
                    d = self.nb[k]
                    q = p + d
                    if cells[q] == _EMPTY:
                        self._add_lib(self.head[p], q)
                    elif cells[q] == cells[p] and self.head[q] != self.head[p]:
                        self._merge(self.head[p], self.head[q])
        self.turn = turn
        self.ko = ko
        self.passes = passes
        self.last = 0
        self.nmoves = 0

    def _add_lib(self, g: int, q: int) -> None:
        self.libs[g] += 1
        self.lsum[g] += q
        self.lsq[g] += q * q

    def _sub_lib(self, g: int, q: int) -> None:
        self.libs[g] -= 1
        self.lsum[g] -= q
        self.lsq[g] -= q * q

    def _merge(self, a: int, b: int) -> int:
        """Join the groups headed by ``a`` and ``b`` under the larger's head; that head."""
        if self.gsize[a] < self.gsize[b]:
            a, b = b, a
        x = b
        while True:
            self.head[x] = a
            x = self.nxt[x]
            if x == b:
                break
        na = self.nxt[a]
        self.nxt[a] = self.nxt[b]
        self.nxt[b] = na
        self.gsize[a] += self.gsize[b]
        self.libs[a] += self.libs[b]
        self.lsum[a] += self.lsum[b]
        self.lsq[a] += self.lsq[b]
        return a

    def in_atari(self, g: int) -> bool:
        """Whether the group headed by ``g`` has exactly one liberty."""
        n = self.libs[g]
        return n > 0 and n * self.lsq[g] == self.lsum[g] * self.lsum[g]

    def atari_lib(self, g: int) -> int:
        return self.lsum[g] // self.libs[g]

    def _remove(self, g: int) -> int:
        """Take the group headed by ``g`` off the board; the stones taken."""
        cells = self.board
        n = 0
        x = g
        while True:
            cells[x] = _EMPTY
            self.eidx[x] = self.nempty
            self.empties[self.nempty] = x
            self.nempty += 1
            n += 1
            x = self.nxt[x]
            if x == g:
                break
        while True:
            for k in range(4):
                d = self.nb[k]
                q = x + d
                c = cells[q]
                if c == _BLACK or c == _WHITE:
                    self._add_lib(self.head[q], x)
            x = self.nxt[x]
            if x == g:
                break
        return n

    def play(self, p: int) -> None:
        """Play ``p`` (0: pass) for the side to move; ``p`` must be legal."""
        self.moves[self.nmoves] = p
        self.nmoves += 1
        self.last = p
        if p == 0:
            self.passes += 1
            self.ko = 0
            self.turn ^= 1
            return
        self.passes = 0
        cells = self.board
        own = self.turn + 1
        opp = 3 - own
        cells[p] = own
        # Off the empty list: the last empty point takes its slot.
        i = self.eidx[p]
        self.nempty -= 1
        q = self.empties[self.nempty]
        self.empties[i] = q
        self.eidx[q] = i
        self.head[p] = p
        self.nxt[p] = p
        self.gsize[p] = 1
        self.libs[p] = self.lsum[p] = self.lsq[p] = 0
        g = p
        for k in range(4):
            d = self.nb[k]
            q = p + d
            c = cells[q]
            if c == _EMPTY:
                self._add_lib(g, q)
            elif c == own:
                h = self.head[q]
                self._sub_lib(h, p)
                if h != g:
                    g = self._merge(g, h)
            elif c == opp:
                self._sub_lib(self.head[q], p)
        taken = 0
        ko = 0
        for k in range(4):
            d = self.nb[k]
            q = p + d
            if cells[q] == opp and self.libs[self.head[q]] == 0:
                n = self._remove(self.head[q])
                taken += n
                ko = q if n == 1 else 0
        # A lone stone that took one stone and has that point as its only liberty: ko.
        self.ko = ko if taken == 1 and self.gsize[g] == 1 and self.libs[g] == 1 else 0
        self.turn ^= 1

    # -- moves -----------------------------------------------------------------

    def legal(self, p: int) -> bool:
        """Whether the side to move may play the empty point ``p``: not the ko point,
        not suicide."""
        if p == self.ko:
            return False
        cells = self.board
        own = self.turn + 1
        for k in range(4):
            d = self.nb[k]
            q = p + d
            c = cells[q]
            if c == _EMPTY:
                return True
            if c != _EDGE:
                g = self.head[q]
                # An own group survives with a liberty besides p; an opponent's in atari on p is taken.
                if (c == own) != (self.in_atari(g) and self.atari_lib(g) == p):
                    return True
        return False

    def is_eye(self, p: int, colour: int) -> bool:
        """Whether ``p`` is an eye of ``colour``: bordered by its stones, with fewer
        opponent diagonals than make it false (two, one on the edge)."""
        cells = self.board
        for k in range(4):
            d = self.nb[k]
            c = cells[p + d]
            if c != colour and c != _EDGE:
                return False
        opp = 3 - colour
        bad = 0
        edge = 0
        for k in range(4):
            c = cells[p + self.diag[k]]
            if c == opp:
                bad += 1
            elif c == _EDGE:
                edge = 1
        return bad + edge < 2

    def self_atari(self, p: int) -> bool:
        """Whether playing the legal point ``p`` leaves the mover's group of two or more
        stones with one liberty, taking nothing."""
        cells = self.board
        own = self.turn + 1
        self.stamp += 1
        stamp = self.stamp
        mark = self.mark
        mark[p] = stamp
        libs = 0
        stones = 1
        for k in range(4):
            d = self.nb[k]
            q = p + d
            c = cells[q]
            if c == _EMPTY:
                if mark[q] != stamp:
                    mark[q] = stamp
                    libs += 1
            elif c == own:
                g = self.head[q]
                if mark[g] == stamp:
                    continue
                mark[g] = stamp
                stones += self.gsize[g]
                # The group's real liberties: walk its stones (at most two new ones are needed).
                x = g
                while True:
                    for k in range(4):
                        e = self.nb[k]
                        y = x + e
                        if cells[y] == _EMPTY and mark[y] != stamp:
                            mark[y] = stamp
                            libs += 1
                    x = self.nxt[x]
                    if x == g or libs >= 2:
                        break
            elif c != _EDGE and self.in_atari(self.head[q]):
                return False
            if libs >= 2:
                return False
        return stones >= 2

    def code(self, p: int) -> int:
        """The 3×3 neighbourhood of ``p``: two bits a neighbour (:func:`pattern_table`)."""
        cells = self.board
        ring = self.ring
        k = 0
        for i in range(8):
            k |= cells[p + ring[i]] << (2 * i)
        return k

    def _save_or_capture(self, g: int) -> int:
        """A move for the side to move about the group headed by ``g`` in atari: take it
        if it is the opponent's; if it is its own, take an attacker in atari, or extend
        on its liberty when that does not leave it in atari. 0 if none."""
        cells = self.board
        lib = self.atari_lib(g)
        if cells[g] != self.turn + 1:
            return lib if self.legal(lib) else 0
        x = g
        while True:
            for k in range(4):
                d = self.nb[k]
                q = x + d
                c = cells[q]
                if c != _EMPTY and c != _EDGE and c != cells[g] and self.in_atari(self.head[q]):
                    y = self.atari_lib(self.head[q])
                    if self.legal(y):
                        return y
            x = self.nxt[x]
            if x == g:
                break
        if self.legal(lib) and not self.self_atari(lib):
            return lib
        return 0

    def heavy_move(self) -> int:
        """The move the heavy policy takes from the last move's surroundings, 0 if none."""
        p = self.last
        if p == 0:
            return 0
        cells = self.board
        for k in range(5):
            q = p + self.nb[k]
            c = cells[q]
            if c != _EMPTY and c != _EDGE and self.in_atari(self.head[q]):
                m = self._save_or_capture(self.head[q])
                if m:
                    return m
        start = self.rand(8)
        ring = self.ring
        own = self.turn + 1
        for i in range(8):
            q = p + ring[(start + i) & 7]
            if cells[q] == _EMPTY and self.table[self.code(q)] and self.legal(q) and not self.is_eye(q, own) \
                    and not self.self_atari(q):
                return q
        return 0

    def random_move(self, heavy: bool) -> int:
        """A random legal point that does not fill an own eye (from a random place in the
        empty list onwards), heavy playouts mostly refusing self-atari; 0 if none."""
        n = self.nempty
        if n == 0:
            return 0
        own = self.turn + 1
        start = self.rand(n)
        for i in range(n):
            p = self.empties[(start + i) % n]
            if self.legal(p) and not self.is_eye(p, own):
                if heavy and self.self_atari(p) and self.rand(10) != 0:
                    continue
                return p
        return 0

    def run(self, seed: int, heavy: bool) -> int:
        """A playout from the loaded board to two passes (or the length cap); twice
        Black's area less White's (komi not counted)."""
        self.seed(seed)
        cap = 3 * self.npoints
        while self.passes < 2 and self.nmoves < cap:
            p = self.heavy_move() if heavy else 0
            if p == 0:
                p = self.random_move(heavy)
            self.play(p)
        return self.score()

    def score(self) -> int:
        """Twice Black's area less White's by the playout's rule; adds to ``owner``."""
        cells = self.board
        total = 0
        for i in range(self.npoints):
            p = self.points[i]
            c = cells[p]
            v = 0
            if c == _BLACK:
                v = 1
            elif c == _WHITE:
                v = -1
            else:
                seen = 0
                for k in range(4):
                    b = cells[p + self.nb[k]]
                    if b != _EDGE:
                        seen |= b
                if seen == _BLACK:
                    v = 1
                elif seen == _WHITE:
                    v = -1
            self.owner[i] += v
            total += v
        return 2 * total

    def priors(self, points: list[int]) -> list[tuple[int, int]]:
        """Prior visits and wins of the loaded position's moves (board indices, 0 for
        pass), Michi's: even at first (:data:`PRIOR_EVEN` visits, half won), more won for
        a capture, a 3×3 shape and closeness to the last move, more lost for a
        self-atari, for filling an own eye and for the first two lines of an empty area,
        more won on its third."""
        cells = self.board
        s = self.stride
        last = self.last
        own = self.turn + 1
        out = []
        for i in range(len(points)):
            p = points[i]
            n = PRIOR_EVEN
            w = PRIOR_EVEN // 2
            if p == 0:
                out.append((n, w))
                continue
            # Captures: an opponent group in atari on p, by its size.
            taken = 0
            for k in range(4):
                q = p + self.nb[k]
                c = cells[q]
                if c == 3 - own and self.in_atari(self.head[q]):
                    taken += self.gsize[self.head[q]]
            if taken:
                bonus = PRIOR_CAPTURE_MANY if taken > 1 else PRIOR_CAPTURE_ONE
                n += bonus
                w += bonus
            if self.table[self.code(p)]:
                n += PRIOR_PAT3
                w += PRIOR_PAT3
            if last:
                dx = p % s - last % s
                dy = p // s - last // s
                dx = -dx if dx < 0 else dx
                dy = -dy if dy < 0 else dy
                dist = dx + dy if dx + dy > 2 or dx != 1 or dy != 1 else 1
                if 1 <= dist <= 3:
                    n += PRIOR_NEAR[dist - 1]
                    w += PRIOR_NEAR[dist - 1]
            if self.self_atari(p):
                n += PRIOR_SELF_ATARI
            if self.is_eye(p, own):
                n += PRIOR_EYE_FILL
            line = self.line(p)
            if line <= 3 and self.empty_around(p):
                n += PRIOR_EMPTY_AREA
                if line == 3:
                    w += PRIOR_EMPTY_AREA
            out.append((n, w))
        return out

    def line(self, p: int) -> int:
        """The line of ``p`` from the nearest edge (1 on the edge)."""
        row = p // self.stride
        col = p % self.stride
        a = row if row < col else col
        b = self.height + 1 - row
        c = self.width + 1 - col
        if b < a:
            a = b
        return c if c < a else a

    def empty_around(self, p: int) -> bool:
        """Whether no stone lies within three steps (Manhattan) of ``p``."""
        s = self.stride
        row = p // s
        col = p % s
        for dy in range(-3, 4):
            r = row + dy
            if r < 1 or r > self.height:
                continue
            span = 3 - (dy if dy >= 0 else -dy)
            for dx in range(-span, span + 1):
                c = col + dx
                if 1 <= c <= self.width and self.board[r * s + c] != _EMPTY:
                    return False
        return True

    def clear_owner(self) -> None:
        for i in range(self.npoints):
            self.owner[i] = 0
