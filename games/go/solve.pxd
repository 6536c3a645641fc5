# C types of games/go/solve.py for the compiled build: the search's recursion, the
# symmetric keys and the table in C (typed memoryviews over the arrays), the moves
# and the line lists and a set of Python ints.
cimport cython
from games.go.benson cimport unconditional
from games.go.board cimport GoPosition

cdef int _EMPTY, _BLACK, _WHITE


cdef class GoSolver:
    cdef public object game
    cdef public int width, height, n, stride, nsym
    cdef public list points, syms
    cdef unsigned long long[::1] own_keys, opp_keys, ko_keys
    cdef public unsigned long long pass_key
    cdef long long[::1] forward, inverse
    cdef dict index_of
    cdef list line_value
    cdef public long long size
    cdef unsigned long long mask
    cdef unsigned long long[::1] tt_keys
    cdef long long[::1] tt_data
    cdef long long[::1] history
    cdef public long long nodes
    cdef bint heuristic
    cdef int refused_ply
    cdef public long long iteration
    cdef public object deadline, max_nodes
    cdef long long next_check

    @cython.locals(board=list, points=list, n=int, own=int, nsym=int, ks="unsigned long long[8]",
                   own_keys="unsigned long long[::1]", opp_keys="unsigned long long[::1]",
                   i=int, c=int, s=int, best=int)
    cdef (unsigned long long, int) _canonical(self, GoPosition pos)
    @cython.locals(slot="unsigned long long")
    cdef long long _probe(self, unsigned long long key)
    @cython.locals(slot="unsigned long long", canon="long long", old="long long", 
                   guess="long long")
    cdef void _store(self, unsigned long long key, int lo, int hi, int move, int sym, int depth,
                     int value, bint upper)
    cdef void _check(self) except *
    @cython.locals(n=int, black=int, white=int, key="unsigned long long", sym=int, data="long long",
                   lo=int, hi=int, tt_move=int, canon="long long", board=list, points=list, alive=list,
                   owner=list, i=int, p=int, c=int, own=int, opp=int, value=int,
                   moves=list, best=int, best_move=int, refused=int, at=int, heuristic=bint, m=int, v=int,
                   guess="long long", safe_b=int, safe_w=int, rest_b=int, rest_w=int)
    cdef int _search(self, GoPosition pos, dict line, int ply, int depth, int beta) except? -9999
    @cython.locals(n=int, hist="long long[::1]", line_value=list, i=int, m=int, top=bint, h="long long",
                   lv=int, j=int, o=int, ho="long long")
    cdef void _order(self, list moves, int tt_move, int hist_base) except *
    @cython.locals(key="unsigned long long", sym=int, data="long long", canon="long long")
    cpdef int _root_move(self, GoPosition root) except? -2
    @cython.locals(points=list, invaded=int, p=int, out=list, m=int, o=int)
    cdef list _useful(self, list board, list owner, list moves)
