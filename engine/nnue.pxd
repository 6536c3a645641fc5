# C types of engine/nnue.py: the accumulator stack and the network's rows as int16
# C arrays (typed memoryviews over numpy), the output summed in 64-bit ints.

cimport cython

cpdef long long _clamp_score(long long value)


cdef class Accumulator:
    cdef readonly object network
    cdef readonly int n
    cdef public int ply
    cdef long long scale, out_bias
    cdef const short[:, ::1] ft
    cdef const short[::1] out
    cdef const short[::1] bias
    cdef short[:, ::1] stack
    cdef list rows, out_stm, out_other, lists

    @cython.locals(p=int, top=int, i=int, f=int)
    cpdef refresh(self, list view0, list view1)
    @cython.locals(ply=int, p=int, i=int)
    cpdef push(self)
    cpdef pop(self)
    cpdef add(self, int f0, int f1)
    cpdef sub(self, int f0, int f1)
    @cython.locals(top=int, i=int)
    cpdef add_one(self, int p, int f)
    @cython.locals(top=int, i=int)
    cpdef sub_one(self, int p, int f)
    @cython.locals(s=cython.longlong, n=int, a=int, b=int, i=int, v=int, qa=int)
    cpdef int evaluate(self, int turn) except? -1
