cimport cython
from engine.nnue cimport Accumulator
from engine.position cimport Position

cdef class KalahPosition(Position):
    cdef public object game
    cdef readonly int pits, size, stride, sp, cap
    cdef bint empty_capture
    cdef unsigned long long turn_key
    cdef unsigned long long[::1] slot_keys
    # The network's input of each (view, slot, count): see nn_inputs_of.
    cdef int[::1] nn_index
    # Frame i of hist holds the counts at ply i; turns and keys what pop restores.
    cdef unsigned char[::1] hist
    cdef unsigned char[::1] turns
    cdef unsigned long long[::1] keys

    cdef _grow(self)

    @cython.locals(h="unsigned char[::1]", p=int, b=int, i=int, south=int, north=int)
    cdef bint _over(self) except -1

    @cython.locals(moves=list, h="unsigned char[::1]", p=int, first=int, i=int)
    cpdef list legal_moves(self)

    @cython.locals(h="unsigned char[::1]", p=int, frame=int, base=int, i=int, seeds=int, last=int,
                   opposite=int)
    cdef int _gain(self, long long move) except? -2

    @cython.locals(ranked=list, moves=list, s="long long", r="long long")
    cpdef list noisy_moves(self)
    cpdef bint is_noisy(self, long long move) except -1
    @cython.locals(gain=int)
    cpdef long long move_score(self, long long move) except? -1
    cpdef bint in_check(self) except -1
    cpdef bint can_stand_pat(self) except -1

    @cython.locals(h="unsigned char[::1]", size=int, sp=int, src=int, j=int)
    cdef int _save(self) except -1

    @cython.locals(h="unsigned char[::1]", b=int, p=int, size=int, turn=int, i=int, store=int, skip=int,
                   seeds=int, opposite=int, south=int, north=int, j=int, nn=Accumulator, index="int[::1]",
                   stride=int, other=int, was=int, now=int)
    cpdef push(self, long long move)

    @cython.locals(sp=int)
    cpdef pop(self)
    cpdef push_null(self)
    cpdef bint null_move_allowed(self) except -1

    @cython.locals(h="unsigned char[::1]", p=int, b=int, south=int, north=int, i=int)
    cpdef int margin(self) except? -1000

    @cython.locals(m=int)
    cpdef object outcome(self)
    @cython.locals(m=int)
    cpdef int no_moves_value(self) except? -2
    cpdef bint is_repetition(self) except -1

    @cython.locals(h="unsigned char[::1]", p=int, b=int, mine=int, theirs=int, score=int, extra=int, i=int)
    cpdef int evaluate(self) except? -1

    @cython.locals(h="unsigned char[::1]", p=int, best=int, i=int, c=int, last=int, gain=int)
    cdef int _best_capture(self, int mine, int theirs) except? -1

    @cython.locals(h="unsigned char[::1]", table="unsigned long long[::1]", stride=int, b=int,
                   k="unsigned long long", i=int)
    cpdef unsigned long long compute_key(self) except? 0
