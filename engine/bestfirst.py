"""Best-first minimax: Stockman's SSS* and its dual DUAL*, to a fixed depth on any two-player game.

SSS* (G. C. Stockman, "A minimax algorithm better than alpha-beta?", Artificial
Intelligence 12, 1979) in the OPEN-list form of Pearl ("Heuristics", 1984, 8.2):
a state is a node, its status (LIVE: not yet examined, SOLVED: its value is
known up to the state's merit) and its merit h, an upper bound on the root's
value from that part of the tree. The state of highest merit is taken off OPEN
(the leftmost among equals) and turned over by the operator Γ:

1. LIVE leaf: SOLVED with min(h, its value) (the leaf is evaluated);
2. LIVE MAX node: every child LIVE with h;
3. LIVE MIN node: its first child LIVE with h;
4. SOLVED node whose parent is a MAX node: the parent SOLVED with h, and every
   state below the parent dropped from OPEN (its other children can do no better);
5. SOLVED node whose parent is a MIN node: its next sibling LIVE with h, or the
   parent SOLVED with h after the last one;

until the root is SOLVED: h is then its minimax value. MAX is the side to move
at the root; values are from its view, as :class:`engine.textbook.Textbook`'s.
DUAL* (Marsland, Reinefeld & Schaeffer, 1987) is SSS* run from the other side:
the opponent's nodes are the MAX nodes, values negated. Both evaluate only
leaves that alpha-beta with the same left-to-right move order evaluates too
(Stockman 1979; Pearl 1984), often fewer, at the price of an OPEN list as wide
as a solution tree (b^⌈d/2⌉ states on a uniform tree) where alpha-beta keeps
one path.

A node is a leaf as in :mod:`engine.textbook`: at the horizon, at a game's end
or without moves (a tree file's leaf scored by its value). The position is
walked with ``push``/``pop`` from node to node and left at the root.

>>> from games.tree import TreeGame
>>> run = sss(TreeGame.from_text("[[[3, 1], [2, 2]], [[3, 9], [1, 6]]]").new_position(), 3)
>>> run.value, run.leaves, [leaf for leaf, _ in run.evaluated]
(6, 6, [(0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1)])
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from engine.game import NO_MOVE, Position, result_score
from engine.textbook import INF

LIVE, SOLVED = 0, 1


@dataclass
class BestFirst:
    """One SSS* or DUAL* search: the root's value (side to move's view), the root move
    chosen (the first of equally good ones), the nodes examined (each node taken off
    OPEN as LIVE, the root included), the leaves evaluated, those leaves in the order
    evaluated (as paths of moves from the root, with their values from the root's
    side), and the longest OPEN list."""

    value: int
    best: int
    nodes: int
    leaves: int
    evaluated: list[tuple[tuple[int, ...], int]] = field(default_factory=list)
    most_open: int = 0


def sss(pos: Position, depth: int, dual: bool = False) -> BestFirst:
    """SSS* (or DUAL* with ``dual``) from ``pos`` to ``depth`` plies."""
    root_turn = pos.turn
    scored = bool(getattr(pos, "scored_leaves", False))
    # Per examined node (a path of child indices): its moves and whether it is a MAX node.
    moves_at: dict[tuple[int, ...], list[int]] = {}
    is_max: dict[tuple[int, ...], bool] = {}
    at: list[int] = []
    # The best child so far of each MIN node (its merit, child index): the root's best move
    # when the root is a MIN node (a DUAL* search of a MAX root).
    min_best: dict[tuple[int, ...], tuple[int, int]] = {}
    run = BestFirst(0, NO_MOVE, 0, 0)

    def goto(path: tuple[int, ...]) -> None:
        common = 0
        while common < len(at) and common < len(path) and at[common] == path[common]:
            common += 1
        while len(at) > common:
            pos.pop()
            at.pop()
        while len(at) < len(path):
            i = path[len(at)]
            pos.push(moves_at[tuple(at)][i])
            at.append(i)

    def leaf_value(ply: int) -> int | None:
        """The node's value from MAX's view when it is a leaf, else ``None`` (its moves stored)."""
        result = pos.outcome()
        if result is not None:
            v = result_score(result, ply)
        elif ply >= depth:
            v = pos.evaluate()
        else:
            moves = pos.legal_moves()
            if moves:
                moves_at[tuple(at)] = moves
                return None
            v = pos.evaluate() if scored else result_score(pos.no_moves_value(), ply)
        v = v if pos.turn == root_turn else -v
        return -v if dual else v

    open_list: list[tuple[int, tuple[int, ...], int]] = [(-INF, (), LIVE)]
    try:
        while True:
            run.most_open = max(run.most_open, len(open_list))
            minus_h, path, status = heapq.heappop(open_list)
            h = -minus_h
            if status == LIVE:
                goto(path)
                run.nodes += 1
                is_max[path] = (pos.turn == root_turn) != dual
                v = leaf_value(len(path))
                if v is not None:
                    run.leaves += 1
                    run.evaluated.append((_moves(moves_at, path), -v if dual else v))
                    heapq.heappush(open_list, (-min(h, v), path, SOLVED))
                elif is_max[path]:
                    for i in range(len(moves_at[path])):
                        heapq.heappush(open_list, (-h, path + (i,), LIVE))
                else:
                    heapq.heappush(open_list, (-h, path + (0,), LIVE))
                continue
            if not path:
                run.value = -h if dual else h
                break
            parent, i = path[:-1], path[-1]
            if is_max[parent]:
                # Rule 4 drops the states below the parent at once, so that OPEN's length is its own.
                depth_of = len(parent)
                open_list = [state for state in open_list if state[1][:depth_of] != parent]
                heapq.heapify(open_list)
                if not parent:
                    run.best = moves_at[()][i]
                heapq.heappush(open_list, (-h, parent, SOLVED))
                continue
            if parent not in min_best or h < min_best[parent][0]:
                min_best[parent] = (h, i)
            if i + 1 < len(moves_at[parent]):
                heapq.heappush(open_list, (-h, parent + (i + 1,), LIVE))
            else:
                if not parent:
                    run.best = moves_at[()][min_best[()][1]]
                heapq.heappush(open_list, (-h, parent, SOLVED))
    finally:
        goto(())
    return run


def _moves(moves_at: dict[tuple[int, ...], list[int]], path: tuple[int, ...]) -> tuple[int, ...]:
    """A path of child indices as the moves it plays."""
    return tuple(moves_at[path[:k]][i] for k, i in enumerate(path))
