"""Write a stand-in for Scan 3.1's evaluation weights (``data/eval``) when the real
file cannot be had: every weight zero except, optionally, the three material ones.

Scan 3.1 reads ``data/eval`` as 2 x 2,125,820 signed 16-bit big-endian integers
(a middle-game and an endgame weight per feature; 10 units a centipawn). The
features, in order: men (White minus Black), having a king, each further king,
the 50 king squares, 2 king-mobility terms, the left/right balance, then the
4 x 3^12 patterns of men. With ``--material`` the man is worth 1.00 and the first
and each further king ``--king`` men, in both phases; everything else is zero.

What such a Scan keeps: its search (PVS with aspiration, late-move reductions,
singular extensions, quiescence over captures, its transposition table), its
own halving of drawish material (three pieces or fewer against a king, equal kings
and men within one), its game-end scores, and its book and bitbases if enabled.
What it loses: every positional term it learned.

Usage: ``python scripts/scan_eval_weights.py OUT [--material] [--king 3]``
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

FEATURES = 2_125_820
UNIT = 10 * 100  # weight units per man: 10 a centipawn, 100 centipawns a man


def weights(material: bool, king: float) -> np.ndarray:
    w = np.zeros((FEATURES, 2), dtype=">i2")
    if material:
        w[0] = UNIT
        w[1] = w[2] = round(king * UNIT)
    return w


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--material", action="store_true", help="weigh men and kings")
    ap.add_argument("--king", type=float, default=3.0, help="a king in men (default 3)")
    args = ap.parse_args(argv)
    if round(args.king * UNIT) > np.iinfo(np.int16).max:
        ap.error("--king too large for a 16-bit weight")
    weights(args.material, args.king).tofile(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
