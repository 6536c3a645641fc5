# C types of games/chess/board.py: bitboards, mailbox and snapshots as C arrays,
# the attack and key tables as module-level C arrays, moves as C ints until the
# list handed to the search.

cimport cython
from engine.nnue cimport Accumulator
from engine.position cimport Position
from games.chess.bitboards cimport bishop_attacks, lsb, msb, popcount, rook_attacks
from games.chess.evaluate cimport NO_EVAL, eval_probe, eval_store, positional_terms, scale_of

cdef int PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PROMO_SHIFT, WK, WQ, BK, BQ, MAX_PHASE
cdef long long CASTLE, EN_PASSANT, SPECIAL
cdef unsigned long long BB_ALL, _NOT_A, _NOT_H, _RANK_1, _RANK_3, _RANK_6, _RANK_8, _LIGHT, _DARK
cdef unsigned long long _KNIGHT[64]
cdef unsigned long long _BIT[64]
cdef unsigned long long _KING[64]
cdef unsigned long long _PAWN_ATT[2][64]
cdef unsigned long long _BETWEEN[64][64]
cdef unsigned long long _LINE[64][64]
cdef unsigned long long _BISHOP_RAYS[64]
cdef unsigned long long _ROOK_RAYS[64]
cdef unsigned long long _ZP[16][64]
cdef unsigned long long _Z_EP[8]
cdef unsigned long long _ZT
cdef int _MG[16][64]
cdef int _EG[16][64]
cdef int _PHASE[16]
cdef int _VALUE[16]
cdef int _NN[2][16][64]
cdef long long _score_keys[256]
cdef long long _score_moves[256]

cdef object _add_moves(list moves, int frm, unsigned long long dests)
@cython.locals(promos=cython.ulonglong, to=int, base=int)
cdef object _add_pawn_moves(list moves, int delta, unsigned long long dests, bint noisy)
@cython.locals(empty=cython.ulonglong, one=cython.ulonglong, two=cython.ulonglong, left=cython.ulonglong,
               right=cython.ulonglong, step=int)
cdef object _pawn_moves(list moves, unsigned long long pawns, int us, unsigned long long occ,
                        unsigned long long opp, unsigned long long target, bint noisy)


cdef class _Snapshot:
    cdef unsigned long long bb[16]
    cdef int board[64]
    cdef int turn, castling, ep, halfmove, fullmove, mg, eg, phase, null_plies
    cdef unsigned long long key, checkers
    cdef bint checkers_known

    cpdef _Snapshot copy(self)


