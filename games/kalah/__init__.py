"""Kalah, the mancala game of the game-search literature: Kalah(pits, seeds).

Each player owns a row of ``pits`` pits, each starting with ``seeds`` seeds, and
a store at the right end of the row. A move picks up every seed of one own pit
and sows them one by one counter-clockwise into the following pits and the own
store, skipping the opponent's store.

- Last seed in the own store: the same player moves again (``turn`` is unchanged
  after ``push``).
- Last seed in an own pit that was empty: that seed and every seed in the pit
  opposite go to the own store. By default (the standard rule) this capture
  happens only when the opposite pit holds seeds; ``empty_capture=True`` captures
  the lone seed even when the opposite pit is empty.
- When, after a move, all pits of one side are empty, the game ends: each player
  adds the seeds left on their own side to their store. The larger store wins.

Board layout: a list of ``2 * pits + 2`` counts in sowing order: player 0's
pits (from their left), player 0's store, player 1's pits (from their left),
player 1's store. The pit opposite index ``i`` is ``2 * pits - i``.

Moves are the pit numbers ``1``..``pits`` counted from the mover's left, as ints
and as text. Position text: player 1's pits and store, ``/``, player 2's pits and
store, a space, the player to move (``1`` or ``2``); the start of Kalah(6,4) is
``4,4,4,4,4,4,0/4,4,4,4,4,4,0 1``.
"""

from __future__ import annotations

from engine.position import Position

from typing import ClassVar

from pydantic import BaseModel, Field

from engine.game import (ExactConfig, GameTraits, IllegalMoveError, InvalidPositionError, Move,
                         parse_number, quote)
from games.zobrist import keys

# Evaluation weights, in hundredths of a seed.
_STORE = 100
_SIDE = 20
_EXTRA_TURN = 40
_CAPTURE = 50


#: Seeds of the table built in memory when neither a file nor a shipped table covers the
#: rules (seeds left in the pits; Kalah(6, any seeds) ships with 14).
BUILD_SEEDS = 8

class KalahParams(BaseModel):
    pits: int = Field(6, ge=3, le=8)
    seeds: int = Field(4, ge=1, le=6)
    empty_capture: bool = False


class KalahGame(GameTraits):
    name: ClassVar[str] = "kalah"
    aliases: ClassVar[tuple[str, ...]] = ("mancala",)
    players: ClassVar[tuple[str, str]] = ("south", "north")
    Params: ClassVar[type[BaseModel]] = KalahParams
    null_move_ok: ClassVar[bool] = False
    table_classes: ClassVar[str] = "seeds"
    margin_unit: ClassVar[str] = "seeds"
    bench_texts: tuple[str, ...] = (
        "4,4,4,4,4,4,0/4,4,4,4,4,4,0 1",
        "4,4,0,5,5,0,2/5,0,6,6,5,5,1 2",
        "2,1,0,8,1,7,3/0,7,7,2,6,1,3 2",
        "1,1,0,4,9,2,6/2,9,1,0,1,9,3 2",
    )

    def __init__(self, params: KalahParams | None = None):
        self.params = params or KalahParams()
        if self.params != KalahParams():
            # The built-in positions are Kalah(6,4)'s; other games bench the start.
            self.bench_texts = ()
        p = self.pits = self.params.pits
        self.total = 2 * p * self.params.seeds
        self.size = 2 * p + 2
        # One key per (slot, count); counts never exceed the seeds in play.
        self.stride = self.total + 1
        table = keys(self.size * self.stride + 1, f"zermelo/kalah/{p}")
        self.slot_keys = table[:-1]
        self.turn_key = table[-1]

    def exact(self, config: ExactConfig):
        """The endgame table (:class:`games.kalah.retro.KalahExact`): a file of
        ``TablePath``, the shipped one, or one built in memory."""
        from games.kalah.retro import KalahExact  # numpy, only when a go needs the table

        return KalahExact(self, config.table_directory, BUILD_SEEDS, config.report)

    def new_position(self, text: str | None = None) -> KalahPosition:
        p, s = self.pits, self.params.seeds
        if text is None:
            row = [s] * p + [0]
            return KalahPosition(self, row + row, 0)
        parts = text.split()
        try:
            if len(parts) != 2:
                raise ValueError
            rows = parts[0].split("/")
            if len(rows) != 2:
                raise ValueError
            board = [int(c) for row in rows for c in row.split(",")]
            turn = int(parts[1]) - 1
        except ValueError:
            raise InvalidPositionError(
                f"bad kalah position {text!r}; expected e.g. '{self.new_position().to_text()}'") from None
        if len(board) != self.size or turn not in (0, 1):
            raise InvalidPositionError(
                f"bad kalah position {text!r}: {p} pits and a store per side, player 1 or 2 to move")
        if any(c < 0 for c in board) or sum(board) != self.total:
            raise InvalidPositionError(f"bad kalah position {text!r}: the seeds must add up to {self.total}")
        return KalahPosition(self, board, turn)


