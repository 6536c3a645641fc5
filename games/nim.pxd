from engine.position cimport Position

cdef class NimPosition(Position):
    cdef public object game
    cdef public list heaps
    cdef list _stack
