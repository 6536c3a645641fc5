"""AND/OR graphs as the textbook chapters pose games: solvable nodes and solution graphs.

A problem is reduced to sub-problems: an OR node is solved when one of its
successors is, an AND node when all of them are; a terminal node is solved or
not by itself. A game is such a graph seen from one player, the *prover*: the
positions where the prover moves are OR nodes (one good move suffices), the
opponent's are AND nodes (every reply must be answered). The chapters ask two
problems of a position X, both about the players PLUS and MINUS:

* ``W(X)``: PLUS can force a win: PLUS is the prover; PLUS's wins are solved;
* ``V(X)``: MINUS can force a win: MINUS is the prover, so PLUS's positions
  become AND nodes; PLUS's losses are solved.

Draws solve neither. A graph is written (and :func:`from_game` builds it) for
W, from PLUS's side; :func:`pose` turns it into V's graph.

Positions reached along different lines are one node (merged by the game's key),
so a game is a *graph*, not a tree: 7 coins have 8 positions, not 17 tree nodes.

Solvability is computed as retrograde analysis does it: terminal nodes first,
then every node whose rule is met by nodes already marked, round by round,
until nothing changes. Graphs are acyclic (a file with a cycle is refused; the
games drawn here cannot repeat a position), so every solution graph ends in
solved terminals.

A solution graph is a subgraph that holds the root, one solvable successor of
each of its OR nodes and every successor of each of its AND nodes; it is the
prover's strategy. :func:`solution_graphs` lists them all (small graphs) and
:func:`minimal_solution` chooses one with the fewest nodes.

Graph files (``zermelo solve --file F``) are JSON::

    {"title": "...", "note": "(free text)", "root": "M1",
     "nodes": {"M1": {"kind": "or", "children": ["M2", "P3"]},
               "M2": {"kind": "and", "children": ["P2", "P3"]},
               "P2": {"kind": "terminal", "solved": true},
               "P3": {"kind": "terminal", "value": "draw"}}}

A terminal holds ``solved`` (true/false, the same under W and V) or ``value``
(``win``, ``draw`` or ``loss``, for PLUS: the OR nodes' player). Nothing in a file is run as code.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from engine.files import read_text_bounded

#: Largest graph file read, in bytes, and most nodes in a graph (files and games).
MAX_FILE_BYTES = 1 << 20
MAX_NODES = 20_000
#: Solution graphs listed before the enumeration stops.
MAX_LISTED = 64

KINDS = ("or", "and", "terminal")
VALUES = ("win", "draw", "loss")
#: The chapters' problems: who can force a win (PLUS: the OR nodes' player of the graph as written).
PROBLEMS = {"W": "PLUS can force a win", "V": "MINUS can force a win"}


@dataclass
class AndOrGraph:
    """Named nodes, their kinds and ordered successors; terminals hold their value."""

    root: str
    kind: dict[str, str]
    children: dict[str, list[str]]
    #: Terminals only: ``"solved"``, ``"unsolved"``, or ``"win"``/``"draw"``/``"loss"`` for the OR player.
    value: dict[str, str]
    title: str = ""
    #: Edge labels (a game's moves), by (parent, child).
    edge_label: dict[tuple[str, str], str] = field(default_factory=dict)

    def terminal_solved(self, name: str) -> bool:
        return self.value[name] in ("solved", "win")

    def edges(self) -> list[tuple[str, str]]:
        return [(a, b) for a in self.children for b in self.children[a]]


@dataclass
class Marking:
    """Which nodes are solvable, and in which round of the marking each became so."""

    problem: str
    #: Node name -> round (0: terminals) for the solvable nodes.
    round: dict[str, int]
    #: Names marked in each round, in order.
    rounds: list[list[str]]

    @property
    def solvable(self) -> set[str]:
        return set(self.round)


@dataclass
class SolutionGraph:
    """One solution graph: its nodes and, for each OR node in it, the chosen successor."""

    nodes: set[str]
    choice: dict[str, str]

    def edges(self, graph: AndOrGraph) -> list[tuple[str, str]]:
        out = []
        for n in sorted(self.nodes, key=_order(graph).__getitem__):
            if graph.kind[n] == "or":
                out.append((n, self.choice[n]))
            elif graph.kind[n] == "and":
                out.extend((n, c) for c in graph.children[n])
        return out


def _order(graph: AndOrGraph) -> dict[str, int]:
    """Breadth-first order from the root (then the rest in file order): how nodes are listed."""
    seen = {graph.root: 0}
    queue = deque([graph.root])
    while queue:
        n = queue.popleft()
        for c in graph.children.get(n, []):
            if c not in seen:
                seen[c] = len(seen)
                queue.append(c)
    for n in graph.kind:
        seen.setdefault(n, len(seen))
    return seen


def ordered(graph: AndOrGraph, names) -> list[str]:
    order = _order(graph)
    return sorted(names, key=order.__getitem__)


# -- reading ---------------------------------------------------------------------------

def parse(data, where: str = "graph") -> AndOrGraph:
    """An :class:`AndOrGraph` from decoded JSON; ``ValueError`` naming ``where`` and the defect."""
    def bad(why: str) -> ValueError:
        return ValueError(f"{where}: {why}")

    if not isinstance(data, dict) or not isinstance(data.get("nodes"), dict):
        raise bad('expected an object with "root" and "nodes"')
    unknown = set(data) - {"title", "note", "root", "nodes"}
    if unknown:
        raise bad(f"unknown field {sorted(unknown)[0]!r}")
    nodes = data["nodes"]
    if not nodes or len(nodes) > MAX_NODES:
        raise bad(f"1 to {MAX_NODES:,} nodes expected, found {len(nodes):,}")
    root = data.get("root")
    if not isinstance(root, str) or root not in nodes:
        raise bad(f'"root" must name a node, found {root!r}')
    title = data.get("title", "")
    if not isinstance(title, str):
        raise bad('"title" must be text')
    graph = AndOrGraph(root, {}, {}, {}, title)
    for name, node in nodes.items():
        if not name or not isinstance(node, dict):
            raise bad(f"node {name!r}: expected an object")
        kind = node.get("kind")
        if kind not in KINDS:
            raise bad(f"node {name!r}: kind must be one of {', '.join(KINDS)}, found {kind!r}")
        extra = set(node) - ({"kind", "children"} if kind != "terminal" else {"kind", "solved", "value"})
        if extra:
            raise bad(f"node {name!r}: unexpected field {sorted(extra)[0]!r} for a {kind} node")
        graph.kind[name] = kind
        if kind == "terminal":
            if ("solved" in node) == ("value" in node):
                raise bad(f"node {name!r}: a terminal holds either \"solved\" or \"value\"")
            if "solved" in node:
                if not isinstance(node["solved"], bool):
                    raise bad(f"node {name!r}: \"solved\" must be true or false")
                graph.value[name] = "solved" if node["solved"] else "unsolved"
            elif node["value"] not in VALUES:
                raise bad(f"node {name!r}: \"value\" must be one of {', '.join(VALUES)}")
            else:
                graph.value[name] = node["value"]
            graph.children[name] = []
            continue
        kids = node.get("children")
        if not isinstance(kids, list) or not kids or not all(isinstance(k, str) for k in kids):
            raise bad(f"node {name!r}: an {kind} node needs a non-empty list of successor names")
        for k in kids:
            if k not in nodes:
                raise bad(f"node {name!r}: successor {k!r} is not a node")
        if len(set(kids)) != len(kids):
            raise bad(f"node {name!r}: a successor is listed twice")
        graph.children[name] = list(kids)
    cycle = _cycle(graph)
    if cycle:
        raise bad(f"the graph has a cycle ({' -> '.join(cycle)}); AND/OR graphs here are acyclic")
    return graph


def _cycle(graph: AndOrGraph) -> list[str]:
    """A cycle of the graph as a list of names (first repeated last), or ``[]``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    for start in graph.kind:
        if start in state:
            continue
        path = [start]
        its = [iter(graph.children[start])]
        state[start] = 1
        while its:
            c = next(its[-1], None)
            if c is None:
                state[path.pop()] = 2
                its.pop()
            elif state.get(c) == 1:
                return path[path.index(c):] + [c]
            elif c not in state:
                state[c] = 1
                path.append(c)
                its.append(iter(graph.children[c]))
    return []


