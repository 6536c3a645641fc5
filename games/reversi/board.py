"""The reversi position: discs, moves, push/pop, the evaluation and the position text.

The rules are described in :mod:`games.reversi`; the bitboard primitives are in
:mod:`games.reversi.bitboard`. In the compiled build (``board.pxd``) the discs are
C ``unsigned long long`` and ``push``/``pop`` keep their snapshots in C arrays.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from engine.game import IllegalMoveError, Move, quote
from engine.position import Position
from games.reversi.bitboard import FULL, PASS, bit_index, flips, mobility, popcount

_COL_A = 0x0101010101010101
_NOT_COL_A = ~_COL_A & FULL
_NOT_COL_H = ~(_COL_A << 7) & FULL
_CORNERS = 1 | 1 << 7 | 1 << 56 | 1 << 63
_MASK = FULL  # FULL as a C constant in the compiled build
_ONE = 1  # shifted by a square: in C, ``1 << sq`` would be a 32-bit int
#: Deepest ``push`` nesting: 60 placements and as many passes, with room to spare.
_STACK = 192

#: Static square values for move ordering: corners first, X-squares last.
_SQUARE_ORDER = [
    100, -20, 10, 5, 5, 10, -20, 100,
    -20, -50, -2, -2, -2, -2, -50, -20,
    10, -2, 1, 1, 1, 1, -2, 10,
    5, -2, 1, 0, 0, 1, -2, 5,
    5, -2, 1, 0, 0, 1, -2, 5,
    10, -2, 1, 1, 1, 1, -2, 10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    100, -20, 10, 5, 5, 10, -20, 100,
]
#: The quadrant (as a mask) holding each square, for region parity.
_QUADRANT = [
    sum(1 << (8 * r + c) for r in range(8) for c in range(8)
        if (r < 4) == (sq // 8 < 4) and (c < 4) == (sq % 8 < 4))
    for sq in range(64)
]

_PASS_WORDS = ("pass", "pa", "ps", "@@", "--")
_MOVE_RE = re.compile(r"([a-h])([1-8])")


def _neighbours(bb: int) -> int:
    """Squares adjacent (in 8 directions) to a disc of ``bb``."""
    h = ((bb << 1) & _NOT_COL_A) | ((bb >> 1) & _NOT_COL_H) | bb
    return ((h << 8) | (h >> 8) | h) & _MASK & ~bb


#: Gathers column a into the top byte (bit k = row k); the product wraps mod 2**64 in C.
_COLUMN_MAGIC = 0x0102040810204080


def _edge_bits(bb: int, col: int) -> int:
    """Column ``col`` of ``bb`` as an 8-bit row (bit k = row k)."""
    return (((bb >> col) & _COL_A) * _COLUMN_MAGIC & _MASK) >> 56


def _corner_risk(own: int, opp: int, empty: int, corner: int, x_sq: int, c1: int, c2: int) -> int:
    """X-square (weight 3) and C-square discs next to an empty corner, own minus opponent's."""
    if not empty >> corner & 1:
        return 0
    # Signed ints before subtracting (in C the bitboards are unsigned).
    x_own, x_opp = own >> x_sq & 1, opp >> x_sq & 1
    c_own = (own >> c1 & 1) + (own >> c2 & 1)
    c_opp = (opp >> c1 & 1) + (opp >> c2 & 1)
    return 3 * (x_own - x_opp) + c_own - c_opp


