"""Transposition table: a fixed-size list of plain tuples indexed by ``key & mask``.

Slots come in buckets of two. The first slot is depth-preferred: a new entry
replaces it when it is at least as deep, or when the old entry belongs to an
earlier search. Otherwise the new entry goes to the second slot, which is
always replaced. An entry is the tuple ``(key, move, depth, bound, value,
generation)``; the full key is stored, so index collisions are detected.

Values of proven results are stored relative to the node (``value_to_tt``) and
read back relative to the root (``value_from_tt``), so that a mate found
through a transposition keeps its true distance.
"""

from __future__ import annotations

from engine.game import EVAL_LIMIT, NO_MOVE

#: Entry bounds: the stored value is exact, a lower bound (fail high) or an upper bound (fail low).
EXACT, LOWER, UPPER = 0, 1, 2

#: Rough CPython cost of one stored entry: list slot, 6-tuple, 64-bit key and value ints.
_ENTRY_BYTES = 160
_HASHFULL_SAMPLE = 1000


def value_to_tt(value: int, ply: int) -> int:
    """A search value at ``ply`` from the root, made relative to its own node for storing."""
    if value > EVAL_LIMIT:
        return value + ply
    if value < -EVAL_LIMIT:
        return value - ply
    return value


def value_from_tt(value: int, ply: int) -> int:
    """A node-relative stored value, made relative to the root of a search at ``ply``."""
    if value > EVAL_LIMIT:
        return value - ply
    if value < -EVAL_LIMIT:
        return value + ply
    return value


class TranspositionTable:
    """The hash table of search results, sized in megabytes.

    >>> tt = TranspositionTable(1)
    >>> tt.store(0x1234, 7, 3, EXACT, 42)
    >>> tt.probe(0x1234)[1:5]
    (7, 3, 0, 42)
    >>> tt.probe(0x4321) is None
    True
    """

    def __init__(self, hash_mb: int = 16):
        self.generation = 0
        self.resize(hash_mb)

    def resize(self, hash_mb: int) -> None:
        """Reallocate for ``hash_mb`` megabytes (a power of two of slots, at least 1024); clears."""
        slots = max(1024, hash_mb * (1 << 20) // _ENTRY_BYTES)
        slots = 1 << (slots.bit_length() - 1)
        self.mask = (slots >> 1) - 1
        self.table: list[tuple | None] = [None] * slots

    def clear(self) -> None:
        """Forget every entry."""
        self.table = [None] * len(self.table)

    def new_search(self) -> None:
        """Start a new generation: entries of earlier searches become replaceable."""
        self.generation = (self.generation + 1) & 0xFF

    def probe(self, key: int) -> tuple | None:
        """The entry stored for ``key``, or ``None``."""
        i = (key & self.mask) << 1
        table = self.table
        e = table[i]
        if e is not None and e[0] == key:
            return e
        e = table[i + 1]
        if e is not None and e[0] == key:
            return e
        return None

    def store(self, key: int, move: int, depth: int, bound: int, value: int) -> None:
        """Record a search result for ``key`` (``value`` already passed through ``value_to_tt``).

        A result without a move keeps the move an earlier entry of the same
        position had.
        """
        i = (key & self.mask) << 1
        table = self.table
        e = table[i]
        if e is None or e[0] == key or depth >= e[2] or e[5] != self.generation:
            if move == NO_MOVE and e is not None and e[0] == key:
                move = e[1]
            table[i] = (key, move, depth, bound, value, self.generation)
        else:
            e = table[i + 1]
            if move == NO_MOVE and e is not None and e[0] == key:
                move = e[1]
            table[i + 1] = (key, move, depth, bound, value, self.generation)

    def hashfull(self) -> int:
        """Per mille of sampled slots holding an entry of the current search."""
        sample = self.table[:_HASHFULL_SAMPLE]
        gen = self.generation
        used = sum(1 for e in sample if e is not None and e[5] == gen)
        return used * 1000 // len(sample)
