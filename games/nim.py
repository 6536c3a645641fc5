"""Nim as the subtraction game of the game-search literature.

Heaps of coins; a player takes 1..T coins from one heap. By default the player
who takes the last coin *loses* (misère, "last one loses"); ``normal=True``
makes taking the last coin win. The default game is one heap of 7, take 1 or 2.

Move layout: ``heap << 8 | take`` (heap 0-based). Notation: ``take`` when there
is one heap, else ``heap:take`` with heaps numbered from 1 (both accepted).
Position text: heap sizes, a space, and the player to move (``1`` or ``2``),
e.g. ``7 1`` or ``3,4,5 2``.
"""

from __future__ import annotations

import math
from typing import ClassVar, cast

from pydantic import BaseModel, Field, field_validator

from engine.position import Position
from engine.game import (ExactConfig, Game, IllegalMoveError, InvalidPositionError, Move,
                         parse_number, quote)
from games.solved_game import MAX_NIM_POSITIONS, SolvedGame
from games.zobrist import keys

_MAX_HEAP = 255
_MAX_HEAPS = 16


class NimParams(BaseModel):
    heaps: tuple[int, ...] = Field((7,), description="coins in each heap, e.g. `3,4,5` (1 to 16 heaps of 0..255)")
    max_take: int = Field(2, ge=1, le=_MAX_HEAP, description="the most coins a move takes from one heap")
    normal: bool = Field(False, description="normal play: taking the last coin wins (false: misère, it loses)")

    @field_validator("heaps", mode="before")
    @classmethod
    def _parse_heaps(cls, v):
        if isinstance(v, str):
            v = v.replace(",", " ").split()
        v = tuple(parse_number(h) if isinstance(h, str) else h for h in v)
        if not v or len(v) > _MAX_HEAPS or any(not isinstance(h, int) or not 0 <= h <= _MAX_HEAP for h in v):
            raise ValueError("heaps: 1 to 16 heaps of 0..255 coins, e.g. 3,4,5")
        return v


class NimGame(Game):
    name: ClassVar[str] = "nim"
    aliases: ClassVar[tuple[str, ...]] = ()
    players: ClassVar[tuple[str, str]] = ("first", "second")
    Params: ClassVar[type[BaseModel]] = NimParams
    null_move_ok: ClassVar[bool] = False
    tables_note: ClassVar[str] = ("the whole game is solved on first use up to 200,000 positions "
                                  "(games/solved_game.py); no table files")
    bench_texts: tuple[str, ...] = ()

    def __init__(self, params: NimParams | None = None):
        self.params: NimParams = params or NimParams()
        n = len(self.params.heaps)
        table = keys(n * (_MAX_HEAP + 1) + 1, "zermelo/nim")
        self.heap_keys = [table[i * (_MAX_HEAP + 1):(i + 1) * (_MAX_HEAP + 1)] for i in range(n)]
        self.turn_key = table[-1]

    def exact(self, config: ExactConfig) -> SolvedGame | None:
        """The whole game solved on first use, when it has at most ``MAX_NIM_POSITIONS`` positions."""
        return SolvedGame(self) if math.prod(h + 1 for h in self.params.heaps) <= MAX_NIM_POSITIONS else None

    graph_legend: ClassVar[str] = "n+ = n coins with the first player to move, n− with the second"

    def graph_label(self, pos: Position) -> str:
        """The chapters' name of a position in AND/OR graphs: the heaps, then + when the
        first player is to move and − when the second is (7+, 6−)."""
        return f"{','.join(map(str, cast(NimPosition, pos).heaps))}{'+−'[pos.turn]}"

    def new_position(self, text: str | None = None) -> NimPosition:
        if text is None:
            return NimPosition(self, list(self.params.heaps), 0)
        parts = text.split()
        try:
            heaps = [int(h) for h in parts[0].split(",")]
            turn = int(parts[1]) - 1 if len(parts) > 1 else 0
        except (ValueError, IndexError):
            raise InvalidPositionError(f"bad nim position {text!r}; expected e.g. '7 1'") from None
        if len(heaps) != len(self.params.heaps) or turn not in (0, 1) or len(parts) > 2:
            raise InvalidPositionError(
                f"bad nim position {text!r}: {len(self.params.heaps)} heap(s) and player 1 or 2 expected")
        if any(not 0 <= h <= _MAX_HEAP for h in heaps):
            raise InvalidPositionError(f"heap sizes must be 0..{_MAX_HEAP}")
        return NimPosition(self, heaps, turn)


