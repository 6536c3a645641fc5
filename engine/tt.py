"""Transposition table: fixed-size typed arrays, sized to the ``Hash`` option.

Slots come in buckets of two. The first slot is depth-preferred: a new entry
replaces it when it is at least as deep, or when the old entry belongs to an
earlier search. Otherwise the new entry goes to the second slot, which is
always replaced. The full key is stored, so index collisions are detected.

A slot is 24 bytes, three words side by side: the key (``keys``), the move
(``moves``: draughts moves need 48 bits) and one packed word (``data``) holding
the value, the depth, the bound and the generation; a slot whose data word is 0
is empty. ``keys``, ``moves`` and ``data`` are strided views of one shared memory
mapping, the whole table in both builds: the memory is ``Hash`` megabytes and no
more; the compiled build reads them through typed memoryviews. A bucket's 48
bytes span one or two cache lines: a probe waits for the memory once or twice,
where three separate arrays made it wait three times.

The helper processes of ``Threads`` (:mod:`engine.smp`) map the same memory
(:meth:`TranspositionTable.fileno`, :meth:`TranspositionTable.attach`) and write
it without locks, so a slot may be read half written. The key word therefore
holds the key XOR the move XOR the data word (Hyatt's lockless hashing, as in
Crafty and Stockfish): a slot whose three words do not come from one store does
not match its key, and is a miss.

The mapping comes zeroed from the system and is never written in advance: a
page costs some microseconds when the search first writes it. Writing a table
in advance (earlier, zeros by a background thread; then the system populating
it) took the CPU, and the process's memory map, from the protocol reader right
when it answered the ``Hash``, ``Clear Hash`` or ``ucinewgame`` (clearing maps a
new table) that made the table, by tens of milliseconds on a busy machine. The
old table is given back by a background thread, in one call outside the GIL, so
that these commands return at once on the reader whatever the size; the new
table fills only as searches write into it.

Values of proven results are stored relative to the node (``value_to_tt``) and
read back relative to the root (``value_from_tt``), so that a mate found
through a transposition keeps its true distance.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import threading

import cython  # type: ignore[import-untyped]
from engine.game import EVAL_LIMIT, NO_MOVE

#: Entry bounds: the stored value is exact, a lower bound (fail high) or an upper bound (fail low).
EXACT, LOWER, UPPER = 0, 1, 2

#: Bytes per slot: key, move and packed data, 8 bytes each.
ENTRY_BYTES = 24
_HASHFULL_SAMPLE = 1000
#: How a dropped table's memory is given back: the memory is shared (helper processes
#: may map it too), and only MADV_REMOVE frees its pages; MADV_DONTNEED would merely
#: drop this process's view of them. None where the system has neither.
_GIVE_BACK = getattr(mmap, "MADV_REMOVE", getattr(mmap, "MADV_DONTNEED", None))
_madvise = None
if os.name == "posix":
    # The C library's madvise, called through ctypes, which lets the GIL go for the
    # call: mmap.madvise holds it, and giving back gigabytes kept the protocol reader
    # out for as long as the system took.
    _madvise = ctypes.CDLL(None, use_errno=True).madvise
    _madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    _madvise.restype = ctypes.c_int
# C constants in the compiled build (cython.declare), plain ints in the pure one.
_M64 = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
#: Fibonacci hashing spreads keys with few varying bits (small exact codes) over the table.
_GOLDEN = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)

# The packed data word: generation (8 bits, 1..255; 0 marks an empty slot), bound
# (2 bits), depth (10 bits), then the signed value in the remaining high bits.
_BOUND_SHIFT = cython.declare(cython.int, 8)
_DEPTH_SHIFT = cython.declare(cython.int, 10)
_VALUE_SHIFT = cython.declare(cython.int, 20)
_VALUE_UNIT = cython.declare(cython.longlong, 1 << 20)
_EVAL_LIMIT = cython.declare(cython.int, EVAL_LIMIT)


def value_to_tt(value: int, ply: int) -> int:
    """A search value at ``ply`` from the root, made relative to its own node for storing."""
    if value > _EVAL_LIMIT:
        return value + ply
    if value < -_EVAL_LIMIT:
        return value - ply
    return value


def value_from_tt(value: int, ply: int) -> int:
    """A node-relative stored value, made relative to the root of a search at ``ply``."""
    if value > _EVAL_LIMIT:
        return value - ply
    if value < -_EVAL_LIMIT:
        return value + ply
    return value


def _address(mapping: mmap.mmap) -> int:
    """Where ``mapping`` is in memory; it must stay open while the address is used."""
    # The buffer is held only for the address: no export outlives this call.
    return ctypes.addressof(ctypes.c_char.from_buffer(mapping))


def _unmap(mapping: mmap.mmap) -> None:
    """Give a dropped table's memory back in one call outside the GIL, then unmap it
    (at once, or, while a view of it is still held, with its last view). A thread
    that asks for the GIL makes the protocol reader hand it over and wait until that
    thread runs, on a busy machine for milliseconds each time: one call asks once."""
    if _madvise is not None and _GIVE_BACK is not None:
        _madvise(_address(mapping), len(mapping), _GIVE_BACK)
    try:
        mapping.close()
    except BufferError:
        pass


class _Descriptor:
    """A table's memory descriptor, closed by :meth:`close` or with the last reference
    to it: a table dropped without a word (an engine made and let go) otherwise kept
    its descriptor open for the life of the process."""

    def __init__(self, fd: int):
        self.fd = fd

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    __del__ = close


class TranspositionTable:
    """The hash table of search results, sized in megabytes.

    :meth:`lookup` is the search's probe: on a hit it leaves the entry in
    ``found_move``, ``found_depth``, ``found_bound`` and ``found_value`` (no
    object per probe); :meth:`probe` returns the entry as a tuple for the rest.

    >>> tt = TranspositionTable(1)
    >>> tt.store(0x1234, 7, 3, EXACT, 42)
    >>> tt.probe(0x1234)[1:5]
    (7, 3, 0, 42)
    >>> tt.probe(0x4321) is None
    True
    """

    def __init__(self, hash_mb: int = 16):
        self.generation = 1
        #: Tables made by this object so far: a new one at every resize and clear.
        self.made = 0
        self._mapping: mmap.mmap | None = None
        self._fd: _Descriptor | None = None
        self.found_move = NO_MOVE
        self.found_depth = self.found_bound = self.found_value = 0
        self.resize(hash_mb)

    def resize(self, hash_mb: int) -> None:
        """Reallocate for ``hash_mb`` megabytes (at least 512 buckets); clears."""
        self.buckets = max(512, hash_mb * (1 << 20) // (2 * ENTRY_BYTES))
        self._allocate()

    def _allocate(self) -> None:
        old = self._mapping
        size = ENTRY_BYTES * 2 * self.buckets
        if hasattr(os, "memfd_create"):
            # Memory with a descriptor, which other processes can be handed to map it.
            fd = os.memfd_create("zermelo-tt")
            os.ftruncate(fd, size)
            mapping = mmap.mmap(fd, size)
        else:
            fd, mapping = -1, mmap.mmap(-1, size)
        self._map(mapping)
        self._close_fd()
        self._fd = _Descriptor(fd) if fd >= 0 else None
        self.made += 1
        if old is not None:
            threading.Thread(target=_unmap, args=(old,), name="tt-give-back", daemon=True).start()

    def _map(self, mapping: mmap.mmap) -> None:
        whole = memoryview(mapping)
        self.keys = whole.cast("Q")[0::3]
        self.moves = whole.cast("q")[1::3]
        self.data = whole.cast("q")[2::3]
        self._mapping = mapping

    def _close_fd(self) -> None:
        if self._fd is not None:
            self._fd.close()
            self._fd = None

    def fileno(self) -> int:
        """The descriptor of the table's memory, which another process maps with
        :meth:`attach`; -1 where the system has no such memory (then the table is
        this process's own)."""
        return -1 if self._fd is None else self._fd.fd

    def attach(self, fd: int, buckets: int) -> None:
        """Use the table of another process, whose memory ``fd`` (its :meth:`fileno`,
        handed over) holds ``buckets`` buckets; this table's own memory is given
        back, and ``fd`` is this table's to close."""
        old = self._mapping
        try:
            mapping = mmap.mmap(fd, ENTRY_BYTES * 2 * buckets)
        finally:
            os.close(fd)
        self.buckets = buckets
        self._map(mapping)
        self._close_fd()
        self.made += 1
        if old is not None:
            # Only this process's view: the memory is the owner's to give back.
            try:
                old.close()
            except BufferError:
                pass

    def size_bytes(self) -> int:
        """Bytes of the table's storage: ``Hash`` megabytes, less under one bucket."""
        return 2 * self.buckets * ENTRY_BYTES

    def clear(self) -> None:
        """Forget every entry."""
        self._allocate()

    def prefault(self) -> None:
        """Touch every page of the table's memory once, keeping what it holds: the
        system's page faults of a fresh table (milliseconds for 16 MB) are then paid
        here, not by the first search's probes (``zermelo bench`` times the search alone)."""
        mapping = self._mapping
        assert mapping is not None  # mapped from the start
        for offset in range(0, len(mapping), mmap.PAGESIZE):
            mapping[offset] = mapping[offset]

    def new_search(self) -> None:
        """Start a new generation: entries of earlier searches become replaceable.

        Every search calls this before it reads or writes the table."""
        self.generation = self.generation % 255 + 1

    @cython.locals(h=cython.ulonglong)
    def _bucket(self, key: int) -> int:
        """The first slot of ``key``'s bucket: the high bits of a multiplicative hash, scaled."""
        h = (key * _GOLDEN) & _M64
        return ((h >> 32) * self.buckets >> 32) << 1

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.locals(i=cython.longlong, d=cython.longlong, m=cython.longlong)
    def lookup(self, key: int) -> bool:
        """Whether ``key`` is stored; on a hit the ``found_*`` attributes hold its entry."""
        i = self._bucket(key)
        # Each word is read once: the check and the entry must see the same slot.
        d, m = self.data[i], self.moves[i]
        if d == 0 or self.keys[i] ^ (m & _M64) ^ (d & _M64) != key:
            i += 1
            d, m = self.data[i], self.moves[i]
            if d == 0 or self.keys[i] ^ (m & _M64) ^ (d & _M64) != key:
                return False
        self.found_move = m
        self.found_bound = (d >> _BOUND_SHIFT) & 3
        self.found_depth = (d >> _DEPTH_SHIFT) & 0x3FF
        self.found_value = d >> _VALUE_SHIFT
        return True

    def probe(self, key: int) -> tuple | None:
        """The entry stored for ``key`` as ``(key, move, depth, bound, value, generation)``, or ``None``."""
        if not self.lookup(key):
            return None
        return (key, self.found_move, self.found_depth, self.found_bound, self.found_value,
                self.data[self._slot(key)] & 0xFF)

    @cython.locals(i=cython.longlong)
    def _slot(self, key: int) -> int:
        i = self._bucket(key)
        return i if self._key_at(i) == key and self.data[i] != 0 else i + 1

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _key_at(self, i: int) -> int:
        """The key of the entry in slot ``i`` (torn slots give a key nobody stored)."""
        return self.keys[i] ^ (self.moves[i] & _M64) ^ (self.data[i] & _M64)

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.locals(i=cython.longlong, d=cython.longlong, new=cython.longlong)
    def store(self, key: int, move: int, depth: int, bound: int, value: int) -> None:
        """Record a search result for ``key`` (``value`` already passed through ``value_to_tt``).

        A result without a move keeps the move an earlier entry of the same
        position had.
        """
        i = self._bucket(key)
        d = self.data[i]
        if not (d == 0 or self._key_at(i) == key or depth >= (d >> _DEPTH_SHIFT) & 0x3FF
                or d & 0xFF != self.generation):
            i += 1
            d = self.data[i]
        if move == NO_MOVE and d != 0 and self._key_at(i) == key:
            move = self.moves[i]
        # value * unit, not value << shift: a left shift of a negative C integer is undefined.
        new = value * _VALUE_UNIT + (depth << _DEPTH_SHIFT) + (bound << _BOUND_SHIFT) + self.generation
        self.keys[i] = key ^ (move & _M64) ^ (new & _M64)
        self.moves[i] = move
        self.data[i] = new

    @cython.locals(n=cython.longlong, i=cython.longlong, d=cython.longlong, used=cython.longlong)
    def hashfull(self) -> int:
        """Per mille of sampled slots holding an entry of the current search."""
        n = min(_HASHFULL_SAMPLE, len(self.data))
        gen = self.generation
        used = 0
        for i in range(n):
            d = self.data[i]
            if d != 0 and d & 0xFF == gen:
                used += 1
        return used * 1000 // n
