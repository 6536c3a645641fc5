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
"""

from __future__ import annotations

from engine.position import Position

import re
from typing import ClassVar

from pydantic import BaseModel, Field, model_validator

from engine.control import Control, Stopped
from engine.game import (WIN, ExactConfig, GameTraits, IllegalMoveError, InvalidPositionError,
                         Move, parse_number, quote)
from games.zobrist import keys

_SIDES = {"x": 0, "1": 0, "first": 0, "o": 1, "2": 1, "second": 1}
_ROW_RE = re.compile(r"[xo.\-_0-9]+")


#: Positions with at most this many empty cells are solved exactly in the search.
EXACT_EMPTIES = 14

class Connect4Params(BaseModel):
    width: int = Field(7, ge=4, le=10)
    height: int = Field(6, ge=4, le=10)
    connect: int = Field(4, ge=3, le=10)

    @model_validator(mode="after")
    def _line_fits(self):
        if self.connect > max(self.width, self.height):
            raise ValueError("connect must fit on the board (at most max(width, height))")
        return self


class Connect4Game(GameTraits):
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
        for steps in self.align_steps:
            m = bb
            for t in steps:
                m &= m >> t
            if m:
                return True
        return False

    def winning_cells(self, bb: int, mask: int) -> int:
        """Empty cells (any height) that would complete a line for ``bb``."""
        k = self.connect
        if k == 4:
            # Pons' formula: the cell is 1st, 2nd, 3rd or 4th of the four.
            win = (bb << 1) & (bb << 2) & (bb << 3)
            for s in self.shifts[1:]:
                t = (bb << s) & (bb << 2 * s)
                win |= t & ((bb << 3 * s) | (bb >> s))
                t = (bb >> s) & (bb >> 2 * s)
                win |= t & ((bb >> 3 * s) | (bb << s))
            return win & (self.board_mask ^ mask)
        win = 0
        for s in self.shifts:
            # left[d]: cells whose d neighbours below/left are all in bb; right likewise.
            left, right = [-1], [-1]
            for d in range(1, k):
                left.append(left[-1] & (bb << (d * s)))
                right.append(right[-1] & (bb >> (d * s)))
            for j in range(k):
                win |= left[j] & right[k - 1 - j]
        return win & (self.board_mask ^ mask)

    def exact(self, config: ExactConfig) -> Connect4Exact:
        """The solver on positions with at most :data:`EXACT_EMPTIES` empty cells."""
        return Connect4Exact(self, EXACT_EMPTIES)

    def new_position(self, text: str | None = None) -> Connect4Position:
        if text is None:
            return Connect4Position(self, 0, 0, 0)
        s = text.strip()
        if s.isdigit() and "/" not in s:
            return self._from_columns(s)
        return self._from_board(s)

    def _from_columns(self, s: str) -> Connect4Position:
        pos = Connect4Position(self, 0, 0, 0)
        if self.width > 9:
            raise InvalidPositionError("column strings need a board at most 9 wide")
        for i, ch in enumerate(s):
            c = int(ch) - 1
            if not 0 <= c < self.width or c not in pos.legal_moves():
                raise InvalidPositionError(f"column string {s[:60]!r}: move {i + 1} ({ch}) is not legal")
            pos.push(c)
        return Connect4Position(self, pos.cur, pos.mask, pos.turn)

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
        return Connect4Position(self, discs[turn], mask, turn)


class Connect4Position(Position):
    """A Connect Four position: the side to move's discs ``cur``, all discs
    ``mask``, ``turn`` (0 = first player) and whether the last move won."""

    def __init__(self, game: Connect4Game, cur: int, mask: int, turn: int):
        self.game = game
        self.cur = cur
        self.mask = mask
        self.turn = turn
        self.moves = mask.bit_count()
        self.won = game.aligned(mask ^ cur)
        self.key = self.compute_key()
        self._threats: tuple[int, int] | None = None
        self._stack: list[tuple[int, int, int, int, int, bool, tuple[int, int] | None]] = []

    # -- moves ---------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Open columns, centre first; ``[]`` once the game is over."""
        if self.won or self.moves == self.game.cells:
            return []
        mask, top = self.mask, self.game.top
        return [c for c in self.game.order if not mask & top[c]]

    def threats(self) -> tuple[int, int]:
        """Empty cells completing a line for (the side to move, the opponent)."""
        if self._threats is None:
            g = self.game
            self._threats = (g.winning_cells(self.cur, self.mask),
                             g.winning_cells(self.mask ^ self.cur, self.mask))
        return self._threats

    def _playable(self) -> int:
        return (self.mask + self.game.bottom_row) & self.game.board_mask

    def noisy_moves(self) -> list[Move]:
        """Moves that win at once, then moves that stop the opponent winning at once."""
        if self.won:
            return []
        own, opp = self.threats()
        playable = self._playable()
        wins, blocks = playable & own, playable & opp & ~own
        h1 = self.game.height + 1
        out = []
        for bb in (wins, blocks):
            while bb:
                b = bb & -bb
                out.append((b.bit_length() - 1) // h1)
                bb ^= b
        return out

    def is_noisy(self, move: Move) -> bool:
        if self.won:
            return False
        own, opp = self.threats()
        return bool((self.mask + self.game.bottom[move]) & self.game.column_mask[move] & (own | opp))

    def move_score(self, move: Move) -> int:
        return self.game.width - abs(2 * move - (self.game.width - 1))

    def in_check(self) -> bool:
        """True when the opponent would win with its next disc and the side to
        move cannot win first: the reply must block."""
        if self.won:
            return False
        own, opp = self.threats()
        playable = self._playable()
        return bool(playable & opp) and not playable & own

    def can_stand_pat(self) -> bool:
        return not self.in_check()

    def push(self, move: Move) -> None:
        """Drop a disc into column ``move`` (not validated)."""
        g = self.game
        cur, mask = self.cur, self.mask
        self._stack.append((cur, mask, self.turn, self.key, self.moves, self.won, self._threats))
        new = (mask + g.bottom[move]) & g.column_mask[move]
        self.key ^= g.disc_keys[self.turn][new.bit_length() - 1] ^ g.turn_key
        self.won = g.aligned(cur | new)
        self.cur = mask ^ cur
        self.mask = mask | new
        self.turn ^= 1
        self.moves += 1
        self._threats = None

    def pop(self) -> None:
        (self.cur, self.mask, self.turn, self.key, self.moves, self.won,
         self._threats) = self._stack.pop()

    def push_null(self) -> None:
        """Hand the turn over without dropping a disc (not a rule of the game)."""
        self._stack.append((self.cur, self.mask, self.turn, self.key, self.moves, self.won, self._threats))
        self.cur ^= self.mask
        self.turn ^= 1
        self.key ^= self.game.turn_key
        self._threats = None

    def null_move_allowed(self) -> bool:
        return False

    # -- results -------------------------------------------------------------

    def outcome(self) -> int | None:
        if self.won:
            return -1
        if self.moves == self.game.cells:
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
        bottom) for the first player, even rows for the second.
        """
        g = self.game
        own, opp = self.cur, self.mask ^ self.cur
        weight = g.line_weight
        score = 0
        for line in g.lines:
            a = line & own
            b = line & opp
            if not b:
                score += weight[a.bit_count()]
            elif not a:
                score -= weight[b.bit_count()]
        t_own, t_opp = self.threats()
        good = g.odd_rows if self.turn == 0 else g.board_mask ^ g.odd_rows
        score += 40 * ((t_own & good).bit_count() - (t_opp & ~good).bit_count())
        score += 15 * ((t_own & ~good).bit_count() - (t_opp & good).bit_count())
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

    def copy(self) -> Connect4Position:
        return Connect4Position(self.game, self.cur, self.mask, self.turn)

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


#: Solver nodes between two looks at the control.
_CHECK_EVERY = 256


def solve(pos: Connect4Position, control: Control | None = None) -> int:
    """The exact value of ``pos`` for the side to move, in Pascal Pons' scale.

    A win scores ``(cells + 2 - d) // 2`` where ``d`` counts all discs on the
    board after the winning disc (on 7×6: 22 minus the winner's discs), a loss
    the negative, a draw 0. A plain negamax with alpha-beta, a table of upper
    bounds, only non-losing moves searched, threat-count move ordering, and a
    null-window bisection of the score range (Pons' solver, in miniature).
    Exponential: for positions with a few dozen empty cells at most. With a
    ``control``, raises :class:`engine.control.Stopped` once it expires.
    """
    g = pos.game
    cells, bottom_row, board_mask = g.cells, g.bottom_row, g.board_mask
    winning_cells, order = g.winning_cells, g.order
    column_mask = g.column_mask
    table: dict[int, int] = {}
    countdown = [_CHECK_EVERY]

    def negamax(cur: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        if control is not None:
            countdown[0] -= 1
            if not countdown[0]:
                countdown[0] = _CHECK_EVERY
                control.check()
        possible = (mask + bottom_row) & board_mask
        if possible & winning_cells(cur, mask):
            return (cells + 1 - moves) // 2
        opp_wins = winning_cells(mask ^ cur, mask)
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
        lo = -((cells - 2 - moves) // 2)
        if alpha < lo:
            alpha = lo
            if alpha >= beta:
                return alpha
        hi = (cells - 1 - moves) // 2
        bound = table.get(cur + mask)
        if bound is not None and bound < hi:
            hi = bound
        if beta > hi:
            beta = hi
            if alpha >= beta:
                return beta
        children = []
        for c in order:
            new = possible & column_mask[c]
            if new:
                children.append(((winning_cells(cur | new, mask | new)).bit_count(), new))
        children.sort(key=lambda t: -t[0])  # stable: centre first among equals
        for _, new in children:
            score = -negamax(mask ^ cur, mask | new, moves + 1, -beta, -alpha)
            if score >= beta:
                return score
            if score > alpha:
                alpha = score
        table[cur + mask] = alpha
        return alpha

    if pos.won:
        return -((cells + 2 - pos.moves) // 2)
    if pos.moves == cells:
        return 0
    cur, mask, moves = pos.cur, pos.mask, pos.moves
    if (mask + bottom_row) & board_mask & winning_cells(cur, mask):
        return (cells + 1 - moves) // 2
    lo, hi = -((cells - moves) // 2), (cells + 1 - moves) // 2
    while lo < hi:
        med = lo + (hi - lo) // 2
        if med <= 0 and lo // 2 < med:
            med = lo // 2
        elif med >= 0 and hi // 2 > med:
            med = hi // 2
        r = negamax(cur, mask, moves, med, med + 1)
        if r <= med:
            hi = r
        else:
            lo = r
    return lo


class Connect4Exact:
    """Exact scores of Connect Four positions with at most ``empties`` empty cells,
    by :func:`solve`, whose score (Pons' scale) gives the exact distance.

    A solve can take longer than a fast move has: ``score`` takes the go's control
    and answers ``None`` (not covered) when it expires first.
    """

    uses_control: ClassVar[bool] = True

    def __init__(self, game: Connect4Game, empties: int = EXACT_EMPTIES):
        self.game = game
        self.empties = empties

    def score(self, pos: Connect4Position, control: Control | None = None) -> int | None:
        g = self.game
        if g.cells - pos.moves > self.empties:
            return None
        try:
            s = solve(pos, control)
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
