"""Monte-Carlo tree search: UCT over random playouts, a strategy of the driver.

One *simulation* walks the tree from the root by UCB1 (Kocsis & Szepesvári
2006), adds the children of the leaf it reaches once that leaf has been visited,
plays one random game from there to its end (a *playout*), and adds the result
to every node it passed. Everything goes through the game interface: the tree's
moves from the game's ``tree_moves()`` (the legal moves, or fewer: Go leaves out
filling one's own eyes), the playouts' from ``playout_moves()`` (see
:mod:`engine.game`), ``push``/``pop``, and at the end ``outcome()`` or
``no_moves_value()`` (``result()``, the value vector, for games of more than two
players). A playout that reaches :data:`PLAYOUT_CAP` plies from the root (a game
that may not end, like a chess game of random moves) is scored by the sign of
``evaluate()`` (by ``values()`` for N players).

The driver (:mod:`engine.driver`) runs it as it runs alpha-beta: iteration ``d``
is a batch of ``BATCH * 2**(d - 1)`` simulations, so that reports thin out as
the search grows, as they do with depth; ``go depth d`` runs ``d`` batches and
``go nodes n`` ``n`` simulations (the reported ``nodes``, and ``nps`` per
second). The go's control is looked at before every simulation and every
:data:`CHECK_PLAYOUT` plies of a playout: ``stop``, the hard deadline and the
ponderhit act within one short playout. An aborted batch loses nothing: the
tree is complete after every simulation, and the lines are read from it.

Rewards are 1, 1/2 and 0 for a win, a draw and a loss of the player who made a
node's move (for N players, the player's share of the final vector). Each node
keeps its visits and reward sum; the move played is the most visited root child.

Two players: MCTS-Solver (Winands, Björnsson & Saito 2008). A node whose game
has ended is proven, and so is a node with a proven win among its children (the
mover takes it) or all its children proven (the best of them): proven values are
search scores with their distance (``WIN - plies``), so a proven root reports
``score mate N`` like alpha-beta, ends the search (:meth:`MCTSSearcher.settled`)
and never plays a proven loss while another move is open. A simulation that
selects a proven child takes its exact result without a playout.

The score of an unproven line is the best root child's mean reward ``p`` for the
side to move, with one win and one loss added (Laplace's rule of succession, so
that a move tried once is not reported as won), in centipawns through the Elo logistic,
``cp = 400 log10(p / (1 - p))`` (``p`` clamped to ``[0.001, 0.999]``, so at most
±1200): 50% is 0 and 64% is a pawn. For N players the reported vector is each
player's mean share of ``S`` (``game.value_sum``) and the score the root
player's entry minus the best other, as in :mod:`engine.multiplayer`.

RAVE (Gelly & Silver 2007), :attr:`MCTSSearcher.rave` (the ``RAVE`` option): each child also keeps
all-moves-as-first statistics (the reward of every simulation in which its
mover played its move later on, in the tree or the playout), blended into its
mean by ``beta = sqrt(RAVE_K / (3 n + RAVE_K))`` for a child visited ``n``
times, the exploration term shrunk to :data:`RAVE_EXPLORATION`. It pays where a
move means the same thing across positions: on 7x7 Go (komi 9) at 200 simulations
a move it won 6 games of 6 against plain UCT; in Connect Four, where a move is a
column, it lost 2-8 at 400 (``scripts/mcts_match.py``). Off by default.

A game may play a whole playout itself (``Position.playout``, Go's playout board of
C arrays, :mod:`games.go.playout`: thousands of playouts a second where moves pushed
one by one give tens), its policy light or heavy (:attr:`MCTSSearcher.heavy`, the
``Playouts`` option), and may give a new node's children prior visits and wins
(``Position.move_priors``: in Go captures, 3×3 shapes and closeness to the last move
count as simulations won, self-ataris as simulations lost), as MoGo and Michi do.

The tree is held in flat parallel lists indexed by node (the children of a node
are consecutive), no object per node; it grows to at most ``Hash`` MB's worth of
nodes (:data:`NODE_BYTES` each), after which simulations go on from its leaves.

The tree is kept from one search to the next (Pachi's and KataGo's tree reuse): when
the engine's line for the new position (:attr:`MCTSSearcher.line`, its start text and
moves) extends the last search's by moves the tree holds, the subtree under them,
its visits, wins, RAVE statistics and priors, becomes the new root's (renumbered, the
rest dropped), and the search adds its simulations to them. Anything else (another
start, a move taken back, ``searchmoves``, more than two players, ``forget``) starts a
new tree, as does a searcher used without a line: a search from a new engine or a
new game is the same simulation for simulation.

``Threads`` runs the search in parallel at the root (:func:`engine.smp.root_parallel`):
helper processes grow trees of their own from the same root, and their root
children's simulations (:meth:`MCTSSearcher.root_stats`) are added to the main
worker's (:meth:`MCTSSearcher.merge`) before the move is chosen.
The transposition table is not used (the tree is the search's memory), and
endgame tables are left to the root oracles. The search never prints.
"""

