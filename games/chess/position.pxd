# games/chess/position.py: an extension type, so that the board's cpdef methods
# are called without Python dispatch.

from games.chess.board cimport Board

cdef class ChessPosition(Board):
    pass
