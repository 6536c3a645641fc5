"""The textbook algorithms: minimax, alpha-beta and PVS to a fixed depth, on any game.

These are the algorithms as the game-search literature states them, with none
of the engine's refinements (no transposition table, no quiescence, no
pruning beyond the window): the reference the engine's search is measured
against, and what ``zermelo tree`` and ``zermelo lab`` draw and count. They walk
a :class:`engine.game.Position` with ``push``/``pop`` and report each visit to a
listener of :mod:`engine.trace` exactly as the engine's search does.

Values are negamax (side to move's view), negated only when ``turn`` changed.
A node is a leaf at the horizon (``evaluate()``), at a game end, or without
moves; a position that declares ``scored_leaves`` (a tree read from a file) is
scored by ``evaluate()`` there instead of by the rules' end of game.

Move ordering (``order``): ``none`` as generated; ``random`` shuffled (seeded);
``static`` by the children's static evaluation; ``perfect`` by the children's
true value at the remaining depth (computed first, by minimax, uncounted),
which makes alpha-beta visit the minimal tree of Knuth and Moore; ``worst``
the reverse, where alpha-beta cuts nothing in trees up to 3 plies deep whose
siblings never tie (deeper, windows handed down two levels still make deep
cut-offs).

>>> knuth_moore(3, 4), knuth_moore(2, 3)
(17, 5)
"""

from __future__ import annotations

import random

from engine.game import NO_MOVE, WIN, Position, result_score
from engine.trace import Listener

INF = WIN + 1
ALGORITHMS = ("minimax", "alphabeta", "pvs")
ORDERS = ("none", "random", "static", "perfect", "worst")


