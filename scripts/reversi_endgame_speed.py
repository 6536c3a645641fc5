"""Endgame solver speed, compiled against pure, in one run: nodes per CPU second on the
last N empties.

    nice python scripts/reversi_endgame_speed.py [--empties 10] [--positions 40] [--seed 1]

Makes ``--positions`` positions with ``--empties`` empty squares by seeded random play,
then solves each exactly (a fresh :class:`games.reversi.endgame.Solver`, the
win/draw/loss proof then the exact score) in each build, the pure one in a child
process with ``ZERMELO_PURE=1``. Prints per build the positions, nodes, CPU seconds and
nodes per CPU second, and checks that both builds searched the same nodes and found the
same scores (node for node, as the project requires). A node is a position searched,
the 1-empty leaves included.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def positions(empties: int, count: int, seed: int) -> list[str]:
    import games

    game = games.load("reversi")
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = game.new_position()
        while 64 - (pos.own | pos.opp).bit_count() > empties and pos.legal_moves():
            pos.push(rng.choice(pos.legal_moves()))
        if 64 - (pos.own | pos.opp).bit_count() == empties and pos.legal_moves():
            out.append(pos.to_text())
    return out


def run(texts: list[str]) -> dict:
    """Solve every position in this process's build: build, nodes, CPU seconds, scores."""
    import engine.build

    engine.build.install()
    import games
    from games.reversi import endgame as rv

    game = games.load("reversi")
    nodes, cpu, scores = 0, 0.0, []
    for text in texts:
        pos = game.new_position(text)
        solver = rv.Solver()
        c0 = time.process_time()
        score, _ = solver.best(pos.own, pos.opp)
        cpu += time.process_time() - c0
        nodes += solver.nodes
        scores.append(score)
    return {"build": engine.build.describe(), "nodes": nodes, "cpu": cpu, "scores": scores}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--empties", type=int, default=10)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    texts = positions(args.empties, args.positions, args.seed)
    if args.child:
        print(json.dumps(run(texts)))
        return
    results = [run(texts)]
    child = subprocess.run([sys.executable, __file__, "--child", "--empties", str(args.empties), "--positions",
                            str(args.positions), "--seed", str(args.seed)],
                           env={**os.environ, "ZERMELO_PURE": "1"}, capture_output=True, text=True, check=True)
    results.append(json.loads(child.stdout.splitlines()[-1]))
    print(f"{args.positions} positions of {args.empties} empties (seed {args.seed})")
    for r in results:
        print(f"{r['build']:<40} {r['nodes']:>12,} nodes {r['cpu']:>8.2f} s CPU "
              f"{r['nodes'] / max(r['cpu'], 1e-9):>12,.0f} nodes/s")
    same = results[0]["nodes"] == results[1]["nodes"] and results[0]["scores"] == results[1]["scores"]
    print(f"compiled/pure: {results[1]['cpu'] / max(results[0]['cpu'], 1e-9) * results[0]['nodes'] / max(results[1]['nodes'], 1):.0f}x "
          f"nodes per second; same nodes and scores in both builds: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
