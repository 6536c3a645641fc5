"""Tic-tac-toe and the m,n,k-game (gomoku is 15,15,5).

Two players, X (first) and O, take turns placing a stone on an empty cell of a
board ``m`` columns wide and ``n`` rows high. The first to have ``k`` (or more)
stones in a row, horizontally, vertically or diagonally, wins; a full board
without such a line is a draw. Tic-tac-toe is the 3,3,3-game.

Cells are written like chess squares: a column letter (``a`` = left) and a row
number (``1`` = bottom), e.g. ``b2``. A cell number ``1``..``m*n`` in reading
order from the top-left cell is also accepted (tic-tac-toe's ``1``..``9``).

Position text: the rows from the top, separated by ``/``, with ``x``, ``o`` and
``.`` for an empty cell (a number stands for that many empty cells), then the
player to move; e.g. ``.../.x./... o``.

Bitboards are ints with one guard column: cell (column c, row r) is bit
``r * (m + 1) + c``, which is also the move int. Sliding a bitboard along a
direction never wraps a line across a row edge because every line crossing an
edge passes through the always-empty guard column.
"""

from __future__ import annotations

from engine.position import Position

from typing import ClassVar, cast

from pydantic import BaseModel, Field, model_validator

from engine.game import (ExactConfig, GameTraits, IllegalMoveError, InvalidPositionError, Move,
                         bits, parse_number, quote)
from games.solved_game import MAX_CELLS, SolvedGame
from games.zobrist import keys

_LETTERS = "abcdefghijklmnopqrs"
_CELL_CHARS = str.maketrans("012", ".xo")


class MnkParams(BaseModel):
    m: int = Field(15, ge=3, le=19, description="columns")
    n: int = Field(15, ge=3, le=19, description="rows")
    k: int = Field(5, ge=3, le=19, description="stones in a row to win")

    @model_validator(mode="after")
    def _line_fits(self):
        if self.k > max(self.m, self.n):
            raise ValueError(f"k={self.k} does not fit on a {self.m}x{self.n} board")
        return self


class TicTacToeParams(BaseModel):
    """Tic-tac-toe has no parameters (the mnk game covers other boards)."""


