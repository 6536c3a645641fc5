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
    # Regions, each with a run of ``border`` (the blocks it borders, from
    # ``border_start[r]``) and of ``vital`` (the blocks it is vital to), and whether
    # each of its points touches a block of the colour. Flat lists of ints rather
    # than sets: this runs at every node of the solver and of the evaluation.
    region = [-1] * size
    border: list[int] = []
    border_start = [0]
    vital: list[int] = []
    vital_start = [0]
    touching: list[bool] = []
    # Per block: the last region that it borders, the last point next to it, and
    # how many of the region's empty points it is next to (vital: all of them).
    in_region = [-1] * nblocks
    near_point = [-1] * nblocks
    hits = [0] * nblocks
    nregions = 0
    for p in points:
        if board[p] == colour or region[p] >= 0:
            continue
        rid = nregions
        nregions += 1
        region[p] = rid
        stack = [p]
        empties = 0
        all_touch = True
        first = len(border)
        while stack:
            x = stack.pop()
            empty = board[x] == EMPTY
            empties += empty
            touches = False
            for d in dirs:
                y = x + d
                b = board[y]
                if b == colour:
                    touches = True
                    k = block[y]
                    if in_region[k] != rid:
                        in_region[k] = rid
                        hits[k] = 0
                        border.append(k)
                    if empty and near_point[k] != x:
                        near_point[k] = x
                        hits[k] += 1
                elif b != EDGE and region[y] < 0:
                    region[y] = rid
                    stack.append(y)
            if not touches:
                all_touch = False
        if empties:
            for i in range(first, len(border)):
                if hits[border[i]] == empties:
                    vital.append(border[i])
        border_start.append(len(border))
        vital_start.append(len(vital))
        touching.append(all_touch)
    in_x = [True] * nblocks
    in_r = [True] * nregions
    changed = True
    while changed:
        changed = False
        vital_count = [0] * nblocks
        for r in range(nregions):
            if in_r[r]:
                for i in range(vital_start[r], vital_start[r + 1]):
                    vital_count[vital[i]] += 1
        for k in range(nblocks):
            if in_x[k] and vital_count[k] < 2:
                in_x[k] = False
                changed = True
        for r in range(nregions):
            if in_r[r]:
                for i in range(border_start[r], border_start[r + 1]):
                    if not in_x[border[i]]:
                        in_r[r] = False
                        changed = True
                        break
    for p in points:
        if board[p] == colour:
            if in_x[block[p]]:
                alive[p] = colour
        else:
            # A region left in R borders alive blocks only (and at least one: it was
            # vital to some block that kept two vital regions).
            r = region[p]
            if in_r[r] and touching[r] and border_start[r + 1] > border_start[r]:
                owner[p] = colour


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
