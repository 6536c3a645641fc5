cimport cython
from engine.nnue cimport Accumulator
from engine.position cimport Position

cdef class MnkPosition(Position):
    cdef public object game
    cdef readonly int size, k, stones_placed, end_result, sp, cap
    cdef readonly long long score
    cdef bint made_line
    cdef unsigned long long turn_key
    # The game's tables, shared by its positions.
    cdef int[::1] cells, centre, line_cells, line_start, line_slots
    cdef int[::1] around_start, around_cells, around_weights, nn_cell
    cdef long long[::1] weights
    cdef unsigned long long[::1] stone_keys
    # This position's state and undo stack.
    cdef unsigned char[::1] cell, count, threat
    cdef int[::1] threat_cells
    cdef int[::1] undo_moves
    cdef long long[::1] undo_scores
    cdef signed char[::1] undo_results

    cdef _grow(self)
    @cython.locals(k=int, j=int)
    cdef int _gap(self, int line) except? -2
    @cython.locals(k1=int, t=int, count="unsigned char[::1]", weights="long long[::1]",
                   line_slots="int[::1]", delta="long long", made=bint, j=int, i=int, a=int, b=int)
    cdef long long _place(self, int c, int p) except? -1
    @cython.locals(k1=int, t=int, count="unsigned char[::1]", line_slots="int[::1]", j=int, i=int, a=int, b=int)
    cdef int _unplace(self, int c, int p) except -1

    @cython.locals(moves=list, i=int, c=int)
    cpdef list legal_moves(self)
    cdef int _forcing(self) except? -2
    @cython.locals(moves=list, p=int, base=int, left=int, c=int)
    cpdef list noisy_moves(self)
    @cython.locals(p=int)
    cpdef bint is_noisy(self, long long move) except -1
    @cython.locals(size=int, score=int, cell="unsigned char[::1]", around_cells="int[::1]", j=int)
    cpdef long long move_score(self, long long move) except? -1
    cpdef bint in_check(self) except -1
    cpdef bint can_stand_pat(self) except -1
    @cython.locals(sp=int)
    cdef int _save(self, int move) except -1
    @cython.locals(sp=int, p=int, delta="long long", nn=Accumulator)
    cpdef push(self, long long move)
    @cython.locals(sp=int, p=int, move=int)
    cpdef pop(self)
    cpdef push_null(self)
    cpdef bint null_move_allowed(self) except -1
    cpdef object outcome(self)
    cpdef int no_moves_value(self) except? -2
    cpdef bint is_repetition(self) except -1
    @cython.locals(score="long long")
    cpdef int evaluate(self) except? -1
    @cython.locals(k="unsigned long long", c=int)
    cpdef unsigned long long compute_key(self) except? 0
