"""Endgame table files: a small self-describing header and a memory-mapped value array.

Layout (all integers little-endian)::

    magic    8 bytes   b"ZRMTBL\\r\\n" (the CR/LF pair catches text-mode mangling)
    length   u32       size of the JSON header that follows
    header   JSON      utf-8, padded with spaces so the payload starts 64-byte aligned
    payload  values    ``header["entries"]`` numbers of ``header["dtype"]`` ("i1" or "i2")

The header records the format version, the game, the material class, the side-to-move
convention, the entry encoding and the CRC-32 of the payload. Entries use the
``dtm1`` encoding of :mod:`engine.retro`: ``0`` draw, ``n + 1`` a win for the side to
move with the game's end ``n`` plies away, ``-(n + 1)`` a loss ``n`` plies away, and
the dtype's minimum for indices that are not a legal position.

Every defect found on opening (missing or unreadable file, wrong magic, a header
too long, too deeply nested or of another role, truncated or corrupt payload)
raises :class:`TableError` with the file name in the message: table files are
untrusted input.
"""

from __future__ import annotations

import errno
import json
import lzma
import os
import pathlib
import struct
import zlib
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from engine.files import NotRegularFileError, open_regular

MAGIC = b"ZRMTBL\r\n"
VERSION = 1
ENCODING = "dtm1"
_ALIGN = 64
_DTYPES: dict[str, type[np.signedinteger]] = {"i1": np.int8, "i2": np.int16}


class TableError(Exception):
    """A table file that is missing, truncated, corrupt or of an unknown format."""


@dataclass(frozen=True)
class Table:
    """An opened table: its header and its (memory-mapped) values."""

    path: pathlib.Path
    header: dict
    values: np.ndarray

    @property
    def illegal(self) -> int:
        """The entry value marking indices that are not a legal position."""
        return int(np.iinfo(self.values.dtype).min)


def dtype_for(values: np.ndarray) -> str:
    """The narrowest stored dtype ("i1" or "i2") that holds every value of ``values``.

    Illegal entries (the minimum of ``values.dtype``) are mapped to the minimum of
    the stored dtype by :func:`write`, so they do not widen the choice.
    """
    legal = values[values != np.iinfo(values.dtype).min]
    top = int(np.abs(legal).max()) if legal.size else 0
    if top < 128:
        return "i1"
    if top < 32768:
        return "i2"
    raise ValueError(f"distance {top} does not fit the table format")


def write(path: str | os.PathLike, values: np.ndarray, *, game: str, material: str,
          stm_convention: str, extra: dict | None = None,
          encoding: str = ENCODING) -> pathlib.Path:
    """Write ``values`` (any signed integer array in the ``dtm1`` encoding, or the
    ``encoding`` named) to ``path``.

    The file is written under a temporary name and renamed, so a reader never sees a
    half-written table.
    """
    path = pathlib.Path(path)
    code = dtype_for(values)
    extra = dict(extra or {})
    out = values.astype(_DTYPES[code])
    out[values == np.iinfo(values.dtype).min] = np.iinfo(_DTYPES[code]).min
    payload = out.tobytes()
    header = {
        "format": VERSION,
        "game": game,
        "material": material,
        "stm": stm_convention,
        "encoding": encoding,
        "dtype": code,
        "entries": int(out.size),
        "crc32": zlib.crc32(payload),
        **extra,
    }
    text = json.dumps(header, sort_keys=True).encode()
    start = len(MAGIC) + 4 + len(text)
    text += b" " * (-start % _ALIGN)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(MAGIC + struct.pack("<I", len(text)) + text + payload)
    os.replace(tmp, path)
    return path


