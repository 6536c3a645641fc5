"""Draughts endgame databases (English checkers, Russian, Brazilian and international
draughts) by retrograde analysis.

A position is seen from the side to move, the *mover*, with the board turned so that
the mover's men go up the board (towards the top row, squares 1-4 on 8×8, 1-5 on
10×10): in checkers that is White's view as printed, in the other games White's; a
position with the other player to move is turned half a circle (square ``s`` becomes
``n + 1 - s`` on a board of ``n`` squares), which the rules of every game allow.
Square numbers here are *compact*: ``c = s - 1`` for PDN square ``s`` (Russian and
Brazilian squares use the same 32-square layout: a1 is PDN 29). The board's size is
the game's (``game.geometry``): the same code builds the 8×8 and the 10×10 tables.

A material class is an unordered pair of side materials, named with ``K`` for a king
and ``M`` for a man, the stronger side first: ``KKvK``, ``KMvM``, ``MMvKM``. Sides are
ordered by (pieces, kings). A class with two different sides holds both choices of
mover (``part`` 0: the mover has the first side), a class with equal sides one.

Index: ``part * half + (((mm * nmk + mk) * nom + om) * nok + ok)`` where ``mm``,
``mk``, ``om``, ``ok`` are combinatorial (colex) ranks of the mover's men, the mover's
kings, the opponent's men and the opponent's kings; the mover's men live on the
compact squares past its crowning row (4-31 on 8×8, 5-49 on 10×10), the opponent's
on the squares before its own (0-27, 0-44).
Indices whose pieces share a square are not legal positions.

Quiet moves are generated with numpy; positions where a capture is possible (detected
with numpy) get their captures from the game's own rules (``capture_moves``), so
compulsory capture, multiple jumps, crowning mid-capture and the Turkish strike are
exactly the game's. Captures leave for smaller classes and crowning for classes with
one more king; every move passes the turn. The draw rules that count moves (40 moves
in checkers, 15 in Russian draughts, 25 and the lone king's 16 or 5 in international
and Brazilian draughts) and repetition are not part of the values: a win is a win
with perfect play however long it takes, and its distance is in plies.
"""

from __future__ import annotations

import itertools
import os
import pathlib
import re
from functools import lru_cache
from math import comb

import numpy as np

from engine import retro, tablefile
from engine.game import WIN, Exact
from games.draughts.board import CAP_SHIFT

GAMES = ("checkers", "shashki", "brazilian", "international")
MAX_PIECES = 4


def stm_convention(game) -> str:
    """The header's words for the index (the 8×8 files keep the text they always had)."""
    return (f"side to move's view, its men moving up (to squares 1-{game.geometry.per_row}); "
            "index = part * half + position, part 0 = mover has the first side")


# Directions: 0 up-left, 1 up-right, 2 down-left, 3 down-right (as games.draughts.board.DIRS).
_UP = (0, 1)
_ALL = (0, 1, 2, 3)


