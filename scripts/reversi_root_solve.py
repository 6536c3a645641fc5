"""How long the exact root solve takes at N empties on positions from played games:
the figures ``EndgameEmpties`` is chosen by.

    nice python scripts/reversi_root_solve.py RECORDS [--empties 14 16 18 20 22] [--games 40]

RECORDS is a reversi record file (``zermelo match --records``). From each of its first
``--games`` games, the position the game reached when it first had at most N empty
squares is solved exactly (a fresh :class:`games.reversi.endgame.Solver`, one process:
the win/draw/loss proof, then the exact score), for each N. Prints per N the CPU
seconds (median, 80th and 90th percentile, most: on one core, the wall time of an
idle machine) and the nodes (median).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def reached(game, moves: list[str], empties: int):
    """The first position of the game with at most ``empties`` empty squares, or ``None``
    if it ended before, or there with no move left."""
    pos = game.new_position()
    for text in moves:
        if 64 - (pos.own | pos.opp).bit_count() <= empties:
            break
        pos.push(pos.parse_move(text))
    if 64 - (pos.own | pos.opp).bit_count() > empties or not pos.legal_moves():
        return None
    return pos


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", type=Path)
    ap.add_argument("--empties", type=int, nargs="+", default=[14, 16, 18, 20, 22])
    ap.add_argument("--games", type=int, default=40)
    args = ap.parse_args()
    import engine.build

    engine.build.install()
    import games
    from games.reversi import endgame as rv
    from protocol.records import read_records

    game = games.load("reversi")
    records = [r for r in read_records(args.records.read_text()) if r.game == "reversi"][:args.games]
    print(f"{engine.build.describe()}; {len(records)} games of {args.records.name}; CPU seconds")
    print(f"{'empties':>7} {'positions':>9} {'median s':>9} {'p80 s':>7} {'p90 s':>7} {'most s':>7} {'median nodes':>13}")
    for empties in args.empties:
        seconds, nodes = [], []
        for rec in records:
            pos = reached(game, rec.moves, empties)
            if pos is None:
                continue
            solver = rv.Solver()
            start = time.process_time()
            solver.best(pos.own, pos.opp)
            seconds.append(time.process_time() - start)
            nodes.append(solver.nodes)
        if not seconds:
            continue
        seconds.sort()
        p80, p90 = (seconds[min(len(seconds) - 1, int(q * len(seconds)))] for q in (.8, .9))
        print(f"{empties:>7} {len(seconds):>9} {statistics.median(seconds):>9.3f} {p80:>7.3f} {p90:>7.3f} "
              f"{seconds[-1]:>7.3f} {int(statistics.median(nodes)):>13,}", flush=True)


if __name__ == "__main__":
    main()
