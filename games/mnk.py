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

import math
from array import array
from typing import ClassVar, Literal, cast

import cython  # type: ignore[import-untyped]  # (no stubs; only its decorators are used)
from pydantic import BaseModel, Field, model_validator

from engine.game import (EVAL_LIMIT, NOT_RULES, ExactConfig, Game, IllegalMoveError, InputSet, InvalidPositionError,
                         Move, bits, parse_number, quote)
from engine.position import Position
from games.solved_game import MAX_CELLS, SolvedGame
from games.zobrist import keys

_LETTERS = "abcdefghijklmnopqrs"
_CELL_CHARS = str.maketrans("012", ".xo")
#: ``MnkPosition.end_result`` while the game goes on (else -1: the side to move lost, 0: a draw).
ONGOING = 2
_EVAL_BOUND = EVAL_LIMIT - 1


def read_rows(name: str, rows: list[str], m: int, symbols: str) -> list[tuple[int, int, str]]:
    """The stones of a board text's rows, top row first (a digit run counts empty
    cells, ``.`` is one): ``(row from the bottom, column, symbol)`` for each stone.
    A row that is not ``m`` cells wide or holds a symbol outside ``symbols`` raises
    :class:`InvalidPositionError` (the game ``name`` in its message)."""
    out = []
    for top, row in enumerate(rows):
        r = len(rows) - 1 - top
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
            if c >= m or (ch != "." and ch not in symbols):
                raise InvalidPositionError(f"bad {name} row {row!r}")
            if ch != ".":
                out.append((r, c, ch))
            c += 1
        if c != m:
            raise InvalidPositionError(f"bad {name} row {row!r}: {m} cells expected")
    return out


#: ``engine``: open lines weighted 4**stones; ``textbook``: the chapters' E(P), the plain
#: count of lines still open for X minus those open for O (game ends are ±∞ by their result).
EvalChoice = Literal["engine", "textbook"]
_EVAL_HELP = "engine: open lines weighted by their stones; textbook: open lines for X minus open lines for O"


class MnkParams(BaseModel):
    m: int = Field(15, ge=3, le=19, description="columns")
    n: int = Field(15, ge=3, le=19, description="rows")
    k: int = Field(5, ge=3, le=19, description="stones in a row to win")
    eval: EvalChoice = Field("engine", description=_EVAL_HELP, json_schema_extra=NOT_RULES)

    @model_validator(mode="after")
    def _line_fits(self):
        if self.k > max(self.m, self.n):
            raise ValueError(f"k={self.k} does not fit on a {self.m}x{self.n} board")
        return self


class TicTacToeParams(BaseModel):
    """Tic-tac-toe's only parameter is the evaluation (the mnk game covers other boards)."""

    eval: EvalChoice = Field("engine", description=_EVAL_HELP, json_schema_extra=NOT_RULES)