class NimPosition(Position):
    def __init__(self, game: NimGame, heaps: list[int], turn: int):
        self.game = game
        # The rules the search asks at every node, as plain values (C ints when compiled).
        self.max_take = game.params.max_take
        self.normal = game.params.normal
        self.heap_keys = game.heap_keys
        self.turn_key = game.turn_key
        # Heap sizes in a fixed array (a C array when compiled): ``n`` heaps, the rest unused.
        self.n = len(heaps)
        self._h = heaps + [0] * (_MAX_HEAPS - len(heaps))
        self.turn = turn
        self.key = self.compute_key()
        # The moves pushed, newest last (0 for a null move): a move undoes itself, so no snapshots.
        self._stack: list[int] = []

    @property
    def heaps(self) -> list[int]:
        """The heap sizes, a fresh list."""
        return [self._h[i] for i in range(self.n)]

    # -- moves ---------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        t = self.max_take
        moves = []
        for i in range(self.n):
            for k in range(min(self._h[i], t), 0, -1):
                moves.append(i << 8 | k)
        return moves

    def noisy_moves(self) -> list[Move]:
        return []

    def is_noisy(self, move: Move) -> bool:
        return False

    def move_score(self, move: Move) -> int:
        return move & 0xFF

    def in_check(self) -> bool:
        return False

    def can_stand_pat(self) -> bool:
        return True

    def push(self, move: Move) -> None:
        self._stack.append(move)
        i, k = move >> 8, move & 0xFF
        h = self._h[i]
        keys_i = self.heap_keys[i]
        self.key ^= keys_i[h] ^ keys_i[h - k] ^ self.turn_key
        self._h[i] = h - k
        self.turn ^= 1

    def pop(self) -> None:
        move = self._stack.pop()
        self.turn ^= 1
        self.key ^= self.turn_key
        if move:
            i, k = move >> 8, move & 0xFF
            h = self._h[i]
            keys_i = self.heap_keys[i]
            self.key ^= keys_i[h] ^ keys_i[h + k]
            self._h[i] = h + k

    def null_move_allowed(self) -> bool:
        return False

    def push_null(self) -> None:
        self._stack.append(0)
        self.turn ^= 1
        self.key ^= self.turn_key

    # -- results -------------------------------------------------------------

    def outcome(self) -> int | None:
        return None

    def no_moves_value(self) -> int:
        # The previous player took the last coin: it won in normal play, lost in misère.
        return -1 if self.normal else 1

    def is_repetition(self) -> bool:
        return False

    def evaluate(self) -> int:
        """Sprague-Grundy theory: heap h has Grundy value h mod (T+1) in the
        subtraction game. Exact for normal play and for one misère heap (lost iff
        h ≡ 1 mod T+1); for several misère heaps, Bouton's adjustment."""
        t1 = self.max_take + 1
        if not self.normal:
            if self.n == 1:
                return -100 if self._h[0] % t1 == 1 else 100
            big = ones = 0
            for i in range(self.n):
                big |= self._h[i] > 1
                ones += self._h[i]
            if not big:
                return -100 if ones % 2 else 100
        g = 0
        for i in range(self.n):
            g ^= self._h[i] % t1
        return 100 if g else -100

    def compute_key(self) -> int:
        k = self.game.turn_key if self.turn else 0
        for i, h in enumerate(self.heaps):
            k ^= self.game.heap_keys[i][h]
        return k

    # -- text ----------------------------------------------------------------

    def _copy(self) -> NimPosition:
        return NimPosition(self.game, self.heaps[:], self.turn)

    def parse_move(self, text: str) -> Move:
        s = text.strip()
        fields = s.split(":") if ":" in s else ["1", s] if len(self.heaps) == 1 else []
        numbers = [parse_number(f) for f in fields]
        if len(numbers) != 2 or None in numbers:
            form = "'take' or 'heap:take'" if len(self.heaps) == 1 else "'heap:take'"
            raise IllegalMoveError(f"illegal move {quote(text)}: expected {form}, e.g. 1:2")
        heap, take = cast(list[int], numbers)  # no None: checked above
        if not 1 <= heap <= len(self.heaps):
            raise IllegalMoveError(f"illegal move {quote(text)}: expected a heap number 1-{len(self.heaps)}")
        # Checked before packing: a take of 256 or more would spill into the heap's bits.
        most = min(self.heaps[heap - 1], self.game.params.max_take)
        if not 1 <= take <= most:
            why = f"heap {heap} is empty" if not most else f"take 1-{most} coins from heap {heap}"
            raise IllegalMoveError(f"illegal move {quote(text)}: {why}")
        return (heap - 1) << 8 | take

    def move_text(self, move: Move) -> str:
        if len(self.heaps) == 1:
            return str(move & 0xFF)
        return f"{(move >> 8) + 1}:{move & 0xFF}"

    def to_text(self) -> str:
        return f"{','.join(map(str, self.heaps))} {self.turn + 1}"

    def render(self) -> str:
        rows = [f"heap {i + 1}: {'o' * h} ({h})" for i, h in enumerate(self.heaps)]
        rule = "normal play" if self.game.params.normal else "last coin loses"
        rows.append(f"take 1..{self.game.params.max_take}, {rule}; player {self.turn + 1} to move")
        return "\n".join(rows)
