"""Kalah endgame tables: the exact outcome of every position with few seeds left in the pits.

What remains to be won from a Kalah position depends only on the seeds in the pits and
who is to move, not on the stores. A table holds, for every distribution of at most
``max_seeds`` seeds over the ``2 * pits`` pits, the best final difference (own store
minus the opponent's) that the side to move can add from there on, with perfect play
by both sides; the final score of a position is its current store difference plus
that value.

Positions are seen from the mover: the counts are the mover's pits from its left,
then the opponent's from its left (the sowing order). Index: the distributions of
``s`` seeds come after all those with fewer seeds (there are ``C(s - 1 + n, n)`` of
these for ``n`` pits); within a level a distribution is ranked by its stars-and-bars
set, the bar positions ``b_j = c_1 + ... + c_j + j - 1`` (``j = 1 .. n - 1``), in
colex order.

Building goes level by level. A move that puts no seed in a store (it stays in the
mover's row and captures nothing) keeps the level but moves seeds towards the
store, so it raises ``sum(column * seeds)`` over both rows; within a level positions
are therefore solved by that sum, highest first, and every move reaches a position
already solved. Extra turns keep the mover; everything else passes the turn.
"""

from __future__ import annotations

import os
import pathlib
import re
import threading
import time
from math import comb
from typing import Iterator

import numpy as np

from engine import tablefile
from engine.game import Exact, margin_score

GAME = "kalah"
VALUE_DTYPE = np.int8
#: Stored in the file header as the entry encoding (values are not distances).
ENCODING = "margin"


def level_offset(seeds: int, pits: int) -> int:
    """Index of the first distribution of ``seeds`` seeds over ``2 * pits`` pits."""
    n = 2 * pits
    return comb(seeds - 1 + n, n) if seeds else 0


def table_size(max_seeds: int, pits: int) -> int:
    return level_offset(max_seeds + 1, pits)


def compositions(seeds: int, n: int) -> np.ndarray:
    """Every distribution of ``seeds`` seeds over ``n`` pits, one row each (int16)."""
    rows = np.zeros((1, 0), np.int16)
    left = np.array([seeds], np.int64)
    for _ in range(n - 1):
        reps = left + 1
        rows = np.repeat(rows, reps, axis=0)
        starts = np.cumsum(reps) - reps
        first = np.arange(int(reps.sum())) - np.repeat(starts, reps)
        left = np.repeat(left, reps) - first
        rows = np.concatenate([rows, first[:, None].astype(np.int16)], axis=1)
    return np.concatenate([rows, left[:, None].astype(np.int16)], axis=1)


def index(counts: np.ndarray) -> np.ndarray:
    """Table index of mover-relative pit counts (one row per position)."""
    counts = counts.astype(np.int64)
    n = counts.shape[1]
    seeds = counts.sum(axis=1)
    offset = np.array([comb(s - 1 + n, n) if s else 0 for s in range(int(seeds.max(initial=0)) + 1)],
                      np.int64)
    binom = np.array([[comb(b, j) for j in range(n)] for b in range(int(seeds.max(initial=0)) + n)],
                     np.int64)
    bars = np.cumsum(counts[:, :-1], axis=1) + np.arange(n - 1)
    return offset[seeds] + binom[bars, np.arange(1, n)].sum(axis=1)


def index_one(counts: list[int]) -> int:
    """Table index of one position (plain ints)."""
    n = len(counts)
    s = sum(counts)
    idx = comb(s - 1 + n, n) if s else 0
    run = 0
    for j in range(1, n):
        run += counts[j - 1]
        idx += comb(run + j - 1, j)
    return idx


def solve(pits: int, max_seeds: int, empty_capture: bool = False, progress=None) -> np.ndarray:
    """The table for Kalah with ``pits`` pits a side, up to ``max_seeds`` seeds in the pits."""
    values = np.zeros(table_size(max_seeds, pits), VALUE_DTYPE)
    for _ in solve_steps(values, pits, max_seeds, empty_capture, progress):
        pass
    return values


