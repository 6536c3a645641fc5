# C types of games/connect4.py for the compiled build: 64-bit bitboards, the
# board's constants in C arrays (Geometry), and the solver's recursion in C.
cimport cython
from engine.nnue cimport Accumulator
from engine.position cimport Position

cdef extern from *:
    int popcount "__builtin_popcountll" (unsigned long long x) nogil
    int bit_index "__builtin_ctzll" (unsigned long long b) nogil

# Module constants the hot path reads as C ints (not Python globals).
cdef int BITBOARD_BITS, _SHIFT_LIMIT, _MAX_WIDTH, _MAX_LINES, _MAX_WEIGHTS, _CHECK_EVERY, _SORT_SLOTS

cdef unsigned long long _shl(unsigned long long x, int n) noexcept
cdef unsigned long long _shr(unsigned long long x, int n) noexcept
cdef unsigned long long _winning_along(unsigned long long bb, int s) noexcept
cpdef unsigned long long winning4(unsigned long long bb, unsigned long long mask, int height,
                                  unsigned long long board_mask) noexcept


cdef class Geometry:
    cdef public int width, height, connect, cells, bits, nsteps, nlines
    cdef public unsigned long long bottom_row, board_mask, odd_rows, turn_key
    cdef unsigned long long bottom[10]
    cdef unsigned long long top[10]
    cdef unsigned long long column_mask[10]
    cdef int order[10]
    cdef int shifts[4]
    cdef int steps[16]
    cdef unsigned long long lines[256]
    cdef int line_weight[11]
    cdef unsigned long long disc_keys[128]
    cdef int nn_cell[64]

    @cython.locals(d=int, i=int, m="unsigned long long")
    cpdef bint aligned(self, unsigned long long bb) noexcept

    @cython.locals(win="unsigned long long", m="unsigned long long", d=int, s=int, j=int, i=int)
    cpdef unsigned long long winning_cells(self, unsigned long long bb, unsigned long long mask) noexcept


cdef class Connect4Position(Position):
    cdef public object game
    cdef public Geometry geo
    cdef public unsigned long long cur, mask
    cdef public int moves
    cdef public bint won
    cdef bint has_threats
    cdef unsigned long long own_threats, opp_threats
    cdef public list history

    @cython.locals(geo=Geometry, i=int, c=int)
    cpdef list legal_moves(self)
    cdef void _load_threats(self) noexcept
    cpdef tuple threats(self)
    cdef unsigned long long _playable(self) noexcept
    @cython.locals(playable="unsigned long long")
    cpdef list noisy_moves(self)
    @cython.locals(h1=int, b="unsigned long long")
    cdef void _add_columns(self, list out, unsigned long long bb) except *
    @cython.locals(geo=Geometry)
    cpdef bint is_noisy(self, long long move) except -1
    @cython.locals(width=int)
    cpdef long long move_score(self, long long move) except? -1
    @cython.locals(playable="unsigned long long")
    cpdef bint in_check(self) except -1
    cpdef bint can_stand_pat(self) except -1
    @cython.locals(geo=Geometry, new="unsigned long long", b=int, nn=Accumulator)
    cpdef push(self, long long move)
    @cython.locals(geo=Geometry, move="long long", new="unsigned long long")
    cpdef pop(self)
    cpdef push_null(self)
    cpdef bint null_move_allowed(self) except -1
    cpdef object outcome(self)
    cpdef int no_moves_value(self) except? -2
    cpdef bint is_repetition(self) except -1
    @cython.locals(geo=Geometry, own="unsigned long long", opp="unsigned long long", score=int, i=int,
                   line="unsigned long long", a="unsigned long long", b="unsigned long long",
                   good="unsigned long long", bad="unsigned long long")
    cpdef int evaluate(self) except? -1


cdef class Solver:
    cdef public Geometry geo
    cdef public unsigned long long size
    cdef public unsigned long long nodes
    cdef public object control
    cdef int countdown
    cdef int span
    cdef unsigned long long sort_moves[1010]
    cdef int sort_scores[1010]
    cdef unsigned long long[::1] table

    cpdef reset(self)
    cdef unsigned long long winning(self, unsigned long long bb, unsigned long long mask) noexcept

    @cython.locals(geo=Geometry, cells=int, lo=int, hi=int, med=int, r=int)
    cpdef int solve(self, unsigned long long cur, unsigned long long mask, int moves, object control=*) except? -999

    @cython.locals(geo=Geometry, cells=int, opp_wins="unsigned long long", possible="unsigned long long",
                   forced="unsigned long long", lo=int, hi=int, span=int, key="unsigned long long",
                   slot="unsigned long long", tag="unsigned long long", entry="unsigned long long", code=int, base=int, n=int, i=int, j=int, score=int,
                   new="unsigned long long", opp="unsigned long long")
    cdef int negamax(self, unsigned long long cur, unsigned long long mask, int moves, int alpha, int beta) except? -999
