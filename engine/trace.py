"""Listeners for the search tree: what a search visits, recorded node by node or counted.

The real search (:class:`engine.search.Searcher`, through its ``trace`` attribute)
and the textbook algorithms (:mod:`engine.textbook`) report every node they visit
the same way: ``enter(move, depth, alpha, beta, quiescence)`` when they reach it
and ``leave(value)`` when they return from it, values and windows from the side
to move's view (negamax). ``move`` is the move that led there (``NO_MOVE`` at the
root and after a null move); a node searched twice (a PVS re-search, an aspiration
failure) is entered twice.

:class:`Recorder` keeps the tree (for pictures and tests), :class:`Counter` only the
numbers (for the experiments of :mod:`engine.lab`). The textbook searches also
tell a :class:`Recorder`, before leaving a node, the move they chose there
(:meth:`Recorder.best`), why they stopped early (:meth:`Recorder.cut`: which
ancestor's bound cut the remaining moves off) and, for games of more than two
players, the node's value vector (:meth:`Recorder.vector`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Literal, Protocol

from engine.game import NO_MOVE, Position


class Listener(Protocol):
    """What a search tells about its tree."""

    def enter(self, move: int, depth: int, alpha: int, beta: int, quiescence: bool) -> None: ...

    def leave(self, value: int) -> None: ...


@dataclass(frozen=True)
class Cut:
    """Why a search left a node before its last move.

    ``window``: alpha-beta's ``value >= bound`` in the node's negamax view, the
    bound (its beta) set by the ancestor ``by`` plies from the root: a β-cut at a
    max node, an α-cut at a min node, shallow when ``by`` is the parent, deep when
    further up. ``shallow`` (max^n, Korf): the player who moved into the node can
    get at most ``value`` here, no more than the ``bound`` it has at its best child
    so far. ``immediate`` (max^n): the mover has ``value``, the most a player can get.
    """

    kind: Literal["window", "shallow", "immediate"]
    by: int
    value: int
    bound: int


@dataclass(eq=False)
class Node:
    """One visit of a position by a search."""

    move: int
    """The move that led here (``NO_MOVE`` at the root and after a null move)."""
    depth: int
    """Remaining depth (0 at the horizon and in quiescence)."""
    alpha: int
    beta: int
    quiescence: bool
    turn: int
    """The side to move here."""
    ply: int
    value: int | None = None
    """The backed-up value, side to move's view (``None`` while the node is open)."""
    children: list[Node] = field(default_factory=list)
    unsearched: list[int] = field(default_factory=list)
    """Legal moves the search never tried here: cut off by the window, or pruned."""
    best_move: int | None = None
    """The move the search chose here, when it says so (the textbook searches do)."""
    cut: Cut | None = None
    """Why the search left this node early, when it says so."""
    vector: tuple[int, ...] | None = None
    """The backed-up value vector (one entry per player) of an N-player search."""

    def walk(self) -> Iterator[Node]:
        """This node and every node below it, depth first."""
        yield self
        for child in self.children:
            yield from child.walk()

    def child_value(self, child: Node) -> int:
        """``child``'s value from this node's side to move's view."""
        assert child.value is not None
        return -child.value if child.turn != self.turn else child.value

    @property
    def failed_high(self) -> bool:
        """The value reached beta: the remaining moves were cut off."""
        return self.value is not None and self.value >= self.beta


