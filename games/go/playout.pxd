# C types of games/go/playout.py for the compiled build: the board, the groups and the
# empty list are typed memoryviews over the arrays (no bounds or sign checks, set at the
# top of the .py: every index is a board cell), every method a C function but those the
# position and the tests call.
cimport cython

cdef int _EMPTY, _BLACK, _WHITE, _EDGE
cdef unsigned long long _MASK64, _MULT
cdef int PRIOR_EVEN, PRIOR_CAPTURE_ONE, PRIOR_CAPTURE_MANY, PRIOR_PAT3, PRIOR_SELF_ATARI, PRIOR_EMPTY_AREA, PRIOR_EYE_FILL


cdef class Playout:
    cdef public int width, height, stride, cells, npoints
    cdef public int[::1] points, board, head, nxt, gsize, empties, eidx, mark, moves, ring, nb, diag
    cdef public long long[::1] libs, lsum, lsq, owner
    cdef signed char[::1] table
    cdef public int nempty, ko, turn, passes, last, nmoves, stamp
    cdef unsigned long long state

    cpdef void seed(self, unsigned long long seed) noexcept
    @cython.locals(x="unsigned long long")
    cdef int rand(self, int n) noexcept
    @cython.locals(cells="int[::1]", p=int, i=int, k=int, d=int, q=int)
    cpdef void load(self, list board, int turn, int ko, int passes) except *
    cdef inline void _add_lib(self, int g, int q) noexcept
    cdef inline void _sub_lib(self, int g, int q) noexcept
    @cython.locals(x=int, na=int)
    cdef int _merge(self, int a, int b) noexcept
    @cython.locals(n="long long")
    cdef inline bint in_atari(self, int g) noexcept
    cdef inline int atari_lib(self, int g) noexcept
    @cython.locals(cells="int[::1]", n=int, x=int, k=int, d=int, q=int, c=int)
    cdef int _remove(self, int g) noexcept
    @cython.locals(cells="int[::1]", own=int, opp=int, i=int, q=int, g=int, k=int, d=int, c=int, h=int,
                   taken=int, ko=int, n=int)
    cpdef void play(self, int p) noexcept
    @cython.locals(cells="int[::1]", own=int, k=int, d=int, q=int, c=int, g=int)
    cpdef bint legal(self, int p) noexcept
    @cython.locals(cells="int[::1]", k=int, d=int, c=int, opp=int, bad=int, edge=int)
    cdef bint is_eye(self, int p, int colour) noexcept
    @cython.locals(cells="int[::1]", own=int, stamp=int, mark="int[::1]", libs=int, stones=int,
                   k=int, d=int, q=int, c=int, g=int, x=int, e=int, y=int)
    cdef bint self_atari(self, int p) noexcept
    @cython.locals(cells="int[::1]", ring="int[::1]", k=int, i=int)
    cdef int code(self, int p) noexcept
    @cython.locals(cells="int[::1]", lib=int, x=int, k=int, d=int, q=int, c=int, y=int)
    cdef int _save_or_capture(self, int g) noexcept
    @cython.locals(p=int, cells="int[::1]", k=int, q=int, c=int, m=int, start=int, ring="int[::1]", own=int,
                   i=int)
    cdef int heavy_move(self) noexcept
    @cython.locals(n=int, own=int, start=int, i=int, p=int)
    cdef int random_move(self, bint heavy) noexcept
    @cython.locals(cap=int, p=int)
    cpdef int run(self, unsigned long long seed, bint heavy) noexcept
    @cython.locals(cells="int[::1]", total=int, i=int, p=int, c=int, v=int, seen=int, k=int, b=int)
    cpdef int score(self) noexcept
    @cython.locals(cells="int[::1]", s=int, last=int, own=int, out=list, i=int, p=int, n=int, w=int, taken=int,
                   k=int, q=int, c=int, bonus=int, dx=int, dy=int, dist=int, line=int)
    cpdef list priors(self, list points)
    @cython.locals(row=int, col=int, a=int, b=int, c=int)
    cdef int line(self, int p) noexcept
    @cython.locals(s=int, row=int, col=int, dy=int, r=int, span=int, dx=int, c=int)
    cdef bint empty_around(self, int p) noexcept
    @cython.locals(i=int)
    cpdef void clear_owner(self) noexcept
