# C types of games/draughts/checkers.py for the compiled build (see position.pxd).

cimport cython
from games.draughts.position cimport DraughtsPosition, lowest

cdef unsigned long long VALID
cdef long long PROMO
cdef int CAP_SHIFT
cdef list _QUIET
cdef unsigned long long JUMP_OVER[64][4]
cdef int JUMP_TO[64][4]


cdef class CheckersPosition(DraughtsPosition):
    @cython.locals(me=cython.int, own=cython.ulonglong, opp=cython.ulonglong, empty=cython.ulonglong,
                   kg=cython.ulonglong, down=cython.ulonglong, up=cython.ulonglong)
    cdef unsigned long long _jumpers(self) noexcept
    @cython.locals(first=cython.int)
    cdef int _captures_from(self, list out, int frm, unsigned long long opp, unsigned long long empty) except -1
    @cython.locals(found=cython.bint, d=cython.int, mid=cython.ulonglong, to=cython.int)
    cdef int _jumps(self, list out, int frm, int sq, unsigned long long cap, int depth, unsigned long long opp,
                    unsigned long long empty, int first, int last, unsigned long long promo) except -1
    @cython.locals(d=cython.int, dest=cython.ulonglong, to=cython.int)
    cdef int _king_quiet_moves(self, list out, unsigned long long kg, unsigned long long empty) except -1