class MnkGame(GameTraits):
    """The m,n,k-game; the default is gomoku (15 by 15, five in a row)."""

    name: ClassVar[str] = "mnk"
    aliases: ClassVar[tuple[str, ...]] = ("gomoku",)
    players: ClassVar[tuple[str, str]] = ("x", "o")
    Params: ClassVar[type[BaseModel]] = MnkParams
    null_move_ok: ClassVar[bool] = False
    tables_note: ClassVar[str] = ("the whole game is solved on first use on boards of up to 12 cells, larger ones "
                                  "are left to the search (games/solved_game.py); no table files")
    bench_texts: tuple[str, ...] = (
        "15/15/15/15/15/15/6xox6/7x7/6o1o6/15/15/15/15/15/15 x",
        "15/15/15/15/15/15/6o1o6/6oxxxo4/7xx6/6xo1x5/5o4o4/15/15/15/15 x",
        "15/15/15/15/15/15/15/7xxo5/6xxo6/5ooxx6/7o1o5/15/15/15/15 x",
    )

    def __init__(self, params: BaseModel | None = None):
        self.params = params or self.Params()
        m, n, k = self._shape()
        if self.params != self.Params():
            # The built-in positions are for the default board; others bench the start.
            self.bench_texts = ()
        self.m, self.n, self.k = m, n, k
        w = self.width = m + 1
        self.full = sum(1 << (r * w + c) for r in range(n) for c in range(m))
        self.cells = [r * w + c for r in range(n) for c in range(m)]
        self.directions = (1, w, w + 1, w - 1)
        steps = ((1, 0), (0, 1), (1, 1), (-1, 1))
        self.lines: list[int] = []
        self.cell_lines: list[list[int]] = [[] for _ in range(n * w)]
        for dc, dr in steps:
            for r in range(n):
                for c in range(m):
                    ends = (c + dc * (k - 1), r + dr * (k - 1))
                    if not (0 <= ends[0] < m and ends[1] < n):
                        continue
                    cells = [(r + dr * i) * w + c + dc * i for i in range(k)]
                    mask = sum(1 << i for i in cells)
                    self.lines.append(mask)
                    for i in cells:
                        self.cell_lines[i].append(mask)
        #: Weight of a line still open for a player, by that player's stones in it.
        self.weights = [4 ** i for i in range(k + 1)]
        self.near = [0] * (n * w)
        self.ring = [0] * (n * w)
        self.centre = [0] * (n * w)
        for r in range(n):
            for c in range(m):
                i = r * w + c
                for rr in range(max(0, r - 2), min(n, r + 3)):
                    for cc in range(max(0, c - 2), min(m, c + 3)):
                        if (rr, cc) == (r, c):
                            continue
                        bit = 1 << (rr * w + cc)
                        if abs(rr - r) <= 1 and abs(cc - c) <= 1:
                            self.near[i] |= bit
                        else:
                            self.ring[i] |= bit
                self.centre[i] = (min(m, n) - 1) // 2 - max(abs(2 * c - m + 1), abs(2 * r - n + 1)) // 2
        table = keys(2 * n * w + 1, f"zermelo/mnk/{m}x{n}")
        self.stone_keys = (table[:n * w], table[n * w:2 * n * w])
        self.turn_key = table[-1]

    def _shape(self) -> tuple[int, int, int]:
        # MnkGame's own Params is MnkParams; tic-tac-toe overrides this method.
        params = cast(MnkParams, self.params)
        return params.m, params.n, params.k

    def exact(self, config: ExactConfig) -> SolvedGame | None:
        """The whole game solved on first use, when it has at most ``MAX_CELLS`` cells."""
        return SolvedGame(self) if len(self.cells) <= MAX_CELLS else None

    def new_position(self, text: str | None = None) -> MnkPosition:
        if text is None:
            return MnkPosition(self, (0, 0), 0)
        m, n, w = self.m, self.n, self.width
        parts = text.split()
        if len(parts) != 2 or parts[1].lower() not in ("x", "o"):
            raise InvalidPositionError(
                f"bad {self.name} position {text!r}; expected rows from the top and the side to move, "
                f"e.g. '{'/'.join(['.' * m] * n)} x'")
        turn = "xo".index(parts[1].lower())
        rows = parts[0].lower().split("/")
        if len(rows) != n:
            raise InvalidPositionError(f"bad {self.name} position {text!r}: {n} rows expected")
        stones = [0, 0]
        for top, row in enumerate(rows):
            r = n - 1 - top
            c = 0
            run = ""
            for ch in row + "/":
                if ch.isdigit():
                    run += ch
                    continue
                if run:
                    c += int(run)
                    run = ""
                if ch == "/":
                    break
                if ch not in "xo." or c >= m:
                    raise InvalidPositionError(f"bad {self.name} row {row!r}")
                if ch != ".":
                    stones["xo".index(ch)] |= 1 << (r * w + c)
                c += 1
            if c != m:
                raise InvalidPositionError(f"bad {self.name} row {row!r}: {m} cells expected")
        x, o = stones
        if x.bit_count() - o.bit_count() != turn:
            raise InvalidPositionError(
                f"bad {self.name} position {text!r}: X moves first, so X has as many stones as O "
                "with X to move, one more with O to move")
        if self._has_line(stones[turn]):
            raise InvalidPositionError(f"bad {self.name} position {text!r}: the side to move already has a line")
        return MnkPosition(self, (x, o), turn)

    def _has_line(self, s: int) -> bool:
        return any(s & line == line for line in self.lines)

    def completions(self, s: int, empty: int) -> int:
        """The cells of ``empty`` that would give the player with stones ``s`` a line."""
        k = self.k
        found = 0
        for d in self.directions:
            # left[j]: cells whose j neighbours backwards along d are all stones of s;
            # right[j] the same forwards. A gap with a + b = k - 1 completes a line.
            left, right = [-1], [-1]
            for j in range(1, k):
                left.append(left[-1] & (s << (j * d)))
                right.append(right[-1] & (s >> (j * d)))
            for a in range(k):
                found |= left[a] & right[k - 1 - a]
        return found & empty


