"""The checksum the Syzygy generator appends to every table file, and its check.

A published Syzygy file is ``64·k + 16`` bytes: its last 16 bytes are a checksum of
the ``64·k`` before them, which the generator's ``tbcheck`` verifies. The body is cut
into chunks of 2^24 bytes; each chunk is hashed by CityHashCrc256 (CityHash 1.0.x,
its CRC variant: CRC-32C steps without the CRC's pre- and post-inversion, as the
SSE4.2 instruction does them); the chunks' 4×64-bit results, little-endian, are
hashed by CityHashCrc128 (CityHash128 up to 900 bytes, else words 2 and 3 of
CityHashCrc256), whose two words, little-endian, are the checksum. CityHash 1.1
(the ``cityhash`` package) gives other values.

Every read of the hash falls on a multiple of 8 bytes from a chunk's start (a body
is a whole number of 64-byte blocks), so a chunk is read as 64-bit words. The
compiled build runs the loops in C (see the ``.pxd``); the pure build computes the
same with Python ints masked to 64 bits. :class:`FileChecksum` verifies one file
in slices, so that the caller's ``control.check()`` between two slices may stop it
and a next call resumes where it stopped.
"""

from __future__ import annotations

import os
import sys
from array import array

import cython  # type: ignore[import-untyped]

from engine.files import open_regular

M64 = 0xFFFFFFFFFFFFFFFF
M32 = 0xFFFFFFFF
K0 = 0xC3A5C85C97CB3127
K1 = 0xB492B66FBE98F273
K2 = 0x9AE16A3B2F90404F
K3 = 0xC949D7C7509E6557
KMUL = 0x9DDFEA08EB382D69
#: Bytes hashed by one CityHashCrc256 of the body.
CHUNK = 1 << 24
#: Blocks of 240 bytes (30 words) hashed between two looks at the caller's control:
#: a few milliseconds in the pure build, well under one in the compiled one.
SLICE_BLOCKS = 64
#: The checksum after the body.
TAIL = 16
_BIG_ENDIAN = sys.byteorder == "big"


def _crc_tables() -> list[int]:
    """CRC-32C (Castagnoli, reflected) in slicing-by-8 tables: table ``k`` (entries
    ``256·k`` on) is a byte followed by ``k`` zero bytes."""
    t = [0] * 2048
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ (0x82F63B78 if c & 1 else 0)
        t[n] = c
    for n in range(256):
        c = t[n]
        for k in range(1, 8):
            c = t[c & 0xFF] ^ (c >> 8)
            t[256 * k + n] = c
    return t


_CRC = _crc_tables()


def _crc(crc, v):
    """One CRC-32C step over the 8 bytes of ``v`` (``_mm_crc32_u64``: no inversion)."""
    x = (crc ^ v) & M32
    y = v >> 32
    return (_CRC[1792 + (x & 0xFF)] ^ _CRC[1536 + (x >> 8 & 0xFF)] ^ _CRC[1280 + (x >> 16 & 0xFF)]
            ^ _CRC[1024 + (x >> 24)] ^ _CRC[768 + (y & 0xFF)] ^ _CRC[512 + (y >> 8 & 0xFF)]
            ^ _CRC[256 + (y >> 16 & 0xFF)] ^ _CRC[y >> 24])


def _rot(v, s):
    """``v`` rotated right by ``s`` (1..63) bits."""
    return ((v >> s) | (v << (64 - s))) & M64


def _hash16(u, v):
    """CityHash's Hash128to64 of the words ``u`` (low) and ``v`` (high)."""
    a = ((u ^ v) * KMUL) & M64
    a ^= a >> 47
    b = ((v ^ a) * KMUL) & M64
    b ^= b >> 47
    return (b * KMUL) & M64


def _shift_mix(v):
    return v ^ (v >> 47)


