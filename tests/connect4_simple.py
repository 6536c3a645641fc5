"""A deliberately simple Connect Four solver, the independent check of the fast one.

It shares nothing with :mod:`games.connect4`: the board is a list of columns of
player numbers, a win is found by walking out from the last disc, and the search
is a plain negamax with alpha-beta over the full score window, columns from the
centre out, with a dictionary of upper bounds (a position's score never exceeds
what it was once proved not to exceed). Slow: for positions that end soon.

Scores follow Pascal Pons' scale on 7×6: a win with the winner's ``n``-th disc
scores ``22 - n`` for the winner, a draw 0.
"""

from __future__ import annotations

COLUMNS, ROWS = 7, 6
CELLS = COLUMNS * ROWS
ORDER = (3, 2, 4, 1, 5, 0, 6)


class TooSlow(Exception):
    """The search passed its node budget."""


class SimpleBoard:
    def __init__(self, played: str):
        self.grid = [[] for _ in range(COLUMNS)]  # bottom first; 1 or 2 per disc
        self.moves = 0
        self.table: dict[str, int] = {}
        self.nodes = 0
        self.max_nodes = 0
        for ch in played:
            col = int(ch) - 1
            if self.wins(col):
                raise ValueError(f"{played}: the game ended before its last move")
            self.drop(col)

    def player(self) -> int:
        return 1 + self.moves % 2

    def drop(self, col: int) -> None:
        self.grid[col].append(self.player())
        self.moves += 1

    def undo(self, col: int) -> None:
        self.grid[col].pop()
        self.moves -= 1

    def wins(self, col: int) -> bool:
        """True if the side to move makes four by dropping into ``col``."""
        row, me = len(self.grid[col]), self.player()
        if row == ROWS:
            return False
        for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                c, r = col + sign * dc, row + sign * dr
                while 0 <= c < COLUMNS and 0 <= r < len(self.grid[c]) and self.grid[c][r] == me:
                    count += 1
                    c, r = c + sign * dc, r + sign * dr
            if count >= 4:
                return True
        return False

    def key(self) -> str:
        return "|".join("".join(map(str, column)) for column in self.grid)

    def negamax(self, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes == self.max_nodes:
            raise TooSlow
        if self.moves == CELLS:
            return 0
        for col in range(COLUMNS):
            if self.wins(col):
                return (CELLS + 1 - self.moves) // 2
        best = (CELLS - 1 - self.moves) // 2  # no win with this disc: at best with the next own one
        best = min(best, self.table.get(self.key(), best))
        if beta > best:
            beta = best
            if alpha >= beta:
                return beta
        for col in ORDER:
            if len(self.grid[col]) < ROWS:
                self.drop(col)
                value = -self.negamax(-beta, -alpha)
                self.undo(col)
                if value >= beta:
                    return value
                alpha = max(alpha, value)
        self.table[self.key()] = alpha
        return alpha


def simple_score(played: str, max_nodes: int = 0) -> tuple[int, int]:
    """(Pons score for the side to move, nodes searched) of the position reached by
    the columns ``played`` (1-7) from the start; raises :class:`TooSlow` past
    ``max_nodes`` nodes (0: no limit)."""
    board = SimpleBoard(played)
    board.max_nodes = max_nodes
    value = board.negamax(-CELLS, CELLS)
    return value, board.nodes