def solve_steps(values: np.ndarray, pits: int, max_seeds: int, empty_capture: bool = False, progress=None):
    """Fill ``values`` (zeros of :func:`table_size` entries) as :func:`solve` does, as a
    generator that yields after each group of positions: the caller may stop between
    two steps and resume later, what was written stays valid."""
    p = pits
    n, lap = 2 * p, 2 * p + 1
    t0 = time.monotonic()
    for s in range(1, max_seeds + 1):
        rows = compositions(s, n)
        own, opp = rows[:, :p], rows[:, p:]
        ended = (own.sum(axis=1) == 0) | (opp.sum(axis=1) == 0)
        idx = level_offset(s, p) + index_one_batch(rows)
        # A side with empty pits ends the game: each side keeps its own seeds.
        values[idx[ended]] = (own.sum(axis=1) - opp.sum(axis=1))[ended]
        live = ~ended
        rows, idx = rows[live], idx[live]
        phi = (rows[:, :p] * np.arange(p)).sum(axis=1) + (rows[:, p:] * np.arange(p)).sum(axis=1)
        order = np.argsort(-phi, kind="stable")
        rows, idx, phi = rows[order], idx[order], phi[order]
        bounds = np.flatnonzero(np.diff(phi)) + 1
        yield
        for lo, hi in zip(np.concatenate([[0], bounds]), np.concatenate([bounds, [len(phi)]])):
            values[idx[lo:hi]] = _best(rows[lo:hi], values, p, lap, empty_capture)
            yield
        if progress:
            progress(f"seeds {s}: {level_offset(s + 1, p):,} positions, {time.monotonic() - t0:.1f}s")


def index_one_batch(rows: np.ndarray) -> np.ndarray:
    """Rank of each row within its level (all rows with the same seed count)."""
    n = rows.shape[1]
    s = int(rows[0].sum()) if len(rows) else 0
    binom = np.array([[comb(b, j) for j in range(n)] for b in range(s + n)], np.int64)
    bars = np.cumsum(rows[:, :-1].astype(np.int64), axis=1) + np.arange(n - 1)
    return binom[bars, np.arange(1, n)].sum(axis=1)


def _best(rows: np.ndarray, values: np.ndarray, p: int, lap: int, empty_capture: bool) -> np.ndarray:
    """Values of the (live) positions ``rows``: the best move's margin for the mover."""
    best = np.full(len(rows), -128, np.int64)
    # Slots from the mover's view: own pits 0..p-1, own store p, the opponent's pits p+1..2p.
    board = np.zeros((len(rows), lap), np.int64)
    board[:, :p] = rows[:, :p]
    board[:, p + 1:] = rows[:, p:]
    slot = np.arange(lap)
    for i in range(p):
        seeds = board[:, i]
        sel = np.flatnonzero(seeds > 0)
        if len(sel) == 0:
            continue
        b = board[sel].copy()
        k = seeds[sel]
        b[:, i] = 0
        q, r = np.divmod(k, lap)
        # Slot j gets a seed from the last partial lap when it is 1..r steps after pit i.
        after = (slot[None, :] - i - 1) % lap
        b += q[:, None] + (after < r[:, None])
        last = (i + k) % lap
        gain = b[:, p].copy()
        extra = last == p
        at = np.minimum(last, p - 1)
        rr = np.arange(len(sel))
        opposite = 2 * p - at
        cap = (~extra & (last < p) & (b[rr, at] == 1)
               & ((b[rr, opposite] > 0) | empty_capture))
        c = np.flatnonzero(cap)
        gain[c] += b[c, opposite[c]] + 1
        b[c, at[c]] = 0
        b[c, opposite[c]] = 0
        own = b[:, :p].sum(axis=1)
        theirs = b[:, p + 1:].sum(axis=1)
        over = (own == 0) | (theirs == 0)
        v = gain + own - theirs
        go = ~over
        if go.any():
            child = np.where(extra[go, None],
                             np.concatenate([b[go, :p], b[go, p + 1:]], axis=1),
                             np.concatenate([b[go, p + 1:], b[go, :p]], axis=1))
            cv = values[index(child)].astype(np.int64)
            v[go] = np.where(extra[go], gain[go] + cv, gain[go] - cv)
        np.maximum.at(best, sel, v)
    return best