def load(path: str) -> AndOrGraph:
    """Read a graph file; ``ValueError`` naming the file for any defect."""
    p = Path(path)
    try:
        data = json.loads(read_text_bounded(p, MAX_FILE_BYTES))
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: not a JSON file ({e})") from None
    except RecursionError:
        raise ValueError(f"{path}: not a JSON file (nested too deeply)") from None
    return parse(data, path)


def pose(graph: AndOrGraph, problem: str) -> AndOrGraph:
    """The graph of ``problem``: W's is the graph as written; V's swaps the players,
    so that MINUS's positions are the OR nodes and PLUS's wins and losses trade places
    (a terminal's ``solved`` flag stays: a solved problem is solved for either)."""
    if problem not in PROBLEMS:
        raise ValueError(f"problem must be W or V, found {problem!r}")
    if problem == "W":
        return graph
    swap = {"or": "and", "and": "or", "terminal": "terminal", "win": "loss", "loss": "win"}
    return AndOrGraph(graph.root, {n: swap[k] for n, k in graph.kind.items()}, graph.children,
                      {n: swap.get(v, v) for n, v in graph.value.items()}, graph.title, graph.edge_label)


def from_game(game, pos, prover: int, *, max_nodes: int = MAX_NODES, label=None) -> AndOrGraph:
    """The complete game graph from ``pos``, seen from ``prover`` (PLUS of W; :func:`pose`
    gives V's graph): positions merged by key.

    ``label(pos)`` names a node (default: the position text); a game end is a
    terminal holding its result for the prover. ``ValueError`` when the game has
    more than ``max_nodes`` positions from ``pos``."""
    label = label or (lambda p: p.to_text())
    pos = pos.copy()
    names: dict[int, str] = {}
    graph = AndOrGraph("", {}, {}, {})

    def visit() -> str:
        key = pos.key
        if key in names:
            return names[key]
        if len(names) >= max_nodes:
            raise ValueError(f"the game has more than {max_nodes:,} positions from here: too large to draw")
        name = label(pos)
        if name in graph.kind:
            name = f"{name} #{len(names)}"
        names[key] = name
        result = pos.outcome()
        moves = pos.legal_moves() if result is None else []
        if result is not None or not moves:
            result = pos.no_moves_value() if result is None else result
            mine = result if pos.turn == prover else -result
            graph.kind[name] = "terminal"
            graph.children[name] = []
            graph.value[name] = VALUES[1 - mine]
            return name
        graph.kind[name] = "or" if pos.turn == prover else "and"
        kids: list[str] = []
        for m in moves:
            text = pos.move_text(m)
            pos.push(m)
            child = visit()
            pos.pop()
            if child not in kids:
                kids.append(child)
                graph.edge_label[(name, child)] = text
            else:
                graph.edge_label[(name, child)] += f", {text}"
        graph.children[name] = kids
        return name

    graph.root = visit()
    cycle = _cycle(graph)
    if cycle:
        raise ValueError(f"the game repeats a position ({' -> '.join(cycle)}): its graph is not acyclic")
    return graph


