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

from typing import ClassVar

from pydantic import BaseModel, Field

from engine.game import Move, bits, parse_number
from games.draughts.board import ALL_DIRS, AT, DOWN_DIRS, FILE, INDEX, JUMP, ROW, SQUARE, UP_DIRS, VALID
from games.draughts.position import CAP_SHIFT, PROMO, DraughtsGame, DraughtsPosition

# Short jumps per square restricted to the forward directions of each kind of mover.
_JUMP_DOWN = [tuple(j[1:] for j in JUMP[i] if j[0] in DOWN_DIRS) for i in range(64)]
_JUMP_UP = [tuple(j[1:] for j in JUMP[i] if j[0] in UP_DIRS) for i in range(64)]
_JUMP_ALL = [tuple(j[1:] for j in JUMP[i] if j[0] in ALL_DIRS) for i in range(64)]


class CheckersParams(BaseModel):
    draw_moves: int = Field(40, ge=1, le=1000, description="moves each without a capture or man move that draw")


class CheckersPosition(DraughtsPosition):
    __slots__ = ()

    def _jumpers(self) -> int:
        me = self.turn
        own, opp = self.occ[me], self.occ[me ^ 1]
        empty = VALID & ~(own | opp)
        kg = own & self.kings
        if me == self.game.down_player:
            down, up = own, kg
        else:
            down, up = kg, own
        return (down & (opp >> 4) & (empty >> 8) | down & (opp >> 5) & (empty >> 10)
                | up & (opp << 4) & (empty << 8) | up & (opp << 5) & (empty << 10))

    def capture_sequences(self, jumpers: int | None = None) -> list[tuple[Move, tuple[int, ...]]]:
        me = self.turn
        opp = self.occ[me ^ 1]
        kings = self.kings
        promo = self.game.promo_mask[me]
        forward = _JUMP_DOWN if me == self.game.down_player else _JUMP_UP
        out: list[tuple[Move, tuple[int, ...]]] = []

        def man(sq: int, cap: int, path: tuple[int, ...]) -> None:
            found = False
            for mid, land, li in forward[sq]:
                if (opp ^ cap) & mid and empty & land:
                    found = True
                    if land & promo:
                        out.append((frm | li << 6 | PROMO | (cap | mid) << CAP_SHIFT, path + (li,)))
                    else:
                        man(li, cap | mid, path + (li,))
            if not found and cap:
                out.append((frm | sq << 6 | cap << CAP_SHIFT, path))

        def king(sq: int, cap: int, path: tuple[int, ...]) -> None:
            found = False
            for mid, land, li in _JUMP_ALL[sq]:
                if (opp ^ cap) & mid and empty & land:
                    found = True
                    king(li, cap | mid, path + (li,))
            if not found and cap:
                out.append((frm | sq << 6 | cap << CAP_SHIFT, path))

        if jumpers is None:
            jumpers = self._jumpers()
        for frm in bits(jumpers):
            # The jumping piece has left its square: a king may come back to it.
            empty = VALID & ~(self.occ[0] | self.occ[1]) | 1 << frm
            (king if kings >> frm & 1 else man)(frm, 0, (frm,))
        return out

    def _king_quiet_moves(self, kg: int, empty: int, out: list[Move]) -> None:
        for d in (4, 5, -4, -5):
            dest = (kg << d if d > 0 else kg >> -d) & empty
            while dest:
                b = dest & -dest
                dest ^= b
                to = b.bit_length() - 1
                out.append((to - d) | to << 6)

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