def crc256_begin(w, s, n, seed):
    """The state of CityHashCrc256Long over the ``n`` bytes (``n >= 240``) from word
    ``s`` of ``w``: ``[a, b, c, d, e, f, g, h, i, j, t, result0, result1]``."""
    a = (w[s + 7] + K0) & M64
    b = (w[s + 12] + K0) & M64
    c = _hash16(b, n)
    d = (w[s + 15] * K0 + n) & M64
    e = (w[s + 23] + seed) & M64
    return [a, b, c, d, e, seed, 0, 0, 0, 0, (c + d) & M64, c, d]


# Indices stay within the chunk: the callers count steps from its length.
@cython.boundscheck(False)
@cython.wraparound(False)
def crc256_steps(w, p, count, alternate, st):
    """``count`` steps of 40 bytes from word ``p`` on the state ``st`` (updated).
    A 240-byte block alternates multipliers 1 and ``K0`` (``alternate``); the tail
    steps all use ``K0``."""
    a, b, c, d, e = st[0], st[1], st[2], st[3], st[4]
    f, g, h, i, j, t = st[5], st[6], st[7], st[8], st[9], st[10]
    for q in range(count):
        if alternate and not q & 1:
            m = 1
            z = 1
        else:
            m = K0
            z = 0
        old = a
        a = (_rot(b, 41 ^ z) * m + w[p]) & M64
        b = (_rot(c, 27 ^ z) * m + w[p + 1]) & M64
        c = (_rot(d, 41 ^ z) * m + w[p + 2]) & M64
        d = (_rot(e, 33 ^ z) * m + w[p + 3]) & M64
        e = (_rot(t, 25 ^ z) * m + w[p + 4]) & M64
        t = old
        f = _crc(f, a)
        g = _crc(g, b)
        h = _crc(h, c)
        i = _crc(i, d)
        j = _crc(j, e)
        p += 5
    st[0], st[1], st[2], st[3], st[4] = a, b, c, d, e
    st[5], st[6], st[7], st[8], st[9], st[10] = f, g, h, i, j, t


def crc256_blocks(w, p, blocks, st):
    """``blocks`` blocks of 240 bytes from word ``p`` (the main loop)."""
    crc256_steps(w, p, 6 * blocks, True, st)


