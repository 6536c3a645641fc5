"""Check built draughts tables against the game's own rules, position by position.

    nice python scripts/draughts_tables_check.py GAME DIR [--positions 40] [--horizon 3] [--seed 1]

For every class with a file in DIR, random legal positions (either side to move,
either side of the class to move, men never on the row that would have crowned them)
are checked two ways, neither using the table code's move generation:

- one step: the value read for the position is what the game's own moves
  (``legal_moves``/``push``) make of the values read for its children;
- a plain minimax to ``--horizon`` plies on the game's rules finds exactly the
  wins and losses within the horizon that the table gives, and nothing else.

Prints per class the positions checked, how many the minimax decided, and the
disagreements (each with its FEN); exits 1 if there was any.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from games.draughts import retro as dr  # noqa: E402


def random_position(game, rng: random.Random, name: str):
    sides = dr.parse_class(name)
    geo = game.geometry
    up = 1 - game.down_player
    while True:
        turn = rng.randrange(2)
        owners = (turn, 1 - turn) if rng.random() < 0.5 else (1 - turn, turn)
        squares = rng.sample(range(1, geo.n_squares + 1), sum(map(sum, sides)))
        occ, kings, k, ok = [0, 0], 0, 0, True
        for p, (men, kgs) in zip(owners, sides):
            for is_king in [False] * men + [True] * kgs:
                s = squares[k]
                k += 1
                if not is_king and (s - 1) // geo.per_row == (0 if p == up else geo.size - 1):
                    ok = False
                occ[p] |= 1 << geo.index[s]
                kings |= (1 << geo.index[s]) if is_king else 0
        if ok:
            return game.position_class(game, (occ[0], occ[1]), kings, turn)


def one_step(tables, pos) -> tuple[int, int]:
    moves = pos.legal_moves()
    if not moves:
        return -1, 0
    children = []
    for m in moves:
        pos.push(m)
        children.append((-1, 0) if not pos.occ[pos.turn] else tables.probe(pos))
        pos.pop()
    wins = [p for w, p in children if w < 0]
    if wins:
        return 1, min(wins) + 1
    if any(w == 0 for w, _ in children):
        return 0, 0
    return -1, max(p for _, p in children) + 1


def solve(pos, depth: int, memo: dict):
    """``("win", n)``, ``("loss", n)`` within ``depth`` plies, or None."""
    key = (pos.occ, pos.kings, pos.turn, depth)
    if key in memo:
        return memo[key]
    moves = pos.legal_moves()
    if not moves:
        result = ("loss", 0)
    elif depth == 0:
        result = None
    else:
        best_win, worst_loss, open_ = None, -1, False
        for m in moves:
            pos.push(m)
            child = ("loss", 0) if not pos.occ[pos.turn] else solve(pos, depth - 1, memo)
            pos.pop()
            if child is None:
                open_ = True
            elif child[0] == "loss":
                best_win = child[1] + 1 if best_win is None else min(best_win, child[1] + 1)
            else:
                worst_loss = max(worst_loss, child[1] + 1)
        if best_win is not None:
            result = ("win", best_win)
        elif open_:
            result = None
        else:
            result = ("loss", worst_loss)
    memo[key] = result
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("directory")
    ap.add_argument("--positions", type=int, default=40, help="random positions per class")
    ap.add_argument("--horizon", type=int, default=3, help="plies of the plain minimax")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    game = games.load(args.game)
    tables = dr.DraughtsTables(game, args.directory)
    rng = random.Random(args.seed)
    bad = total = decided = 0
    start = time.monotonic()
    for name in tables.files():
        memo: dict = {}
        n_bad = n_dec = 0
        for _ in range(args.positions):
            pos = random_position(game, rng, name)
            got = tables.probe(pos)
            want = one_step(tables, pos)
            wdl, plies = got
            table = None if wdl == 0 or plies > args.horizon else ("win" if wdl > 0 else "loss", plies)
            found = solve(pos, args.horizon, memo)
            if got != want or found != table:
                n_bad += 1
                print(f"  {name} {pos.to_text()}: table {got}, one step {want}, minimax {found}")
            n_dec += found is not None
        print(f"{name}: {args.positions} positions, {n_dec} decided within {args.horizon} plies, "
              f"{n_bad} disagreements", flush=True)
        bad += n_bad
        total += args.positions
        decided += n_dec
    print(f"{args.game}: {total} positions over {len(tables.files())} classes, {decided} decided by the "
          f"minimax, {bad} disagreements, {time.monotonic() - start:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