class Recorder:
    """Keeps every visited node as a tree; ``roots`` holds one tree per root search
    (iterative deepening and aspiration re-searches give several).

    Given the position the search walks, it also lists at each interior node the
    legal moves that were never searched (``Node.unsearched``). At most ``limit``
    nodes of each root search are kept; beyond that visits are only counted:
    ``visits`` in all, and :meth:`level_counts` per level of the last root search,
    exact however many nodes were dropped (``truncated`` says whether the last
    root search dropped any).
    """

    def __init__(self, pos: Position | None = None, limit: int = 1_000_000):
        self.pos = pos
        self.limit = limit
        self.roots: list[Node] = []
        self.stack: list[Node | None] = []
        self.visits = 0
        self.kept = 0
        self.truncated = False
        # [nodes, leaves] per level of the last root search, and whether each open node had a child.
        self._levels: list[list[int]] = []
        self._had_child: list[bool] = []

    def enter(self, move: int, depth: int, alpha: int, beta: int, quiescence: bool) -> None:
        self.visits += 1
        if not self.stack:
            self._levels = []
            self.kept = 0
            self.truncated = False
        level = len(self.stack)
        if self._had_child:
            self._had_child[-1] = True
        self._had_child.append(False)
        if level == len(self._levels):
            self._levels.append([0, 0])
        self._levels[level][0] += 1
        parent = self.stack[-1] if self.stack else None
        if self.kept >= self.limit or (self.stack and parent is None):
            self.truncated = True
            self.stack.append(None)
            return
        self.kept += 1
        turn = self.pos.turn if self.pos is not None else len(self.stack) % 2
        node = Node(move, depth, alpha, beta, quiescence, turn, len(self.stack))
        (parent.children if parent is not None else self.roots).append(node)
        self.stack.append(node)

    def leave(self, value: int) -> None:
        node = self.stack.pop()
        if not self._had_child.pop():
            self._levels[len(self.stack)][1] += 1
        if node is None:
            return
        node.value = value
        # Once nodes are dropped, a node still open then lost children to the limit, not to the search.
        if self.pos is not None and node.depth > 0 and not node.quiescence and not self.truncated:
            # The position is back at this node: its moves minus the ones searched.
            searched = {child.move for child in node.children}
            node.unsearched = [m for m in self.pos.legal_moves() if m not in searched]

    def best(self, move: int) -> None:
        """The search chose ``move`` at the node it is about to leave."""
        if self.stack and self.stack[-1] is not None:
            self.stack[-1].best_move = move

    def cut(self, cut: Cut) -> None:
        """The search leaves the current node early, for ``cut``'s reason."""
        if self.stack and self.stack[-1] is not None:
            self.stack[-1].cut = cut

    def vector(self, vector) -> None:
        """The current node's backed-up value vector (N-player searches)."""
        if self.stack and self.stack[-1] is not None:
            self.stack[-1].vector = tuple(vector)

    @property
    def root(self) -> Node:
        """The last root search (the deepest iteration's final window)."""
        return self.roots[-1]

    def level_counts(self) -> list[tuple[int, int]]:
        """(nodes, leaves) per level of the last root search, counted at every visit."""
        return [(n, leaves) for n, leaves in self._levels]


class Counter:
    """Counts visits: all nodes, leaves (nodes left without a child) and both per ply."""

    def __init__(self) -> None:
        self.nodes = 0
        self.leaves = 0
        self.per_ply: list[int] = []
        self.leaves_per_ply: list[int] = []
        self._had_child: list[bool] = []

    def enter(self, move: int, depth: int, alpha: int, beta: int, quiescence: bool) -> None:
        ply = len(self._had_child)
        if self._had_child:
            self._had_child[-1] = True
        if ply == len(self.per_ply):
            self.per_ply.append(0)
            self.leaves_per_ply.append(0)
        self.per_ply[ply] += 1
        self.nodes += 1
        self._had_child.append(False)

    def leave(self, value: int) -> None:
        if not self._had_child.pop():
            self.leaves += 1
            self.leaves_per_ply[len(self._had_child)] += 1


def best_line(root: Node) -> list[Node]:
    """The nodes of the principal line: from each node, the child of the move the
    search chose there when it said so; else the first move searched whose value is
    the node's value and not a bound the child's window cut short (the first best,
    as the searches choose among equals). A move searched twice (a re-search) counts
    by its last visit."""
    line = [root]
    node = root
    while node.children:
        last = {c.move: c for c in node.children}
        if node.best_move is not None:
            chosen = last.get(node.best_move)
        else:
            # A null move (NO_MOVE below the root) is a probe, never the line.
            chosen = next((c for c in node.children if last[c.move] is c and c.move != NO_MOVE and c.value is not None
                           and node.child_value(c) == node.value and not c.failed_high), None)
        if chosen is None:
            break
        node = chosen
        line.append(node)
    return line


def level_counts(root: Node) -> list[tuple[int, int]]:
    """(nodes, leaves) per level below ``root`` (level 0 the root itself)."""
    counts: list[list[int]] = []
    for node in root.walk():
        level = node.ply - root.ply
        while len(counts) <= level:
            counts.append([0, 0])
        counts[level][0] += 1
        counts[level][1] += not node.children
    return [(n, leaves) for n, leaves in counts]


def path_of(node: Node, parents: dict[int, Node]) -> tuple[int, ...]:
    """The moves from the root to ``node``; ``parents`` maps ``id(child)`` to its parent."""
    moves = []
    while id(node) in parents:
        moves.append(node.move)
        node = parents[id(node)]
    return tuple(reversed(moves))


def parent_map(root: Node) -> dict[int, Node]:
    """``id(child) -> parent`` for every node below ``root``."""
    return {id(child): node for node in root.walk() for child in node.children}