class TicTacToeGame(MnkGame):
    """Tic-tac-toe: the 3,3,3-game."""

    name: ClassVar[str] = "tictactoe"
    aliases: ClassVar[tuple[str, ...]] = ("ttt", "tic-tac-toe")
    Params: ClassVar[type[BaseModel]] = TicTacToeParams
    tables_note: ClassVar[str] = "the whole game is solved on first use (games/solved_game.py); no table files"
    bench_texts: tuple[str, ...] = (".../.../... x", "x../.o./... x", "x.o/.x./..o x")

    def _shape(self) -> tuple[int, int, int]:
        return 3, 3, 3


class MnkPosition(Position):
    def __init__(self, game: MnkGame, stones: tuple[int, int], turn: int):
        self.game = game
        self.stones = stones
        self.turn = turn
        x, o = stones
        if game._has_line(stones[turn ^ 1]):
            self.result: int | None = -1
        elif x | o == game.full:
            self.result = 0
        else:
            self.result = None
        self.score = _line_score(game, x, o)
        empty = game.full & ~(x | o)
        #: Per player, the empty cells that would complete a line; kept by push.
        self.threats = (game.completions(x, empty), game.completions(o, empty))
        self.key = self.compute_key()
        self._stack: list[tuple[tuple[int, int], int, int, int, int | None, tuple[int, int]]] = []

    # -- moves ---------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        if self.result is not None:
            return []
        occupied = self.stones[0] | self.stones[1]
        return [c for c in self.game.cells if not occupied >> c & 1]

    def _threats(self) -> tuple[int, int]:
        """(cells winning at once for the side to move, cells where the opponent
        would win at once)."""
        return self.threats[self.turn], self.threats[self.turn ^ 1]

    def noisy_moves(self) -> list[Move]:
        """Immediate wins; failing those, the blocks of the opponent's immediate
        wins (any other move loses at once)."""
        if self.result is not None:
            return []
        wins, blocks = self._threats()
        return bits(wins or blocks)

    def is_noisy(self, move: Move) -> bool:
        if self.result is not None:
            return False
        wins, blocks = self._threats()
        return bool((wins or blocks) >> move & 1)

    def move_score(self, move: Move) -> int:
        """Wins, then blocks, then cells next to stones, then central cells."""
        wins, blocks = self._threats()
        if wins >> move & 1:
            return 1 << 20
        if blocks >> move & 1:
            return 1 << 19
        g = self.game
        occupied = self.stones[0] | self.stones[1]
        return 16 * (g.near[move] & occupied).bit_count() + 4 * (g.ring[move] & occupied).bit_count() + g.centre[move]

    def in_check(self) -> bool:
        """True when the opponent threatens to complete a line and the side to move
        cannot win first: like check, only a block saves the game."""
        if self.result is not None:
            return False
        wins, blocks = self._threats()
        return not wins and bool(blocks)

    def can_stand_pat(self) -> bool:
        return not self.in_check()

    def push(self, move: Move) -> None:
        g = self.game
        p = self.turn
        stones = self.stones
        threats = self.threats
        self._stack.append((stones, p, self.key, self.score, self.result, threats))
        mine, theirs = stones[p], stones[p ^ 1]
        bit = 1 << move
        weights = g.weights
        k = g.k
        delta = 0
        won = False
        new_threats = threats[p] & ~bit
        for line in g.cell_lines[move]:
            a = (line & mine).bit_count()
            b = (line & theirs).bit_count()
            if b == 0:
                delta += weights[a + 1] - weights[a]
                if a + 2 == k:
                    new_threats |= line & ~(mine | bit)
                elif a + 1 == k:
                    won = True
            if a == 0:
                # The line was open for the opponent; now it is closed.
                delta += weights[b]
        mine |= bit
        # A threat's line is full but for the threat cell: only a stone there blocks it.
        their_threats = threats[p ^ 1] & ~bit
        self.threats = (new_threats, their_threats) if p == 0 else (their_threats, new_threats)
        self.stones = (mine, theirs) if p == 0 else (theirs, mine)
        self.score += delta if p == 0 else -delta
        self.key ^= g.stone_keys[p][move] ^ g.turn_key
        self.turn = p ^ 1
        if won:
            self.result = -1
        elif mine | theirs == g.full:
            self.result = 0

    def pop(self) -> None:
        self.stones, self.turn, self.key, self.score, self.result, self.threats = self._stack.pop()

    def null_move_allowed(self) -> bool:
        return False

    def push_null(self) -> None:
        self._stack.append((self.stones, self.turn, self.key, self.score, self.result, self.threats))
        self.turn ^= 1
        self.key ^= self.game.turn_key

    # -- results -------------------------------------------------------------

    def outcome(self) -> int | None:
        return self.result

    def no_moves_value(self) -> int:
        return self.result or 0

    def is_repetition(self) -> bool:
        return False

    def evaluate(self) -> int:
        """Open lines: every length-k line without an opponent stone counts for a
        player, weighted 4**s by the s own stones it holds (1 for an empty line),
        X's total minus O's, from the side to move's view."""
        return self.score if self.turn == 0 else -self.score

    def compute_key(self) -> int:
        g = self.game
        k = g.turn_key if self.turn else 0
        for p in (0, 1):
            for c in bits(self.stones[p]):
                k ^= g.stone_keys[p][c]
        return k

    # -- text ----------------------------------------------------------------

    def copy(self) -> MnkPosition:
        return MnkPosition(self.game, self.stones, self.turn)

    def parse_move(self, text: str) -> Move:
        g = self.game
        s = text.strip().lower()
        cell = parse_number(s)
        row = parse_number(s[1:]) if s[:1] and s[0] in _LETTERS[:g.m] else None
        if cell is not None and 1 <= cell <= g.m * g.n:
            top, c = divmod(cell - 1, g.m)
            r = g.n - 1 - top
        elif row is not None and 1 <= row <= g.n:
            c, r = _LETTERS.index(s[0]), row - 1
        else:
            raise IllegalMoveError(f"illegal move {quote(text)}: expected a cell a1-{_LETTERS[g.m - 1]}{g.n} "
                                   f"or a number 1-{g.m * g.n}")
        move = r * g.width + c
        if self.result is not None:
            raise IllegalMoveError(f"illegal move {quote(text)}: the game is over")
        if (self.stones[0] | self.stones[1]) >> move & 1:
            raise IllegalMoveError(f"illegal move {quote(text)}: the cell is taken")
        return move

    def move_text(self, move: Move) -> str:
        r, c = divmod(move, self.game.width)
        return f"{_LETTERS[c]}{r + 1}"

    def _cells(self) -> str:
        """One character per bit index, ``x``/``o``/``.`` (guard columns included)."""
        x, o = self.stones
        # Read as decimal, x + 2*o never carries, so digit i is bit i's owner.
        digits = str(int(format(x, "b")) + 2 * int(format(o, "b")))
        return digits.zfill(self.game.n * self.game.width)[::-1].translate(_CELL_CHARS)

    def _rows(self) -> list[str]:
        """The rows from the top, as ``x``/``o``/``.`` strings."""
        g = self.game
        cells = self._cells()
        return [cells[r * g.width:r * g.width + g.m] for r in range(g.n - 1, -1, -1)]

    def to_text(self) -> str:
        return f"{'/'.join(self._rows())} {'xo'[self.turn]}"

    def render(self) -> str:
        g = self.game
        lines = [f"{g.n - top:>2} " + " ".join(row) for top, row in enumerate(self._rows())]
        lines.append("   " + " ".join(_LETTERS[:g.m]))
        if self.result is None:
            lines.append(f"{'xo'[self.turn]} to move ({g.k} in a row wins)")
        elif self.result:
            lines.append(f"{'xo'[self.turn ^ 1]} won")
        else:
            lines.append("draw")
        return "\n".join(lines)


def open_lines(pos: MnkPosition, player: int) -> int:
    """The number of length-k lines with no stone of ``player``'s opponent:
    the lines ``player`` can still complete (the textbook evaluation counts
    X's open lines minus O's)."""
    theirs = pos.stones[player ^ 1]
    return sum(1 for line in pos.game.lines if not line & theirs)


def _line_score(game: MnkGame, x: int, o: int) -> int:
    """X's weighted open lines minus O's, from scratch (``push`` updates it)."""
    weights = game.weights
    score = 0
    for line in game.lines:
        if not line & o:
            score += weights[(line & x).bit_count()]
        if not line & x:
            score -= weights[(line & o).bit_count()]
    return score