from __future__ import annotations

import math
import random
import time
from typing import Callable, cast

from engine.clock import Clock
from engine.control import Control
from engine.driver import NO_TABLES, Info, Line, Report, SearchAborted, SearchResult, TableHook
from engine.driver import search as drive
from engine.game import EVAL_LIMIT, MAX_PLY, WIN, Game, result_score
from engine.multiplayer import VectorInfo
from engine.position import Position
from engine.timeman import Limits
from engine.tt import TranspositionTable

#: Simulations of the first iteration; each further iteration doubles the batch.
BATCH = 16
#: Iterations (batches) at most: the last would run 16 * 2**47 simulations, never reached.
MAX_DEPTH = 48
#: UCB1's exploration constant for rewards in [0, 1]: against the textbook's sqrt(2) it
#: scored 6-4 in Connect Four at 400 simulations a move (scripts/mcts_match.py), a small
#: sample that found no reason to explore more.
EXPLORATION = 0.7
#: The exploration constant once RAVE's estimate guides the selection.
RAVE_EXPLORATION = 0.2
#: RAVE's equivalence parameter: at ``RAVE_K / 3`` visits a child's own mean weighs as
#: much as its all-moves-as-first mean.
RAVE_K = 1000
#: A playout ends after this many plies from the root and is scored by ``evaluate()``.
PLAYOUT_CAP = 2 * MAX_PLY
#: Plies of a playout between two looks at the go's control.
CHECK_PLAYOUT = 32
#: Memory of one tree node: the tree holds at most ``Hash`` MB / this many nodes.
NODE_BYTES = 96
#: A leaf's children are added once it has been visited this many times.
EXPAND_VISITS = 1
#: Proof of a node not proven (beyond every score).
UNPROVEN = 4 * WIN
#: Searches in a row that must find the game lost before a player resigns (KataGo's 3).
RESIGN_MOVES = 3
#: Simulations a search needs before its win rate may make a player resign.
RESIGN_SIMULATIONS = 500
#: Mean rewards beyond these map to the largest centipawn scores.
_P_CLAMP = 0.001


def win_rate_cp(p: float) -> int:
    """Centipawns of a mean reward ``p`` (0..1) by the Elo logistic.

    >>> win_rate_cp(0.5), win_rate_cp(0.64), win_rate_cp(1.0)
    (0, 100, 1200)
    """
    p = min(1 - _P_CLAMP, max(_P_CLAMP, p))
    return round(400 * math.log10(p / (1 - p)))


def win_rate(score: int) -> float:
    """The win rate (0..1) a reported score stands for: :func:`win_rate_cp` undone, a
    proven win 1 and a proven loss 0.

    >>> win_rate(0), win_rate(-1200) < 0.002, win_rate(-WIN + 3)
    (0.5, True, 0.0)
    """
    if abs(score) > EVAL_LIMIT:
        return 1.0 if score > 0 else 0.0
    return 1 / (1 + 10 ** (-score / 400))


