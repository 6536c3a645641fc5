"""Rolit: reversi for two to four players on the 8×8 board.

Squares are numbered as in :mod:`games.reversi`: ``8 * row + column`` from
``a1`` at the top-left, columns ``a``-``h`` left to right, rows ``1``-``8`` top
to bottom.

Rules (the commercial game's):

- Whatever the number of players, the four centre squares start with one ball of
  each colour: d4 red, e4 yellow, d5 blue, e5 green. Turns go in the fixed colour
  order red, yellow, green, blue, skipping colours not in play.
- Colours in play: four players red, yellow, green, blue; three players red,
  yellow, green; two players red and green (the seats facing each other). The
  balls of a colour not in play are neutral: they belong to nobody, count for
  nobody, and are flanked and turned like any other colour's.
- A move places a ball of the mover's colour. If the mover can capture, the move
  must capture: it flanks, in any of the 8 directions, an unbroken line of balls
  of other colours between the new ball and a ball of the mover's, and every
  flanked ball in every direction turns to the mover's colour (reversi's rule).
  Only when no capturing move exists may the mover place a ball on any empty
  square adjacent (8 directions) to a ball; nobody ever passes.
- The game ends when the board is full; the most balls wins, a shared first place
  is shared.

A move is its square (``d6``). Position text: the 64 squares row-major from a1
(``r``, ``y``, ``g``, ``b`` for the colours, ``-`` for empty), a space and the
colour to move; the start is::

    ---------------------------ry------bg--------------------------- r

Input also takes upper case, ``.``/``_`` for empty, rows separated by ``/`` or
whitespace, and the colour to move spelled out (``red``). The number of players
is the game's parameter (``players``, default 4), not part of the text.

Balls are one 64-bit int per colour; the captures of the mover are reversi's
moves of its balls against all the others (:func:`games.reversi.bitboard.mobility`
and :func:`~games.reversi.bitboard.flips`).

Values (the N-player vector of :mod:`engine.game`, ``value_sum`` 1000): each
player's weight is 2 per ball, 1 more per edge ball and 6 more per corner ball;
``values()`` gives each player ``999 * weight // total weight`` (never 1000 while
the game is on).
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, Field

from engine.game import Game, IllegalMoveError, InvalidPositionError, Move, bits, quote
from engine.position import Position
from games.reversi.bitboard import flips, mobility
from games.zobrist import keys

COLOURS = ("red", "yellow", "green", "blue")
_LETTERS = "rygb"
#: The colours in play, by number of players, in turn order.
SEATS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
#: The start: d4 red, e4 yellow, e5 green, d5 blue.
START = (1 << 27, 1 << 28, 1 << 36, 1 << 35)

FULL = (1 << 64) - 1
_NOT_A = 0xFEFEFEFEFEFEFEFE  # every column but a
_NOT_H = 0x7F7F7F7F7F7F7F7F  # every column but h
CORNERS = 1 << 0 | 1 << 7 | 1 << 56 | 1 << 63
EDGES = (0xFF | 0xFF << 56 | 0x0101010101010101 | 0x8080808080808080) & ~CORNERS
#: Move-order hint per square: corners first, edges next, the squares beside a corner last.
_ORDER = [2] * 64
for _sq in range(64):
    _r, _c = divmod(_sq, 8)
    if _r in (0, 7) or _c in (0, 7):
        _ORDER[_sq] = 3
    if _r in (1, 6) and _c in (1, 6):
        _ORDER[_sq] = 0
for _sq in (0, 7, 56, 63):
    _ORDER[_sq] = 4

VALUE_SUM = 1000
_EMPTY_CHARS = "-._"


def neighbours(occ: int) -> int:
    """The empty squares next to (8 directions) a ball of ``occ``."""
    row = occ | (occ << 1 & _NOT_A) | (occ >> 1 & _NOT_H)
    return (row | row << 8 | row >> 8) & FULL & ~occ


class RolitParams(BaseModel):
    players: int = Field(4, ge=2, le=4, description="number of players (colours in play)")


class RolitGame(Game):
    """Rolit: rules and Zobrist keys; ``players`` names the colours in play."""

    name: ClassVar[str] = "rolit"
    aliases: ClassVar[tuple[str, ...]] = ("roll-it",)
    Params: ClassVar[type[BaseModel]] = RolitParams
    #: The players of the default game; an instance sets its own from ``players``.
    players: tuple[str, ...] = COLOURS
    null_move_ok: ClassVar[bool] = False
    bench_depth: ClassVar[int] = 4
    value_sum: ClassVar[int] = VALUE_SUM
    bench_texts: tuple[str, ...] = ()

    def __init__(self, params: BaseModel | None = None):
        self.params = params if isinstance(params, RolitParams) else RolitParams()
        #: Colour of each player, in turn order.
        self.colours = SEATS[self.params.players]
        self.players = tuple(COLOURS[c] for c in self.colours)
        table = keys(4 * 64 + 4, "zermelo/rolit")
        #: Key of a ball of colour c on square s: ``ball_keys[c][s]``.
        self.ball_keys = [table[64 * c:64 * c + 64] for c in range(4)]
        #: Key change when the ball on a square turns from colour d to colour c:
        #: ``turn_over_keys[4 * c + d][s]``.
        self.turn_over_keys = [[a ^ b for a, b in zip(self.ball_keys[c], self.ball_keys[d])]
                               for c in range(4) for d in range(4)]
        #: Key of player p to move (0 for player 0, so the start hashes like its balls).
        self.turn_keys = [0, *table[256:259]]

    def new_position(self, text: str | None = None) -> RolitPosition:
        if text is None:
            return RolitPosition(self, list(START), 0)
        balls, turn = self._parse(text)
        return RolitPosition(self, balls, turn)

    def _parse(self, text: str) -> tuple[list[int], int]:
        words = text.replace("/", " ").split()
        example = f"64 squares ({', '.join(_LETTERS)} or -) and the colour to move ({', '.join(self.players)})"
        if len(words) < 2:
            raise InvalidPositionError(f"bad rolit position {text[:80]!r}; expected {example}")
        side, board = words[-1].lower(), "".join(words[:-1]).lower()
        colour = _LETTERS.index(side) if len(side) == 1 and side in _LETTERS else (
            COLOURS.index(side) if side in COLOURS else -1)
        if len(board) != 64 or colour < 0:
            raise InvalidPositionError(f"bad rolit position {text[:80]!r}; expected {example}")
        if colour not in self.colours:
            raise InvalidPositionError(
                f"bad rolit position {text[:80]!r}: {COLOURS[colour]} is not in play with {len(self.players)} players")
        balls = [0, 0, 0, 0]
        for sq, ch in enumerate(board):
            if ch in _LETTERS:
                balls[_LETTERS.index(ch)] |= 1 << sq
            elif ch not in _EMPTY_CHARS:
                raise InvalidPositionError(f"bad rolit square {ch!r} in {text[:80]!r}")
        if not any(balls):
            # With no ball on the board nobody could move (a move goes next to a ball).
            raise InvalidPositionError(f"bad rolit position {text[:80]!r}: the board has no ball")
        return balls, self.colours.index(colour)


class RolitPosition(Position):
    """A Rolit position: ``balls[c]`` the squares of colour ``c`` (all four colours,
    in play or not), ``occ`` their union; ``push`` saves the four boards, the key
    and the turn on a stack that ``pop`` restores."""

    def __init__(self, game: RolitGame, balls: list[int], turn: int):
        self.game = game
        self.colours = game.colours
        self.n = len(game.colours)
        self.balls = balls
        self.occ = balls[0] | balls[1] | balls[2] | balls[3]
        self.turn = turn
        self.key = self.compute_key()
        self.stack: list[tuple[list[int], int, int]] = []

    # -- the search's calls ----------------------------------------------------

    def legal_moves(self) -> list[Move]:
        occ = self.occ
        if occ == FULL:
            return []
        own = self.balls[self.colours[self.turn]]
        moves = mobility(own, occ ^ own)
        return bits(moves if moves else neighbours(occ))

    def captures(self) -> int:
        """The squares where the mover captures, as a bitboard (0: any square next to a ball is legal)."""
        own = self.balls[self.colours[self.turn]]
        return mobility(own, self.occ ^ own)

    def noisy_moves(self) -> list[Move]:
        return []

    def is_noisy(self, move: Move) -> bool:
        return False

    def move_score(self, move: Move) -> int:
        return _ORDER[move]

    def in_check(self) -> bool:
        return False

    def can_stand_pat(self) -> bool:
        return True

    def push(self, move: Move) -> None:
        balls = self.balls
        turn = self.turn
        self.stack.append((balls[:], self.key, turn))
        c = self.colours[turn]
        own = balls[c]
        f = flips(own, self.occ ^ own, move)
        key = self.key ^ self.game.ball_keys[c][move]
        if f:
            for d in range(4):
                x = balls[d] & f
                if x and d != c:
                    balls[d] ^= x
                    table = self.game.turn_over_keys[4 * c + d]
                    while x:
                        low = x & -x
                        key ^= table[low.bit_length() - 1]
                        x ^= low
        bit = 1 << move
        balls[c] = own | f | bit
        self.occ |= bit
        nxt = turn + 1 if turn + 1 < self.n else 0
        self.turn = nxt
        self.key = key ^ self.game.turn_keys[turn] ^ self.game.turn_keys[nxt]

    def pop(self) -> None:
        self.balls, self.key, self.turn = self.stack.pop()
        b = self.balls
        self.occ = b[0] | b[1] | b[2] | b[3]

    def push_null(self) -> None:
        raise NotImplementedError("rolit has no null move")

    def null_move_allowed(self) -> bool:
        return False

    def is_repetition(self) -> bool:
        return False

    def counts(self) -> list[int]:
        """Balls of each player, in turn order."""
        return [self.balls[c].bit_count() for c in self.colours]

    def is_over(self) -> bool:
        return self.occ == FULL

    def outcome(self) -> int | None:
        if self.occ != FULL:
            return None
        counts = self.counts()
        best = max(counts)
        if counts[self.turn] < best:
            return -1
        return 1 if counts.count(best) == 1 else 0

    def no_moves_value(self) -> int:
        # Moves run out only on a full board, which outcome() scores.
        return self.outcome() or 0

    def values(self) -> list[int]:
        weights = []
        for c in self.colours:
            own = self.balls[c]
            weights.append(2 * own.bit_count() + (own & EDGES).bit_count() + 6 * (own & CORNERS).bit_count())
        total = sum(weights)
        if not total:
            return [(VALUE_SUM - 1) // self.n] * self.n
        return [(VALUE_SUM - 1) * w // total for w in weights]

    def result(self) -> list[int] | None:
        if self.occ != FULL:
            return None
        counts = self.counts()
        best = max(counts)
        share = VALUE_SUM // counts.count(best)
        return [share if n == best else 0 for n in counts]

    def vector_bounds(self) -> tuple[int, int]:
        return 0, self.game.value_sum

    def ranking(self) -> list[int] | None:
        if self.occ != FULL:
            return None
        counts = self.counts()
        return [1 + sum(other > n for other in counts) for n in counts]

    def evaluate(self) -> int:
        values = self.values()
        mine = values[self.turn]
        return mine - max(v for p, v in enumerate(values) if p != self.turn)

    # -- outside the search ------------------------------------------------------

    def compute_key(self) -> int:
        key = self.game.turn_keys[self.turn]
        for c in range(4):
            for sq in bits(self.balls[c]):
                key ^= self.game.ball_keys[c][sq]
        return key

    def _copy(self) -> RolitPosition:
        return RolitPosition(self.game, self.balls[:], self.turn)

    def parse_move(self, text: str) -> Move:
        s = text.strip().lower()
        if len(s) != 2 or s[0] not in "abcdefgh" or s[1] not in "12345678":
            raise IllegalMoveError(f"illegal move {quote(text)}: expected a square a1-h8")
        move = 8 * (int(s[1]) - 1) + "abcdefgh".index(s[0])
        if self.occ == FULL:
            raise IllegalMoveError(f"illegal move {quote(text)}: the game is over")
        if self.occ >> move & 1:
            raise IllegalMoveError(f"illegal move {quote(text)}: the square is taken")
        if move not in self.legal_moves():
            why = "a capture is possible" if self.captures() else "it is not next to a ball"
            raise IllegalMoveError(f"illegal move {quote(text)}: {why}")
        return move

    def move_text(self, move: Move) -> str:
        return "abcdefgh"[move % 8] + str(move // 8 + 1)

    def _board(self) -> str:
        """The 64 squares row-major from a1, one letter (or ``-``) each."""
        cells = ["-"] * 64
        for c in range(4):
            for sq in bits(self.balls[c]):
                cells[sq] = _LETTERS[c]
        return "".join(cells)

    def to_text(self) -> str:
        return f"{self._board()} {_LETTERS[self.colours[self.turn]]}"

    def render(self) -> str:
        board = self._board()
        legal = 0 if self.occ == FULL else sum(1 << m for m in self.legal_moves())
        rows = ["  a b c d e f g h"]
        for r in range(8):
            cells = [board[8 * r + c].upper() if board[8 * r + c] != "-"
                     else "·" if legal >> (8 * r + c) & 1 else "-" for c in range(8)]
            rows.append(f"{r + 1} {' '.join(cells)} {r + 1}")
        rows.append("  a b c d e f g h")
        counts = ", ".join(f"{name} {n}" for name, n in zip(self.game.players, self.counts()))
        if self.occ == FULL:
            ranking = self.ranking() or []
            winners = [name for name, place in zip(self.game.players, ranking) if place == 1]
            rows.append(f"{counts}; game over: {' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'}")
        else:
            rows.append(f"{counts}; {self.game.players[self.turn]} to move")
        return "\n".join(rows)
