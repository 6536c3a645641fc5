"""The Kalah position the search walks: sowing, captures, the end sweep, the
evaluation (the rules are described in :mod:`games.kalah`). Compiled in the
compiled build, with the C types of ``board.pxd``."""

from __future__ import annotations

from array import array
from typing import Any

import cython  # type: ignore[import-untyped]  # (no stubs; only its decorators are used)

from engine.game import IllegalMoveError, Move, parse_number, quote
from engine.position import Position

# Evaluation weights, in hundredths of a seed.
_STORE = 100
_SIDE = 20
_EXTRA_TURN = 40
_CAPTURE = 50



#: What :meth:`KalahPosition._gain` returns for a move that earns an extra turn.
EXTRA_TURN = -1


def nn_inputs_of(pits: int, total: int) -> tuple[int, array | list]:
    """The network inputs of Kalah(pits) with ``total`` seeds: their number, and the table
    whose entry ``(view * (2 * pits + 2) + slot) * (total + 1) + count`` is the input of
    ``count`` seeds in board slot ``slot`` as player ``view`` sees it.

    Seeds are counts, not pieces: each slot is one one-hot row of inputs, so a view has
    exactly one active input per pit and store (``2 * pits + 2``, the accumulator's bound)
    and a sowing changes the inputs of the slots it touches only. A view lists its own
    pits (from its left), its own store, then the opponent's. A pit's row has a bucket for
    each count 0 .. 2 * pits + 1 (within one lap every count ends the sowing in another
    slot: an extra turn, a capture chance, the lap back into the emptied pit) and one for
    more (two laps or more: rare, and they reach every pit). A store's row has every count
    0 .. total: the two stores' rows add up, so they can weigh the store difference exactly.
    """
    buckets, stride = 2 * pits + 3, total + 1
    half = pits * buckets + stride
    table = []
    for view in (0, 1):
        for slot in range(2 * pits + 2):
            owner, i = divmod(slot, pits + 1)
            base = 0 if owner == view else half
            for count in range(stride):
                table.append(base + (i * buckets + min(count, buckets - 1) if i < pits else pits * buckets + count))
    return 2 * half, flat_table("i", table)


