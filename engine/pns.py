"""Proof-number search: proving that a player can force a result, over any game.

The game tree is an AND/OR tree seen from the *prover*: at OR nodes the prover
moves and one good move suffices; at AND nodes the opponent moves and every
reply must be answered. Node types follow ``turn``, so a game that grants an
extra turn (Kalah) keeps the node type of the parent. A game end is *proved*
when it reaches the goal (``"win"``: the prover won; ``"nonloss"``: the prover
won or drew) and *disproved* otherwise. Proving a draw takes two runs: the
side to move cannot win (the win goal is disproved) but cannot lose either
(the non-loss goal is proved).

Each node carries a proof number (how many more leaves must be proved to prove
it) and a disproof number. The search is Nagai's depth-first variant (df-pn):
a node is searched until its numbers cross thresholds handed down by its
parent, so memory is a transposition table (a dict from key to the two
numbers) instead of an explicit tree. A new child starts at the mobility
estimate of df-pn practice: a node with ``k`` moves gets ``k`` for the number
its side must beat one by one (proof number at AND nodes, disproof number at
OR nodes) and ``1`` for the other.

Depth-limited proofs (``max_plies``) prove a win within that many plies from
the root, as ``go mate N`` needs (``2N - 1`` plies). The table then keys nodes
by position and remaining plies, which also makes the searched graph acyclic.
Without a limit, a position repeated since the last irreversible move
(``is_repetition``) counts as a draw; its value depends on the path, so, as in
every df-pn, results in games with cycles (chess, draughts) may be
path-dependent (the graph-history interaction problem). The other games here
cannot repeat a position.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from engine.game import NO_MOVE, Game, Move, Position

#: "Infinite" proof/disproof number: proved nodes have ``(0, INF)``, disproved ``(INF, 0)``.
INF = 1 << 40
#: The 1+ε trick (Pawlewicz and Lew): a child keeps being searched until it is
#: ε = 1/2**EPS_SHIFT worse than its best sibling, which stops df-pn from
#: switching back and forth between nearly equal children.
EPS_SHIFT = 2
#: Nodes df-pn gets in :func:`decide` before the depth-first prover takes over.
DFPN_FIRST = 20_000
#: Most nodes whose child lists are kept.
_KIDS_LIMIT = 1 << 20
#: Remaining-plies multiplier in the table key of depth-limited searches.
_UNLIMITED = -1


class BudgetExceeded(Exception):
    """The node budget, the deadline or a stop request ended the search."""


#: Tables given up by searches, emptied by the release thread (see :func:`discard`).
_dropped: queue.SimpleQueue[dict] = queue.SimpleQueue()
_release_lock = threading.Lock()
_releaser: threading.Thread | None = None


def discard(*tables: dict) -> None:
    """Free ``tables`` in a background thread, one entry at a time.

    Freeing a dict is one call into C that lets no other thread in until the last
    entry is gone; emptied entry by entry in interpreted code, the tables let the
    protocol reader in at every switch interval, and the caller goes on at once."""
    for table in tables:
        if table:
            _dropped.put(table)
    start_release()


def start_release() -> None:
    """Start the release thread if it is not running yet: a go calls this before it
    searches, so that a stop never waits for a thread to start."""
    global _releaser
    with _release_lock:
        if _releaser is None:
            _releaser = threading.Thread(target=_release, name="pns-release", daemon=True)
            _releaser.start()


def _release() -> None:
    while True:
        table = _dropped.get()
        while table:
            table.popitem()


@dataclass
class Proof:
    """Outcome of one proof search."""

    #: True: proved; False: disproved; None: the budget ran out first.
    proved: bool | None
    #: Nodes expanded (all runs of this searcher so far).
    nodes: int
    #: For a proof at an OR root: a proving first move (else ``NO_MOVE``).
    move: Move = NO_MOVE
    #: Distinct positions in the solution graph (proof or disproof), root included.
    size: int = 0
    #: Plies the prover needs at most, following the proof (for a proved win).
    plies: int | None = None


class ProofSearch:
    """A df-pn searcher for one prover, one goal and one budget.

    ``max_nodes`` bounds the expanded nodes over all runs, ``deadline`` is a
    ``time.perf_counter()`` value and ``should_stop()`` is polled now and then;
    when any of them ends the search, the run returns ``None`` (unknown). The
    table is kept between runs of the same searcher, so iterating over
    ``max_plies`` reuses earlier work.
    """

    def __init__(self, game: Game, prover: int, goal: str = "win", *, max_nodes: int | None = None,
                 deadline: float | None = None, should_stop: Callable[[], bool] | None = None):
        if goal not in ("win", "nonloss"):
            raise ValueError(f"goal must be 'win' or 'nonloss', not {goal!r}")
        self.game = game
        self.prover = prover
        self.goal_min = 1 if goal == "win" else 0
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62
        self.deadline = deadline
        self.should_stop = should_stop
        self.tt: dict[int, tuple[int, int]] = {}
        self.kids: dict[int, list[tuple[Move, int]]] = {}
        self.nodes = 0
        #: The position of the running run (set by run, run_depth_first and line).
        self.pos: Position
        self.limited = False
        #: Moves pushed below the root by this searcher, taken back if a budget ends it.
        self.ply = 0

    # -- public ------------------------------------------------------------------

    def run(self, pos: Position, max_plies: int | None = None, *, measure: bool = True) -> Proof:
        """Prove or disprove the goal from ``pos`` (within ``max_plies`` plies if given).

        ``measure=False`` leaves out the size and the plies of the solution: walks over
        the whole proof or disproof, as long as a search of seconds, which
        :func:`find_mate` needs neither of. Leaves ``pos`` as it found it.
        """
        self.pos = pos
        self.limited = max_plies is not None
        r = max_plies if max_plies is not None else _UNLIMITED
        self.ply = 0
        try:
            pn, dn = self._numbers(r)
            while pn and dn:
                pn, dn = self._mid(r, INF, INF)
        except BudgetExceeded:
            # Unwind moves still pushed by the interrupted recursion.
            self._unwind()
            return Proof(None, self.nodes)
        return self._report(pos, r, pn == 0, measure)

    def _report(self, pos: Position, r: int, proved: bool, measure: bool = True) -> Proof:
        proof = Proof(proved, self.nodes, size=self._size(r, proved) if measure else 0)
        if proved:
            proof.plies = self._proof_plies(r, {}) if measure else None
            if pos.turn == self.prover:
                proof.move = self._proving_move(r)
        return proof

    def run_depth_first(self, pos: Position) -> Proof:
        """Prove or disprove the goal from ``pos`` depth-first, without a ply limit.

        The fallback where proof numbers carry no information (games whose nodes
        all look alike, such as k-in-a-row with draws): an alpha-beta search on the
        two-valued goal, trying moves in the game's order and stopping at the first
        child that decides the node. Solved nodes go to the same table as df-pn's,
        so proofs found either way are reported alike.
        """
        self.pos = pos
        self.limited = False
        self.ply = 0
        tt = self.tt
        prover = self.prover

        def solved(r: int) -> bool:
            self.nodes += 1
            self._checkpoint()
            key = pos.key
            entry = tt.get(key)
            if entry is not None and (entry[0] == 0 or entry[1] == 0):
                return entry[0] == 0
            result, _ = self._terminal(pos)
            if result is not None:
                value = self._goal(result)
                if not pos.is_repetition():
                    tt[key] = (0, INF) if value else (INF, 0)
                return value
            or_node = pos.turn == prover
            value = not or_node
            for m in self._ordered(pos):
                self._push(m)
                child = solved(r)
                self._pop()
                if child == or_node:
                    value = or_node
                    break
            if not pos.is_repetition():
                tt[key] = (0, INF) if value else (INF, 0)
            return value

        try:
            proved = solved(_UNLIMITED)
        except BudgetExceeded:
            self._unwind()
            return Proof(None, self.nodes)
        return self._report(pos, _UNLIMITED, proved)

    def line(self, pos: Position, max_plies: int) -> tuple[list[Move], bool]:
        """A principal line of a proved depth-limited goal: at every prover node the
        move with the shortest forced result, at every defender node the reply that
        delays it longest (distances found by re-proving with fewer plies).

        Returns the line and whether it is complete (it reaches the game's end, so
        its length is the exact distance); it stops early when the budget runs out.
        """
        self.pos = pos
        self.limited = True
        line: list[Move] = []
        r = max_plies
        self.ply = 0
        complete = False
        try:
            while r > 0 and self._terminal(pos)[0] is None:
                best, best_r = NO_MOVE, None
                prover_turn = pos.turn == self.prover
                for m in pos.legal_moves():
                    self._push(m)
                    entry = self.tt.get(self._key(r - 1))
                    # A prover move is worth timing only if it was proved within the limit.
                    need = None if prover_turn and (entry is None or entry[0]) else self._shortest(r - 1)
                    self._pop()
                    if need is None:
                        continue
                    if best_r is None or (need < best_r if prover_turn else need > best_r):
                        best, best_r = m, need
                if best == NO_MOVE or best_r is None:  # best_r is set with best
                    break
                line.append(best)
                self._push(best)
                r = best_r
            complete = self._terminal(pos)[0] is not None
        except BudgetExceeded:
            pass
        self._unwind()
        return line, complete

    # -- internals -----------------------------------------------------------------

    def _push(self, move: Move) -> None:
        self.pos.push(move)
        self.ply += 1

    def _pop(self) -> None:
        self.pos.pop()
        self.ply -= 1

    def _unwind(self) -> None:
        """Take back the moves an interrupted search left pushed."""
        while self.ply:
            self._pop()

    def _shortest(self, r: int) -> int | None:
        """Fewest remaining plies (≤ ``r``) with which the current node is proved; None if not."""
        for k in range(0, r + 1):
            pn, dn = self._numbers(k)
            while pn and dn:
                pn, dn = self._mid(k, INF, INF)
            if pn == 0:
                return k
        return None

    def _key(self, r: int) -> int:
        return self.pos.key if r == _UNLIMITED else self.pos.key << 9 | r

    def _terminal(self, pos: Position) -> tuple[int | None, list[Move]]:
        """(result for the side to move if the game is over, else None; the legal moves)."""
        if not self.limited and pos.is_repetition():
            return 0, []
        result = pos.outcome()
        if result is not None:
            return result, []
        moves = pos.legal_moves()
        if not moves:
            return pos.no_moves_value(), []
        return None, moves

    def _goal(self, result: int) -> bool:
        """Whether a finished game (result for the side to move) reaches the prover's goal."""
        ours = result if self.pos.turn == self.prover else -result
        return ours >= self.goal_min

    def _numbers(self, r: int) -> tuple[int, int]:
        """Table entry of the current node, computing its initial numbers if it is new."""
        key = self._key(r)
        entry = self.tt.get(key)
        if entry is not None:
            return entry
        pos = self.pos
        result, moves = self._terminal(pos)
        if result is not None:
            entry = (0, INF) if self._goal(result) else (INF, 0)
        elif r == 0:
            entry = (INF, 0)  # out of plies before reaching the goal
        else:
            k = len(moves)
            entry = (1, k) if pos.turn == self.prover else (k, 1)
        # Repetitions depend on the path: they are recomputed, never stored.
        if result is None or self.limited or not pos.is_repetition():
            self.tt[key] = entry
        return entry

    def _children(self, r: int) -> list[tuple[Move, int]]:
        """(move, child key) pairs of the current node, children entered in the table.

        Kept per node: df-pn re-enters a node many times.
        """
        key = self._key(r)
        kids = self.kids.get(key)
        if kids is not None:
            return kids
        pos = self.pos
        push, pop = pos.push, pos.pop
        r1 = r - 1 if r != _UNLIMITED else _UNLIMITED
        out = []
        poll = self._poll
        for m in self._ordered(pos):
            # Every child generates its own moves: a chess node takes some 30 times that.
            poll()
            push(m)
            self._numbers(r1)
            out.append((m, self._key(r1)))
            pop()
        if len(self.kids) >= _KIDS_LIMIT:
            discard(self.kids)
            self.kids = {}
        self.kids[key] = out
        return out

    @staticmethod
    def _ordered(pos: Position) -> list[Move]:
        """Legal moves in the game's preferred order: noisy moves first (wins, forced
        answers, captures), then by ``move_score``. Ties of the proof numbers are
        broken by this order."""
        moves = pos.legal_moves()
        noisy = pos.noisy_moves()
        if noisy:
            first = set(noisy)
            moves = noisy + [m for m in moves if m not in first]
        rest = len(noisy)
        moves[rest:] = sorted(moves[rest:], key=pos.move_score, reverse=True)
        return moves

    def _mid(self, r: int, thpn: int, thdn: int) -> tuple[int, int]:
        """Search the current node until its numbers reach ``thpn``/``thdn`` or it is solved."""
        self.nodes += 1
        self._checkpoint()
        pos = self.pos
        key = self._key(r)
        entry = self.tt.get(key)
        if entry is None:
            entry = self._numbers(r)
        if entry[0] == 0 or entry[1] == 0:
            return entry
        children = self._children(r)
        tt = self.tt
        or_node = pos.turn == self.prover
        r1 = r - 1 if r != _UNLIMITED else _UNLIMITED
        rep_free = self.limited
        while True:
            # OR: pn = min child pn, dn = sum child dn; AND: the other way round.
            best_i, best, second, total = -1, INF, INF, 0
            for i, (_, ck) in enumerate(children):
                e = tt.get(ck)
                if e is None:
                    # A path-dependent repetition: never stored, a draw from here.
                    pos.push(children[i][0])
                    e = self._numbers(r1)
                    pos.pop()
                a, b = (e[0], e[1]) if or_node else (e[1], e[0])
                if a < best:
                    best, second, best_i = a, best, i
                elif a < second:
                    second = a
                total += b
            if total > INF:
                total = INF
            pn, dn = (best, total) if or_node else (total, best)
            if pn >= thpn or dn >= thdn or pn == 0 or dn == 0:
                break
            move, ck = children[best_i]
            e = tt[ck] if ck in tt else (1, 1)
            if or_node:
                c_thpn = min(thpn, second + 1 + (second >> EPS_SHIFT) if second < INF else INF)
                c_thdn = thdn - dn + e[1]
            else:
                c_thpn = thpn - pn + e[0]
                c_thdn = min(thdn, second + 1 + (second >> EPS_SHIFT) if second < INF else INF)
            self._poll()
            self._push(move)
            self._mid(r1, min(c_thpn, INF), min(c_thdn, INF))
            self._pop()
        if rep_free or not pos.is_repetition():
            tt[key] = (pn, dn)
        return pn, dn

    def _checkpoint(self) -> None:
        """At every node: the node budget, then :meth:`_poll`."""
        if self.nodes > self.max_nodes:
            raise BudgetExceeded
        self._poll()

    def _poll(self) -> None:
        """End the search once past the deadline or asked to stop: looked at before
        every child a node generates, so that a stop is seen within one child's moves."""
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise BudgetExceeded
        if self.should_stop is not None and self.should_stop():
            raise BudgetExceeded

    def close(self) -> None:
        """Forget the tables, which are emptied in the background (:func:`discard`):
        freeing a million entries at once would take the stopped go's answer tens of
        milliseconds, holding the interpreter all that time."""
        discard(self.tt, self.kids)
        self.tt, self.kids = {}, {}

    def _solved_children(self, r: int, proved: bool) -> tuple[bool, list[Move]]:
        """(whether the node takes all children, the children solved the same way)."""
        pos = self.pos
        r1 = r - 1 if r != _UNLIMITED else _UNLIMITED
        all_needed = (pos.turn == self.prover) != proved
        out = []
        for m in pos.legal_moves():
            pos.push(m)
            e = self.tt.get(self._key(r1))
            if e is None and not self.limited and pos.is_repetition():
                e = self._numbers(r1)
            pos.pop()
            if e is not None and (e[0] == 0 if proved else e[1] == 0):
                out.append(m)
        return all_needed, out

    def _size(self, r: int, proved: bool) -> int:
        """Distinct positions of the solution graph below the current node."""
        seen: set[int] = set()
        pos = self.pos

        def walk(r: int) -> None:
            key = self._key(r)
            if key in seen:
                return
            seen.add(key)
            result, _ = self._terminal(pos)
            if result is not None or r == 0:
                return
            all_needed, moves = self._solved_children(r, proved)
            r1 = r - 1 if r != _UNLIMITED else _UNLIMITED
            for m in (moves if all_needed else moves[:1]):
                pos.push(m)
                walk(r1)
                pos.pop()

        walk(r)
        return len(seen)

    def _proof_plies(self, r: int, memo: dict[int, int]) -> int:
        """Plies to the goal when the prover follows this proof and the opponent resists
        longest inside it: an upper bound on the true distance."""
        key = self._key(r)
        if key in memo:
            return memo[key]
        pos = self.pos
        result, _ = self._terminal(pos)
        if result is not None:
            return 0
        memo[key] = 1 << 30  # a cycle inside the proof cannot be part of it
        all_needed, moves = self._solved_children(r, True)
        r1 = r - 1 if r != _UNLIMITED else _UNLIMITED
        values = []
        for m in moves:
            pos.push(m)
            values.append(1 + self._proof_plies(r1, memo))
            pos.pop()
        value = (max(values) if all_needed else min(values)) if values else 0
        memo[key] = value
        return value

    def solution(self, pos: Position, proved: bool, max_nodes: int = 100_000) -> SolutionNode:
        """The solution tree of the last unlimited :meth:`run` on ``pos`` (``proved``:
        its result): at the prover's nodes of a proof the one move the proof takes, at
        the opponent's every legal move; for a disproof the other way round. Repeated
        positions are drawn again where they recur; at most ``max_nodes`` nodes, then
        the tree is cut (``SolutionNode.truncated``). Leaves ``pos`` as it found it."""
        self.pos = pos
        count = 0

        def build(move: Move) -> SolutionNode:
            nonlocal count
            count += 1
            result, _ = self._terminal(pos)
            node = SolutionNode(move, pos.turn, pos.turn != self.prover, result)
            if result is not None:
                return node
            all_needed, moves = self._solved_children(_UNLIMITED, proved)
            for m in moves if all_needed else moves[:1]:
                if count >= max_nodes:
                    node.truncated = True
                    break
                pos.push(m)
                node.children.append(build(m))
                pos.pop()
            return node

        return build(NO_MOVE)

    def _proving_move(self, r: int) -> Move:
        _, moves = self._solved_children(r, True)
        return moves[0] if moves else NO_MOVE


