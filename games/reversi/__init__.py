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
eight directions; the discs a move flips are found along precomputed rays.
"""

from __future__ import annotations

from engine.position import Position

import re
from functools import lru_cache
from typing import ClassVar

from pydantic import BaseModel

from engine.game import ExactConfig, GameTraits, IllegalMoveError, InvalidPositionError, Move, quote
from games.reversi.bitboard import FULL, PASS, flips, mobility
from games.reversi.endgame import SEARCH_EMPTIES, ReversiExact
from games.zobrist import keys

_COL_A = 0x0101010101010101
_CORNERS = 1 | 1 << 7 | 1 << 56 | 1 << 63

# Each corner with its X-square (diagonal neighbour) and C-squares (edge neighbours).
_CORNER_SQUARES = (
    (0, 9, (1, 8)),
    (7, 14, (6, 15)),
    (56, 49, (48, 57)),
    (63, 54, (55, 62)),
)

#: Static square values for move ordering: corners first, X-squares last.
_SQUARE_ORDER = (
    100, -20, 10, 5, 5, 10, -20, 100,
    -20, -50, -2, -2, -2, -2, -50, -20,
    10, -2, 1, 1, 1, 1, -2, 10,
    5, -2, 1, 0, 0, 1, -2, 5,
    5, -2, 1, 0, 0, 1, -2, 5,
    10, -2, 1, 1, 1, 1, -2, 10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    100, -20, 10, 5, 5, 10, -20, 100,
)
#: The quadrant (as a mask) holding each square, for region parity.
_QUADRANT = tuple(
    sum(1 << (8 * r + c) for r in range(8) for c in range(8)
        if (r < 4) == (sq // 8 < 4) and (c < 4) == (sq % 8 < 4))
    for sq in range(64)
)

_BLACK_CHARS = "X*B@#"
_WHITE_CHARS = "OW0"
_EMPTY_CHARS = "-._"
_SIDES = {"x": 0, "b": 0, "*": 0, "black": 0, "o": 1, "w": 1, "0": 1, "white": 1}
_PASS_WORDS = ("pass", "pa", "ps", "@@", "--")
_MOVE_RE = re.compile(r"([a-h])([1-8])")


def _neighbours(bb: int) -> int:
    """Squares adjacent (in 8 directions) to a disc of ``bb``."""
    h = ((bb << 1) & ~_COL_A) | ((bb >> 1) & ~(_COL_A << 7)) | bb
    return ((h << 8) | (h >> 8) | h) & FULL & ~bb


def _edge_bits(bb: int, col: int) -> int:
    """Column ``col`` of ``bb`` as an 8-bit row (bit k = row k)."""
    return (((bb >> col) & _COL_A) * 0x0102040810204080 >> 56) & 0xFF


@lru_cache(maxsize=None)
def _edge_table() -> tuple[int, ...]:
    """Stable-disc balance of every edge, indexed ``own8 << 8 | opp8``.

    An edge disc can only be flanked along its edge, so the discs of an edge
    that no sequence of placements on its empty squares (by either side,
    flipping along the edge) can turn over are stable for the whole game.
    The entry is (own stable) - (opponent stable).
    """
    memo: dict[tuple[int, int], int] = {}

    def line_flips(a: int, b: int, i: int) -> int:
        f = 0
        for step in (1, -1):
            run, j = 0, i + step
            while 0 <= j < 8 and b >> j & 1:
                run |= 1 << j
                j += step
            if run and 0 <= j < 8 and a >> j & 1:
                f |= run
        return f

    def stable(a: int, b: int) -> int:
        # Discs of a or b whose colour never changes in any continuation.
        if (a, b) in memo:
            return memo[a, b]
        keep = a | b
        for i in range(8):
            if (a | b) >> i & 1:
                continue
            fa = line_flips(a, b, i)
            keep &= ~fa & stable(a | 1 << i | fa, b & ~fa)
            fb = line_flips(b, a, i)
            keep &= ~fb & stable(a & ~fb, b | 1 << i | fb)
        memo[a, b] = keep
        return keep

    table = [0] * 65536
    for a in range(256):
        for b in range(256):
            if not a & b:
                s = stable(a, b)
                table[a << 8 | b] = (s & a).bit_count() - (s & b).bit_count()
    return tuple(table)


class ReversiParams(BaseModel):
    """Reversi has no parameters: the standard 8×8 game."""


class ReversiGame(GameTraits):
    """Reversi/Othello: rules, Zobrist keys and the evaluation's edge table."""

    name: ClassVar[str] = "reversi"
    aliases: ClassVar[tuple[str, ...]] = ("othello",)
    players: ClassVar[tuple[str, str]] = ("black", "white")
    Params: ClassVar[type[BaseModel]] = ReversiParams
    null_move_ok: ClassVar[bool] = False
    bench_depth: ClassVar[int] = 5
    tables_note: ClassVar[str] = ("endgames are solved exactly in play (games/reversi/endgame.py, option EndgameEmpties); "
                                  "no table files")
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

    def exact(self, config: ExactConfig):
        """The endgame solver (:class:`games.reversi.endgame.ReversiExact`): the root from
        ``EndgameEmpties`` empties, the search from fewer."""
        return ReversiExact(self, min(SEARCH_EMPTIES, config.endgame_empties), config.endgame_empties)

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


