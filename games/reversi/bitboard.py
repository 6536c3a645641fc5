"""Reversi's bitboard primitives: the moves of a side and the discs a move flips.

Shared by the rules (:mod:`games.reversi`) and the endgame solver
(:mod:`games.reversi.endgame`). Bit ``i`` is square ``i`` (row-major from ``a1``).

In the compiled build (``bitboard.pxd``) a bitboard is a C ``unsigned long long``:
bit 63 is a real square, shifts drop bits off the top by themselves, and ``~x``
needs no mask; the ``& FULL`` masks below are what the pure build needs for the
same results.
"""

from __future__ import annotations

import cython  # type: ignore[import-untyped]

PASS = 64
FULL = (1 << 64) - 1
#: Columns b-g: a horizontal or diagonal line of flipped discs never touches
#: columns a or h, and masking them also stops shifts wrapping between rows.
_INNER = 0x7E7E7E7E7E7E7E7E
_MASK = FULL  # FULL as a C constant in the compiled build
# The SWAR popcount's masks (C constants in the compiled build).
_M1, _M2, _M4, _H01 = 0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F, 0x0101010101010101

#: One (row, column) step per line direction; its opposite is the other half of the line.
_DIRECTIONS = ((0, 1), (1, 0), (1, -1), (1, 1))


def _rays(sign: int) -> list[int]:
    """Per square ``sq``, its four rays (as masks, square itself excluded; 0 where the
    board ends) at ``4 * sq + k``: towards higher square numbers for ``sign`` 1, towards
    lower ones for -1."""
    out: list[int] = []
    for sq in range(64):
        r0, c0 = divmod(sq, 8)
        for dr, dc in _DIRECTIONS:
            ray, r, c = 0, r0 + sign * dr, c0 + sign * dc
            while 0 <= r < 8 and 0 <= c < 8:
                ray |= 1 << (8 * r + c)
                r, c = r + sign * dr, c + sign * dc
            out.append(ray)
    return out


_RAYS_UP = _rays(1)
_RAYS_DOWN = _rays(-1)

_DEBRUIJN = 0x03F79D71B4CB0A89
_DEBRUIJN_INDEX = [0] * 64
for _sq in range(64):
    _DEBRUIJN_INDEX[((1 << _sq) * _DEBRUIJN & FULL) >> 58] = _sq


def popcount(x: int) -> int:
    """Number of discs in ``x``.

    >>> popcount(1 << 63 | 5)
    3
    """
    if cython.compiled:
        # SWAR in 64-bit C arithmetic (the multiplication wraps, as it must).
        x = x - (x >> 1 & _M1)
        x = (x & _M2) + (x >> 2 & _M2)
        x = (x + (x >> 4)) & _M4
        return (x * _H01 & _MASK) >> 56
    return x.bit_count()


def _high_bit(x: int) -> int:
    """The highest set bit of ``x`` (``x`` not 0)."""
    if cython.compiled:
        # Smear the highest bit downwards, then keep it alone.
        x |= x >> 1
        x |= x >> 2
        x |= x >> 4
        x |= x >> 8
        x |= x >> 16
        x |= x >> 32
        return x ^ (x >> 1)
    return 1 << (x.bit_length() - 1)


def bit_index(b: int) -> int:
    """The square of the single disc ``b`` (a power of two).

    >>> bit_index(1 << 63)
    63
    """
    if cython.compiled:
        # De Bruijn multiplication: the top six bits of the product name the bit.
        return _DEBRUIJN_INDEX[(b * _DEBRUIJN & _MASK) >> 58]
    return b.bit_length() - 1


def _line_moves(own: int, pro: int, s: int) -> int:
    """Empty-or-not squares reached by stepping ``s`` squares (both ways) over a run of
    ``pro`` discs that starts next to an ``own`` disc."""
    s2 = s + s
    # Kogge-Stone: extend runs of opponent discs by 1, 2 and 2 more squares
    # (a flanked run is at most 6 long), then step past the run.
    g = pro & (own << s)
    g |= pro & (g << s)
    p = pro & (pro << s)
    g |= p & (g << s2)
    g |= p & (g << s2)
    moves = g << s
    g = pro & (own >> s)
    g |= pro & (g >> s)
    p = pro & (pro >> s)
    g |= p & (g >> s2)
    g |= p & (g >> s2)
    return moves | g >> s


def mobility(own: int, opp: int) -> int:
    """Mask of the squares where the owner of ``own`` may play.

    >>> bin(mobility(1 << 28 | 1 << 35, 1 << 27 | 1 << 36)).count("1")
    4
    """
    inner = opp & _INNER
    # Shifts by 1, 8, 7, 9: east-west, north-south and the two diagonals.
    moves = (_line_moves(own, inner, 1) | _line_moves(own, opp, 8)
             | _line_moves(own, inner, 7) | _line_moves(own, inner, 9))
    return moves & ~(own | opp) & _MASK


def flips(own: int, opp: int, sq: int) -> int:
    """Mask of the opponent discs that a disc played on ``sq`` turns over (none off the board)."""
    f = 0
    if not 0 <= sq < 64:
        return f
    not_opp = ~opp & _MASK
    for i in range(4 * sq, 4 * sq + 4):
        ray = _RAYS_UP[i]
        x = ray & not_opp
        b = x & -x  # the first square along the ray that is not the opponent's
        if b & own:
            f |= ray & (b - 1)
        ray = _RAYS_DOWN[i]
        x = ray & not_opp
        if x:
            b = _high_bit(x)
            if b & own:
                f |= ray & -(b << 1)
    return f
