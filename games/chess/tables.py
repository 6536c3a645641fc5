"""Chess endgame tables with distance to mate, built by retrograde analysis.

A material class is named like the Syzygy tables, stronger side first: ``KQvK``,
``KRvKB``, ``KPvK`` (``KQK``-style names are accepted too). In a class the stronger
side is white; a board with the colours the other way round is probed colour-flipped
(ranks mirrored, sides swapped), which leaves values from the side to move's view
unchanged.

Index of a position (numpy, vectorised; own attack tables, independent of the
board the search plays with):

- symmetry: without pawns the 8 symmetries of the board put the white king in the
  a1-d1-d4 triangle, and the black king on or below the a1-h8 diagonal when the white
  king is on it (462 king pairs); with pawns the file mirror puts the white king on
  files a-d;
- ``index = stm * half + kings * rest + sum(square_i * stride_i)``, ``stm`` 0 for white,
  the other pieces in class order (white's then black's, each strongest first) on 64
  squares, pawns on the 48 squares of ranks 2-7.

Castling rights are not represented, nor en passant: classes with pawns on both
sides, where en passant can arise, are refused. The fifty-move rule is ignored
(distances are pure distance to mate).

Square numbers and piece types are python-chess's: a1 = 0, h8 = 63; pawn 1 ... king 6.
"""

from __future__ import annotations

import os
import pathlib
import re
from functools import lru_cache
from types import SimpleNamespace
from typing import Literal

import numpy as np

from engine import retro, tablefile

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(1, 7)
_LETTERS = " PNBRQK"
_SLIDERS = (BISHOP, ROOK, QUEEN)
GAME = "chess"
STM_CONVENTION = "index = stm * half + position; stm 0 = white; stronger side is white"

#: The 3-piece classes and the 4-piece classes without pawns (and KvK, always drawn).
THREE_PIECE = ("KQvK", "KRvK", "KBvK", "KNvK", "KPvK")
FOUR_PIECE_PAWNLESS = ("KQQvK", "KQRvK", "KQBvK", "KQNvK", "KRRvK", "KRBvK", "KRNvK", "KBBvK",
                       "KBNvK", "KNNvK", "KQvKQ", "KQvKR", "KQvKB", "KQvKN", "KRvKR", "KRvKB",
                       "KRvKN", "KBvKB", "KBvKN", "KNvKN")


# -- geometry ----------------------------------------------------------------------

def _sq(f: int, r: int) -> int:
    return r * 8 + f


def _sym(s: int, sq: int) -> int:
    f, r = sq & 7, sq >> 3
    if s & 1:
        f = 7 - f
    if s & 2:
        r = 7 - r
    if s & 4:
        f, r = r, f
    return _sq(f, r)


def _near(a: int, b: int) -> bool:
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3))) <= 1


_STEPS = {
    KNIGHT: ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)),
    KING: ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)),
    BISHOP: ((1, 1), (-1, 1), (-1, -1), (1, -1)),
    ROOK: ((1, 0), (0, 1), (-1, 0), (0, -1)),
}
_STEPS[QUEEN] = _STEPS[BISHOP] + _STEPS[ROOK]


def _targets(t: int, sq: int) -> list[int]:
    """Squares a piece of type ``t`` on ``sq`` reaches on an empty board."""
    out = []
    for df, dr in _STEPS[t]:
        f, r = sq & 7, sq >> 3
        while True:
            f, r = f + df, r + dr
            if not (0 <= f < 8 and 0 <= r < 8):
                break
            out.append(_sq(f, r))
            if t in (KNIGHT, KING):
                break
    return out