# -- solving ---------------------------------------------------------------------------

def mark(graph: AndOrGraph, problem: str) -> Marking:
    """The solvable nodes of ``graph`` (posed for ``problem``, ``"W"`` or ``"V"``: see
    :func:`pose`), marked round by round: round 0 the solved terminals, round r the
    nodes whose rule the marks of the earlier rounds meet."""
    if problem not in PROBLEMS:
        raise ValueError(f"problem must be W or V, found {problem!r}")
    parents: dict[str, list[str]] = {n: [] for n in graph.kind}
    for a, b in graph.edges():
        parents[b].append(a)
    # An AND node waits for all its successors, an OR node for one.
    waiting = {n: (len(graph.children[n]) if graph.kind[n] == "and" else 1)
               for n in graph.kind if graph.kind[n] != "terminal"}
    layer = [n for n in graph.kind if graph.kind[n] == "terminal" and graph.terminal_solved(n)]
    found = {n: 0 for n in layer}
    rounds = []
    while layer:
        rounds.append(layer)
        following = []
        for n in layer:
            for p in parents[n]:
                if p in found:
                    continue
                waiting[p] -= 1
                if waiting[p] == 0:
                    found[p] = len(rounds)
                    following.append(p)
        layer = following
    return Marking(problem, found, [ordered(graph, r) for r in rounds])


