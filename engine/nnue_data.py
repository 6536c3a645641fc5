"""Training data for the evaluation network: the ``.zdata`` file.

A ``.zdata`` file holds positions from self-play (``zermelo datagen``), each with
its search score and the game's final result, as the network's sparse inputs::

    header:  b"ZDATA", u8 version, u8 length + game name (UTF-8),
             u8 length + feature-set name (UTF-8), u32 inputs
    record:  u8 count_stm, u8 count_other,
             u16 index * (count_stm + count_other)   (side to move's view, then the other's)
             i16 search score from the side to move (clipped to +-32000, evaluation units)
             i8  result from the side to move (+1 / 0 / -1)

Everything is little-endian. Records are written a chunk of whole games at a
time, each chunk flushed and fsync'd before the sidecar ``FILE.progress`` (JSON:
games, positions and bytes committed, and the generation settings) is replaced
atomically; a reader reads only the committed bytes when the sidecar is there,
so a file being extended can be trained on, and a writer resuming cuts off any
bytes past them (a chunk whose sidecar update was lost is played again).

:func:`read` loads files in bulk into numpy arrays (flat index arrays with
offsets) for training; every record is checked, and a bad file is one
:class:`DataFileError` line naming it.
"""

from __future__ import annotations

import array
import json
import os
import pathlib
import struct
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import numpy as np

from engine.files import open_regular, read_text_bounded

MAGIC = b"ZDATA"
VERSION = 1
#: Scores are clipped to this magnitude (i16 with room to spare).
SCORE_LIMIT = 32000
#: Most active inputs per view (the u8 count).
MAX_ACTIVE = 255
#: A data file larger than this is refused before it is read whole.
MAX_BYTES = 8 << 30
#: Most records one read takes, over all its files: a file of empty records (5 bytes
#: each) would otherwise need tens of times its size in memory. Ten times the data
#: the shipped networks were trained on.
MAX_RECORDS = 10_000_000
#: Longest progress sidecar read (a few hundred bytes are written).
PROGRESS_LIMIT = 1 << 20

Record = tuple[list[int], list[int], int, int]
"""One position: (active inputs from the side to move, from the other side, score, result)."""


class DataFileError(ValueError):
    """A training-data file that cannot be used (one line, naming the file)."""


@dataclass(frozen=True)
class Header:
    game: str
    features: str
    inputs: int

    def encode(self) -> bytes:
        game, features = self.game.encode(), self.features.encode()
        if len(game) > 255 or len(features) > 255:
            raise ValueError("game and feature-set names are at most 255 bytes")
        if not 0 < self.inputs <= 1 << 16:
            raise ValueError(f"{self.inputs} inputs do not fit u16 indices")
        return (MAGIC + bytes([VERSION, len(game)]) + game + bytes([len(features)]) + features
                + struct.pack("<I", self.inputs))


def clip_score(score: int) -> int:
    return max(-SCORE_LIMIT, min(SCORE_LIMIT, score))


def encode_record(stm: list[int], other: list[int], score: int, result: int) -> bytes:
    """One record's bytes; ``score`` is clipped, ``result`` must be +1/0/-1."""
    if len(stm) > MAX_ACTIVE or len(other) > MAX_ACTIVE:
        raise ValueError(f"more than {MAX_ACTIVE} active inputs in a view")
    if result not in (-1, 0, 1):
        raise ValueError(f"result {result} is not +1, 0 or -1")
    n = len(stm) + len(other)
    return (bytes((len(stm), len(other))) + struct.pack(f"<{n}H", *stm, *other)
            + struct.pack("<hb", clip_score(score), result))