#: Longest accepted JSON header (a written one has a few hundred bytes): the length
#: field is read from the file, so it bounds what is read before anything is checked.
HEADER_LIMIT = 1 << 16
#: Deepest accepted nesting of the header's JSON (an object holding lists); deeper
#: text would exhaust the parser's recursion.
DEPTH_LIMIT = 4
#: A ``.xz`` table is decompressed into memory, so its payload is bounded; larger
#: tables are kept uncompressed and memory-mapped.
XZ_PAYLOAD_LIMIT = 1 << 30
#: Memory the xz decoder may take (preset 9 needs 65 MiB): a stream's header may ask for more.
XZ_MEMLIMIT = 1 << 28
_CHUNK = 1 << 20
#: Most parts a payload may have (one per side to move) and players it may name.
SIDES_LIMIT = 16
#: Longest player name in a header (the builders write "white", "black", "men side").
NAME_LIMIT = 64


def read_header(path: str | os.PathLike, *, encoding: str | None = ENCODING,
                expect: dict | None = None) -> tuple[dict, int]:
    """The header of a table file and the payload offset; raises :class:`TableError`
    unless the entries use ``encoding`` (``None``: any, the caller reads ``header["encoding"]``)
    and every field of ``expect`` (the file's role: game, material, entries...) has
    the value given. A ``.xz`` file is read through :mod:`lzma`; its offset is in the
    decompressed bytes. Only the header is read (and decompressed)."""
    path = pathlib.Path(path)
    with _reading(path), _open(path) as f:
        return _read_header(f, path, encoding, expect)


@contextmanager
def _reading(path: pathlib.Path):
    """Errors met while reading ``path`` become :class:`TableError` naming it."""
    try:
        yield
    except FileNotFoundError:
        raise TableError(f"{path}: no such table file") from None
    except IsADirectoryError:
        raise TableError(f"{path}: is a directory, not a table file") from None
    except (lzma.LZMAError, EOFError) as e:
        raise TableError(f"{path}: corrupt xz stream ({e})") from None
    except OSError as e:
        raise TableError(f"{path}: cannot be read ({e.strerror or e})") from None


def _open(path: pathlib.Path):
    # A FIFO or a device would block the reader or never end: tables are regular files.
    try:
        return _XzReader(path) if path.suffix == ".xz" else open_regular(path)
    except NotRegularFileError as e:
        if e.errno == errno.EISDIR:
            raise IsADirectoryError(e.errno, e.strerror, e.filename) from None
        raise TableError(f"{path}: not a regular file") from None


class _XzReader:
    """The decompressed bytes of a ``.xz`` file, read on demand: no more is
    decompressed than asked for, and the decoder's memory is bounded."""

    def __init__(self, path: pathlib.Path):
        self._raw = open_regular(path)
        self._decoder = lzma.LZMADecompressor(lzma.FORMAT_XZ, memlimit=XZ_MEMLIMIT)

    def read(self, n: int) -> bytes:
        """Up to ``n`` bytes, fewer only at the end of the file. Concatenated streams
        are one file's data, as the ``xz`` tool reads them; the decoder verifies each
        stream's integrity check at its end."""
        parts, left = [], n
        while left > 0:
            decoder = self._decoder
            if decoder.eof:
                data = decoder.unused_data or self._raw.read(_CHUNK)
                if not data:
                    break
                decoder = self._decoder = lzma.LZMADecompressor(lzma.FORMAT_XZ, memlimit=XZ_MEMLIMIT)
            elif decoder.needs_input:
                data = self._raw.read(_CHUNK)
                if not data:
                    raise EOFError("the stream ends early")
            else:
                data = b""
            out = decoder.decompress(data, max_length=left)
            parts.append(out)
            left -= len(out)
        return b"".join(parts)

    def __enter__(self) -> _XzReader:
        return self

    def __exit__(self, *exc) -> None:
        self._raw.close()


def _depth(text: bytes) -> int:
    """Deepest nesting of JSON arrays and objects in ``text`` (strings skipped)."""
    depth = top = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == 0x5C:  # backslash
                escaped = True
            elif c == 0x22:  # quote
                in_string = False
        elif c == 0x22:
            in_string = True
        elif c in b"[{":
            depth += 1
            top = max(top, depth)
        elif c in b"]}":
            depth -= 1
    return top


