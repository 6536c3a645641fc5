"""Squares, bitboards and attack tables.

Squares are numbered as in python-chess: a1 = 0, b1 = 1, ..., h8 = 63; a bitboard
is a Python int with bit ``sq`` set for each square. Every table here is built
once at import by slow, obviously correct functions that walk the board step by
step; the move generator only indexes them.

Sliding attacks follow python-chess: for each square, a mask of the relevant
occupancy (the ray squares that can block, board edges excluded) and a dict from
every subset of that mask to the attacked squares. Rook attacks are the union of
a rank and a file lookup, bishop attacks one lookup on both diagonals. The dict
values cut each edge-to-edge ray (walked step by step) behind its first blocker.

The compiled build (C types in ``bitboards.pxd``) computes the same attacks
without dicts: each of the eight rays from the square, cut behind its nearest
blocker found by a bit scan; and it scans bits with the C compiler's builtins.
The pure build keeps the dict lookups, its fastest form in Python.
"""

from __future__ import annotations

import cython  # type: ignore[import-untyped]

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(1, 7)
WHITE, BLACK = 0, 1

# Move layout (see games.chess.board): the promotion piece type from bit 12, flags above.
PROMO_SHIFT = 12
CASTLE = 1 << 15
EN_PASSANT = 1 << 16

SQUARE_NAMES = [f + r for r in "12345678" for f in "abcdefgh"]
#: BB_SQUARES[sq]: the bitboard of one square (a table, so that C code never shifts a 32-bit 1).
BB_SQUARES = [1 << sq for sq in range(64)]

BB_ALL = (1 << 64) - 1
BB_FILE_A = 0x0101010101010101
BB_FILE_H = BB_FILE_A << 7
BB_RANK_1 = 0xFF
BB_RANK_3 = BB_RANK_1 << 16
BB_RANK_6 = BB_RANK_1 << 40
BB_RANK_8 = BB_RANK_1 << 56
BB_LIGHT_SQUARES = 0x55AA55AA55AA55AA
BB_DARK_SQUARES = 0xAA55AA55AA55AA55
BB_FILES = [BB_FILE_A << f for f in range(8)]
BB_RANKS = [BB_RANK_1 << (8 * r) for r in range(8)]


def _step_attacks(sq: int, deltas: tuple[tuple[int, int], ...], occupied: int, slide: bool) -> int:
    """Squares reached from ``sq`` by each (file, rank) step, sliding until blocked if ``slide``."""
    f0, r0 = sq & 7, sq >> 3
    bb = 0
    for df, dr in deltas:
        f, r = f0 + df, r0 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            bb |= 1 << (r * 8 + f)
            if not slide or occupied >> (r * 8 + f) & 1:
                break
            f, r = f + df, r + dr
    return bb


def _edges(sq: int) -> int:
    """Board edges that cannot block a slider on ``sq`` (its own rank and file excepted)."""
    return (((BB_RANK_1 | BB_RANK_8) & ~BB_RANKS[sq >> 3]) |
            ((BB_FILE_A | BB_FILE_H) & ~BB_FILES[sq & 7]))


def _subsets(mask: int):
    """Every subset of ``mask`` (carry-rippler enumeration)."""
    sub = 0
    while True:
        yield sub
        sub = (sub - mask) & mask
        if not sub:
            return


