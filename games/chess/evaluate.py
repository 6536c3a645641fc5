"""Static evaluation: tapered PeSTO material and piece-square tables, plus a few
cheap positional terms computed on demand.

The material+PST part is kept incrementally by the position (``mg``, ``eg``,
``phase``, white's point of view) using the per-piece tables ``MG``/``EG``
indexed by piece code (``color << 3 | piece_type``) and square; black entries are
negated so that a plain sum gives white's score. ``positional`` adds mobility,
pawn structure, king safety, the bishop pair and rooks on open files, and
``scale`` pulls drawish material toward zero. :func:`set_terms` switches these
groups off for measuring what each one is worth (``scripts/eval_gain.py``).
"""

from __future__ import annotations

from .bitboards import (BB_SQUARES, BB_DARK_SQUARES, BB_FILE_A, BB_FILE_H, BB_FILES, BB_LIGHT_SQUARES,
                        BISHOP, KING, KING_ATTACKS, KNIGHT, KNIGHT_ATTACKS, PAWN, QUEEN, ROOK,
                        bishop_attacks, lsb, msb, popcount, rook_attacks)

# PeSTO (Ronald Friederich's Rofchade tables, public domain), indexed a8..h8, ..., a1..h1.
_MG_VALUE = (0, 82, 337, 365, 477, 1025, 0, 0)
_EG_VALUE = (0, 94, 281, 297, 512, 936, 0, 0)
#: Game-phase weight per piece type; 24 is a full opening set.
PHASE_WEIGHT = (0, 0, 1, 1, 2, 4, 0, 0)
MAX_PHASE = 24

_MG_PST = {
    PAWN: (
        0, 0, 0, 0, 0, 0, 0, 0,
        98, 134, 61, 95, 68, 126, 34, -11,
        -6, 7, 26, 31, 65, 56, 25, -20,
        -14, 13, 6, 21, 23, 12, 17, -23,
        -27, -2, -5, 12, 17, 6, 10, -25,
        -26, -4, -4, -10, 3, 3, 33, -12,
        -35, -1, -20, -23, -15, 24, 38, -22,
        0, 0, 0, 0, 0, 0, 0, 0),
    KNIGHT: (
        -167, -89, -34, -49, 61, -97, -15, -107,
        -73, -41, 72, 36, 23, 62, 7, -17,
        -47, 60, 37, 65, 84, 129, 73, 44,
        -9, 17, 19, 53, 37, 69, 18, 22,
        -13, 4, 16, 13, 28, 19, 21, -8,
        -23, -9, 12, 10, 19, 17, 25, -16,
        -29, -53, -12, -3, -1, 18, -14, -19,
        -105, -21, -58, -33, -17, -28, -19, -23),
    BISHOP: (
        -29, 4, -82, -37, -25, -42, 7, -8,
        -26, 16, -18, -13, 30, 59, 18, -47,
        -16, 37, 43, 40, 35, 50, 37, -2,
        -4, 5, 19, 50, 37, 37, 7, -2,
        -6, 13, 13, 26, 34, 12, 10, 4,
        0, 15, 15, 15, 14, 27, 18, 10,
        4, 15, 16, 0, 7, 21, 33, 1,
        -33, -3, -14, -21, -13, -12, -39, -21),
    ROOK: (
        32, 42, 32, 51, 63, 9, 31, 43,
        27, 32, 58, 62, 80, 67, 26, 44,
        -5, 19, 26, 36, 17, 45, 61, 16,
        -24, -11, 7, 26, 24, 35, -8, -20,
        -36, -26, -12, -1, 9, -7, 6, -23,
        -45, -25, -16, -17, 3, 0, -5, -33,
        -44, -16, -20, -9, -1, 11, -6, -71,
        -19, -13, 1, 17, 16, 7, -37, -26),
    QUEEN: (
        -28, 0, 29, 12, 59, 44, 43, 45,
        -24, -39, -5, 1, -16, 57, 28, 54,
        -13, -17, 7, 8, 29, 56, 47, 57,
        -27, -27, -16, -16, -1, 17, -2, 1,
        -9, -26, -9, -10, -2, -4, 3, -3,
        -14, 2, -11, -2, -5, 2, 14, 5,
        -35, -8, 11, 2, 8, 15, -3, 1,
        -1, -18, -9, 10, -15, -25, -31, -50),
    KING: (
        -65, 23, 16, -15, -56, -34, 2, 13,
        29, -1, -20, -7, -8, -4, -38, -29,
        -9, 24, 2, -16, -20, 6, 22, -22,
        -17, -20, -12, -27, -30, -25, -14, -36,
        -49, -1, -27, -39, -46, -44, -33, -51,
        -14, -14, -22, -46, -44, -30, -15, -27,
        1, 7, -8, -64, -43, -16, 9, 8,
        -15, 36, 12, -54, 8, -28, 24, 14),
}

