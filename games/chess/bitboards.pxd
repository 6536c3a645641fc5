# C types of games/chess/bitboards.py: bit scans by the C compiler's builtins and
# slider attacks by ray walks over C arrays.

cdef extern from *:
    int __builtin_ctzll(unsigned long long)
    int __builtin_clzll(unsigned long long)
    int __builtin_popcountll(unsigned long long)

cdef unsigned long long _RAY[8][64]

cpdef int lsb(unsigned long long bb) noexcept
cpdef int msb(unsigned long long bb) noexcept
cpdef int popcount(unsigned long long bb) noexcept
cimport cython

@cython.locals(ray=cython.ulonglong, blockers=cython.ulonglong)
cdef inline unsigned long long _ray_up(int d, int sq, unsigned long long occupied) noexcept
@cython.locals(ray=cython.ulonglong, blockers=cython.ulonglong)
cdef inline unsigned long long _ray_down(int d, int sq, unsigned long long occupied) noexcept
cpdef unsigned long long bishop_attacks(int sq, unsigned long long occupied) noexcept
cpdef unsigned long long rook_attacks(int sq, unsigned long long occupied) noexcept
cpdef unsigned long long queen_attacks(int sq, unsigned long long occupied) noexcept
