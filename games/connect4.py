"""Connect Four: drop discs into columns; ``connect`` in a row wins.

The board is ``width`` columns by ``height`` rows (default 7×6, four in a row;
each 4..10, ``connect`` 3..10). A move is the column index, 0-based; its text
is the column number counted from the left starting at 1 (``1``-``7``). The
game ends when the side that just moved has a line (``legal_moves()`` becomes
``[]`` and ``outcome()`` is -1 for the side to move) or the board is full
(a draw).

Position text: the rows from top to bottom separated by ``/``, with ``x`` for
the first player's discs, ``o`` for the second's and ``.`` for an empty cell,
then a space and the side to move (``x`` or ``o``). After the first player drops
into the centre column::

    ......./......./......./......./......./...x... o

On input, a digit inside a row stands for that many empty cells (as in FEN),
letters may be upper case and ``-``/``_`` also mean empty; the side may be
omitted (it follows from the disc counts). The played-column string of Pascal
Pons' solver, e.g. ``4455``, is accepted too (for widths up to 9).

The bitboard is Pons' layout: column ``c`` uses bits ``c*(height+1)`` upwards,
one bit per row from the bottom plus an always-empty sentinel bit on top, so
that shifting by 1, ``height``, ``height+1`` and ``height+2`` steps along a
column, a diagonal, a row and the other diagonal without wrapping. A position
keeps the side to move's discs ``cur`` and all discs ``mask``.

The compiled build (``connect4.pxd``) makes these bitboards C 64-bit integers and
the board's constants C arrays (:class:`Geometry`). A board of more than 64 bits
(``width * (height + 1)``, e.g. 10×6) runs this same source uncompiled, on
Python ints (:func:`_implementation`); the pure build runs it for every board.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from array import array
from pathlib import Path
from types import ModuleType
from typing import ClassVar

import cython  # type: ignore[import-untyped]
from pydantic import BaseModel, Field, model_validator

from engine.control import Control, Stopped
from engine.game import (WIN, Exact, ExactConfig, Game, IllegalMoveError, InputSet, InvalidPositionError,
                         Move, parse_number, quote)
from engine.position import Position
from engine.switch import switch_point
from games.zobrist import keys

if not cython.compiled:
    # The compiled build takes these two from the C compiler's builtins (connect4.pxd).
    popcount = int.bit_count

    def bit_index(b: int) -> int:
        """The index of the single set bit of ``b``."""
        return b.bit_length() - 1

_SIDES = {"x": 0, "1": 0, "first": 0, "o": 1, "2": 1, "second": 1}
_ROW_RE = re.compile(r"[xo.\-_0-9]+")


#: Positions with at most this many empty cells are solved exactly in the search.
EXACT_EMPTIES = 14

#: Bits of a bitboard in the compiled build; larger boards run uncompiled.
BITBOARD_BITS = 64
#: Shifts at or past this are zero: C leaves a shift by the full width undefined,
#: where Python ints simply grow (the uncompiled build runs boards of any size).
_SHIFT_LIMIT = BITBOARD_BITS if cython.compiled else 1 << 16
#: Sizes of the fixed arrays of a :class:`Geometry` (a board of at most 64 bits).
_MAX_WIDTH = 10
_MAX_LINES = 256
_MAX_WEIGHTS = 11

class Connect4Params(BaseModel):
    width: int = Field(7, ge=4, le=10, description="columns")
    height: int = Field(6, ge=4, le=10, description="rows")
    connect: int = Field(4, ge=3, le=10, description="discs in a row to win")

    @model_validator(mode="after")
    def _line_fits(self):
        if self.connect > max(self.width, self.height):
            raise ValueError("connect must fit on the board (at most max(width, height))")
        return self


class Connect4Game(Game):
    """Connect Four on a ``width`` × ``height`` board: bit layout, line masks and keys."""

    name: ClassVar[str] = "connect4"
    aliases: ClassVar[tuple[str, ...]] = ("connectfour", "cfour")
    players: ClassVar[tuple[str, str]] = ("first", "second")
    Params: ClassVar[type[BaseModel]] = Connect4Params
    null_move_ok: ClassVar[bool] = False
    tables_note: ClassVar[str] = "late positions are solved exactly in play (games.connect4.solve); no table files"
    bench_texts: tuple[str, ...] = (
        "4",
        "4453",
        "44455554221",
        "4444443322",
        "4131575652443637",
    )

    def __init__(self, params: Connect4Params | None = None):
        self.params = p = params or Connect4Params()
        w, h, k = p.width, p.height, p.connect
        self.width, self.height, self.connect = w, h, k
        self.cells = w * h
        h1 = h + 1
        self.bottom = [1 << (c * h1) for c in range(w)]
        self.top = [1 << (c * h1 + h - 1) for c in range(w)]
        self.column_mask = [((1 << h) - 1) << (c * h1) for c in range(w)]
        self.board_mask = sum(self.column_mask)
        self.bottom_row = sum(self.bottom)
        #: Rows 1, 3, 5, ... counted from the bottom: where the first player's
        #: threats are strong (zugzwang leaves the second player the even rows).
        self.odd_rows = sum(self.bottom_row << r for r in range(0, h, 2))
        self.order = sorted(range(w), key=lambda c: (abs(2 * c - (w - 1)), c))
        self.shifts = (1, h1, h, h + 2)
        # Doubling steps that leave a bit set where ``k`` discs start in a row.
        steps, n = [], 1
        while 2 * n <= k:
            steps.append(n)
            n *= 2
        if n < k:
            steps.append(k - n)
        self.align_steps = tuple(tuple(t * s for t in steps) for s in self.shifts)
        self.lines = tuple(self._lines())
        self.line_weight = tuple(0 if n == 0 else 4 ** (n - 1) for n in range(k + 1))
        table = keys(2 * w * h1 + 1, f"zermelo/connect4/{w}x{h}")
        self.disc_keys = (table[:w * h1], table[w * h1:2 * w * h1])
        self.turn_key = table[-1]
        #: Network inputs, per board: a disc of the view's player on cell ``i`` is input
        #: ``i``, an opponent's ``cells + i``, the cells in the position text's order (rows
        #: from the top, columns from the left); the name carries the board's shape.
        self.inputs: InputSet | None = InputSet(f"connect4-{w}x{h}", 2 * self.cells, self.cells)
        #: The module whose classes serve this board (see :func:`_implementation`).
        self.implementation = _implementation(w * h1)
        self.geometry = self.implementation.Geometry(self)

    def _lines(self):
        """Masks of every line of ``connect`` cells on the board."""
        w, h, k, h1 = self.width, self.height, self.connect, self.height + 1
        for c in range(w):
            for r in range(h):
                for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    ce, re_ = c + (k - 1) * dc, r + (k - 1) * dr
                    if 0 <= ce < w and 0 <= re_ < h:
                        yield sum(1 << ((c + i * dc) * h1 + r + i * dr) for i in range(k))

    def aligned(self, bb: int) -> bool:
        """True if ``bb`` holds ``connect`` discs in a row."""
        return self.geometry.aligned(bb)

    def winning_cells(self, bb: int, mask: int) -> int:
        """Empty cells (any height) that would complete a line for ``bb``."""
        return self.geometry.winning_cells(bb, mask)

    def exact(self, config: ExactConfig) -> Connect4Exact:
        """The solver on positions with at most :data:`EXACT_EMPTIES` empty cells."""
        return Connect4Exact(self, EXACT_EMPTIES)

    def new_position(self, text: str | None = None) -> Connect4Position:
        if text is None:
            return self.implementation.Connect4Position(self, 0, 0, 0)
        s = text.strip()
        if s.isdigit() and "/" not in s:
            return self._from_columns(s)
        return self._from_board(s)

    def _from_columns(self, s: str) -> Connect4Position:
        pos = self.implementation.Connect4Position(self, 0, 0, 0)
        if self.width > 9:
            raise InvalidPositionError("column strings need a board at most 9 wide")
        for i, ch in enumerate(s):
            c = int(ch) - 1
            if not 0 <= c < self.width or c not in pos.legal_moves():
                raise InvalidPositionError(f"column string {s[:60]!r}: move {i + 1} ({ch}) is not legal")
            pos.push(c)
        return self.implementation.Connect4Position(self, pos.cur, pos.mask, pos.turn)

    def _from_board(self, s: str) -> Connect4Position:
        parts = s.split()
        if not parts or len(parts) > 2:
            raise InvalidPositionError(f"bad connect4 position {s[:60]!r}; expected rows 'x.o/...' and a side")
        rows = parts[0].lower().split("/")
        if len(rows) != self.height or not all(_ROW_RE.fullmatch(r) for r in rows):
            raise InvalidPositionError(f"bad connect4 position {s[:60]!r}: {self.height} rows of x, o, . expected")
        discs = [0, 0]
        h1 = self.height + 1
        for i, row in enumerate(rows):
            r = self.height - 1 - i
            cells = "".join("." * int(ch) if ch.isdigit() else ch for ch in row)
            if len(cells) != self.width:
                raise InvalidPositionError(f"row {i + 1} of {s[:60]!r} is not {self.width} cells wide")
            for c, ch in enumerate(cells):
                if ch in "xo":
                    discs["xo".index(ch)] |= 1 << (c * h1 + r)
        mask = discs[0] | discs[1]
        # A column's discs are a run from the bottom exactly when adding the
        # bottom bit carries past all of them.
        if any(((mask & cm) + b) & mask & cm for cm, b in zip(self.column_mask, self.bottom)):
            raise InvalidPositionError(f"floating disc in {s[:60]!r}")
        n0, n1 = discs[0].bit_count(), discs[1].bit_count()
        if n0 - n1 not in (0, 1):
            raise InvalidPositionError(f"disc counts {n0}/{n1} cannot occur in {s[:60]!r}")
        turn = n0 - n1
        if len(parts) == 2 and _SIDES.get(parts[1].lower()) != turn:
            raise InvalidPositionError(f"side {parts[1]!r} does not match the disc counts in {s[:60]!r}")
        if self.aligned(discs[turn]):
            raise InvalidPositionError(f"the side to move already has a line in {s[:60]!r}")
        return self.implementation.Connect4Position(self, discs[turn], mask, turn)


_TWIN: ModuleType | None = None


def _implementation(bits: int) -> ModuleType:
    """The module that serves a board of ``bits`` bits: this one, except for a board
    over 64 bits in the compiled build, served by this same source run by the
    interpreter (loaded once, as ``games.connect4_pure``) on Python ints."""
    global _TWIN
    if not cython.compiled or bits <= BITBOARD_BITS:
        return sys.modules[__name__]
    if _TWIN is None:
        name = "games.connect4_pure"
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("connect4.py"))
        assert spec is not None and spec.loader is not None
        twin = importlib.util.module_from_spec(spec)
        sys.modules[name] = twin  # pydantic resolves the models' annotations through it
        spec.loader.exec_module(twin)
        _TWIN = twin
    return _TWIN


def _padded(values, size: int) -> list[int]:
    """``values`` as a list of at least ``size`` items, zeros after (C arrays have fixed sizes)."""
    out = list(values)
    return out + [0] * (size - len(out))


def _shl(x, n):
    """``x << n``, zero once ``n`` reaches :data:`_SHIFT_LIMIT`."""
    return x << n if n < _SHIFT_LIMIT else 0


def _shr(x, n):
    """``x >> n``, zero once ``n`` reaches :data:`_SHIFT_LIMIT`."""
    return x >> n if n < _SHIFT_LIMIT else 0


def _winning_along(bb, s):
    """Cells completing four of ``bb`` along shift ``s`` (not the vertical one): the
    cell is the 1st, 2nd, 3rd or 4th of the four (Pons' formula)."""
    pair = (bb << s) & (bb << 2 * s)
    win = pair & ((bb << 3 * s) | (bb >> s))
    pair = (bb >> s) & (bb >> 2 * s)
    return win | (pair & ((bb << s) | (bb >> 3 * s)))


def winning4(bb, mask, height, board_mask):
    """Empty cells that would complete four in a row for ``bb`` (``connect`` = 4)."""
    win = (bb << 1) & (bb << 2) & (bb << 3)
    win |= _winning_along(bb, height + 1) | _winning_along(bb, height) | _winning_along(bb, height + 2)
    return win & (board_mask ^ mask)


class Geometry:
    """A board's constants as the hot path reads them: C arrays of fixed sizes in
    the compiled build (``connect4.pxd``), lists here; shared by the positions and
    solvers of one :class:`Connect4Game`."""

    def __init__(self, game: Connect4Game):
        self.width, self.height, self.connect, self.cells = game.width, game.height, game.connect, game.cells
        self.bits = game.width * (game.height + 1)
        self.bottom_row, self.board_mask, self.odd_rows = game.bottom_row, game.board_mask, game.odd_rows
        self.turn_key = game.turn_key
        self.bottom = _padded(game.bottom, _MAX_WIDTH)
        self.top = _padded(game.top, _MAX_WIDTH)
        self.column_mask = _padded(game.column_mask, _MAX_WIDTH)
        self.order = _padded(game.order, _MAX_WIDTH)
        self.shifts = list(game.shifts)
        # Four alignment steps per direction at most (connect <= 10: 1, 2, 4, 2).
        self.nsteps = len(game.align_steps[0])
        self.steps = [t for d in game.align_steps for t in _padded(d, 4)]
        self.nlines = len(game.lines)
        self.lines = _padded(game.lines, _MAX_LINES)
        self.line_weight = _padded(game.line_weight, _MAX_WEIGHTS)
        # Key of a disc of player ``p`` on bit ``i``: ``disc_keys[p * bits + i]``.
        self.disc_keys = _padded(game.disc_keys[0] + game.disc_keys[1], 2 * BITBOARD_BITS)
        # The network's cell of bit ``i`` (see Connect4Game.nn_features); sentinels unused.
        h1 = self.height + 1
        self.nn_cell = _padded([(self.height - 1 - i % h1) * self.width + i // h1 for i in range(self.bits)],
                               BITBOARD_BITS)

    def aligned(self, bb: int) -> bool:
        """True if ``bb`` holds ``connect`` discs in a row."""
        for d in range(4):
            m = bb
            for i in range(self.nsteps):
                m &= m >> self.steps[4 * d + i]
            if m:
                return True
        return False

    def winning_cells(self, bb: int, mask: int) -> int:
        """Empty cells (any height) that would complete a line for ``bb``."""
        if self.connect == 4:
            return winning4(bb, mask, self.height, self.board_mask)
        win = 0
        for d in range(4):
            s = self.shifts[d]
            for j in range(self.connect):
                # The cell is the (j+1)-th of the line: j discs before it, the rest after.
                m = self.board_mask
                for i in range(1, j + 1):
                    m &= _shl(bb, i * s)
                for i in range(1, self.connect - j):
                    m &= _shr(bb, i * s)
                win |= m
        return win & (self.board_mask ^ mask)


class Connect4Position(Position):
    """A Connect Four position: the side to move's discs ``cur``, all discs
    ``mask``, ``turn`` (0 = first player), ``moves`` (discs on the board) and
    whether the last move won."""

    def __init__(self, game: Connect4Game, cur: int, mask: int, turn: int):
        self.game = game
        self.geo = game.geometry
        self.cur = cur
        self.mask = mask
        self.turn = turn
        self.moves = popcount(mask)
        self.won = self.geo.aligned(mask ^ cur)
        self.key = self.compute_key()
        self.has_threats = False
        self.own_threats = 0
        self.opp_threats = 0
        # The columns played since this object was made (-1: a null move): pop
        # takes the top disc of the last one off again.
        self.history: list[int] = []
        self._nn = None

    # -- moves ---------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Open columns, centre first; ``[]`` once the game is over."""
        geo = self.geo
        out: list[Move] = []
        if self.won or self.moves == geo.cells:
            return out
        for i in range(geo.width):
            c = geo.order[i]
            if not self.mask & geo.top[c]:
                out.append(c)
        return out

    def _load_threats(self) -> None:
        if not self.has_threats:
            self.own_threats = self.geo.winning_cells(self.cur, self.mask)
            self.opp_threats = self.geo.winning_cells(self.mask ^ self.cur, self.mask)
            self.has_threats = True

    def threats(self) -> tuple[int, int]:
        """Empty cells completing a line for (the side to move, the opponent)."""
        self._load_threats()
        return self.own_threats, self.opp_threats

    def _playable(self) -> int:
        return (self.mask + self.geo.bottom_row) & self.geo.board_mask

    def noisy_moves(self) -> list[Move]:
        """Moves that win at once, then moves that stop the opponent winning at once."""
        out: list[Move] = []
        if self.won:
            return out
        self._load_threats()
        playable = self._playable()
        self._add_columns(out, playable & self.own_threats)
        self._add_columns(out, playable & self.opp_threats & ~self.own_threats)
        return out

    def _add_columns(self, out: list[Move], bb: int) -> None:
        """Append the columns of the cells of ``bb``, left to right."""
        h1 = self.geo.height + 1
        while bb:
            b = bb & -bb
            out.append(bit_index(b) // h1)
            bb ^= b

    def is_noisy(self, move: Move) -> bool:
        if self.won:
            return False
        self._load_threats()
        geo = self.geo
        return bool((self.mask + geo.bottom[move]) & geo.column_mask[move] & (self.own_threats | self.opp_threats))

    def move_score(self, move: Move) -> int:
        width = self.geo.width
        return width - abs(2 * move - (width - 1))

    def in_check(self) -> bool:
        """True when the opponent would win with its next disc and the side to
        move cannot win first: the reply must block."""
        if self.won:
            return False
        self._load_threats()
        playable = self._playable()
        return bool(playable & self.opp_threats) and not playable & self.own_threats

    def can_stand_pat(self) -> bool:
        return not self.in_check()

    def push(self, move: Move) -> None:
        """Drop a disc into column ``move`` (not validated)."""
        geo = self.geo
        new = (self.mask + geo.bottom[move]) & geo.column_mask[move]
        b = bit_index(new)
        self.history.append(move)
        self.key ^= geo.disc_keys[self.turn * geo.bits + b] ^ geo.turn_key
        nn = self._nn
        if nn is not None:
            nn.push()
            nn.add_one(self.turn, geo.nn_cell[b])
            nn.add_one(self.turn ^ 1, geo.cells + geo.nn_cell[b])
        self.won = geo.aligned(self.cur | new)
        self.cur ^= self.mask
        self.mask |= new
        self.turn ^= 1
        self.moves += 1
        self.has_threats = False

    def pop(self) -> None:
        geo = self.geo
        move = self.history.pop()
        self.turn ^= 1
        self.key ^= geo.turn_key
        self.has_threats = False
        if move < 0:
            self.cur ^= self.mask
        else:
            # A column is a run of discs from its bottom bit: adding that bit carries
            # to the cell above the run, one above the disc to take off.
            new = ((self.mask & geo.column_mask[move]) + geo.bottom[move]) >> 1
            self.mask ^= new
            self.cur ^= self.mask
            self.moves -= 1
            self.key ^= geo.disc_keys[self.turn * geo.bits + bit_index(new)]
            self.won = geo.aligned(self.mask ^ self.cur)
        if self._nn is not None:
            self._nn_pop()

    def push_null(self) -> None:
        """Hand the turn over without dropping a disc (not a rule of the game)."""
        self.history.append(-1)
        self.cur ^= self.mask
        self.turn ^= 1
        self.key ^= self.geo.turn_key
        self.has_threats = False
        if self._nn is not None:
            self._nn.push()

    def null_move_allowed(self) -> bool:
        return False

    # -- results -------------------------------------------------------------

    def outcome(self) -> int | None:
        if self.won:
            return -1
        if self.moves == self.geo.cells:
            return 0
        return None

    def no_moves_value(self) -> int:
        return -1 if self.won else 0

    def is_repetition(self) -> bool:
        return False

    def evaluate(self) -> int:
        """Static value for the side to move.

        Every line still open to one side only scores for that side, 4x more
        per disc it already holds (so central discs, on more lines, count
        more). A cell that would complete a line (a threat) scores more when
        it lies on the row parity that favours its owner: odd rows (from the
        bottom) for the first player, even rows for the second. The network's
        score instead when one is attached.
        """
        if self._nn is not None:
            return self._nn.evaluate(self.turn)
        geo = self.geo
        own = self.cur
        opp = self.mask ^ self.cur
        score = 0
        for i in range(geo.nlines):
            line = geo.lines[i]
            a = line & own
            b = line & opp
            if not b:
                score += geo.line_weight[popcount(a)]
            elif not a:
                score -= geo.line_weight[popcount(b)]
        self._load_threats()
        good = geo.odd_rows if self.turn == 0 else geo.board_mask ^ geo.odd_rows
        bad = geo.board_mask ^ good
        score += 40 * (popcount(self.own_threats & good) - popcount(self.opp_threats & bad))
        score += 15 * (popcount(self.own_threats & bad) - popcount(self.opp_threats & good))
        return score

    def compute_key(self) -> int:
        g = self.game
        k = g.turn_key if self.turn else 0
        other = self.mask ^ self.cur
        for i in range(g.width * (g.height + 1)):
            if self.cur >> i & 1:
                k ^= g.disc_keys[self.turn][i]
            elif other >> i & 1:
                k ^= g.disc_keys[self.turn ^ 1][i]
        return k

    # -- text ----------------------------------------------------------------

    def _copy(self) -> Connect4Position:
        other = type(self)(self.game, self.cur, self.mask, self.turn)
        return other

    # -- the network -----------------------------------------------------------

    def _nn_view(self, view: int) -> list[int]:
        """The inputs player ``view`` sees: its discs' cells, then ``cells +`` the opponent's."""
        mine = self.cur if view == self.turn else self.mask ^ self.cur
        out = []
        for base, bb in ((0, mine), (self.geo.cells, self.mask ^ mine)):
            while bb:
                b = bb & -bb
                out.append(base + self.geo.nn_cell[bit_index(b)])
                bb ^= b
        return out

    def parse_move(self, text: str) -> Move:
        width = self.game.width
        n = parse_number(text.strip())
        if n is None or not 1 <= n <= width:
            raise IllegalMoveError(f"illegal move {quote(text)}: expected a column number 1-{width}")
        if n - 1 not in self.legal_moves():
            why = "the game is over" if self.won or self.moves == self.game.cells else f"column {n} is full"
            raise IllegalMoveError(f"illegal move {quote(text)}: {why}")
        return n - 1

    def move_text(self, move: Move) -> str:
        return str(move + 1)

    def _cells(self) -> list[list[int]]:
        """Rows from the top: 0 first player, 1 second, -1 empty."""
        g = self.game
        first = self.cur if self.turn == 0 else self.mask ^ self.cur
        h1 = g.height + 1
        return [[-1 if not self.mask >> (c * h1 + r) & 1 else 0 if first >> (c * h1 + r) & 1 else 1
                 for c in range(g.width)] for r in range(g.height - 1, -1, -1)]

    def to_text(self) -> str:
        rows = ["".join(".xo"[v + 1] for v in row) for row in self._cells()]
        return f"{'/'.join(rows)} {'xo'[self.turn]}"

    def render(self) -> str:
        lines = ["|" + " ".join("·●○"[v + 1] for v in row) + "|" for row in self._cells()]
        lines.append(" " + " ".join(str(c + 1)[-1] for c in range(self.game.width)))
        names = [f"{name} ({mark})" for name, mark in zip(self.game.players, ("x ●", "o ○"))]
        if self.won:
            state = f"{names[self.turn ^ 1]} has won"
        elif self.moves == self.game.cells:
            state = "draw: the board is full"
        else:
            state = f"{names[self.turn]} to move"
        lines.append(state)
        return "\n".join(lines)


#: Solver nodes between two looks at the control (and two switch points).
_CHECK_EVERY = 1024
#: Entries of a solver's table (a prime, at least 2**8): 8 bytes each.
TABLE_SIZE = 1_048_583
#: Sort buffers: one row of ``_MAX_WIDTH`` moves per disc count (uncompiled boards
#: reach 100 cells).
_SORT_SLOTS = 101 * _MAX_WIDTH


class Solver:
    """The exact score of Connect Four positions, in the style of Pascal Pons' solver.

    A negamax with alpha-beta on the exact score (Pons' scale, see :func:`solve`),
    over non-losing moves only (a forced block, never under an opponent's
    winning cell), centre first and ordered by the number of winning cells each
    move creates; null-window searches narrow the score range at the root. The
    table keeps, for ``cur + mask`` (a unique key of a position), an upper or a
    lower bound of its score: true of the position wherever it occurs, so the
    table may be kept from one solve to the next. An entry is one 64-bit word
    (one memory access, the solver's main cost): the key's quotient by the table
    size above 8 bits of bound; with the slot, the remainder, it names the key
    exactly. ``nodes`` counts the positions
    searched since the solver was made.
    """

    def __init__(self, geometry: Geometry, table_size: int = TABLE_SIZE):
        self.geo = geometry
        self.size = table_size
        self.nodes = 0
        self.control: Control | None = None
        self.countdown = _CHECK_EVERY
        # Scores lie in [-span, span]; an upper bound u is stored as u + span + 1,
        # a lower bound l as l + 3 * span + 2 (0: nothing stored).
        self.span = geometry.cells // 2 + 1
        self.sort_moves = _padded((), _SORT_SLOTS)
        self.sort_scores = _padded((), _SORT_SLOTS)
        self.reset()

    def reset(self) -> None:
        """Empty the table (of 64-bit words; of Python ints for a board over 64 bits,
        whose keys are wider)."""
        if self.geo.bits <= BITBOARD_BITS:
            self.table: array[int] | list[int] = array("Q", bytes(8 * self.size))
        else:
            self.table = _padded((), self.size)

    def winning(self, bb: int, mask: int) -> int:
        geo = self.geo
        if geo.connect == 4:
            return winning4(bb, mask, geo.height, geo.board_mask)
        return geo.winning_cells(bb, mask)

    def solve(self, cur: int, mask: int, moves: int, control: Control | None = None) -> int:
        """The exact score of the position with the side to move's discs ``cur`` and
        all ``moves`` discs ``mask`` (a position where the game goes on)."""
        geo = self.geo
        cells = geo.cells
        if (mask + geo.bottom_row) & geo.board_mask & self.winning(cur, mask):
            return (cells + 1 - moves) // 2
        self.control = control
        self.countdown = _CHECK_EVERY
        lo = -((cells - moves) // 2)
        hi = (cells + 1 - moves) // 2
        try:
            while lo < hi:
                # Null windows, tried first near zero: most positions are close calls.
                med = lo + (hi - lo) // 2
                if med <= 0 and lo // 2 < med:
                    med = lo // 2
                elif med >= 0 and hi // 2 > med:
                    med = hi // 2
                r = self.negamax(cur, mask, moves, med, med + 1)
                if r <= med:
                    hi = r
                else:
                    lo = r
        finally:
            self.control = None
        return lo

    @cython.boundscheck(False)  # the table's index is a remainder by its size
    def negamax(self, cur: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        """The score within ``(alpha, beta)``, or a bound beyond it, of a position whose
        side to move cannot win with its next disc."""
        geo = self.geo
        self.nodes += 1
        self.countdown -= 1
        if self.countdown == 0:
            self.countdown = _CHECK_EVERY
            # Compiled, the solve would keep the GIL from the protocol reader until it ends.
            switch_point()
            if self.control is not None:
                self.control.check()
        cells = geo.cells
        opp_wins = self.winning(mask ^ cur, mask)
        possible = (mask + geo.bottom_row) & geo.board_mask
        forced = possible & opp_wins
        if forced:
            if forced & (forced - 1):
                return -((cells - moves) // 2)
            possible = forced
        # Never play directly below a cell where the opponent would complete a line.
        possible &= ~(opp_wins >> 1)
        if not possible:
            return -((cells - moves) // 2)
        if moves >= cells - 2:
            return 0
        # The opponent cannot win with its next disc either (non-losing moves).
        lo = -((cells - 2 - moves) // 2)
        if alpha < lo:
            alpha = lo
            if alpha >= beta:
                return alpha
        hi = (cells - 1 - moves) // 2
        if beta > hi:
            beta = hi
            if alpha >= beta:
                return beta
        span = self.span
        key = cur + mask
        slot = key % self.size
        tag = key // self.size << 8
        entry = self.table[slot]
        if entry >> 8 << 8 == tag:
            code = entry & 0xFF
            if code > 2 * span + 1:
                lo = code - 3 * span - 2
                if alpha < lo:
                    alpha = lo
                    if alpha >= beta:
                        return alpha
            elif code:
                hi = code - span - 1
                if beta > hi:
                    beta = hi
                    if alpha >= beta:
                        return beta
        # Moves that leave more winning cells first; among equals the centre first.
        base = moves * _MAX_WIDTH
        n = 0
        for i in range(geo.width):
            new = possible & geo.column_mask[geo.order[i]]
            if new:
                score = popcount(self.winning(cur | new, mask | new))
                j = base + n
                while j > base and self.sort_scores[j - 1] < score:
                    self.sort_scores[j] = self.sort_scores[j - 1]
                    self.sort_moves[j] = self.sort_moves[j - 1]
                    j -= 1
                self.sort_scores[j] = score
                self.sort_moves[j] = new
                n += 1
        opp = mask ^ cur
        for i in range(base, base + n):
            new = self.sort_moves[i]
            score = -self.negamax(opp, mask | new, moves + 1, -beta, -alpha)
            if score >= beta:
                self.table[slot] = tag | (score + 3 * span + 2)
                return score
            if score > alpha:
                alpha = score
        self.table[slot] = tag | (alpha + span + 1)
        return alpha


def solve(pos: Connect4Position, control: Control | None = None, solver: Solver | None = None) -> int:
    """The exact value of ``pos`` for the side to move, in Pascal Pons' scale.

    A win scores ``(cells + 2 - d) // 2`` where ``d`` counts all discs on the
    board after the winning disc (on 7×6: 22 minus the winner's discs), a loss
    the negative, a draw 0. By ``solver`` (one kept for its table) or a new
    :class:`Solver`. Exponential: for positions with a few dozen empty cells at
    most. With a ``control``, raises :class:`engine.control.Stopped` once it
    expires.
    """
    g = pos.game
    if pos.won:
        return -((g.cells + 2 - pos.moves) // 2)
    if pos.moves == g.cells:
        return 0
    if solver is None:
        solver = g.implementation.Solver(g.geometry)
    return solver.solve(pos.cur, pos.mask, pos.moves, control)


class Connect4Exact(Exact):
    """Exact scores of Connect Four positions with at most ``empties`` empty cells,
    by :func:`solve`, whose score (Pons' scale) gives the exact distance.

    A solve can take longer than a fast move has: ``score`` takes the go's control
    and answers ``None`` (not covered) when it expires first. One solver, with a
    small table, serves every position (its bounds stay true from one to the next).
    """

    uses_control: ClassVar[bool] = True

    def __init__(self, game: Connect4Game, empties: int = EXACT_EMPTIES):
        self.game = game
        self.empties = empties
        self.solver = game.implementation.Solver(game.geometry, 65_537)

    def score(self, pos: Connect4Position, control: Control | None = None) -> int | None:
        g = self.game
        if g.cells - pos.moves > self.empties:
            return None
        try:
            s = solve(pos, control, self.solver)
        except Stopped:
            return None
        if s == 0:
            return 0
        # The game ends with disc number d, where |s| = (cells + 2 - d) // 2; the
        # mover places the odd-numbered discs from here.
        base = g.cells + 2 - 2 * abs(s)
        d = base if (base - pos.moves) % 2 == (1 if s > 0 else 0) else base - 1
        plies = d - pos.moves
        return WIN - plies if s > 0 else -WIN + plies

    def nodes(self) -> int | None:
        return self.solver.nodes
