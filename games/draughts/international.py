"""International draughts (10×10) and Brazilian draughts (the same rules on 8×8).

White moves first (player 0). Men move diagonally forward one square and capture
forward and backward; kings fly, as in Russian draughts (``games.draughts.shashki``,
whose capture search both games share). The differences from Russian draughts:
the capture taking the most pieces is compulsory (a king counts as one piece),
with free choice among the sequences that take that many; and a man crowns only
when its move ends on the last row: a man that reaches it mid-capture and can
capture on must go on, as a man. Turkish strike: captured pieces are removed
when the move is complete.

A side with no legal move loses. Draws (FMJD rules): the third occurrence of a
position; 25 moves each (``draw_moves``) with only king moves and no capture; and
against a lone king, 16 moves each for three pieces (one a king at least), five
for two pieces or one king. The clock of the last two counts from the last
capture or man move, so a man moving in an ending of a king and two men starts
them again.

Notation (international): the squares 1-50 of the standard diagram (square 1 at
Black's side, top left; White's men start on 31-50), ``32-28``, captures
``28x19x10`` with the full path (``28x10`` is accepted when only one capture goes
from 28 to 10). Brazilian uses the algebraic squares of Russian draughts
(``c3-d4``, ``c3:e5``). Position text: the draughts FEN, ``W:W31,...,50:B1,...,20``.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from engine.game import NOT_RULES, InputSet, bits, parse_number
from games.draughts import board
from games.draughts.shashki import ShashkiGame, ShashkiPosition

TEN = board.TEN


class InternationalParams(BaseModel):
    draw_moves: int = Field(25, ge=1, le=1000, description="moves each with only king moves and no capture that draw")
    eval: Literal["engine", "textbook"] = Field(
        "engine", description="engine: the full evaluation; textbook: men difference + 3 × kings difference",
        json_schema_extra=NOT_RULES)


class InternationalPosition(ShashkiPosition):

    def render(self) -> str:
        rows = []
        at = TEN.at
        for r, cells in enumerate(self._board_rows()):
            numbers = [f"{TEN.square[at[r, f]]:3d}" if (r, f) in at else "   " for f in range(10)]
            rows.append(("".join(cells) + "    " + "".join(numbers)).rstrip())
        rows.append(f"{self.game.players[self.turn]} to move; w/b men, W/B kings; squares 1-50 at the right")
        return "\n".join(rows)


def _square_name(i: int) -> str:
    return str(TEN.square[i])


def _parse_square(text: str) -> int:
    n = parse_number(text)
    if n is None or not 1 <= n <= 50:
        raise ValueError(f"expected squares 1-50, got {text[:20]!r}")
    return TEN.index[n]


def _sorted_squares(mask: int) -> list[int]:
    return sorted(bits(mask), key=TEN.square.__getitem__)


#: The long diagonal 46-5 (a1-j10), the line a lone king holds against three kings.
_LONG_DIAGONAL = sum(1 << TEN.at[9 - k, k] for k in range(10))


class InternationalGame(ShashkiGame):
    name: ClassVar[str] = "international"
    aliases: ClassVar[tuple[str, ...]] = ("draughts", "international-draughts", "10x10")
    Params: ClassVar[type[BaseModel]] = InternationalParams
    pdn_gametype: ClassVar[str] = "20"
    bench_texts: tuple[str, ...] = (
        "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,"
        "18,19,20",
        "W:W27,28,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,49:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,"
        "18,19,23",
        "B:W25,27,28,30,32,33,34,35,37,38,39,40,43,44,45:B2,3,7,8,9,10,12,13,14,15,16,18,19,20,23",
        "W:W28,31,32,33,37,38,39,43,48:B8,12,13,17,18,19,22,24,26",
        "W:W27,28,K45:B12,13,22,23,32,33",
    )
    geometry: ClassVar[board.Geometry] = TEN
    majority: ClassVar[bool] = True
    crown_midway: ClassVar[bool] = False
    lone_king_moves: ClassVar[tuple[int, int, int]] = (5, 5, 16)
    main_road: ClassVar[int] = _LONG_DIAGONAL
    # Own men, own kings, opponent men, opponent kings on the 50 squares, each side
    # seeing the board from its own side; 20 men a side at most.
    inputs: InputSet | None = InputSet("draughts200", 200, 40)

    seed = "zermelo/international"
    hub_variant = "normal"
    capture_sep = "x"
    start_fen = ("W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50"
                 ":B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20")
    position_class = InternationalPosition
    square_name = staticmethod(_square_name)
    parse_square = staticmethod(_parse_square)
    sorted_squares = staticmethod(_sorted_squares)

    man_value = 100
    king_value = 300
    mobility = 2
    back_rank = 8
    runaway = 150
    hunt = 2

    @staticmethod
    def man_pst(adv: int, file: int) -> int:
        # Men gain as they advance, most in the centre files, where they hold the board.
        centre = min(file, 9 - file)
        return (0, 2, 4, 6, 9, 12, 16, 21, 28, 0)[adv] + (4 if centre >= 2 and 2 <= adv <= 6 else 0)

    @staticmethod
    def king_pst(i: int) -> int:
        return 25 if _LONG_DIAGONAL >> i & 1 else 2 * min(TEN.file[i], 9 - TEN.file[i], TEN.row[i], 9 - TEN.row[i])

    def guard_squares(self, p: int) -> list[int]:
        # 2 and 4 for Black, 47 and 49 for White: they cover most crowning squares.
        return [TEN.index[s] for s in ((2, 4) if p == self.down_player else (47, 49))]


class BrazilianParams(BaseModel):
    draw_moves: int = Field(25, ge=1, le=1000, description="moves each with only king moves and no capture that draw")
    eval: Literal["engine", "textbook"] = Field(
        "engine", description="engine: the full evaluation; textbook: men difference + 3 × kings difference",
        json_schema_extra=NOT_RULES)


class BrazilianGame(ShashkiGame):
    name: ClassVar[str] = "brazilian"
    aliases: ClassVar[tuple[str, ...]] = ("brazilian-draughts",)
    Params: ClassVar[type[BaseModel]] = BrazilianParams
    pdn_gametype: ClassVar[str] = "26"
    majority: ClassVar[bool] = True
    crown_midway: ClassVar[bool] = False
    lone_king_moves: ClassVar[tuple[int, int, int]] = (5, 5, 16)
    seed = "zermelo/brazilian"
    hub_variant = "brazilian"