_EG_PST = {
    PAWN: (
        0, 0, 0, 0, 0, 0, 0, 0,
        178, 173, 158, 134, 147, 132, 165, 187,
        94, 100, 85, 67, 56, 53, 82, 84,
        32, 24, 13, 5, -2, 4, 17, 17,
        13, 9, -3, -7, -7, -8, 3, -1,
        4, 7, -6, 1, 0, -5, -1, -8,
        13, 8, 8, 10, 13, 0, 2, -7,
        0, 0, 0, 0, 0, 0, 0, 0),
    KNIGHT: (
        -58, -38, -13, -28, -31, -27, -63, -99,
        -25, -8, -25, -2, -9, -25, -24, -52,
        -24, -20, 10, 9, -1, -9, -19, -41,
        -17, 3, 22, 22, 22, 11, 8, -18,
        -18, -6, 16, 25, 16, 17, 4, -18,
        -23, -3, -1, 15, 10, -3, -20, -22,
        -42, -20, -10, -5, -2, -20, -23, -44,
        -29, -51, -23, -15, -22, -18, -50, -64),
    BISHOP: (
        -14, -21, -11, -8, -7, -9, -17, -24,
        -8, -4, 7, -12, -3, -13, -4, -14,
        2, -8, 0, -1, -2, 6, 0, 4,
        -3, 9, 12, 9, 14, 10, 3, 2,
        -6, 3, 13, 19, 7, 10, -3, -9,
        -12, -3, 8, 10, 13, 3, -7, -15,
        -14, -18, -7, -1, 4, -9, -15, -27,
        -23, -9, -23, -5, -9, -16, -5, -17),
    ROOK: (
        13, 10, 18, 15, 12, 12, 8, 5,
        11, 13, 13, 11, -3, 3, 8, 3,
        7, 7, 7, 5, 4, -3, -5, -3,
        4, 3, 13, 1, 2, 1, -1, 2,
        3, 5, 8, 4, -5, -6, -8, -11,
        -4, 0, -5, -1, -7, -12, -8, -16,
        -6, -6, 0, 2, -9, -9, -11, -3,
        -9, 2, 3, -1, -5, -13, 4, -20),
    QUEEN: (
        -9, 22, 22, 27, 27, 19, 10, 20,
        -17, 20, 32, 41, 58, 25, 30, 0,
        -20, 6, 9, 49, 47, 35, 19, 9,
        3, 22, 24, 45, 57, 40, 57, 36,
        -18, 28, 19, 47, 31, 34, 39, 23,
        -16, -27, 15, 6, 9, 17, 10, 5,
        -22, -23, -30, -16, -16, -23, -36, -32,
        -33, -28, -22, -43, -5, -32, -20, -41),
    KING: (
        -74, -35, -18, -18, -11, 15, 4, -17,
        -12, 17, 14, 17, 17, 38, 23, 11,
        10, 17, 23, 15, 20, 45, 44, 13,
        -8, 22, 24, 27, 26, 33, 26, 3,
        -18, -4, 21, 24, 27, 23, 9, -11,
        -19, -3, 11, 21, 23, 16, 7, -9,
        -27, -11, 4, 13, 14, 4, -5, -17,
        -53, -34, -21, -11, -28, -14, -24, -43),
}


def _piece_square(values, pst):
    """Per piece code (0..15): value + PST on each square, negated for black."""
    table = [[0] * 64 for _ in range(16)]
    for pt in range(PAWN, KING + 1):
        for sq in range(64):
            # The tables list rank 8 first: white reads them rank-mirrored.
            table[pt][sq] = values[pt] + pst[pt][sq ^ 56]
            table[8 | pt][sq] = -(values[pt] + pst[pt][sq])
    return table


MG = _piece_square(_MG_VALUE, _MG_PST)
EG = _piece_square(_EG_VALUE, _EG_PST)
PHASE = [PHASE_WEIGHT[pc & 7] for pc in range(16)]
#: Material for move ordering and draw scaling (middlegame values).
VALUE = [_MG_VALUE[pc & 7] for pc in range(16)]


def material_scratch(board: list[int]) -> tuple[int, int, int]:
    """(mg, eg, phase) of a mailbox board, recomputed square by square."""
    mg = eg = phase = 0
    for sq, pc in enumerate(board):
        if pc:
            mg += MG[pc][sq]
            eg += EG[pc][sq]
            phase += PHASE[pc]
    return mg, eg, phase


# -- positional terms (white's view, mg and eg) ------------------------------------