class MnkGame(Game):
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
        size = self.size = n * w
        self.full = sum(1 << (r * w + c) for r in range(n) for c in range(m))
        self.cells = [r * w + c for r in range(n) for c in range(m)]
        steps = ((1, 0), (0, 1), (1, 1), (-1, 1))
        #: Every length-k line as a bitboard; ``line_cells[l * k:(l + 1) * k]`` its cells.
        self.lines: list[int] = []
        line_cells: list[int] = []
        through: list[list[int]] = [[] for _ in range(size)]
        for dc, dr in steps:
            for r in range(n):
                for c in range(m):
                    ends = (c + dc * (k - 1), r + dr * (k - 1))
                    if not (0 <= ends[0] < m and ends[1] < n):
                        continue
                    cells = [(r + dr * i) * w + c + dc * i for i in range(k)]
                    for i in cells:
                        through[i].append(len(self.lines))
                    self.lines.append(sum(1 << i for i in cells))
                    line_cells += cells
        # Flat tables (typed arrays for the compiled position): the lines through
        # cell c are line_slots[line_start[c]:line_start[c + 1]] // 2 (a line's slot is
        # twice its number: count[slot + p] is p's stones in it); the cells within two
        # steps of c and their move-order weights are around_cells/around_weights
        # from around_start[c] (16 for a neighbour, 4 for the ring beyond).
        self.line_cells = _table("i", line_cells)
        self.line_start = _table("i", _starts(through))
        self.line_slots = _table("i", [2 * i for ids in through for i in ids])
        around: list[list[tuple[int, int]]] = [[] for _ in range(size)]
        centre = [0] * size
        for r in range(n):
            for c in range(m):
                for rr in range(max(0, r - 2), min(n, r + 3)):
                    for cc in range(max(0, c - 2), min(m, c + 3)):
                        if (rr, cc) != (r, c):
                            near = abs(rr - r) <= 1 and abs(cc - c) <= 1
                            around[r * w + c].append((rr * w + cc, 16 if near else 4))
                centre[r * w + c] = (min(m, n) - 1) // 2 - max(abs(2 * c - m + 1), abs(2 * r - n + 1)) // 2
        self.around_start = _table("i", _starts(around))
        self.around_cells = _table("i", [cell for pairs in around for cell, _ in pairs])
        self.around_weights = _table("i", [weight for pairs in around for _, weight in pairs])
        self.centre = _table("i", centre)
        self.cell_array = _table("i", self.cells)
        #: Network inputs, per board: a stone of the view's player on cell ``i`` is input
        #: ``i``, an opponent's ``m * n + i``, the cells in the position text's order (rows
        #: from the top, columns from the left; ``nn_cell[move]``, unused on the guard column);
        #: the name carries the shape.
        self.inputs: InputSet | None = InputSet(f"mnk-{m}x{n}", 2 * m * n, m * n)
        self.nn_cell = _table("i", [(n - 1 - c // w) * m + c % w for c in range(size)])
        #: Weight of a line still open for a player, by that player's stones in it (every
        #: open line weighs 1 in the textbook count, so the same incremental score serves both).
        self.textbook = getattr(self.params, "eval", "engine") == "textbook"
        if self.textbook:
            # The chapters' evaluation was asked for by name: no network answers in its place.
            self.inputs = None
        self.weights = _table("q", [1 if self.textbook else 4 ** i for i in range(k + 1)])
        table = keys(2 * size + 1, f"zermelo/mnk/{m}x{n}")
        #: The key of a stone of player p on cell c is ``stone_keys[p * size + c]``.
        self.stone_keys = _table("Q", table[:2 * size])
        self.turn_key = table[-1]

    def filling_orders(self) -> tuple[int, int]:
        """``(cells, cells!)``: the chapters' bound on the games from the empty board,
        every order of filling its cells (9! = 362,880 for tic-tac-toe)."""
        return len(self.cells), math.factorial(len(self.cells))

    def _shape(self) -> tuple[int, int, int]:
        # MnkGame's own Params is MnkParams; tic-tac-toe overrides this method.
        params = cast(MnkParams, self.params)
        return params.m, params.n, params.k

    def exact(self, config: ExactConfig) -> SolvedGame | None:
        """The whole game solved on first use, when it has at most ``MAX_CELLS`` cells."""
        return SolvedGame(self) if len(self.cells) <= MAX_CELLS else None

    def eval_terms(self, pos: MnkPosition) -> list[tuple[str, int, str]]:
        """The evaluation's terms, side to move's view, summing to ``evaluate()``:
        each player's open lines (lines without an opponent stone), weighted 4**s
        by the s own stones in them (1 each with ``eval=textbook``); the details
        give the textbook's plain count."""
        stones = pos.stones
        sign = 1 if pos.turn == 0 else -1
        terms: list[tuple[str, int, str]] = []
        plain = []
        for p in (0, 1):
            per_stones = [0] * (self.k + 1)
            for line in self.lines:
                if not line & stones[p ^ 1]:
                    per_stones[(line & stones[p]).bit_count()] += 1
            weighted = sum(n * self.weights[s] for s, n in enumerate(per_stones))
            plain.append(sum(per_stones))
            split = ", ".join(f"{n} with {s} stone{'s' if s != 1 else ''}" for s, n in enumerate(per_stones) if n)
            what = "open lines (textbook E(P): each counts 1)" if self.textbook else "open lines, weighted 4^stones"
            terms.append((f"{'xo'[p]}: {what}", sign * weighted if p == 0 else -sign * weighted,
                          f"{plain[p]} open lines ({split or 'none'})"))
        total = sum(value for _, value, _ in terms)
        if pos.evaluate() != total:
            terms.append(("clipped to the evaluation's range", pos.evaluate() - total, ""))
        name, value, detail = terms[1]
        terms[1] = (name, value, f"{detail}; unweighted, x - o = {plain[0]} - {plain[1]} = {plain[0] - plain[1]}")
        return terms

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
        for r, c, ch in read_rows(self.name, rows, m, "xo"):
            stones["xo".index(ch)] |= 1 << (r * w + c)
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


class TicTacToeGame(MnkGame):
    """Tic-tac-toe: the 3,3,3-game."""

    name: ClassVar[str] = "tictactoe"
    aliases: ClassVar[tuple[str, ...]] = ("ttt", "tic-tac-toe")
    Params: ClassVar[type[BaseModel]] = TicTacToeParams
    tables_note: ClassVar[str] = ("the whole game is solved on first use (games/solved_game.py); "
                                  "zermelo tables build tictactoe --out DIR also writes it to a table file")
    bench_texts: tuple[str, ...] = (".../.../... x", "x../.o./... x", "x.o/.x./..o x")

    def _shape(self) -> tuple[int, int, int]:
        return 3, 3, 3


class MnkPosition(Position):
    """An m,n,k position walked by the search, kept incrementally in flat arrays
    (C arrays in the compiled build, see ``mnk.pxd``; lists in the pure build):

    - ``cell[c]``: 0 empty, 1 an X stone, 2 an O stone;
    - ``count[2 * l + p]``: player p's stones in line l;
    - ``threat[p * size + c]``: the lines that empty cell c would complete for p
      (each a line with k-1 stones of p and none of the opponent), and
      ``threat_cells[p]`` the cells where that count is not zero;
    - ``score``: X's weighted open lines minus O's (the evaluation).

    ``push`` places a stone and updates all of them from the lines through its
    cell; ``pop`` takes it back by the exact inverse, so the undo stack keeps only
    the move, the score and the result. The methods marked unchecked index the
    arrays only with cells and lines of the board (and the undo stack below ``cap``),
    and take moves from ``legal_moves`` as the search does."""

    cell: array | list
    count: array | list
    threat: array | list
    threat_cells: array | list
    undo_moves: array | list
    undo_scores: array | list
    undo_results: array | list

    def __init__(self, game: MnkGame, stones: tuple[int, int], turn: int):
        self.game = game
        self.size, self.k = game.size, game.k
        self.cells, self.centre, self.weights = game.cell_array, game.centre, game.weights
        self.line_cells, self.line_start, self.line_slots = game.line_cells, game.line_start, game.line_slots
        self.around_start, self.around_cells = game.around_start, game.around_cells
        self.around_weights = game.around_weights
        self.stone_keys, self.turn_key = game.stone_keys, game.turn_key
        self.nn_cell = game.nn_cell
        self._nn = None
        self.cell = _table("B", [0] * self.size)
        self.count = _table("B", [0] * (2 * len(game.lines)))
        self.threat = _table("B", [0] * (2 * self.size))
        self.threat_cells = _table("i", [0, 0])
        self.stones_placed = 0
        self.score = 0
        x, o = stones
        for c in bits(x):
            self.score += self._place(c, 0)
        for c in bits(o):
            self.score -= self._place(c, 1)
        if game._has_line(stones[turn ^ 1]):
            self.end_result = -1
        elif x | o == game.full:
            self.end_result = 0
        else:
            self.end_result = ONGOING
        self.turn = turn
        self.key = self.compute_key()
        self.sp = self.cap = 0
        self._grow()

    def _grow(self) -> None:
        """Room for more undo entries (rare: as many as the cells to begin with)."""
        cap = max(len(self.game.cells) + 1, 2 * self.cap)
        old = self.cap
        self.undo_moves = _resized(self.undo_moves if old else None, "i", cap)
        self.undo_scores = _resized(self.undo_scores if old else None, "q", cap)
        self.undo_results = _resized(self.undo_results if old else None, "b", cap)
        self.cap = cap

    @property
    def stones(self) -> tuple[int, int]:
        """(X's stones, O's stones) as bitboards."""
        x = o = 0
        for c in range(self.size):
            if self.cell[c] == 1:
                x |= 1 << c
            elif self.cell[c] == 2:
                o |= 1 << c
        return x, o

    @property
    def threats(self) -> tuple[int, int]:
        """Per player, the empty cells that would complete a line, as bitboards."""
        found = [0, 0]
        for p in (0, 1):
            for c in range(self.size):
                if self.threat[p * self.size + c]:
                    found[p] |= 1 << c
        return found[0], found[1]

    # -- incremental bookkeeping ------------------------------------------------

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _gap(self, line: int) -> int:
        """The one empty cell of ``line`` (called when it holds k-1 stones)."""
        k = self.k
        for j in range(line * k, line * k + k):
            if not self.cell[self.line_cells[j]]:
                return self.line_cells[j]
        return -1

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _place(self, c: int, p: int) -> int:
        """Put a stone of ``p`` on the empty cell ``c``; returns how much ``p``'s
        side of the score gains. Sets ``made_line`` if the stone completes a line.
        A threat cell's count going 0 -> 1 or 1 -> 0 adds or removes it from
        ``threat_cells`` (written out at each place: push runs at every node)."""
        k1 = self.k - 1
        count, weights, line_slots = self.count, self.weights, self.line_slots
        self.cell[c] = p + 1
        delta = 0
        made = False
        for j in range(self.line_start[c], self.line_start[c + 1]):
            # count[i] is p's stones in the line, count[i ^ 1] the opponent's.
            i = line_slots[j] + p
            a, b = count[i], count[i ^ 1]
            count[i] = a + 1
            if b == 0:
                delta += weights[a + 1] - weights[a]
                if a == k1:
                    # c was this line's gap: the line is made, no longer a threat.
                    made = True
                    t = p * self.size + c
                    self.threat[t] -= 1
                    if not self.threat[t]:
                        self.threat_cells[p] -= 1
                elif a + 1 == k1:
                    t = p * self.size + self._gap(i >> 1)
                    if not self.threat[t]:
                        self.threat_cells[p] += 1
                    self.threat[t] += 1
            if a == 0:
                # The line was open for the opponent; now it is closed.
                delta += weights[b]
                if b == k1:
                    t = (p ^ 1) * self.size + c
                    self.threat[t] -= 1
                    if not self.threat[t]:
                        self.threat_cells[p ^ 1] -= 1
        self.made_line = made
        self.stones_placed += 1
        return delta

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _unplace(self, c: int, p: int) -> None:
        """Take back the stone of ``p`` on ``c``: ``_place`` undone step by step."""
        k1 = self.k - 1
        count, line_slots = self.count, self.line_slots
        for j in range(self.line_start[c], self.line_start[c + 1]):
            i = line_slots[j] + p
            a, b = count[i] - 1, count[i ^ 1]
            if b == 0:
                if a == k1:
                    t = p * self.size + c
                    if not self.threat[t]:
                        self.threat_cells[p] += 1
                    self.threat[t] += 1
                elif a + 1 == k1:
                    # The gap is found while c still holds the stone.
                    t = p * self.size + self._gap(i >> 1)
                    self.threat[t] -= 1
                    if not self.threat[t]:
                        self.threat_cells[p] -= 1
            if a == 0 and b == k1:
                t = (p ^ 1) * self.size + c
                if not self.threat[t]:
                    self.threat_cells[p ^ 1] += 1
                self.threat[t] += 1
            count[i] = a
        self.cell[c] = 0
        self.stones_placed -= 1

    # -- moves ---------------------------------------------------------------

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def legal_moves(self) -> list[Move]:
        moves: list[Move] = []
        if self.end_result != ONGOING:
            return moves
        for i in range(len(self.cells)):
            c = self.cells[i]
            if not self.cell[c]:
                moves.append(c)
        return moves

    def _forcing(self) -> int:
        """Whose threats make the noisy moves: the side to move's (it wins at once),
        else the opponent's (they must be blocked); -1 for none, or a finished game."""
        if self.end_result != ONGOING:
            return -1
        if self.threat_cells[self.turn]:
            return self.turn
        if self.threat_cells[self.turn ^ 1]:
            return self.turn ^ 1
        return -1

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def noisy_moves(self) -> list[Move]:
        """Immediate wins; failing those, the blocks of the opponent's immediate
        wins (any other move loses at once)."""
        moves: list[Move] = []
        p = self._forcing()
        if p < 0:
            return moves
        base, left = p * self.size, self.threat_cells[p]
        c = 0
        while left:
            if self.threat[base + c]:
                moves.append(c)
                left -= 1
            c += 1
        return moves

    def is_noisy(self, move: Move) -> bool:
        p = self._forcing()
        return p >= 0 and self.threat[p * self.size + move] != 0

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def move_score(self, move: Move) -> int:
        """Wins, then blocks, then cells next to stones, then central cells."""
        size = self.size
        if not 0 <= move < size:
            raise IndexError(f"no cell {move}")
        if self.threat[self.turn * size + move]:
            return 1 << 20
        if self.threat[(self.turn ^ 1) * size + move]:
            return 1 << 19
        score = self.centre[move]
        cell, around_cells = self.cell, self.around_cells
        for j in range(self.around_start[move], self.around_start[move + 1]):
            if cell[around_cells[j]]:
                score += self.around_weights[j]
        return score

    def in_check(self) -> bool:
        """True when the opponent threatens to complete a line and the side to move
        cannot win first: like check, only a block saves the game (``_forcing()``
        is the opponent; written out, as the search asks at every node)."""
        return (self.end_result == ONGOING and not self.threat_cells[self.turn]
                and self.threat_cells[self.turn ^ 1] != 0)

    def can_stand_pat(self) -> bool:
        return not self.in_check()

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _save(self, move: int) -> None:
        if self.sp == self.cap:
            self._grow()
        sp = self.sp
        self.undo_moves[sp] = move
        self.undo_scores[sp] = self.score
        self.undo_results[sp] = self.end_result
        self.sp = sp + 1

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def push(self, move: Move) -> None:
        # _save inlined: push runs at every node.
        sp = self.sp
        if sp == self.cap:
            self._grow()
        self.undo_moves[sp] = move
        self.undo_scores[sp] = self.score
        self.undo_results[sp] = self.end_result
        self.sp = sp + 1
        p = self.turn
        delta = self._place(move, p)
        self.score += delta if p == 0 else -delta
        self.key ^= self.stone_keys[p * self.size + move] ^ self.turn_key
        nn = self._nn
        if nn is not None:
            nn.push()
            nn.add_one(p, self.nn_cell[move])
            nn.add_one(p ^ 1, len(self.cells) + self.nn_cell[move])
        self.turn = p ^ 1
        if self.made_line:
            self.end_result = -1
        elif self.stones_placed == len(self.cells):
            self.end_result = 0

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def pop(self) -> None:
        sp = self.sp - 1
        self.sp = sp
        p = self.turn ^ 1
        move = self.undo_moves[sp]
        if move >= 0:
            self._unplace(move, p)
            self.key ^= self.stone_keys[p * self.size + move]
        self.key ^= self.turn_key
        self.turn = p
        self.score = self.undo_scores[sp]
        self.end_result = self.undo_results[sp]
        if self._nn is not None:
            self._nn_pop()

    def null_move_allowed(self) -> bool:
        return False

    def push_null(self) -> None:
        self._save(-1)
        self.turn ^= 1
        self.key ^= self.turn_key
        if self._nn is not None:
            self._nn.push()

    # -- results -------------------------------------------------------------

    def outcome(self) -> int | None:
        return None if self.end_result == ONGOING else self.end_result

    def no_moves_value(self) -> int:
        return 0 if self.end_result == ONGOING else self.end_result

    def is_repetition(self) -> bool:
        return False

    def evaluate(self) -> int:
        """Open lines: every length-k line without an opponent stone counts for a
        player, weighted 4**s by the s own stones it holds (1 for an empty line),
        X's total minus O's, from the side to move's view; with ``eval=textbook``
        every open line counts 1 (the chapters' E(P)). Long lines (k of 10 or
        more) can outweigh the evaluation's range: the score is clipped to it.
        The network's score instead when one is attached."""
        if self._nn is not None:
            return self._nn.evaluate(self.turn)
        score = self.score if self.turn == 0 else -self.score
        if score > _EVAL_BOUND:
            return _EVAL_BOUND
        if score < -_EVAL_BOUND:
            return -_EVAL_BOUND
        return score

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def compute_key(self) -> int:
        k = self.turn_key if self.turn else 0
        for c in range(self.size):
            if self.cell[c]:
                k ^= self.stone_keys[(self.cell[c] - 1) * self.size + c]
        return k

    # -- text ----------------------------------------------------------------

    def _copy(self) -> MnkPosition:
        other = MnkPosition(self.game, self.stones, self.turn)
        return other

    # -- the network -----------------------------------------------------------

    def _nn_view(self, view: int) -> list[int]:
        """The inputs player ``view`` sees: its stones' cells, then ``m * n +`` the opponent's."""
        other = len(self.cells)
        return [self.nn_cell[c] + (0 if self.cell[c] == view + 1 else other)
                for c in range(self.size) if self.cell[c]]

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
        if self.end_result != ONGOING:
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
        if self.end_result == ONGOING:
            lines.append(f"{'xo'[self.turn]} to move ({g.k} in a row wins)")
        elif self.end_result:
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


def _starts(groups: list) -> list[int]:
    """Offsets of each group in the groups laid end to end, and the total last."""
    starts = [0]
    for group in groups:
        starts.append(starts[-1] + len(group))
    return starts


def _table(typecode: str, values) -> array | list:
    """A flat table of ints: a typed array in the compiled build (the position
    views it as a C array), a list in the pure build (CPython indexes a list
    several times faster than an array)."""
    return array(typecode, values) if cython.compiled else list(values)


def _resized(values, typecode: str, length: int) -> array | list:
    """A zero-filled table of ``length`` items starting with ``values`` (if any)."""
    grown = list(values) if values is not None else []
    return _table(typecode, grown + [0] * (length - len(grown)))
