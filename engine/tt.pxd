# The typed transposition table of engine/tt.py: three strided arrays (views of one
# shared memory mapping, a slot's three words side by side) read through typed
# memoryviews, and a probe that returns its entry in C attributes.

cdef class TranspositionTable:
    cdef public int generation
    cdef public long long made
    cdef public long long buckets
    cdef public long long found_move
    cdef public int found_depth, found_bound, found_value
    cdef unsigned long long[:] keys
    cdef long long[:] moves
    cdef long long[:] data
    cdef object _mapping, _fd

    cpdef resize(self, long long hash_mb)
    cdef _allocate(self)
    cdef _map(self, object mapping)
    cdef _close_fd(self)
    cpdef int fileno(self) except? -2
    cpdef attach(self, int fd, long long buckets)
    cpdef long long size_bytes(self)
    cpdef clear(self)
    cpdef new_search(self)
    cdef inline long long _bucket(self, unsigned long long key) noexcept
    cpdef bint lookup(self, unsigned long long key) except -1
    cdef long long _slot(self, unsigned long long key) except -1
    cdef inline unsigned long long _key_at(self, long long i) noexcept
    cpdef store(self, unsigned long long key, long long move, int depth, int bound, int value)
    cpdef int hashfull(self) except -1

cpdef int value_to_tt(int value, int ply) noexcept
cpdef int value_from_tt(int value, int ply) noexcept