class KalahPosition(Position):
    def __init__(self, game: KalahGame, board: list[int], turn: int):
        self.game = game
        self.board = board
        self.turn = turn
        self.key = self.compute_key()
        self._stack: list[tuple[list[int], int, int]] = []

    # -- moves ---------------------------------------------------------------

    def _over(self) -> bool:
        b, p = self.board, self.game.pits
        return not any(b[:p]) or not any(b[p + 1:2 * p + 1])

    def legal_moves(self) -> list[Move]:
        if self._over():
            return []
        p = self.game.pits
        first = 0 if self.turn == 0 else p + 1
        b = self.board
        return [i + 1 for i in range(p) if b[first + i]]

    def _gain(self, move: Move) -> tuple[bool, int]:
        """(extra turn, seeds a capture would move to the store) for ``move``,
        without playing it."""
        g = self.game
        p = g.pits
        b = self.board
        base = 0 if self.turn == 0 else p + 1
        i = move - 1
        seeds = b[base + i]
        # Slots relative to the mover: own pits 0..p-1, own store p, the
        # opponent's pits p+1..2p; a lap has 2p+1 slots.
        last = (i + seeds) % (2 * p + 1)
        if last == p:
            return True, 0
        if last > p:
            return False, 0
        if seeds <= 2 * p:
            if b[base + last]:
                return False, 0
        elif seeds != 2 * p + 1:
            # Two laps or more leave at least two seeds in the last pit.
            return False, 0
        # The opposite pit also gets a seed if the sowing passed it.
        opposite = b[2 * p - base - last] + (2 * p - last <= i + seeds)
        if not opposite and not g.params.empty_capture:
            return False, 0
        return False, opposite + 1

    def noisy_moves(self) -> list[Move]:
        """Extra-turn moves and captures: both change the store difference at once
        and leave the evaluation unstable. Every one of them moves at least one seed
        into a store, so quiescence over them is finite."""
        scored = [(self.move_score(m), m) for m in self.legal_moves()]
        return [m for s, m in sorted(scored, reverse=True) if s >= 100]

    def is_noisy(self, move: Move) -> bool:
        extra, captured = self._gain(move)
        return extra or captured > 0

    def move_score(self, move: Move) -> int:
        """Extra turns first (the pit nearest the store first, which keeps the
        others' extra turns intact), then captures by size, then quiet moves."""
        extra, captured = self._gain(move)
        if extra:
            return 1000 + move
        if captured:
            return 100 + captured
        return move

    def in_check(self) -> bool:
        return False

    def can_stand_pat(self) -> bool:
        return True

    def push(self, move: Move) -> None:
        g = self.game
        p = g.pits
        b = self.board
        turn = self.turn
        self._stack.append((b[:], turn, self.key))
        size = g.size
        if turn == 0:
            i, store, skip = move - 1, p, 2 * p + 1
        else:
            i, store, skip = p + move, 2 * p + 1, p
        seeds = b[i]
        b[i] = 0
        while seeds:
            i += 1
            if i == size:
                i = 0
            if i != skip:
                b[i] += 1
                seeds -= 1
        if i == store:
            pass
        else:
            if b[i] == 1 and store - p <= i < store:
                opposite = 2 * p - i
                if b[opposite] or g.params.empty_capture:
                    b[store] += b[opposite] + 1
                    b[i] = b[opposite] = 0
            self.turn = turn ^ 1
        south = sum(b[:p])
        north = sum(b[p + 1:2 * p + 1])
        if not south or not north:
            b[p] += south
            b[2 * p + 1] += north
            b[:p] = [0] * p
            b[p + 1:2 * p + 1] = [0] * p
        self.key = self.compute_key()

    def pop(self) -> None:
        self.board, self.turn, self.key = self._stack.pop()

    def null_move_allowed(self) -> bool:
        return False

    def push_null(self) -> None:
        self._stack.append((self.board[:], self.turn, self.key))
        self.turn ^= 1
        self.key ^= self.game.turn_key

    # -- results -------------------------------------------------------------

    def margin(self) -> int:
        """Store difference for the side to move, counting the seeds each side
        would collect if the game ended now."""
        b, p = self.board, self.game.pits
        south = b[p] + sum(b[:p])
        north = b[2 * p + 1] + sum(b[p + 1:2 * p + 1])
        return south - north if self.turn == 0 else north - south

    def outcome(self) -> int | None:
        if not self._over():
            return None
        m = self.margin()
        return (m > 0) - (m < 0)

    def no_moves_value(self) -> int:
        m = self.margin()
        return (m > 0) - (m < 0)

    def is_repetition(self) -> bool:
        return False

    def evaluate(self) -> int:
        """Store difference, plus a share of the seeds on each side (they are
        swept into the owner's store at the end), plus the mover's extra-turn
        moves and best direct capture, minus the opponent's best direct capture."""
        b, p = self.board, self.game.pits
        if self.turn == 0:
            mine, theirs, my_store, their_store = b[:p], b[p + 1:2 * p + 1], b[p], b[2 * p + 1]
        else:
            mine, theirs, my_store, their_store = b[p + 1:2 * p + 1], b[:p], b[2 * p + 1], b[p]
        score = _STORE * (my_store - their_store) + _SIDE * (sum(mine) - sum(theirs))
        extra = sum(1 for i, c in enumerate(mine) if c == p - i)
        return (score + _EXTRA_TURN * extra
                + _CAPTURE * (_best_capture(mine, theirs, p, self.game.params.empty_capture)
                              - _best_capture(theirs, mine, p, self.game.params.empty_capture)))

    def compute_key(self) -> int:
        k = self.game.turn_key if self.turn else 0
        table, stride = self.game.slot_keys, self.game.stride
        for i, c in enumerate(self.board):
            k ^= table[i * stride + c]
        return k

    # -- text ----------------------------------------------------------------

    def copy(self) -> KalahPosition:
        return KalahPosition(self.game, self.board[:], self.turn)

    def parse_move(self, text: str) -> Move:
        pits = self.game.pits
        n = parse_number(text.strip())
        if n is None or not 1 <= n <= pits:
            raise IllegalMoveError(f"illegal move {quote(text)}: expected a pit number 1-{pits}")
        if n not in self.legal_moves():
            why = "the game is over" if self._over() else f"pit {n} is empty"
            raise IllegalMoveError(f"illegal move {quote(text)}: {why}")
        return n

    def move_text(self, move: Move) -> str:
        return str(move)

    def to_text(self) -> str:
        p = self.game.pits
        south = ",".join(map(str, self.board[:p + 1]))
        north = ",".join(map(str, self.board[p + 1:]))
        return f"{south}/{north} {self.turn + 1}"

    def render(self) -> str:
        b, p = self.board, self.game.pits
        pit_row = "".join(f"{c:4d}" for c in reversed(b[p + 1:2 * p + 1]))
        numbers_north = "".join(f"{i:4d}" for i in range(p, 0, -1))
        numbers_south = "".join(f"{i:4d}" for i in range(1, p + 1))
        south_row = "".join(f"{c:4d}" for c in b[:p])
        names = self.game.players
        width = 4 * p
        lines = [
            f"      {numbers_north}      north's pits",
            f"      {pit_row}",
            f"{b[2 * p + 1]:4d}  {' ' * width}  {b[p]:<4d}",
            f"      {south_row}",
            f"      {numbers_south}      south's pits",
            f"stores: north {b[2 * p + 1]} (left), south {b[p]} (right); {names[self.turn]} to move",
        ]
        return "\n".join(lines)