#: The positional weights as one vector: (name, default, lower, upper), centipawns.
#: ``mg``/``eg`` are the middlegame and endgame halves of a tapered term; passed
#: pawns by rank counted from their own side (2 = second rank); mobility per safe
#: square beyond a typical count; the pawn shield; threats on enemy pieces by lesser
#: attackers: a minor by a pawn, a minor by a minor, a rook by a pawn or a minor, a
#: queen by anything but a queen (Ethereal's starting values); in the endgame, a
#: passed pawn from the fourth rank on by the kings' distances (at most 5) to the
#: square in front of it, the enemy's counted up and ours down, times 1, 3, 5, 7 by
#: rank (after Stockfish's classical evaluation). ``zermelo tune`` fits them; the
#: king danger (:data:`KING_DANGER`) is apart.
WEIGHT_TABLE: tuple[tuple[str, int, int, int], ...] = (
    ("doubled_mg", -10, -80, 20), ("doubled_eg", -20, -80, 20),
    ("isolated_mg", -8, -80, 20), ("isolated_eg", -12, -80, 20),
    *((f"passed_mg_{r + 1}", v, -50, 250) for r, v in enumerate((0, 5, 10, 20, 35, 60), 1)),
    *((f"passed_eg_{r + 1}", v, -50, 300) for r, v in enumerate((10, 15, 25, 45, 75, 120), 1)),
    *((f"mobility_mg_{p}", v, -10, 30) for p, v in zip("nbrq", (4, 5, 2, 1))),
    *((f"mobility_eg_{p}", v, -10, 30) for p, v in zip("nbrq", (4, 5, 4, 2))),
    ("bishop_pair_mg", 30, -20, 120), ("bishop_pair_eg", 50, -20, 120),
    ("rook_open_mg", 25, -20, 100), ("rook_open_eg", 10, -20, 100),
    ("rook_semi_mg", 12, -20, 100), ("rook_semi_eg", 6, -20, 100),
    ("shield", 10, -20, 60),
    ("threat_pawn_mg", 55, -20, 200), ("threat_pawn_eg", 80, -20, 200),
    ("threat_minor_mg", 25, -20, 150), ("threat_minor_eg", 45, -20, 150),
    ("threat_rook_mg", 45, -20, 150), ("threat_rook_eg", 30, -20, 150),
    ("threat_queen_mg", 50, -20, 150), ("threat_queen_eg", 10, -20, 150),
    ("passer_king_them_eg", 5, -10, 30), ("passer_king_us_eg", 2, -10, 30),
)
WEIGHT_NAMES = tuple(row[0] for row in WEIGHT_TABLE)
DEFAULT_WEIGHTS = tuple(row[1] for row in WEIGHT_TABLE)
#: King danger, in units whose sum over one attack is squared (count² / 720
#: centipawns in the middlegame, count / 20 in the endgame), Ethereal's form and
#: starting values: each attacker on the king's zone (the king's square and its
#: neighbours) by type, times the number of attackers; the attacks on the zone, one
#: per piece and square (scaled to a zone of 9); the zone's weak squares (attacked,
#: and defended at most once, by the queen or the king if at all); the defender's
#: pawns on the zone's other squares; no queen; a constant; and each safe check by
#: the piece type that gives it (from a square the defender does not attack, or a
#: weak one the attacker attacks twice). Squared, these are not linear in their
#: weights, so Texel's fit holds them fixed (in its base).
KING_DANGER: tuple[tuple[str, int], ...] = (
    *((f"ks_attacker_{p}", v) for p, v in zip("nbrq", (16, 6, 10, 8))),
    ("ks_zone_attacks", 44), ("ks_weak", 38), ("ks_pawns", -22), ("ks_no_queen", -276), ("ks_adjust", -18),
    *((f"check_{p}", v) for p, v in zip(("knight", "bishop", "rook", "queen"), (123, 51, 94, 95))),
)
#: The king-danger weights in play (zeroed by :func:`set_terms` with their group).
_danger: list[int] = [v for _, v in KING_DANGER]
#: The weights in play (defaults, or a tuned file's), before :func:`set_terms` zeroes groups.
_base: list[int] = list(DEFAULT_WEIGHTS)
#: What the evaluation reads, through :func:`_load_weights`: the one place it takes its weights from.
_weights: list[int] = list(DEFAULT_WEIGHTS)
_SCALING = True
_ALL = (1 << 64) - 1
_NOT_A = ~BB_FILE_A & _ALL
_NOT_H = ~BB_FILE_H & _ALL

_ADJACENT = [(BB_FILES[f - 1] if f > 0 else 0) | (BB_FILES[f + 1] if f < 7 else 0) for f in range(8)]


