# C types of games/reversi/bitboard.py for the compiled build: bitboards are
# unsigned 64-bit ints, the ray tables C arrays.

cimport cython

cdef unsigned long long _INNER
cdef unsigned long long _MASK, _M1, _M2, _M4, _H01
cdef unsigned long long _RAYS_UP[256]
cdef unsigned long long _RAYS_DOWN[256]
cdef unsigned long long _DEBRUIJN
cdef int _DEBRUIJN_INDEX[64]

cpdef int popcount(unsigned long long x) noexcept
cpdef int bit_index(unsigned long long b) noexcept
cdef unsigned long long _high_bit(unsigned long long x) noexcept
@cython.locals(s2=cython.int, g=cython.ulonglong, p=cython.ulonglong, moves=cython.ulonglong)
cdef unsigned long long _line_moves(unsigned long long own, unsigned long long pro, int s) noexcept
@cython.locals(inner=cython.ulonglong, moves=cython.ulonglong)
cpdef unsigned long long mobility(unsigned long long own, unsigned long long opp) noexcept
@cython.locals(f=cython.ulonglong, not_opp=cython.ulonglong, i=cython.int, ray=cython.ulonglong,
               x=cython.ulonglong, b=cython.ulonglong)
cpdef unsigned long long flips(unsigned long long own, unsigned long long opp, int sq) noexcept
