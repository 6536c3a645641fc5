# C types of engine/perft.py: the position is the typed base, so that push, pop
# and legal_moves are C calls; counts are C long long.

cimport cython
from engine.position cimport Position

@cython.locals(moves=list, total=cython.longlong, m=cython.longlong)
cpdef long long perft(Position pos, int depth) except -1