def _front_span(color: int, sq: int) -> int:
    """Squares on ``sq``'s file and both neighbours, strictly ahead for ``color``."""
    f, r = sq & 7, sq >> 3
    files = BB_FILES[f] | _ADJACENT[f]
    ranks = 0
    for rr in (range(r + 1, 8) if color == 0 else range(0, r)):
        ranks |= 0xFF << (8 * rr)
    return files & ranks


PASSED_SPAN = [[_front_span(c, sq) for sq in range(64)] for c in (0, 1)]


def _shield_zone(color: int, sq: int) -> int:
    """The two ranks in front of a king on its own side of the board."""
    f, r = sq & 7, sq >> 3
    files = BB_FILES[f] | _ADJACENT[f]
    rows = (r + 1, r + 2) if color == 0 else (r - 1, r - 2)
    return files & sum(0xFF << (8 * x) for x in rows if 0 <= x < 8)


SHIELD_ZONE = [[_shield_zone(c, sq) for sq in range(64)] for c in (0, 1)]

# The tables the evaluation indexes, under names that are C arrays in the compiled
# build (evaluate.pxd) and the very same lists in the pure one.
_FILES = BB_FILES
_ADJ = _ADJACENT
_SPAN = PASSED_SPAN
_SHIELD_ZONE = SHIELD_ZONE
_KING = KING_ATTACKS
_KNIGHT = KNIGHT_ATTACKS
_BIT = BB_SQUARES
_VALUE = VALUE
#: The king-distance weight of a passed pawn by its rank counted from its own side (0 = first).
_PASSER_RANK = (0, 0, 0, 1, 3, 5, 7, 0)
_LIGHT, _DARK = BB_LIGHT_SQUARES, BB_DARK_SQUARES

#: Pawn structure by the pawns of both sides: the slot :func:`pawn_structure` hashes the
#: two sets to holds them and their terms (C arrays in the compiled build). Every slot
#: starts with white pawns on all 64 squares, which no position has.
PAWN_SLOTS = 1 << 16
_pawn_w = [_ALL for _ in range(PAWN_SLOTS)]
_pawn_b = [0 for _ in range(PAWN_SLOTS)]
_pawn_mg = [0 for _ in range(PAWN_SLOTS)]
_pawn_eg = [0 for _ in range(PAWN_SLOTS)]


def clear_pawn_cache() -> None:
    """Forget every cached pawn structure (the weights changed)."""
    for i in range(PAWN_SLOTS):
        _pawn_w[i] = _ALL


#: Evaluations by Zobrist key, filled by the board: iterative deepening and quiescence
#: revisit the same leaves again and again, and the evaluation is a function of the
#: position alone. Owned here, so that :func:`set_terms` can empty it. One slot per
#: ``key & EVAL_MASK`` holding a key and its value (C arrays in the compiled build:
#: no integer objects made per probe); slot i starts with ``i ^ 1``, a key that
#: cannot map to it, so an empty slot never matches.
EVAL_SLOTS = 1 << 18
EVAL_MASK = EVAL_SLOTS - 1
#: What :func:`eval_probe` answers for a position not in the cache.
NO_EVAL = -(1 << 30)
_eval_keys = [i ^ 1 for i in range(EVAL_SLOTS)]
_eval_values = [0 for _ in range(EVAL_SLOTS)]


def eval_probe(key: int) -> int:
    """The cached evaluation of the position of Zobrist ``key``, or :data:`NO_EVAL`."""
    i = key & EVAL_MASK
    return _eval_values[i] if _eval_keys[i] == key else NO_EVAL


def eval_store(key: int, value: int) -> None:
    """Cache ``value`` for ``key``, replacing the slot's position."""
    i = key & EVAL_MASK
    _eval_keys[i] = key
    _eval_values[i] = value


def clear_eval_cache() -> None:
    """Forget every cached evaluation (the weights changed)."""
    for i in range(EVAL_SLOTS):
        _eval_keys[i] = i ^ 1


# The weights as the evaluation reads them, set by _load_weights.
_doubled_mg: int
_doubled_eg: int
_isolated_mg: int
_isolated_eg: int
_passed_mg: list[int]
_passed_eg: list[int]
_mob_mg: list[int]
_mob_eg: list[int]
_pair_mg: int
_pair_eg: int
_open_mg: int
_open_eg: int
_semi_mg: int
_semi_eg: int
_ks_att: list[int]
_ks_zone: int
_ks_weak: int
_ks_pawns: int
_ks_noq: int
_ks_adj: int
_shield: int
_thr_mg: list[int]
_thr_eg: list[int]
_pk_them: int
_pk_us: int
_chk: list[int]
_scaling: bool