@lru_cache(maxsize=None)
def geometry() -> SimpleNamespace:
    """Attack and symmetry tables, built on first use."""
    g = SimpleNamespace()
    g.bit = np.array([1 << s for s in range(64)], np.uint64)
    g.sym = np.array([[_sym(s, q) for q in range(64)] for s in range(8)], np.int64)
    g.targets, g.attacks = {}, {}
    for t in (KNIGHT, BISHOP, ROOK, QUEEN, KING):
        lists = [_targets(t, q) for q in range(64)]
        width = max(map(len, lists))
        g.targets[t] = np.array([x + [-1] * (width - len(x)) for x in lists], np.int64)
        att = np.zeros((64, 64), bool)
        for q, x in enumerate(lists):
            att[q, x] = True
        g.attacks[t] = att
    g.between = np.zeros((64, 64), np.uint64)
    for a in range(64):
        for df, dr in _STEPS[QUEEN]:
            f, r, mask = a & 7, a >> 3, 0
            while True:
                f, r = f + df, r + dr
                if not (0 <= f < 8 and 0 <= r < 8):
                    break
                g.between[a, _sq(f, r)] = mask
                mask |= 1 << _sq(f, r)
    # pawn_caps[colour][sq]: the (up to two) squares a pawn on sq captures on.
    g.pawn_caps, g.pawn_attacks = [], []
    for colour, dr in ((0, 1), (1, -1)):
        caps = np.full((64, 2), -1, np.int64)
        att = np.zeros((64, 64), bool)
        for q in range(64):
            f, r = q & 7, q >> 3
            if not 0 <= r + dr < 8:
                continue
            for k, df in enumerate((-1, 1)):
                if 0 <= f + df < 8:
                    caps[q, k] = _sq(f + df, r + dr)
                    att[q, caps[q, k]] = True
        g.pawn_caps.append(caps)
        g.pawn_attacks.append(att)
    # Canonical symmetry of a (white king, black king) pair, and the king-pair index.
    g.canon, g.kk, g.kk_pairs = {}, {}, {}
    for pawns in (False, True):
        canon = np.zeros((64, 64), np.int64)
        kk = np.full((64, 64), -1, np.int64)
        pairs: list[tuple[int, int]] = []
        for wk in range(64):
            for bk in range(64):
                if pawns:
                    s = 1 if (wk & 7) > 3 else 0
                else:
                    s = next(s for s in range(8) if _canonical_kings(_sym(s, wk), _sym(s, bk)))
                canon[wk, bk] = s
                if wk != bk and not _near(wk, bk) and (
                        (wk & 7) <= 3 if pawns else _canonical_kings(wk, bk)):
                    kk[wk, bk] = len(pairs)
                    pairs.append((wk, bk))
        g.canon[pawns], g.kk[pawns] = canon, kk
        g.kk_pairs[pawns] = np.array(pairs, np.int64)
    return g


def _canonical_kings(wk: int, bk: int) -> bool:
    f, r = wk & 7, wk >> 3
    return r <= f <= 3 and (r != f or (bk >> 3) <= (bk & 7))


def _attacked(g, target: np.ndarray, attackers, occ: np.ndarray) -> np.ndarray:
    """Mask of ``target`` squares attacked by ``attackers`` ((type, colour, squares) triples)."""
    hit = np.zeros(len(target), bool)
    for t, colour, sq in attackers:
        if t == PAWN:
            hit |= g.pawn_attacks[colour][sq, target]
        elif t in _SLIDERS:
            hit |= g.attacks[t][sq, target] & ((g.between[sq, target] & occ) == 0)
        else:
            hit |= g.attacks[t][sq, target]
    return hit


# -- material classes --------------------------------------------------------------