class Resignation:
    """When a player should resign (GTP's ``genmove`` answers ``resign``), as Go engines do
    (KataGo: a win rate below about 5 % three turns in a row): the win rate of each of its
    last :data:`RESIGN_MOVES` searches below the threshold, each search of at least
    :data:`RESIGN_SIMULATIONS` simulations, or its loss proven. The win rate is the
    playouts' (:meth:`MCTSSearcher.win_rate`): the reported score's counts the priors'
    simulations too, which keep a hopeless 9x9 game near 10 % after 8,000 simulations."""

    def __init__(self) -> None:
        #: Per player, its searches in a row that found the game lost.
        self.low: dict[int, int] = {}

    def clear(self) -> None:
        """A new game."""
        self.low.clear()

    def hopeless(self, player: int, info: Info | None, threshold_percent: int, rate: float | None = None) -> bool:
        """Count ``player``'s search of final report ``info`` and win rate ``rate`` (the
        score's when ``None``); True when it should resign now."""
        if info is None or threshold_percent <= 0:
            self.low[player] = 0
            return False
        if abs(info.score) > EVAL_LIMIT and info.score < 0:
            return True
        rate = win_rate(info.score) if rate is None else rate
        low = info.nodes >= RESIGN_SIMULATIONS and rate * 100 < threshold_percent
        self.low[player] = self.low.get(player, 0) + 1 if low else 0
        return self.low[player] >= RESIGN_MOVES


def _older(value: int) -> int:
    """A proven value one ply further from where it is counted."""
    return value - 1 if value > 0 else value + 1 if value < 0 else 0