def _load_weights() -> None:
    """Copy :data:`_weights` into the names the evaluation reads (C variables in the
    compiled build, so reading them costs nothing per node); after every change."""
    global _doubled_mg, _doubled_eg, _isolated_mg, _isolated_eg, _passed_mg, _passed_eg
    global _mob_mg, _mob_eg, _pair_mg, _pair_eg, _open_mg, _open_eg, _semi_mg, _semi_eg
    global _ks_att, _ks_zone, _ks_weak, _ks_pawns, _ks_noq, _ks_adj, _shield
    global _thr_mg, _thr_eg, _pk_them, _pk_us, _chk, _scaling
    w = dict(zip(WEIGHT_NAMES, _weights))
    w.update(zip((name for name, _ in KING_DANGER), _danger))
    _doubled_mg, _doubled_eg = w["doubled_mg"], w["doubled_eg"]
    _isolated_mg, _isolated_eg = w["isolated_mg"], w["isolated_eg"]
    _passed_mg = [0] + [w[f"passed_mg_{r}"] for r in range(2, 8)] + [0]
    _passed_eg = [0] + [w[f"passed_eg_{r}"] for r in range(2, 8)] + [0]
    _mob_mg = [w[f"mobility_mg_{p}"] for p in "nbrq"]
    _mob_eg = [w[f"mobility_eg_{p}"] for p in "nbrq"]
    _pair_mg, _pair_eg = w["bishop_pair_mg"], w["bishop_pair_eg"]
    _open_mg, _open_eg = w["rook_open_mg"], w["rook_open_eg"]
    _semi_mg, _semi_eg = w["rook_semi_mg"], w["rook_semi_eg"]
    _ks_att = [w[f"ks_attacker_{p}"] for p in "nbrq"]
    _ks_zone, _ks_weak, _ks_pawns = w["ks_zone_attacks"], w["ks_weak"], w["ks_pawns"]
    _ks_noq, _ks_adj = w["ks_no_queen"], w["ks_adjust"]
    _shield = w["shield"]
    _thr_mg = [w[f"threat_{t}_mg"] for t in ("pawn", "minor", "rook", "queen")]
    _thr_eg = [w[f"threat_{t}_eg"] for t in ("pawn", "minor", "rook", "queen")]
    _pk_them, _pk_us = w["passer_king_them_eg"], w["passer_king_us_eg"]
    _chk = [w[f"check_{p}"] for p in ("knight", "bishop", "rook", "queen")]
    _scaling = bool(_SCALING)


_load_weights()


def pawn_structure(wp: int, bp: int) -> tuple[int, int]:
    """Doubled, isolated and passed pawns (white minus black); cached per pawn pair."""
    # Fibonacci hashing of the two sets; masked, so the pure build wraps as C does.
    h = (wp ^ bp * 3) * 0x9E3779B97F4A7C15 & _ALL
    i = h >> 48
    if _pawn_w[i] == wp and _pawn_b[i] == bp:
        return _pawn_mg[i], _pawn_eg[i]
    mg = eg = 0
    for color in range(2):
        own, opp, sign = (wp, bp, 1) if color == 0 else (bp, wp, -1)
        for f in range(8):
            on_file = own & _FILES[f]
            if not on_file:
                continue
            n = popcount(on_file)
            if n > 1:
                mg += sign * _doubled_mg * (n - 1)
                eg += sign * _doubled_eg * (n - 1)
            if not own & _ADJ[f]:
                mg += sign * _isolated_mg * n
                eg += sign * _isolated_eg * n
        bb = own
        while bb:
            sq = lsb(bb)
            bb &= bb - 1
            if not _SPAN[color][sq] & opp:
                rank = sq >> 3 if color == 0 else 7 - (sq >> 3)
                mg += sign * _passed_mg[rank]
                eg += sign * _passed_eg[rank]
    _pawn_w[i], _pawn_b[i], _pawn_mg[i], _pawn_eg[i] = wp, bp, mg, eg
    return mg, eg


def positional(bb: list[int]) -> tuple[int, int]:
    """Mobility, king safety, bishop pair, rook files and pawn structure: (mg, eg), white's view.

    ``bb`` is the position's bitboard list: ``bb[c << 3]`` the occupancy of colour
    ``c``, ``bb[c << 3 | pt]`` its pieces of type ``pt``.
    """
    boards = bb  # a C array in the compiled build
    return positional_terms(boards)


