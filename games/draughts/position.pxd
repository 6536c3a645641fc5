# C types of games/draughts/position.py for the compiled build: masks are
# unsigned 64-bit ints (35 or 54 bits used, see board.py), moves long long.

cimport cython
from engine.nnue cimport Accumulator
from engine.position cimport Position

cdef extern from *:
    int __builtin_popcountll(unsigned long long x) nogil
    int __builtin_ctzll(unsigned long long x) nogil

cdef long long PROMO
cdef int CAP_SHIFT
cdef unsigned long long BIT[64]
cdef Py_ssize_t _WORDS
cdef int _MAX_TERMS

cdef int popcount(unsigned long long x) noexcept nogil
cdef int lowest(unsigned long long x) noexcept nogil
cdef int _capture_order(long long m) noexcept


cdef class DraughtsTables:
    cdef unsigned long long valid
    cdef int size, per_row, cap_low, cap_shift
    cdef int row[64]
    cdef int file[64]
    cdef unsigned long long jump_over[64][4]
    cdef int jump_to[64][4]
    cdef int rays[64][4][10]
    cdef unsigned long long main_road
    cdef bint majority, crown_midway
    cdef int lone_king_plies[3]
    cdef unsigned long long z_man[2][64]
    cdef unsigned long long z_king[2][64]
    cdef unsigned long long z_turn
    cdef int down
    cdef unsigned long long promo_mask[2]
    cdef int draw_plies, first_draw_ply
    cdef int man_value, king_value, mobility, back_rank, hunt
    cdef bint textbook
    cdef int n_man_terms[2]
    cdef unsigned long long man_term_mask[2][64]
    cdef int man_term_value[2][64]
    cdef int n_king_terms
    cdef unsigned long long king_term_mask[64]
    cdef int king_term_value[64]
    cdef unsigned long long guard_mask[2]
    cdef unsigned long long cone[2][64]
    cdef int runaway_bonus[2][64]
    cdef unsigned long long runaway_zone[2]
    cdef int nn_n
    cdef int nn_sq[2][64]


cdef class DraughtsPosition(Position):
    cdef public object game
    cdef DraughtsTables tab
    cdef public unsigned long long o0, o1, kings
    cdef public int clock
    cdef object _caps
    cdef bint _keep_paths
    cdef int _path[24]
    cdef unsigned long long[::1] _st
    cdef Py_ssize_t _sp
    cdef list _caps_st

    @cython.locals(jumpers=cython.ulonglong)
    cpdef list capture_moves(self)
    @cython.locals(own=cython.ulonglong, opp=cython.ulonglong, empty=cython.ulonglong, frm=cython.int)
    cdef list _generate(self, unsigned long long jumpers)
    cdef int _captures_from(self, list out, int frm, unsigned long long opp, unsigned long long empty) except -1
    @cython.locals(k=cython.int)
    @cython.locals(best=cython.int, n=cython.int, m=cython.longlong, i=Py_ssize_t, counts=list, kept=list)
    cdef list _most_taken(self, list out)
    cdef int _emit(self, list out, long long move, int depth) except -1
    @cython.locals(me=cython.int, own=cython.ulonglong, opp=cython.ulonglong, empty=cython.ulonglong,
                   kg=cython.ulonglong, men=cython.ulonglong, promo=cython.ulonglong, down=cython.bint,
                   d=cython.int, dest=cython.ulonglong, to=cython.int, frm=cython.int, lo=cython.int)
    cdef list _quiet_moves(self)
    cdef int _king_quiet_moves(self, list out, unsigned long long kg, unsigned long long empty) except -1
    cdef unsigned long long _jumpers(self) noexcept
    cdef list _captures(self)

    cpdef list legal_moves(self)
    @cython.locals(out=list, i=Py_ssize_t, j=Py_ssize_t, rank=cython.int)
    cpdef list noisy_moves(self)
    cpdef bint is_noisy(self, long long move) except -1
    cpdef long long move_score(self, long long move) except? -1
    cpdef bint in_check(self) except -1
    cpdef bint can_stand_pat(self) except -1
    @cython.locals(sp=Py_ssize_t)
    cdef int _save(self) except -1
    cdef _grow(self)
    @cython.locals(t=DraughtsTables, me=cython.int, frm=cython.int, to=cython.int, i=cython.int,
                   cap=cython.ulonglong, bf=cython.ulonglong, bt=cython.ulonglong, own=cython.ulonglong,
                   opp=cython.ulonglong, kings=cython.ulonglong, key=cython.ulonglong, clock=cython.int,
                   nn=Accumulator, was=cython.int, now=cython.int, p=cython.int, base=cython.int)
    cpdef push(self, long long move)
    @cython.locals(sp=Py_ssize_t)
    cpdef pop(self)
    cpdef push_null(self)
    cpdef bint null_move_allowed(self) except -1
    @cython.locals(clock=cython.int)
    cpdef object outcome(self)
    @cython.locals(t=DraughtsTables, n0=cython.int, n1=cython.int, n=cython.int, lone=cython.ulonglong,
                   strong=cython.ulonglong)
    cdef bint _lone_king_draw(self, int clock) except -1
    cpdef int no_moves_value(self) except? -2
    @cython.locals(key=cython.ulonglong, plies=Py_ssize_t, k=Py_ssize_t)
    cpdef bint is_repetition(self) except -1
    @cython.locals(key=cython.ulonglong, plies=Py_ssize_t, k=Py_ssize_t, n=cython.int)
    cdef int _occurrences(self) except -1
    @cython.locals(t=DraughtsTables)
    cpdef compute_key(self)
    @cython.locals(t=DraughtsTables, me=cython.int, kings=cython.ulonglong, empty=cython.ulonglong,
                   total=cython.int, score=cython.int[2], mat=cython.int[2], p=cython.int,
                   own=cython.ulonglong, opp=cython.ulonglong, men=cython.ulonglong, kg=cython.ulonglong,
                   m=cython.int, s=cython.int, k=cython.int, steps=cython.int, opp_men=cython.ulonglong,
                   runners=cython.ulonglong, best=cython.int, i=cython.int, diff=cython.int,
                   lead=cython.int, strong=cython.int, bonus=cython.int, lo=cython.int)
    cpdef int evaluate(self) except? -1
    @cython.locals(t=DraughtsTables, kg=cython.ulonglong, weak=cython.ulonglong, targets=cython.ulonglong,
                   bonus=cython.int, i=cython.int, j=cython.int, near=cython.int, far=cython.int)
    cdef int _hunt(self, int strong) noexcept
    cdef int _drawish_adjust(self, int diff) noexcept
    @cython.locals(other=DraughtsPosition)
    cpdef _copy(self)
    @cython.locals(i=Py_ssize_t)
    cdef _copy_stack(self, DraughtsPosition source)
