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

from typing import ClassVar

from pydantic import BaseModel, Field

from engine.game import ExactConfig, Game, InputSet, InvalidPositionError
from engine.position import Position
from games.kalah.board import KalahPosition, flat_table, nn_inputs_of
from games.zobrist import keys

#: Seeds of the table built in memory when neither a file nor a shipped table covers the
#: rules (seeds left in the pits; Kalah(6, any seeds) ships with 14).
BUILD_SEEDS = 8

class KalahParams(BaseModel):
    pits: int = Field(6, ge=3, le=8, description="pits on each side")
    seeds: int = Field(4, ge=1, le=6, description="seeds in each pit at the start")
    empty_capture: bool = Field(False, description="a last seed sown into an own empty pit is captured even "
                                                   "when the opposite pit is empty")


class KalahGame(Game):
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
        self.params: KalahParams = params or KalahParams()
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
        self.key_array = flat_table("Q", self.slot_keys)
        self.turn_key = table[-1]
        # The network's inputs: one-hot counts of each pit and store (nn_inputs_of).
        inputs, self.nn_index = nn_inputs_of(p, self.total)
        self.inputs: InputSet | None = InputSet(f"kalah-{p}x{self.params.seeds}", inputs, self.size)

    def exact(self, config: ExactConfig):
        """The endgame table (:class:`games.kalah.retro.KalahExact`): a file of
        ``TablePath``, the shipped one, or one built in memory."""
        from games.kalah.retro import KalahExact  # numpy, only when a go needs the table

        return KalahExact(self, config.table_directory, BUILD_SEEDS, config.report)

    def score_text(self, pos: Position) -> str:
        """The seeds each side ends with (its store and the seeds left on its side):
        ``south 30, north 18``."""
        assert isinstance(pos, KalahPosition)
        board, p = pos.board, self.pits
        return f"{self.players[0]} {sum(board[:p + 1])}, {self.players[1]} {sum(board[p + 1:])}"

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