def positional_terms(bb) -> tuple[int, int]:
    """:func:`positional` of the 16 bitboards ``bb`` (a C array in the compiled build)."""
    occ = bb[0] | bb[8]
    wp, bp = bb[PAWN], bb[8 | PAWN]
    mg, eg = pawn_structure(wp, bp)
    # Squares attacked by each side's pawns, toward either side: mobility into them does not count.
    w_left, w_right = ((wp & _NOT_A) << 7) & _ALL, ((wp & _NOT_H) << 9) & _ALL
    b_left, b_right = (bp & _NOT_A) >> 9, (bp & _NOT_H) >> 7
    by_white, by_black = w_left | w_right, b_left | b_right
    # Per side, for the king danger after both sides' attacks are known: every square
    # attacked, those attacked twice, those by the queen or king; the attackers on the
    # enemy king's zone, their weights and hits; each piece type's attacks.
    all_att = [0, 0]
    two_att = [0, 0]
    qk_att = [0, 0]
    ks_n = [0, 0]
    ks_w = [0, 0]
    ks_hits = [0, 0]
    n_att = [0, 0]
    b_att = [0, 0]
    r_att = [0, 0]
    q_att = [0, 0]
    for o in range(0, 16, 8):
        c = o >> 3
        every = by_white if o == 0 else by_black
        twice = w_left & w_right if o == 0 else b_left & b_right
        own = bb[o]
        own_pawns, opp_pawns = bb[o | PAWN], bb[(o ^ 8) | PAWN]
        safe = ~own & ~(by_black if o == 0 else by_white) & _ALL
        enemy_king = msb(bb[(o ^ 8) | KING])
        ksq = msb(bb[o | KING])
        zone = _KING[enemy_king] | _BIT[enemy_king]
        attackers = att_weight = zone_hits = m_mg = m_eg = 0
        rook_att = knight_att = bishop_att = queen_att = 0
        knights, bishops, rooks, queens = bb[o | KNIGHT], bb[o | BISHOP], bb[o | ROOK], bb[o | QUEEN]
        # Mobility counted from a typical number of squares per piece: 4 (N), 6 (B), 6 (R), 12 (Q).
        mob_n = mob_b = mob_r = mob_q = 0
        pieces = knights
        while pieces:
            att = _KNIGHT[lsb(pieces)]
            pieces &= pieces - 1
            knight_att |= att
            twice |= every & att
            every |= att
            mob_n += popcount(att & safe) - 4
            if att & zone:
                attackers += 1
                att_weight += _ks_att[0]
                zone_hits += popcount(att & zone)
        pieces = bishops
        while pieces:
            att = bishop_attacks(lsb(pieces), occ)
            pieces &= pieces - 1
            bishop_att |= att
            twice |= every & att
            every |= att
            mob_b += popcount(att & safe) - 6
            if att & zone:
                attackers += 1
                att_weight += _ks_att[1]
                zone_hits += popcount(att & zone)
        minor_att = knight_att | bishop_att
        pieces = rooks
        while pieces:
            sq = lsb(pieces)
            pieces &= pieces - 1
            att = rook_attacks(sq, occ)
            rook_att |= att
            twice |= every & att
            every |= att
            mob_r += popcount(att & safe) - 6
            if att & zone:
                attackers += 1
                att_weight += _ks_att[2]
                zone_hits += popcount(att & zone)
            file = _FILES[sq & 7]
            if not file & own_pawns:
                if file & opp_pawns:
                    m_mg += _semi_mg
                    m_eg += _semi_eg
                else:
                    m_mg += _open_mg
                    m_eg += _open_eg
        pieces = queens
        while pieces:
            sq = lsb(pieces)
            pieces &= pieces - 1
            att = bishop_attacks(sq, occ) | rook_attacks(sq, occ)
            queen_att |= att
            twice |= every & att
            every |= att
            mob_q += popcount(att & safe) - 12
            if att & zone:
                attackers += 1
                att_weight += _ks_att[3]
                zone_hits += popcount(att & zone)
        m_mg += _mob_mg[0] * mob_n + _mob_mg[1] * mob_b + _mob_mg[2] * mob_r + _mob_mg[3] * mob_q
        m_eg += _mob_eg[0] * mob_n + _mob_eg[1] * mob_b + _mob_eg[2] * mob_r + _mob_eg[3] * mob_q
        if bishops & _LIGHT and bishops & _DARK:
            m_mg += _pair_mg
            m_eg += _pair_eg
        att = _KING[ksq]
        twice |= every & att
        every |= att
        all_att[c], two_att[c], qk_att[c] = every, twice, queen_att | att
        ks_n[c], ks_w[c], ks_hits[c] = attackers, att_weight, zone_hits
        n_att[c], b_att[c], r_att[c], q_att[c] = knight_att, bishop_att, rook_att, queen_att
        # Threats: enemy pieces attacked by lesser ones, which the side to move can
        # win and the other must answer.
        pawn_att = by_white if o == 0 else by_black
        e_minors = bb[(o ^ 8) | KNIGHT] | bb[(o ^ 8) | BISHOP]
        n = popcount(e_minors & pawn_att)
        m_mg += _thr_mg[0] * n
        m_eg += _thr_eg[0] * n
        n = popcount(e_minors & minor_att)
        m_mg += _thr_mg[1] * n
        m_eg += _thr_eg[1] * n
        n = popcount(bb[(o ^ 8) | ROOK] & (pawn_att | minor_att))
        m_mg += _thr_mg[2] * n
        m_eg += _thr_eg[2] * n
        n = popcount(bb[(o ^ 8) | QUEEN] & (pawn_att | minor_att | rook_att))
        m_mg += _thr_mg[3] * n
        m_eg += _thr_eg[3] * n
        # Passed pawns from the fourth rank: the kings' race to the square in front.
        if _pk_them or _pk_us:
            pieces = own_pawns
            while pieces:
                sq = lsb(pieces)
                pieces &= pieces - 1
                rank = sq >> 3 if o == 0 else 7 - (sq >> 3)
                if rank < 3 or _SPAN[o >> 3][sq] & opp_pawns:
                    continue
                front = sq + 8 if o == 0 else sq - 8
                d_them = max(abs((enemy_king & 7) - (front & 7)), abs((enemy_king >> 3) - (front >> 3)))
                d_us = max(abs((ksq & 7) - (front & 7)), abs((ksq >> 3) - (front >> 3)))
                m_eg += (_pk_them * min(d_them, 5) - _pk_us * min(d_us, 5)) * _PASSER_RANK[rank]
        # Own pawn shield in front of a king still on its first two ranks.
        if (ksq >> 3 if o == 0 else 7 - (ksq >> 3)) <= 1:
            shield = popcount(_SHIELD_ZONE[o >> 3][ksq] & own_pawns)
            m_mg += _shield * (shield if shield < 3 else 3)
        if o:
            mg -= m_mg
            eg -= m_eg
        else:
            mg += m_mg
            eg += m_eg
    # King danger, counted in units that are squared into centipawns (Ethereal's
    # form): with a queen one attacker on the king's zone is enough, without, two.
    for c in range(2):
        d = c ^ 1
        queens = bb[c << 3 | QUEEN]
        if ks_n[c] <= 1 - popcount(queens):
            continue
        enemy_king = msb(bb[d << 3 | KING])
        zone = _KING[enemy_king] | _BIT[enemy_king]
        # Weak: attacked, and defended at most once, by the queen or the king if at all.
        weak = all_att[c] & ~two_att[d] & (~all_att[d] | qk_att[d]) & _ALL
        count = (ks_n[c] * ks_w[c] + _ks_zone * 9 * ks_hits[c] // popcount(zone)
                 + _ks_weak * popcount(weak & zone)
                 + _ks_pawns * popcount(bb[d << 3 | PAWN] & zone & ~weak) + _ks_adj)
        if not queens:
            count += _ks_noq
        # Safe checks: from a square the defender does not attack, or a weak one the
        # attacker attacks twice, and not one of the attacker's own pieces.
        safe = ~bb[c << 3] & (~all_att[d] | (weak & two_att[c])) & _ALL
        ek_b = bishop_attacks(enemy_king, occ) & safe
        ek_r = rook_attacks(enemy_king, occ) & safe
        count += (_chk[0] * popcount(_KNIGHT[enemy_king] & n_att[c] & safe)
                  + _chk[1] * popcount(ek_b & b_att[c]) + _chk[2] * popcount(ek_r & r_att[c])
                  + _chk[3] * popcount((ek_b | ek_r) & q_att[c]))
        if count > 0:
            if c:
                mg -= count * count // 720
                eg -= count // 20
            else:
                mg += count * count // 720
                eg += count // 20
    return mg, eg