@dataclass(eq=False)
class SolutionNode:
    """A node of a solution (AND/OR) tree, as :meth:`ProofSearch.solution` draws it."""

    move: Move
    """The move that led here (``NO_MOVE`` at the root)."""
    turn: int
    and_node: bool
    """The prover's opponent moves here: every reply is in the tree."""
    result: int | None
    """At a game end: the result for the side to move (+1/0/-1), else ``None``."""
    children: list[SolutionNode] = field(default_factory=list)
    truncated: bool = False

    def walk(self) -> Iterator[SolutionNode]:
        yield self
        for child in self.children:
            yield from child.walk()


def solution_tree(game: Game, pos: Position, value: int, *, max_nodes: int = 100_000) -> tuple[int, SolutionNode]:
    """``(prover, tree)``: the solution tree proving ``value`` (+1/0/-1, the side to
    move's, e.g. from :func:`solve`): a win or a draw is the side to move's strategy
    (a win, or at least a draw), a loss the opponent's winning strategy."""
    prover = pos.turn if value >= 0 else 1 - pos.turn
    search = ProofSearch(game, prover, "nonloss" if value == 0 else "win")
    proof = search.run(pos)
    if not proof.proved:
        raise ValueError("the position does not have that value")
    return prover, search.solution(pos, True, max_nodes)


