"""The 8×8 draughts board shared by English checkers and Russian draughts.

The 32 playing squares live in a 35-bit int with a "ghost" bit after every two
rows (bits 8, 17, 26), so that every diagonal step is the same shift on every
row: ``+4`` down-left, ``+5`` down-right, ``-4`` up-right, ``-5`` up-left, and a
step off the board lands on a ghost bit or outside the 35 bits.

"Down" is towards rank 1. The top row is rank 8, where Black stands in both
games. PDN square ``s`` (1..32, square 1 = b8, square 4 = h8, square 29 = a1,
square 32 = g1, as in standard checkers diagrams) has bit index
``4*r + c + r//2`` with ``r, c = divmod(s - 1, 4)``.

>>> INDEX[1], INDEX[32], SQUARE[INDEX[15]]
(0, 34, 15)
>>> algebraic(INDEX[29]), algebraic(INDEX[4])
('a1', 'h8')
"""

from __future__ import annotations

#: Move layout (``games.draughts.position``): the man is crowned by this move, and
#: the mask of the captured pieces starts at this bit.
PROMO = 1 << 12
CAP_SHIFT = 13

#: Diagonal steps: up-left, up-right, down-left, down-right.
DIRS = (-5, -4, 4, 5)
UP_DIRS = (0, 1)
DOWN_DIRS = (2, 3)
ALL_DIRS = (0, 1, 2, 3)

#: PDN square (1..32) -> bit index; entry 0 unused.
INDEX = [0] * 33
#: Bit index -> PDN square (0 for ghost bits), over 64 entries.
SQUARE = [0] * 64
ROW = [-1] * 64     # 0 = rank 8 (top) .. 7 = rank 1
FILE = [-1] * 64    # 0 = file a .. 7 = file h
VALID = 0
for _s in range(1, 33):
    _r, _c = divmod(_s - 1, 4)
    _i = 4 * _r + _c + _r // 2
    INDEX[_s], SQUARE[_i] = _i, _s
    ROW[_i], FILE[_i] = _r, 2 * _c + (1 if _r % 2 == 0 else 0)
    VALID |= 1 << _i

#: ``(row, file)`` -> bit index, for the dark squares.
AT = {(ROW[i], FILE[i]): i for i in range(64) if VALID >> i & 1}
#: Bit mask of each row, ``ROW_MASK[0]`` being rank 8.
ROW_MASK = [sum(1 << i for i in range(64) if ROW[i] == r) for r in range(8)]

#: ``STEP[i][d]``: the neighbour of ``i`` in direction ``d`` (index into DIRS), or -1.
STEP: list[tuple[int, ...]] = [()] * 64
#: ``RAY[i][d]``: the squares from ``i`` (exclusive) to the edge in direction ``d``.
RAY: list[tuple[tuple[int, ...], ...]] = [()] * 64
#: ``JUMP[i]``: ``(d, mid_bit, land_bit, land_index)`` for every short jump from ``i``.
JUMP: list[tuple[tuple[int, int, int, int], ...]] = [()] * 64


def _step(i: int, d: int) -> int:
    j = i + DIRS[d]
    return j if 0 <= j < 64 and VALID >> j & 1 else -1


for _i in range(64):
    if not VALID >> _i & 1:
        continue
    STEP[_i] = tuple(_step(_i, d) for d in ALL_DIRS)
    _rays = []
    for _d in ALL_DIRS:
        _ray, _j = [], _step(_i, _d)
        while _j >= 0:
            _ray.append(_j)
            _j = _step(_j, _d)
        _rays.append(tuple(_ray))
    RAY[_i] = tuple(_rays)
    JUMP[_i] = tuple((_d, 1 << r[0], 1 << r[1], r[1]) for _d, r in enumerate(_rays) if len(r) >= 2)


#: The same tables in fixed-size form, for the typed move generators: ``BIT[i]`` is
#: ``1 << i``; ``JUMP_OVER[i][d]``/``JUMP_TO[i][d]`` the jumped square's bit and the
#: landing square's index of the short jump from ``i`` in direction ``d`` (0 and -1
#: where there is none); ``RAYS[i][d]`` the ray ``RAY[i][d]`` padded with -1 to 8 entries.
BIT = [1 << i for i in range(64)]
JUMP_OVER = [[0] * 4 for _ in range(64)]
JUMP_TO = [[-1] * 4 for _ in range(64)]
RAYS = [[[-1] * 8 for _ in ALL_DIRS] for _ in range(64)]
for _i in range(64):
    for _d, _mid, _land, _li in JUMP[_i]:
        JUMP_OVER[_i][_d], JUMP_TO[_i][_d] = _mid, _li
    for _d, _line in enumerate(RAY[_i]):
        RAYS[_i][_d][:len(_line)] = _line


def algebraic(i: int) -> str:
    """Algebraic name (``a1`` .. ``h8``) of bit index ``i``; a1 is dark, bottom left."""
    return "abcdefgh"[FILE[i]] + str(8 - ROW[i])


ALGEBRAIC_INDEX = {algebraic(i): i for i in range(64) if VALID >> i & 1}
