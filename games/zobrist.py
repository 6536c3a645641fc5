"""Seeded Zobrist key tables shared by all games.

Keys are derived from a fixed per-game seed so that they never change between
versions: opening books are keyed by them.
"""

from __future__ import annotations

import random


def keys(count: int, seed: str) -> list[int]:
    """``count`` pseudo-random 64-bit keys, always the same for the same ``seed``."""
    rng = random.Random(seed)
    return [rng.getrandbits(64) for _ in range(count)]
