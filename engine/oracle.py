"""Root oracles: answers at the root of a ``go`` that need no search.

An oracle is called as ``oracle(game, pos, limits, context)`` and returns a
:class:`RootAnswer` or ``None`` (let the search decide). It must leave ``pos`` as
it found it. :class:`engine.engine.Engine` lists its oracles in order in one
place (the opening book, the ``go mate`` prover, the game's exact knowledge);
this module defines what they share and the prover, which works for any game.

``exact`` on an oracle tells limited strength (:mod:`engine.skill`) what it may
use: knowledge that plays perfectly (``True``) is kept from weak levels, a book
(``False``) only from their later plies.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Protocol

from engine.control import Control
from engine.game import NO_MOVE, WIN, Game, Move, Position
from engine.options import EngineOptions
from engine.pns import find_mate
from engine.search import Info
from engine.timeman import Limits


@dataclass
class RootAnswer:
    """A move an oracle (book, endgame table) chooses without searching."""

    #: ``NO_MOVE``: nothing to play; only the note is reported and the search decides.
    move: Move
    #: Reported before the move when given (e.g. a table score with its PV).
    info: Info | None = None
    #: An ``info string`` text, e.g. ``"book move e2e4 (weight 120)"``.
    note: str = ""


@dataclass(frozen=True)
class Context:
    """What an oracle may know of the go it answers."""

    #: The go's control: its stop flag and the deadline of the work before the search.
    control: Control
    #: The options in force.
    options: EngineOptions
    #: Plies played since the position text of the last ``position`` command.
    played: int
    #: Sends an ``info string`` text to the running go.
    report: Callable[[str], None]


class Oracle(Protocol):
    """A root oracle (see the module doc)."""

    exact: bool

    def __call__(self, game: Game, pos: Position, limits: Limits, context: Context) -> RootAnswer | None: ...


def answer_info(move: Move, score: int, pv: list[Move], started: float, hits: int, *, nodes: int,
                depth: int | None = None, note: str = "") -> RootAnswer:
    """A root answer reporting ``score`` with its line ``pv``, found since ``started``
    (``time.perf_counter()``) after examining ``nodes`` positions (a solver's nodes,
    a table's probes: what GUIs divide by the time) and ``hits`` table probes. The
    depth is the line's plies unless given."""
    ms = int((time.perf_counter() - started) * 1000)
    depth = len(pv) if depth is None else depth
    info = Info(depth=depth, seldepth=depth, multipv=1, score=score, bound=None, nodes=nodes,
                time_ms=ms, nps=nodes * 1000 // max(ms, 1), hashfull=0, tbhits=hits, pv=pv)
    return RootAnswer(move, info, note)


class MateProver:
    """``go mate N``: a proof of the shortest forced win within N moves, any game
    (a depth-limited proof-number search, :func:`engine.pns.find_mate`). A proof
    answers with ``score mate N`` and its line; a disproof reports ``no mate found``
    and leaves the move to the search."""

    exact = True

    def __call__(self, game: Game, pos: Position, limits: Limits, context: Context) -> RootAnswer | None:
        if not limits.mate:
            return None
        if len(game.players) > 2:
            # A proof of a forced win is a two-player notion here: the search answers instead,
            # searching no further than the bound (engine.multiplayer).
            return RootAnswer(NO_MOVE, note=f"go mate: no proofs for {len(game.players)} players; "
                                            f"searching {limits.mate} rounds")
        start = time.perf_counter()
        # The go's control carries the stop flag and the share of the clock left to oracles.
        found = find_mate(game, pos, limits.mate, max_nodes=limits.nodes, should_stop=context.control.expired)
        if found.found is None:
            return None
        if not found.found:
            return RootAnswer(NO_MOVE, note="no mate found")
        assert found.plies is not None  # a found mate has its length
        return answer_info(found.pv[0], WIN - found.plies, found.pv, start, 0, depth=found.plies,
                           nodes=found.nodes)


class ClosingMove:
    """The game's closing move (:meth:`engine.game.Game.closing_move`): a move that ends
    the game won, played without searching; the search's own count of the end (the
    rules' outcome) may differ from the one the game is scored by (Go's dead stones)."""

    exact = True

    def __call__(self, game: Game, pos: Position, limits: Limits, context: Context) -> RootAnswer | None:
        move = game.closing_move(pos)
        if move is None:
            return None
        return RootAnswer(move, note=f"{pos.move_text(move)} ends the game won")
