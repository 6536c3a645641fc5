"""The textbook algorithms: minimax, alpha-beta (two bounds, or one) and PVS to a
fixed depth on any two-player game; max^n, paranoid and best-reply search on games
of more than two players (and trees of value vectors).

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

Every algorithm chooses the first of equally good moves (searched order), and
says so to a :class:`engine.trace.Recorder` (``best``), with the reason it left a
node early (``cut``: which ancestor's bound did it). ``alphabeta1`` is the
one-bound alpha-beta of the older textbooks: a node knows only its parent's
"guarantee" (the parent's best so far), never a bound from further up, so it
makes the shallow cut-offs and none of the deep ones; its node count beside
``alphabeta``'s shows what deep cut-offs save.

The N-player algorithms (:data:`VECTOR_ALGORITHMS`) are the definitions of
:mod:`engine.multiplayer` without its table, history and iterative deepening,
moves in ``legal_moves()`` order: ``maxn`` (Luckhardt & Irani) backs up the vector
best for the player to move, with Korf's immediate and shallow pruning given an
upper bound S on the sum of the entries and a lower bound L on each (the game's
``value_sum`` and 0; a tree's own bounds); ``paranoid`` lets the root player
maximise its scalar and every other player minimise it, by alpha-beta; ``brs``
is best-reply search in the form the engine plays (one opponent of each segment
branches, the others play their fixed move). The scalar is the position's
``scalar_of(vector, player)`` when it has one (a tree file: the player's own
entry), else the engine's: the player's entry minus the best other entry; a
game's end scores ``±(WIN - ply)`` as in the engine.

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
from typing import Callable

from engine.game import NO_MOVE, WIN, Position, result_score
from engine.trace import Cut, Listener, Recorder

INF = WIN + 1
TWO_PLAYER_ALGORITHMS = ("minimax", "alphabeta", "alphabeta1", "pvs")
VECTOR_ALGORITHMS = ("maxn", "paranoid", "brs")
ALGORITHMS = TWO_PLAYER_ALGORITHMS + VECTOR_ALGORITHMS
ORDERS = ("none", "random", "static", "perfect", "worst")
#: No ancestor set this bound (the root's open window).
NOBODY = -1


def players_of(pos: Position) -> int:
    """How many players the position's game has: the length of its value vector,
    2 for a game without vectors."""
    return len(pos.values()) or 2


def engine_scalar(vector, player: int) -> int:
    """The engine's scalar of a vector for ``player``: its entry minus the best other."""
    return vector[player] - max(vector[:player] + vector[player + 1:])


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
        self.notes = listener if isinstance(listener, Recorder) else None
        #: The root move the last search chose (the first of equally good ones).
        self.best = NO_MOVE
        #: The root's vector after an N-player search (where its principal line ends).
        self.vector: tuple[int, ...] = ()
        self.order = order
        self.rng = random.Random(seed)
        self.scored_leaves = pos.scored_leaves()
        self.nodes = 0
        self.leaves = 0
        #: Best move per position key, kept by :meth:`iterative` to order the next iteration.
        self.best_moves: dict[int, int] = {}
        self.use_best_moves = False
        self.value = 0
        self._exact: dict[tuple[int, int], int] = {}

    # -- the three algorithms ------------------------------------------------------

    def search(self, algorithm: str, depth: int) -> int:
        """The root value by ``algorithm`` (one of :data:`ALGORITHMS`) to ``depth`` plies
        (BRS: layers, a root player's move or an opponents' segment each), for the
        side to move; the N-player ones give the root player's scalar and leave
        the root's vector in ``vector``. A two-player algorithm refuses a game of
        more than two players, whose positions have no single value to negate."""
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
        if algorithm in VECTOR_ALGORITHMS:
            return VectorSearch(self).search(algorithm, depth)
        if players_of(self.pos) > 2:
            raise ValueError(f"{algorithm} is a two-player algorithm: this game has {players_of(self.pos)} players")
        self.best = NO_MOVE
        return self._visit(algorithm, NO_MOVE, depth, -INF, INF, NOBODY, NOBODY, 0)

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
        if players_of(self.pos) > 2:
            raise ValueError(f"alpha-beta is a two-player algorithm: this game has {players_of(self.pos)} players")
        counts = []
        self.best_moves.clear()
        self.use_best_moves = reorder
        try:
            for d in range(1, depth + 1):
                before = self.nodes
                self.value = self._visit("alphabeta", NO_MOVE, d, -INF, INF, NOBODY, NOBODY, 0)
                counts.append(self.nodes - before)
        finally:
            self.use_best_moves = False
        return counts

    # -- the tree ------------------------------------------------------------------

    def _visit(self, algorithm: str, move: int, depth: int, alpha: int, beta: int, a_by: int, b_by: int,
               ply: int) -> int:
        """``a_by`` and ``b_by``: the plies of the ancestors whose values set alpha and beta."""
        listener = self.listener
        if listener is not None:
            listener.enter(move, depth, alpha, beta, False)
        self.nodes += 1
        v = self._value(algorithm, depth, alpha, beta, a_by, b_by, ply)
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

    def _value(self, algorithm: str, depth: int, alpha: int, beta: int, a_by: int, b_by: int, ply: int) -> int:
        leaf, value, moves = self._leaf(depth, ply)
        if leaf:
            self.leaves += 1
            return value
        pos = self.pos
        moves = self._ordered(moves, depth, ply)
        us = pos.turn
        one_bound = algorithm == "alphabeta1"
        if one_bound:
            # Only the parent's guarantee (beta) is known here; the node's own best is the
            # only bound its children get.
            alpha, a_by = -INF, NOBODY
        best, best_move = -INF, NO_MOVE
        for i, m in enumerate(moves):
            pos.push(m)
            flip = pos.turn != us
            if algorithm == "minimax":
                v = self._child(algorithm, m, flip, depth, -INF, INF, NOBODY, NOBODY, ply)
            elif one_bound:
                v = self._child(algorithm, m, flip, depth, alpha, INF, a_by, NOBODY, ply)
            elif algorithm == "alphabeta" or i == 0:
                v = self._child(algorithm, m, flip, depth, alpha, beta, a_by, b_by, ply)
            else:
                # PVS: a zero-window probe proves the move no better; one that is gets the full window.
                v = self._child(algorithm, m, flip, depth, alpha, alpha + 1, a_by, a_by, ply)
                if alpha < v < beta:
                    v = self._child(algorithm, m, flip, depth, alpha, beta, a_by, b_by, ply)
            pos.pop()
            if v > best:
                best, best_move = v, m
            if algorithm != "minimax" and v > alpha:
                alpha, a_by = v, ply
                if alpha >= beta:
                    if self.notes is not None and i + 1 < len(moves):
                        self.notes.cut(Cut("window", b_by, alpha, beta))
                    break
        if self.use_best_moves:
            self.best_moves[pos.key] = best_move
        if self.notes is not None:
            self.notes.best(best_move)
        if ply == 0:
            self.best = best_move
        return best

    def _child(self, algorithm: str, move: int, flip: bool, depth: int, alpha: int, beta: int,
               a_by: int, b_by: int, ply: int) -> int:
        """A child searched in the parent's window, negated when the turn passes
        (the bounds then change roles, and so do the ancestors who set them)."""
        if flip:
            return -self._visit(algorithm, move, depth - 1, -beta, -alpha, b_by, a_by, ply + 1)
        return self._visit(algorithm, move, depth - 1, alpha, beta, a_by, b_by, ply + 1)

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