def parse_class(name: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Piece types (kings first) of each side of a class name: ``KQvKR`` or ``KQKR``."""
    text = name.strip().upper()
    m = re.fullmatch(r"K([QRBNP]*)V?K([QRBNP]*)", text)
    if not m:
        raise ValueError(f"bad material class {name!r}; expected e.g. KQvKR or KQKR")
    white, black = ((KING,) + tuple(_LETTERS.index(c) for c in side) for side in m.groups())
    return white, black


def _side_key(types) -> tuple:
    return len(types), tuple(sorted(types, reverse=True))


def canonical_name(white, black) -> tuple[str, bool]:
    """The class of a material configuration (piece types per side, kings included)
    and whether the colours must be flipped to match it (the stronger side is white)."""
    flip = _side_key(black) > _side_key(white)
    if flip:
        white, black = black, white
    text = ["K" + "".join(_LETTERS[t] for t in sorted(side, reverse=True) if t != KING)
            for side in (white, black)]
    return f"{text[0]}v{text[1]}", flip


def class_name(name: str) -> str:
    """The canonical name of a class given in either spelling."""
    return canonical_name(*parse_class(name))[0]


def subclasses(name: str) -> list[str]:
    """The classes a capture or a promotion leads to from ``name`` (KvK excluded)."""
    white, black = parse_class(name)
    out = set()
    for side, other, colour in ((white, black, 0), (black, white, 1)):
        for i, t in enumerate(side):
            if t == PAWN:
                for p in (QUEEN, ROOK, BISHOP, KNIGHT):
                    promoted = side[:i] + (p,) + side[i + 1:]
                    out.add((promoted, other, colour))
                    for j, c in enumerate(other):
                        if c != KING:
                            out.add((promoted, other[:j] + other[j + 1:], colour))
        for j, c in enumerate(other):
            if c != KING:
                out.add((side, other[:j] + other[j + 1:], colour))
    names = set()
    for side, other, colour in out:
        w, b = (side, other) if colour == 0 else (other, side)
        names.add(canonical_name(w, b)[0])
    names.discard("KvK")
    return sorted(names, key=lambda n: (len(n), n))


class ChessClass:
    """The index of one material class; implements :class:`engine.retro.Indexing`.

    ``lookup(name)`` must return the solved values of a smaller class (``dtm1``).
    """

    def __init__(self, name: str, lookup=None):
        white, black = parse_class(name)
        self.name, flip = canonical_name(white, black)
        if flip:
            white, black = black, white
        if PAWN in white and PAWN in black:
            raise ValueError(f"{self.name}: classes with pawns on both sides are not supported "
                             "(en passant is not represented)")
        self.white, self.black = white, black
        self.lookup = lookup
        g = self.g = geometry()
        self.pawns = PAWN in white + black
        self.types = (KING, KING) + white[1:] + black[1:]
        self.colours = (0, 1) + (0,) * (len(white) - 1) + (1,) * (len(black) - 1)
        self.offset = [8 if t == PAWN else 0 for t in self.types]
        dom = [48 if t == PAWN else 64 for t in self.types[2:]]
        self.stride = [int(np.prod(dom[i + 1:], dtype=np.int64)) for i in range(len(dom))]
        self.dom = dom
        self.rest = int(np.prod(dom, dtype=np.int64))
        self.kk = g.kk[self.pawns]
        self.canon = g.canon[self.pawns]
        self.pairs = g.kk_pairs[self.pawns]
        self.half = len(self.pairs) * self.rest
        self.size = 2 * self.half
        # canon, sym and kk as nested lists, made on the first index_one.
        self._lists: tuple[list, list, list] | None = None

    # -- index <-> squares -----------------------------------------------------------

    def decode(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Side to move and piece squares (one column per piece, class order) of ``idx``."""
        stm, r = np.divmod(idx, self.half)
        kk, rest = np.divmod(r, self.rest)
        sq = np.empty((len(idx), len(self.types)), np.int64)
        sq[:, :2] = self.pairs[kk]
        for i, s in enumerate(self.stride):
            d, rest = np.divmod(rest, s)
            sq[:, 2 + i] = d + self.offset[2 + i]
        return stm, sq

    def encode(self, sq: np.ndarray, stm: np.ndarray) -> np.ndarray:
        """Index of positions given by piece squares (class order) and side to move."""
        s = self.canon[sq[:, 0], sq[:, 1]]
        t = self.g.sym[s[:, None], sq]
        kk = self.kk[t[:, 0], t[:, 1]]
        idx = stm * self.half + kk * self.rest
        for i, st in enumerate(self.stride):
            idx += (t[:, 2 + i] - self.offset[2 + i]) * st
        return np.where(kk < 0, -1, idx)

    def index_one(self, squares, stm: int) -> int | None:
        """Index of one position (plain ints, class order); ``None`` if not representable."""
        if self._lists is None:
            self._lists = self.canon.tolist(), self.g.sym.tolist(), self.kk.tolist()
        canon, sym, kk_table = self._lists
        m = sym[canon[squares[0]][squares[1]]]
        t = [m[x] for x in squares]
        kk = kk_table[t[0]][t[1]]
        if kk < 0 or len(set(t)) != len(t):
            return None
        idx = stm * self.half + kk * self.rest
        for i, st in enumerate(self.stride):
            d = t[2 + i] - self.offset[2 + i]
            if not 0 <= d < self.dom[i]:
                return None
            idx += d * st
        return idx

    # -- retro.Indexing --------------------------------------------------------------

    def _occ(self, sq: np.ndarray) -> np.ndarray:
        occ = np.zeros(len(sq), np.uint64)
        for i in range(sq.shape[1]):
            occ |= self.g.bit[sq[:, i]]
        return occ

    def _pieces(self, sq, colour, skip=-1):
        return [(t, c, sq[:, i]) for i, (t, c) in enumerate(zip(self.types, self.colours))
                if c == colour and i != skip]

    def valid(self, idx: np.ndarray) -> np.ndarray:
        stm, sq = self.decode(idx)
        ok = np.ones(len(idx), bool)
        n = sq.shape[1]
        for i in range(n):
            for j in range(max(i + 1, 2), n):
                ok &= sq[:, i] != sq[:, j]
        occ = self._occ(sq)
        for colour in (0, 1):
            sel = ok & (stm == colour)
            s = sq[sel]
            # The side that just moved may not have left its king in check.
            ok[sel] = ~_attacked(self.g, s[:, 1 - colour], self._pieces(s, colour), occ[sel])
        return ok

    def terminal(self, idx: np.ndarray) -> np.ndarray:
        stm, sq = self.decode(idx)
        out = np.zeros(len(idx), np.int32)
        occ = self._occ(sq)
        for colour in (0, 1):
            sel = stm == colour
            s = sq[sel]
            check = _attacked(self.g, s[:, colour], self._pieces(s, 1 - colour), occ[sel])
            out[sel] = np.where(check, retro.loss_in(0), retro.DRAW)
        return out

    def moves(self, idx: np.ndarray) -> retro.Moves:
        stm, sq = self.decode(idx)
        parts = []
        for colour in (0, 1):
            sel = stm == colour
            if sel.any():
                parts.extend(self._moves(idx[sel], sq[sel], colour))
        inside = [p for p in parts if p[0] == "in"]
        leave = [p for p in parts if p[0] == "exit"]
        empty = np.zeros(0, np.int64)
        return retro.Moves(
            np.concatenate([p[1] for p in inside] or [empty]),
            np.concatenate([p[2] for p in inside] or [empty]),
            np.concatenate([p[1] for p in leave] or [empty]),
            np.concatenate([p[2] for p in leave] or [empty]))

    def _moves(self, src, sq, colour):
        g = self.g
        occ = self._occ(sq)
        own = np.zeros(len(sq), np.uint64)
        for i, c in enumerate(self.colours):
            if c == colour:
                own |= g.bit[sq[:, i]]
        for i, (t, c) in enumerate(zip(self.types, self.colours)):
            if c != colour:
                continue
            frm = sq[:, i]
            if t == PAWN:
                yield from self._pawn_moves(src, sq, occ, own, colour, i)
                continue
            tg = g.targets[t][frm]
            ok = tg >= 0
            tc = np.where(ok, tg, 0)
            ok &= (g.bit[tc] & own[:, None]) == 0
            if t in _SLIDERS:
                ok &= (g.between[frm[:, None], tc] & occ[:, None]) == 0
            rows, cols = np.nonzero(ok)
            yield from self._play(src, sq, occ, colour, i, rows, tg[rows, cols], None)

    def _pawn_moves(self, src, sq, occ, own, colour, i):
        g = self.g
        frm = sq[:, i]
        fwd = 8 if colour == 0 else -8
        one = frm + fwd
        free1 = (g.bit[one] & occ) == 0
        start = (frm >> 3) == (1 if colour == 0 else 6)
        two = np.where(start, frm + 2 * fwd, frm)
        free2 = free1 & start & ((g.bit[two] & occ) == 0)
        caps = g.pawn_caps[colour][frm]
        cc = np.where(caps >= 0, caps, 0)
        capok = (caps >= 0) & ((g.bit[cc] & (occ & ~own)[:, None]) != 0)
        rows = np.concatenate([np.flatnonzero(free1), np.flatnonzero(free2)] +
                              [np.flatnonzero(capok[:, k]) for k in (0, 1)])
        to = np.concatenate([one[free1], two[free2]] + [caps[capok[:, k], k] for k in (0, 1)])
        last = (to >> 3) == (7 if colour == 0 else 0)
        yield from self._play(src, sq, occ, colour, i, rows[~last], to[~last], None)
        for p in (QUEEN, ROOK, BISHOP, KNIGHT):
            yield from self._play(src, sq, occ, colour, i, rows[last], to[last], p)

    def _play(self, src, sq, occ, colour, i, rows, to, promote):
        """Legal moves of piece ``i`` from positions ``rows`` to ``to`` (``promote``: new type)."""
        g = self.g
        if len(rows) == 0:
            return
        new = sq[rows]
        new[:, i] = to
        nocc = (occ[rows] ^ g.bit[sq[rows, i]]) | g.bit[to]
        s = src[rows]
        delta = to - sq[rows, i]
        captured = np.full(len(rows), -1, np.int64)
        for j, c in enumerate(self.colours):
            if c != colour and j >= 2:
                captured[to == new[:, j]] = j
        groups = np.unique(captured) if captured.any() else (-1,)
        for j in groups:
            if len(groups) == 1:
                n, sj, oj, dj = new, s, nocc, delta
            else:
                sel = captured == j
                n, sj, oj, dj = new[sel], s[sel], nocc[sel], delta[sel]
            legal = ~_attacked(g, n[:, colour], self._pieces(n, 1 - colour, skip=j), oj)
            if not legal.all():
                n, sj, dj = n[legal], sj[legal], dj[legal]
            if len(sj) == 0:
                continue
            if j < 0 and promote is None:
                if i < 2:
                    yield "in", sj, self.encode(n, np.full(len(sj), 1 - colour))
                else:
                    # The kings fix the symmetry: only this piece's digit and the side change.
                    turn = self.half if colour == 0 else -self.half
                    yield "in", sj, sj + turn + dj * self.stride[i - 2]
                continue
            types = list(self.types)
            if promote is not None:
                types[i] = promote
            keep = [k for k in range(len(types)) if k != j]
            yield "exit", sj, probe_arrays(self.lookup, [types[k] for k in keep],
                                           [self.colours[k] for k in keep], n[:, keep],
                                           np.full(len(sj), 1 - colour))


def _class_order(piece):
    """Sort key of ``(type, square)`` pairs within a side: king, then strongest first."""
    return piece[0] != KING, -piece[0]


_CLASS_CACHE: dict[str, ChessClass] = {}


def chess_class(name: str) -> ChessClass:
    """The (cached) index of a class."""
    name = class_name(name)
    if name not in _CLASS_CACHE:
        _CLASS_CACHE[name] = ChessClass(name)
    return _CLASS_CACHE[name]


class FixedKingClass(ChessClass):
    """A pawnless class with the white king fixed on one square, as in Brudno's KQK
    (1963): the white king never moves, so the table needs only the other pieces'
    squares and the side to move (64 × 64 × 2 entries for KQK, no symmetry used).
    It is a teaching table of that restricted game, not one the engine probes."""

    def __init__(self, name: str, king: int, lookup=None):
        super().__init__(name, lookup)
        if self.pawns:
            raise ValueError(f"{self.name}: the fixed-king table is for classes without pawns")
        self.king = king
        self.half = 64 * self.rest
        self.size = 2 * self.half

    def decode(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        stm, r = np.divmod(idx, self.half)
        bk, rest = np.divmod(r, self.rest)
        sq = np.empty((len(idx), len(self.types)), np.int64)
        sq[:, 0], sq[:, 1] = self.king, bk
        for i, s in enumerate(self.stride):
            d, rest = np.divmod(rest, s)
            sq[:, 2 + i] = d
        return stm, sq

    def encode(self, sq: np.ndarray, stm: np.ndarray) -> np.ndarray:
        idx = stm * self.half + sq[:, 1] * self.rest
        for i, st in enumerate(self.stride):
            idx += sq[:, 2 + i] * st
        return np.where(sq[:, 0] == self.king, idx, -1)

    def valid(self, idx: np.ndarray) -> np.ndarray:
        _, sq = self.decode(idx)
        bk = sq[:, 1]
        # The kings' own rule, which the king-pair index of the full classes builds in.
        apart = (bk != self.king) & ~self.g.attacks[KING][self.king, bk]
        return apart & super().valid(idx)

    def _play(self, src, sq, occ, colour, i, rows, to, promote):
        if colour == 0 and i == 0:
            return  # the white king stays where it is
        yield from super()._play(src, sq, occ, colour, i, rows, to, promote)


def index_sizes(name: str) -> tuple[int, int]:
    """``(naive, symmetric)`` entries of a class: 64 squares for every piece and two
    sides to move, against the index used here (king pairs under symmetry)."""
    cls = chess_class(name)
    return 64 ** len(cls.types) * 2, cls.size


def probe_arrays(lookup, types, colours, sq: np.ndarray, stm: np.ndarray) -> np.ndarray:
    """``dtm1`` values of positions with the given pieces (one column of ``sq`` per
    piece, any order, any colours) from ``lookup(class_name) -> values``."""
    white = [t for t, c in zip(types, colours) if c == 0]
    black = [t for t, c in zip(types, colours) if c == 1]
    name, flip = canonical_name(white, black)
    if name == "KvK":
        return np.zeros(len(stm), np.int32)
    cls = chess_class(name)
    # Class order: kings, then the class's white pieces, then its black pieces, each
    # strongest first; after a flip the board's black pieces are the class's white.
    order = sorted(range(len(types)), key=lambda k: (types[k] != KING, colours[k] ^ flip, -types[k]))
    s = sq[:, order]
    if flip:
        s = s ^ 56
    values = lookup(name)
    v = values[cls.encode(s, stm ^ int(flip))].astype(np.int32)
    v[v == np.iinfo(values.dtype).min] = retro.ILLEGAL
    return v


def table_path(directory, name: str) -> pathlib.Path:
    """File name of a class's table in ``directory``."""
    return pathlib.Path(directory) / f"{GAME}-{class_name(name)}.ztb"


def build(name: str, lookup, progress=None) -> np.ndarray:
    """Solve one class; ``lookup(name)`` supplies the values of its subclasses."""
    cls = ChessClass(name, lookup)
    return retro.solve(cls, progress=progress)


def position_text(name: str, index: int) -> str:
    """The FEN of the position at ``index`` of class ``name``'s table."""
    import chess

    cls = chess_class(name)
    stm, sq = cls.decode(np.array([index]))
    board = chess.Board(None)
    for k, (t, c) in enumerate(zip(cls.types, cls.colours)):
        board.set_piece_at(int(sq[0, k]), chess.Piece(t, c == 0))
    board.turn = bool(stm[0] == 0)
    return board.fen()


def write_table(directory, name: str, values: np.ndarray) -> pathlib.Path:
    """Save the solved values of a class as its file in ``directory``."""
    path = table_path(directory, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    tablefile.write(path, values, game=GAME, material=class_name(name), stm_convention=STM_CONVENTION,
                    extra={"sides": 2, "players": ["white", "black"]})
    return path


def expected_header(name: str) -> dict:
    """The header fields a table file of class ``name`` must have: its role."""
    name = class_name(name)
    return {"game": GAME, "material": name, "stm": STM_CONVENTION, "entries": chess_class(name).size}


class ChessTables:
    """The chess tables of a directory, opened (memory-mapped) on first use.

    With ``build=True`` a missing class is built (subclasses first) and, if a
    directory was given, saved there. ``probe``/``probe_squares`` return ``(wdl,
    dtm_plies)`` for the side to move (wdl +1/0/-1; plies to mate, 0 for draws), or
    ``None`` when the position is not covered. A file is used only if its header
    holds the class its name gives (:func:`expected_header`). Defective files
    raise :class:`engine.tablefile.TableError` while building; otherwise each is
    reported once to ``on_error`` and its class is not covered.
    """

    def __init__(self, directory: str | os.PathLike | None = None, *, build: bool = False,
                 progress=None, on_error=None):
        self.directory = pathlib.Path(directory) if directory is not None else None
        self.can_build = build
        self.progress = progress
        self.on_error = on_error
        self._values: dict[str, np.ndarray] = {}
        self._material: dict[tuple, tuple | Literal[False]] = {}
        #: Classes whose file was refused (reported once).
        self.refused: set[str] = set()

    def files(self) -> list[str]:
        """The classes with a file in the directory (files named as :func:`table_path` names them)."""
        if self.directory is None or not self.directory.is_dir():
            return []
        out = []
        for path in sorted(self.directory.glob(f"{GAME}-*.ztb")):
            text = path.name[len(GAME) + 1:-len(".ztb")]
            try:
                if class_name(text) == text:
                    out.append(text)
            except ValueError:
                continue
        return out

    def check(self) -> None:
        """Read the header of every file of the directory and refuse (report) those
        that are not the class their name gives: cheap, the payloads are not read."""
        for name in self.files():
            if name not in self.refused:
                try:
                    tablefile.read_header(table_path(self.directory, name), expect=expected_header(name))
                except (tablefile.TableError, ValueError) as e:
                    self._refuse(name, e)

    def load(self, control=None) -> None:
        """Open every file of the directory (checksums verified), refusing the defective
        ones; ``control.check()`` between two files may stop it, a next call resumes."""
        for name in self.files():
            if control is not None:
                control.check()
            if name not in self.refused and name not in self._values:
                try:
                    self.values(name)
                except (tablefile.TableError, ValueError) as e:
                    self._refuse(name, e)

    def _refuse(self, name: str, error: Exception) -> None:
        self.refused.add(name)
        if self.on_error is not None:
            # A TableError names its file; an unsupported class (ValueError) does not.
            text = str(error) if isinstance(error, tablefile.TableError) else \
                f"{table_path(self.directory, name)}: {error}"
            self.on_error(f"error: TablePath: {text}; playing on without it")

    def available(self, name: str) -> bool:
        """True if the class is loaded or has a file in the directory."""
        name = class_name(name)
        return name in self._values or (
            self.directory is not None and table_path(self.directory, name).exists())

    def values(self, name: str) -> np.ndarray:
        """The ``dtm1`` values of a class (loading, or building when allowed)."""
        name = class_name(name)
        if name not in self._values:
            if self.available(name):
                self._values[name] = tablefile.open_table(table_path(self.directory, name),
                                                          expect=expected_header(name)).values
            elif self.can_build:
                self.build(name)
            else:
                raise tablefile.TableError(f"no table for {name}"
                                           + (f" in {self.directory}" if self.directory else ""))
        return self._values[name]

    def build(self, name: str) -> np.ndarray:
        """Build a class (and, first, any subclass not available), saving it if a
        directory was given."""
        name = class_name(name)
        chess_class(name)  # refuses unsupported classes before any subclass is built
        for sub in subclasses(name):
            self.values(sub)
        report = (lambda line: self.progress(f"{name}: {line}")) if self.progress else None
        values = build(name, self.values, report)
        if self.directory is not None:
            write_table(self.directory, name, values)
        self._values[name] = values
        return values

    def probe_squares(self, white, black, stm: int) -> tuple[int, int] | None:
        """Probe by pieces: ``white``/``black`` are ``(piece_type, square)`` pairs (kings
        included), ``stm`` 0 for white to move.

        Whether a class is available is decided on its first probe and remembered.
        """
        white = sorted(white, key=_class_order)
        black = sorted(black, key=_class_order)
        material = (tuple(t for t, _ in white), tuple(t for t, _ in black))
        entry = self._material.get(material)
        if entry is None:
            entry = self._material[material] = self._resolve(*material)
        if entry is False:
            return None
        cls, values, illegal, flip = entry
        if cls is None:
            return 0, 0
        if flip:
            white, black = black, white
        squares = [white[0][1], black[0][1]] + [s for _, s in white[1:]] + [s for _, s in black[1:]]
        if flip:
            squares = [s ^ 56 for s in squares]
        idx = cls.index_one(squares, stm ^ flip)
        return None if idx is None else retro.decode(int(values[idx]), illegal)

    def _resolve(self, white, black):
        """(class, values, illegal entry, flip) for a material, or False if not covered."""
        name, flip = canonical_name(white, black)
        if name == "KvK":
            return None, None, None, False
        if name in self.refused or not (self.can_build or self.available(name)):
            return False
        try:
            values = self.values(name)
            cls = chess_class(name)
        except (tablefile.TableError, ValueError) as e:
            if self.can_build:
                raise
            self._refuse(name, e)
            return False
        return cls, values, int(np.iinfo(values.dtype).min), int(flip)

    def probe(self, board) -> tuple[int, int] | None:
        """Probe a python-chess board or a FEN string."""
        import chess

        if isinstance(board, str):
            board = chess.Board(board)
        if board.castling_rights or board.has_legal_en_passant():
            return None
        white: list[tuple[int, int]] = []
        black: list[tuple[int, int]] = []
        for sq, piece in board.piece_map().items():
            (white if piece.color == chess.WHITE else black).append((piece.piece_type, sq))
        return self.probe_squares(white, black, 0 if board.turn == chess.WHITE else 1)
