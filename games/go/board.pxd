# C types of games/go/board.py for the compiled build: the board stays a list of
# ints (other modules read and write it), every index, cell and count a C int,
# every key a C 64-bit int, the undo stacks lists.
cimport cython
from engine.position cimport Position
from games.go.benson cimport unconditional
from games.go.playout cimport Playout

cdef int _EMPTY, _BLACK, _WHITE, _EDGE
cdef unsigned long long _MIX1, _MIX2, _MASK64

@cython.locals(z="unsigned long long")
cpdef unsigned long long history_mix(unsigned long long board_key) noexcept


cdef class GoPosition(Position):
    cdef public object game
    cdef public list board
    cdef public int ko, passes, size, stride, komi2
    cdef public list points
    cdef public long long pass_move
    cdef public bint superko
    cdef list _zk, _ko_keys, _pass_keys
    cdef unsigned long long _turn_key
    cdef tuple _dirs
    cdef public unsigned long long board_key
    cdef public dict seen
    cdef list _h_point, _h_key, _h_bkey, _h_ko, _h_passes, _h_caps, _caps
    cdef list _mark
    cdef long long _stamp  # never wraps: a stale mark must not match a new stamp

    @cython.locals(board=list, dirs=tuple, mark=list, stack=list, colour=int, stamp="long long",
                   x=int, y=int, d=int, b=int)
    cdef bint _has_liberty(self, int p) except -1
    @cython.locals(board=list, dirs=tuple, zk=list, caps=list, stack=list, colour=int, base=int,
                   bk="unsigned long long", x=int, y=int, d=int)
    cdef void _remove(self, int p) except *
    @cython.locals(board=list, p=int)
    cpdef bint all_groups_live(self) except -1

    @cython.locals(board=list, dirs=tuple, size=int, zk=list, label=list, lib_mark=list, libs=list,
                   group_keys=list, p=int, colour=int, gid=int, base=int, n=int, k="unsigned long long",
                   stack=list, x=int, y=int, d=int, b=int, own=int, opp=int, own_key=int, moves=list,
                   m=int, breathes=bint, taken="unsigned long long", g1=int, g2=int, g3=int)
    cpdef list legal_moves(self)
    @cython.locals(moves=list, board=list, points=list, s=int, own=int, opp=int, plays=list, i=int,
                   m=int, p=int, eye=bint, d=int, b=int, opp_diagonals=int, edge=bint)
    cpdef list playout_moves(self)
    @cython.locals(board=Playout, s=int, w=int, stride=int, i=int, p=int)
    cpdef object playout(self, unsigned long long seed, list played, bint heavy)
    @cython.locals(p=int, ok=bint)
    cpdef bint is_legal(self, long long move) except -1
    cpdef list noisy_moves(self)
    cpdef bint is_noisy(self, long long move) except -1
    @cython.locals(p=int, board=list, score="long long", d=int, b=int)
    cpdef long long move_score(self, long long move) except? -1
    cpdef bint in_check(self) except -1
    cpdef bint can_stand_pat(self) except -1
    @cython.locals(key="unsigned long long", p=int, board=list, dirs=tuple, own=int, opp=int,
                   old_bk="unsigned long long", base=int, d=int, y=int, ko=int, b=int, n=int)
    cpdef push(self, long long move)
    @cython.locals(p=int, seen_key="unsigned long long", n=int, board=list, base=int, caps=list,
                   colour=int)
    cpdef pop(self)
    cpdef push_null(self)
    cpdef bint null_move_allowed(self) except -1

    @cython.locals(board=list, dirs=tuple, black=int, white=int, stamp="long long", mark=list, p=int, b=int,
                   stack=list, n=int, border=int, x=int, d=int, y=int, c=int)
    cpdef tuple area(self)
    @cython.locals(black=int, white=int)
    cpdef int score2(self) except? -1
    cpdef object outcome(self)
    @cython.locals(s=int)
    cpdef int no_moves_value(self) except? -2
    cpdef bint is_repetition(self) except -1
    @cython.locals(board=list, dirs=tuple, points=list, alive=list, owner=list, far=int, dist_b=list,
                   dist_w=list, colour=int, dist=list, frontier=list, nxt=list, p=int, d=int, x=int,
                   e=int, y=int, safe_b=int, safe_w=int, rest_b=int, rest_w=int, c=int)
    cpdef tuple estimate(self)
    @cython.locals(safe_b=int, safe_w=int, rest_b=int, rest_w=int, s=int)
    cpdef int evaluate(self) except? -1
    @cython.locals(board=list, zk=list, size=int, k="unsigned long long", p=int, c=int)
    cpdef unsigned long long compute_board_key(self) except? 0
