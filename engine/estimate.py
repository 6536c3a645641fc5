"""Sizes of games: complete games counted exactly, and Knuth's estimate of a tree's size.

The chapters bound tic-tac-toe by 9! = 362,880 move orders and put checkers'
complete tree at about 10^40 nodes and chess at about 10^120. Small games are
counted exactly (:func:`complete_games`: every game to its end, by result and
length). Large ones are estimated by Knuth's random probes (D. E. Knuth,
"Estimating the efficiency of backtrack programs", Math. Comp. 29, 1975): walk
from the root choosing a move uniformly at random until the game ends; if the
nodes met have ``b0, b1, …`` moves, then ``b0 · b1 · … · b(i-1)`` is an unbiased
estimate of the number of nodes at depth ``i``, and the product at the end one
of the number of complete games. The mean over many probes converges to the
true counts; in deep, irregular trees (chess) the products spread over many
orders of magnitude, so a few probes carry most of the mean: the spread of
their logarithms is reported beside it.

With a depth limit the walk stops there, and the mean product at that depth
estimates perft (a game that ended earlier adds nothing at that depth, as in perft).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from engine.position import Position

#: A probe stops after this many plies even if the game goes on (no game here lasts so long).
MAX_PLIES = 20_000


@dataclass
class GameCount:
    """Every complete game from a position, counted."""

    games: int = 0
    #: Games won by each player (by player number) and drawn.
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    #: Games by their length in plies.
    lengths: dict[int, int] = field(default_factory=dict)
    #: Nodes of the complete tree, the root included.
    nodes: int = 0


def complete_games(pos: Position, control=None) -> GameCount:
    """Count every game from ``pos`` to its end (the leaves of the complete game tree),
    by result and length. ``control.check()`` is called now and then when given."""
    count = GameCount()

    def walk(ply: int) -> None:
        count.nodes += 1
        if control is not None and not count.nodes & 4095:
            control.check()
        result = pos.outcome()
        moves = pos.legal_moves() if result is None else []
        if result is None and moves:
            for m in moves:
                pos.push(m)
                walk(ply + 1)
                pos.pop()
            return
        if result is None:
            result = pos.no_moves_value()
        count.games += 1
        count.lengths[ply] = count.lengths.get(ply, 0) + 1
        if result == 0:
            count.draws += 1
        else:
            count.wins[pos.turn if result > 0 else 1 - pos.turn] += 1

    walk(0)
    return count


@dataclass
class Estimate:
    """Knuth's estimates from ``probes`` random walks."""

    probes: int
    #: Sum over the probes of the product of branching factors at each depth
    #: (``level_sums[i] / probes`` estimates the nodes at depth i).
    level_sums: list[int]
    #: Sum of the products at the probes' ends: complete games, or perft at the depth limit.
    leaf_sum: int
    #: log10 of each probe's leaf product (for the spread).
    leaf_logs: list[float]
    #: Plies of each probe.
    lengths: list[int]

    def leaves(self) -> float:
        return self.leaf_sum / self.probes

    def nodes(self) -> float:
        return sum(self.level_sums) / self.probes

    def log10_leaves(self) -> float:
        return _log10_ratio(self.leaf_sum, self.probes)

    def log10_nodes(self) -> float:
        return _log10_ratio(sum(self.level_sums), self.probes)

    def branching(self) -> float:
        """Average branching factor: the estimated edges (nodes − 1) over the estimated
        interior nodes (every node above the leaves)."""
        total = sum(self.level_sums)
        interior = total - self.leaf_sum
        return (total - self.probes) / interior if interior > 0 else 0.0

    def mean_length(self) -> float:
        return sum(self.lengths) / self.probes

    def ply_branching(self) -> float:
        """The moves a ply along the probes: the geometric mean of every branching factor
        met (each probe's product to the power 1/its plies, weighted by its plies)."""
        plies = sum(self.lengths)
        return 10 ** (sum(self.leaf_logs) / plies) if plies else 0.0

    def log10_bd(self) -> float:
        """log10 of b^d, b the moves a ply (:meth:`ply_branching`) and d the mean length:
        the paths of one game of typical length, the kind of figure the chapters give
        (Knuth's mean is instead carried by the rare longest games)."""
        return self.mean_length() * math.log10(self.ply_branching()) if sum(self.lengths) else 0.0

    def spread(self) -> tuple[float, float, float]:
        """The 10th, 50th and 90th percentiles of the probes' log10 leaf products."""
        logs = sorted(self.leaf_logs)
        at = lambda q: logs[min(len(logs) - 1, int(q * len(logs)))]
        return at(0.1), at(0.5), at(0.9)


def _log10_ratio(a: int, b: int) -> float:
    return math.log10(a) - math.log10(b) if a > 0 else float("-inf")


def knuth_estimate(pos: Position, probes: int, seed: int = 1, depth: int | None = None,
                   control=None) -> Estimate:
    """Knuth's estimator over ``probes`` random walks from ``pos`` (restored after),
    to the game's end or to ``depth`` plies. The walks are reproducible by ``seed``."""
    if probes < 1:
        raise ValueError("probes must be at least 1")
    rng = random.Random(seed)
    level_sums: list[int] = [0]
    leaf_sum = 0
    leaf_logs: list[float] = []
    lengths: list[int] = []
    limit = MAX_PLIES if depth is None else depth
    for i in range(probes):
        if control is not None and not i & 63:
            control.check()
        weight = 1
        level_sums[0] += 1
        plies = 0
        ended = False
        while plies < limit:
            moves = pos.legal_moves() if pos.outcome() is None else []
            if not moves:
                ended = True
                break
            weight *= len(moves)
            plies += 1
            if plies == len(level_sums):
                level_sums.append(0)
            level_sums[plies] += weight
            pos.push(moves[rng.randrange(len(moves))])
        for _ in range(plies):
            pos.pop()
        # A game that ended before the depth limit adds nothing to the leaves at that depth.
        leaf = weight if depth is None or not ended or plies == depth else 0
        leaf_sum += leaf
        leaf_logs.append(math.log10(leaf) if leaf else float("-inf"))
        lengths.append(plies)
    return Estimate(probes, level_sums, leaf_sum, leaf_logs, lengths)