class Board:
    """The compact squares of a ``size``×``size`` board (``games.draughts.board.Geometry``).

    ``n`` squares, ``p`` a row; ``step[c, d]`` the neighbour of ``c`` in direction
    ``d`` (-1 off the board), ``ray[c, d, k]`` the square ``k + 1`` steps away (-1
    past the edge); row ``n`` of both is a sink for the -1 squares, so lookups need
    no masking. ``square[i]`` is the compact square of the game's bit index ``i``.
    """

    def __init__(self, geo):
        self.n, self.p, self.size = geo.n_squares, geo.per_row, geo.size
        self.longest = geo.size - 1
        self.men = self.n - self.p
        self.step = np.full((self.n + 1, 4), -1, np.int64)
        self.ray = np.full((self.n + 1, 4, self.longest), -1, np.int64)
        for c in range(self.n):
            for d, line in enumerate(geo.ray[geo.index[c + 1]]):
                for k, i in enumerate(line):
                    self.ray[c, d, k] = geo.square[i] - 1
            self.step[c] = self.ray[c, :, 0]
        self.square = np.array(geo.square, np.int64) - 1
        self.bit = {geo.index[c + 1]: c for c in range(self.n)}
        self.cap_low = geo.cap_low
        # The game's layout has a ghost bit after every block of two rows.
        self.blocks = [(2 * self.p * k, (1 << 2 * self.p) - 1, k) for k in range(self.size // 2)]

    def to_game(self, m: np.ndarray) -> np.ndarray:
        """Compact masks to the game's bit layout."""
        out = np.zeros_like(m)
        for shift, mask, k in self.blocks:
            out |= (m >> shift & mask) << (shift + k)
        return out

    def from_game(self, m: np.ndarray) -> np.ndarray:
        out = np.zeros_like(m)
        for shift, mask, k in self.blocks:
            out |= (m >> (shift + k) & mask) << shift
        return out


@lru_cache(maxsize=None)
def board_of(geo) -> Board:
    return Board(geo)


# -- materials and classes ------------------------------------------------------------

def side_name(men: int, kings: int) -> str:
    return "K" * kings + "M" * men


def _side_key(side: tuple[int, int]) -> tuple[int, int]:
    men, kings = side
    return men + kings, kings


def parse_class(name: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two sides ``(men, kings)`` of a class name such as ``KKvK`` or ``MMvKM``."""
    m = re.fullmatch(r"([KM]+)V([KM]+)", name.strip().upper())
    if not m:
        raise ValueError(f"bad draughts class {name!r}; expected e.g. KKvK or KMvM")
    first, second = ((s.count("M"), s.count("K")) for s in m.groups())
    return first, second


def canonical(a: tuple[int, int], b: tuple[int, int]) -> tuple[str, bool]:
    """The class of sides ``a`` (the mover) and ``b``, and whether the mover has the
    class's second side (``part`` 1)."""
    swap = _side_key(b) > _side_key(a)
    if swap:
        a, b = b, a
    return f"{side_name(*a)}v{side_name(*b)}", swap and a != b


def class_name(name: str) -> str:
    return canonical(*parse_class(name))[0]


def all_classes(max_pieces: int = MAX_PIECES) -> list[str]:
    """Every class with at most ``max_pieces`` pieces, each after the classes its moves reach."""
    sides = [(m, n - m) for n in range(1, max_pieces) for m in range(n + 1)]
    names = {canonical(a, b)[0] for a in sides for b in sides if sum(a) + sum(b) <= max_pieces}
    return sorted(names, key=_build_order)


def _build_order(name: str) -> tuple[int, int]:
    a, b = parse_class(name)
    # Captures lower the piece count, crowning lowers the men at equal count.
    return sum(a) + sum(b), a[0] + b[0]


def subclasses(name: str) -> list[str]:
    """The classes a capture or a crowning leads to from ``name``.

    A multiple capture takes any number of the opponent's men and kings at once,
    and the capturing man may be crowned on the way (at most one man moves), so
    the mover's side may lose one man for a king and the opponent's any non-empty
    subset of its pieces (a side left empty ends the game: no class).
    """
    a, b = parse_class(name)
    out = set()
    for x, y in ((a, b), (b, a)):
        movers = [x] + ([(x[0] - 1, x[1] + 1)] if x[0] else [])
        for men in range(y[0] + 1):
            for kings in range(y[1] + 1):
                if men + kings == 0:
                    continue
                for mover in movers:
                    out.add(canonical(mover, (men, kings))[0])
    out.discard(name)
    return sorted(out, key=_build_order)


# -- combinatorial ranks ---------------------------------------------------------------

@lru_cache(maxsize=None)
def _combos(n: int, k: int) -> np.ndarray:
    """All k-subsets of ``range(n)`` as sorted rows, row ``r`` being colex rank ``r``."""
    rows = list(itertools.combinations(range(n), k))
    out = np.zeros((len(rows), k), np.int64)
    for row in rows:
        out[_rank_one(row)] = row
    return out


def _rank_one(row) -> int:
    return sum(comb(x, i + 1) for i, x in enumerate(sorted(row)))


@lru_cache(maxsize=None)
def _binom() -> np.ndarray:
    return np.array([[comb(n, k) for k in range(6)] for n in range(51)], np.int64)


def _rank(sq: np.ndarray) -> np.ndarray:
    """Colex ranks of the rows of ``sq`` (any order within a row)."""
    if sq.shape[1] == 0:
        return np.zeros(len(sq), np.int64)
    s = np.sort(sq, axis=1)
    b = _binom()
    return sum(b[s[:, i], i + 1] for i in range(s.shape[1]))


class DraughtsClass:
    """The index of one class of one game; implements :class:`engine.retro.Indexing`.

    ``lookup(name)`` returns the solved values of another class of the same game.
    """

    def __init__(self, game, name: str, lookup=None):
        self.game = game
        self.board = board_of(game.geometry)
        self.flying = game.flying_kings
        self.sides = parse_class(name)
        self.name = canonical(*self.sides)[0]
        self.lookup = lookup
        a, b = self.sides
        self.parts = 1 if a == b else 2
        self.groups = [self._groups(a, b), self._groups(b, a)][:self.parts]
        self.half = int(np.prod([comb(n, k) for n, k, _ in self.groups[0]]))
        self.size = self.parts * self.half

    def _groups(self, mover, opp):
        """``(domain size, count, offset)`` of mover men, mover kings, opponent men and kings."""
        b = self.board
        return [(b.men, mover[0], b.p), (b.n, mover[1], 0), (b.men, opp[0], 0), (b.n, opp[1], 0)]

    # -- index <-> squares -------------------------------------------------------------

    def decode(self, idx: np.ndarray, part: int) -> list[np.ndarray]:
        """The four square groups (compact squares, one row per position) of indices of ``part``."""
        rest = idx - part * self.half
        groups = self.groups[part]
        out: list[np.ndarray] = []
        for g in (3, 2, 1, 0):
            n, k, off = groups[g]
            rest, r = np.divmod(rest, comb(n, k))
            out.append(_combos(n, k)[r] + off)
        return out[::-1]

    def encode(self, groups: list[np.ndarray], part: int) -> np.ndarray:
        idx = np.zeros(len(groups[0]), np.int64)
        for (n, k, off), sq in zip(self.groups[part], groups):
            idx = idx * comb(n, k) + _rank(sq - off)
        return idx + part * self.half

    def index_one(self, groups: list[list[int]], part: int) -> int:
        """Index of one position given its four sorted square groups (plain ints)."""
        idx = 0
        for (n, k, off), sq in zip(self.groups[part], groups):
            idx = idx * comb(n, k) + sum(comb(c - off, i + 1) for i, c in enumerate(sq))
        return idx + part * self.half

    # -- retro.Indexing ------------------------------------------------------------

    def _split(self, idx):
        for part in range(self.parts):
            sel = (idx >= part * self.half) & (idx < (part + 1) * self.half)
            if sel.any():
                yield part, sel

    def valid(self, idx: np.ndarray) -> np.ndarray:
        ok = np.zeros(len(idx), bool)
        for part, sel in self._split(idx):
            sq = np.concatenate(self.decode(idx[sel], part), axis=1)
            s = np.sort(sq, axis=1)
            ok[sel] = np.all(s[:, 1:] != s[:, :-1], axis=1)
        return ok

    def terminal(self, idx: np.ndarray) -> np.ndarray:
        # A side without a legal move has lost.
        return np.full(len(idx), retro.loss_in(0), np.int32)

    def moves(self, idx: np.ndarray) -> retro.Moves:
        parts = []
        for part, sel in self._split(idx):
            parts.extend(self._moves(idx[sel], part))
        empty = np.zeros(0, np.int64)
        inside = [p for p in parts if p[0] == "in"]
        leave = [p for p in parts if p[0] == "exit"]
        return retro.Moves(
            np.concatenate([p[1] for p in inside] or [empty]),
            np.concatenate([p[2] for p in inside] or [empty]),
            np.concatenate([p[1] for p in leave] or [empty]),
            np.concatenate([p[2] for p in leave] or [empty]))

    def _moves(self, src, part):
        b = self.board
        step, ray, sink = b.step, b.ray, b.n
        mm, mk, om, ok = self.decode(src, part)
        bit = np.int64(1) << np.arange(sink + 1, dtype=np.int64)
        bit[sink] = 0
        mine = _mask(bit, mm) | _mask(bit, mk)
        theirs = _mask(bit, om) | _mask(bit, ok)
        occ = mine | theirs
        cap = self._can_capture(mm, mk, theirs, occ)
        yield from self._captures(src[cap], [g[cap] for g in (mm, mk, om, ok)])
        quiet = ~cap
        src, mm, mk, om, ok, occ = src[quiet], mm[quiet], mk[quiet], om[quiet], ok[quiet], occ[quiet]
        for i in range(mm.shape[1]):
            for d in _UP:
                to = step[mm[:, i], d]
                rows = np.flatnonzero((to >= 0) & ((occ >> np.where(to >= 0, to, sink)) & 1 == 0))
                if len(rows) == 0:
                    continue
                t = to[rows]
                crown = t < b.p
                new = mm[rows].copy()
                new[:, i] = t
                r = ~crown
                yield self._child(src[rows[r]], [new[r], mk[rows[r]], om[rows[r]], ok[rows[r]]])
                if crown.any():
                    c = rows[crown]
                    rest = np.delete(mm[c], i, axis=1)
                    kings = np.concatenate([mk[c], t[crown, None]], axis=1)
                    yield self._child(src[c], [rest, kings, om[c], ok[c]])
        for i in range(mk.shape[1]):
            for d in _ALL:
                free = np.ones(len(src), bool)
                for k in range(b.longest if self.flying else 1):
                    to = ray[mk[:, i], d, k]
                    free &= (to >= 0) & ((occ >> np.where(to >= 0, to, sink)) & 1 == 0)
                    rows = np.flatnonzero(free)
                    if len(rows) == 0:
                        break
                    new = mk[rows].copy()
                    new[:, i] = to[rows]
                    yield self._child(src[rows], [mm[rows], new, om[rows], ok[rows]])

    def _can_capture(self, mm, mk, theirs, occ) -> np.ndarray:
        """Which positions give the mover a capture (then compulsory)."""
        b = self.board
        step, ray, sink = b.step, b.ray, b.n
        found = np.zeros(len(occ), bool)

        def jump(frm, dirs):
            hit = np.zeros(len(occ), bool)
            for d in dirs:
                mid = step[frm, d]
                land = step[mid, d]
                hit |= (((theirs >> np.where(mid >= 0, mid, sink)) & 1 == 1) & (land >= 0)
                        & ((occ >> np.where(land >= 0, land, sink)) & 1 == 0))
            return hit

        for i in range(mm.shape[1]):
            found |= jump(mm[:, i], _ALL if self.flying else _UP)
        for i in range(mk.shape[1]):
            if not self.flying:
                found |= jump(mk[:, i], _ALL)
                continue
            for d in _ALL:
                open_ = np.ones(len(occ), bool)
                for k in range(b.longest - 1):
                    at = ray[mk[:, i], d, k]
                    nxt = ray[mk[:, i], d, k + 1]
                    on = (at >= 0) & ((occ >> np.where(at >= 0, at, sink)) & 1 == 1)
                    found |= (open_ & on & ((theirs >> np.where(at >= 0, at, sink)) & 1 == 1)
                              & (nxt >= 0) & ((occ >> np.where(nxt >= 0, nxt, sink)) & 1 == 0))
                    open_ &= ~on & (at >= 0)
        return found

    def _captures(self, src, groups):
        """Capture moves by the game's rules (listed position by position), played with numpy."""
        if len(src) == 0:
            return
        g, bd = self.game, self.board
        up = 1 - g.down_player
        mm, mk, om, ok = (_compact_mask(x) for x in groups)
        mine, theirs, kings = bd.to_game(mm | mk), bd.to_game(om | ok), bd.to_game(mk | ok)
        # One position object, set to each position in turn: the capture search
        # reads only the pieces and the side to move.
        pos = g.new_position()
        pos.turn = up
        rows, moves = [], []
        for n, (a, b, k) in enumerate(zip(mine.tolist(), theirs.tolist(), kings.tolist())):
            pos.occ = (b, a) if up else (a, b)
            pos.kings = k
            found = pos.capture_moves()
            rows.extend([n] * len(found))
            moves.extend(found)
        rows = np.array(rows, np.int64)
        moves = np.array(moves, np.int64)
        square = bd.square
        frm = np.int64(1) << square[moves & 63]
        to = np.int64(1) << square[moves >> 6 & 63]
        taken = bd.from_game(moves >> CAP_SHIFT << bd.cap_low)
        mm, mk, om, ok = mm[rows], mk[rows], om[rows], ok[rows]
        king = ((mk & frm) != 0) | ((moves >> 12 & 1) == 1)
        mm = mm & ~frm | np.where(king, 0, to)
        mk = mk & ~frm | np.where(king, to, 0)
        om, ok = om & ~taken, ok & ~taken
        counts = np.stack([_popcount(x) for x in (om, ok, mm, mk)], axis=1)
        shapes, which = np.unique(counts, axis=0, return_inverse=True)
        for j, shape in enumerate(shapes):
            sel = np.flatnonzero(which.ravel() == j)
            # The child from its mover's view: the board turned, the sides swapped.
            child = [bd.n - 1 - _squares(x[sel], int(c)) for x, c in zip((om, ok, mm, mk), shape)]
            yield self._child(src[rows[sel]], child, turned=True)

    def _child(self, src, groups, turned=False):
        """A batch of moves from ``src`` to the positions with the mover's pieces
        ``groups`` (mover men, kings, opponent men, kings, before the turn passes);
        ``turned``: the groups are already the child's view."""
        if not turned:
            last = self.board.n - 1
            groups = [last - groups[2], last - groups[3], last - groups[0], last - groups[1]]
        mover = (groups[0].shape[1], groups[1].shape[1])
        opp = (groups[2].shape[1], groups[3].shape[1])
        if mover == (0, 0):
            return "exit", src, np.full(len(src), retro.loss_in(0), np.int64)
        name, swap = canonical(mover, opp)
        if name == self.name:
            return "in", src, self.encode(groups, int(swap))
        cls = draughts_class(self.game, name)
        values = self.lookup(name)
        v = values[cls.encode(groups, int(swap))].astype(np.int64)
        v[v == np.iinfo(values.dtype).min] = retro.ILLEGAL
        return "exit", src, v


def _compact_mask(sq: np.ndarray) -> np.ndarray:
    """Masks (bit ``c`` for compact square ``c``) of the rows of ``sq``."""
    out = np.zeros(len(sq), np.int64)
    for i in range(sq.shape[1]):
        out |= np.int64(1) << sq[:, i]
    return out


def _popcount(m: np.ndarray) -> np.ndarray:
    return np.unpackbits(m.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1).sum(axis=1)


def _squares(m: np.ndarray, k: int) -> np.ndarray:
    """The ``k`` squares of each mask, one row per mask."""
    out = np.zeros((len(m), k), np.int64)
    m = m.copy()
    for i in range(k):
        low = m & -m
        out[:, i] = np.log2(low).astype(np.int64)
        m ^= low
    return out


def _mask(bit: np.ndarray, sq: np.ndarray) -> np.ndarray:
    out = np.zeros(len(sq), np.int64)
    for i in range(sq.shape[1]):
        out |= bit[sq[:, i]]
    return out


_CLASS_CACHE: dict[tuple[str, str], DraughtsClass] = {}


def draughts_class(game, name: str) -> DraughtsClass:
    """The (cached) index of a class of ``game``."""
    name = class_name(name)
    key = (game.name, name)
    if key not in _CLASS_CACHE:
        _CLASS_CACHE[key] = DraughtsClass(game, name)
    return _CLASS_CACHE[key]


def table_path(directory, game_name: str, name: str) -> pathlib.Path:
    """File name of a class's table in ``directory``."""
    return pathlib.Path(directory) / f"{game_name}-{class_name(name)}.ztb"


def expected_header(game, name: str) -> dict:
    """The header fields a table file of class ``name`` of ``game`` must have: its role."""
    name = class_name(name)
    return {"game": game.name, "material": name, "stm": stm_convention(game),
            "entries": draughts_class(game, name).size}


def solve_class(game, name: str, lookup, progress=None) -> np.ndarray:
    """Solve one class of ``game``; ``lookup(name)`` supplies the values of its subclasses."""
    return retro.solve(DraughtsClass(game, class_name(name), lookup), progress=progress)


def write_table(directory, game, name: str, values: np.ndarray) -> pathlib.Path:
    """Save the solved values of a class of ``game`` as its file in ``directory``."""
    name = class_name(name)
    path = table_path(directory, game.name, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    sides = parse_class(name)
    tablefile.write(path, values, game=game.name, material=name, stm_convention=stm_convention(game),
                    extra={"sides": 1 if sides[0] == sides[1] else 2,
                           "players": [f"{side_name(*sides[0])} side", f"{side_name(*sides[1])} side"]})
    return path


class DraughtsTables:
    """The tables of one draughts game in a directory, opened on first use.

    With ``build=True`` a missing class is built (the classes it reaches first) and,
    when a directory was given, saved there. :meth:`probe` returns ``(wdl, plies)``
    for the side to move, or ``None`` when the position is not covered. A file is
    used only if its header holds the class its name gives (:func:`expected_header`).
    Without ``build``, a file that is there but cannot be read (truncated, corrupt,
    of another class) is reported once to ``on_error`` and its class treated as not
    covered.
    """

    def __init__(self, game, directory: str | os.PathLike | None = None, *, build: bool = False,
                 progress=None, on_error=None):
        self.game = game
        self.directory = pathlib.Path(directory) if directory is not None else None
        self.can_build = build
        self.progress = progress
        self.on_error = on_error
        self._values: dict[str, np.ndarray] = {}
        self._missing: set[str] = set()
        self.board = board_of(game.geometry)

    def available(self, name: str) -> bool:
        name = class_name(name)
        return name in self._values or (
            self.directory is not None and table_path(self.directory, self.game.name, name).exists())

    def values(self, name: str) -> np.ndarray:
        name = class_name(name)
        if name not in self._values:
            if self.available(name):
                path = table_path(self.directory, self.game.name, name)
                self._values[name] = tablefile.open_table(path, expect=expected_header(self.game, name)).values
            elif self.can_build:
                self.build(name)
            else:
                raise tablefile.TableError(f"no {self.game.name} table for {name}"
                                           + (f" in {self.directory}" if self.directory else ""))
        return self._values[name]

    def files(self) -> list[str]:
        """The classes with a file in the directory (files named as :func:`table_path` names them)."""
        if self.directory is None or not self.directory.is_dir():
            return []
        prefix = f"{self.game.name}-"
        out = []
        for path in sorted(self.directory.glob(f"{prefix}*.ztb")):
            text = path.name[len(prefix):-len(".ztb")]
            try:
                if class_name(text) == text and sum(map(sum, parse_class(text))) <= MAX_PIECES:
                    out.append(text)
            except ValueError:
                continue
        return out

    def check(self) -> None:
        """Read the header of every file of the directory and refuse (report) those
        that are not the class their name gives: cheap, the payloads are not read."""
        for name in self.files():
            if name not in self._missing:
                try:
                    tablefile.read_header(table_path(self.directory, self.game.name, name),
                                          expect=expected_header(self.game, name))
                except tablefile.TableError as e:
                    self._refuse(name, e)

    def load(self, control=None) -> None:
        """Open every file of the directory (checksums verified), refusing the defective
        ones; ``control.check()`` between two files may stop it, a next call resumes."""
        for name in self.files():
            if control is not None:
                control.check()
            if name not in self._missing and name not in self._values:
                try:
                    self.values(name)
                except tablefile.TableError as e:
                    self._refuse(name, e)

    def _refuse(self, name: str, error: tablefile.TableError) -> None:
        self._missing.add(name)
        if self.on_error is not None:
            self.on_error(f"error: TablePath: {error}; playing on without it")

    def build(self, name: str) -> np.ndarray:
        name = class_name(name)
        for sub in subclasses(name):
            self.values(sub)
        report = (lambda line: self.progress(f"{name}: {line}")) if self.progress else None
        values = solve_class(self.game, name, self.values, report)
        if self.directory is not None:
            write_table(self.directory, self.game, name, values)
        self._values[name] = values
        return values

    def probe_masks(self, occ: tuple[int, int], kings: int, turn: int) -> tuple[int, int] | None:
        """Probe by the game's masks (bit-index layout of :mod:`games.draughts.board`)."""
        total = occ[0].bit_count() + occ[1].bit_count()
        if total > MAX_PIECES or not occ[0] or not occ[1]:
            return None
        turned = turn == self.game.down_player
        groups = []
        for p in (turn, 1 - turn):
            for mask in (occ[p] & ~kings, occ[p] & kings):
                sq = []
                while mask:
                    b = mask & -mask
                    mask ^= b
                    c = self.board.bit[b.bit_length() - 1]
                    sq.append(self.board.n - 1 - c if turned else c)
                groups.append(sorted(sq))
        mover = (len(groups[0]), len(groups[1]))
        opp = (len(groups[2]), len(groups[3]))
        name, swap = canonical(mover, opp)
        if name in self._missing:
            return None
        try:
            values = self.values(name)
        except tablefile.TableError as e:
            if self.can_build:
                raise
            if self.available(name):
                self._refuse(name, e)
            else:
                self._missing.add(name)
            return None
        idx = draughts_class(self.game, name).index_one(groups, int(swap))
        return retro.decode(int(values[idx]), int(np.iinfo(values.dtype).min))

    def probe(self, pos) -> tuple[int, int] | None:
        """Probe a position of the game (its ``occ``, ``kings`` and ``turn``)."""
        return self.probe_masks(pos.occ, pos.kings, pos.turn)


class DraughtsExact(Exact):
    """Exact scores (search units) of draughts positions covered by the tables in a
    directory; wins the move-count draw rules would cut short are left to the search.
    A table file that cannot be read is reported to ``on_error`` (one text per file):
    its header when this is made, its payload when :meth:`prepare` opens it."""

    def __init__(self, game, directory, on_error=None):
        self.game = game
        self.tables = DraughtsTables(game, directory, on_error=on_error)
        self.tables.check()

    def prepare(self, control) -> None:
        """Open every table file (a defective one is reported and left out); raises
        :class:`engine.control.Stopped` when ``control`` expires, a next call resumes."""
        self.tables.load(control)

    def score(self, pos) -> int | None:
        occ = pos.occ
        if (occ[0] | occ[1]).bit_count() > MAX_PIECES:
            return None
        hit = self.tables.probe_masks(occ, pos.kings, pos.turn)
        if hit is None:
            return None
        wdl, plies = hit
        if wdl and pos.clock + plies > self._draw_limit(occ, pos.kings):
            return None
        return 0 if wdl == 0 else (WIN - plies if wdl > 0 else -WIN + plies)

    def _draw_limit(self, occ: tuple[int, int], kings: int) -> int:
        """The clock at which the rules draw this ending: ``draw_plies``, or fewer
        against a lone king (``lone_king_moves``). Only a capture or a man move,
        which restarts the clock, changes which of them applies."""
        game = self.game
        limit = game.draw_plies
        if game.lone_king_moves[0]:
            for lone, strong in ((occ[0], occ[1]), (occ[1], occ[0])):
                n = strong.bit_count()
                if lone.bit_count() == 1 and lone & kings and strong & kings and n <= 3:
                    limit = min(limit, 2 * game.lone_king_moves[n - 1])
        return limit
