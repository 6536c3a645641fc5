"""Russian draughts (shashki).

White moves first (player 0) from the first three ranks, Black from the last
three; squares are algebraic, ``a1`` a dark square at White's bottom left. Men
move diagonally forward one square and capture forward and backward. Kings fly:
they move any distance along a free diagonal and capture a piece at any distance,
landing on any free square beyond it; when some of those squares allow the capture
to continue, the king must land on one of them. Capturing is compulsory, with free
choice among the sequences (no majority rule). A man that reaches the last rank
is crowned, and mid-capture it continues capturing at once as a king. Turkish
strike: captured pieces are removed only when the move is complete, so they
cannot be jumped twice and they block the way meanwhile.

A side with no legal move loses. Draws: the third occurrence of a position, and
15 moves each (``draw_moves``) without a capture or a man move. The latter also
covers the rule of three kings against a lone king, whose 15 moves start with
the capture or crowning that created that ending.

Notation: ``c3-d4``, captures with the full path ``c3:e5:g3`` (``c3:g3`` is
accepted when only one capture goes from c3 to g3; ``x`` works as ``:``).
Position text: the draughts FEN with algebraic squares as on lidraughts,
``W:Wa1,c1,e1,...:Bb8,d8,...``, men then ``K``-prefixed kings, each sorted by
rank then file.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, Field

import cython  # type: ignore[import-untyped]

from engine.game import NOT_RULES, bits
from games.draughts import board
from games.draughts.board import ALGEBRAIC_INDEX, FILE, PROMO, ROW, algebraic
from games.draughts.position import _QUIET, DraughtsGame, DraughtsPosition

if not cython.compiled:  # the compiled build cimports these C functions (see the .pxd)
    from games.draughts.position import lowest, popcount

# The board's bits (a C array in the compiled build, see shashki.pxd); the jump
# and ray tables are the game's board's (``DraughtsTables``).
BIT = board.BIT
#: The main road a1-h8, the long diagonal that decides many king endings.
MAIN_ROAD = sum(1 << ALGEBRAIC_INDEX[f + str(r)] for f, r in zip("abcdefgh", range(1, 9)))


class ShashkiParams(BaseModel):
    draw_moves: int = Field(15, ge=1, le=1000, description="moves each without a capture or man move that draw")
    eval: Literal["engine", "textbook"] = Field(
        "engine", description="engine: the full evaluation; textbook: men difference + 3 × kings difference",
        json_schema_extra=NOT_RULES)


class ShashkiPosition(DraughtsPosition):
    """The flying-king games: Russian draughts here, and with the majority rule
    and crowning at the end of the move, Brazilian and international draughts
    (``games.draughts.international``)."""

    def _jumpers(self) -> int:
        if self.turn:
            own, opp = self.o1, self.o0
        else:
            own, opp = self.o0, self.o1
        empty = self.tab.valid & ~(own | opp)
        kg = own & self.kings
        men = own ^ kg
        a = self.tab.per_row
        b = a + 1
        found = (men & (opp >> a) & (empty >> 2 * a) | men & (opp >> b) & (empty >> 2 * b)
                 | men & (opp << a) & (empty << 2 * a) | men & (opp << b) & (empty << 2 * b))
        while kg:
            i = lowest(kg)
            kg &= kg - 1
            if self._king_can_capture(i, opp, empty):
                found |= BIT[i]
        return found

    def _king_can_capture(self, sq: int, opp: int, empty: int) -> bool:
        """True if a king on ``sq`` can capture one of ``opp`` (the pieces not yet
        taken): the first piece along a ray, with a free square right behind it."""
        t = self.tab
        for d in range(4):
            k = 0
            j = t.rays[sq][d][0]
            while j >= 0 and empty >> j & 1:
                k += 1
                j = t.rays[sq][d][k]
            if j >= 0 and opp >> j & 1:
                behind = t.rays[sq][d][k + 1]
                if behind >= 0 and empty >> behind & 1:
                    return True
        return False

    def _captures_from(self, out: list, frm: int, opp: int, empty: int) -> int:
        if self.kings >> frm & 1:
            return self._king_jumps(out, frm, frm, 0, 0, opp, empty, 0)
        return self._man_jumps(out, frm, frm, 0, 0, opp, empty, self.tab.promo_mask[self.turn])

    def _man_jumps(self, out: list, frm: int, sq: int, cap: int, depth: int, opp: int, empty: int,
                   promo: int) -> int:
        """The sequences of a man continuing from ``sq`` (``depth`` jumps made,
        ``cap`` taken); crowned on ``promo``, it goes on as a king in Russian
        draughts, and goes on as a man, crowned only if its move ends there, in
        the games without ``crown_midway``."""
        t = self.tab
        found = False
        for d in range(4):
            mid = t.jump_over[sq][d]
            if opp & ~cap & mid:
                to = t.jump_to[sq][d]
                if empty >> to & 1:
                    found = True
                    self._path[depth + 1] = to
                    if promo >> to & 1 and t.crown_midway:
                        self._king_jumps(out, frm, to, cap | mid, depth + 1, opp, empty, PROMO)
                    else:
                        self._man_jumps(out, frm, to, cap | mid, depth + 1, opp, empty, promo)
        if not found and cap:
            self._emit(out, frm | sq << 6 | (PROMO if promo >> sq & 1 else 0) | cap << t.cap_shift, depth)
        return 0

    def _king_jumps(self, out: list, frm: int, sq: int, cap: int, depth: int, opp: int, empty: int,
                    crowned: int) -> int:
        """The sequences of a flying king continuing from ``sq``. Beyond each piece
        it can take, it lands on any free square, but only on those from which
        the capture goes on when there are such squares."""
        tab = self.tab
        found = False
        for d in range(4):
            k = 0
            j = tab.rays[sq][d][0]
            while j >= 0 and empty >> j & 1:
                k += 1
                j = tab.rays[sq][d][k]
            if j < 0 or not (opp & ~cap) >> j & 1:
                continue
            ncap = cap | BIT[j]
            # The landing squares: the free run beyond the taken piece (from k + 1).
            k += 1
            onward = 0
            last = k
            t = tab.rays[sq][d][last]
            while t >= 0 and empty >> t & 1:
                if self._king_can_capture(t, opp & ~ncap, empty):
                    onward |= BIT[t]
                last += 1
                t = tab.rays[sq][d][last]
            if last == k:
                continue
            found = True
            for n in range(k, last):
                t = tab.rays[sq][d][n]
                if onward:
                    if onward >> t & 1:
                        self._path[depth + 1] = t
                        self._king_jumps(out, frm, t, ncap, depth + 1, opp, empty, crowned)
                else:
                    self._path[depth + 1] = t
                    self._emit(out, frm | t << 6 | crowned | ncap << tab.cap_shift, depth + 1)
        if not found:
            self._emit(out, frm | sq << 6 | crowned | cap << tab.cap_shift, depth)
        return 0

    def _king_quiet_moves(self, out: list, kg: int, empty: int) -> int:
        t = self.tab
        while kg:
            frm = lowest(kg)
            kg &= kg - 1
            for d in range(4):
                k = 0
                j = t.rays[frm][d][0]
                while j >= 0 and empty >> j & 1:
                    out.append(_QUIET[frm | j << 6])
                    k += 1
                    j = t.rays[frm][d][k]
        return 0

    def _drawish_adjust(self, diff: int) -> int:
        # A lone king draws against two kings, and against three when it holds
        # the main road: shrink the material lead towards zero.
        kings = self.kings
        if self.o0 & ~kings or self.o1 & ~kings:
            return 0
        for weak in range(2):
            if weak:
                lone, many = self.o1, self.o0
            else:
                lone, many = self.o0, self.o1
            n = popcount(many)
            if popcount(lone) == 1 and (n <= 2 or n == 3 and lone & self.tab.main_road):
                return -diff + diff // 16
        return 0

    def render(self) -> str:
        rows = [f"{8 - r} " + "".join(cells) for r, cells in enumerate(self._board_rows())]
        rows.append("   a b c d e f g h")
        rows.append(f"{self.game.players[self.turn]} to move; w/b men, W/B kings")
        return "\n".join(rows)


def _parse_square(text: str) -> int:
    try:
        return ALGEBRAIC_INDEX[text.lower()]
    except KeyError:
        raise ValueError(f"expected squares a1-h8 (dark ones), got {text[:20]!r}") from None


def _sorted_squares(mask: int) -> list[int]:
    return sorted(bits(mask), key=lambda i: (-ROW[i], FILE[i]))


class ShashkiGame(DraughtsGame):
    name: ClassVar[str] = "shashki"
    aliases: ClassVar[tuple[str, ...]] = ("russian",)
    players: ClassVar[tuple[str, str]] = ("white", "black")
    Params: ClassVar[type[BaseModel]] = ShashkiParams
    null_move_ok: ClassVar[bool] = False
    flying_kings: ClassVar[bool] = True
    pdn_gametype: ClassVar[str] = "25"
    bench_texts: tuple[str, ...] = (
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        "W:Wa1,c1,e1,g1,d2,f2,h2,a3,c3,e3,g3,d4:Ba5,b6,d6,f6,h6,c7,e7,g7,b8,d8,f8,h8",
        "B:Wc1,e1,g1,b2,f2,a3,c3,e3,f4,h4:Ba5,c5,d6,f6,h6,c7,b8,d8,f8,h8",
        "W:Wb2,d2,h2,a3,e3,g3,d4,f4,h4:Bb4,a5,c5,d6,f6,h6,a7,g7,h8",
        "W:Wg3,f4,g5,Kd8:Bh6,h8,Ka1",
    )

    letters = ("W", "B")
    down_player = 1
    seed = "zermelo/shashki"
    hub_variant = "russian"
    capture_sep = ":"
    start_fen = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    position_class = ShashkiPosition
    square_name = staticmethod(algebraic)
    parse_square = staticmethod(_parse_square)
    sorted_squares = staticmethod(_sorted_squares)

    # Evaluation weights (centipieces: a man is 100). A flying king is worth
    # about three men.
    man_value = 100
    king_value = 300
    mobility = 2
    back_rank = 10
    runaway = 150
    hunt = 2
    main_road = MAIN_ROAD

    @staticmethod
    def man_pst(adv: int, file: int) -> int:
        centre = min(file, 7 - file)
        return (0, 3, 6, 10, 15, 22, 30, 0)[adv] + (5 if centre >= 2 and 2 <= adv <= 5 else 0)

    @staticmethod
    def king_pst(i: int) -> int:
        # The main road (a1-h8) is the strongest line for a king.
        return 25 if MAIN_ROAD >> i & 1 else 3 * min(FILE[i], 7 - FILE[i], ROW[i], 7 - ROW[i])

    def guard_squares(self, p: int) -> list[int]:
        # c1 and e1 for White, d8 and f8 for Black: they cover the crowning squares.
        return [ALGEBRAIC_INDEX[s] for s in (("d8", "f8") if p == self.down_player else ("c1", "e1"))]
