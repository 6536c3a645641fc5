# C types of games/chess/evaluate.py: the tables and weights the evaluation reads
# as C arrays and variables, and the positional terms over a C array of bitboards.

cimport cython
from games.chess.bitboards cimport bishop_attacks, lsb, msb, popcount, rook_attacks

cdef int PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING
cdef unsigned long long _ALL, _NOT_A, _NOT_H, _LIGHT, _DARK
cdef unsigned long long _FILES[8]
cdef unsigned long long _ADJ[8]
cdef unsigned long long _SPAN[2][64]
cdef unsigned long long _SHIELD_ZONE[2][64]
cdef unsigned long long _KING[64]
cdef unsigned long long _KNIGHT[64]
cdef unsigned long long _BIT[64]
cdef int _VALUE[16]

cdef int _doubled_mg, _doubled_eg, _isolated_mg, _isolated_eg
cdef int _passed_mg[8]
cdef int _passed_eg[8]
cdef int _mob_mg[4]
cdef int _mob_eg[4]
cdef int _pair_mg, _pair_eg, _open_mg, _open_eg, _semi_mg, _semi_eg
cdef int _ks_att[4]
cdef int _ks_zone, _ks_weak, _ks_pawns, _ks_noq, _ks_adj
cdef int _shield
cdef int _thr_mg[4]
cdef int _thr_eg[4]
cdef int _pk_them, _pk_us
cdef int _chk[4]
cdef int _PASSER_RANK[8]
cdef bint _scaling

cdef int EVAL_SLOTS, EVAL_MASK, NO_EVAL
cdef unsigned long long _eval_keys[262144]
cdef int _eval_values[262144]

@cython.locals(i=int)
cdef int eval_probe(unsigned long long key) noexcept
@cython.locals(i=int)
cdef void eval_store(unsigned long long key, int value) noexcept
@cython.locals(i=int)
cpdef void clear_eval_cache() noexcept

cdef int PAWN_SLOTS
# The cache arrays hold PAWN_SLOTS and EVAL_SLOTS entries (a list of another length
# fails the import).
cdef unsigned long long _pawn_w[65536]
cdef unsigned long long _pawn_b[65536]
cdef int _pawn_mg[65536]
cdef int _pawn_eg[65536]

@cython.locals(i=int)
cpdef void clear_pawn_cache() noexcept

@cython.locals(mg=int, eg=int, color=int, f=int, n=int, sq=int, rank=int, sign=int, i=int, h=cython.ulonglong,
               own=cython.ulonglong, opp=cython.ulonglong, on_file=cython.ulonglong, bb=cython.ulonglong)
cpdef tuple pawn_structure(unsigned long long wp, unsigned long long bp)

@cython.locals(boards=cython.ulonglong[16])
cpdef tuple positional(list bb)

@cython.locals(occ=cython.ulonglong, wp=cython.ulonglong, bp=cython.ulonglong, by_black=cython.ulonglong,
               by_white=cython.ulonglong, own=cython.ulonglong, own_pawns=cython.ulonglong,
               opp_pawns=cython.ulonglong, safe=cython.ulonglong, zone=cython.ulonglong,
               knights=cython.ulonglong, bishops=cython.ulonglong, rooks=cython.ulonglong,
               queens=cython.ulonglong, pieces=cython.ulonglong, att=cython.ulonglong,
               file=cython.ulonglong, mg=int, eg=int, o=int, enemy_king=int, attackers=int,
               m_mg=int, m_eg=int, mob_n=int, mob_b=int, mob_r=int, mob_q=int, sq=int, ksq=int,
               shield=int, n=int, minor_att=cython.ulonglong, rook_att=cython.ulonglong,
               pawn_att=cython.ulonglong, e_minors=cython.ulonglong, rank=int, front=int,
               d_them=int, d_us=int, knight_att=cython.ulonglong, bishop_att=cython.ulonglong,
               queen_att=cython.ulonglong,
               ek_b=cython.ulonglong, ek_r=cython.ulonglong, att_weight=int, zone_hits=int, count=int,
               c=int, d=int, w_left=cython.ulonglong, w_right=cython.ulonglong, b_left=cython.ulonglong,
               b_right=cython.ulonglong, every=cython.ulonglong,
               twice=cython.ulonglong, weak=cython.ulonglong,
               all_att=cython.ulonglong[2], two_att=cython.ulonglong[2], qk_att=cython.ulonglong[2],
               n_att=cython.ulonglong[2], b_att=cython.ulonglong[2], r_att=cython.ulonglong[2],
               q_att=cython.ulonglong[2], ks_n=int[2], ks_w=int[2], ks_hits=int[2])
cdef (int, int) positional_terms(unsigned long long *bb) except *

@cython.locals(boards=cython.ulonglong[16])
cpdef int scale(list bb, long long score) except? -1

@cython.locals(strong=int, weak=int, s_np=int, w_np=int, pt=int, wb=cython.ulonglong, bb_=cython.ulonglong)
cdef int scale_of(unsigned long long *bb, long long score) noexcept
