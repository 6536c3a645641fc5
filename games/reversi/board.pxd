# C types of games/reversi/board.py for the compiled build: the position's discs
# are unsigned 64-bit ints and its undo stack C arrays (192 = _STACK entries).

cimport cython
from engine.nnue cimport Accumulator
from engine.position cimport Position
from games.reversi.bitboard cimport bit_index, flips, mobility, popcount

cdef unsigned long long _COL_A, _NOT_COL_A, _NOT_COL_H, _CORNERS, _MASK, _COLUMN_MAGIC, _ONE
cdef int _STACK
cdef int _SQUARE_ORDER[64]
cdef unsigned long long _QUADRANT[64]

@cython.locals(h=cython.ulonglong)
cpdef unsigned long long _neighbours(unsigned long long bb) noexcept
cpdef unsigned long long _edge_bits(unsigned long long bb, int col) noexcept
@cython.locals(x_own=cython.int, x_opp=cython.int, c_own=cython.int, c_opp=cython.int)
cdef int _corner_risk(unsigned long long own, unsigned long long opp, unsigned long long empty,
                      int corner, int x_sq, int c1, int c2) noexcept


cdef class ReversiPosition(Position):
    cdef public object game
    cdef public unsigned long long own, opp
    cdef unsigned long long _disc_keys[128]
    cdef unsigned long long _flip_keys[64]
    cdef unsigned long long _turn_key
    cdef tuple _edges
    cdef unsigned long long _mob
    cdef bint _mob_known
    cdef int _sp
    cdef unsigned long long _s_own[192]
    cdef unsigned long long _s_opp[192]
    cdef unsigned long long _s_key[192]
    cdef unsigned long long _s_mob[192]
    cdef bint _s_known[192]

    cdef unsigned long long _mobility(self)
    cdef _save(self)

    @cython.locals(mob=cython.ulonglong, b=cython.ulonglong, out=list)
    cpdef list legal_moves(self)
    cpdef list noisy_moves(self)
    cpdef bint is_noisy(self, long long move) except -1
    @cython.locals(score=cython.longlong, empty=cython.ulonglong)
    cpdef long long move_score(self, long long move) except? -1
    cpdef bint in_check(self) except -1
    cpdef bint can_stand_pat(self) except -1
    @cython.locals(own=cython.ulonglong, opp=cython.ulonglong, key=cython.ulonglong, f=cython.ulonglong,
                   x=cython.ulonglong, b=cython.ulonglong, nn=Accumulator, t=int, sq=int)
    cpdef push(self, long long move)
    @cython.locals(sp=cython.int)
    cpdef pop(self)
    cpdef push_null(self)
    cpdef bint null_move_allowed(self) except -1
    cpdef bint is_over(self) except -1
    cpdef object outcome(self)
    @cython.locals(diff=cython.int)
    cpdef int no_moves_value(self) except? -2
    cpdef bint is_repetition(self) except -1
    @cython.locals(own=cython.ulonglong, opp=cython.ulonglong, empty=cython.ulonglong, n_empty=cython.int,
                   mob=cython.int, pot=cython.int, corners=cython.int, risky=cython.int, stable=cython.int,
                   score=cython.int, t=tuple)
    cpdef int evaluate(self) except? -1