@lru_cache(maxsize=None)
def edge_stable() -> tuple[int, ...]:
    """The stable discs of every edge, indexed ``own8 << 8 | opp8``: the discs of
    either colour (as an 8-bit row) that no sequence of placements on the edge's empty
    squares (by either side, flipping along the edge) can turn over.

    An edge disc can only be flanked along its edge, so these are stable for the
    whole game (the endgame solver's stability cut-off starts from them).
    """
    memo: dict[tuple[int, int], int] = {}

    def line_flips(a: int, b: int, i: int) -> int:
        f = 0
        for step in (1, -1):
            run, j = 0, i + step
            while 0 <= j < 8 and b >> j & 1:
                run |= 1 << j
                j += step
            if run and 0 <= j < 8 and a >> j & 1:
                f |= run
        return f

    def stable(a: int, b: int) -> int:
        # Discs of a or b whose colour never changes in any continuation.
        if (a, b) in memo:
            return memo[a, b]
        keep = a | b
        for i in range(8):
            if (a | b) >> i & 1:
                continue
            fa = line_flips(a, b, i)
            keep &= ~fa & stable(a | 1 << i | fa, b & ~fa)
            fb = line_flips(b, a, i)
            keep &= ~fb & stable(a & ~fb, b | 1 << i | fb)
        memo[a, b] = keep
        return keep

    return tuple(stable(a, b) if not a & b else 0 for a in range(256) for b in range(256))


@lru_cache(maxsize=None)
def _edge_table() -> tuple[int, ...]:
    """Stable-disc balance of every edge, indexed ``own8 << 8 | opp8``: (own stable)
    - (opponent stable), from :func:`edge_stable`."""
    stable = edge_stable()
    return tuple((stable[i] & i >> 8).bit_count() - (stable[i] & i & 0xFF).bit_count() for i in range(65536))


def _zeros(n: int) -> list[Any]:
    """A list of ``n`` zeros (what the compiled build copies into a C array)."""
    return [0] * n


