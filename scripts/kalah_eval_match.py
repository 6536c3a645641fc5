"""Kalah: the evaluation against the bare store difference, at equal depth.

Plays every two-move opening of Kalah(pits, seeds) twice, colours swapped: one
side searches with ``KalahPosition.evaluate``, the other with 100 times the
store difference. Prints wins, draws and losses for the evaluation and the mean
final store margin. Run it niced; the machine may be shared.

    nice python scripts/kalah_eval_match.py --depth 6
    nice python scripts/kalah_eval_match.py --pits 4 --seeds 4 --depth 8 --empty-capture
"""

from __future__ import annotations

import argparse
import itertools
import statistics

import games
from engine.search import Searcher
from engine.timeman import Limits
from games.kalah import KalahPosition

class _Position(KalahPosition):
    """Searches with the full evaluation while ``full`` is set, else with the store
    difference (a subclass: the compiled position's methods cannot be patched)."""

    full = True

    def evaluate(self) -> int:
        if self.full:
            return KalahPosition.evaluate(self)
        b, p = self.board, self.game.pits
        d = 100 * (b[p] - b[2 * p + 1])
        return d if self.turn == 0 else -d


def play(game, opening: list[int], full_eval_player: int, depth: int) -> int:
    """Final store margin for the side using the full evaluation."""
    start = game.new_position()
    pos = _Position(game, start.board, start.turn)
    for m in opening:
        pos.push(m)
    searchers = (Searcher(16), Searcher(16))
    while pos.legal_moves():
        pos.full = pos.turn == full_eval_player
        pos.push(searchers[pos.turn].search(game, pos, Limits(depth=depth)).best)
    margin = pos.margin()
    return margin if pos.turn == full_eval_player else -margin


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--empty-capture", action="store_true")
    parser.add_argument("--depth", type=int, default=6)
    args = parser.parse_args(argv)
    game = games.load("kalah", pits=args.pits, seeds=args.seeds, empty_capture=args.empty_capture)
    openings = []
    for first, second in itertools.product(range(1, args.pits + 1), repeat=2):
        pos = game.new_position()
        pos.push(first)
        if second in pos.legal_moves():
            openings.append([first, second])
    margins = [play(game, opening, player, args.depth) for opening in openings for player in (0, 1)]
    wins = sum(m > 0 for m in margins)
    draws = sum(m == 0 for m in margins)
    print(f"Kalah({args.pits},{args.seeds}) empty_capture={args.empty_capture} depth {args.depth}: "
          f"{len(margins)} games, evaluation +{wins} ={draws} -{len(margins) - wins - draws}, "
          f"mean margin {statistics.mean(margins):+.2f} seeds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
