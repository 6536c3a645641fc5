# C types of games/go/benson.py for the compiled build: the board stays a list of
# ints (the position's), every index, count and flag a C int.
cimport cython

cdef int EMPTY, BLACK, WHITE, EDGE

@cython.locals(size=int, nblocks=int, p=int, x=int, y=int, d=int, b=int, k=int, i=int, r=int,
               rid=int, nregions=int, empties=int, first=int, empty=bint, touches=bint,
               all_touch=bint, changed=bint, dirs=tuple, stack=list, block=list, region=list,
               border=list, border_start=list, vital=list, vital_start=list, touching=list,
               in_region=list, near_point=list, hits=list, in_x=list, in_r=list, vital_count=list)
cdef void _colour(list board, list points, int stride, int colour, list alive, list owner) except *

cpdef tuple unconditional(list board, list points, int stride)

@cython.locals(alive=list, owner=list, black=int, white=int, p=int, c=int)
cpdef tuple safe_counts(list board, list points, int stride)
