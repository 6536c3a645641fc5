"""The Polyglot ``.bin`` writer: 16-byte big-endian entries sorted by key."""

from __future__ import annotations

import pathlib
import struct


def write_polyglot(out: str | pathlib.Path, weights: dict[tuple[int, int], int]) -> int:
    """Write ``(polyglot key, polyglot move) -> weight`` as a Polyglot book; returns
    the number of entries.

    Weights are scaled down to fit 16 bits when the heaviest does not (never
    below 1, so no move is lost); each key's entries go heaviest first, as
    Polyglot readers expect.
    """
    top = max(weights.values(), default=1)
    scale = min(1.0, 0xFFFF / top)
    data = sorted(((key, move, max(1, round(w * scale))) for (key, move), w in weights.items()),
                  key=lambda r: (r[0], -r[2], r[1]))
    with open(out, "wb") as f:
        for key, move, weight in data:
            f.write(struct.pack(">QHHI", key, move, weight, 0))
    return len(data)
