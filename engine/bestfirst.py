"""Best-first minimax: Stockman's SSS*, its dual DUAL* and Berliner's B*, to a fixed depth on any two-player game.

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

B* is :func:`bstar`, described there.

>>> from games.tree import TreeGame
>>> run = sss(TreeGame.from_text("[[[3, 1], [2, 2]], [[3, 9], [1, 6]]]").new_position(), 3)
>>> run.value, run.leaves, [leaf for leaf, _ in run.evaluated]
(6, 6, [(0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1)])
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

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
    scored = pos.scored_leaves()
    # Per examined node (a path of child indices): its moves and whether it is a MAX node.
    moves_at: dict[tuple[int, ...], list[int]] = {}
    is_max: dict[tuple[int, ...], bool] = {}
    at: list[int] = []  # the moves from the root to the node the position is at
    # The best child so far of each MIN node (its merit, child index): the root's best move
    # when the root is a MIN node (a DUAL* search of a MAX root).
    min_best: dict[tuple[int, ...], tuple[int, int]] = {}
    run = BestFirst(0, NO_MOVE, 0, 0)

    def goto(path: tuple[int, ...]) -> None:
        _walk(pos, at, _moves(moves_at, path))

    def leaf_value(path: tuple[int, ...]) -> int | None:
        """The node's value from MAX's view when it is a leaf, else ``None`` (its moves stored)."""
        v, moves = _leaf(pos, len(path), depth, scored)
        if v is None:
            moves_at[path] = moves
            return None
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
                v = leaf_value(path)
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


def _leaf(pos: Position, ply: int, depth: int, scored: bool) -> tuple[int | None, list[int]]:
    """A node as :mod:`engine.textbook` sees it: its value from its mover's view and no
    moves at a leaf (a game's end, the horizon, no moves), else ``None`` and its moves."""
    result = pos.outcome()
    if result is not None:
        return result_score(result, ply), []
    if ply >= depth:
        return pos.evaluate(), []
    moves = pos.legal_moves()
    if moves:
        return None, moves
    return (pos.evaluate() if scored else result_score(pos.no_moves_value(), ply)), []


def _walk(pos: Position, at: list[int], moves: Sequence[int]) -> None:
    """Take ``pos`` from the node the moves ``at`` lead to (from the root) to the one
    ``moves`` lead to, back to their common line and on; ``at`` follows. A line of
    moves from the root names one node, so lines compare as nodes do."""
    common = 0
    while common < len(at) and common < len(moves) and at[common] == moves[common]:
        common += 1
    while len(at) > common:
        pos.pop()
        at.pop()
    for move in moves[common:]:
        pos.push(move)
        at.append(move)


def _moves(moves_at: dict[tuple[int, ...], list[int]], path: tuple[int, ...]) -> tuple[int, ...]:
    """A path of child indices as the moves it plays."""
    return tuple(moves_at[path[:k]][i] for k, i in enumerate(path))


#: B*'s default margin: a node's bounds are its static evaluation ± this, in the
#: evaluation's units (a pawn in chess's centipawns).
BSTAR_MARGIN = 100
#: How B* chooses at the root: Berliner's two strategies, or between them by :func:`_prove_first`.
BSTAR_STRATEGIES = ("auto", "provebest", "disproverest")
PROVE_BEST, DISPROVE_REST = "prove best", "disprove rest"


@dataclass
class BStar:
    """One B* search, values from the root side's view: the root's interval
    [``low``, ``high``], the root move chosen, whether it is proven (``separated``:
    its pessimistic value reached every other move's optimistic one; else the
    search stopped at ``limit`` and chose the move with the best pessimistic
    value), the nodes expanded and generated (the root counted in both), each
    expansion in order (the node's path of moves, the root strategy that led
    there: ``""`` for the root's own, and the root moves' intervals after it) and
    the tree built, flat: per node its parent, move, interval, expansion number
    (0: never expanded), children (``None`` until expanded) and whether the root
    side moves there, node 0 the root."""

    low: int
    high: int
    best: int
    separated: bool
    expanded: int
    generated: int
    expansions: list[tuple[tuple[int, ...], str, list[tuple[int, int]]]] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    move: list[int] = field(default_factory=list)
    lows: list[int] = field(default_factory=list)
    highs: list[int] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    kids: list[list[int] | None] = field(default_factory=list)
    max_node: list[bool] = field(default_factory=list)

    def path(self, node: int) -> tuple[int, ...]:
        """The moves from the root to ``node``."""
        moves: list[int] = []
        while node > 0:
            moves.append(self.move[node])
            node = self.parent[node]
        return tuple(reversed(moves))

    def root_children(self) -> list[tuple[int, int, int]]:
        """The root's moves with their final intervals: (move, low, high)."""
        return [(self.move[k], self.lows[k], self.highs[k]) for k in self.kids[0] or []]


def bstar(pos: Position, depth: int, margin: int = BSTAR_MARGIN, strategy: str = "auto",
          limit: int | None = None) -> BStar:
    """Berliner's B* (H. Berliner, "The B* tree search algorithm: a best-first proof
    procedure", Artificial Intelligence 12, 1979) from ``pos`` to ``depth`` plies.

    Every node carries a pessimistic and an optimistic value, bounds on its true
    value from the root side's view (MAX/MIN form: the root side maximises). A
    generated node gets them from the position: exact at a game's end, at the
    horizon (its evaluation) and without moves (as :func:`sss` scores it); else
    the position's own ``bounds()`` (a tree file's), or its static evaluation ±
    ``margin``. An expanded node's interval is backed up from its children's: at a
    MAX node the largest of their pessimistic and of their optimistic values, at a
    MIN node the smallest, from the expanded node up to the root.

    The search stops when a root move's pessimistic value is at least every other
    root move's optimistic value (separation: the move is proven best without its
    exact value, given bounds that hold), which an exhausted tree always reaches,
    or once ``limit`` nodes are generated. Otherwise it descends from the root,
    where ``strategy`` chooses PROVEBEST (into the move of best optimistic value,
    to raise its pessimistic value) or DISPROVEREST (into the best of the others
    by optimistic value, to lower it); ``auto`` chooses as :func:`_prove_first`
    says. Below the root it takes the child best for the side to move there by
    its optimistic value (MAX: the highest optimistic, MIN: the lowest
    pessimistic), the first of equals, down to a node not yet expanded, which is
    then expanded: all its children generated with their bounds. A node whose
    interval is not a point always has such a child, so every descent ends at a
    node that can be expanded. DISPROVEREST needs the second move's interval open;
    when it is a point, PROVEBEST is taken instead.
    """
    if strategy not in BSTAR_STRATEGIES:
        raise ValueError(f"B* strategy: one of {', '.join(BSTAR_STRATEGIES)}, not {strategy!r}")
    root_turn = pos.turn
    scored = pos.scored_leaves()
    run = BStar(0, 0, NO_MOVE, False, 0, 1, parent=[-1], move=[NO_MOVE], lows=[-INF], highs=[INF], order=[0],
                kids=[None], max_node=[True])
    lows, highs, kids, is_max = run.lows, run.highs, run.kids, run.max_node
    moves_at: dict[int, list[int]] = {}
    stack: list[int] = []

    def goto(node: int) -> None:
        _walk(pos, stack, run.path(node))

    def bounds(node: int, ply: int) -> tuple[int, int]:
        """The position's interval from the root side's view (its moves stored when it has an open one)."""
        v, moves = _leaf(pos, ply, depth, scored)
        if v is None:
            moves_at[node] = moves
            if node == 0:
                # The root's interval is its children's, backed up once it is expanded.
                return -INF, INF
            b = pos.bounds()
            if b is None:
                v = pos.evaluate()
                b = (v - margin, v + margin)
            return b if pos.turn == root_turn else (-b[1], -b[0])
        v = v if pos.turn == root_turn else -v
        return v, v

    def expand(node: int) -> None:
        goto(node)
        run.expanded += 1
        run.order[node] = run.expanded
        ply = len(stack)
        children: list[int] = []
        for m in moves_at.pop(node):
            pos.push(m)
            child = len(run.parent)
            run.parent.append(node)
            run.move.append(m)
            run.order.append(0)
            kids.append(None)
            is_max.append(pos.turn == root_turn)
            low, high = bounds(child, ply + 1)
            lows.append(low)
            highs.append(high)
            children.append(child)
            pos.pop()
        run.generated += len(children)
        kids[node] = children
        # Back up to the root, stopping where an interval no longer changes.
        while node >= 0:
            if is_max[node]:
                low, high = max(lows[k] for k in children), max(highs[k] for k in children)
            else:
                low, high = min(lows[k] for k in children), min(highs[k] for k in children)
            if (low, high) == (lows[node], highs[node]):
                break
            lows[node], highs[node] = low, high
            node = run.parent[node]
            if node >= 0:
                children = kids[node] or []

    try:
        low, high = bounds(0, 0)
        lows[0], highs[0] = low, high
        if low == high:
            run.low, run.high, run.separated = low, high, True
            return run
        expand(0)
        run.expansions.append(((), "", [(lows[k], highs[k]) for k in kids[0] or []]))
        while True:
            root_kids = kids[0] or []
            proven = _separated(root_kids, lows, highs)
            if proven >= 0:
                run.best, run.separated = run.move[proven], True
                break
            if limit is not None and run.generated >= limit:
                safest = max(root_kids, key=lambda k: (lows[k], -k))
                run.best = run.move[safest]
                break
            first = max(root_kids, key=lambda k: (highs[k], -k))
            others = [k for k in root_kids if k != first]
            second = max(others, key=lambda k: (highs[k], -k))
            prove = (strategy == "provebest" or lows[second] == highs[second]
                     or (strategy == "auto" and _prove_first(first, others, lows, highs)))
            node = first if prove else second
            while kids[node] is not None:
                if is_max[node]:
                    node = max(kids[node] or [], key=lambda k: (highs[k], -k))
                else:
                    node = min(kids[node] or [], key=lambda k: (lows[k], k))
            expand(node)
            run.expansions.append((run.path(node), PROVE_BEST if prove else DISPROVE_REST,
                                   [(lows[k], highs[k]) for k in root_kids]))
    finally:
        goto(0)
    run.low, run.high = lows[0], highs[0]
    return run


def _separated(children: list[int], lows: list[int], highs: list[int]) -> int:
    """The first root child whose pessimistic value is at least every other child's
    optimistic value (proven best), or -1."""
    top = second = -INF
    for k in children:
        if highs[k] > top:
            top, second = highs[k], top
        elif highs[k] > second:
            second = highs[k]
    for k in children:
        # The best optimistic value among the others: the second best when k holds the best.
        others = second if highs[k] == top else top
        if lows[k] >= others:
            return k
    return -1


def _prove_first(first: int, others: list[int], lows: list[int], highs: list[int]) -> bool:
    """B*'s choice at the root: PROVEBEST (True) or DISPROVEREST. Berliner's rule is
    to take the strategy more likely to reach separation; here that chance is
    measured as if each move's true value were spread evenly over its interval:
    PROVEBEST succeeds when the best move's value reaches the others' best
    optimistic value, DISPROVEREST when every other move that still overlaps the
    best one's pessimistic value falls to it. Equal chances go to PROVEBEST."""
    low, high = lows[first], highs[first]
    rival = max(highs[k] for k in others)
    prove = Fraction(high - rival, high - low)
    disprove = Fraction(1)
    for k in others:
        if highs[k] > low:
            width = highs[k] - lows[k]
            disprove *= Fraction(max(0, low - lows[k]), width) if width else Fraction(0)
    return prove >= disprove