def _parse_header(data: bytes | memoryview, name: str) -> tuple[Header, int]:
    """The header and the offset of the first record."""
    if bytes(data[:5]) != MAGIC:
        raise DataFileError(f"{name}: not a zermelo training-data file (no ZDATA magic)")
    if len(data) < 6:
        raise DataFileError(f"{name}: truncated header")
    if data[5] != VERSION:
        raise DataFileError(f"{name}: data format version {data[5]}, this zermelo reads version {VERSION}")
    at = 6
    texts = []
    for _ in range(2):
        if at >= len(data) or at + 1 + data[at] > len(data):
            raise DataFileError(f"{name}: truncated header")
        raw = bytes(data[at + 1:at + 1 + data[at]])
        at += 1 + data[at]
        try:
            texts.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise DataFileError(f"{name}: a name in the header is not UTF-8") from None
    if at + 4 > len(data):
        raise DataFileError(f"{name}: truncated header")
    (inputs,) = struct.unpack_from("<I", data, at)
    if not 0 < inputs <= 1 << 16 or not texts[0]:
        raise DataFileError(f"{name}: bad header (game {texts[0]!r}, {inputs} inputs)")
    return Header(texts[0], texts[1], inputs), at + 4


def sidecar(path: str | pathlib.Path) -> pathlib.Path:
    return pathlib.Path(str(path) + ".progress")


def read_progress(path: str | pathlib.Path) -> dict[str, Any] | None:
    """The sidecar of ``path`` (``None`` when there is none); raises :class:`DataFileError`."""
    side = sidecar(path)
    try:
        text = read_text_bounded(side, PROGRESS_LIMIT)
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(f"{side}: cannot read: {exc}") from None
    try:
        progress = json.loads(text)
    except (ValueError, RecursionError):
        raise DataFileError(f"{side}: not a progress file (bad JSON)") from None
    if (not isinstance(progress, dict)
            or not all(isinstance(progress.get(k), int) and progress[k] >= 0 for k in ("games", "positions", "bytes"))
            or not isinstance(progress.get("settings", {}), dict)):
        raise DataFileError(f"{side}: not a progress file (games, positions, bytes expected)")
    return progress


