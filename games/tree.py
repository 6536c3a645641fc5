"""Game trees as games: a textbook tree written as nested lists, or a uniform random tree.

The textbooks explain minimax and alpha-beta on small abstract trees: a list of
children at each interior node, a number at each leaf. Such a tree is a game
here, so the engine's algorithms walk it with the same ``push``/``pop`` as a
board: the moves of a node are its child indices (written 1-based: ``1``, ``2``,
...), player 0 ("max") moves at the root and the
players alternate; a leaf's value is from max's view and ``evaluate()`` gives
it from the side to move's. Interior nodes evaluate to 0 (the textbook trees
give them no static value). Positions declare ``scored_leaves``: a node without
children is scored by its value, not as a game end.

A tree file may also be a JSON object, for what the chapters draw beyond that:

- ``{"tree": NODE, "root": "min"}``: min to move at the root (values stay max's);
- named nodes: ``{"name": "X", "children": [...]}``, a named leaf ``{"name": "W1",
  "value": 3}``; a name is a node's move text (``--moves "B X"`` reaches it);
  an interior node may carry a static ``"value"`` (what a depth-limited search
  and move ordering see there), and ``"player"`` names who moves there when it is
  not the next in turn (a player moving twice);
- heuristic bounds for B*: ``{"bounds": [3, 8], "children": [...]}``, a pessimistic
  and an optimistic value from max's view on an interior node (leaves are exact).
  They must hold the node's minimax value (its subtree's, backed up from the
  leaves): a file whose bounds do not is refused, naming the node;
- games of N players (or two players whose interests are not opposed):
  ``{"players": 3, "tree": ...}`` (or ``--players 3``): every leaf is a vector
  ``[1, 2, 6]``, one value per player, the players called ``A``, ``B``, ``C``...
  (or ``"names": [...]``), ``"root": "C"`` the player to move at the root,
  the others following in turn. Korf's bounds for max^n pruning are the tree's
  own: the least entry and the largest sum of a vector in it;
- ``"note"``: a text explaining the example, printed by ``zermelo tree``.

A uniform tree (branching ``b``, depth ``d``) is generated from a seed: each move
adds a random step in [-STEP, STEP] (a hash of the seed and the path, so the tree
needs no memory however large) and a node's value, from max's view, is the sum of
the steps on its path: an incremental random tree, whose interior values are
informative static evaluations, as a real game's are.

>>> game = TreeGame.from_text("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
>>> pos = game.new_position()
>>> pos.legal_moves(), pos.move_text(2)
([0, 1, 2], '3')
>>> pos.push(0); pos.push(1); pos.evaluate()
12
>>> x = TreeGame.from_text('{"players": 3, "root": "C", "tree": {"name": "X", "children": [[1, 2, 6], [4, 2, 3]]}}')
>>> pos = x.new_position(); pos.render(), x.players
('node X (C to move)', ('A', 'B', 'C'))
"""

from __future__ import annotations

import ast
import json
from typing import ClassVar

from pydantic import BaseModel

from engine.game import Game, IllegalMoveError, InvalidPositionError, parse_number, quote
from engine.position import Position

_MASK = (1 << 64) - 1
#: Each move of a uniform tree adds a step in [-STEP, STEP] to the value.
STEP = 50
#: Leaves and static values stay below this in magnitude (inside the search's evaluation range).
VALUE_LIMIT = 1_000_000
MAX_DEPTH = 64
MAX_PLAYERS = 26
_NODE_KEYS = {"name", "children", "value", "player", "bounds"}
_FILE_KEYS = {"tree", "root", "players", "names", "note"}
FORMAT = ("a tree is nested lists of integer leaf values, e.g. [[3, 5], [2, 9]], or an object "
          '{"tree": ..., "root": "min", "players": N, "names": [...], "note": "..."} whose nodes may be '
          '{"name": "X", "children": [...]} or {"name": "W1", "value": 3}, with B*\'s heuristic '
          '"bounds": [low, high] on an interior node')


