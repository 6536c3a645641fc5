"""pydraughts as the referee of zermelo's draughts rules: the legal moves of random
positions, and perft, by pydraughts' own move generator.

Usage: ``nice python scripts/draughts_referee.py [--positions 2500] [--out tests/data/draughts_referee.json.gz]``

For each variant both play (international = pydraughts' ``standard``, Russian,
Brazilian, English) it draws ``--positions`` positions, half from random games
and half random placements of men and kings (the flying kings' captures), and
writes each position's FEN with pydraughts' legal moves, plus pydraughts' perft
to depth 3 of the first ``--perft`` positions. ``tests/test_draughts_referee.py``
compares zermelo with the file in seconds, and with pydraughts itself on a sample.
Also prints every disagreement it meets with zermelo, naming the FEN.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games  # noqa: E402
from engine.perft import perft  # noqa: E402
from tests.pydraughts_referee import VARIANTS, pydraughts_moves, pydraughts_perft, random_positions, zermelo_moves  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=2500)
    ap.add_argument("--perft", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="tests/data/draughts_referee.json.gz")
    args = ap.parse_args()
    data: dict = {}
    bad = 0
    for name, variant in VARIANTS.items():
        start = time.perf_counter()
        game = games.load(name)
        fens = random_positions(game, args.positions, random.Random(f"{args.seed}/{name}"))
        entries = []
        for k, fen in enumerate(fens):
            theirs = pydraughts_moves(variant, fen)
            ours = zermelo_moves(game, fen)
            if ours != theirs:
                bad += 1
                print(f"{name}: disagree at {fen}: zermelo {sorted(ours - theirs)} pydraughts "
                      f"{sorted(theirs - ours)}")
            entry: list = [fen, sorted(theirs)]
            if k < args.perft:
                counts = pydraughts_perft(variant, fen, 3)
                pos = game.new_position(fen)
                mine = [perft(pos, d) for d in (1, 2, 3)]
                if mine != counts:
                    bad += 1
                    print(f"{name}: perft disagrees at {fen}: zermelo {mine} pydraughts {counts}")
                entry.append(counts)
            entries.append(entry)
        data[name] = entries
        print(f"{name}: {len(entries)} positions, {sum(len(e[1]) for e in entries)} moves, "
              f"{time.perf_counter() - start:.0f} s")
    with gzip.open(args.out, "wt") as f:
        json.dump(data, f, separators=(",", ":"))
    print(f"wrote {args.out}; {bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
