# C types of games/reversi/endgame.py for the compiled build: the solver's search
# runs on unsigned 64-bit bitboards and C ints; its move lists (61 depths of
# MAX_MOVES = 48) and its table (TABLE_SIZE = 2**20 slots) are C arrays.

cimport cython
from games.reversi.bitboard cimport bit_index, flips, mobility, popcount
from games.reversi.board cimport _edge_bits, _neighbours

cdef int SHALLOW, SMALL, ETC_EMPTIES, SORT_EMPTIES, CHECK_EVERY, TABLE_BITS, TABLE_SIZE, MAX_MOVES, _TABLE_SHIFT
cdef int _NONE, _SORT_INF
cdef unsigned long long _MASK, _ONE, _HASH_OWN, _HASH_OPP, _CORNERS, _X_SQUARES, _PLAIN
cdef unsigned long long _Q0, _Q1, _Q2, _Q3
cdef unsigned long long _COL_A, _NOT_A, _NOT_H, _ROW_1, _COLS_AH, _ROWS_18, _BORDER
cdef unsigned long long _DIAG7[15]
cdef unsigned long long _DIAG9[15]
cdef unsigned char _EDGE_STABLE[65536]
cdef int _STAB_THRESHOLD[61]
cdef int _SORT_DEPTH[61]
cdef int _SORT_MOBILITY, _SORT_POTENTIAL, _FAST_MOBILITY

@cython.locals(odd=cython.ulonglong)
cdef unsigned long long _odd_regions(unsigned long long empty) noexcept
@cython.locals(out=cython.ulonglong, k=cython.int)
cdef unsigned long long _column(unsigned long long bits, int col) noexcept
@cython.locals(filled=cython.ulonglong, full_h=cython.ulonglong, full_v=cython.ulonglong, full_d7=cython.ulonglong,
               full_d9=cython.ulonglong, i=cython.int, m=cython.ulonglong, st=cython.ulonglong, h=cython.ulonglong,
               v=cython.ulonglong, d7=cython.ulonglong, d9=cython.ulonglong, grown=cython.ulonglong)
cpdef unsigned long long stable_discs(unsigned long long own, unsigned long long opp) noexcept
cdef int _corner_stable(unsigned long long p) noexcept
@cython.locals(empty=cython.ulonglong, m_own=cython.ulonglong, m_opp=cython.ulonglong)
cdef int _sort_eval(unsigned long long own, unsigned long long opp) noexcept
@cython.locals(diff=cython.int, empties=cython.int)
cdef int _final(unsigned long long own, unsigned long long opp, bint count_empties) noexcept
@cython.locals(diff=cython.int, n=cython.int)
cdef int _last(unsigned long long own, unsigned long long opp, int sq, bint count_empties) noexcept


cdef class Solver:
    cdef public long long nodes
    cdef public long long max_nodes
    cdef public bint count_empties
    cdef public object control
    cdef long long _next_check
    cdef int _generation
    cdef int _sq[2928]
    cdef unsigned long long _flip[2928]
    cdef int _cost[2928]
    cdef unsigned long long _t_own[1048576]
    cdef unsigned long long _t_opp[1048576]
    cdef signed char _t_lo[1048576]
    cdef signed char _t_hi[1048576]
    cdef signed char _t_move[1048576]
    cdef unsigned char _t_empties[1048576]
    cdef unsigned char _t_gen[1048576]

    cpdef int solve(self, unsigned long long own, unsigned long long opp, int alpha=*, int beta=*) except -1000
    cpdef tuple best(self, unsigned long long own, unsigned long long opp)
    cpdef void begin(self)
    @cython.locals(empties=cython.int, count=cython.int, base=cython.int)
    cpdef list root_moves(self, unsigned long long own, unsigned long long opp, int first)
    @cython.locals(slot=cython.int, best=cython.int, best_move=cython.int, v=cython.int, a=cython.int,
                   no=cython.ulonglong, nq=cython.ulonglong, f=cython.ulonglong, sq=cython.int, moves=list)
    cpdef tuple root(self, unsigned long long own, unsigned long long opp, int alpha, int beta)
    @cython.locals(slot=cython.int)
    cdef int _lookup(self, unsigned long long own, unsigned long long opp) noexcept
    @cython.locals(slot=cython.int)
    cdef void _store(self, unsigned long long own, unsigned long long opp, int n, int lo, int hi, int move) noexcept
    @cython.locals(base=cython.int, mob=cython.ulonglong, count=cython.int, b=cython.ulonglong, sq=cython.int,
                   f=cython.ulonglong)
    cdef int _gen_moves(self, unsigned long long own, unsigned long long opp, int empties, int first) noexcept
    @cython.locals(base=cython.int, b=cython.ulonglong, sq=cython.int, j=cython.int,
                   f=cython.ulonglong, cost=cython.int, i=cython.int, reply=cython.ulonglong, depth=cython.int,
                   nq=cython.ulonglong)
    cdef void _order(self, unsigned long long own, unsigned long long opp, int empties, int start, int count) noexcept
    @cython.locals(mob=cython.ulonglong, best=cython.int, b=cython.ulonglong, f=cython.ulonglong, v=cython.int)
    cdef int _sort_search(self, unsigned long long own, unsigned long long opp, int depth, int alpha, int beta,
                          bint passed) noexcept
    cdef int _check(self) except -1
    @cython.locals(empty=cython.ulonglong, n=cython.int, slot=cython.int, first=cython.int, lo=cython.int,
                   hi=cython.int, a0=cython.int, count=cython.int, base=cython.int, best=cython.int,
                   best_move=cython.int, i=cython.int, sq=cython.int, f=cython.ulonglong, no=cython.ulonglong,
                   nq=cython.ulonglong, v=cython.int, top=cython.int, child=cython.int, start=cython.int)
    cdef int _search(self, unsigned long long own, unsigned long long opp, int alpha, int beta,
                     bint passed) except -1000
    @cython.locals(mob=cython.ulonglong, odd=cython.ulonglong, best=cython.int, k=cython.int, k3=cython.int,
                   group=cython.ulonglong, b=cython.ulonglong, f=cython.ulonglong, v=cython.int, top=cython.int)
    cdef int _shallow(self, unsigned long long own, unsigned long long opp, unsigned long long empty,
                      int alpha, int beta, bint passed) except -1000
    @cython.locals(odd=cython.ulonglong, best=cython.int, k=cython.int, group=cython.ulonglong, b=cython.ulonglong,
                   f=cython.ulonglong, v=cython.int, no=cython.ulonglong, nq=cython.ulonglong)
    cdef int _small(self, unsigned long long own, unsigned long long opp, unsigned long long empty, int n,
                    int alpha, int beta, bint passed) except -1000
