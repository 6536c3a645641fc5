# C types of games/reversi/endgame.py for the compiled build: the solver's search
# runs on unsigned 64-bit bitboards and C ints; its move lists (61 depths of
# MAX_MOVES = 48) and its table (TABLE_SIZE = 65536 slots) are C arrays.

cimport cython
from games.reversi.bitboard cimport bit_index, flips, mobility, popcount

cdef int SHALLOW, CHECK_EVERY, TABLE_BITS, TABLE_SIZE, MAX_MOVES, _TABLE_SHIFT, _NONE
cdef unsigned long long _MASK, _ONE, _HASH_OWN, _HASH_OPP, _CORNERS, _X_SQUARES, _PLAIN
cdef unsigned long long _Q0, _Q1, _Q2, _Q3

@cython.locals(odd=cython.ulonglong)
cdef unsigned long long _odd_regions(unsigned long long empty) noexcept
@cython.locals(diff=cython.int, empties=cython.int)
cdef int _final(unsigned long long own, unsigned long long opp, bint count_empties) noexcept
@cython.locals(diff=cython.int, n=cython.int)
cdef int _last(unsigned long long own, unsigned long long opp, int sq, bint count_empties) noexcept


cdef class Solver:
    cdef public long long nodes
    cdef public bint count_empties
    cdef public object control
    cdef long long _next_check
    cdef int _sq[2928]
    cdef unsigned long long _flip[2928]
    cdef int _cost[2928]
    cdef unsigned long long _t_own[65536]
    cdef unsigned long long _t_opp[65536]
    cdef signed char _t_lo[65536]
    cdef signed char _t_hi[65536]
    cdef signed char _t_move[65536]

    cpdef int solve(self, unsigned long long own, unsigned long long opp, int alpha=*, int beta=*) except -1000
    @cython.locals(empties=cython.int, count=cython.int, base=cython.int, best=cython.int, best_move=cython.int,
                   v=cython.int, no=cython.ulonglong, nq=cython.ulonglong, f=cython.ulonglong, sq=cython.int,
                   moves=list)
    cpdef tuple best(self, unsigned long long own, unsigned long long opp)
    @cython.locals(base=cython.int, mob=cython.ulonglong, count=cython.int, b=cython.ulonglong, sq=cython.int,
                   f=cython.ulonglong, cost=cython.int, i=cython.int, reply=cython.ulonglong)
    cdef int _gen_moves(self, unsigned long long own, unsigned long long opp, int empties, int first) noexcept
    @cython.locals(empty=cython.ulonglong, n=cython.int, slot=cython.ulonglong, first=cython.int, lo=cython.int,
                   hi=cython.int, a0=cython.int, count=cython.int, base=cython.int, best=cython.int,
                   best_move=cython.int, i=cython.int, sq=cython.int, f=cython.ulonglong, no=cython.ulonglong,
                   nq=cython.ulonglong, v=cython.int)
    cdef int _search(self, unsigned long long own, unsigned long long opp, int alpha, int beta,
                     bint passed) except -1000
    @cython.locals(mob=cython.ulonglong, odd=cython.ulonglong, best=cython.int, k=cython.int, k3=cython.int,
                   group=cython.ulonglong, b=cython.ulonglong, f=cython.ulonglong, v=cython.int)
    cdef int _shallow(self, unsigned long long own, unsigned long long opp, unsigned long long empty,
                      int alpha, int beta, bint passed) except -1000
