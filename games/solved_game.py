"""The whole-game solver: every position of a small game, solved on first use.

Tic-tac-toe has 5,478 positions reachable from the start and a Nim game as many as
its heap sizes allow (``prod(h + 1)`` per side to move): small enough that the whole
game is solved on first use, by a memoised search over the game's own rules, in
well under a second. Nothing is shipped as a file: the table costs less to build
than to read and check, and it can never disagree with the rules. Boards larger than
``MAX_CELLS`` cells (4×4 already has about 10 million positions) and Nim games with
more than ``MAX_NIM_POSITIONS`` positions are left to the search.

Values are ``(wdl, plies)`` for the side to move: +1/0/-1 and the number of plies to
the end with best play (the winner hurries, the loser delays).

Games decide themselves whether they are small enough (``exact`` of
:mod:`games.mnk` and :mod:`games.nim`).
"""

from __future__ import annotations

import sys

from engine.game import WIN, Exact, Game

MAX_CELLS = 12
MAX_NIM_POSITIONS = 200_000


def _rank(wdl: int, plies: int) -> int:
    return 0 if wdl == 0 else (WIN - plies if wdl > 0 else -WIN + plies)


class SolvedGame(Exact):
    """The exact value of every position of a small game, memoised by Zobrist key.

    :meth:`prepare` solves the game from its start under a control that may
    interrupt it; only finished positions are memoised, so the next call resumes.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.values: dict[int, tuple[int, int]] = {}
        self._control = None
        self._count = 0

    def prepare(self, control) -> None:
        """Solve the whole game; raises :class:`engine.control.Stopped` when ``control``
        expires first."""
        self._control = control
        try:
            self.value(self.game.new_position())
        finally:
            self._control = None

    def value(self, pos) -> tuple[int, int]:
        """``(wdl, plies)`` of ``pos`` (solved now if it was not reached before)."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 10_000))
        try:
            return self._solve(pos)
        finally:
            sys.setrecursionlimit(limit)

    def _solve(self, pos) -> tuple[int, int]:
        hit = self.values.get(pos.key)
        if hit is not None:
            return hit
        self._count += 1
        if self._control is not None and not self._count & 1023:
            self._control.check()
        result = pos.outcome()
        moves = pos.legal_moves() if result is None else []
        if result is not None or not moves:
            out = (pos.no_moves_value() if result is None else result, 0)
        else:
            best, out = None, (0, 0)
            turn = pos.turn
            for m in moves:
                pos.push(m)
                w, p = self._solve(pos)
                if pos.turn != turn:
                    w = -w
                pos.pop()
                r = _rank(w, p + 1)
                if best is None or r > best:
                    best, out = r, (w, p + 1 if w else 0)
        self.values[pos.key] = out
        return out

    def score(self, pos) -> int:
        return _rank(*self.value(pos))