def solution_graphs(graph: AndOrGraph, marking: Marking, limit: int = MAX_LISTED) -> tuple[list[SolutionGraph], bool]:
    """``(graphs, complete)``: the solution graphs, at most ``limit`` of them; ``complete``
    is False when there are more. Empty when the root is not solvable."""
    ok = marking.solvable
    found: list[SolutionGraph] = []
    if graph.root not in ok:
        return found, True
    more = False

    def extend(frontier: list[str], included: set[str], choice: dict[str, str]) -> None:
        nonlocal more
        while frontier:
            n = frontier.pop()
            if n in included:
                continue
            included.add(n)
            if graph.kind[n] == "and":
                frontier.extend(graph.children[n])
            elif graph.kind[n] == "or":
                # Each solvable successor starts its own family of solution graphs.
                for c in graph.children[n]:
                    if c not in ok:
                        continue
                    if len(found) >= limit:
                        more = True
                        return
                    extend(frontier + [c], set(included), {**choice, n: c})
                return
        found.append(SolutionGraph(included, choice))

    extend([graph.root], set(), {})
    return found, not more


def minimal_solution(graph: AndOrGraph, marking: Marking) -> SolutionGraph | None:
    """A solution graph with the fewest nodes: the least of all of them when they can be
    listed, else the one that chooses at each OR node the successor with the
    smallest solution *tree* (a shared node counted once per path to it: choosing
    for the fewest graph nodes is a set-cover problem, too hard to do exactly)."""
    every, complete = solution_graphs(graph, marking)
    if not every:
        return None
    if complete:
        return min(every, key=lambda s: len(s.nodes))
    ok = marking.solvable
    size: dict[str, int] = {}
    best: dict[str, str] = {}
    # Successors first (post-order, without recursion: game graphs can be deep).
    stack: list[tuple[str, bool]] = [(graph.root, False)]
    while stack:
        n, done = stack.pop()
        if n in size:
            continue
        kids = [c for c in graph.children[n] if c in ok]
        if not done:
            stack.append((n, True))
            stack.extend((c, False) for c in kids if c not in size)
        elif graph.kind[n] == "terminal":
            size[n] = 1
        elif graph.kind[n] == "and":
            size[n] = 1 + sum(size[c] for c in kids)
        else:
            c = min(kids, key=size.__getitem__)
            best[n], size[n] = c, 1 + size[c]
    included: set[str] = set()
    choice: dict[str, str] = {}
    todo = [graph.root]
    while todo:
        n = todo.pop()
        if n in included:
            continue
        included.add(n)
        if graph.kind[n] == "or":
            choice[n] = best[n]
            todo.append(best[n])
        else:
            todo.extend(graph.children[n])
    return SolutionGraph(included, choice)