def squares(bb: int):
    """The squares of a bitboard, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


_KNIGHT_DELTAS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_KING_DELTAS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
_DIAG_DELTAS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_RANK_DELTAS = ((1, 0), (-1, 0))
_FILE_DELTAS = ((0, 1), (0, -1))

KNIGHT_ATTACKS = [_step_attacks(sq, _KNIGHT_DELTAS, 0, False) for sq in range(64)]
KING_ATTACKS = [_step_attacks(sq, _KING_DELTAS, 0, False) for sq in range(64)]
#: PAWN_ATTACKS[color][sq]: squares a pawn of ``color`` on ``sq`` attacks.
PAWN_ATTACKS = [[_step_attacks(sq, ((-1, 1), (1, 1)), 0, False) for sq in range(64)],
                [_step_attacks(sq, ((-1, -1), (1, -1)), 0, False) for sq in range(64)]]

#: RAYS[delta][sq]: the squares from ``sq`` to the board edge in one direction.
RAYS = {d: [_step_attacks(sq, (d,), 0, True) for sq in range(64)]
        for d in _DIAG_DELTAS + _RANK_DELTAS + _FILE_DELTAS}


def _ray_attacks(sq: int, deltas, occupied: int) -> int:
    """Sliding attacks from ``sq``: each ray, cut behind its first blocker."""
    att = 0
    for d in deltas:
        ray = RAYS[d][sq]
        blockers = ray & occupied
        if blockers:
            # The nearest blocker is the lowest bit on rays that go up the board.
            up = d[1] > 0 or (d[1] == 0 and d[0] > 0)
            first = (blockers & -blockers).bit_length() - 1 if up else blockers.bit_length() - 1
            ray ^= RAYS[d][first]
        att |= ray
    return att


def _slider_tables(deltas):
    masks, tables = [], []
    for sq in range(64):
        mask = _step_attacks(sq, deltas, 0, True) & ~_edges(sq)
        masks.append(mask)
        tables.append({sub: _ray_attacks(sq, deltas, sub) for sub in _subsets(mask)})
    return masks, tables


DIAG_MASKS, DIAG_ATTACKS = _slider_tables(_DIAG_DELTAS)
RANK_MASKS, RANK_ATTACKS = _slider_tables(_RANK_DELTAS)
FILE_MASKS, FILE_ATTACKS = _slider_tables(_FILE_DELTAS)

#: Attacks on an empty board, to find pinners and skip lookups that cannot hit.
BISHOP_RAYS = [DIAG_ATTACKS[sq][0] for sq in range(64)]
ROOK_RAYS = [RANK_ATTACKS[sq][0] | FILE_ATTACKS[sq][0] for sq in range(64)]


def _line_tables():
    between = [[0] * 64 for _ in range(64)]
    line = [[0] * 64 for _ in range(64)]
    for d, rays in RAYS.items():
        back = RAYS[(-d[0], -d[1])]
        for a in range(64):
            for b in squares(rays[a]):
                between[a][b] = rays[a] & back[b]
                line[a][b] = rays[a] | back[a] | 1 << a
    return between, line


#: BETWEEN[a][b]: squares strictly between two aligned squares; LINE[a][b]: the whole
#: line through them (edge to edge). Both 0 when a and b share no line.
BETWEEN, LINE = _line_tables()


# -- what the move generator and the evaluation call ----------------------------------

#: The eight rays by direction: first the four that run up the board (towards
#: higher squares, where the nearest blocker is the lowest bit), then the four
#: that run down: east, north, north-east, north-west, west, south, south-west, south-east.
RAY_TABLE = [RAYS[d] for d in ((1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1))]
_RAY = RAY_TABLE  # a C array in the compiled build


def lsb(bb: int) -> int:
    """The lowest square of a non-empty bitboard."""
    if cython.compiled:
        return __builtin_ctzll(bb)  # type: ignore[name-defined]  # C builtin, declared in the .pxd
    return (bb & -bb).bit_length() - 1


def msb(bb: int) -> int:
    """The highest square of a non-empty bitboard."""
    if cython.compiled:
        return 63 - __builtin_clzll(bb)  # type: ignore[name-defined]  # C builtin, declared in the .pxd
    return bb.bit_length() - 1


def popcount(bb: int) -> int:
    if cython.compiled:
        return __builtin_popcountll(bb)  # type: ignore[name-defined]  # C builtin, declared in the .pxd
    return bb.bit_count()


def _ray_up(d: int, sq: int, occupied: int) -> int:
    """Ray ``d`` (one that runs up the board) from ``sq``, cut behind its first blocker."""
    ray = _RAY[d][sq]
    blockers = ray & occupied
    if blockers:
        ray ^= _RAY[d][lsb(blockers)]
    return ray


def _ray_down(d: int, sq: int, occupied: int) -> int:
    """Ray ``d`` (one that runs down the board) from ``sq``, cut behind its first blocker."""
    ray = _RAY[d][sq]
    blockers = ray & occupied
    if blockers:
        ray ^= _RAY[d][msb(blockers)]
    return ray


def bishop_attacks(sq: int, occupied: int) -> int:
    if cython.compiled:
        return _ray_up(2, sq, occupied) | _ray_up(3, sq, occupied) | \
            _ray_down(6, sq, occupied) | _ray_down(7, sq, occupied)
    return DIAG_ATTACKS[sq][DIAG_MASKS[sq] & occupied]


def rook_attacks(sq: int, occupied: int) -> int:
    if cython.compiled:
        return _ray_up(0, sq, occupied) | _ray_up(1, sq, occupied) | \
            _ray_down(4, sq, occupied) | _ray_down(5, sq, occupied)
    return RANK_ATTACKS[sq][RANK_MASKS[sq] & occupied] | FILE_ATTACKS[sq][FILE_MASKS[sq] & occupied]


def queen_attacks(sq: int, occupied: int) -> int:
    return bishop_attacks(sq, occupied) | rook_attacks(sq, occupied)


if not cython.compiled:
    # The pure build counts bits with the int method itself: a call into C
    # without a Python frame (the compiled build uses the C builtin above).
    popcount = int.bit_count  # type: ignore[assignment]  # noqa: F811  (an unbound method, same call)