@dataclass
class Dataset:
    """Positions of one or more files, in bulk: the active inputs of record ``i``
    from the side to move are ``stm[stm_offsets[i]:stm_offsets[i + 1]]``, likewise
    ``other``; ``score`` (i16) and ``result`` (i8) are from the side to move."""

    header: Header
    stm: np.ndarray
    stm_offsets: np.ndarray
    other: np.ndarray
    other_offsets: np.ndarray
    score: np.ndarray
    result: np.ndarray

    def __len__(self) -> int:
        return len(self.score)

    def take(self, rows: np.ndarray) -> Dataset:
        """The records ``rows`` (an index array), in that order."""

        def gather(flat: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            counts = offsets[rows + 1] - offsets[rows]
            new = np.zeros(len(rows) + 1, dtype=offsets.dtype)
            np.cumsum(counts, out=new[1:])
            index = np.repeat(offsets[rows] - new[:-1], counts) + np.arange(new[-1])
            return flat[index], new

        stm, stm_offsets = gather(self.stm, self.stm_offsets)
        other, other_offsets = gather(self.other, self.other_offsets)
        return Dataset(self.header, stm, stm_offsets, other, other_offsets, self.score[rows], self.result[rows])


def _committed(path: pathlib.Path, size: int) -> int:
    progress = read_progress(path)
    if progress is None:
        return size
    if progress["bytes"] > size:
        raise DataFileError(f"{path}: shorter ({size} bytes) than its progress file says ({progress['bytes']})")
    return int(progress["bytes"])


def _load_one(path: pathlib.Path, budget: int = MAX_RECORDS
              ) -> tuple[Header, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One file's records, at most ``budget`` of them (more is refused as soon as met)."""
    name = str(path)
    try:
        with open_regular(path) as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_BYTES:
                raise DataFileError(f"{name}: {size} bytes, larger than the {MAX_BYTES >> 30} GiB this reader takes")
            data = f.read(_committed(path, size))
    except OSError as exc:
        raise DataFileError(f"{name}: cannot read: {exc.strerror or exc}") from None
    header, at = _parse_header(data, name)
    # The records are variable in length: one pass finds where each starts (8 bytes a
    # record in an array, where a list would hold a Python int each).
    starts = array.array("q")
    end = len(data)
    while at < end:
        if at + 2 > end:
            raise DataFileError(f"{name}: truncated record at byte {at}")
        if len(starts) == budget:
            raise DataFileError(f"{name}: more than the {MAX_RECORDS:,} records one training run reads")
        starts.append(at)
        at += 5 + 2 * (data[at] + data[at + 1])
    if at != end:
        raise DataFileError(f"{name}: truncated record at byte {starts[-1]}")
    buf = np.frombuffer(data, dtype=np.uint8)
    start = np.frombuffer(starts, dtype=np.int64) if starts else np.zeros(0, dtype=np.int64)
    a_arr, b_arr = buf[start].astype(np.int64), buf[start + 1].astype(np.int64)
    n = a_arr + b_arr
    offsets = np.zeros(len(start) + 1, dtype=np.int64)
    np.cumsum(n, out=offsets[1:])
    within = np.arange(offsets[-1], dtype=np.int64) - np.repeat(offsets[:-1], n)
    byte = np.repeat(start + 2, n) + 2 * within
    indices = buf[byte].astype(np.int32) | (buf[byte + 1].astype(np.int32) << 8)
    tail = start + 2 + 2 * n
    score = (buf[tail].astype(np.uint16) | (buf[tail + 1].astype(np.uint16) << 8)).view(np.int16)
    result = buf[tail + 2].view(np.int8)
    bad = np.flatnonzero(indices >= header.inputs)
    if len(bad):
        row = int(np.searchsorted(offsets, bad[0], side="right") - 1)
        raise DataFileError(f"{name}: record {row} has input {indices[bad[0]]}, beyond the {header.inputs} inputs")
    for what, rows in (("score", np.flatnonzero(np.abs(score.astype(np.int32)) > SCORE_LIMIT)),
                       ("result", np.flatnonzero((result < -1) | (result > 1)))):
        if len(rows):
            raise DataFileError(f"{name}: record {rows[0]} has a bad {what}")
    is_stm = within < np.repeat(a_arr, n)
    stm_off = np.zeros(len(start) + 1, dtype=np.int64)
    other_off = np.zeros(len(start) + 1, dtype=np.int64)
    np.cumsum(a_arr, out=stm_off[1:])
    np.cumsum(b_arr, out=other_off[1:])
    return header, indices[is_stm], stm_off, indices[~is_stm], other_off, np.stack([score, result])


def read(paths: Iterable[str | pathlib.Path], *, game: str | None = None, features: str | None = None) -> Dataset:
    """The records of every file, in order; the files must agree on game, feature
    set and inputs (and with ``game``/``features`` when given). Raises
    :class:`DataFileError` with one line naming the file."""
    parts = []
    header: Header | None = None
    budget = MAX_RECORDS
    for path in map(pathlib.Path, paths):
        h, stm, stm_off, other, other_off, tail = _load_one(path, budget)
        budget -= len(stm_off) - 1
        if game is not None and h.game != game:
            raise DataFileError(f"{path}: data of {h.game}, not {game}")
        if features is not None and h.features != features:
            raise DataFileError(f"{path}: inputs of feature set {h.features!r}, not {features!r}")
        if header is not None and h != header:
            raise DataFileError(f"{path}: {h.game}/{h.features}/{h.inputs} data, unlike the files before it "
                                f"({header.game}/{header.features}/{header.inputs})")
        header = h
        parts.append((stm, stm_off, other, other_off, tail))
    if header is None:
        raise DataFileError("no data file given")
    stm = np.concatenate([p[0] for p in parts])
    other = np.concatenate([p[2] for p in parts])
    stm_offsets, other_offsets = _join([p[1] for p in parts]), _join([p[3] for p in parts])
    tail = np.concatenate([p[4] for p in parts], axis=1)
    return Dataset(header, stm, stm_offsets, other, other_offsets, tail[0].astype(np.int16),
                   tail[1].astype(np.int8))


def _join(offsets: list[np.ndarray]) -> np.ndarray:
    out, base = [np.zeros(1, dtype=np.int64)], 0
    for off in offsets:
        out.append(off[1:] + base)
        base += int(off[-1])
    return np.concatenate(out)


def iter_records(path: str | pathlib.Path) -> Iterator[Record]:
    """The committed records of one file, one at a time (for tools and tests)."""
    data = read([path])
    for i in range(len(data)):
        yield (data.stm[data.stm_offsets[i]:data.stm_offsets[i + 1]].tolist(),
               data.other[data.other_offsets[i]:data.other_offsets[i + 1]].tolist(),
               int(data.score[i]), int(data.result[i]))


class DataWriter:
    """Appends whole games to a ``.zdata`` file, resuming where its sidecar says.

    ``settings`` (JSON values) are what made the data; resuming with other
    settings is refused, so that a file is one consistent run.
    """

    def __init__(self, path: str | pathlib.Path, header: Header, settings: dict[str, Any]):
        self.path = pathlib.Path(path)
        self.header = header
        progress = read_progress(self.path)
        if self.path.exists() and not self.path.is_file():
            # A FIFO's open would wait for a reader for good.
            raise DataFileError(f"{self.path}: not a regular file")
        if progress is None and self.path.exists() and self.path.stat().st_size:
            raise DataFileError(f"{self.path}: exists without its progress file {sidecar(self.path).name}; "
                                "not appending to it")
        if progress is None:
            self.games = self.positions = 0
            with open(self.path, "wb") as f:
                f.write(header.encode())
                f.flush()
                os.fsync(f.fileno())
            self.settings = settings
            self._save(len(header.encode()))
        else:
            try:
                with open_regular(self.path) as f:
                    found, _ = _parse_header(f.read(6 + 256 + 256 + 4), str(self.path))
            except OSError as exc:
                raise DataFileError(f"{self.path}: cannot read: {exc.strerror or exc}") from None
            if found != header:
                raise DataFileError(f"{self.path}: holds {found.game}/{found.features} data with {found.inputs} "
                                    f"inputs, not {header.game}/{header.features} with {header.inputs}")
            old = progress.get("settings", {})
            if old != settings:
                diff = ", ".join(f"{k} {old.get(k)!r} (now {settings.get(k)!r})"
                                 for k in sorted(set(old) | set(settings)) if old.get(k) != settings.get(k))
                raise DataFileError(f"{self.path}: made with other settings: {diff}; resume with the same ones")
            self.games, self.positions, self.settings = progress["games"], progress["positions"], old
            size = self.path.stat().st_size
            if size < progress["bytes"]:
                raise DataFileError(f"{self.path}: shorter ({size} bytes) than its progress file says "
                                    f"({progress['bytes']})")
            # Bytes past the committed ones are a chunk whose games are played again.
            if size > progress["bytes"]:
                os.truncate(self.path, progress["bytes"])
        self._file = open(self.path, "ab")

    def _save(self, size: int) -> None:
        side = sidecar(self.path)
        tmp = side.with_name(side.name + ".tmp")
        tmp.write_text(json.dumps({"games": self.games, "positions": self.positions, "bytes": size,
                                   "settings": self.settings}, sort_keys=True) + "\n", encoding="utf-8")
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, side)
        directory = os.open(side.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)

    def append(self, games: list[list[Record]]) -> None:
        """Commit whole games (each a list of records): their bytes are made durable
        before the sidecar counts them."""
        chunk = b"".join(encode_record(*r) for game in games for r in game)
        self._file.write(chunk)
        self._file.flush()
        os.fsync(self._file.fileno())
        self.games += len(games)
        self.positions += sum(len(game) for game in games)
        self._save(self._file.tell())

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> DataWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
