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
"""

from __future__ import annotations

import ast
import json
from typing import ClassVar

from pydantic import BaseModel

from engine.game import GameTraits, IllegalMoveError, InvalidPositionError, parse_number, quote
from engine.position import Position

_MASK = (1 << 64) - 1
#: Each move of a uniform tree adds a step in [-STEP, STEP] to the value.
STEP = 50


def _mix(x: int) -> int:
    """splitmix64's finaliser: a well-spread 64-bit hash of ``x``."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def parse_tree(text: str) -> list | int:
    """Nested lists of integer leaf values, as JSON or a Python literal."""
    try:
        tree = json.loads(text)
    except ValueError:
        try:
            tree = ast.literal_eval(text.strip())
        except (ValueError, SyntaxError):
            raise InvalidPositionError("a tree is nested lists of integer leaf values, e.g. [[3, 5], [2, 9]]") from None
    _check(tree, 0)
    return tree


def _check(tree, depth: int) -> None:
    if isinstance(tree, bool) or depth > 64:
        raise InvalidPositionError("a tree is nested lists of integer leaf values, at most 64 levels deep")
    if isinstance(tree, (list, tuple)):
        if not tree:
            raise InvalidPositionError("an interior node of a tree needs at least one child")
        for child in tree:
            _check(child, depth + 1)
    elif not isinstance(tree, int) or abs(tree) >= 1_000_000:
        raise InvalidPositionError(f"leaf {tree!r}: leaves are integers below 1,000,000 in magnitude")


class TreeParams(BaseModel):
    branching: int = 3
    depth: int = 4
    seed: int = 1


class TreeGame(GameTraits):
    """A game tree: ``tree`` nested lists (a textbook tree) or, when ``None``, the
    uniform tree of ``params`` (branching, depth, seed)."""

    name: ClassVar[str] = "tree"
    aliases: ClassVar[tuple[str, ...]] = ()
    players: ClassVar[tuple[str, str]] = ("max", "min")
    Params: ClassVar[type[BaseModel]] = TreeParams
    null_move_ok: ClassVar[bool] = False
    bench_texts: tuple[str, ...] = ()

    def __init__(self, params: TreeParams | None = None, tree: list | int | None = None):
        self.params = params or TreeParams()
        self.tree = tree

    @classmethod
    def from_text(cls, text: str) -> TreeGame:
        return cls(tree=parse_tree(text))

    @classmethod
    def uniform(cls, branching: int, depth: int, seed: int = 1) -> TreeGame:
        return cls(TreeParams(branching=branching, depth=depth, seed=seed))

    def height(self) -> int:
        """The longest path from the root to a leaf."""
        def h(t) -> int:
            return 1 + max(h(c) for c in t) if isinstance(t, list) else 0
        return h(self.tree) if self.tree is not None else self.params.depth

    def leaf_depths(self) -> set[int]:
        """The depths at which the tree has leaves (one depth: every leaf at the bottom)."""
        def walk(t, d: int):
            if isinstance(t, list):
                for c in t:
                    yield from walk(c, d + 1)
            else:
                yield d
        return set(walk(self.tree, 0)) if self.tree is not None else {self.params.depth}

    def new_position(self, text: str | None = None) -> TreePosition:
        """The root, or the node reached by ``text``: child numbers from the root (``"1 3"``)."""
        pos = TreePosition(self)
        for word in (text or "").split():
            pos.push(pos.parse_move(word))
        return pos


class TreePosition(Position):
    """A node of a :class:`TreeGame`, as the path of child indices from the root."""

    scored_leaves = True

    def __init__(self, game: TreeGame):
        self.game = game
        self.path: list[int] = []
        self.nodes: list = [game.tree]
        self.sums = [0]
        self.turn = 0
        self.key = _mix(game.params.seed if game.tree is None else 0)

    def _children(self) -> int:
        if self.game.tree is None:
            return self.game.params.branching if len(self.path) < self.game.params.depth else 0
        node = self.nodes[-1]
        return len(node) if isinstance(node, list) else 0

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
        if self.game.tree is not None:
            self.nodes.append(self.nodes[-1][move])
        self.key = _mix(self.key ^ (move + 1) * 0x100000001B3)
        self.sums.append(self.sums[-1] + _mix(self.key ^ 0x5EED) % (2 * STEP + 1) - STEP)
        self.turn ^= 1

    def pop(self) -> None:
        self.path.pop()
        if self.game.tree is not None:
            self.nodes.pop()
        self.sums.pop()
        self.key = self.compute_key()
        self.turn ^= 1

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
        """The value of this node from max's view (0 for an interior node of a file tree)."""
        if self.game.tree is None:
            return self.sums[-1]
        node = self.nodes[-1]
        return node if isinstance(node, int) else 0

    def evaluate(self) -> int:
        v = self.leaf_value()
        return v if self.turn == 0 else -v

    def compute_key(self) -> int:
        key = _mix(self.game.params.seed if self.game.tree is None else 0)
        for move in self.path:
            key = _mix(key ^ (move + 1) * 0x100000001B3)
        return key

    def copy(self) -> TreePosition:
        other = TreePosition(self.game)
        for move in self.path:
            other.push(move)
        return other

    def parse_move(self, text: str) -> int:
        n = parse_number(text.strip())
        if n is None or not 1 <= n <= self._children():
            raise IllegalMoveError(f"no child {quote(text)} here (children 1 to {self._children()})")
        return n - 1

    def move_text(self, move: int) -> str:
        return str(move + 1)

    def to_text(self) -> str:
        return " ".join(str(m + 1) for m in self.path)

    def render(self) -> str:
        return f"node {self.to_text() or 'root'} ({self.game.players[self.turn]} to move)"