# -- convenience ---------------------------------------------------------------------

@dataclass
class MateResult:
    """Outcome of :func:`find_mate`."""

    #: True: a forced win within the limit exists; False: none exists; None: unknown.
    found: bool | None
    plies: int | None
    pv: list[Move]
    nodes: int


def find_mate(game: Game, pos: Position, moves: int, *, max_nodes: int | None = None,
              deadline: float | None = None, should_stop: Callable[[], bool] | None = None) -> MateResult:
    """The shortest forced win for the side to move within ``moves`` of its moves
    (``2 * moves - 1`` plies), with a principal line.

    Depth-limited proofs of 1, 3, 5 ... plies share one table, so the first proof
    found is the shortest. Leaves ``pos`` as it found it.
    """
    start_release()
    search = ProofSearch(game, pos.turn, "win", max_nodes=max_nodes, deadline=deadline,
                         should_stop=should_stop)
    try:
        for n in range(1, moves + 1):
            plies = 2 * n - 1
            proof = search.run(pos, plies, measure=False)
            if proof.proved is None:
                return MateResult(None, None, [], search.nodes)
            if proof.proved:
                # Extra turns can make the shortest win an even number of plies: the
                # complete line has the exact length.
                line, complete = search.line(pos, plies)
                return MateResult(True, len(line) if complete else plies, line, search.nodes)
        return MateResult(False, None, [], search.nodes)
    finally:
        search.close()