class MCTSSearcher:
    """UCT with random playouts: one worker, and the strategy the driver deepens, as
    :class:`engine.search.Searcher` is (``search``, ``stop``, ``ponderhit``,
    ``forget``). ``seed`` makes its random choices repeatable."""

    def __init__(self, hash_mb: int = 16, tt: TranspositionTable | None = None, seed: int | None = None):
        # The table only sizes the tree (Hash) and answers the driver's hashfull.
        self.tt = tt if tt is not None else TranspositionTable(hash_mb)
        self.control = Control()
        self.rng = random.Random(seed)
        self.exploration = EXPLORATION
        #: RAVE (all-moves-as-first) statistics blended into the selection.
        self.rave = False
        #: Playouts with the game's knowledge, where its playout board has some.
        self.heavy = True
        self.nodes = self.seldepth = self.tbhits = 0
        self.node_limit = 1 << 62
        self.next_check = 0
        self.root_moves: list[int] = []
        self.pos: Position = cast(Position, None)
        self.players = 2
        self.value_sum = 0
        self.root_turn = 0
        self.max_nodes = 0
        #: The root's proven value for its side to move, or ``UNPROVEN``.
        self.root_proof = UNPROVEN
        self._moves_of: Callable[[], list[int]] = list
        self._tree_moves: Callable[[Position], list[int]] = Position.legal_moves
        #: The line (start text, moves) of the position the next search is given, set by
        #: the engine at every go; ``None`` (the searcher used on its own) never reuses a tree.
        self.line: tuple[str | None, list[str]] | None = None
        #: The line, key and game of the last search's root, which the tree is rooted at.
        self._tree_line: tuple[str | None, list[str]] | None = None
        self._tree_key = 0
        self._tree_game: Game | None = None
        #: The root's visits when the search began: those of the last search's subtree kept.
        self.reused = 0
        self._reset_tree()

    def _reset_tree(self) -> None:
        # Node i: the move into it, the player who made it, visits, reward sum of that
        # player, first child (-1: not expanded) and child count, proven value (for the
        # mover, counted from the parent), RAVE visits and reward sum.
        self.move: list[int] = []
        self.mover: list[int] = []
        self.visits: list[int] = []
        self.total: list[float] = []
        self.first: list[int] = []
        self.count: list[int] = []
        self.proof: list[int] = []
        self.amaf_n: list[int] = []
        self.amaf_w: list[float] = []
        #: Per root child (by its offset from the root's first child): every player's reward sum.
        self.root_sums: list[list[float]] = []

    # -- control from other threads -------------------------------------------

    def stop(self) -> None:
        self.control.stop()

    def ponderhit(self) -> None:
        self.control.ponderhit()

    def forget(self) -> None:
        """The next search starts a new tree (only the random generator goes on)."""
        self._reset_tree()
        self._tree_line = None

    # -- the strategy the driver deepens -------------------------------------------

    def search(self, game: Game, pos: Position, limits: Limits, *, multipv: int = 1,
               move_overhead_ms: int = 10, on_info: Callable[[Info], None] | None = None,
               control: Control | None = None, clock: Clock | None = None,
               tables: TableHook = NO_TABLES) -> SearchResult:
        """:func:`engine.driver.search` with this searcher."""
        return drive(self, game, pos, limits, multipv=multipv, on_info=on_info, clock=clock, control=control,
                     move_overhead_ms=move_overhead_ms, tables=tables)

    def begin(self, game: Game, pos: Position, limits: Limits, tables: TableHook = NO_TABLES) -> int:
        """The tree for ``pos``: the last search's subtree under the moves played since,
        when ``pos`` extends its root (:meth:`_follow`), else a new one, the root and its
        children (``searchmoves`` only, when that leaves any) in a random order, so
        unvisited children are tried fairly. ``tables`` is unused: the tree does not probe
        tables."""
        kept = self._follow(game, pos, limits)
        self._tree_line, self._tree_key, self._tree_game = self.line, pos.key, game
        self.pos = pos
        self.players = len(game.players)
        self.value_sum = game.value_sum
        self.root_turn = pos.turn
        self.nodes = self.seldepth = self.tbhits = 0
        self.node_limit = limits.nodes if limits.nodes else 1 << 62
        self.max_nodes = max(1024, self.tt.size_bytes() // NODE_BYTES)
        self.root_proof = UNPROVEN
        # The optional game hook of light playouts (engine.game), else every legal move.
        self._moves_of = pos.playout_moves
        self._tree_moves = game.tree_moves
        if kept >= 0:
            if kept:
                self._keep(kept)
            f = self.first[0]
            self.root_moves = self.move[f:f + self.count[0]]
            self.root_sums = [[0.0] * self.players for _ in self.root_moves]
            self.reused = self.visits[0]
            return min(limits.depth or MAX_DEPTH, MAX_DEPTH)
        self.reused = 0
        moves = game.tree_moves(pos)
        if limits.searchmoves:
            wanted = set(limits.searchmoves)
            moves = [m for m in pos.legal_moves() if m in wanted] or moves
        self.rng.shuffle(moves)
        self.root_moves = moves
        self._reset_tree()
        self._add(-1, -1)
        if moves:
            self._expand(0, moves)
        self.root_sums = [[0.0] * self.players for _ in moves]
        return min(limits.depth or MAX_DEPTH, MAX_DEPTH)

    def _follow(self, game: Game, pos: Position, limits: Limits) -> int:
        """The node of the last search's tree that ``pos`` is, expanded, when the line of
        ``pos`` extends that search's line by moves the tree holds (the moves played
        since; none: the root itself), the root being the same position; else -1. Two players, every root move
        (no ``searchmoves``): the tree's statistics are all simulations of the mover's."""
        old, new = self._tree_line, self.line
        if (old is None or new is None or game is not self._tree_game or self.players != 2
                or limits.searchmoves or new[0] != old[0] or new[1][:len(old[1])] != old[1] or not self.move):
            return -1
        since = new[1][len(old[1]):]
        if not since:
            # The same position again (a genmove after an analysis): the whole tree.
            return 0 if pos.key == self._tree_key and self.first[0] >= 0 else -1
        # The moves since are the last ones pushed on ``pos``: taken back, then played again.
        for _ in since:
            pos.pop()
        node = 0 if pos.key == self._tree_key else -1
        for text in since:
            move = pos.parse_move(text)
            pos.push(move)
            if node >= 0:
                f = self.first[node]
                node = -1 if f < 0 else next((i for i in range(f, f + self.count[node]) if self.move[i] == move), -1)
        return node if node > 0 and self.first[node] >= 0 else -1

    def _keep(self, node: int) -> None:
        """Make the subtree under ``node`` the whole tree, ``node`` its root, children kept
        consecutive (breadth first); the rest of the tree is dropped."""
        order, first, count = [node], self.first, self.count
        new_first = []
        i = 0
        while i < len(order):
            old = order[i]
            f = first[old]
            new_first.append(len(order) if f >= 0 else -1)
            if f >= 0:
                order.extend(range(f, f + count[old]))
            i += 1
        self.move = [self.move[k] for k in order]
        self.mover = [self.mover[k] for k in order]
        self.visits = [self.visits[k] for k in order]
        self.total = [self.total[k] for k in order]
        self.count = [count[k] for k in order]
        self.proof = [self.proof[k] for k in order]
        self.amaf_n = [self.amaf_n[k] for k in order]
        self.amaf_w = [self.amaf_w[k] for k in order]
        self.first = new_first
        # The root as a new one is, whatever its move and proof as a child were.
        self.move[0], self.mover[0], self.proof[0] = -1, -1, UNPROVEN

    def first_lines(self) -> list[Line]:
        return self._lines(1)

    def iterate(self, depth: int, multipv: int, lines: list[Line] | None, report: Report) -> list[Line]:
        """One batch of simulations; stops early once the root is proven."""
        for _ in range(BATCH << (depth - 1)):
            if self.root_proof != UNPROVEN:
                break
            self._simulate()
        return self._lines(multipv)

    def salvage(self, lines: list[Line], completed: int) -> list[Line]:
        """The tree after the last whole simulation: as good as a finished batch."""
        return self._lines(len(lines))

    def settled(self, depth: int, line: Line, limits: Limits) -> bool:
        """The root is proven: more simulations cannot change its value."""
        return self.root_proof != UNPROVEN

    def finish(self, line: Line) -> Line:
        return line

    def info(self, fields: dict, line: Line) -> Info:
        """The report, the tree's share of its memory as ``hashfull``."""
        # A tree kept from a search with a larger Hash may hold more than this one's share.
        fields["hashfull"] = min(1000, len(self.move) * 1000 // self.max_nodes)
        if self.players > 2:
            return VectorInfo(**fields, vector=tuple(line.vector), algorithm="mcts")
        return Info(**fields)

    def ponder_move(self, pv: list[int]) -> int | None:
        return pv[1] if len(pv) > 1 else None

    # -- the root's simulations ------------------------------------------------------

    def root_simulations(self) -> list[tuple[int, int, float]]:
        """The root children's own simulations as (move, visits, wins of the mover), the
        game's priors taken out, those never simulated left out."""
        f = self.first[0] if self.first else -1
        if f < 0:
            return []
        moves = self.move[f:f + self.count[0]]
        priors = self.pos.move_priors(moves) or [(0, 0)] * len(moves)
        out = []
        for k, (move, (n0, w0)) in enumerate(zip(moves, priors)):
            n = self.visits[f + k] - n0
            if n > 0:
                out.append((move, n, self.total[f + k] - w0))
        return out

    def win_rate(self) -> float | None:
        """The share of the last search's simulations won by the side to move at its root
        (every root move's, the priors left out: what the playouts say), ``None`` for none."""
        sims = self.root_simulations()
        n = sum(s[1] for s in sims)
        return sum(s[2] for s in sims) / n if n else None

    # -- root parallelism (engine.smp) ---------------------------------------------

    def root_stats(self) -> list[list]:
        """:meth:`root_simulations` as [move text, visits, wins]: what a ``Threads`` helper
        tells the main worker (the priors left out, since every worker counts them)."""
        return [[self.pos.move_text(m), n, w] for m, n, w in self.root_simulations()]

    def merge(self, extra: dict[int, tuple[int, float]]) -> Line:
        """Add other workers' root simulations (visits, wins by move) to the root's
        children, and return the best line then: the most visited child's."""
        f = self.first[0]
        for i in range(f, f + self.count[0]):
            n, w = extra.get(self.move[i], (0, 0.0))
            self.visits[i] += n
            self.total[i] += w
            self.visits[0] += n
        return self._lines(1)[0]

    # -- the tree ----------------------------------------------------------------

    def _add(self, move: int, mover: int) -> None:
        self.move.append(move)
        self.mover.append(mover)
        self.visits.append(0)
        self.total.append(0.0)
        self.first.append(-1)
        self.count.append(0)
        self.proof.append(UNPROVEN)
        self.amaf_n.append(0)
        self.amaf_w.append(0.0)

    def _expand(self, node: int, moves: list[int]) -> None:
        first = self.first[node] = len(self.move)
        k = self.count[node] = len(moves)
        # The children in bulk (Go adds some 80 at a time): _add's lists, extended.
        self.move.extend(moves)
        self.mover.extend([self.pos.turn] * k)
        self.visits.extend([0] * k)
        self.total.extend([0.0] * k)
        self.first.extend([-1] * k)
        self.count.extend([0] * k)
        self.proof.extend([UNPROVEN] * k)
        self.amaf_n.extend([0] * k)
        self.amaf_w.extend([0.0] * k)
        priors = self.pos.move_priors(moves)
        if priors is not None:
            # The game's knowledge as simulations already counted (Gelly & Silver 2007).
            visits, total = self.visits, self.total
            for k, (n, w) in enumerate(priors):
                visits[first + k] = n
                total[first + k] = w

    def _select(self, node: int) -> int:
        """The child of ``node`` with the highest upper confidence bound (without RAVE an
        unvisited one first, in their shuffled order; a proven loss of the mover never)."""
        visits, total, proof = self.visits, self.total, self.proof
        amaf_n, amaf_w = self.amaf_n, self.amaf_w
        first = self.first[node]
        log_n = math.log(visits[node] + 1)
        rave = self.rave
        c = RAVE_EXPLORATION if rave else self.exploration
        best, best_u = first, -1.0
        for i in range(first, first + self.count[node]):
            n = visits[i]
            if n == 0:
                if not rave:
                    return i
                # RAVE's first-play urgency: an untried move is ranked by its
                # all-moves-as-first mean and the exploration term of one visit (untried
                # moves without one first), so that a wide root (81 points) is not tried
                # once over before any is tried twice, yet every move is tried in time.
                an = amaf_n[i]
                u = (amaf_w[i] / an if an else 2.0) + c * math.sqrt(log_n)
                if u > best_u:
                    best, best_u = i, u
                continue
            p = proof[i]
            if p != UNPROVEN:
                if p < 0:
                    continue
                # A proven win would have proven the node: this is a proven draw.
                q = 0.5
            else:
                q = total[i] / n
                an = amaf_n[i]
                if rave and an:
                    beta = math.sqrt(RAVE_K / (3 * n + RAVE_K))
                    q = (1 - beta) * q + beta * amaf_w[i] / an
            u = q + c * math.sqrt(log_n / n)
            if u > best_u:
                best, best_u = i, u
        return best

    def _rewards(self, result: int, turn: int) -> list[float]:
        """Every player's reward for ``result`` (+1/0/-1) of the player ``turn``."""
        if self.players > 2:
            vector = self.pos.result()
            if vector is None:
                vector = self.pos.values()
            return [v / self.value_sum for v in vector]
        r0 = (1 + result) / 2 if turn == 0 else (1 - result) / 2
        return [r0, 1 - r0]

    def _simulate(self) -> None:
        """One simulation: select, expand, play out, back up (and prove)."""
        if self.nodes >= self.node_limit:
            raise SearchAborted(0)
        control = self.control
        if control.stopped or time.perf_counter() >= control.deadline:
            raise SearchAborted(0)
        pos = self.pos
        move, first, proof = self.move, self.first, self.proof
        path = [0]
        node = 0
        rewards: list[float] | None = None
        # The playout's (move, player) pairs, kept for RAVE only.
        played: list[tuple[int, int]] | None = [] if self.rave else None
        while first[node] >= 0:
            node = self._select(node)
            pos.push(move[node])
            path.append(node)
            p = proof[node]
            if p != UNPROVEN:
                rewards = self._rewards((p > 0) - (p < 0), self.mover[node])
                break
        if rewards is None:
            if node and pos.is_repetition():
                # The search scores a repetition as a draw; it depends on the path, so it proves nothing.
                rewards = self._rewards(0, pos.turn)
            elif self.visits[node] >= EXPAND_VISITS and len(self.move) < self.max_nodes:
                rewards = self._grow(node, path, played)
            else:
                rewards = self._playout(node, len(path) - 1, played)
        for _ in range(len(path) - 1):
            pos.pop()
        self.nodes += 1
        if len(path) - 1 > self.seldepth:
            self.seldepth = len(path) - 1
        self._back_up(path, played, rewards)

    def _grow(self, node: int, path: list[int], played: list[tuple[int, int]] | None) -> list[float]:
        """Expand ``node`` (or prove it, when its game is over) and play out from its first child."""
        pos = self.pos
        ended = self._ended(pos)
        if ended is not None:
            return self._prove_end(node, ended)
        moves = self._tree_moves(pos)
        self.rng.shuffle(moves)
        self._expand(node, moves)
        child = self.first[node]
        pos.push(moves[0])
        path.append(child)
        return self._playout(child, len(path) - 1, played)

    def _ended(self, pos: Position) -> int | None:
        """The result (+1/0/-1, side to move) when the game is over, else ``None``."""
        if self.players > 2:
            return None if pos.legal_moves() else pos.outcome()
        result = pos.outcome()
        if result is None and not pos.legal_moves():
            result = pos.no_moves_value()
        return result

    def _prove_end(self, node: int, result: int) -> list[float]:
        """The rewards of a node whose game is over; with two players it is proven."""
        turn = self.pos.turn
        if self.players == 2 and node:
            proof = result if turn == self.mover[node] else -result
            self.proof[node] = result_score(proof, 1)
        return self._rewards(result, turn)

    def _playout(self, node: int, ply: int, played: list[tuple[int, int]] | None) -> list[float]:
        """Random moves from the position of ``node`` (``ply`` plies below the root) to
        the game's end or the cap; a node found over at once is proven."""
        pos = self.pos
        two = self.players == 2
        if two and pos.outcome() is None:
            # The game's own playout board, when it has one: the whole game in one call.
            fast = pos.playout(self.rng.getrandbits(64), played, self.heavy)
            if fast is not None:
                return self._rewards(fast, pos.turn)
        moves_of = self._moves_of
        rand = self.rng.random
        control = self.control
        steps = 0
        cap = max(0, PLAYOUT_CAP - ply)
        result: int | None = None
        while True:
            if two:
                result = pos.outcome()
                if result is not None:
                    break
            moves = moves_of()
            if not moves:
                result = pos.no_moves_value() if two else pos.outcome()
                break
            if steps >= cap:
                break
            m = moves[int(rand() * len(moves))]
            if played is not None:
                played.append((m, pos.turn))
            pos.push(m)
            steps += 1
            if steps % CHECK_PLAYOUT == 0 and (control.stopped or time.perf_counter() >= control.deadline):
                raise SearchAborted(ply + steps)
        if result is not None and steps == 0:
            return self._prove_end(node, result)
        if result is None:
            # The cap: the evaluation's sign stands for the result (values() with N players).
            e = pos.evaluate() if two else 0
            result = (e > 0) - (e < 0)
        rewards = self._rewards(result, pos.turn)
        for _ in range(steps):
            pos.pop()
        return rewards

    def _back_up(self, path: list[int], played: list[tuple[int, int]] | None, rewards: list[float]) -> None:
        visits, total, mover = self.visits, self.total, self.mover
        for i in path:
            visits[i] += 1
        for i in path[1:]:
            total[i] += rewards[mover[i]]
        if len(path) > 1:
            sums = self.root_sums[path[1] - self.first[0]]
            for player, r in enumerate(rewards):
                sums[player] += r
        if played is not None:
            self._back_up_amaf(path, played, rewards)
        if self.players == 2 and self.proof[path[-1]] != UNPROVEN:
            self._prove_up(path)

    def _back_up_amaf(self, path: list[int], played: list[tuple[int, int]], rewards: list[float]) -> None:
        """All-moves-as-first: at every node of the path, each child whose move its
        mover played later in the simulation (in the tree or the playout) gets that
        mover's reward."""
        move, mover, first, count = self.move, self.mover, self.first, self.count
        amaf_n, amaf_w = self.amaf_n, self.amaf_w
        # (move, player) of every move from the current path node on, grown upwards.
        seen = set(played)
        for k in range(len(path) - 1, -1, -1):
            node = path[k]
            if k + 1 < len(path):
                below = path[k + 1]
                seen.add((move[below], mover[below]))
            f = first[node]
            if f < 0:
                continue
            for i in range(f, f + count[node]):
                if (move[i], mover[i]) in seen:
                    amaf_n[i] += 1
                    amaf_w[i] += rewards[mover[i]]

    def _prove_up(self, path: list[int]) -> None:
        """Carry a proof up the path while parents become proven (MCTS-Solver)."""
        proof, first, count, mover = self.proof, self.first, self.count, self.mover
        for k in range(len(path) - 1, 0, -1):
            parent = path[k - 1]
            f = first[parent]
            best, complete = -UNPROVEN, True
            for i in range(f, f + count[parent]):
                p = proof[i]
                if p == UNPROVEN:
                    complete = False
                elif p > best:
                    best = p
            if not (complete or best > EVAL_LIMIT):
                return
            if parent == 0:
                self.root_proof = best
                return
            # ``best`` is the value for the side to move at the parent (the children's mover).
            value = best if mover[f] == mover[parent] else -best
            proof[parent] = _older(value)

    # -- lines -------------------------------------------------------------------

    def _rank(self, i: int) -> tuple:
        """Order of children: proven wins (shortest first), then by visits and mean,
        proven losses last (longest first)."""
        p = self.proof[i]
        if p != UNPROVEN and p > EVAL_LIMIT:
            return (2, p, 0.0)
        if p != UNPROVEN and p < -EVAL_LIMIT:
            return (0, p, 0.0)
        n = self.visits[i]
        return (1, n, self.total[i] / n if n else 0.0)

    def _best_child(self, node: int) -> int:
        f = self.first[node]
        return max(range(f, f + self.count[node]), key=self._rank)

    def _lines(self, multipv: int) -> list[Line]:
        f = self.first[0]
        children = sorted(range(f, f + self.count[0]), key=self._rank, reverse=True)
        return [self._line(i) for i in children[:max(1, multipv)]]

    def _line(self, child: int) -> Line:
        """The line through root child ``child``: most visited children while visited."""
        pv = [self.move[child]]
        node = child
        while self.first[node] >= 0 and len(pv) < MAX_PLY:
            node = self._best_child(node)
            if not self.visits[node] and self.proof[node] == UNPROVEN:
                break
            pv.append(self.move[node])
        n = self.visits[child]
        if self.players > 2:
            sums = self.root_sums[child - self.first[0]]
            vector = tuple(round(s / n * self.value_sum) if n else self.value_sum // self.players for s in sums)
            r = self.root_turn
            return Line(vector[r] - max(vector[:r] + vector[r + 1:]), pv, vector)
        p = self.proof[child]
        if p != UNPROVEN:
            return Line(p, pv)
        # The mean with one win and one loss added (Laplace's rule): a move tried once
        # and won is 2/3, not a certain win.
        return Line(win_rate_cp((self.total[child] + 1) / (n + 2)), pv)
