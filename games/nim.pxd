# Types of games/nim.py for the compiled build (see engine/position.pxd).
import cython
from engine.position cimport Position

cdef class NimPosition(Position):
    cdef public object game
    cdef int _h[16]
    cdef readonly int n
    cdef list _stack
    cdef int max_take
    cdef bint normal
    cdef list heap_keys
    cdef unsigned long long turn_key

    @cython.locals(t=int, i=int, k=int, moves=list)
    cpdef list legal_moves(self)
    cpdef list noisy_moves(self)
    cpdef bint is_noisy(self, long long move) except -1
    cpdef long long move_score(self, long long move) except? -1
    cpdef bint in_check(self) except -1
    cpdef bint can_stand_pat(self) except -1
    @cython.locals(i=int, k=int, h=int, keys_i=list)
    cpdef push(self, long long move)
    @cython.locals(move=cython.longlong, i=int, k=int, h=int, keys_i=list)
    cpdef pop(self)
    cpdef push_null(self)
    cpdef bint null_move_allowed(self) except -1
    cpdef object outcome(self)
    cpdef int no_moves_value(self) except? -2
    cpdef bint is_repetition(self) except -1
    @cython.locals(t1=int, g=int, i=int, big=bint, ones=int)
    cpdef int evaluate(self) except? -1
