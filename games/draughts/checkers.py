"""English checkers (American draughts).

Black moves first (player 0) from squares 1-12, White from 21-32; squares are
the PDN numbers 1-32 of the standard diagram (square 1 at Black's side,
top left). Men move and capture diagonally forward only, kings one square in
any direction. Capturing is compulsory, with free choice among the capture
sequences (no majority rule), and a sequence must be jumped to the end. A man
that reaches the king row is crowned and its move ends there, even mid-capture.
Captured pieces are removed when the move is complete; none can be jumped twice.

A side with no legal move (no pieces, or all blocked) loses. Draws: the third
occurrence of a position, and 40 moves each (``draw_moves``) without a capture
or a man move.

Notation: ``11-15``, captures with the full path ``22x15x8`` (``22x8`` is
accepted when only one capture goes from 22 to 8). Position text: PDN FEN,
``B:W21,22,...,32:B1,2,...,12`` (side to move, then each colour's squares,
``K`` before a king; ranges like ``W21-32`` are accepted on input).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, Field

import cython  # type: ignore[import-untyped]

from engine.game import NOT_RULES, Move, bits, parse_number
from games.draughts import board
from games.draughts.board import AT, CAP_SHIFT, FILE, INDEX, PROMO, ROW, SQUARE, VALID
from games.draughts.position import _QUIET, DraughtsGame, DraughtsPosition

if not cython.compiled:  # the compiled build cimports these C functions (see the .pxd)
    from games.draughts.position import lowest

# The board's jump tables (C arrays in the compiled build, see checkers.pxd).
JUMP_OVER = board.JUMP_OVER
JUMP_TO = board.JUMP_TO


class CheckersParams(BaseModel):
    draw_moves: int = Field(40, ge=1, le=1000, description="moves each without a capture or man move that draw")
    eval: Literal["engine", "textbook"] = Field(
        "engine", description="engine: the full evaluation; textbook: men difference + 3 × kings difference",
        json_schema_extra=NOT_RULES)


class CheckersPosition(DraughtsPosition):

    def _jumpers(self) -> int:
        me = self.turn
        if me:
            own, opp = self.o1, self.o0
        else:
            own, opp = self.o0, self.o1
        empty = VALID & ~(own | opp)
        kg = own & self.kings
        if me == self.tab.down:
            down, up = own, kg
        else:
            down, up = kg, own
        return (down & (opp >> 4) & (empty >> 8) | down & (opp >> 5) & (empty >> 10)
                | up & (opp << 4) & (empty << 8) | up & (opp << 5) & (empty << 10))

    def _captures_from(self, out: list, frm: int, opp: int, empty: int) -> int:
        if self.kings >> frm & 1:
            return self._jumps(out, frm, frm, 0, 0, opp, empty, 0, 4, 0)
        # Men jump forward only: directions 2 and 3 (down) or 0 and 1 (up).
        first = 2 if self.turn == self.tab.down else 0
        return self._jumps(out, frm, frm, 0, 0, opp, empty, first, first + 2, self.tab.promo_mask[self.turn])

    def _jumps(self, out: list, frm: int, sq: int, cap: int, depth: int, opp: int, empty: int,
               first: int, last: int, promo: int) -> int:
        """The sequences continuing from ``sq`` (``depth`` jumps made, ``cap`` taken)
        in directions ``first``..``last - 1``; a man stops on ``promo`` (crowned)."""
        found = False
        for d in range(first, last):
            mid = JUMP_OVER[sq][d]
            if opp & ~cap & mid:
                to = JUMP_TO[sq][d]
                if empty >> to & 1:
                    found = True
                    self._path[depth + 1] = to
                    if promo >> to & 1:
                        self._emit(out, frm | to << 6 | PROMO | (cap | mid) << CAP_SHIFT, depth + 1)
                    else:
                        self._jumps(out, frm, to, cap | mid, depth + 1, opp, empty, first, last, promo)
        if not found and cap:
            self._emit(out, frm | sq << 6 | cap << CAP_SHIFT, depth)
        return 0

    def _king_quiet_moves(self, out: list, kg: int, empty: int) -> int:
        for d in range(4, 6):
            dest = (kg << d) & empty
            while dest:
                to = lowest(dest)
                dest &= dest - 1
                out.append(_QUIET[(to - d) | to << 6])
        for d in range(4, 6):
            dest = (kg >> d) & empty
            while dest:
                to = lowest(dest)
                dest &= dest - 1
                out.append(_QUIET[(to + d) | to << 6])
        return 0

    def render(self) -> str:
        rows = []
        for r, cells in enumerate(self._board_rows()):
            numbers = [f"{SQUARE[AT[r, f]]:2d}" if (r, f) in AT else "  " for f in range(8)]
            rows.append(("".join(cells) + "    " + "".join(numbers)).rstrip())
        side = self.game.players[self.turn]
        rows.append(f"{side} to move; b/w men, B/W kings; squares 1-32 at the right")
        return "\n".join(rows)


def _square_name(i: int) -> str:
    return str(SQUARE[i])


def _parse_square(text: str) -> int:
    n = parse_number(text)
    if n is None or not 1 <= n <= 32:
        raise ValueError(f"expected squares 1-32, got {text[:20]!r}")
    return INDEX[n]


def _sorted_squares(mask: int) -> list[int]:
    return sorted(bits(mask), key=SQUARE.__getitem__)


class CheckersGame(DraughtsGame):
    name: ClassVar[str] = "checkers"
    aliases: ClassVar[tuple[str, ...]] = ("english", "draughts-english")
    players: ClassVar[tuple[str, str]] = ("black", "white")
    Params: ClassVar[type[BaseModel]] = CheckersParams
    null_move_ok: ClassVar[bool] = False
    pdn_gametype: ClassVar[str] = "21"
    size_in_chapters: ClassVar[tuple[int, str] | None] = (40, "nodes of the complete game tree")
    bench_texts: tuple[str, ...] = (
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "B:W14,19,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,11,12,13,15",
        "W:W22,23,24,28,29,30,31,32:B1,3,5,10,11,12,13,14",
        "B:W16,20,25,32:B1,3,5,13",
        "B:W8,12,14,32:B1,3,13,K26",
    )

    letters = ("B", "W")
    down_player = 0
    seed = "zermelo/checkers"
    hub_variant = "english"
    capture_sep = "x"
    start_fen = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    position_class = CheckersPosition
    square_name = staticmethod(_square_name)
    parse_square = staticmethod(_parse_square)
    sorted_squares = staticmethod(_sorted_squares)

    # Evaluation weights (centipieces: a man is 100).
    man_value = 100
    king_value = 140
    mobility = 2
    back_rank = 12
    runaway = 70
    hunt = 3

    @staticmethod
    def man_pst(adv: int, file: int) -> int:
        # Men gain as they advance; centre files are stronger than the edges.
        centre = min(file, 7 - file)
        return (0, 2, 4, 7, 10, 14, 18, 0)[adv] + (4 if centre >= 2 and 2 <= adv <= 5 else 0)

    @staticmethod
    def king_pst(i: int) -> int:
        # Kings belong in the centre, away from the edges and the single corners.
        return 4 * min(FILE[i], 7 - FILE[i], ROW[i], 7 - ROW[i])

    def guard_squares(self, p: int) -> list[int]:
        # The "bridge": squares 1 and 3 for Black, 30 and 32 for White.
        return [INDEX[s] for s in ((1, 3) if p == self.down_player else (30, 32))]