cdef class Board(Position):
    cdef public object game
    cdef readonly object rule
    cdef readonly unsigned long long bb[16]
    cdef readonly int board[64]
    cdef public int castling, halfmove, fullmove, mg, eg, phase, null_plies
    cdef int _ep
    cdef unsigned long long _checkers
    cdef bint _checkers_known
    cdef list _stack
    cdef int _ply
    cdef int _keep[64]
    cdef int _rooks[4]
    cdef unsigned long long _zrights[16]
    cdef bint _standard

    cdef _set_rule(self, tuple rule)
    @cython.locals(bb=cython.p_ulonglong, o=int, att=cython.ulonglong, rq=cython.ulonglong, bq=cython.ulonglong)
    cpdef unsigned long long _attackers(self, int color, int sq, unsigned long long occ)
    @cython.locals(us=int)
    cpdef unsigned long long checkers(self)
    @cython.locals(bb=cython.p_ulonglong, us=int, victim=cython.ulonglong, occ=cython.ulonglong, ksq=int)
    cdef bint _ep_legal(self, int frm, int ep)
    @cython.locals(bb=cython.p_ulonglong, us=int, them=int, pushed=int, origin=int, occ=cython.ulonglong,
                   capturers=cython.ulonglong)
    cdef bint _ep_available(self, int ep)

    cpdef list legal_moves(self)
    cpdef bint is_legal(self, long long move) except -1
    cpdef list noisy_moves(self)
    @cython.locals(n=cython.Py_ssize_t, i=cython.Py_ssize_t, j=cython.Py_ssize_t, k=cython.longlong,
                   m=cython.longlong)
    cdef void _by_score(self, list moves) except *
    @cython.locals(bb=cython.p_ulonglong, patt=cython.p_ulonglong, board=cython.p_int,
                   us=int, o=int, t=int, ksq=int, to=int, frm=int, pt=int, ep=int,
                   own=cython.ulonglong, opp=cython.ulonglong, occ=cython.ulonglong, kbit=cython.ulonglong,
                   t_rq=cython.ulonglong, t_bq=cython.ulonglong, t_n=cython.ulonglong, t_p=cython.ulonglong,
                   t_k=cython.ulonglong, checkers=cython.ulonglong, not_own=cython.ulonglong,
                   dests=cython.ulonglong, occ_k=cython.ulonglong, safe=cython.ulonglong,
                   low=cython.ulonglong, target=cython.ulonglong, pinned=cython.ulonglong,
                   snipers=cython.ulonglong, blockers=cython.ulonglong, piece_target=cython.ulonglong,
                   free=cython.ulonglong, pieces=cython.ulonglong, ray=cython.ulonglong,
                   pawns=cython.ulonglong, capturers=cython.ulonglong)
    cdef list _generate(self, bint noisy, unsigned long long only)
    @cython.locals(rights=int, them=int)
    cdef _castling_moves(self, list moves, unsigned long long occ)
    @cython.locals(us=int, them=int, rights=int, kbit=cython.ulonglong, ksq=int, base=int, side=int,
                   kt=int, rt=int, rsq=int, rest=cython.ulonglong, way=cython.ulonglong,
                   lifted=cython.ulonglong, attacked=bint)
    cdef _castling_moves_960(self, list moves, unsigned long long occ)
    @cython.locals(to=int)
    cpdef int rook_of(self, long long move) except? -1
    cpdef bint is_noisy(self, long long move) except -1
    @cython.locals(board=cython.p_int, frm=int, to=int, victim=int, pc=int, score=cython.longlong,
                   gain=cython.longlong)
    cpdef long long move_score(self, long long move) except? -1
    @cython.locals(bb=cython.p_ulonglong, board=cython.p_int, frm=int, to=int, swap=int, res=int, stm=int,
                   occ=cython.ulonglong, attackers=cython.ulonglong, mine=cython.ulonglong,
                   least=cython.ulonglong, bq=cython.ulonglong, rq=cython.ulonglong, pt=int)
    cpdef bint see_ge(self, long long move, int threshold) except -1

    @cython.locals(n=int, s=_Snapshot)
    cdef _save(self)
    @cython.locals(n=int, s=_Snapshot)
    cpdef pop(self)
    @cython.locals(bb=cython.p_ulonglong, board=cython.p_int, key=cython.ulonglong, frm=int, to=int,
                   pc=int, victim=int, us=int, fb=cython.ulonglong, tb=cython.ulonglong, mg=int, eg=int,
                   halfmove=int, double=bint, sq=int, promo=int, rights=int, new=int, ep=int,
                   nn=Accumulator)
    cpdef push(self, long long move)
    @cython.locals(us=int, frm=int, to=int, king=int, rook=int, rf=int, rt=int, key=cython.ulonglong,
                   rights=int, new=int)
    cdef _push_castle(self, long long move)
    cdef unsigned long long _lift(self, int pc, int sq) noexcept
    cdef unsigned long long _place(self, int pc, int sq) noexcept
    @cython.locals(key=cython.ulonglong)
    cpdef push_null(self)
    @cython.locals(bb=cython.p_ulonglong, o=int)
    cpdef bint null_move_allowed(self) except -1

    @cython.locals(n=int, back=int, key=cython.ulonglong, found=int, d=int, s=_Snapshot)
    cdef int _repetitions(self, int enough) except -1
    cpdef bint is_repetition(self) except -1
    @cython.locals(bb=cython.p_ulonglong, knights=cython.ulonglong, bishops=cython.ulonglong)
    cpdef bint is_insufficient_material(self) except -1
    cpdef object outcome(self)
    cpdef int no_moves_value(self) except? -2

    @cython.locals(mixed=cython.ulonglong)
    cpdef long long correction_key(self) except? -1
    cpdef int evaluate(self) except? -1
    @cython.locals(p_mg=int, p_eg=int, score=cython.longlong, value=cython.longlong)
    cdef int _finish(self, int mg, int eg, int phase) except? -1
    @cython.locals(key=cython.ulonglong, sq=int)
    cpdef unsigned long long compute_key(self)
    cpdef int piece_count(self)
    @cython.locals(other=Board, i=int)
    cpdef Board _copy(self)