def _mix(x: int) -> int:
    """splitmix64's finaliser: a well-spread 64-bit hash of ``x``."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


class TreeNode:
    """A node of a file tree: its name, children (empty at a leaf), value (a leaf's,
    or an interior node's static value; an int, or a tuple per player), the
    player to move there, its heuristic bounds (low, high) from max's view or
    ``None``, and its minimax value (``None`` in a tree of vectors)."""

    __slots__ = ("name", "children", "value", "player", "bounds", "minimax")

    def __init__(self, name: str | None, children: list[TreeNode], value, player: int):
        self.name = name
        self.children = children
        self.value = value
        self.player = player
        self.bounds: tuple[int, int] | None = None
        self.minimax: int | None = None


def parse_tree(text: str) -> list | int | dict:
    """A tree file's contents (nested lists, or an object), as JSON or a Python literal,
    unchecked: :class:`TreeGame` checks it."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        try:
            return ast.literal_eval(text.strip())
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            raise InvalidPositionError(FORMAT) from None


def _integer(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= VALUE_LIMIT:
        raise InvalidPositionError(f"{what} {value!r}: values are integers below 1,000,000 in magnitude")
    return value


class _Builder:
    """Turns a parsed tree into :class:`TreeNode` objects, checking it."""

    def __init__(self, players: int, names: tuple[str, ...], vectors: bool):
        self.players = players
        self.names = names
        self.vectors = vectors
        self.count = 0

    def player(self, value, where: str) -> int:
        if isinstance(value, str) and value in self.names:
            return self.names.index(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < self.players:
            return value
        if self.players == 2 and not self.vectors and value in ("max", "min"):
            return 0 if value == "max" else 1
        raise InvalidPositionError(f"{where}: no player {value!r} (players: {', '.join(self.names)})")

    def value(self, value, where: str):
        """A leaf's or a static value: an int, or with vectors a list of one int per player."""
        if self.vectors:
            if not isinstance(value, (list, tuple)) or len(value) != self.players:
                raise InvalidPositionError(f"{where}: with {self.players} players a value is a vector of "
                                           f"{self.players} integers, not {value!r}")
            return tuple(_integer(v, f"{where}: entry") for v in value)
        return _integer(value, f"{where}: leaf")

    def is_vector(self, tree) -> bool:
        return (self.vectors and isinstance(tree, (list, tuple)) and len(tree) > 0
                and all(isinstance(v, int) and not isinstance(v, bool) for v in tree))

    def build(self, tree, player: int, depth: int, where: str) -> TreeNode:
        self.count += 1
        if depth > MAX_DEPTH or self.count > 1_000_000:
            raise InvalidPositionError("a tree file is at most 64 levels deep and 1,000,000 nodes")
        name = value = bounds = None
        children: list = []
        if isinstance(tree, dict):
            unknown = set(tree) - _NODE_KEYS
            if unknown:
                raise InvalidPositionError(f"{where}: unknown key {sorted(unknown)[0]!r} "
                                           f"(a node has {', '.join(sorted(_NODE_KEYS))})")
            name = tree.get("name")
            if name is not None:
                if not isinstance(name, str) or not 0 < len(name) <= 20 or any(c.isspace() for c in name) \
                        or parse_number(name) is not None:
                    raise InvalidPositionError(f"{where}: a name is 1 to 20 characters without spaces, "
                                               f"not a number: {name!r}")
                where = name
            if "player" in tree:
                player = self.player(tree["player"], where)
            if "children" in tree:
                children = tree["children"]
                if not isinstance(children, (list, tuple)) or not children:
                    raise InvalidPositionError(f"{where}: children are a non-empty list")
            if "value" in tree:
                value = self.value(tree["value"], where)
            elif not children:
                raise InvalidPositionError(f"{where}: a node needs children or a value")
            if "bounds" in tree:
                bounds = self.bounds(tree["bounds"], bool(children), where)
        elif isinstance(tree, (list, tuple)) and not self.is_vector(tree):
            if not tree:
                raise InvalidPositionError(f"{where}: an interior node of a tree needs at least one child")
            children = list(tree)
        else:
            value = self.value(tree, where)
        node = TreeNode(name, [], value, player)
        node.bounds = bounds
        seen: set[str] = set()
        for i, child in enumerate(children):
            sub = self.build(child, (player + 1) % self.players, depth + 1, f"{where} {i + 1}"
                             if where != "root" else str(i + 1))
            if sub.name is not None:
                if sub.name in seen:
                    raise InvalidPositionError(f"{where}: two children named {sub.name!r}")
                seen.add(sub.name)
            node.children.append(sub)
        if not self.vectors:
            values = [c.minimax for c in node.children if c.minimax is not None]
            if not values:
                node.minimax = value
            else:
                exact = max(values) if player == 0 else min(values)
                if bounds is not None and not bounds[0] <= exact <= bounds[1]:
                    raise InvalidPositionError(f"{where}: bounds [{bounds[0]}, {bounds[1]}] do not hold the "
                                               f"node's minimax value {exact}")
                node.minimax = exact
        return node

    def bounds(self, value, interior: bool, where: str) -> tuple[int, int]:
        """An interior node's bounds for B*: [low, high], integers, low <= high."""
        if self.vectors:
            raise InvalidPositionError(f"{where}: bounds are for trees of one value per leaf, not vectors")
        if not interior:
            raise InvalidPositionError(f"{where}: a leaf's value is exact; bounds go on interior nodes")
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise InvalidPositionError(f"{where}: bounds are [pessimistic, optimistic], not {value!r}")
        low, high = (_integer(v, f"{where}: bound") for v in value)
        if low > high:
            raise InvalidPositionError(f"{where}: bounds [{low}, {high}]: the first is the lower one")
        return low, high


class TreeParams(BaseModel):
    branching: int = 3
    depth: int = 4
    seed: int = 1


class TreeGame(Game):
    """A game tree: ``tree`` (a textbook tree, as parsed from a file: nested lists or
    an object) or, when ``None``, the uniform tree of ``params`` (branching, depth,
    seed). ``players``: make the leaves vectors of that many entries (a file's own
    ``"players"`` says the same)."""

    name: ClassVar[str] = "tree"
    aliases: ClassVar[tuple[str, ...]] = ()
    Params: ClassVar[type[BaseModel]] = TreeParams
    null_move_ok: ClassVar[bool] = False
    players: tuple[str, ...] = ("max", "min")
    bench_texts: tuple[str, ...] = ()

    def __init__(self, params: TreeParams | None = None, tree: list | int | dict | None = None,
                 players: int | None = None):
        self.params: TreeParams = params or TreeParams()
        self.note = ""
        self.vectors = False
        self.players: tuple[str, ...] = ("max", "min")
        self.root: TreeNode | None = None
        #: The tree as written (the node part of a file), for tools that walk nested lists.
        self.tree = tree
        if tree is not None:
            self._read(tree, players)

    def _read(self, doc, players: int | None) -> None:
        settings: dict = {}
        if isinstance(doc, dict) and "tree" in doc:
            unknown = set(doc) - _FILE_KEYS
            if unknown:
                raise InvalidPositionError(f"unknown key {sorted(unknown)[0]!r} in a tree file "
                                           f"(known: {', '.join(sorted(_FILE_KEYS))})")
            settings, doc = doc, doc["tree"]
            self.tree = doc
        declared = settings.get("players")
        if declared is not None and players is not None and declared != players:
            raise InvalidPositionError(f"the tree file says {declared} players, not {players}")
        n = declared if declared is not None else players
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= MAX_PLAYERS):
            raise InvalidPositionError(f"players: 2 to {MAX_PLAYERS}, not {n!r}")
        self.vectors = n is not None
        count = n or 2
        names = settings.get("names")
        if names is None:
            names = [chr(ord("A") + i) for i in range(count)] if self.vectors else ["max", "min"]
        if (not isinstance(names, list) or len(names) != count or len(set(names)) != count
                or not all(isinstance(x, str) and 0 < len(x) <= 12 for x in names)):
            raise InvalidPositionError(f"names: {count} different player names of at most 12 characters")
        self.players = tuple(names)
        note = settings.get("note", "")
        if not isinstance(note, str):
            raise InvalidPositionError("note: a text")
        self.note = note
        builder = _Builder(count, self.players, self.vectors)
        first = builder.player(settings["root"], "root") if "root" in settings else 0
        self.root = builder.build(doc, first, 0, "root")
        if self.vectors:
            vectors = [n.value for n in self._nodes() if n.value is not None]
            #: Korf's bounds (engine.textbook): the least entry, the largest sum.
            self.low = min(min(v) for v in vectors)
            self.high = max(sum(v) for v in vectors)

    def _nodes(self):
        stack = [self.root] if self.root is not None else []
        while stack:
            node = stack.pop()
            yield node
            stack.extend(node.children)

    @classmethod
    def from_text(cls, text: str, players: int | None = None) -> TreeGame:
        return cls(tree=parse_tree(text), players=players)

    @classmethod
    def uniform(cls, branching: int, depth: int, seed: int = 1) -> TreeGame:
        return cls(TreeParams(branching=branching, depth=depth, seed=seed))

    def height(self) -> int:
        """The longest path from the root to a leaf."""
        def h(t: TreeNode) -> int:
            return 1 + max(h(c) for c in t.children) if t.children else 0
        return h(self.root) if self.root is not None else self.params.depth

    def leaf_depths(self) -> set[int]:
        """The depths at which the tree has leaves (one depth: every leaf at the bottom)."""
        def walk(t: TreeNode, d: int):
            if t.children:
                for c in t.children:
                    yield from walk(c, d + 1)
            else:
                yield d
        return set(walk(self.root, 0)) if self.root is not None else {self.params.depth}

    def unbounded(self, depth: int) -> str | None:
        """The first node (as a path of moves) that B* to ``depth`` plies would need bounds
        at and has none: an interior node above the horizon, the root excepted (its
        interval is backed up from its children). ``None`` when there is none, and for
        a uniform tree (bounds from its static values, as a game's)."""
        if self.root is None:
            return None
        stack: list[tuple[TreeNode, list[str]]] = [(c, [c.name or str(i + 1)])
                                                   for i, c in reversed(list(enumerate(self.root.children)))]
        while stack:
            node, path = stack.pop()
            if node.children and len(path) < depth:
                if node.bounds is None:
                    return " ".join(path)
                stack.extend((c, path + [c.name or str(i + 1)]) for i, c in reversed(list(enumerate(node.children))))
        return None

    def new_position(self, text: str | None = None) -> TreePosition:
        """The root, or the node reached by ``text``: child numbers or names from the root (``"1 3"``)."""
        pos = VectorTreePosition(self) if self.vectors else TreePosition(self)
        for word in (text or "").split():
            pos.push(pos.parse_move(word))
        return pos


class TreePosition(Position):
    """A node of a :class:`TreeGame`, as the path of child indices from the root."""

    def __init__(self, game: TreeGame):
        self.game = game
        self.path: list[int] = []
        self.nodes: list[TreeNode] = [game.root] if game.root is not None else []
        self.sums = [0]
        self.turns = [game.root.player if game.root is not None else 0]
        self.turn = self.turns[0]
        self.key = _mix(game.params.seed if game.root is None else 0)

    def scored_leaves(self) -> bool:
        """Only the leaves of a tree carry values: a node without moves is scored by them."""
        return True

    def _children(self) -> int:
        if self.game.root is None:
            return self.game.params.branching if len(self.path) < self.game.params.depth else 0
        return len(self.nodes[-1].children)

    def legal_moves(self) -> list[int]:
        return list(range(self._children()))

    def noisy_moves(self) -> list[int]:
        return []

    def is_noisy(self, move: int) -> bool:
        return False

    def move_score(self, move: int) -> int:
        return 0

    def in_check(self) -> bool:
        return False

    def can_stand_pat(self) -> bool:
        return True

    def push(self, move: int) -> None:
        self.path.append(move)
        if self.game.root is not None:
            node = self.nodes[-1].children[move]
            self.nodes.append(node)
            self.turn = node.player
        else:
            self.turn ^= 1
        self.turns.append(self.turn)
        self.key = _mix(self.key ^ (move + 1) * 0x100000001B3)
        self.sums.append(self.sums[-1] + _mix(self.key ^ 0x5EED) % (2 * STEP + 1) - STEP)

    def pop(self) -> None:
        self.path.pop()
        if self.game.root is not None:
            self.nodes.pop()
        self.sums.pop()
        self.turns.pop()
        self.turn = self.turns[-1]
        self.key = self.compute_key()

    def push_null(self) -> None:
        raise NotImplementedError("a game tree has no null move")

    def null_move_allowed(self) -> bool:
        return False

    def outcome(self) -> int | None:
        return None

    def no_moves_value(self) -> int:
        return 0

    def is_repetition(self) -> bool:
        return False

    def leaf_value(self) -> int:
        """The value of this node from max's view (an interior node of a file tree:
        its static value, 0 when it has none)."""
        if self.game.root is None:
            return self.sums[-1]
        value = self.nodes[-1].value
        return value if isinstance(value, int) else 0

    def evaluate(self) -> int:
        v = self.leaf_value()
        return v if self.turn == 0 else -v

    def bounds(self) -> tuple[int, int] | None:
        """This node's bounds for B* from the side to move's view; ``None`` in a uniform
        tree (B* puts a margin around the static value there, as in a game)."""
        if self.game.root is None:
            return None
        bounds = self.nodes[-1].bounds
        if bounds is None:
            raise InvalidPositionError(f"node {self.to_text()} has no bounds: B* needs "
                                       '{"bounds": [low, high], "children": [...]} at every interior node')
        low, high = bounds
        return (low, high) if self.turn == 0 else (-high, -low)

    def compute_key(self) -> int:
        key = _mix(self.game.params.seed if self.game.root is None else 0)
        for move in self.path:
            key = _mix(key ^ (move + 1) * 0x100000001B3)
        return key

    def _copy(self) -> TreePosition:
        other = type(self)(self.game)
        for move in self.path:
            other.push(move)
        return other

    def parse_move(self, text: str) -> int:
        text = text.strip()
        if self.game.root is not None:
            for i, child in enumerate(self.nodes[-1].children):
                if child.name is not None and child.name == text:
                    return i
        n = parse_number(text)
        if n is None or not 1 <= n <= self._children():
            raise IllegalMoveError(f"no child {quote(text)} here (children 1 to {self._children()})")
        return n - 1

    def move_text(self, move: int) -> str:
        if self.game.root is not None:
            name = self.nodes[-1].children[move].name
            if name is not None:
                return name
        return str(move + 1)

    def node_name(self) -> str | None:
        """This node's name in the file, if it has one."""
        return self.nodes[-1].name if self.game.root is not None else None

    def to_text(self) -> str:
        words = []
        for i, move in enumerate(self.path):
            name = self.nodes[i + 1].name if self.game.root is not None else None
            words.append(name if name is not None else str(move + 1))
        return " ".join(words)

    def render(self) -> str:
        return f"node {self.node_name() or self.to_text() or 'root'} ({self.game.players[self.turn]} to move)"


class VectorTreePosition(TreePosition):
    """A node of a tree whose leaves are value vectors, one entry per player: the
    N-player members of the game contract (``values``, ``result``, ``ranking``), a
    scalar that is the player's own entry (the textbooks' paranoid utility) and the
    tree's bounds for Korf's pruning."""

    vector_leaves = True

    def values(self) -> list[int]:
        """The node's vector: a leaf's, an interior node's static one, or zeros."""
        value = self.nodes[-1].value
        return list(value) if value is not None else [0] * len(self.game.players)

    def result(self) -> list[int] | None:
        # A tree's leaves are scored by their vectors, not as ends of a game.
        return None

    def ranking(self) -> list[int] | None:
        return None

    def evaluate(self) -> int:
        v = self.values()
        me = self.turn
        return v[me] - max(v[:me] + v[me + 1:])

    @staticmethod
    def scalar_of(vector, player: int) -> int:
        return vector[player]

    def vector_bounds(self) -> tuple[int, int]:
        """(the least entry, the largest sum) of the tree's vectors: Korf's bounds."""
        return self.game.low, self.game.high
