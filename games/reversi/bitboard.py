"""Reversi's bitboard primitives: the moves of a side and the discs a move flips.

Shared by the rules (:mod:`games.reversi`) and the endgame solver
(:mod:`games.reversi.endgame`). Bit ``i`` is square ``i`` (row-major from ``a1``).
"""

from __future__ import annotations

PASS = 64
FULL = (1 << 64) - 1
#: Columns b-g: a horizontal or diagonal line of flipped discs never touches
#: columns a or h, and masking them also stops shifts wrapping between rows.
_INNER = 0x7E7E7E7E7E7E7E7E

#: One (row, column) step per line direction; its opposite is the other half of the line.
_DIRECTIONS = ((0, 1), (1, 0), (1, -1), (1, 1))


def _rays() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Per square, the rays (as masks, square itself excluded) towards higher
    and towards lower square numbers."""
    up: list[tuple[int, ...]] = []
    down: list[tuple[int, ...]] = []
    for sq in range(64):
        r0, c0 = divmod(sq, 8)
        ups: list[int] = []
        downs: list[int] = []
        for dr, dc in _DIRECTIONS:
            for sign, out in ((1, ups), (-1, downs)):
                ray, r, c = 0, r0 + sign * dr, c0 + sign * dc
                while 0 <= r < 8 and 0 <= c < 8:
                    ray |= 1 << (8 * r + c)
                    r, c = r + sign * dr, c + sign * dc
                if ray:
                    out.append(ray)
        up.append(tuple(ups))
        down.append(tuple(downs))
    return tuple(up), tuple(down)


_RAYS_UP, _RAYS_DOWN = _rays()


def mobility(own: int, opp: int) -> int:
    """Mask of the squares where the owner of ``own`` may play.

    >>> bin(mobility(1 << 28 | 1 << 35, 1 << 27 | 1 << 36)).count("1")
    4
    """
    empty = ~(own | opp) & FULL
    inner = opp & _INNER
    moves = 0
    # A left shift by 1, 8, 7, 9 steps east, south, south-west, south-east.
    for s, pro in ((1, inner), (8, opp), (7, inner), (9, inner)):
        s2 = s + s
        # Kogge-Stone: extend runs of opponent discs by 1, 2 and 2 more squares
        # (a flanked run is at most 6 long), then step onto the empty square.
        g = pro & (own << s)
        g |= pro & (g << s)
        p = pro & (pro << s)
        g |= p & (g << s2)
        g |= p & (g << s2)
        moves |= g << s
        g = pro & (own >> s)
        g |= pro & (g >> s)
        p = pro & (pro >> s)
        g |= p & (g >> s2)
        g |= p & (g >> s2)
        moves |= g >> s
    return moves & empty


def flips(own: int, opp: int, sq: int) -> int:
    """Mask of the opponent discs that a disc played on ``sq`` turns over."""
    f = 0
    not_opp = ~opp
    for ray in _RAYS_UP[sq]:
        x = ray & not_opp
        b = x & -x  # the first square along the ray that is not the opponent's
        if b & own:
            f |= ray & (b - 1)
    for ray in _RAYS_DOWN[sq]:
        x = ray & not_opp
        if x:
            b = 1 << (x.bit_length() - 1)
            if b & own:
                f |= ray & -(b << 1)
    return f