def knuth_moore(b: int, d: int) -> int:
    """Leaves alpha-beta evaluates with perfect ordering on a uniform tree: b^⌈d/2⌉ + b^⌊d/2⌋ − 1."""
    return b ** ((d + 1) // 2) + b ** (d // 2) - 1


class Textbook:
    """One position searched by the textbook algorithms; ``nodes`` and ``leaves``
    count the visits of every search run so far (perfect ordering's own
    look-ahead is not counted: it stands for an oracle)."""

    def __init__(self, pos: Position, listener: Listener | None = None, order: str = "none", seed: int = 0):
        if order not in ORDERS:
            raise ValueError(f"unknown move order {order!r}; known: {', '.join(ORDERS)}")
        self.pos = pos
        self.listener = listener
        self.order = order
        self.rng = random.Random(seed)
        self.scored_leaves = bool(getattr(pos, "scored_leaves", False))
        self.nodes = 0
        self.leaves = 0
        #: Best move per position key, kept by :meth:`iterative` to order the next iteration.
        self.best_moves: dict[int, int] = {}
        self.use_best_moves = False
        self.value = 0
        self._exact: dict[tuple[int, int], int] = {}

    # -- the three algorithms ------------------------------------------------------

    def search(self, algorithm: str, depth: int) -> int:
        """The root value by ``algorithm`` (one of :data:`ALGORITHMS`) to ``depth`` plies."""
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
        return self._visit(algorithm, NO_MOVE, depth, -INF, INF, 0)

    def minimax(self, depth: int) -> int:
        return self.search("minimax", depth)

    def alphabeta(self, depth: int) -> int:
        return self.search("alphabeta", depth)

    def pvs(self, depth: int) -> int:
        return self.search("pvs", depth)

    def iterative(self, depth: int, reorder: bool = True) -> list[int]:
        """Alpha-beta by iterative deepening to ``depth``: the nodes of each iteration.

        With ``reorder`` every iteration tries first, at each position, the best
        move the previous iteration found there (what a transposition table's move
        does in the engine); without it each iteration starts from the same order.
        The last iteration's value is left in ``value``.
        """
        counts = []
        self.best_moves.clear()
        self.use_best_moves = reorder
        try:
            for d in range(1, depth + 1):
                before = self.nodes
                self.value = self._visit("alphabeta", NO_MOVE, d, -INF, INF, 0)
                counts.append(self.nodes - before)
        finally:
            self.use_best_moves = False
        return counts

    # -- the tree ------------------------------------------------------------------

    def _visit(self, algorithm: str, move: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        listener = self.listener
        if listener is not None:
            listener.enter(move, depth, alpha, beta, False)
        self.nodes += 1
        v = self._value(algorithm, depth, alpha, beta, ply)
        if listener is not None:
            listener.leave(v)
        return v

    def _leaf(self, depth: int, ply: int) -> tuple[bool, int, list[int]]:
        """(whether the node is a leaf, its value if so, else its moves)."""
        pos = self.pos
        result = pos.outcome()
        if result is not None:
            return True, result_score(result, ply), []
        if depth <= 0:
            return True, pos.evaluate(), []
        moves = pos.legal_moves()
        if not moves:
            return True, pos.evaluate() if self.scored_leaves else result_score(pos.no_moves_value(), ply), []
        return False, 0, moves

    def _value(self, algorithm: str, depth: int, alpha: int, beta: int, ply: int) -> int:
        leaf, value, moves = self._leaf(depth, ply)
        if leaf:
            self.leaves += 1
            return value
        pos = self.pos
        moves = self._ordered(moves, depth, ply)
        us = pos.turn
        best, best_move = -INF, NO_MOVE
        for i, m in enumerate(moves):
            pos.push(m)
            flip = pos.turn != us
            if algorithm == "minimax":
                v = self._child(algorithm, m, flip, depth, -INF, INF, ply)
            elif algorithm == "alphabeta" or i == 0:
                v = self._child(algorithm, m, flip, depth, alpha, beta, ply)
            else:
                # PVS: a zero-window probe proves the move no better; one that is gets the full window.
                v = self._child(algorithm, m, flip, depth, alpha, alpha + 1, ply)
                if alpha < v < beta:
                    v = self._child(algorithm, m, flip, depth, alpha, beta, ply)
            pos.pop()
            if v > best:
                best, best_move = v, m
            if algorithm != "minimax" and v > alpha:
                alpha = v
                if alpha >= beta:
                    break
        if self.use_best_moves:
            self.best_moves[pos.key] = best_move
        return best

    def _child(self, algorithm: str, move: int, flip: bool, depth: int, alpha: int, beta: int, ply: int) -> int:
        if flip:
            return -self._visit(algorithm, move, depth - 1, -beta, -alpha, ply + 1)
        return self._visit(algorithm, move, depth - 1, alpha, beta, ply + 1)

    # -- move ordering ---------------------------------------------------------------

    def _ordered(self, moves: list[int], depth: int, ply: int) -> list[int]:
        pos = self.pos
        if self.use_best_moves:
            first = self.best_moves.get(pos.key, NO_MOVE)
            return [first] + [m for m in moves if m != first] if first in moves else moves
        if self.order == "none":
            return moves
        if self.order == "random":
            moves = list(moves)
            self.rng.shuffle(moves)
            return moves
        us = pos.turn
        scored = []
        for i, m in enumerate(moves):
            pos.push(m)
            v = pos.evaluate() if self.order == "static" else self._exact_value(depth - 1, ply + 1)
            scored.append((-v if pos.turn != us else v, -i, m))
            pos.pop()
        # Best first (worst first for "worst"); ties keep the generated order.
        if self.order == "worst":
            scored = [(-v, i, m) for v, i, m in scored]
        scored.sort(reverse=True)
        return [m for _, _, m in scored]

    def _exact_value(self, depth: int, ply: int) -> int:
        """The minimax value of the current position to ``depth`` (memoised, not counted)."""
        pos = self.pos
        key = (pos.key, depth)
        if key in self._exact:
            return self._exact[key]
        leaf, value, moves = self._leaf(depth, ply)
        if not leaf:
            us = pos.turn
            value = -INF
            for m in moves:
                pos.push(m)
                v = self._exact_value(depth - 1, ply + 1)
                value = max(value, -v if pos.turn != us else v)
                pos.pop()
        self._exact[key] = value
        return value