class ReversiPosition(Position):
    """A reversi position: the side to move's discs ``own``, the opponent's
    ``opp``, and ``turn`` (0 = Black, 1 = White)."""

    def __init__(self, game: ReversiGame, own: int, opp: int, turn: int):
        self.game = game
        self.own = own
        self.opp = opp
        self.turn = turn
        self.key = self.compute_key()
        self._mob: int | None = None  # mobility of ``own``, computed on demand
        self._stack: list[tuple[int, int, int, int, int | None]] = []

    # -- moves ---------------------------------------------------------------

    def _mobility(self) -> int:
        if self._mob is None:
            self._mob = mobility(self.own, self.opp)
        return self._mob

    def legal_moves(self) -> list[Move]:
        mob = self._mobility()
        if mob:
            out = []
            while mob:
                b = mob & -mob
                out.append(b.bit_length() - 1)
                mob ^= b
            return out
        if mobility(self.opp, self.own):
            return [PASS]
        return []

    def noisy_moves(self) -> list[Move]:
        return []

    def is_noisy(self, move: Move) -> bool:
        return False

    def move_score(self, move: Move) -> int:
        """Square value, plus a bonus late in the game for a quadrant holding an
        odd number of empties (the mover then tends to get its last move)."""
        if move == PASS:
            return 0
        score = _SQUARE_ORDER[move]
        empty = ~(self.own | self.opp) & FULL
        if empty.bit_count() <= 20 and (empty & _QUADRANT[move]).bit_count() & 1:
            score += 30
        return score

    def in_check(self) -> bool:
        return False

    def can_stand_pat(self) -> bool:
        return True

    def push(self, move: Move) -> None:
        """Play ``move`` (not validated): place and flip, or pass."""
        own, opp = self.own, self.opp
        self._stack.append((own, opp, self.turn, self.key, self._mob))
        game = self.game
        key = self.key ^ game.turn_key
        if move != PASS:
            f = flips(own, opp, move)
            key ^= game.disc_keys[self.turn][move]
            fk = game.flip_keys
            x = f
            while x:
                b = x & -x
                key ^= fk[b.bit_length() - 1]
                x ^= b
            own |= f | 1 << move
            opp ^= f
        self.own, self.opp = opp, own
        self.turn ^= 1
        self.key = key
        self._mob = None

    def pop(self) -> None:
        self.own, self.opp, self.turn, self.key, self._mob = self._stack.pop()

    def push_null(self) -> None:
        """Hand the turn over without playing (a pass, legal or not)."""
        self._stack.append((self.own, self.opp, self.turn, self.key, self._mob))
        self.own, self.opp = self.opp, self.own
        self.turn ^= 1
        self.key ^= self.game.turn_key
        self._mob = None

    def null_move_allowed(self) -> bool:
        return False

    # -- results -------------------------------------------------------------

    def is_over(self) -> bool:
        """True when neither side can move."""
        return not self._mobility() and not mobility(self.opp, self.own)

    def outcome(self) -> int | None:
        """Disc-count result once neither side can move, else ``None``."""
        if not self.is_over():
            return None
        return self.no_moves_value()

    def no_moves_value(self) -> int:
        diff = self.own.bit_count() - self.opp.bit_count()
        return (diff > 0) - (diff < 0)

    def is_repetition(self) -> bool:
        return False

    def evaluate(self) -> int:
        """Static value for the side to move (about 100 per disc-equivalent).

        Terms: mobility (moves now) and potential mobility (empty squares next
        to the opponent's discs), corners, X- and C-squares next to an empty
        corner, stable edge discs, parity (who is due the last move) in the
        last 20 empties, and the disc count in the last 12 empties.
        """
        own, opp = self.own, self.opp
        empty = ~(own | opp) & FULL
        n_empty = empty.bit_count()
        mob = self._mobility().bit_count() - mobility(opp, own).bit_count()
        pot = (_neighbours(opp) & empty).bit_count() - (_neighbours(own) & empty).bit_count()
        corners = (own & _CORNERS).bit_count() - (opp & _CORNERS).bit_count()
        risky = 0
        for corner, x_sq, c_sqs in _CORNER_SQUARES:
            if empty >> corner & 1:
                risky += 3 * ((own >> x_sq & 1) - (opp >> x_sq & 1))
                for c in c_sqs:
                    risky += (own >> c & 1) - (opp >> c & 1)
        t = self.game.edge_table
        stable = (t[(own & 0xFF) << 8 | (opp & 0xFF)]
                  + t[(own >> 56) << 8 | (opp >> 56)]
                  + t[_edge_bits(own, 0) << 8 | _edge_bits(opp, 0)]
                  + t[_edge_bits(own, 7) << 8 | _edge_bits(opp, 7)])
        # Mobility matters most in the midgame, stability more as the board fills.
        score = (mob * (40 + n_empty) + 25 * pot + 800 * corners - 100 * risky
                 + stable * (130 - 2 * n_empty))
        if n_empty <= 20:
            score += 80 if n_empty & 1 else -80
        if n_empty <= 12:
            score += 60 * (own.bit_count() - opp.bit_count())
        return score

    def compute_key(self) -> int:
        k = self.game.turn_key if self.turn else 0
        own_keys = self.game.disc_keys[self.turn]
        opp_keys = self.game.disc_keys[self.turn ^ 1]
        for sq in range(64):
            if self.own >> sq & 1:
                k ^= own_keys[sq]
            elif self.opp >> sq & 1:
                k ^= opp_keys[sq]
        return k

    # -- text ----------------------------------------------------------------

    @property
    def black(self) -> int:
        """Mask of Black's discs."""
        return self.own if self.turn == 0 else self.opp

    @property
    def white(self) -> int:
        """Mask of White's discs."""
        return self.opp if self.turn == 0 else self.own

    def copy(self) -> ReversiPosition:
        return ReversiPosition(self.game, self.own, self.opp, self.turn)

    def parse_move(self, text: str) -> Move:
        s = text.strip().lower()
        if s in _PASS_WORDS:
            move = PASS
        else:
            m = _MOVE_RE.fullmatch(s)
            if not m:
                raise IllegalMoveError(f"illegal move {quote(text)}: expected a square a1-h8 or 'pass'")
            move = 8 * (int(m.group(2)) - 1) + ord(m.group(1)) - ord("a")
        legal = self.legal_moves()
        if move not in legal:
            why = ("the game is over" if not legal else "only 'pass' is legal" if legal == [PASS]
                   else "a move is possible, no pass" if move == PASS else "it flips no disc or the square is taken")
            raise IllegalMoveError(f"illegal move {quote(text)}: {why}")
        return move

    def move_text(self, move: Move) -> str:
        if move == PASS:
            return "pass"
        return "abcdefgh"[move % 8] + str(move // 8 + 1)

    def to_text(self) -> str:
        black, white = self.black, self.white
        board = "".join("X" if black >> sq & 1 else "O" if white >> sq & 1 else "-" for sq in range(64))
        return f"{board} {'XO'[self.turn]}"

    def render(self) -> str:
        black, white = self.black, self.white
        legal = self._mobility()
        rows = ["  a b c d e f g h"]
        for r in range(8):
            cells = []
            for c in range(8):
                sq = 8 * r + c
                cells.append("●" if black >> sq & 1 else "○" if white >> sq & 1
                             else "·" if legal >> sq & 1 else "-")
            rows.append(f"{r + 1} {' '.join(cells)} {r + 1}")
        rows.append("  a b c d e f g h")
        rows.append(f"black ● {black.bit_count()}, white ○ {white.bit_count()}; "
                    f"{self.game.players[self.turn]} to move"
                    + ("; game over" if self.is_over() else ""))
        return "\n".join(rows)