@dataclass
class Solution:
    """The game-theoretic value of a position, from the side to move's view."""

    #: +1 win, 0 draw, -1 loss; None when the budget ran out first.
    value: int | None
    #: A first move that achieves it (``NO_MOVE`` for a loss or unknown).
    move: Move
    #: Positions in the deciding proof.
    size: int
    #: Plies to the end along the proof (win/loss), when known.
    plies: int | None
    nodes: int
    seconds: float


def decide(game: Game, pos: Position, prover: int, goal: str, *, max_nodes: int | None = None,
           deadline: float | None = None, dfpn_nodes: int = DFPN_FIRST) -> Proof:
    """Prove or disprove ``goal`` for ``prover`` from ``pos``: df-pn first, for at
    most ``dfpn_nodes`` nodes, then the depth-first prover on the same table."""
    search = ProofSearch(game, prover, goal, max_nodes=min(dfpn_nodes, max_nodes or dfpn_nodes),
                         deadline=deadline)
    proof = search.run(pos)
    if proof.proved is None and (max_nodes is None or max_nodes > search.nodes):
        search.max_nodes = max_nodes if max_nodes is not None else 1 << 62
        if deadline is None or time.perf_counter() < deadline:
            proof = search.run_depth_first(pos)
    return proof


def solve(game: Game, pos: Position, *, max_nodes: int | None = None,
          deadline: float | None = None) -> Solution:
    """Solve ``pos``: a win proof for the side to move, then (if disproved) a
    non-loss proof; the second one proved means a draw, disproved a loss, and
    then the opponent's win proof gives the distance.

    All runs share ``max_nodes`` and ``deadline``. Leaves ``pos`` as it found it.
    """
    t0 = time.perf_counter()
    me = pos.turn
    nodes = 0

    def left() -> int | None:
        return None if max_nodes is None else max(1, max_nodes - nodes)

    def done(value, move=NO_MOVE, size=0, plies=None) -> Solution:
        return Solution(value, move, size, plies, nodes, time.perf_counter() - t0)

    win = decide(game, pos, me, "win", max_nodes=left(), deadline=deadline)
    nodes += win.nodes
    if win.proved is None:
        return done(None)
    if win.proved:
        return done(1, win.move, win.size, win.plies)
    hold = decide(game, pos, me, "nonloss", max_nodes=left(), deadline=deadline)
    nodes += hold.nodes
    if hold.proved is None:
        return done(None)
    if hold.proved:
        return done(0, hold.move, hold.size)
    theirs = decide(game, pos, 1 - me, "win", max_nodes=left(), deadline=deadline)
    nodes += theirs.nodes
    return done(-1, NO_MOVE, theirs.size if theirs.proved else hold.size, theirs.plies)