def scale(bb: list[int], score: int) -> int:
    """Out of 64: how much of a white-view ``score`` the material can convert.

    Without pawns, the stronger side needs more than a minor piece's worth of
    extra material (KBK, KNK, KRKB and the like are draws or nearly so), and two
    knights cannot force mate; bishops of opposite colours alone halve the score.
    """
    boards = bb  # a C array in the compiled build
    return scale_of(boards, score)


def scale_of(bb, score: int) -> int:
    """:func:`scale` of the 16 bitboards ``bb`` (a C array in the compiled build)."""
    if not _scaling:
        return 64
    strong = 0 if score > 0 else 8
    weak = strong ^ 8
    if not bb[strong | PAWN]:
        s_np = w_np = 0
        for pt in range(KNIGHT, KING):
            s_np += _VALUE[pt] * popcount(bb[strong | pt])
            w_np += _VALUE[pt] * popcount(bb[weak | pt])
        if s_np <= _VALUE[BISHOP]:
            return 0 if not bb[weak | PAWN] else 8
        if s_np - w_np <= _VALUE[BISHOP]:
            return 8
        if s_np == 2 * _VALUE[KNIGHT] and popcount(bb[strong | KNIGHT]) == 2:
            return 4
    wb, bb_ = bb[BISHOP], bb[8 | BISHOP]
    if (popcount(wb) == 1 and popcount(bb_) == 1
            and (wb & _LIGHT != 0) != (bb_ & _LIGHT != 0)
            and not (bb[KNIGHT] | bb[ROOK] | bb[QUEEN] | bb[8 | KNIGHT] | bb[8 | ROOK] | bb[8 | QUEEN])):
        return 32
    return 64


