"""A deliberately simple Go, the independent check of :mod:`games.go`.

It shares nothing with the game: the board is a dict from (column, row) to
``"x"``/``"o"``, every move copies it, groups and their liberties are found by a
flood fill over sets, and the history is the list of every board so far (as
frozensets). Rules as the game's: suicide forbidden, positional superko (a play
may not make any earlier board) or simple ko (a play may not make the board
that stood before the opponent's last move), two passes end the game, area
scoring. Slow, and plain on purpose.
"""

from __future__ import annotations

LETTERS = "ABCDEFGHJKLMNOPQRST"


class SimpleGo:
    def __init__(self, width: int, height: int, superko: bool = True):
        self.width, self.height, self.superko = width, height, superko
        self.board: dict[tuple[int, int], str] = {}
        self.turn = "x"
        self.passes = 0
        self.history = [frozenset()]
        self.seen = {frozenset()}

    def neighbours(self, pt):
        c, r = pt
        for n in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
            if 0 <= n[0] < self.width and 0 <= n[1] < self.height:
                yield n

    def group(self, board, pt):
        """The stones of the group on ``pt`` and its liberties."""
        colour = board[pt]
        stones, libs, todo = {pt}, set(), [pt]
        while todo:
            for n in self.neighbours(todo.pop()):
                if n not in board:
                    libs.add(n)
                elif board[n] == colour and n not in stones:
                    stones.add(n)
                    todo.append(n)
        return stones, libs

    def after(self, pt):
        """The board after the side to move plays ``pt``, and why not if it is illegal."""
        if pt in self.board:
            return None, "occupied"
        other = "o" if self.turn == "x" else "x"
        board = dict(self.board)
        board[pt] = self.turn
        for n in self.neighbours(pt):
            if board.get(n) == other:
                stones, libs = self.group(board, n)
                if not libs:
                    for s in stones:
                        del board[s]
        if not self.group(board, pt)[1]:
            return None, "suicide"
        snapshot = frozenset(board.items())
        if len(self.history) >= 2 and snapshot == self.history[-2]:
            return None, "ko"
        if self.superko and snapshot in self.seen:
            return None, "superko"
        return board, ""

    def points(self):
        return [(c, r) for r in range(self.height) for c in range(self.width)]

    @staticmethod
    def name(pt) -> str:
        return LETTERS[pt[0]] + str(pt[1] + 1)

    def legal(self) -> set[str]:
        if self.passes >= 2:
            return set()
        return {self.name(pt) for pt in self.points() if self.after(pt)[0] is not None} | {"pass"}

    def play(self, text: str) -> None:
        if text == "pass":
            self.passes += 1
        else:
            pt = (LETTERS.index(text[0]), int(text[1:]) - 1)
            board, why = self.after(pt)
            assert board is not None, why
            self.board = board
            self.passes = 0
        self.turn = "o" if self.turn == "x" else "x"
        snapshot = frozenset(self.board.items())
        self.history.append(snapshot)
        self.seen.add(snapshot)

    def playout_plays(self) -> set[str]:
        """The light playouts' moves: the legal plays but those filling one of the
        mover's eyes (every neighbour the mover's; fewer than two opponent stones on
        the diagonals, or fewer than one where a diagonal is off the board), else pass."""
        other = "o" if self.turn == "x" else "x"
        plays = set()
        for pt in self.points():
            if self.after(pt)[0] is None:
                continue
            c, r = pt
            if all(self.board.get(n) == self.turn for n in self.neighbours(pt)):
                diagonals = [(c + dc, r + dr) for dc in (1, -1) for dr in (1, -1)]
                on_board = [d for d in diagonals if 0 <= d[0] < self.width and 0 <= d[1] < self.height]
                taken = sum(self.board.get(d) == other for d in on_board)
                if taken < (1 if len(on_board) < 4 else 2):
                    continue
            plays.add(self.name(pt))
        return plays or {"pass"}

    def rows(self) -> list[str]:
        """Rows from the top, as the game's position text writes them."""
        return ["".join(self.board.get((c, r), ".") for c in range(self.width))
                for r in range(self.height - 1, -1, -1)]

    def area(self) -> tuple[int, int]:
        """Black's and White's stones plus the empty regions that reach only their colour."""
        count = {"x": 0, "o": 0}
        for colour in self.board.values():
            count[colour] += 1
        done = set()
        for pt in self.points():
            if pt in self.board or pt in done:
                continue
            region, reach, todo = {pt}, set(), [pt]
            while todo:
                for n in self.neighbours(todo.pop()):
                    if n in self.board:
                        reach.add(self.board[n])
                    elif n not in region:
                        region.add(n)
                        todo.append(n)
            done |= region
            if len(reach) == 1:
                count[reach.pop()] += len(region)
        return count["x"], count["o"]


def legal_colouring(width: int, height: int, colours: list[int]) -> bool:
    """Whether a colouring (0 empty, 1 Black, 2 White per point, row by row from the
    bottom left) has a liberty for every group."""
    game = SimpleGo(width, height)
    game.board = {(i % width, i // width): "xo"[c - 1] for i, c in enumerate(colours) if c}
    return all(game.group(game.board, pt)[1] for pt in game.board)
