"""Limited strength: ``Skill Level`` and ``UCI_LimitStrength``/``UCI_Elo``.

A weak level plays as a weaker player thinks, not as a strong one who throws
pieces away: it searches less (a node and depth cap and a smaller share of the
clock), looks at several candidate moves (a MultiPV search, as Stockfish's
``Skill`` does), and then picks among those whose loss against its own best
line stays within the level's *margin*, smaller losses being likelier
(weights ``exp(-loss / temperature)``). Both the search cap and the margin
shrink as the level rises; level 20 is the full-strength engine, untouched.

Scores of every game are in the same unit (100 = a pawn, a man, a seed in the
store, a Nim win), so one margin table serves all games; nothing here names a
game.

Exact knowledge would make a weak level perfect where it applies, so below
:data:`EXACT_LEVEL` the root oracles other than the book (endgame tables,
mate proofs, solvers) are skipped and the search runs without its table hook;
the book is used only for the first :func:`book_plies` plies.

``UCI_Elo`` maps to a fractional level through :data:`ELO_LEVELS`, measured
in chess against Stockfish 15.1 at its own ``UCI_Elo`` (``scripts/calibrate_elo.py``).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from engine.clock import Clock
    from engine.driver import TableHook
    from engine.game import Game, Position
    from engine.options import EngineOptions
    from engine.oracle import Oracle
    from engine.multiplayer import MultiplayerSearcher
    from engine.mcts import MCTSSearcher
    from engine.search import Info, Searcher, SearchResult
    from engine.timeman import Limits

MAX_LEVEL = 20
#: Candidate moves searched side by side at a limited level.
CANDIDATES = 4
#: From this level on, tables, proofs and solvers play as at full strength.
EXACT_LEVEL = 16
#: Scores beyond this (mates, proven wins) count as this much when losses are compared.
SCORE_CLAMP = 3000
#: From this level to 20 the node and depth caps open toward full strength's search.
OPEN_LEVEL = 19.0
#: Fraction of the (shrunk) soft time budget a timed weak move waits at least.
THINK_FLOOR = 0.5

#: ``(UCI_Elo, level)`` points, linear in between, measured in chess at 10+0.1 against
#: Stockfish 15.1 on the compiled build (docs/measured/strength.md, "Calibration of the
#: strength levels"): the weighted least-squares line through the rows of levels 8.8-18.3
#: (51 Elo a level) up to level 19, then to full strength as measured. The first and
#: last Elo bound ``UCI_Elo``'s range in engine/options.py.
ELO_LEVELS: tuple[tuple[int, float], ...] = ((944, 0.0), (1913, 19.0), (2130, 20.0))


@dataclass(frozen=True)
class Strength:
    """What one level may do: its search cap and how far its choice may stray."""

    level: float
    nodes: int
    depth: int
    #: Largest loss (score units, against its own best line) the level may choose.
    margin: int
    #: Loss at which a candidate is e (2.72) times less likely than the best one.
    temperature: float
    #: Share of the clock (and of ``movetime``) the level may spend.
    time_share: float


def strength(level: float) -> Strength:
    """The limits of a level in 0..20 (fractions interpolate).

    Above :data:`OPEN_LEVEL` the caps open: the node cap doubles every sixth of a
    level and the depth cap gains eight plies by level 20, so the levels just below
    full strength search about as deep as it does instead of stopping at a cap
    several plies short of it (a jump of about 300 Elo in chess at 10 s + 0.1 s).

    >>> s = strength(0); (s.nodes, s.depth, s.margin)
    (200, 1, 270)
    >>> s = strength(10); (s.nodes, s.depth, s.margin)
    (3200, 6, 150)
    >>> s = strength(19.5); (s.nodes, s.depth, s.margin)
    (356578, 14, 36)
    """
    level = max(0.0, min(float(level), MAX_LEVEL))
    weakness = MAX_LEVEL - level
    margin = round(30 + 12 * weakness)
    opening = max(0.0, level - OPEN_LEVEL)
    return Strength(level=level, nodes=round(200 * 2 ** (level / 2.5 + 6 * opening)),
                    depth=1 + int(level / 2) + int(8 * opening),
                    margin=margin, temperature=margin / 4, time_share=0.5 + 0.5 * level / MAX_LEVEL)


def elo_level(elo: int) -> float:
    """The level playing at ``elo`` (``ELO_LEVELS``, linear in between).

    >>> round(elo_level(1400), 2), elo_level(2130)
    (8.94, 20.0)
    """
    points = ELO_LEVELS
    if elo <= points[0][0]:
        return points[0][1]
    for (e0, l0), (e1, l1) in zip(points, points[1:]):
        if elo <= e1:
            return l0 + (l1 - l0) * (elo - e0) / (e1 - e0)
    return points[-1][1]


def level_of(options) -> float | None:
    """The engine's level from its options, ``None`` at full strength.

    ``UCI_LimitStrength`` with ``UCI_Elo`` comes first, as in Stockfish; then
    ``Skill Level`` below 20.
    """
    if options.limit_strength:
        level = elo_level(options.elo)
    else:
        level = float(options.skill_level)
    return level if level < MAX_LEVEL else None


def book_plies(level: float) -> int:
    """Plies from the start during which a weak level still plays book moves."""
    return 4 + int(level)


def pick(lines: list[tuple[int, list[int]]], s: Strength, rng: random.Random) -> int:
    """Index of the line to play among ``lines`` (``(score, pv)``, best first).

    A line is eligible when its loss against the best is within ``s.margin``;
    among those, weights ``exp(-loss / s.temperature)``.

    >>> pick([(50, [1]), (-900, [2])], strength(0), random.Random(1))
    0
    """
    top = _clamp(lines[0][0])
    weights = []
    for score, _ in lines:
        loss = top - _clamp(score)
        weights.append(math.exp(-loss / s.temperature) if loss <= s.margin else 0.0)
    r = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        r -= w
        if r < 0 and w > 0:
            return i
    return 0


def _clamp(score: int) -> int:
    return max(-SCORE_CLAMP, min(score, SCORE_CLAMP))


class Skill:
    """The engine's limited-strength play: gates its oracles and runs its searches.

    ``rng`` may be seeded for repeatable choices.
    """

    def __init__(self) -> None:
        self.rng = random.Random()

    @staticmethod
    def allows(oracle: Oracle, options: EngineOptions, played: int) -> bool:
        """Whether the level of ``options`` may take ``oracle``'s answer at the root,
        ``played`` plies into the game: exact knowledge from :data:`EXACT_LEVEL` on,
        a book in the first :func:`book_plies` plies."""
        level = level_of(options)
        if level is None:
            return True
        if not oracle.exact:
            return played < book_plies(level)
        return level >= EXACT_LEVEL

    def search(self, searcher: Searcher | MultiplayerSearcher | MCTSSearcher, game: Game, pos: Position,
               limits: Limits, options: EngineOptions, tables: TableHook, *, multipv: int, clock: Clock,
               on_info: Callable[[Info], None]) -> SearchResult:
        """:meth:`Searcher.search` at full strength; at a limited level, a capped
        MultiPV search on the level's share of ``clock`` (the go's, shared by both
        searches and the wait) and a pick among its lines (reported lines: ``multipv``)."""
        level = level_of(options)
        if level is None:
            return searcher.search(game, pos, limits, multipv=multipv, clock=clock, on_info=on_info, tables=tables)
        control = clock.control
        s = strength(level)
        clock.scale(s.time_share)
        weak = _weak_limits(limits, s)
        lines: dict[int, tuple[int, list[int]]] = {}

        def collect(info: Info) -> None:
            # Exact reports only: the last ones are the final lines, best first.
            if info.bound is None:
                lines[info.multipv - 1] = (info.score, info.pv)
            if info.multipv <= multipv:
                on_info(info)

        if level < EXACT_LEVEL:
            # Below it, the tables' exact values would play too well: the search goes without.
            tables = replace(tables, probe=None)
        result = searcher.search(game, pos, weak, multipv=max(multipv, CANDIDATES), clock=clock,
                                 on_info=collect, tables=tables)
        if result.depth == 0 and not control.stopped:
            # The node cap ended the search inside its first iteration (a tactical
            # position's quiescence): its move would be arbitrary. Complete depth 1.
            lines.clear()
            result = searcher.search(game, pos, replace(weak, nodes=limits.nodes, depth=1),
                                     multipv=max(multipv, CANDIDATES), clock=clock, on_info=collect, tables=tables)
        ranked = [lines[i] for i in sorted(lines) if lines[i][1]]
        if result.best is not None and ranked and ranked[0][1][0] == result.best:
            score, pv = ranked[pick(ranked, s, self.rng)]
            result = replace(result, best=pv[0], ponder=pv[1] if len(pv) > 1 else None, score=score, pv=pv)
        self._think(clock)
        return result

    @staticmethod
    def _think(clock: Clock) -> None:
        """In a timed game, wait until a share of the soft budget has passed since the
        go (or a ``stop``): a weak level answering at once would not look like a player."""
        until = clock.until(THINK_FLOOR)
        if until is None:
            return
        control = clock.control
        while not control.stopped and time.perf_counter() < until:
            time.sleep(min(0.01, max(0.0, until - time.perf_counter())))


def _weak_limits(limits: Limits, s: Strength) -> Limits:
    """``limits`` with the level's node and depth caps (its share of the clock is the clock's)."""
    nodes = min(limits.nodes, s.nodes) if limits.nodes else s.nodes
    depth = min(limits.depth, s.depth) if limits.depth else s.depth
    return replace(limits, nodes=nodes, depth=depth)
