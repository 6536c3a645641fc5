"""Reversi (Othello) on the 8×8 board, Black first.

Squares are numbered 0..63 row-major from ``a1`` at the top-left, as Othello
software writes the board: columns ``a``-``h`` left to right, rows ``1``-``8``
top to bottom, square = ``8 * row + column`` (``a1`` = 0, ``h1`` = 7, ``a8`` =
56). The standard start has White on d4 and e5, Black on d5 and e4, so Black
opens with d3, c4, f5 or e6.

A move is its square, or :data:`PASS` (64, written ``pass``), which is legal
only when the side to move has no other move and the opponent has one. The game
ends when neither side can move; the side with more discs wins. These square
and pass numbers are OpenSpiel's ``othello`` action ids.

Position text: the 64 squares row-major from a1 (``X`` black, ``O`` white,
``-`` empty), a space, and the side to move (``X`` or ``O``). The start is::

    ---------------------------OX------XO--------------------------- X

Input also accepts ``*``/``B``/``@``/``#`` for black, ``W``/``0`` for white,
``.``/``_`` for empty (letters in either case), rows separated by ``/`` or
whitespace, the side as ``B``/``W``/``*``/``black``/``white``, and the board of
a GGF ``BO[8 ...]`` tag (a leading ``8``).

Discs are two 64-bit ints, the side to move's and the opponent's (bit ``i`` is
square ``i``). Move generation is a Kogge-Stone occluded fill in each of the
eight directions; the discs a move flips are found along precomputed rays
(:mod:`games.reversi.bitboard`); the position is :mod:`games.reversi.board`.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel

from engine.game import ExactConfig, Game, InputSet, InvalidPositionError, ProbCut
from engine.position import Position
from games.reversi.bitboard import FULL, PASS, flips, mobility
from games.reversi.board import ReversiPosition, _edge_table
from games.reversi.endgame import SEARCH_EMPTIES, ReversiExact, Solution, solve_margin
from games.zobrist import keys

__all__ = ["FULL", "PASS", "ReversiGame", "ReversiParams", "ReversiPosition", "flips", "mobility"]

_BLACK_CHARS = "X*B@#"
_WHITE_CHARS = "OW0"
_EMPTY_CHARS = "-._"
_SIDES = {"x": 0, "b": 0, "*": 0, "black": 0, "o": 1, "w": 1, "0": 1, "white": 1}


class ReversiParams(BaseModel):
    """Reversi has no parameters: the standard 8×8 game."""


class ReversiGame(Game):
    """Reversi/Othello: rules, Zobrist keys and the evaluation's edge table."""

    name: ClassVar[str] = "reversi"
    aliases: ClassVar[tuple[str, ...]] = ("othello",)
    players: ClassVar[tuple[str, str]] = ("black", "white")
    Params: ClassVar[type[BaseModel]] = ReversiParams
    null_move_ok: ClassVar[bool] = False
    #: Buro's form, calibrated by scripts/probcut_calibrate.py: the depth-d score is the
    #: depth-(d-2) one within σ ≈ 230 (2.3 discs); the margin is about 1.1σ.
    probcut: ClassVar[ProbCut | None] = ProbCut(min_depth=4, reduction=2, margin=250)
    bench_depth: ClassVar[int] = 5
    inputs: InputSet | None = InputSet("reversi128", 128, 64)
    tables_note: ClassVar[str] = ("endgames are solved exactly in play (games/reversi/endgame.py, option EndgameEmpties); "
                                  "no table files")
    margin_unit: ClassVar[str] = "discs"
    solve_note: ClassVar[str] = ("search: exact alpha-beta over the final disc difference, the win/draw/loss proved "
                                 "first (games/reversi/endgame.py); empties not counted")
    bench_texts: tuple[str, ...] = (
        # After f5 d6 c3 d3 c4 (the tiger), a midgame and an 18-empties endgame.
        "------------------XO------XXX------OXX-----O-------------------- O",
        "OX---XX-OO-O-XX--OOO-XX---OXXXX--XOXOOX---O--OXX--O------------- X",
        "--OOO--X-XOOOXXXXXOOOXXO-XXOOXX-OXXOOXXX--XOOXX---OOOXXX-----X-X X",
    )

    def __init__(self, params: ReversiParams | None = None):
        self.params = params or ReversiParams()
        table = keys(2 * 64 + 1, "zermelo/reversi")
        #: Key of a disc of player p on square s: ``disc_keys[p][s]``.
        self.disc_keys = (table[:64], table[64:128])
        #: Key change when the disc on a square changes colour.
        self.flip_keys = [a ^ b for a, b in zip(table[:64], table[64:128])]
        self.turn_key = table[128]
        self.edge_table = _edge_table()

    def score_text(self, pos: Position) -> str:
        """The discs of each side: ``black 40, white 24``."""
        assert isinstance(pos, ReversiPosition)
        black, white = (pos.own, pos.opp) if pos.turn == 0 else (pos.opp, pos.own)
        return f"black {black.bit_count()}, white {white.bit_count()}"

    def exact(self, config: ExactConfig):
        """The endgame solver (:class:`games.reversi.endgame.ReversiExact`): the root from
        ``EndgameEmpties`` empties, the search from fewer; the root on ``Threads`` processes."""
        return ReversiExact(self, min(SEARCH_EMPTIES, config.endgame_empties), config.endgame_empties,
                            config.threads)

    def gtp(self):
        from games.reversi.gtp import ReversiGtp

        return ReversiGtp(self)

    def solve_margin(self, pos: ReversiPosition, deadline: float | None = None, max_nodes: int | None = None,
                     report=None, threads: int = 1) -> Solution:
        """Black's exact final disc difference from ``pos`` with best play (a
        :class:`games.reversi.endgame.Solution`), on ``threads`` processes from
        :data:`games.reversi.split.PARALLEL_EMPTIES` empties; raises
        :class:`engine.control.Stopped` past ``deadline`` or ``max_nodes``."""
        return solve_margin(pos, deadline, max_nodes, report, threads)

    def describe_margin(self, margin: int) -> str:
        """The result of Black's final disc difference."""
        if margin == 0:
            return "draw"
        return f"{'black' if margin > 0 else 'white'} wins by {abs(margin)} discs"

    def new_position(self, text: str | None = None) -> ReversiPosition:
        if text is None:
            return ReversiPosition(self, 1 << 28 | 1 << 35, 1 << 27 | 1 << 36, 0)
        black, white, turn = _parse_text(text)
        own, opp = (black, white) if turn == 0 else (white, black)
        return ReversiPosition(self, own, opp, turn)


def _parse_text(text: str) -> tuple[int, int, int]:
    """(black, white, turn) from a position text in any accepted form."""
    words = text.replace("/", " ").split()
    if words and words[0] == "8" and len(words) > 1:
        words = words[1:]
    side = None
    if len(words) > 1 and words[-1].lower() in _SIDES:
        side = _SIDES[words[-1].lower()]
        board = "".join(words[:-1])
    else:
        board = "".join(words)
        if len(board) == 65 and board[-1].lower() in _SIDES:
            side, board = _SIDES[board[-1].lower()], board[:64]
    if side is None or len(board) != 64:
        raise InvalidPositionError(
            f"bad reversi position {text[:80]!r}; expected 64 squares (X, O, -) and the side to move (X or O)")
    black = white = 0
    for sq, ch in enumerate(board.upper()):
        if ch in _BLACK_CHARS:
            black |= 1 << sq
        elif ch in _WHITE_CHARS:
            white |= 1 << sq
        elif ch not in _EMPTY_CHARS:
            raise InvalidPositionError(f"bad reversi square {ch!r} in {text[:80]!r}")
    return black, white, side
