"""The m,n,k-game for two to four players (default: three players, 6×6, four in a row).

Players take turns in a fixed order, x first, then o, ``+`` and ``*``, each
placing a stone of their own on an empty cell of a board ``m`` columns wide and
``n`` rows high. The first to have ``k`` (or more) stones in a row,
horizontally, vertically or diagonally, wins and every other player loses; a
full board without such a line is a draw shared by all.

Cells are written as in :mod:`games.mnk`: a column letter (``a`` = left) and a
row number (``1`` = bottom), e.g. ``c4``, or a cell number ``1``..``m*n`` in
reading order from the top-left cell.

Position text: the rows from the top, separated by ``/``, with ``x``, ``o``,
``+``, ``*`` for the stones and ``.`` for an empty cell (a number stands for that
many empty cells), then the player to move; e.g. ``6/6/2x3/2o+2/6/6 x``. Every
player before the one to move has one stone more than those from it on.

This is a separate module from :mod:`games.mnk` so the two-player game's
compiled hot path stays as it is. Cell (column c, row r) is move ``r * m + c``;
the lines of ``k`` cells are precomputed, and per line the position keeps each
player's stones (``count[line * N + p]``) and the total, so a move updates only
the lines through its cell and ``pop`` is its exact inverse.

Values (the N-player vector of :mod:`engine.game`, ``value_sum`` 1000): a line
holding stones of one player only is open for that player and weighs ``4**s``
for its ``s`` stones; each player's weight is 1 plus their open lines' weights,
and ``values()`` gives each player ``999 * weight // total weight``.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, Field, model_validator

from engine.game import Game, IllegalMoveError, InvalidPositionError, Move, parse_number, quote
from engine.position import Position
from games.mnk import read_rows
from games.zobrist import keys

_LETTERS = "abcdefghijklmnopqrs"
#: The stone of each player, in turn order.
STONES = "xo+*"
VALUE_SUM = 1000
#: ``MnkMultiPosition.winner`` while nobody has made a line.
NOBODY = -1


class MnkMultiParams(BaseModel):
    players: int = Field(3, ge=2, le=4, description="number of players")
    m: int = Field(6, ge=3, le=19, description="columns")
    n: int = Field(6, ge=3, le=19, description="rows")
    k: int = Field(4, ge=3, le=19, description="stones in a row to win")

    @model_validator(mode="after")
    def _line_fits(self):
        if self.k > max(self.m, self.n):
            raise ValueError(f"k={self.k} does not fit on a {self.m}x{self.n} board")
        return self


class MnkMultiGame(Game):
    """The m,n,k-game for ``players`` players: rules, lines and Zobrist keys."""

    name: ClassVar[str] = "mnkmulti"
    aliases: ClassVar[tuple[str, ...]] = ("mnk-multi", "mnk3")
    Params: ClassVar[type[BaseModel]] = MnkMultiParams
    #: The players of the default game; an instance sets its own from ``players``.
    players: tuple[str, ...] = tuple(STONES[:3])
    null_move_ok: ClassVar[bool] = False
    bench_depth: ClassVar[int] = 4
    value_sum: ClassVar[int] = VALUE_SUM
    bench_texts: tuple[str, ...] = ()

    def __init__(self, params: BaseModel | None = None):
        self.params = params if isinstance(params, MnkMultiParams) else MnkMultiParams()
        p = self.params
        self.m, self.n, self.k, self.count = p.m, p.n, p.k, p.players
        self.players = tuple(STONES[:p.players])
        m, n, k = self.m, self.n, self.k
        self.size = m * n
        #: Every line of k cells, as a tuple of cells; ``through[c]`` the lines through cell c.
        self.lines: list[tuple[int, ...]] = []
        self.through: list[list[int]] = [[] for _ in range(self.size)]
        for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
            for r in range(n):
                for c in range(m):
                    if not (0 <= c + dc * (k - 1) < m and r + dr * (k - 1) < n):
                        continue
                    cells = tuple((r + dr * i) * m + c + dc * i for i in range(k))
                    for cell in cells:
                        self.through[cell].append(len(self.lines))
                    self.lines.append(cells)
        #: Weight of a line open for a player, by that player's stones in it.
        self.weights = [4 ** i for i in range(k + 1)]
        #: Move-order hint: closeness to the centre plus the lines through the cell.
        self.centre = [len(self.through[r * m + c]) * 4
                       - max(abs(2 * c - m + 1), abs(2 * r - n + 1)) for r in range(n) for c in range(m)]
        table = keys(4 * self.size + 4, f"zermelo/mnkmulti/{m}x{n}")
        #: Key of player p's stone on cell c: ``stone_keys[p][c]``.
        self.stone_keys = [table[i * self.size:(i + 1) * self.size] for i in range(4)]
        #: Key of player p to move (0 for player 0).
        self.turn_keys = [0, *table[4 * self.size:4 * self.size + 3]]

    def new_position(self, text: str | None = None) -> MnkMultiPosition:
        if text is None:
            return MnkMultiPosition(self, [0] * self.size, 0)
        m, n, count = self.m, self.n, self.count
        parts = text.split()
        if len(parts) != 2 or len(parts[1]) != 1 or parts[1].lower() not in self.players:
            raise InvalidPositionError(
                f"bad {self.name} position {text[:80]!r}; expected rows from the top and the player to move "
                f"({', '.join(self.players)}), e.g. '{'/'.join([str(m)] * n)} x'")
        turn = self.players.index(parts[1].lower())
        rows = parts[0].lower().split("/")
        if len(rows) != n:
            raise InvalidPositionError(f"bad {self.name} position {text[:80]!r}: {n} rows expected")
        cell = [0] * self.size
        for r, c, ch in read_rows(self.name, rows, m, "".join(self.players)):
            cell[r * m + c] = self.players.index(ch) + 1
        stones = [cell.count(p + 1) for p in range(count)]
        if any(stones[p] != stones[-1] + (p < turn) for p in range(count)):
            raise InvalidPositionError(
                f"bad {self.name} position {text[:80]!r}: players move in turn, so each player before the one "
                "to move has one stone more than each player from it on")
        last = (turn - 1) % count
        made = [p for p in range(count) if self._has_line(cell, p)]
        if made and (made != [last] or not stones[last]):
            raise InvalidPositionError(
                f"bad {self.name} position {text[:80]!r}: only the player who moved last may have a line")
        return MnkMultiPosition(self, cell, turn)

    def _has_line(self, cell: list[int], p: int) -> bool:
        return any(all(cell[c] == p + 1 for c in line) for line in self.lines)


class MnkMultiPosition(Position):
    """An N-player m,n,k position: ``cell[c]`` is 0 for empty or 1 + the player;
    ``count[l * N + p]`` player p's stones in line l and ``total[l]`` all stones
    in it; ``score[p]`` p's open-line weight; ``winner`` the player who made a
    line or :data:`NOBODY`. The undo stack keeps the moves only."""

    def __init__(self, game: MnkMultiGame, cell: list[int], turn: int):
        self.game = game
        self.n = game.count
        self.k = game.k
        self.through, self.weights = game.through, game.weights
        self.cell = [0] * game.size
        self.count = [0] * (len(game.lines) * self.n)
        self.total = [0] * len(game.lines)
        self.score = [0] * self.n
        self.winner = NOBODY
        self.empty = game.size
        self.moves: list[int] = []
        for c, owner in enumerate(cell):
            if owner:
                self._place(c, owner - 1)
        self.turn = turn
        self.key = self.compute_key()

    def _place(self, c: int, p: int) -> None:
        """Put a stone of ``p`` on the empty cell ``c``, updating the lines through it."""
        n, count, total, score, weights = self.n, self.count, self.total, self.score, self.weights
        self.cell[c] = p + 1
        self.empty -= 1
        for line in self.through[c]:
            i = line * n
            t = total[line]
            a = count[i + p]
            if a == t:
                # Open for p (or empty): it gains a stone.
                score[p] += weights[a + 1] - weights[a] if a else weights[1]
                if a + 1 == self.k:
                    self.winner = p
            elif a == 0:
                # The line may have been open for one other player: now it is closed.
                for q in range(n):
                    if count[i + q] == t:
                        score[q] -= weights[t]
                        break
            count[i + p] = a + 1
            total[line] = t + 1

    def _remove(self, c: int, p: int) -> None:
        """The exact inverse of ``_place(c, p)``."""
        n, count, total, score, weights = self.n, self.count, self.total, self.score, self.weights
        self.cell[c] = 0
        self.empty += 1
        for line in self.through[c]:
            i = line * n
            t = total[line] - 1
            a = count[i + p] - 1
            count[i + p] = a
            total[line] = t
            if a == t:
                score[p] -= weights[a + 1] - weights[a] if a else weights[1]
            elif a == 0:
                for q in range(n):
                    if count[i + q] == t:
                        score[q] += weights[t]
                        break

    # -- the search's calls ----------------------------------------------------

    def legal_moves(self) -> list[Move]:
        if self.winner != NOBODY or not self.empty:
            return []
        cell = self.cell
        return [c for c in range(len(cell)) if not cell[c]]

    def noisy_moves(self) -> list[Move]:
        return []

    def is_noisy(self, move: Move) -> bool:
        return False

    def move_score(self, move: Move) -> int:
        return self.game.centre[move]

    def in_check(self) -> bool:
        return False

    def can_stand_pat(self) -> bool:
        return True

    def push(self, move: Move) -> None:
        turn = self.turn
        self.moves.append(move)
        self._place(move, turn)
        nxt = turn + 1 if turn + 1 < self.n else 0
        self.turn = nxt
        self.key ^= self.game.stone_keys[turn][move] ^ self.game.turn_keys[turn] ^ self.game.turn_keys[nxt]

    def pop(self) -> None:
        move = self.moves.pop()
        nxt = self.turn
        turn = nxt - 1 if nxt else self.n - 1
        self.winner = NOBODY  # a line made by the move taken back (none could exist before it)
        self._remove(move, turn)
        self.turn = turn
        self.key ^= self.game.stone_keys[turn][move] ^ self.game.turn_keys[turn] ^ self.game.turn_keys[nxt]

    def push_null(self) -> None:
        raise NotImplementedError("the m,n,k-game has no null move")

    def null_move_allowed(self) -> bool:
        return False

    def is_repetition(self) -> bool:
        return False

    def is_over(self) -> bool:
        return self.winner != NOBODY or not self.empty

    def outcome(self) -> int | None:
        if self.winner != NOBODY:
            return 1 if self.winner == self.turn else -1
        return None if self.empty else 0

    def no_moves_value(self) -> int:
        return self.outcome() or 0

    def values(self) -> list[int]:
        weights = [s + 1 for s in self.score]
        total = sum(weights)
        return [(VALUE_SUM - 1) * w // total for w in weights]

    def result(self) -> list[int] | None:
        if self.winner != NOBODY:
            return [VALUE_SUM if p == self.winner else 0 for p in range(self.n)]
        return None if self.empty else [VALUE_SUM // self.n] * self.n

    def vector_bounds(self) -> tuple[int, int]:
        return 0, self.game.value_sum

    def ranking(self) -> list[int] | None:
        if self.winner != NOBODY:
            return [1 if p == self.winner else 2 for p in range(self.n)]
        return None if self.empty else [1] * self.n

    def evaluate(self) -> int:
        values = self.values()
        return values[self.turn] - max(v for p, v in enumerate(values) if p != self.turn)

    # -- outside the search ------------------------------------------------------

    def compute_key(self) -> int:
        key = self.game.turn_keys[self.turn]
        for c, owner in enumerate(self.cell):
            if owner:
                key ^= self.game.stone_keys[owner - 1][c]
        return key

    def _copy(self) -> MnkMultiPosition:
        return MnkMultiPosition(self.game, self.cell[:], self.turn)

    def parse_move(self, text: str) -> Move:
        g = self.game
        s = text.strip().lower()
        number = parse_number(s)
        row = parse_number(s[1:]) if s[:1] and s[0] in _LETTERS[:g.m] else None
        if number is not None and 1 <= number <= g.size:
            top, c = divmod(number - 1, g.m)
            r = g.n - 1 - top
        elif row is not None and 1 <= row <= g.n:
            c, r = _LETTERS.index(s[0]), row - 1
        else:
            raise IllegalMoveError(f"illegal move {quote(text)}: expected a cell a1-{_LETTERS[g.m - 1]}{g.n} "
                                   f"or a number 1-{g.size}")
        if self.is_over():
            raise IllegalMoveError(f"illegal move {quote(text)}: the game is over")
        move = r * g.m + c
        if self.cell[move]:
            raise IllegalMoveError(f"illegal move {quote(text)}: the cell is taken")
        return move

    def move_text(self, move: Move) -> str:
        r, c = divmod(move, self.game.m)
        return f"{_LETTERS[c]}{r + 1}"

    def _rows(self) -> list[str]:
        """The rows from the top, one character per cell (``.`` empty)."""
        g = self.game
        marks = "." + STONES
        return ["".join(marks[self.cell[r * g.m + c]] for c in range(g.m)) for r in range(g.n - 1, -1, -1)]

    def to_text(self) -> str:
        rows = []
        for row in self._rows():
            # Runs of empty cells as numbers, as in a FEN.
            out, run = "", 0
            for ch in row + "/":
                if ch == ".":
                    run += 1
                    continue
                if run:
                    out += str(run)
                    run = 0
                if ch != "/":
                    out += ch
            rows.append(out)
        return f"{'/'.join(rows)} {self.game.players[self.turn]}"

    def render(self) -> str:
        g = self.game
        lines = [f"{g.n - top:>2} " + " ".join(row) for top, row in enumerate(self._rows())]
        lines.append("   " + " ".join(_LETTERS[:g.m]))
        if self.winner != NOBODY:
            lines.append(f"{g.players[self.winner]} won ({g.k} in a row)")
        elif not self.empty:
            lines.append("draw: the board is full")
        else:
            lines.append(f"{g.players[self.turn]} to move ({' '.join(g.players)}; {g.k} in a row wins)")
        return "\n".join(lines)
