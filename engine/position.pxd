# The typed interface of engine/position.py for the compiled build: every game's
# position class derives from this extension type and overrides these methods.
# Moves are C long long (a game may pack a whole capture path into one move).

cimport cython
from engine.nnue cimport Accumulator

cdef class Position:
    cdef public int turn
    cdef public unsigned long long key
    # The attached network's accumulator, None without one (see nn_attach); public, and
    # _nn_pop cpdef, for the positions a game serves uncompiled (Connect Four over 64 bits).
    cdef public Accumulator _nn

    cpdef list legal_moves(self)
    cpdef bint is_legal(self, long long move) except -1
    cpdef list noisy_moves(self)
    cpdef bint is_noisy(self, long long move) except -1
    cpdef long long move_score(self, long long move) except? -1
    cpdef bint see_ge(self, long long move, int threshold) except -1
    cpdef long long correction_key(self) except? -1
    cpdef bint in_check(self) except -1
    cpdef bint can_stand_pat(self) except -1
    cpdef push(self, long long move)
    cpdef pop(self)
    cpdef push_null(self)
    cpdef bint null_move_allowed(self) except -1
    cpdef object outcome(self)
    cpdef int no_moves_value(self) except? -2
    cpdef bint is_repetition(self) except -1
    cpdef int evaluate(self) except? -1
    cpdef list playout_moves(self)
    cpdef object playout(self, unsigned long long seed, list played, bint heavy)
    @cython.locals(nn=Accumulator)
    cpdef _nn_pop(self)
