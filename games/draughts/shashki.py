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

from typing import ClassVar

from pydantic import BaseModel, Field

from engine.game import Move, bits
from games.draughts.board import ALGEBRAIC_INDEX, FILE, JUMP, RAY, ROW, VALID, algebraic
from games.draughts.position import CAP_SHIFT, PROMO, DraughtsGame, DraughtsPosition

_JUMPS = [tuple(j[1:] for j in JUMP[i]) for i in range(64)]
#: The main road a1-h8, the long diagonal that decides many king endings.
MAIN_ROAD = sum(1 << ALGEBRAIC_INDEX[f + str(r)] for f, r in zip("abcdefgh", range(1, 9)))


class ShashkiParams(BaseModel):
    draw_moves: int = Field(15, ge=1, le=1000, description="moves each without a capture or man move that draw")


class ShashkiPosition(DraughtsPosition):
    __slots__ = ()

    def _jumpers(self) -> int:
        me = self.turn
        own, opp = self.occ[me], self.occ[me ^ 1]
        empty = VALID & ~(own | opp)
        kg = own & self.kings
        men = own ^ kg
        found = (men & (opp >> 4) & (empty >> 8) | men & (opp >> 5) & (empty >> 10)
                 | men & (opp << 4) & (empty << 8) | men & (opp << 5) & (empty << 10))
        while kg:
            b = kg & -kg
            kg ^= b
            for ray in RAY[b.bit_length() - 1]:
                for k, j in enumerate(ray):
                    if empty >> j & 1:
                        continue
                    if opp >> j & 1 and k + 1 < len(ray) and empty >> ray[k + 1] & 1:
                        found |= b
                    break
        return found

    def capture_sequences(self, jumpers: int | None = None) -> list[tuple[Move, tuple[int, ...]]]:
        me = self.turn
        own, opp = self.occ[me], self.occ[me ^ 1]
        kings = self.kings
        promo = self.game.promo_mask[me]
        out: list[tuple[Move, tuple[int, ...]]] = []

        def king_targets(sq: int, cap: int) -> list[tuple[int, list[int]]]:
            """(captured bit, landing squares) for each capture a king on sq has."""
            found = []
            for ray in RAY[sq]:
                for k, j in enumerate(ray):
                    if empty >> j & 1:
                        continue
                    b = 1 << j
                    if (opp ^ cap) & b:
                        lands = []
                        for t in ray[k + 1:]:
                            if not empty >> t & 1:
                                break
                            lands.append(t)
                        if lands:
                            found.append((b, lands))
                    break
            return found

        def king(sq: int, cap: int, path: tuple[int, ...], crowned: int) -> None:
            targets = king_targets(sq, cap)
            if not targets:
                out.append((frm | sq << 6 | crowned | cap << CAP_SHIFT, path))
                return
            for b, lands in targets:
                ncap = cap | b
                onward = [t for t in lands if king_targets(t, ncap)]
                if onward:
                    for t in onward:
                        king(t, ncap, path + (t,), crowned)
                else:
                    for t in lands:
                        out.append((frm | t << 6 | crowned | ncap << CAP_SHIFT, path + (t,)))

        def man(sq: int, cap: int, path: tuple[int, ...]) -> None:
            found = False
            for mid, land, li in _JUMPS[sq]:
                if (opp ^ cap) & mid and empty & land:
                    found = True
                    if land & promo:
                        king(li, cap | mid, path + (li,), PROMO)
                    else:
                        man(li, cap | mid, path + (li,))
            if not found and cap:
                out.append((frm | sq << 6 | cap << CAP_SHIFT, path))

        if jumpers is None:
            jumpers = self._jumpers()
        for frm in bits(jumpers):
            # The capturing piece has left its square: it may pass or land there again.
            empty = VALID & ~(own | opp) | 1 << frm
            if kings >> frm & 1:
                king(frm, 0, (frm,), 0)
            else:
                man(frm, 0, (frm,))
        return out

    def _king_quiet_moves(self, kg: int, empty: int, out: list[Move]) -> None:
        while kg:
            b = kg & -kg
            kg ^= b
            frm = b.bit_length() - 1
            for ray in RAY[frm]:
                for j in ray:
                    if not empty >> j & 1:
                        break
                    out.append(frm | j << 6)

    def _drawish_adjust(self, diff: int) -> int:
        # A lone king draws against two kings, and against three when it holds
        # the main road: shrink the material lead towards zero.
        occ, kings = self.occ, self.kings
        if occ[0] & ~kings or occ[1] & ~kings:
            return 0
        for weak in (0, 1):
            n = occ[weak ^ 1].bit_count()
            if occ[weak].bit_count() == 1 and (n <= 2 or n == 3 and occ[weak] & MAIN_ROAD):
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
