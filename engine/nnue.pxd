# C types of engine/nnue.py: the accumulator stack and the network's rows as int16
# C arrays (typed memoryviews over numpy), the output summed in 64-bit ints.

cimport cython

cpdef long long _clamp_score(long long value)


cdef class Accumulator:
    cdef readonly object network
    cdef readonly int n
    cdef public int ply
    cdef long long scale, out_bias
    cdef short[:, ::1] ft
    cdef short[::1] out
    cdef short[::1] bias
    cdef short[:, ::1] stack
    cdef list rows, out_stm, out_other, lists

    @cython.locals(p=int, top=int, i=int, f=int)
    cpdef refresh(self, list view0, list view1)
    @cython.locals(ply=int, i=int, dst=cython.p_short, src=cython.p_short)
    cpdef push(self)
    cpdef pop(self)
    cpdef add(self, int f0, int f1)
    cpdef sub(self, int f0, int f1)
    @cython.locals(i=int, dst=cython.p_short, row=cython.p_short)
    cpdef add_one(self, int p, int f)
    @cython.locals(i=int, dst=cython.p_short, row=cython.p_short)
    cpdef sub_one(self, int p, int f)
    @cython.locals(s=cython.longlong, n=int, p=int, i=int, v=int, qa=int, w=cython.p_short, row=cython.p_short)
    cpdef int evaluate(self, int turn) except? -1