class KalahPosition(Position):
    """A Kalah position walked by the search.

    The counts of every ply sit in one flat table (a list in the pure build), a
    frame of ``size`` slots per ply: frame ``sp`` is the position now. ``push``
    copies the frame to the next one and sows there, ``pop`` steps back a frame,
    so undoing costs nothing and no per-move object is made (the compiled build
    reads the tables as C arrays).
    Methods marked unchecked index only offsets inside the frames below ``cap``:
    ``_save`` grows the arrays before it writes a frame past them."""

    hist: array | list
    turns: array | list
    keys: array | list

    def __init__(self, game: Any, board: list[int], turn: int):
        # game: the KalahGame (not imported: games.kalah imports this module).
        self.game = game
        self.pits = game.pits
        self.size = game.size
        self.stride = game.stride
        self.empty_capture = game.params.empty_capture
        self.slot_keys = game.key_array
        self.turn_key = game.turn_key
        self.nn_index = game.nn_index
        self._nn = None
        self.sp = 0
        self.cap = 0
        self._grow()
        for i, c in enumerate(board):
            self.hist[i] = c
        self.turn = turn
        self.key = self.compute_key()

    def _grow(self) -> None:
        """Room for twice as many plies (16 to begin with): rare, so plain Python."""
        cap = max(16, 2 * self.cap)
        old = self.cap
        self.hist = _resized(self.hist if old else None, "B", cap * self.size)
        self.turns = _resized(self.turns if old else None, "B", cap)
        self.keys = _resized(self.keys if old else None, "Q", cap)
        self.cap = cap

    @property
    def board(self) -> list[int]:
        """The counts now, in sowing order (a copy)."""
        b = self.sp * self.size
        return [self.hist[b + i] for i in range(self.size)]

    # -- moves ---------------------------------------------------------------

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _over(self) -> bool:
        """True when one side's pits are all empty."""
        h, p = self.hist, self.pits
        b = self.sp * self.size
        if not cython.compiled:
            # sum() over list slices: one C call where the loop below is many steps.
            return not sum(h[b:b + p]) or not sum(h[b + p + 1:b + 2 * p + 1])
        south = north = 0
        for i in range(p):
            south += h[b + i]
            north += h[b + p + 1 + i]
        return not south or not north

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def legal_moves(self) -> list[Move]:
        moves: list[Move] = []
        if self._over():
            return moves
        h, p = self.hist, self.pits
        first = self.sp * self.size + (0 if self.turn == 0 else p + 1)
        for i in range(p):
            if h[first + i]:
                moves.append(i + 1)
        return moves

    def _gain(self, move: Move) -> int:
        """What ``move`` would win without playing it: ``EXTRA_TURN`` if its last
        seed lands in the own store, else the seeds a capture would move to the
        store (0 for none)."""
        h, p = self.hist, self.pits
        frame = self.sp * self.size
        base = 0 if self.turn == 0 else p + 1
        i = move - 1
        seeds = h[frame + base + i]
        # Slots relative to the mover: own pits 0..p-1, own store p, the
        # opponent's pits p+1..2p; a lap has 2p+1 slots.
        last = (i + seeds) % (2 * p + 1)
        if last == p:
            return EXTRA_TURN
        if last > p:
            return 0
        if seeds <= 2 * p:
            if h[frame + base + last]:
                return 0
        elif seeds != 2 * p + 1:
            # Two laps or more leave at least two seeds in the last pit.
            return 0
        # The opposite pit also gets a seed if the sowing passed it.
        opposite = h[frame + 2 * p - base - last] + (2 * p - last <= i + seeds)
        if not opposite and not self.empty_capture:
            return 0
        return opposite + 1

    def noisy_moves(self) -> list[Move]:
        """Extra-turn moves and captures: both change the store difference at once
        and leave the evaluation unstable. Every one of them moves at least one seed
        into a store, so quiescence over them is finite."""
        # Best first by (score, move): a pit number is below 16, so score * 16 + move
        # sorts as the pair does.
        ranked: list[int] = []
        for m in self.legal_moves():
            s = self.move_score(m)
            if s >= 100:
                ranked.append(s * 16 + m)
        ranked.sort(reverse=True)
        moves: list[Move] = []
        for r in ranked:
            moves.append(r & 15)
        return moves

    def is_noisy(self, move: Move) -> bool:
        return self._gain(move) != 0

    def move_score(self, move: Move) -> int:
        """Extra turns first (the pit nearest the store first, which keeps the
        others' extra turns intact), then captures by size, then quiet moves."""
        gain = self._gain(move)
        if gain == EXTRA_TURN:
            return 1000 + move
        if gain:
            return 100 + gain
        return move

    def in_check(self) -> bool:
        return False

    def can_stand_pat(self) -> bool:
        return True

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _save(self) -> int:
        """Push a copy of the current frame with the turn and key to restore; the
        offset of the new frame."""
        if self.sp + 1 == self.cap:
            self._grow()
        h, size, sp = self.hist, self.size, self.sp
        self.turns[sp] = self.turn
        self.keys[sp] = self.key
        src = sp * size
        if cython.compiled:
            # A C loop; a slice of a typed view would make Python objects.
            for j in range(size):
                h[src + size + j] = h[src + j]
        else:
            h[src + size:src + 2 * size] = h[src:src + size]  # type: ignore[assignment]  # (a list here)
        self.sp = sp + 1
        if self._nn is not None:
            self._nn.push()
        return src + size

    def push(self, move: Move) -> None:
        b = self._save()
        h, p, size = self.hist, self.pits, self.size
        turn = self.turn
        if turn == 0:
            i, store, skip = move - 1, p, 2 * p + 1
        else:
            i, store, skip = p + move, 2 * p + 1, p
        seeds = h[b + i]
        h[b + i] = 0
        while seeds:
            i += 1
            if i == size:
                i = 0
            if i != skip:
                h[b + i] += 1
                seeds -= 1
        if i != store:
            if h[b + i] == 1 and store - p <= i < store:
                opposite = 2 * p - i
                if h[b + opposite] or self.empty_capture:
                    h[b + store] += h[b + opposite] + 1
                    h[b + i] = 0
                    h[b + opposite] = 0
            self.turn = turn ^ 1
        if cython.compiled:
            south = north = 0
            for j in range(p):
                south += h[b + j]
                north += h[b + p + 1 + j]
        else:
            south, north = sum(h[b:b + p]), sum(h[b + p + 1:b + 2 * p + 1])
        if not south or not north:
            # The game is over: each side sweeps its own pits into its store.
            h[b + p] += south
            h[b + 2 * p + 1] += north
            for j in range(p):
                h[b + j] = 0
                h[b + p + 1 + j] = 0
        nn = self._nn
        if nn is not None:
            # The slots whose count changed (sown, captured, swept) against the frame before.
            index, stride = self.nn_index, self.stride
            other = size * stride
            for j in range(size):
                was = j * stride + h[b - size + j]
                now = j * stride + h[b + j]
                if index[was] != index[now]:
                    nn.sub_one(0, index[was])
                    nn.add_one(0, index[now])
                    nn.sub_one(1, index[other + was])
                    nn.add_one(1, index[other + now])
        self.key = self.compute_key()

    def pop(self) -> None:
        sp = self.sp - 1
        self.sp = sp
        self.turn = self.turns[sp]
        self.key = self.keys[sp]
        if self._nn is not None:
            self._nn_pop()

    def null_move_allowed(self) -> bool:
        return False

    def push_null(self) -> None:
        self._save()
        self.turn ^= 1
        self.key ^= self.turn_key

    # -- results -------------------------------------------------------------

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def margin(self) -> int:
        """Store difference for the side to move, counting the seeds each side
        would collect if the game ended now."""
        h, p = self.hist, self.pits
        b = self.sp * self.size
        south = h[b + p]
        north = h[b + 2 * p + 1]
        for i in range(p):
            south += h[b + i]
            north += h[b + p + 1 + i]
        return south - north if self.turn == 0 else north - south

    def outcome(self) -> int | None:
        if not self._over():
            return None
        m = self.margin()
        return (m > 0) - (m < 0)

    def no_moves_value(self) -> int:
        m = self.margin()
        return (m > 0) - (m < 0)

    def is_repetition(self) -> bool:
        return False

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def evaluate(self) -> int:
        """Store difference, plus a share of the seeds on each side (they are
        swept into the owner's store at the end), plus the mover's extra-turn
        moves and best direct capture, minus the opponent's best direct capture.
        The network's score instead when one is attached."""
        if self._nn is not None:
            return self._nn.evaluate(self.turn)
        h, p = self.hist, self.pits
        b = self.sp * self.size
        if self.turn == 0:
            mine, theirs = b, b + p + 1
        else:
            mine, theirs = b + p + 1, b
        score = _STORE * (h[mine + p] - h[theirs + p])
        extra = 0
        for i in range(p):
            score += _SIDE * (h[mine + i] - h[theirs + i])
            if h[mine + i] == p - i:
                extra += 1
        return (score + _EXTRA_TURN * extra
                + _CAPTURE * (self._best_capture(mine, theirs) - self._best_capture(theirs, mine)))

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _best_capture(self, mine: int, theirs: int) -> int:
        """Largest capture one move from the pits at ``mine`` makes without sowing
        past its store. Both rows are indexed from their owner's left, so the pit
        opposite own pit ``i`` is ``theirs + p - 1 - i``."""
        h, p = self.hist, self.pits
        best = 0
        for i in range(p):
            c = h[mine + i]
            last = i + c
            if c and last < p and h[mine + last] == 0:
                gain = h[theirs + p - 1 - last]
                if (gain or self.empty_capture) and gain + 1 > best:
                    best = gain + 1
        return best

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def compute_key(self) -> int:
        h, table, stride = self.hist, self.slot_keys, self.stride
        b = self.sp * self.size
        k = self.turn_key if self.turn else 0
        for i in range(self.size):
            k ^= table[i * stride + h[b + i]]
        return k

    # -- text ----------------------------------------------------------------

    def _copy(self) -> KalahPosition:
        other = KalahPosition(self.game, self.board, self.turn)
        return other

    # -- the network -----------------------------------------------------------

    def _nn_view(self, view: int) -> list[int]:
        """The inputs player ``view`` sees: one per pit and store (see :func:`nn_inputs_of`)."""
        b, stride = self.sp * self.size, self.stride
        base = view * self.size * stride
        return [self.nn_index[base + j * stride + self.hist[b + j]] for j in range(self.size)]

    def parse_move(self, text: str) -> Move:
        pits = self.pits
        n = parse_number(text.strip())
        if n is None or not 1 <= n <= pits:
            raise IllegalMoveError(f"illegal move {quote(text)}: expected a pit number 1-{pits}")
        if n not in self.legal_moves():
            why = "the game is over" if self._over() else f"pit {n} is empty"
            raise IllegalMoveError(f"illegal move {quote(text)}: {why}")
        return n

    def move_text(self, move: Move) -> str:
        return str(move)

    def to_text(self) -> str:
        p, board = self.pits, self.board
        south = ",".join(map(str, board[:p + 1]))
        north = ",".join(map(str, board[p + 1:]))
        return f"{south}/{north} {self.turn + 1}"

    def render(self) -> str:
        b, p = self.board, self.pits
        pit_row = "".join(f"{c:4d}" for c in reversed(b[p + 1:2 * p + 1]))
        numbers_north = "".join(f"{i:4d}" for i in range(p, 0, -1))
        numbers_south = "".join(f"{i:4d}" for i in range(1, p + 1))
        south_row = "".join(f"{c:4d}" for c in b[:p])
        names = self.game.players
        width = 4 * p
        lines = [
            f"      {numbers_north}      north's pits",
            f"      {pit_row}",
            f"{b[2 * p + 1]:4d}  {' ' * width}  {b[p]:<4d}",
            f"      {south_row}",
            f"      {numbers_south}      south's pits",
            f"stores: north {b[2 * p + 1]} (left), south {b[p]} (right); {names[self.turn]} to move",
        ]
        return "\n".join(lines)


def flat_table(typecode: str, values) -> array | list:
    """A flat table of ints: a typed array in the compiled build (the position
    views it as a C array), a list in the pure build (CPython indexes a list
    several times faster than an array)."""
    return array(typecode, values) if cython.compiled else list(values)


def _resized(values, typecode: str, length: int) -> array | list:
    """A zero-filled table of ``length`` items starting with ``values`` (if any)."""
    grown = list(values) if values is not None else []
    return flat_table(typecode, grown + [0] * (length - len(grown)))
