"""Go on any board from 1×1 to 19×19, rectangular too, with area scoring.

The rules are Tromp and Taylor's, the ones the small-board literature solves
under: Black moves first; a play puts a stone on an empty point, then removes
the opponent's groups left without a liberty, then (suicide being forbidden) the
player's own group must have one. A play may not repeat an earlier board
(positional superko, parameter ``ko=superko``, the default) or, with
``ko=simple``, only the immediate retaking of a ko: one stone that a lone stone
has just captured, leaving it in atari on that point. ``pass`` is always legal;
two passes in a row end the game. Each side then scores its area: its stones and
the empty points of every region that borders its stones only. Black wins when
its area exceeds White's plus ``komi``, equal areas with a whole-number komi are a
draw.

``komi`` defaults to 7.5 on boards of at least 9×9 and to 0 on smaller ones (the
values of the small-board results are Black's margins without komi).

Points are written as in GTP: a column letter ``A``… (``I`` skipped) from the
left and a row number from the bottom, ``A1`` being the bottom-left corner. A
move is the point's index ``row * width + column`` (0-based, from ``A1``) or
``width * height`` for ``pass`` (OpenSpiel's action numbers).

Position text: the rows from the top, separated by ``/`` (``x`` Black, ``o``
White, ``.`` empty), the side to move (``x`` or ``o``), the ko point the side to
move may not play (``-`` for none) and the count of passes just played (0, 1, or
2 once the game is over). The empty 5×5 board::

    ...../...../...../...../..... x - 0

On input, a digit run inside a row stands for that many empty points, ``-`` and
``+`` are empty points too, the side may be ``b``/``w``/``black``/``white``, and
the last two fields may be left out. Every group must have a liberty. A position
set up from text starts its own history: superko sees the boards played from it.
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from pydantic import BaseModel, Field, field_validator

from engine.game import Game, InvalidPositionError, Move, parse_number
from engine.position import Position
from games.go import score
from games.go.board import BLACK, COLUMNS, EDGE, EMPTY, WHITE, GoPosition
from games.go.playout import Playout
from games.zobrist import keys

__all__ = ["GoGame", "GoParams", "GoPosition", "legal_position"]

_SIDES = {"x": 0, "b": 0, "black": 0, "o": 1, "w": 1, "white": 1}
_CELLS = {"x": BLACK, "b": BLACK, "o": WHITE, "w": WHITE, ".": EMPTY, "-": EMPTY, "+": EMPTY}
_POINT_RE = re.compile(r"([a-hj-z])([0-9]{1,2})")
#: Both sides at least this long: the board takes the standard komi by default.
_FULL_KOMI_SIDE = 9
_FULL_KOMI = 7.5


class GoParams(BaseModel):
    size: int = Field(9, ge=1, le=19, description="points on each side of a square board")
    width: int = Field(0, ge=0, le=19, description="columns of a rectangular board (0: size)")
    height: int = Field(0, ge=0, le=19, description="rows of a rectangular board (0: size)")
    komi: float | None = Field(None, description="points added to White's area, a multiple of 0.5 "
                                                 "(empty: 7.5 on boards of 9×9 and larger, 0 on smaller ones)")
    ko: Literal["superko", "simple"] = Field("superko", description="positional superko, or only the "
                                                                    "immediate retaking of a ko forbidden")

    @field_validator("komi", mode="before")
    @classmethod
    def _empty_komi(cls, value):
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("komi")
    @classmethod
    def _half_points(cls, value):
        if value is not None and not (abs(value) <= 1000 and (2 * value).is_integer()):
            raise ValueError("komi must be a multiple of 0.5 between -1000 and 1000")
        return value


class GoGame(Game):
    """Go on a ``width`` × ``height`` board: geometry, Zobrist keys and the rules' parameters."""

    name: ClassVar[str] = "go"
    aliases: ClassVar[tuple[str, ...]] = ("weiqi", "baduk", "igo")
    players: ClassVar[tuple[str, str]] = ("black", "white")
    Params: ClassVar[type[BaseModel]] = GoParams
    null_move_ok: ClassVar[bool] = False
    bench_depth: ClassVar[int] = 3
    tables_note: ClassVar[str] = "no table files; zermelo solve go finds small boards' margins by search"
    key_holds_history: ClassVar[bool] = True  # under superko, the default
    margin_unit: ClassVar[str] = "points"
    solve_note: ClassVar[str] = ("search: alpha-beta over the final area margin (MTD(f)), each null-window "
                                 "search deepened until proven, the simple ko rule with no board repeated "
                                 "along a line, symmetry and colour lookups, Benson cut-offs (games/go/solve.py)")

    def __init__(self, params: GoParams | None = None):
        self.params = p = params or GoParams()
        w = self.width = p.width or p.size
        h = self.height = p.height or p.size
        if p.komi is None:
            komi = _FULL_KOMI if min(w, h) >= _FULL_KOMI_SIDE else 0.0
        else:
            komi = p.komi
        self.komi = komi
        self.komi2 = int(2 * komi)
        self.superko = p.ko == "superko"
        self.stride = s = w + 1
        self.cells_total = (h + 2) * s + 1
        #: Board index of each move's point, ``points[row * width + col]``.
        self.points = [(r + 1) * s + c + 1 for r in range(h) for c in range(w)]
        self.pass_move = w * h
        self.first_point = "A1"
        self.last_point = COLUMNS[w - 1] + str(h)
        #: Ordering value of each point by its line from the edge: third and fourth first.
        self.line_value = [(0, 6, 10, 12)[min(r, c, h - 1 - r, w - 1 - c, 3)]
                           for r in range(h) for c in range(w)]
        n = self.cells_total
        table = keys(3 * n + 3, f"zermelo/go/{w}x{h}")
        # A stone of colour c (1 Black, 2 White) on index i: ``stone_keys[c * n + i]``;
        # the entries of colour 0 and of border cells are never used.
        self.stone_keys = table[:3 * n]
        # The ko point's key; index 0 (a border cell) means no ko and changes nothing.
        self.ko_keys = [0] + table[1:n]
        self.pass_keys = [0, table[3 * n], table[3 * n + 1]]
        self.turn_key = table[3 * n + 2]
        self.bench_texts: tuple[str, ...] = ()
        self._playout: Playout | None = None
        if (w, h) == (9, 9):
            # The empty board and a middle game with stones in atari on both sides.
            self.bench_texts = (
                "........./........./........./........./........./........./........./........./......... x - 0",
                "........./........./..xo...../.xo.o..../..xo.x.../...x.o.../..oxx..../........./......... x - 0",
            )

    def auto_strategy(self) -> str:
        """Monte-Carlo tree search from 9×9 (where it beat alpha-beta: docs/measured/go.md),
        alpha-beta on the smaller boards that it solves."""
        return "mcts" if min(self.width, self.height) >= _FULL_KOMI_SIDE else "alphabeta"

    def tree_moves(self, pos: GoPosition) -> list[Move]:
        """The legal moves but those filling one of the mover's own eyes, as the playouts
        leave them (:meth:`GoPosition.playout_moves`), ``pass`` kept: such a fill gains
        nothing and may kill the group, and a tree too shallow to see that filled its
        eyes one after the other once the opponent had passed."""
        moves = pos.playout_moves()
        if moves and moves[-1] != self.pass_move:  # plays are left: the pass is one more
            moves.append(self.pass_move)
        return moves

    def closing_move(self, pos: GoPosition) -> Move | None:
        """A pass answering a pass, when it wins by both counts: the board as it stands,
        as the rules count it (Tromp-Taylor: a dead group of the opponent's standing in
        the mover's area still counts for the opponent), and once the dead stones are
        taken off, as GTP's ``final_score`` and the match referee count
        (:func:`games.go.score.margin2`). Where only the second wins, the mover plays on
        and takes the dead stones off."""
        if pos.passes != 1:
            return None
        sign = -1 if pos.turn else 1
        if sign * pos.score2() <= 0 or sign * score.margin2(self, pos) <= 0:
            return None
        return self.pass_move

    def playout_board(self) -> Playout:
        """The board the Monte-Carlo search's playouts run on, made at first use."""
        if self._playout is None:
            self._playout = Playout(self.width, self.height)
        return self._playout

    def solve_margin(self, pos: GoPosition, deadline: float | None = None, max_nodes: int | None = None,
                     report=None, threads: int = 1):
        """Black's area margin from ``pos`` with best play (a :class:`games.go.solve.Solution`),
        on one process whatever ``threads``; raises :class:`engine.control.Stopped` past
        ``deadline`` or ``max_nodes``."""
        from games.go.solve import GoSolver

        return GoSolver(self).solve(pos, deadline, max_nodes, report)

    def eval_terms(self, pos: GoPosition) -> list[tuple[str, int, str]]:
        """The evaluation's terms for the side to move (they add up to ``evaluate()``)."""
        safe_b, safe_w, rest_b, rest_w = pos.estimate()
        sign = -1 if pos.turn else 1
        return [("safe points (Benson)", sign * 100 * (safe_b - safe_w), f"black {safe_b}, white {safe_w}"),
                ("other points, estimated", sign * 100 * (rest_b - rest_w),
                 f"black {rest_b}, white {rest_w}: stones not safe, empty points nearer one colour"),
                ("komi", -sign * 50 * self.komi2, f"{self.komi:g} to white")]

    def marked_board(self, pos: GoPosition) -> str:
        """The board with Benson's unconditionally alive stones (``X``/``O``) and
        unconditional territory (``b``/``w``) marked; ``x``/``o`` stones not known alive."""
        from games.go.benson import unconditional

        alive, owner = unconditional(pos.board, pos.points, pos.stride)
        lines = ["unconditional life and territory (X/O alive, b/w territory, x/o not known alive):"]
        for r in range(self.height, 0, -1):
            row = []
            for c in range(1, self.width + 1):
                p = r * pos.stride + c
                b = pos.board[p]
                if b:
                    row.append("xo"[b - 1].upper() if alive[p] else "xo"[b - 1])
                else:
                    row.append({BLACK: "b", WHITE: "w"}.get(owner[p], "."))
            lines.append(f"{r:2} {' '.join(row)}")
        lines.append("   " + " ".join(COLUMNS[:self.width]))
        return "\n".join(lines)

    def gtp(self):
        from games.go.gtp import GoGtp

        return GoGtp(self)

    def score_text(self, pos: Position) -> str:
        """The area result as GTP and SGF write it, the board counted as it stands
        (:meth:`final_score`): ``B+7.5``, ``W+0.5`` or ``0`` (a draw)."""
        assert isinstance(pos, GoPosition)
        return self.final_score(pos, take_off_dead=False)

    def gtp_board(self) -> tuple[int, float] | None:
        """The board size and komi GTP is told: square boards only (``boardsize`` is one number)."""
        return (self.width, self.komi) if self.width == self.height else None

    def dead_stones(self, pos: GoPosition) -> set[tuple[int, int]]:
        """The stones counted dead at the end (:func:`games.go.score.dead_stones`)."""
        return score.dead_stones(self, pos)

    def final_score(self, pos: GoPosition, take_off_dead: bool = True) -> str:
        """The result as GTP and SGF write it, ``B+7.5`` (:func:`games.go.score.final_score`)."""
        return score.final_score(self, pos, take_off_dead)

    def scored_result(self, pos: GoPosition) -> int:
        """Black's result counted as :meth:`final_score` counts it, the dead stones taken
        off: the match referee's, so that it is the engines' ``final_score`` result."""
        margin = score.margin2(self, pos)
        return (margin > 0) - (margin < 0)

    def describe_margin(self, margin: int) -> str:
        """The result of a final margin for Black once komi is taken off."""
        net = 2 * margin - self.komi2
        if net == 0:
            return f"draw (komi {self.komi:g})"
        return f"{'black' if net > 0 else 'white'} wins by {abs(net) / 2:g} (komi {self.komi:g})"

    def parse_point(self, text: str) -> Move | None:
        """The move of a GTP point or ``pass`` (case-insensitive), ``None`` if it is
        neither or lies off the board."""
        s = text.strip().lower()
        if not s.isascii():
            return None  # Unicode case folding would read the long s as S, the Kelvin sign as K
        if s == "pass":
            return self.pass_move
        m = _POINT_RE.fullmatch(s)
        if not m:
            return None
        col = COLUMNS.index(m.group(1).upper())
        row = parse_number(m.group(2))
        if row is None or not 1 <= row <= self.height or col >= self.width:
            return None
        return (row - 1) * self.width + col

    def new_position(self, text: str | None = None) -> GoPosition:
        board = [EDGE] * self.cells_total
        for p in self.points:
            board[p] = EMPTY
        if text is None:
            return GoPosition(self, board, 0, 0, 0)
        return self._from_text(text, board)

    def _from_text(self, text: str, board: list[int]) -> GoPosition:
        shown = repr(text[:60])
        words = text.split()
        if not 1 <= len(words) <= 4:
            raise InvalidPositionError(f"bad go position {shown}: expected rows 'x.o/...', the side, "
                                       "the ko point and the passes")
        rows = words[0].lower().split("/")
        if len(rows) != self.height:
            raise InvalidPositionError(f"bad go position {shown}: {self.height} rows expected, not {len(rows)}")
        for i, row in enumerate(rows):
            cells = re.sub(r"[0-9]+", lambda m: "." * min(int(m.group()), 99), row)
            if len(cells) != self.width or any(ch not in _CELLS for ch in cells):
                raise InvalidPositionError(f"bad go position {shown}: row {i + 1} is not "
                                           f"{self.width} points of x, o, .")
            r = self.height - 1 - i
            for c, ch in enumerate(cells):
                board[self.points[r * self.width + c]] = _CELLS[ch]
        turn = 0
        if len(words) > 1:
            if words[1].lower() not in _SIDES:
                raise InvalidPositionError(f"bad go position {shown}: side {words[1][:20]!r} is not x or o")
            turn = _SIDES[words[1].lower()]
        passes = 0
        if len(words) > 3:
            if words[3] not in ("0", "1", "2"):
                raise InvalidPositionError(f"bad go position {shown}: passes {words[3][:20]!r} is not 0, 1 or 2")
            passes = int(words[3])
        ko = 0
        if len(words) > 2 and words[2] != "-":
            move = self.parse_point(words[2])
            if move is None or move == self.pass_move:
                raise InvalidPositionError(f"bad go position {shown}: ko point {words[2][:20]!r} is not on the board")
            ko = self.points[move]
            if passes or not self._ko_shape(board, ko, turn):
                raise InvalidPositionError(f"bad go position {shown}: no ko can be at {words[2]}")
        pos = GoPosition(self, board, turn, ko, passes)
        if not pos.all_groups_live():
            raise InvalidPositionError(f"bad go position {shown}: a group has no liberty")
        return pos

    def _ko_shape(self, board: list[int], ko: int, turn: int) -> bool:
        """Whether ``ko`` can be the ko point with ``turn`` to move: an empty point
        whose neighbours are all the opponent's, one of them a lone stone whose only
        liberty is ``ko`` (the stone that has just taken there)."""
        if board[ko] != EMPTY:
            return False
        opp = 2 - turn
        s = self.stride
        takers = 0
        for d in (1, -1, s, -s):
            q = ko + d
            if board[q] == EDGE:
                continue
            if board[q] != opp:
                return False
            if all(q + e == ko or board[q + e] in (EDGE, turn + 1) for e in (1, -1, s, -s)):
                takers += 1
        return takers == 1


def legal_position(game: GoGame, colours: list[int]) -> bool:
    """Whether the board with ``colours`` (``EMPTY``/``BLACK``/``WHITE`` per move
    point, ``A1`` first) is a legal position: every group has a liberty, by the
    position's own group code."""
    pos = game.new_position()
    for p, colour in zip(game.points, colours):
        pos.board[p] = colour
    return pos.all_groups_live()
