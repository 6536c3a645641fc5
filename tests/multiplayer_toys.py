"""Two toy games of more than two players, for the N-player search's tests and scripts.

- :class:`TreeGame`: an explicit tree. An inner node is ``(player, [children])``,
  a leaf is a final vector (a list of ints). ``values()`` of an inner node is the
  vector given as a third element, ``(player, [children], vector)``, or zeros.
- :class:`TakeAway`: a heap of coins, N players in turn take 1..k coins; whoever
  takes the last coin wins (S to them, 0 to the others). Taking exactly 2 makes the
  next player miss a turn, so turns do not always advance by one. ``values()`` is
  noise from a seeded hash of the key (a random split of at most S):
  only search finds the value.

Both follow the N-player contract of :mod:`engine.game` (vectors of ints in
``[0, S]`` summing to at most S; ``legal_moves()`` empty exactly at the end).
"""

from __future__ import annotations

from engine.game import Game
from engine.position import Position

M64 = (1 << 64) - 1


def mix(x: int) -> int:
    """SplitMix64's finaliser."""
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


class _Toy(Position):
    """What the search never asks of these games, answered once."""

    def noisy_moves(self):
        return []

    def is_noisy(self, move):
        return False

    def move_score(self, move):
        return 0

    def in_check(self):
        return False

    def can_stand_pat(self):
        return True

    def null_move_allowed(self):
        return False

    def is_repetition(self):
        return False

    def outcome(self):
        result = self.result()
        if result is None:
            return None
        top = max(result)
        if result[self.turn] < top:
            return -1
        return 1 if result.count(top) == 1 else 0

    def no_moves_value(self):
        return self.outcome()

    def evaluate(self):
        v = self.values()
        return v[self.turn] - max(v[:self.turn] + v[self.turn + 1:])


# -- explicit trees ------------------------------------------------------------

class TreeGame(Game):
    name = "tree"
    aliases = ()
    players: tuple[str, ...] = ()
    null_move_ok = False
    bench_texts = ()

    def __init__(self, tree, players: int = 3, value_sum: int = 10, seed: int = 0):
        self.tree, self.value_sum, self.seed = tree, value_sum, seed
        self.players = tuple("ABCDEFGH"[:players])

    def new_position(self, text=None):
        return TreePosition(self)


def _is_leaf(node) -> bool:
    return not isinstance(node, tuple)


class TreePosition(_Toy):
    """A walk down :attr:`TreeGame.tree`; moves are child indices."""

    def __init__(self, game: TreeGame):
        self.game = game
        self.path: list[int] = []
        self.nodes = [game.tree]
        self._set()
        #: Leaves and inner nodes entered by push, for counting what a search looked at.
        self.visited: list[tuple[int, ...]] = []

    def _set(self):
        node = self.nodes[-1]
        # A leaf keeps the turn of its parent: the contract only needs some player there.
        if not _is_leaf(node):
            self.turn = node[0]
        elif len(self.nodes) == 1:
            self.turn = 0
        self.key = self.compute_key()

    def compute_key(self):
        key = mix(self.game.seed)
        for i in self.path:
            key = mix(key ^ (i + 1))
        return key

    def legal_moves(self):
        node = self.nodes[-1]
        return [] if _is_leaf(node) else list(range(len(node[1])))

    def push(self, move):
        self.path.append(move)
        self.nodes.append(self.nodes[-1][1][move])
        self._set()
        self.visited.append(tuple(self.path))

    def pop(self):
        self.path.pop()
        self.nodes.pop()
        self._set()

    def result(self):
        node = self.nodes[-1]
        return list(node) if _is_leaf(node) else None

    def values(self):
        node = self.nodes[-1]
        return list(node[2]) if len(node) > 2 else [0] * len(self.game.players)

    def ranking(self):
        result = self.result()
        return None if result is None else [1 + sum(v > x for v in result) for x in result]

    def _copy(self):
        pos = TreePosition(self.game)
        for m in self.path:
            pos.push(m)
        return pos

    def move_text(self, move):
        return str(move)

    def parse_move(self, text):
        return int(text)

    def to_text(self):
        return ",".join(map(str, self.path))

    def render(self):
        return self.to_text()


# -- take-away ---------------------------------------------------------------

class TakeAway(Game):
    """N-player take-away: ``TakeAway(players, seed, max_take)``; position text ``"heap turn"``."""

    name = "takeaway"
    aliases = ()
    players: tuple[str, ...] = ()
    null_move_ok = False
    bench_texts = ()
    value_sum = 1000

    def __init__(self, players: int = 3, seed: int = 0, max_take: int = 3):
        self.players = tuple(f"p{i + 1}" for i in range(players))
        self.seed, self.max_take = seed, max_take

    def new_position(self, text=None):
        heap, turn = (int(x) for x in (text or "12 0").split())
        return TakeAwayPosition(self, heap, turn)


class TakeAwayPosition(_Toy):
    def __init__(self, game: TakeAway, heap: int, turn: int, last: int = -1):
        self.game, self.n = game, len(game.players)
        self.heap, self.turn, self.last = heap, turn, last
        self.key = self.compute_key()
        self._stack: list[tuple[int, int, int, int]] = []

    def compute_key(self):
        return mix(self.game.seed * 1_000_003 + self.heap * 64 + self.turn * 8 + self.last + 1)

    def legal_moves(self):
        return list(range(1, min(self.game.max_take, self.heap) + 1))

    def push(self, move):
        self._stack.append((self.heap, self.turn, self.last, self.key))
        self.last = self.turn
        self.heap -= move
        self.turn = (self.turn + (2 if move == 2 else 1)) % self.n
        self.key = self.compute_key()

    def pop(self):
        self.heap, self.turn, self.last, self.key = self._stack.pop()

    def result(self):
        if self.heap:
            return None
        return [self.game.value_sum if i == self.last else 0 for i in range(self.n)]

    def vector_bounds(self):
        return 0, self.game.value_sum

    def values(self):
        # A random split of at most S, handed out from a random player on: entries
        # often large, so that Korf's bound bites; never an entry of S (a claimed win).
        h = mix(self.key)
        left = self.game.value_sum
        out = [0] * self.n
        start = h % self.n
        for i in range(self.n):
            h = mix(h)
            share = h % min(left + 1, self.game.value_sum)
            out[(start + i) % self.n] = share
            left -= share
        return out

    def ranking(self):
        result = self.result()
        return None if result is None else [1 if v else 2 for v in result]

    def _copy(self):
        pos = TakeAwayPosition(self.game, self.heap, self.turn, self.last)
        return pos

    def move_text(self, move):
        return str(move)

    def parse_move(self, text):
        return int(text)

    def to_text(self):
        return f"{self.heap} {self.turn}"

    def render(self):
        return f"heap {self.heap}, {self.game.players[self.turn]} to move"