def table_path(directory, pits: int, max_seeds: int, empty_capture: bool) -> pathlib.Path:
    rule = "-empty" if empty_capture else ""
    return pathlib.Path(directory) / f"{GAME}-{pits}pits{rule}-{max_seeds}seeds.ztb"


def expected_header(pits: int, max_seeds: int, empty_capture: bool) -> dict:
    """The header fields the table file of these rules and seeds must have: its role
    (the entries bound what is read of a compressed file)."""
    return {"game": GAME, "pits": pits, "empty_capture": empty_capture, "max_seeds": max_seeds,
            "entries": table_size(max_seeds, pits)}


def write_table(path: pathlib.Path, values: np.ndarray, pits: int, max_seeds: int, empty_capture: bool) -> None:
    """Save a solved table (:func:`solve`) as the file ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tablefile.write(path, values, game=GAME, material=f"{max_seeds} seeds",
                    stm_convention="side to move's view: its pits first, in sowing order",
                    encoding=ENCODING, extra={"pits": pits, "empty_capture": empty_capture,
                                              "max_seeds": max_seeds, "sides": 1})


class KalahTables:
    """A Kalah table for one rule set (pits, empty-pit capture), in memory or on file.

    :meth:`value` gives the exact final margin of a position for the side to move
    (current stores included), or ``None`` when more seeds than ``max_seeds`` are in
    the pits.
    """

    def __init__(self, pits: int, max_seeds: int, empty_capture: bool = False,
                 directory: str | os.PathLike | None = None, *, build: bool = True, progress=None):
        self.pits, self.max_seeds, self.empty_capture = pits, max_seeds, empty_capture
        path = table_path(directory, pits, max_seeds, empty_capture) if directory is not None else None
        #: The file the values come from (``None``: built in memory).
        self.source = path
        if path is not None and path.exists():
            table = tablefile.open_table(path, encoding=ENCODING,
                                         expect=expected_header(pits, max_seeds, empty_capture))
            self.values = table.values
        elif build:
            self.values = solve(pits, max_seeds, empty_capture, progress)
            if path is not None:
                write_table(path, self.values, pits, max_seeds, empty_capture)
        else:
            raise tablefile.TableError(f"{path}: no such table file")

    @classmethod
    def from_values(cls, values: np.ndarray, pits: int, max_seeds: int, empty_capture: bool) -> KalahTables:
        """A table built in memory (by :func:`solve_steps`)."""
        self = cls.__new__(cls)
        self.pits, self.max_seeds, self.empty_capture = pits, max_seeds, empty_capture
        self.values, self.source = values, None
        return self

    @classmethod
    def load(cls, path: str | os.PathLike, pits: int, empty_capture: bool, max_seeds: int) -> KalahTables:
        """The table of the file ``path``, which must hold ``max_seeds`` seeds under these
        rules; raises :class:`engine.tablefile.TableError` if it is unreadable or made
        for another role (checked in the header, before the values are read)."""
        table = tablefile.open_table(path, encoding=ENCODING,
                                     expect=expected_header(pits, max_seeds, empty_capture))
        self = cls.__new__(cls)
        self.pits, self.max_seeds, self.empty_capture = pits, max_seeds, empty_capture
        self.values, self.source = table.values, pathlib.Path(path)
        return self

    def remaining(self, board: list[int], turn: int) -> int | None:
        """Best store difference still to be gained by the side to move (``None`` if not covered)."""
        p = self.pits
        if turn == 0:
            counts = board[:p] + board[p + 1:2 * p + 1]
        else:
            counts = board[p + 1:2 * p + 1] + board[:p]
        if sum(counts) > self.max_seeds:
            return None
        return int(self.values[index_one(counts)])

    def value(self, pos) -> int | None:
        """Exact final margin (own store minus the opponent's) of a Kalah position."""
        rest = self.remaining(pos.board, pos.turn)
        if rest is None:
            return None
        b, p = pos.board, self.pits
        stores = b[p] - b[2 * p + 1] if pos.turn == 0 else b[2 * p + 1] - b[p]
        return stores + rest


#: Tables shipped with the package (``games/tables``), made by ``zermelo tables build kalah
#: --seeds 14 --xz``: loaded in about half a second instead of built in twenty.
SHIPPED = pathlib.Path(__file__).resolve().parent.parent / "tables"


class KalahExact(Exact):
    """Exact scores (search units, see :func:`engine.game.margin_score`) of Kalah positions
    with few seeds in the pits. The table comes from the first of: a table file in
    ``directory`` for the game's rules, a table shipped with the package for them, a
    table of ``build_seeds`` seeds built in memory. A file that cannot be read is
    reported to ``on_error`` and the next source used.

    Made, it checks the header of each file it would read against its role (a
    defect is reported at once); the values are read or built by :meth:`prepare`,
    which an expiring control interrupts between two steps of the build; the next
    call resumes it."""

    margin_unit = "seeds"

    def __init__(self, game, directory=None, build_seeds: int = 8, on_error=None):
        self.game, self.directory, self.build_seeds, self.on_error = game, directory, build_seeds, on_error
        self.tables: KalahTables | None = None
        self._reading: tuple[threading.Thread, dict] | None = None  # a file being read
        # (values being filled, their step generator) while building
        self._build: tuple[np.ndarray, Iterator[None]] | None = None
        #: Table files refused (each reported once).
        self.refused: set[pathlib.Path] = set()
        rule = game.params.empty_capture
        for seeds, path in self._sources(game.pits, rule):
            try:
                tablefile.read_header(path, encoding=ENCODING, expect=expected_header(game.pits, seeds, rule))
            except tablefile.TableError as e:
                self._refuse(path, e)

    def prepare(self, control) -> None:
        """Read or build the table; raises :class:`engine.control.Stopped` when ``control``
        expires first."""
        if self.tables is not None:
            return
        p, rule = self.game.pits, self.game.params.empty_capture
        seeds = min(self.build_seeds, self.game.total)
        if self._build is None:
            if self._reading is None:
                # Decompressing a shipped table takes half a second in one call: it runs
                # in a thread of its own, which a stop leaves to finish for the next call.
                box: dict = {}
                reader = threading.Thread(target=lambda: box.update(tables=self._read(p, rule)),
                                          name="table-read", daemon=True)
                reader.start()
                self._reading = (reader, box)
            reader, box = self._reading
            while reader.is_alive():
                reader.join(0.005)
                control.check()
            self.tables = box.get("tables")
            if self.tables is not None:
                return
            values = np.zeros(table_size(seeds, p), VALUE_DTYPE)
            self._build = (values, solve_steps(values, p, seeds, rule))
        values, steps = self._build
        for _ in steps:
            control.check()
        self.tables = KalahTables.from_values(values, p, seeds, rule)
        self._build = None

    def _sources(self, p: int, rule: bool) -> list[tuple[int, pathlib.Path]]:
        """The files to read, in order: the largest of ``TablePath``, the shipped one."""
        return [found for folder in (self.directory, SHIPPED) if (found := _largest(folder, p, rule))]

    def _read(self, p: int, rule: bool) -> KalahTables | None:
        for seeds, path in self._sources(p, rule):
            if path in self.refused:
                continue
            try:
                return KalahTables.load(path, p, rule, seeds)
            except (tablefile.TableError, MemoryError) as e:
                self._refuse(path, e)
        return None

    def _refuse(self, path: pathlib.Path, error: Exception) -> None:
        self.refused.add(path)
        if self.on_error is not None:
            text = str(error) if isinstance(error, tablefile.TableError) else f"{path}: {error!r}"
            self.on_error(f"error: TablePath: {text}; playing on without it")

    def score(self, pos) -> int | None:
        # Asked only once prepare has set the tables.
        m = self.tables.value(pos)  # type: ignore[union-attr]
        return None if m is None else margin_score(m)


def _largest(directory, pits: int, empty_capture: bool) -> tuple[int, pathlib.Path] | None:
    """``(seeds, file)``: the table file (``.ztb`` or ``.ztb.xz``) with the most seeds for
    these rules in ``directory``, or ``None``."""
    if not directory or not pathlib.Path(directory).is_dir():
        return None
    name = re.compile(re.escape(table_path(".", pits, 0, empty_capture).name)
                      .replace("0seeds", r"(\d+)seeds") + r"(\.xz)?")
    found = [(int(m.group(1)), f) for f in pathlib.Path(directory).iterdir() if (m := name.fullmatch(f.name))]
    return max(found) if found else None