class VectorSearch:
    """The N-player algorithms on a :class:`Textbook`'s position, counting into it."""

    def __init__(self, book: Textbook):
        self.book = book
        self.pos = pos = book.pos
        if not pos.values():
            raise ValueError("the N-player algorithms search value vectors: this game has a single value "
                             "(a tree file gets vectors with --players)")
        self.listener = book.listener
        self.notes = book.notes
        self.root = pos.turn
        self.n = len(pos.values())
        self.scalar: Callable[[list[int], int], int] = pos.scalar_of
        # Korf's bounds: every entry >= low, every sum <= high (a tree knows its own).
        self.low, self.high = pos.vector_bounds()
        self.fixed_moves: dict[int, int] = {}

    def search(self, algorithm: str, depth: int) -> int:
        book = self.book
        book.best = NO_MOVE
        if algorithm == "maxn":
            vector = self._maxn(NO_MOVE, depth, 0, -1, 0)
            book.vector = tuple(vector)
            return self.scalar(vector, self.root)
        if algorithm == "paranoid":
            value = self._paranoid(NO_MOVE, depth, -INF, INF, NOBODY, NOBODY, 0)
        else:
            value = self._brs_max(NO_MOVE, depth, -INF, INF, NOBODY, NOBODY, 0)
        book.vector = self._line_vector()
        return value

    # -- what every node does ------------------------------------------------------

    def _enter(self, move: int, depth: int, alpha: int, beta: int, ply: int) -> None:
        """Report a node; values and windows go to the listener in negamax form (the
        root player's scalar, negated at its opponents' nodes), as the two-player
        searches report theirs."""
        self.book.nodes += 1
        if self.listener is not None:
            if self.pos.turn == self.root:
                self.listener.enter(move, depth, alpha, beta, False)
            else:
                self.listener.enter(move, depth, -beta, -alpha, False)

    def _leave(self, value: int, best_move: int = NO_MOVE, vector=None) -> int:
        if self.notes is not None:
            if best_move != NO_MOVE:
                self.notes.best(best_move)
            if vector is not None:
                self.notes.vector(vector)
        if self.listener is not None:
            self.listener.leave(value if self.pos.turn == self.root else -value)
        return value

    def _end(self, depth: int, ply: int) -> tuple[bool, list[int], int | None]:
        """(whether the node is a leaf, its vector, its scalar when the game is over)."""
        pos = self.pos
        result = pos.result()
        if result is not None:
            d = self.scalar(result, self.root)
            return True, result, (WIN - ply if d > 0 else -WIN + ply if d < 0 else 0)
        if depth <= 0 or not pos.legal_moves():
            # A tree's leaf, or the horizon: the static vector.
            return True, pos.values(), None
        return False, [], None

    def _scalar_leaf(self, depth: int, ply: int) -> int | None:
        leaf, vector, final = self._end(depth, ply)
        if not leaf:
            return None
        self.book.leaves += 1
        return final if final is not None else self.scalar(vector, self.root)

    def _line_vector(self) -> tuple[int, ...]:
        """The vector where the recorded principal line ends, or the root's static one."""
        pos = self.pos
        if self.notes is None or not self.notes.roots:
            return tuple(pos.values())
        from engine.trace import best_line

        line = best_line(self.notes.root)[1:]
        for node in line:
            pos.push(node.move)
        result = pos.result()
        vector = tuple(result if result is not None else pos.values())
        for _ in line:
            pos.pop()
        return vector

    # -- max^n -----------------------------------------------------------------------

    def _maxn(self, move: int, depth: int, ply: int, parent: int, bound: int) -> list[int]:
        """The max^n vector. ``parent`` moved into this node and has ``bound`` at its
        best child so far (-1: no child yet, or no pruning by it)."""
        pos = self.pos
        self._enter(move, depth, -INF, INF, ply)
        leaf, vector, _ = self._end(depth, ply)
        if leaf:
            self.book.leaves += 1
            self._leave(self.scalar(vector, self.root), vector=vector)
            return vector
        me = pos.turn
        low, high, n = self.low, self.high, self.n
        best: list[int] = []
        best_move = NO_MOVE
        moves = pos.legal_moves()
        cut: Cut | None = None
        for i, m in enumerate(moves):
            pos.push(m)
            child = self._maxn(m, depth - 1, ply + 1, me, best[me] if best else -1)
            pos.pop()
            if not best or child[me] > best[me]:
                best, best_move = child, m
            if i + 1 == len(moves) or high <= 0:
                continue
            # Immediate: nothing can beat the most a player can get (ties keep the first).
            if best[me] >= high - (n - 1) * low:
                cut = Cut("immediate", ply, best[me], high - (n - 1) * low)
                break
            # Shallow: the parent's player gets at most this much here, not more than it has.
            most = high - best[me] - (n - 2) * low
            if parent != me and bound >= 0 and ply > 0 and most <= bound:
                cut = Cut("shallow", ply - 1, most, bound)
                break
        if cut is not None and self.notes is not None:
            self.notes.cut(cut)
        if ply == 0:
            self.book.best = best_move
        self._leave(self.scalar(best, self.root), best_move, best)
        return best

    # -- paranoid ----------------------------------------------------------------------

    def _paranoid(self, move: int, depth: int, alpha: int, beta: int, a_by: int, b_by: int, ply: int) -> int:
        """The paranoid value (root player's scalar) in (alpha, beta): the root player
        maximises, every other player minimises; ``a_by``/``b_by`` as in :class:`Textbook`."""
        pos = self.pos
        self._enter(move, depth, alpha, beta, ply)
        v = self._scalar_leaf(depth, ply)
        if v is not None:
            return self._leave(v)
        maximising = pos.turn == self.root
        best = -INF if maximising else INF
        best_move = NO_MOVE
        moves = pos.legal_moves()
        for i, m in enumerate(moves):
            pos.push(m)
            v = self._paranoid(m, depth - 1, alpha, beta, a_by, b_by, ply + 1)
            pos.pop()
            if v > best if maximising else v < best:
                best, best_move = v, m
                if maximising and v > alpha:
                    alpha, a_by = v, ply
                elif not maximising and v < beta:
                    beta, b_by = v, ply
            if alpha >= beta:
                self._cut(i, moves, maximising, best, alpha, beta, a_by, b_by)
                break
        if ply == 0:
            self.book.best = best_move
        return self._leave(best, best_move)

    def _cut(self, i: int, moves: list[int], maximising: bool, best: int, alpha: int, beta: int,
             a_by: int, b_by: int) -> None:
        """Note an alpha-beta cut-off, in the node's negamax view (as the two-player searches do)."""
        if self.notes is not None and i + 1 < len(moves):
            self.notes.cut(Cut("window", b_by, best, beta) if maximising else Cut("window", a_by, -best, -alpha))

    # -- best-reply search ---------------------------------------------------------------

    def _brs_max(self, move: int, depth: int, alpha: int, beta: int, a_by: int, b_by: int, ply: int) -> int:
        """A node where the root player moves (or the game is over)."""
        pos = self.pos
        self._enter(move, depth, alpha, beta, ply)
        v = self._scalar_leaf(depth, ply)
        if v is not None:
            return self._leave(v)
        best, best_move = -INF, NO_MOVE
        moves = pos.legal_moves()
        for i, m in enumerate(moves):
            pos.push(m)
            v = self._brs_next(m, depth - 1, alpha, beta, a_by, b_by, ply + 1)
            pos.pop()
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha, a_by = v, ply
            if alpha >= beta:
                self._cut(i, moves, True, best, alpha, beta, a_by, b_by)
                break
        if ply == 0:
            self.book.best = best_move
        return self._leave(best, best_move)

    def _brs_next(self, move: int, depth: int, alpha: int, beta: int, a_by: int, b_by: int, ply: int) -> int:
        """After a root player's move: its next turn, the horizon, or an opponents' segment."""
        pos = self.pos
        if pos.turn == self.root or pos.result() is not None or depth <= 0 or not pos.legal_moves():
            return self._brs_max(move, depth, alpha, beta, a_by, b_by, ply)
        return self._brs_min(move, depth, alpha, beta, a_by, b_by, ply, False)

    def _brs_after(self, move: int, depth: int, alpha: int, beta: int, a_by: int, b_by: int, ply: int,
                   branched: bool) -> int:
        """After an opponent's move: the segment goes on, or it ends (one layer spent).
        A segment where nobody branched is no best-reply line: +INF, which the
        minimum ignores, and no node."""
        pos = self.pos
        if pos.result() is not None or not pos.legal_moves():
            return self._brs_max(move, 0, alpha, beta, a_by, b_by, ply)
        if pos.turn == self.root:
            return self._brs_max(move, depth - 1, alpha, beta, a_by, b_by, ply) if branched else INF
        return self._brs_min(move, depth, alpha, beta, a_by, b_by, ply, branched)

    def _brs_min(self, move: int, depth: int, alpha: int, beta: int, a_by: int, b_by: int, ply: int,
                 branched: bool) -> int:
        """An opponent in a segment: it branches on all its moves, then plays its fixed
        move to leave the branching to a later opponent; once someone has branched,
        only its fixed move."""
        pos = self.pos
        self._enter(move, depth, alpha, beta, ply)
        fixed = self._fixed()
        moves = [] if branched else pos.legal_moves()
        best, best_move = INF, NO_MOVE
        options = moves + [fixed]
        for i, m in enumerate(options):
            pos.push(m)
            v = self._brs_after(m, depth, alpha, beta, a_by, b_by, ply + 1, branched or i < len(moves))
            pos.pop()
            if v < best:
                best, best_move = v, m
                if v < beta:
                    beta, b_by = v, ply
            if alpha >= beta:
                self._cut(i, options, False, best, alpha, beta, a_by, b_by)
                break
        return self._leave(best, best_move)

    def _fixed(self) -> int:
        """The fixed move of the player to move: best for its own scalar after one
        ply, the first among equals."""
        pos = self.pos
        cached = self.fixed_moves.get(pos.key)
        if cached is not None:
            return cached
        me = pos.turn
        best, move = -INF, NO_MOVE
        for m in pos.legal_moves():
            pos.push(m)
            result = pos.result()
            vector = result if result is not None else pos.values()
            pos.pop()
            v = engine_scalar(vector, me)
            if v > best:
                best, move = v, m
        self.fixed_moves[pos.key] = move
        return move
