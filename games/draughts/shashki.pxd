# C types of games/draughts/shashki.py for the compiled build (see position.pxd).

cimport cython
from games.draughts.position cimport DraughtsPosition, DraughtsTables, lowest, popcount

cdef long long PROMO
cdef list _QUIET
cdef unsigned long long BIT[64]
cdef unsigned long long MAIN_ROAD


cdef class ShashkiPosition(DraughtsPosition):
    @cython.locals(own=cython.ulonglong, opp=cython.ulonglong, empty=cython.ulonglong, kg=cython.ulonglong,
                   men=cython.ulonglong, found=cython.ulonglong, i=cython.int, a=cython.int, b=cython.int)
    cdef unsigned long long _jumpers(self) noexcept
    @cython.locals(t=DraughtsTables, d=cython.int, k=cython.int, j=cython.int, behind=cython.int)
    cdef bint _king_can_capture(self, int sq, unsigned long long opp, unsigned long long empty) noexcept
    cdef int _captures_from(self, list out, int frm, unsigned long long opp, unsigned long long empty) except -1
    @cython.locals(t=DraughtsTables, found=cython.bint, d=cython.int, mid=cython.ulonglong, to=cython.int)
    cdef int _man_jumps(self, list out, int frm, int sq, unsigned long long cap, int depth,
                        unsigned long long opp, unsigned long long empty, unsigned long long promo) except -1
    @cython.locals(tab=DraughtsTables, found=cython.bint, d=cython.int, k=cython.int, j=cython.int, ncap=cython.ulonglong,
                   onward=cython.ulonglong, last=cython.int, t=cython.int, n=cython.int)
    cdef int _king_jumps(self, list out, int frm, int sq, unsigned long long cap, int depth,
                         unsigned long long opp, unsigned long long empty, long long crowned) except -1
    @cython.locals(t=DraughtsTables, frm=cython.int, d=cython.int, k=cython.int, j=cython.int)
    cdef int _king_quiet_moves(self, list out, unsigned long long kg, unsigned long long empty) except -1
    @cython.locals(kings=cython.ulonglong, weak=cython.int, lone=cython.ulonglong, many=cython.ulonglong,
                   n=cython.int)
    cdef int _drawish_adjust(self, int diff) noexcept
