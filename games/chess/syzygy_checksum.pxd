# C types of games/chess/syzygy_checksum.py for the compiled build: the hash's words
# as unsigned 64-bit C ints (their arithmetic wraps as the reference's does, the
# masks become no-ops), the CRC tables as a C array, the input as a typed memoryview.
cimport cython

ctypedef unsigned long long u64

cdef u64 M64, M32, K0, K1, K2, K3, KMUL
cdef unsigned int _CRC[2048]

@cython.locals(x=u64, y=u64)
cdef u64 _crc(u64 crc, u64 v) noexcept
cdef u64 _rot(u64 v, int s) noexcept
@cython.locals(a=u64, b=u64)
cdef u64 _hash16(u64 u, u64 v) noexcept
cdef u64 _shift_mix(u64 v) noexcept

@cython.locals(a=u64, b=u64, c=u64, d=u64, e=u64)
cpdef list crc256_begin(const u64[::1] w, Py_ssize_t s, u64 n, u64 seed)
@cython.locals(a=u64, b=u64, c=u64, d=u64, e=u64, f=u64, g=u64, h=u64, i=u64, j=u64, t=u64,
               m=u64, old=u64, z=int, q=Py_ssize_t)
cpdef crc256_steps(const u64[::1] w, Py_ssize_t p, Py_ssize_t count, bint alternate, list st)
cpdef crc256_blocks(const u64[::1] w, Py_ssize_t p, Py_ssize_t blocks, list st)
@cython.locals(a=u64, b=u64, c=u64, d=u64, e=u64, f=u64, g=u64, h=u64, i=u64, j=u64, t=u64,
               r0=u64, r1=u64, r2=u64, p=Py_ssize_t, rest=Py_ssize_t)
cpdef tuple crc256_finish(const u64[::1] w, Py_ssize_t s, Py_ssize_t n, list st)