def _best_capture(mine: list[int], theirs: list[int], p: int, empty_capture: bool) -> int:
    """Largest capture one move of ``mine`` makes without sowing past its store.

    ``theirs`` is indexed from its owner's left, so the pit opposite own pit ``i``
    is ``theirs[p - 1 - i]``."""
    best = 0
    for i, c in enumerate(mine):
        last = i + c
        if c and last < p and mine[last] == 0:
            gain = theirs[p - 1 - last]
            if gain or empty_capture:
                best = max(best, gain + 1)
    return best


def solve_margin(pos: KalahPosition) -> int:
    """The final store difference for the side to move with perfect play by both.

    An exact alpha-beta over the whole game tree with a transposition table.
    What remains to be won depends only on the pits and the side to move, not on
    the stores, so the table is keyed on that. Feasible in Python for the small
    games (Kalah(3,3), (4,2), (6,1), ...); leaves ``pos`` as it found it.
    """
    g = pos.game
    p, stride, table = g.pits, g.stride, g.slot_keys
    s0, s1 = p * stride, (2 * p + 1) * stride
    tt: dict[int, tuple[int, int]] = {}

    def stores(b: list[int], turn: int) -> int:
        return b[p] - b[2 * p + 1] if turn == 0 else b[2 * p + 1] - b[p]

    def gain(alpha: int, beta: int) -> int:
        # Best future (own store - opponent's store) change for the side to move.
        b = pos.board
        key = pos.key ^ table[s0 + b[p]] ^ table[s1 + b[2 * p + 1]]
        lo, hi = tt.get(key, (-g.total, g.total))
        if lo >= beta:
            return lo
        if hi <= alpha or lo == hi:
            return hi
        alpha0, beta0 = max(alpha, lo), min(beta, hi)
        alpha, beta = alpha0, beta0
        moves = pos.legal_moves()
        if not moves:
            return pos.margin() - stores(b, pos.turn)
        moves.sort(key=pos.move_score, reverse=True)
        us = pos.turn
        before = stores(b, us)
        best = -g.total - 1
        for m in moves:
            pos.push(m)
            d = stores(pos.board, us) - before
            if pos.turn == us:
                v = d + gain(alpha - d, beta - d)
            else:
                v = d - gain(d - beta, d - alpha)
            pos.pop()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if best <= alpha0:
            hi = min(hi, best)
        elif best >= beta0:
            lo = max(lo, best)
        else:
            lo = hi = best
        tt[key] = (lo, hi)
        return best

    return stores(pos.board, pos.turn) + gain(-g.total - 1, g.total + 1)