def _read_header(f, path: pathlib.Path, encoding: str | None, expect: dict | None) -> tuple[dict, int]:
    head = f.read(len(MAGIC) + 4)
    if len(head) < len(MAGIC) + 4 or head[:len(MAGIC)] != MAGIC:
        raise TableError(f"{path}: not a zermelo table file (bad magic)")
    (length,) = struct.unpack("<I", head[len(MAGIC):])
    if length > HEADER_LIMIT:
        raise TableError(f"{path}: corrupt header ({length:,} bytes long, at most {HEADER_LIMIT:,})")
    text = f.read(length)
    if len(text) < length:
        raise TableError(f"{path}: truncated header")
    if _depth(text) > DEPTH_LIMIT:
        raise TableError(f"{path}: corrupt header (nested deeper than {DEPTH_LIMIT})")
    try:
        header = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise TableError(f"{path}: corrupt header") from None
    if not isinstance(header, dict):
        raise TableError(f"{path}: corrupt header")
    if header.get("format") != VERSION or (encoding is not None and header.get("encoding") != encoding):
        raise TableError(f"{path}: unsupported table format {header.get('format')!r}/"
                         f"{header.get('encoding')!r} (expected {VERSION}/{encoding})")
    dtype = header.get("dtype")
    if (not isinstance(dtype, str) or dtype not in _DTYPES or not isinstance(header.get("encoding"), str)
            or not _is_count(header.get("entries"), 1 << 62)
            or not _is_count(header.get("crc32"), 1 << 32)):
        raise TableError(f"{path}: corrupt header")
    _check_sides(path, header)
    for key, want in (expect or {}).items():
        if header.get(key) != want:
            raise TableError(f"{path}: the header gives {key} {header.get(key)!r}, but this file "
                             f"must hold {want!r} (a table saved under another name?)")
    return header, len(MAGIC) + 4 + length


def _check_sides(path: pathlib.Path, header: dict) -> None:
    """``sides`` (the payload's parts, one per side to move) and ``players`` (their
    names) are read by every tool that walks the parts: each must fit the entries."""
    sides = header.get("sides", 1)
    if not _is_count(sides, SIDES_LIMIT + 1) or sides == 0 or header["entries"] % sides:
        raise TableError(f"{path}: corrupt header (sides {sides!r} is not a count of parts from 1 to "
                         f"{SIDES_LIMIT} dividing the {header['entries']:,} entries)")
    players = header.get("players")
    if players is not None and not (
            isinstance(players, list) and sides <= len(players) <= SIDES_LIMIT
            and all(isinstance(p, str) and 0 < len(p) <= NAME_LIMIT for p in players)):
        raise TableError(f"{path}: corrupt header (players must be {sides} to {SIDES_LIMIT} names "
                         f"of 1 to {NAME_LIMIT} characters)")


def _is_count(x, limit: int) -> bool:
    """True if ``x`` is an int (not a bool) in ``0 .. limit - 1``."""
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < limit


def open_table(path: str | os.PathLike, *, verify: bool = True, encoding: str | None = ENCODING,
               expect: dict | None = None) -> Table:
    """Open a table file, memory-mapping its values (a ``.xz`` file is decompressed
    into memory instead: that is how small tables ship with the package).

    Checks the magic, the header (and that it has the values of ``expect``, the
    file's role), the payload size and (with ``verify``) the payload's CRC-32;
    any failure raises :class:`TableError` naming the file.
    """
    path = pathlib.Path(path)
    with _reading(path):
        if path.suffix == ".xz":
            return _open_xz(path, verify, encoding, expect)
        header, offset = read_header(path, encoding=encoding, expect=expect)
        dtype = _DTYPES[header["dtype"]]
        need = header["entries"] * np.dtype(dtype).itemsize
        with _open(path) as f:
            have = os.fstat(f.fileno()).st_size - offset
            _check_size(path, have, need)
            if not need:
                return Table(path, header, np.zeros(0, dtype))
            # Mapped through the descriptor checked regular (the mapping outlives it).
            values = np.memmap(f, dtype=dtype, mode="r", offset=offset, shape=(header["entries"],))
        # An ndarray is a buffer; numpy's stubs do not declare it one.
        if verify and zlib.crc32(values) != header["crc32"]:  # type: ignore[arg-type]
            raise TableError(f"{path}: corrupt payload (CRC-32 mismatch)")
        return Table(path, header, values)