def crc256_finish(w, s, n, st):
    """The last bytes (after the ``n // 240`` blocks) and the final mix: the four words
    of CityHashCrc256Long over the ``n`` bytes from word ``s``."""
    p = s + n // 240 * 30
    rest = n % 240
    crc256_steps(w, p, rest // 40, False, st)
    if rest % 40:
        # The last step overlaps the one before: it hashes the final 40 bytes.
        crc256_steps(w, s + (n - 40) // 8, 1, False, st)
    a, b, c, d, e = st[0], st[1], st[2], st[3], st[4]
    f, g, h, i, j, t = st[5], st[6], st[7], st[8], st[9], st[10]
    r0, r1 = st[11], st[12]
    j = (j + (i << 32)) & M64
    a = _hash16(a, j)
    h = (h + (g << 32)) & M64
    b = (b + h) & M64
    c = (_hash16(c, f) + i) & M64
    d = _hash16(d, (e + r0) & M64)
    j = (j + e) & M64
    i = (i + _hash16(h, t)) & M64
    e = (_hash16(a, d) + j) & M64
    f = (_hash16(b, c) + a) & M64
    g = (_hash16(j, i) + c) & M64
    r0 = (e + f + g + h) & M64
    a = (_shift_mix(((a + g) * K0) & M64) * K0 + b) & M64
    r1 = (r1 + a + r0) & M64
    a = (_shift_mix((a * K0) & M64) * K0 + c) & M64
    r2 = (a + r1) & M64
    a = (_shift_mix(((a + e) * K0) & M64) * K0) & M64
    return r0, r1, r2, (a + r2) & M64


def crc256(w, s, n):
    """CityHashCrc256 of the ``n`` bytes (a multiple of 8) from word ``s`` of ``w``."""
    if n < 240:
        # Short input: zero-padded to one block, its length in the seed.
        pad = array("Q", [0]) * 30
        for k in range(n // 8):
            pad[k] = w[s + k]
        return _crc256_long(pad, 0, 240, ~n & M32)
    return _crc256_long(w, s, n, 0)


def _crc256_long(w, s, n, seed):
    st = crc256_begin(w, s, n, seed)
    crc256_blocks(w, s, n // 240, st)
    return crc256_finish(w, s, n, st)


def _weak32(w, s, a, b):
    """CityHash's WeakHashLen32WithSeeds over words ``s..s+3``: a pair of words."""
    a = (a + w[s]) & M64
    b = _rot((b + a + w[s + 3]) & M64, 21)
    c = a
    a = (a + w[s + 1] + w[s + 2]) & M64
    b = (b + _rot(a, 44)) & M64
    return (a + w[s + 3]) & M64, (b + c) & M64


def _city_murmur(w, s, n, lo, hi):
    """CityMurmur of ``n`` bytes (a multiple of 8, ``16 <= n < 128``) from word ``s``."""
    a, b = lo, hi
    if n <= 16:
        a = (_shift_mix((a * K1) & M64) * K1) & M64
        c = (b * K1 + _hash_to16(w, s, n)) & M64
        d = _shift_mix((a + w[s]) & M64)
    else:
        e = s + n // 8
        c = _hash16((w[e - 1] + K1) & M64, a)
        d = _hash16((b + n) & M64, (c + w[e - 2]) & M64)
        a = (a + d) & M64
        for p in range(s, s + (n - 1) // 16 * 2, 2):
            a ^= (_shift_mix((w[p] * K1) & M64) * K1) & M64
            a = (a * K1) & M64
            b ^= a
            c ^= (_shift_mix((w[p + 1] * K1) & M64) * K1) & M64
            c = (c * K1) & M64
            d ^= c
    a = _hash16(a, c)
    b = _hash16(d, b)
    return a ^ b, _hash16(b, a)


def _hash_to16(w, s, n):
    """CityHash's HashLen0to16 of the 16 bytes from word ``s`` (``n`` = 16)."""
    a = w[s]
    b = w[s + n // 8 - 1]
    return _hash16(a, _rot((b + n) & M64, n)) ^ b


def city128(w, s, n):
    """CityHash128 (1.0.x) of the ``n`` bytes (a multiple of 8, at least 32) from word ``s``."""
    x = w[s] ^ K3
    y = w[s + 1]
    s += 2
    n -= 16
    if n < 128:
        return _city_murmur(w, s, n, x, y)
    z = (n * K1) & M64
    v0 = (_rot(y ^ K1, 49) * K1 + w[s]) & M64
    v1 = (_rot(v0, 42) * K1 + w[s + 1]) & M64
    w0 = (_rot((y + z) & M64, 35) * K1 + x) & M64
    w1 = (_rot((x + w[s + 11]) & M64, 53) * K1) & M64
    # CityHash64's inner loop, run twice per 128 bytes.
    while True:
        for _ in range(2):
            x = (_rot((x + y + v0 + w[s + 1]) & M64, 37) * K1) & M64
            y = (_rot((y + v1 + w[s + 6]) & M64, 42) * K1) & M64
            x ^= w1
            y = (y + v0 + w[s + 5]) & M64
            z = (_rot((z + w0) & M64, 33) * K1) & M64
            v0, v1 = _weak32(w, s, (v1 * K1) & M64, (x + w0) & M64)
            w0, w1 = _weak32(w, s + 4, (z + w1) & M64, (y + w[s + 2]) & M64)
            z, x = x, z
            s += 8
        n -= 128
        if n < 128:
            break
    x = (x + _rot((v0 + z) & M64, 49) * K0) & M64
    z = (z + _rot(w0, 37) * K0) & M64
    # Up to four 32-byte pieces hashed again from the end.
    done = 0
    while done < n:
        done += 32
        q = s + (n - done) // 8
        y = (_rot((x + y) & M64, 42) * K0 + v1) & M64
        w0 = (w0 + w[q + 2]) & M64
        x = (x * K0 + w0) & M64
        z = (z + w1 + w[q]) & M64
        w1 = (w1 + v0) & M64
        v0, v1 = _weak32(w, q, (v0 + z) & M64, v1)
    x = _hash16(x, v0)
    y = _hash16((y + z) & M64, w0)
    return (_hash16((x + v1) & M64, w1) + y) & M64, _hash16((x + w1) & M64, (y + v1) & M64)


def crc128(w, s, n):
    """CityHashCrc128 of the ``n`` bytes (a multiple of 8, at least 32) from word ``s``."""
    if n <= 900:
        return city128(w, s, n)
    r = crc256(w, s, n)
    return r[2], r[3]


def words(data) -> array:
    """The little-endian 64-bit words of ``data`` (a multiple of 8 bytes)."""
    out = array("Q")
    out.frombytes(data)
    if _BIG_ENDIAN:
        out.byteswap()
    return out


def checksum(data) -> tuple[int, int]:
    """The Syzygy checksum of a body ``data`` (a multiple of 64 bytes), as two words."""
    results = array("Q")
    for start in range(0, len(data), CHUNK):
        chunk = data[start:start + CHUNK]
        results.extend(crc256(words(chunk), 0, len(chunk)))
    return crc128(results, 0, 8 * len(results))


class FileChecksum:
    """The verification of one Syzygy file, resumable: :meth:`run` hashes it in slices,
    calling ``control.check()`` between two (which raises to stop), and a next call
    goes on from there. The file is read one chunk (16 MB) at a time."""

    def __init__(self, path: str):
        self.path = path
        stat = os.stat(path)
        self.size = stat.st_size
        #: The part the checksum covers: the whole 64-byte blocks.
        self.body = self.size & ~63
        self.results = array("Q")
        self._chunk: array | None = None
        self._length = 0
        self._state: list | None = None
        self._block = 0

    def run(self, control=None) -> str | None:
        """Why the file fails its checksum, or ``None`` when it matches (or when it has none:
        its size, ``64·k + 16``, is the caller's check)."""
        while len(self.results) * CHUNK < self.body:
            if control is not None:
                control.check()
            if self._chunk is None:
                error = self._read(len(self.results) * CHUNK)
                if error is not None:
                    return error
            self._advance(control)
        if self.size - self.body != TAIL:
            return f"{self.size:,} bytes is not the size of a Syzygy table (no checksum)"
        try:
            with open_regular(self.path) as f:
                f.seek(self.body)
                stored = f.read(TAIL)
        except OSError as e:
            return f"cannot be read ({e.strerror or e})"
        if len(stored) != TAIL:
            return "was cut short while it was verified"
        found = words(stored)
        if tuple(found) != crc128(self.results, 0, 8 * len(self.results)):
            return "its checksum does not match its contents: the file is corrupt"
        return None

    def _read(self, start: int) -> str | None:
        length = min(CHUNK, self.body - start)
        try:
            with open_regular(self.path) as f:
                f.seek(start)
                data = f.read(length)
        except OSError as e:
            return f"cannot be read ({e.strerror or e})"
        if len(data) != length:
            return "was cut short while it was verified"
        self._chunk = words(data)
        self._length = length
        self._state = None
        self._block = 0
        return None

    def _advance(self, control) -> None:
        """Hash the current chunk up to its end, one slice between two looks at ``control``."""
        w, n = self._chunk, self._length
        assert w is not None
        if n < 240:
            self._done(crc256(w, 0, n))
            return
        if self._state is None:
            self._state = crc256_begin(w, 0, n, 0)
        blocks = n // 240
        while self._block < blocks:
            if control is not None:
                control.check()
            step = min(SLICE_BLOCKS, blocks - self._block)
            crc256_blocks(w, self._block * 30, step, self._state)
            self._block += step
        self._done(crc256_finish(w, 0, n, self._state))

    def _done(self, result) -> None:
        self.results.extend(result)
        self._chunk = None
        self._state = None
