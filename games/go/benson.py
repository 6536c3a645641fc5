"""Unconditional life and territory: Benson's algorithm and a sound territory extension.

Benson (1976): for a colour c, let X be its blocks and R its enclosed regions (the
connected sets of points that are not c's stones: empty points and the opponent's
stones). A region is *vital* to a block when every empty point of the region is a
liberty of that block. Repeat until nothing changes: remove from X every block
with fewer than two vital regions in R, then remove from R every region that
borders a block no longer in X. The blocks left are alive even if c passes every
turn: the opponent can never fill both of a block's vital regions (the last stone
in each would be suicide).

Territory, as MIGOS extends Benson (van der Werf 2002): the points of c's regions
that no opponent group can hold at the end. The version here is the simple one
that is sound without reading: a region left in R (so bordered by alive blocks
only) every point of which, stone or empty, touches one of c's alive blocks. An
opponent eye would need a point touching none of them, so no opponent group
there can live or make seki: c can fill any of its liberties with a stone that
joins an alive block (never captured, never a ko) and take it. Regions with an
inner point are left uncounted, though many of them are c's too.

Plain lists and ints; the board is :mod:`games.go.board`'s bordered array.
"""

from __future__ import annotations

# The board's cell values (games.go.board's, which imports this module).
EMPTY, BLACK, WHITE, EDGE = 0, 1, 2, 3

__all__ = ["unconditional", "safe_counts"]


def _colour(board: list[int], points: list[int], stride: int, colour: int,
            alive: list[int], owner: list[int]) -> None:
    """Mark ``colour``'s unconditionally alive stones in ``alive`` and its
    unconditional territory in ``owner`` (both indexed by board cell)."""
    dirs = (1, -1, stride, -stride)
    size = len(board)
    block = [-1] * size
    nblocks = 0
    for p in points:
        if board[p] == colour and block[p] < 0:
            block[p] = nblocks
            stack = [p]
            while stack:
                x = stack.pop()
                for d in dirs:
                    y = x + d
                    if board[y] == colour and block[y] < 0:
                        block[y] = nblocks
                        stack.append(y)
            nblocks += 1
    if nblocks == 0:
        return
    # Regions: their points, the blocks they border, the blocks they are vital to,
    # and whether each of their points touches a block of the colour.
    region = [-1] * size
    reg_points: list[list[int]] = []
    reg_border: list[set[int]] = []
    reg_vital: list[set[int]] = []
    reg_touching: list[bool] = []
    for p in points:
        if board[p] == colour or region[p] >= 0:
            continue
        rid = len(reg_points)
        region[p] = rid
        pts = [p]
        border: set[int] = set()
        vital: set[int] | None = None
        touching = True
        i = 0
        while i < len(pts):
            x = pts[i]
            i += 1
            near: set[int] = set()
            for d in dirs:
                y = x + d
                b = board[y]
                if b == colour:
                    near.add(block[y])
                elif b != EDGE and region[y] < 0:
                    region[y] = rid
                    pts.append(y)
            border |= near
            if not near:
                touching = False
            if board[x] == EMPTY:
                vital = near if vital is None else vital & near
        reg_points.append(pts)
        reg_border.append(border)
        reg_vital.append(vital or set())
        reg_touching.append(touching)
    in_x = [True] * nblocks
    in_r = [True] * len(reg_points)
    changed = True
    while changed:
        changed = False
        vital_count = [0] * nblocks
        for r in range(len(reg_points)):
            if in_r[r]:
                for b in reg_vital[r]:
                    vital_count[b] += 1
        for b in range(nblocks):
            if in_x[b] and vital_count[b] < 2:
                in_x[b] = False
                changed = True
        for r in range(len(reg_points)):
            if in_r[r] and not all(in_x[b] for b in reg_border[r]):
                in_r[r] = False
                changed = True
    for p in points:
        if board[p] == colour and in_x[block[p]]:
            alive[p] = colour
    for r in range(len(reg_points)):
        # A region left in R borders alive blocks only (and at least one: it was
        # vital to some block that kept two vital regions).
        if in_r[r] and reg_touching[r] and reg_border[r]:
            for x in reg_points[r]:
                owner[x] = colour


def unconditional(board: list[int], points: list[int], stride: int) -> tuple[list[int], list[int]]:
    """``(alive, owner)`` over the board's cells: ``alive[p]`` is the colour of an
    unconditionally alive stone on ``p`` (0 otherwise); ``owner[p]`` the colour whose
    unconditional territory ``p`` is (0 for none; alive stones are not territory)."""
    alive = [0] * len(board)
    owner = [0] * len(board)
    _colour(board, points, stride, BLACK, alive, owner)
    _colour(board, points, stride, WHITE, alive, owner)
    return alive, owner


def safe_counts(board: list[int], points: list[int], stride: int) -> tuple[int, int]:
    """Black's and White's safe points: unconditionally alive stones plus
    unconditional territory. Each side ends with at least its count under best play."""
    alive, owner = unconditional(board, points, stride)
    black = white = 0
    for p in points:
        c = alive[p] or owner[p]
        if c == BLACK:
            black += 1
        elif c == WHITE:
            white += 1
    return black, white