class ReversiPosition(Position):
    """A reversi position: the side to move's discs ``own``, the opponent's
    ``opp``, and ``turn`` (0 = Black, 1 = White)."""

    def __init__(self, game: Any, own: int, opp: int, turn: int):
        # ``game`` is the ReversiGame (its keys and edge table), not imported: it imports this module.
        self.game = game
        self.own = own
        self.opp = opp
        self.turn = turn
        # The game's keys and edge table, copied where the hot path reads them.
        self._disc_keys = list(game.disc_keys[0]) + list(game.disc_keys[1])
        self._flip_keys = list(game.flip_keys)
        self._turn_key = game.turn_key
        self._edges = game.edge_table
        self.key = self.compute_key()
        self._mob = 0  # mobility of ``own``, valid while ``_mob_known``
        self._mob_known = False
        # The undo stack: one snapshot per push, at index ``_sp - 1``.
        self._sp = 0
        self._s_own = _zeros(_STACK)
        self._s_opp = _zeros(_STACK)
        self._s_key = _zeros(_STACK)
        self._s_mob = _zeros(_STACK)
        self._s_known = _zeros(_STACK)
        self._nn = None

    # -- moves ---------------------------------------------------------------

    def _mobility(self) -> int:
        if not self._mob_known:
            self._mob = mobility(self.own, self.opp)
            self._mob_known = True
        return self._mob

    def legal_moves(self) -> list[Move]:
        mob = self._mobility()
        if mob:
            out = []
            while mob:
                b = mob & -mob
                out.append(bit_index(b))
                mob ^= b
            return out
        if mobility(self.opp, self.own):
            return [PASS]
        return []

    def noisy_moves(self) -> list[Move]:
        return []

    def is_noisy(self, move: Move) -> bool:
        return False

    def move_score(self, move: Move) -> int:
        """Square value, plus a bonus late in the game for a quadrant holding an
        odd number of empties (the mover then tends to get its last move)."""
        if not 0 <= move < 64:
            return 0
        score = _SQUARE_ORDER[move]
        empty = ~(self.own | self.opp) & _MASK
        if popcount(empty) <= 20 and popcount(empty & _QUADRANT[move]) & 1:
            score += 30
        return score

    def in_check(self) -> bool:
        return False

    def can_stand_pat(self) -> bool:
        return True

    def _save(self) -> None:
        """Snapshot the state for ``pop``."""
        sp = self._sp
        if sp >= _STACK:
            raise IndexError(f"reversi: more than {_STACK} nested pushes")
        self._s_own[sp] = self.own
        self._s_opp[sp] = self.opp
        self._s_key[sp] = self.key
        self._s_mob[sp] = self._mob
        self._s_known[sp] = self._mob_known
        self._sp = sp + 1
        if self._nn is not None:
            self._nn.push()

    def push(self, move: Move) -> None:
        """Play ``move`` (not validated): place and flip, or pass."""
        self._save()
        own, opp = self.own, self.opp
        key = self.key ^ self._turn_key
        if 0 <= move < 64:
            f = flips(own, opp, move)
            key ^= self._disc_keys[64 * self.turn + move]
            x = f
            while x:
                b = x & -x
                key ^= self._flip_keys[bit_index(b)]
                x ^= b
            own |= f | _ONE << move
            opp ^= f
            nn = self._nn
            if nn is not None:
                # Inputs: a disc of the view's player on sq is sq, the other's 64 + sq.
                t = self.turn
                nn.add_one(t, move)
                nn.add_one(t ^ 1, 64 + move)
                x = f
                while x:
                    b = x & -x
                    x ^= b
                    sq = bit_index(b)
                    nn.sub_one(t, 64 + sq)
                    nn.add_one(t, sq)
                    nn.sub_one(t ^ 1, sq)
                    nn.add_one(t ^ 1, 64 + sq)
        self.own, self.opp = opp, own
        self.turn ^= 1
        self.key = key
        self._mob_known = False

    def pop(self) -> None:
        if self._sp <= 0:
            raise IndexError("reversi: pop without a push")
        sp = self._sp - 1
        self._sp = sp
        self.own = self._s_own[sp]
        self.opp = self._s_opp[sp]
        self.key = self._s_key[sp]
        self._mob = self._s_mob[sp]
        self._mob_known = self._s_known[sp]
        self.turn ^= 1  # every push and push_null hands the turn over
        if self._nn is not None:
            self._nn_pop()

    def push_null(self) -> None:
        """Hand the turn over without playing (a pass, legal or not)."""
        self._save()
        self.own, self.opp = self.opp, self.own
        self.turn ^= 1
        self.key ^= self._turn_key
        self._mob_known = False

    def null_move_allowed(self) -> bool:
        return False

    # -- results -------------------------------------------------------------

    def is_over(self) -> bool:
        """True when neither side can move."""
        return not self._mobility() and not mobility(self.opp, self.own)

    def outcome(self) -> int | None:
        """Disc-count result once neither side can move, else ``None``."""
        if not self.is_over():
            return None
        return self.no_moves_value()

    def no_moves_value(self) -> int:
        diff = popcount(self.own) - popcount(self.opp)
        return (diff > 0) - (diff < 0)

    def is_repetition(self) -> bool:
        return False

    def evaluate(self) -> int:
        """Static value for the side to move (about 100 per disc-equivalent).

        Terms: mobility (moves now) and potential mobility (empty squares next
        to the opponent's discs), corners, X- and C-squares next to an empty
        corner, stable edge discs, parity (who is due the last move) in the
        last 20 empties, and the disc count in the last 12 empties. The network's
        score instead when one is attached.
        """
        if self._nn is not None:
            return self._nn.evaluate(self.turn)
        own, opp = self.own, self.opp
        empty = ~(own | opp) & _MASK
        n_empty = popcount(empty)
        mob = popcount(self._mobility()) - popcount(mobility(opp, own))
        pot = popcount(_neighbours(opp) & empty) - popcount(_neighbours(own) & empty)
        corners = popcount(own & _CORNERS) - popcount(opp & _CORNERS)
        risky = (_corner_risk(own, opp, empty, 0, 9, 1, 8) + _corner_risk(own, opp, empty, 7, 14, 6, 15)
                 + _corner_risk(own, opp, empty, 56, 49, 48, 57) + _corner_risk(own, opp, empty, 63, 54, 55, 62))
        t = self._edges
        stable = (t[(own & 0xFF) << 8 | (opp & 0xFF)]
                  + t[(own >> 56) << 8 | (opp >> 56)]
                  + t[_edge_bits(own, 0) << 8 | _edge_bits(opp, 0)]
                  + t[_edge_bits(own, 7) << 8 | _edge_bits(opp, 7)])
        # Mobility matters most in the midgame, stability more as the board fills.
        score = (mob * (40 + n_empty) + 25 * pot + 800 * corners - 100 * risky
                 + stable * (130 - 2 * n_empty))
        if n_empty <= 20:
            score += 80 if n_empty & 1 else -80
        if n_empty <= 12:
            score += 60 * (popcount(own) - popcount(opp))
        return score

    def compute_key(self) -> int:
        k = self.game.turn_key if self.turn else 0
        own_keys = self.game.disc_keys[self.turn]
        opp_keys = self.game.disc_keys[self.turn ^ 1]
        for sq in range(64):
            if self.own >> sq & 1:
                k ^= own_keys[sq]
            elif self.opp >> sq & 1:
                k ^= opp_keys[sq]
        return k

    # -- text ----------------------------------------------------------------

    @property
    def black(self) -> int:
        """Mask of Black's discs."""
        return self.own if self.turn == 0 else self.opp

    @property
    def white(self) -> int:
        """Mask of White's discs."""
        return self.opp if self.turn == 0 else self.own

    def _copy(self) -> ReversiPosition:
        other = ReversiPosition(self.game, self.own, self.opp, self.turn)
        return other

    # -- the network -----------------------------------------------------------

    def _nn_view(self, view: int) -> list[int]:
        """The inputs player ``view`` sees: its discs (0..63), then the opponent's (64..127)."""
        mine, theirs = (self.own, self.opp) if view == self.turn else (self.opp, self.own)
        return [sq for sq in range(64) if mine >> sq & 1] + [64 + sq for sq in range(64) if theirs >> sq & 1]

    def parse_move(self, text: str) -> Move:
        s = text.strip().lower()
        if s in _PASS_WORDS:
            move = PASS
        else:
            m = _MOVE_RE.fullmatch(s)
            if not m:
                raise IllegalMoveError(f"illegal move {quote(text)}: expected a square a1-h8 or 'pass'")
            move = 8 * (int(m.group(2)) - 1) + ord(m.group(1)) - ord("a")
        legal = self.legal_moves()
        if move not in legal:
            why = ("the game is over" if not legal else "only 'pass' is legal" if legal == [PASS]
                   else "a move is possible, no pass" if move == PASS else "it flips no disc or the square is taken")
            raise IllegalMoveError(f"illegal move {quote(text)}: {why}")
        return move

    def move_text(self, move: Move) -> str:
        if move == PASS:
            return "pass"
        return "abcdefgh"[move % 8] + str(move // 8 + 1)

    def to_text(self) -> str:
        black, white = self.black, self.white
        board = "".join("X" if black >> sq & 1 else "O" if white >> sq & 1 else "-" for sq in range(64))
        return f"{board} {'XO'[self.turn]}"

    def render(self) -> str:
        black, white = self.black, self.white
        legal = self._mobility()
        rows = ["  a b c d e f g h"]
        for r in range(8):
            cells = []
            for c in range(8):
                sq = 8 * r + c
                cells.append("●" if black >> sq & 1 else "○" if white >> sq & 1
                             else "·" if legal >> sq & 1 else "-")
            rows.append(f"{r + 1} {' '.join(cells)} {r + 1}")
        rows.append("  a b c d e f g h")
        rows.append(f"black ● {popcount(black)}, white ○ {popcount(white)}; "
                    f"{self.game.players[self.turn]} to move"
                    + ("; game over" if self.is_over() else ""))
        return "\n".join(rows)
