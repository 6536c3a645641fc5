"""Build the draughts databases and a Kalah table, and time the reversi endgame solver.

    nice python scripts/tables_games_bench.py --out tables/ [--kalah-seeds 14] [--reversi 14 16]

Prints, per draughts class, entries, counts and the longest win; totals with wall and
CPU seconds; then the Kalah table's size and time; then reversi solves (nodes, seconds)
of positions reached by random play with the given numbers of empties.
"""

from __future__ import annotations

import argparse
import random
import time

import games
from engine import tablefile
from games.draughts import retro as draughts_retro  # noqa: E402
from games.kalah import retro as kalah_retro  # noqa: E402
from games.reversi import endgame as reversi_endgame  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--kalah-seeds", type=int, default=14)
    ap.add_argument("--reversi", type=int, nargs="*", default=[12, 14, 16])
    ap.add_argument("--samples", type=int, default=3)
    args = ap.parse_args()
    for name in draughts_retro.GAMES:
        game = games.load(name)
        t0, c0 = time.monotonic(), time.process_time()
        tables = draughts_retro.DraughtsTables(game, args.out, build=True)
        entries = 0
        for cls in draughts_retro.all_classes():
            values = tables.values(cls)
            entries += len(values)
            s = tablefile.summary(values)
            print(f"{name} {cls}: {len(values):,} entries, wins {s['wins']:,}, draws {s['draws']:,}, "
                  f"losses {s['losses']:,}, longest win {s['longest_win_plies']} plies", flush=True)
        print(f"{name}: {entries:,} entries, {time.monotonic() - t0:.0f}s wall, "
              f"{time.process_time() - c0:.0f}s CPU", flush=True)
    t0, c0 = time.monotonic(), time.process_time()
    k = kalah_retro.KalahTables(6, args.kalah_seeds, False, args.out)
    print(f"kalah 6 pits, <= {args.kalah_seeds} seeds: {len(k.values):,} entries, "
          f"{time.monotonic() - t0:.0f}s wall, {time.process_time() - c0:.0f}s CPU", flush=True)
    game = games.load("reversi")
    rng = random.Random(1)
    for empties in args.reversi:
        for _ in range(args.samples):
            pos = game.new_position()
            while 64 - (pos.own | pos.opp).bit_count() > empties and pos.legal_moves():
                pos.push(rng.choice(pos.legal_moves()))
            solver = reversi_endgame.Solver()
            c0 = time.process_time()
            score, move = solver.best(pos.own, pos.opp)
            print(f"reversi {empties} empties: {pos.to_text()} score {score:+d}, "
                  f"{solver.nodes:,} nodes, {time.process_time() - c0:.2f}s CPU", flush=True)


if __name__ == "__main__":
    main()