# -- switching term groups off -------------------------------------------------------

#: The weights of each term group on top of material+PST, by name prefix.
_GROUPS = {
    "mobility": ("mobility_",),
    "pawns": ("doubled_", "isolated_", "passed_"),
    "king": ("ks_", "shield"),
    "pieces": ("bishop_pair_", "rook_open_", "rook_semi_"),
    "threats": ("threat_",),
    "passers": ("passer_king_",),
    "checks": ("check_",),
    "scale": (),
}
#: Term group names, for :func:`set_terms`.
TERMS = tuple(_GROUPS)
_enabled: tuple[str, ...] = TERMS


def set_terms(enabled=TERMS) -> None:
    """Evaluate with only the ``enabled`` term groups of :data:`TERMS` (default: all).

    ``mobility``: safe squares of knights, bishops, rooks and queens; ``pawns``:
    doubled, isolated and passed pawns; ``king``: the king danger (without its
    checks) and the pawn shield; ``pieces``: bishop pair and rooks on open or half-open files;
    ``threats``: enemy pieces attacked by lesser ones; ``passers``: the kings'
    distances to a passed pawn's path; ``checks``: safe checks in the king danger;
    ``scale``: drawish material pulled toward zero. With none enabled the
    evaluation is tapered PeSTO alone. A group is switched off by zeroing its
    weights, so the evaluation runs the same code either way. Process-wide; the
    pawn-structure and whole-evaluation caches are emptied. Raises ``ValueError``
    for an unknown group.
    """
    global _SCALING, _enabled
    enabled = tuple(enabled)
    unknown = set(enabled) - set(TERMS)
    if unknown:
        raise ValueError(f"unknown evaluation terms {sorted(unknown)}; known: {', '.join(TERMS)}")
    off = tuple(p for group, prefixes in _GROUPS.items() if group not in enabled for p in prefixes)
    _weights[:] = [0 if name.startswith(off) else v for name, v in zip(WEIGHT_NAMES, _base)]
    _danger[:] = [0 if name.startswith(off) else v for name, v in KING_DANGER]
    _SCALING = "scale" in enabled
    _enabled = enabled
    _load_weights()
    clear_pawn_cache()
    clear_eval_cache()


def weights() -> tuple[int, ...]:
    """The positional weights in play, in :data:`WEIGHT_NAMES` order."""
    return tuple(_base)


def set_weights(values) -> None:
    """Evaluate with the positional weights ``values`` (:data:`WEIGHT_NAMES` order)
    from now on, process-wide; the term groups switched off stay off. Raises
    ``ValueError`` for a wrong count or a value outside its bounds, the weights in
    play kept."""
    values = [int(v) for v in values]
    if len(values) != len(WEIGHT_TABLE):
        raise ValueError(f"{len(values)} weights given, the evaluation has {len(WEIGHT_TABLE)}")
    for (name, _, lo, hi), v in zip(WEIGHT_TABLE, values):
        if not lo <= v <= hi:
            raise ValueError(f"weight {name} = {v} is outside [{lo}, {hi}]")
    _base[:] = values
    set_terms(_enabled)


def weight_terms(boards: list[list[int]]) -> tuple[list[tuple[int, int]], list[list[tuple[int, int]]]]:
    """The features Texel tuning fits: the (mg, eg) :func:`positional` gives each of
    ``boards`` (bitboard lists) with every weight of :data:`WEIGHT_NAMES` at 0 (the
    king danger, which they do not move), and for each weight what it adds per unit.
    The positional terms are linear in those weights. The weights in play are restored after."""
    rows = []
    try:
        for j in range(-1, len(WEIGHT_NAMES)):
            _weights[:] = [int(i == j) for i in range(len(WEIGHT_NAMES))]
            _load_weights()
            clear_pawn_cache()
            rows.append([positional(bb) for bb in boards])
    finally:
        set_terms(_enabled)
    fixed = rows[0]
    return fixed, [[(mg - f_mg, eg - f_eg) for (mg, eg), (f_mg, f_eg) in zip(row, fixed)] for row in rows[1:]]
