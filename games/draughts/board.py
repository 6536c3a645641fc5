"""The draughts boards: 8×8 (English checkers, Russian and Brazilian draughts) and
10×10 (international draughts).

The 32 playing squares live in a 35-bit int with a "ghost" bit after every two
rows (bits 8, 17, 26), so that every diagonal step is the same shift on every
row: ``+4`` down-left, ``+5`` down-right, ``-4`` up-right, ``-5`` up-left, and a
step off the board lands on a ghost bit or outside the 35 bits.

"Down" is towards rank 1. The top row is rank 8, where Black stands in both
games. PDN square ``s`` (1..32, square 1 = b8, square 4 = h8, square 29 = a1,
square 32 = g1, as in standard checkers diagrams) has bit index
``4*r + c + r//2`` with ``r, c = divmod(s - 1, 4)``. The 10×10 board is the same
layout with five squares a row (``Geometry(10)``: 50 squares in 54 bits, steps
``±5``, ``±6``, square 1 = b10, 46 = a1, as in international draughts diagrams).

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


class Geometry:
    """The tables of a ``size``×``size`` board (8 or 10) in the ghost-bit layout:
    ``size // 2`` squares a row, a ghost bit after every two rows, so that the
    diagonal steps are the shifts ``-(p + 1)``, ``-p``, ``+p``, ``+(p + 1)`` with
    ``p = size // 2`` on every row. Square ``s`` (1 at the top left, numbered row
    by row) has bit index ``p*r + c + r//2`` with ``r, c = divmod(s - 1, p)``; rows
    count from the top, and the top row's squares stand on the even files (b, d, ...).

    ``cap_low`` is the lowest bit index a captured piece can have (an edge square is
    never jumped over): moves keep their capture mask shifted down by it, which lets
    the 10×10 board's masks fit a 64-bit move (see ``games.draughts.position``).
    """

    def __init__(self, size: int):
        p = size // 2
        self.size, self.per_row, self.n_squares = size, p, p * size
        self.dirs = (-p - 1, -p, p, p + 1)
        self.index = [0] * (self.n_squares + 1)
        self.square = [0] * 64
        self.row = [-1] * 64
        self.file = [-1] * 64
        self.valid = 0
        for s in range(1, self.n_squares + 1):
            r, c = divmod(s - 1, p)
            i = p * r + c + r // 2
            self.index[s], self.square[i] = i, s
            self.row[i], self.file[i] = r, 2 * c + (1 if r % 2 == 0 else 0)
            self.valid |= 1 << i
        self.at = {(self.row[i], self.file[i]): i for i in range(64) if self.valid >> i & 1}
        self.row_mask = [sum(1 << i for i in range(64) if self.row[i] == r) for r in range(size)]
        self.step: list[tuple[int, ...]] = [()] * 64
        self.ray: list[tuple[tuple[int, ...], ...]] = [()] * 64
        self.jump: list[tuple[tuple[int, int, int, int], ...]] = [()] * 64
        for i in range(64):
            if not self.valid >> i & 1:
                continue
            self.step[i] = tuple(self._step(i, d) for d in ALL_DIRS)
            rays = []
            for d in ALL_DIRS:
                run, j = [], self._step(i, d)
                while j >= 0:
                    run.append(j)
                    j = self._step(j, d)
                rays.append(tuple(run))
            self.ray[i] = tuple(rays)
            self.jump[i] = tuple((d, 1 << r[0], 1 << r[1], r[1]) for d, r in enumerate(rays) if len(r) >= 2)
        inner = sum(1 << i for i in range(64) if self.valid >> i & 1 and 0 < self.row[i] < size - 1
                    and 0 < self.file[i] < size - 1)
        self.cap_low = (inner & -inner).bit_length() - 1 if size > 8 else 0
        # Fixed-size forms for the typed move generators: BIT[i] is 1 << i;
        # JUMP_OVER[i][d]/JUMP_TO[i][d] the jumped square's bit and the landing
        # square of the short jump from i in direction d (0 and -1 where there is
        # none); RAYS[i][d] the ray padded with -1 to MAX_RAY entries.
        self.jump_over = [[0] * 4 for _ in range(64)]
        self.jump_to = [[-1] * 4 for _ in range(64)]
        self.rays = [[[-1] * MAX_RAY for _ in ALL_DIRS] for _ in range(64)]
        for i in range(64):
            for d, mid, _land, li in self.jump[i]:
                self.jump_over[i][d], self.jump_to[i][d] = mid, li
            for d, line in enumerate(self.ray[i]):
                self.rays[i][d][:len(line)] = line

    def _step(self, i: int, d: int) -> int:
        """The neighbour of ``i`` in direction ``d`` by coordinates, or -1."""
        r, f = self.row[i] + (1 if d >= 2 else -1), self.file[i] + (1 if d in (1, 3) else -1)
        j = self.at.get((r, f), -1)
        # The ghost-bit layout makes every step one shift: the move generators rely on it.
        assert j < 0 or j - i == self.dirs[d]
        return j

    def algebraic(self, i: int) -> str:
        """Algebraic name (``a1`` ...) of bit index ``i``; a1 is dark, bottom left."""
        return "abcdefghij"[self.file[i]] + str(self.size - self.row[i])


#: The longest ray plus one -1 end marker: 9 squares on the 10×10 board's long diagonal.
MAX_RAY = 10
EIGHT = Geometry(8)
TEN = Geometry(10)

#: PDN square (1..32) -> bit index; entry 0 unused.
INDEX = EIGHT.index
#: Bit index -> PDN square (0 for ghost bits), over 64 entries.
SQUARE = EIGHT.square
ROW = EIGHT.row     # 0 = rank 8 (top) .. 7 = rank 1
FILE = EIGHT.file   # 0 = file a .. 7 = file h
VALID = EIGHT.valid

#: ``(row, file)`` -> bit index, for the dark squares.
AT = EIGHT.at
#: Bit mask of each row, ``ROW_MASK[0]`` being rank 8.
ROW_MASK = EIGHT.row_mask

#: ``STEP[i][d]``: the neighbour of ``i`` in direction ``d`` (index into DIRS), or -1.
STEP = EIGHT.step
#: ``RAY[i][d]``: the squares from ``i`` (exclusive) to the edge in direction ``d``.
RAY = EIGHT.ray
#: ``JUMP[i]``: ``(d, mid_bit, land_bit, land_index)`` for every short jump from ``i``.
JUMP = EIGHT.jump

BIT = [1 << i for i in range(64)]
JUMP_OVER = EIGHT.jump_over
JUMP_TO = EIGHT.jump_to


def algebraic(i: int) -> str:
    """Algebraic name (``a1`` .. ``h8``) of bit index ``i``; a1 is dark, bottom left."""
    return EIGHT.algebraic(i)


ALGEBRAIC_INDEX = {algebraic(i): i for i in range(64) if VALID >> i & 1}
