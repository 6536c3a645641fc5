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

Every defect found on opening (missing file, wrong magic, truncated or corrupt
payload) raises :class:`TableError` with the file name in the message.
"""

from __future__ import annotations

import json
import lzma
import os
import pathlib
import struct
import zlib
from dataclasses import dataclass

import numpy as np

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


def read_header(path: str | os.PathLike, *, encoding: str | None = ENCODING) -> tuple[dict, int]:
    """The header of a table file and the payload offset; raises :class:`TableError`
    unless the entries use ``encoding`` (``None``: any, the caller reads ``header["encoding"]``).
    A ``.xz`` file is read through :mod:`lzma`; its offset is in the decompressed bytes."""
    path = pathlib.Path(path)
    try:
        with _open(path) as f:
            return _read_header(f, path, encoding)
    except FileNotFoundError:
        raise TableError(f"{path}: no such table file") from None
    except IsADirectoryError:
        raise TableError(f"{path}: is a directory, not a table file") from None
    except lzma.LZMAError:
        raise TableError(f"{path}: corrupt xz stream") from None


def _open(path: pathlib.Path):
    return lzma.open(path, "rb") if path.suffix == ".xz" else open(path, "rb")


def _read_header(f, path: pathlib.Path, encoding: str | None) -> tuple[dict, int]:
    head = f.read(len(MAGIC) + 4)
    if len(head) < len(MAGIC) + 4 or head[:len(MAGIC)] != MAGIC:
        raise TableError(f"{path}: not a zermelo table file (bad magic)")
    (length,) = struct.unpack("<I", head[len(MAGIC):])
    text = f.read(length)
    if len(text) < length:
        raise TableError(f"{path}: truncated header")
    try:
        header = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise TableError(f"{path}: corrupt header") from None
    if not isinstance(header, dict):
        raise TableError(f"{path}: corrupt header")
    if header.get("format") != VERSION or (encoding is not None and header.get("encoding") != encoding):
        raise TableError(f"{path}: unsupported table format {header.get('format')!r}/"
                         f"{header.get('encoding')!r} (expected {VERSION}/{encoding})")
    if header.get("dtype") not in _DTYPES or not all(isinstance(header.get(k), int) for k in ("entries", "crc32")):
        raise TableError(f"{path}: corrupt header")
    return header, len(MAGIC) + 4 + length


def open_table(path: str | os.PathLike, *, verify: bool = True, encoding: str | None = ENCODING) -> Table:
    """Open a table file, memory-mapping its values (a ``.xz`` file is decompressed
    into memory instead: that is how small tables ship with the package).

    Checks the magic, the header, the payload size and (with ``verify``) the payload's
    CRC-32; any failure raises :class:`TableError`.
    """
    path = pathlib.Path(path)
    if path.suffix == ".xz":
        return _open_xz(path, verify, encoding)
    header, offset = read_header(path, encoding=encoding)
    dtype = _DTYPES[header["dtype"]]
    need = header["entries"] * np.dtype(dtype).itemsize
    have = path.stat().st_size - offset
    _check_size(path, have, need)
    values = np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=(header["entries"],))
    # An ndarray is a buffer; numpy's stubs do not declare it one.
    if verify and zlib.crc32(values) != header["crc32"]:  # type: ignore[arg-type]
        raise TableError(f"{path}: corrupt payload (CRC-32 mismatch)")
    return Table(path, header, values)


def _open_xz(path: pathlib.Path, verify: bool, encoding: str | None) -> Table:
    try:
        with _open(path) as f:
            header, _ = _read_header(f, path, encoding)
            payload = f.read()
    except FileNotFoundError:
        raise TableError(f"{path}: no such table file") from None
    except (lzma.LZMAError, EOFError):
        raise TableError(f"{path}: corrupt xz stream") from None
    dtype = _DTYPES[header["dtype"]]
    _check_size(path, len(payload), header["entries"] * np.dtype(dtype).itemsize)
    if verify and zlib.crc32(payload) != header["crc32"]:
        raise TableError(f"{path}: corrupt payload (CRC-32 mismatch)")
    return Table(path, header, np.frombuffer(payload, dtype=dtype))


def _check_size(path: pathlib.Path, have: int, need: int) -> None:
    if have != need:
        what = "truncated" if have < need else "trailing bytes after"
        raise TableError(f"{path}: {what} payload ({have} bytes, expected {need})")


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