def _open_xz(path: pathlib.Path, verify: bool, encoding: str | None, expect: dict | None) -> Table:
    with _open(path) as f:
        header, _ = _read_header(f, path, encoding, expect)
        dtype = _DTYPES[header["dtype"]]
        need = header["entries"] * np.dtype(dtype).itemsize
        if need > XZ_PAYLOAD_LIMIT:
            raise TableError(f"{path}: a payload of {need:,} bytes is too large for an xz table "
                             f"(at most {XZ_PAYLOAD_LIMIT:,}; keep it uncompressed)")
        # One byte more than the header promises tells trailing data without
        # decompressing it: a small file may expand to gigabytes.
        payload = f.read(need + 1)
    if len(payload) > need:
        raise TableError(f"{path}: trailing bytes after payload (more than the {need:,} bytes expected)")
    _check_size(path, len(payload), need)
    if verify and zlib.crc32(payload) != header["crc32"]:
        raise TableError(f"{path}: corrupt payload (CRC-32 mismatch)")
    return Table(path, header, np.frombuffer(payload, dtype=dtype))


def _check_size(path: pathlib.Path, have: int, need: int) -> None:
    if have != need:
        what = "truncated" if have < need else "trailing bytes after"
        raise TableError(f"{path}: {what} payload ({have:,} bytes, expected {need:,})")


@dataclass
class Distances:
    """How far the positions of one table part are from the game's end."""

    wins: dict[int, int]
    """Plies to the end -> positions won by the side to move at that distance."""
    losses: dict[int, int]
    """Plies to the end -> positions lost by the side to move at that distance."""
    draws: int
    illegal: int
    longest_win_index: int | None
    """An index of a longest win (the first), or ``None`` without wins."""

    @property
    def legal(self) -> int:
        return sum(self.wins.values()) + sum(self.losses.values()) + self.draws


def distances(values: np.ndarray) -> Distances:
    """The distribution of ``dtm1`` values: positions per distance to the end, won and lost."""
    v = np.asarray(values)
    illegal = np.iinfo(v.dtype).min
    counts = np.bincount((v.astype(np.int64) - illegal), minlength=0)
    wins, losses = {}, {}
    for offset in np.flatnonzero(counts):
        value = int(offset) + int(illegal)
        if value > 0:
            wins[value - 1] = int(counts[offset])
        elif value < 0 and value != illegal:
            losses[-value - 1] = int(counts[offset])
    longest = int(np.argmax(v)) if wins else None
    return Distances(wins, losses, int((v == 0).sum()), int((v == illegal).sum()), longest)


def summary(values: np.ndarray) -> dict:
    """Counts of wins, draws, losses and illegal indices, and the longest win and the
    longest loss in plies (``None`` without any)."""
    illegal = np.iinfo(values.dtype).min
    v = np.asarray(values)
    wins = v > 0
    losses = (v < 0) & (v != illegal)
    return {
        "wins": int(wins.sum()),
        "draws": int((v == 0).sum()),
        "losses": int(losses.sum()),
        "illegal": int((v == illegal).sum()),
        "longest_win_plies": int(v.max()) - 1 if wins.any() else None,
        "longest_loss_plies": -int(v[losses].min()) - 1 if losses.any() else None,
    }
