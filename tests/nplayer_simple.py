"""Deliberately simple Rolit and N-player m,n,k-game, the independent check of the fast ones.

They share nothing with :mod:`games.rolit` and :mod:`games.mnk_multi` but the
position text they read: the board is a list of rows of characters, moves are
(row, column) pairs found by walking the board square by square, and a move
makes a new board. Slow: for perft at small depths.
"""

from __future__ import annotations

DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]

# -- Rolit ---------------------------------------------------------------------

ROLIT_COLOURS = {2: "rg", 3: "ryg", 4: "rygb"}


def rolit_board(text: str) -> tuple[list[list[str]], str]:
    """(rows from a1's row down, each a list of 8 characters; colour letter to move)."""
    squares, side = text.split()
    return [list(squares[8 * r:8 * r + 8]) for r in range(8)], side


def rolit_flanked(board: list[list[str]], r: int, c: int, me: str) -> list[tuple[int, int]]:
    """The balls a ball of ``me`` placed on (r, c) would turn."""
    turned = []
    for dr, dc in DIRECTIONS:
        line = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and board[rr][cc] not in ("-", me):
            line.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and board[rr][cc] == me:
            turned += line
    return turned


def rolit_moves(board: list[list[str]], me: str) -> list[tuple[int, int]]:
    empty = [(r, c) for r in range(8) for c in range(8) if board[r][c] == "-"]
    captures = [(r, c) for r, c in empty if rolit_flanked(board, r, c, me)]
    if captures:
        return captures
    return [(r, c) for r, c in empty
            if any(0 <= r + dr < 8 and 0 <= c + dc < 8 and board[r + dr][c + dc] != "-" for dr, dc in DIRECTIONS)]


def rolit_play(board: list[list[str]], r: int, c: int, me: str) -> list[list[str]]:
    new = [row[:] for row in board]
    for rr, cc in rolit_flanked(board, r, c, me) + [(r, c)]:
        new[rr][cc] = me
    return new


def rolit_perft(text: str, players: int, depth: int) -> int:
    board, side = rolit_board(text)
    order = ROLIT_COLOURS[players]

    def walk(board: list[list[str]], turn: int, depth: int) -> int:
        me = order[turn]
        moves = rolit_moves(board, me)
        if depth == 1:
            return len(moves)
        total = 0
        for r, c in moves:
            total += walk(rolit_play(board, r, c, me), (turn + 1) % players, depth - 1)
        return total

    return walk(board, order.index(side), depth) if depth else 1


# -- the N-player m,n,k-game --------------------------------------------------

MNK_STONES = "xo+*"


def mnk_board(text: str, m: int) -> tuple[list[list[str]], str]:
    """(rows from the top, each a list of m characters; stone to move)."""
    rows, side = text.split()
    board = []
    for row in rows.split("/"):
        cells: list[str] = []
        number = ""
        for ch in row:
            if ch.isdigit():
                number += ch
                continue
            if number:
                cells += ["."] * int(number)
                number = ""
            cells.append(ch)
        if number:
            cells += ["."] * int(number)
        assert len(cells) == m
        board.append(cells)
    return board, side


def mnk_has_line(board: list[list[str]], me: str, k: int) -> bool:
    """Whether ``me`` has k stones in a row anywhere on the board."""
    return any(board[r][c] == me and mnk_line_through(board, r, c, k)
               for r in range(len(board)) for c in range(len(board[0])))


def mnk_line_through(board: list[list[str]], r: int, c: int, k: int) -> bool:
    """Whether the stone on (r, c) is part of k in a row of its colour."""
    n, m, me = len(board), len(board[0]), board[r][c]
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < n and 0 <= cc < m and board[rr][cc] == me:
                run += 1
                rr, cc = rr + sign * dr, cc + sign * dc
        if run >= k:
            return True
    return False


def mnk_perft(text: str, players: int, m: int, k: int, depth: int) -> int:
    board, side = mnk_board(text, m)
    order = MNK_STONES[:players]
    if depth == 0:
        return 1
    if any(mnk_has_line(board, s, k) for s in order):
        return 0

    def walk(board: list[list[str]], turn: int, depth: int) -> int:
        empty = [(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch == "."]
        if depth == 1:
            return len(empty)
        total = 0
        for r, c in empty:
            new = [line[:] for line in board]
            new[r][c] = order[turn]
            if not mnk_line_through(new, r, c, k):
                total += walk(new, (turn + 1) % players, depth - 1)
        return total

    return walk(board, order.index(side), depth)
