"""Exact knowledge in play: the games' tables and solvers behind the search and the root.

A game that knows some positions exactly says so through its optional
``exact(config)`` (see :class:`engine.game.Exact`); this module knows no game by
name. :class:`Endgames` holds the providers of one :class:`engine.game.ExactConfig`
(made on first use per game object, then prepared), gives the search its table
hook (:meth:`Endgames.hook`) and answers at the root with a best move and its
exact score, without searching (:meth:`Endgames.oracle`).

Making a provider is cheap (it may read the headers of its files, to check each
against its role); slow work (building or reading a table, solving a whole small
game) is done by its ``prepare(control)``, which raises
:class:`engine.control.Stopped` when the control expires and resumes where it
stopped on the next call. Until it has finished, the game has no hook and no
oracle, unless the provider says it is ``usable`` meanwhile (with part of its
tables). Root solvers (``best``) take the control too and give up the same way.

Table defects are reported through ``config.report``: those found while the
provider is made as an option is set (:meth:`Endgames.check`) are returned to the
caller instead, so they come out as the option's answer. Any other failure of a
provider (an exception while it is made or prepared) is reported the same way and
leaves the game without exact knowledge: the search plays on.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Callable

from engine.control import Control, Stopped
from engine.driver import NO_TABLES, TableHook
from engine.game import WIN, WIN_BOUND, Exact, ExactConfig, Game, Move, Position, describe, is_proven, mate_plies, \
    result_score
from engine.oracle import Context, RootAnswer, answer_info
from engine.timeman import Limits

#: Longest line :meth:`Endgames.principal_line` follows (no game here lasts longer).
LINE_LIMIT = 400



class Endgames:
    """The exact providers of every game under one configuration.

    Providers are made on first use per game object (a Kalah table may be built then).
    Table files that cannot be read are reported to ``config.report``.
    """

    #: Root answers play perfectly: limited strength keeps them from weak levels.
    exact = True

    def __init__(self, config: ExactConfig | None = None):
        self.config = config if config is not None else ExactConfig()
        self._providers: dict[int, tuple[Game, Exact | None, bool]] = {}
        #: Positions looked up by :meth:`best` so far: the work of a table's root answer.
        self.probes = 0
        #: Held while a provider is made or prepared: by a go's worker, or by the
        #: background preparation of ``isready``, never both.
        self._lock = threading.Lock()
        #: ``(thread id, texts)`` while :meth:`check` collects the reports of that thread.
        self._collecting: tuple[int, list[str]] | None = None

    def configure(self, config: ExactConfig) -> None:
        """Play under ``config`` from now on: providers are made afresh when next needed.
        Waits for a preparation in progress, which must have been asked to stop."""
        with self._lock:
            self.config = config
            for _, provider, _ in self._providers.values():
                if provider is not None:
                    provider.close()
            self._providers = {}

    def set_threads(self, threads: int) -> None:
        """``Threads`` changed: the providers made so far use ``threads`` processes from
        now on (the others are made with them). Waits as :meth:`configure` does."""
        with self._lock:
            self.config = replace(self.config, threads=threads)
            for _, provider, _ in self._providers.values():
                if provider is not None:
                    provider.set_threads(threads)

    def provider(self, game: Game, control: Control | None = None) -> Exact | None:
        """The exact provider of ``game`` once it is prepared, or ``None`` when the game
        has none. Raises :class:`engine.control.Stopped` when ``control`` expires first
        (the preparation resumes at the next call)."""
        entry = self._providers.get(id(game))
        if entry is not None and entry[0] is game and entry[2]:
            return entry[1]
        control = control if control is not None else Control()
        while not self._lock.acquire(timeout=0.005):
            control.check()
        try:
            entry = self._providers.get(id(game))
            if entry is None or entry[0] is not game:
                entry = self._providers[id(game)] = (game, self._make(game), False)
            provider = entry[1]
            if not entry[2]:
                if provider is not None:
                    try:
                        provider.prepare(control)
                    except Stopped:
                        # A provider usable before it is fully prepared (chess's Syzygy
                        # files admitted as their checksums pass) serves this go as it is.
                        if provider.usable:
                            return provider
                        raise
                    except Exception as e:  # noqa: BLE001 - a provider's defect must not end play
                        self._failed(game, e)
                        provider = None
                self._providers[id(game)] = (game, provider, True)
            return provider
        finally:
            self._lock.release()

    def check(self, game: Game) -> list[str]:
        """Make the provider of ``game`` now (an option it depends on was just set) and
        return the defects found meanwhile (texts for ``info string``), rather than
        reporting them: the caller answers the option with them."""
        with self._lock:
            entry = self._providers.get(id(game))
            if entry is not None and entry[0] is game:
                return []
            notes: list[str] = []
            self._collecting = (threading.get_ident(), notes)
            try:
                self._providers[id(game)] = (game, self._make(game), False)
            finally:
                self._collecting = None
        return notes

    def _make(self, game: Game) -> Exact | None:
        """A new provider of ``game`` (``None``: the game has none, or making it failed)."""
        try:
            return game.exact(replace(self.config, report=self._report))
        except Exception as e:  # noqa: BLE001 - reported; the game plays on without
            self._failed(game, e)
            return None

    def _report(self, text: str) -> None:
        collecting = self._collecting
        if collecting is not None and collecting[0] == threading.get_ident():
            collecting[1].append(text)
        else:
            self.config.report(text)

    def _failed(self, game: Game, error: Exception) -> None:
        self._report(f"error: {game.name} exact knowledge: {error}; playing on without it")

    def hook(self, game: Game, control: Control | None = None) -> TableHook:
        """The search's table hooks for ``game``: none while its provider is not
        prepared (the search goes without; the next go resumes the preparation)."""
        try:
            provider = self.provider(game, control)
        except Stopped:
            return NO_TABLES
        if provider is None:
            return NO_TABLES
        report = None
        if provider.follow_lines:
            # Margin scores (Kalah seeds, reversi discs) carry no distance: the reporter
            # follows the PV to the game's end so that they print as ``score mate N``.
            def report(root: Position, pv: list[Move], score: int):
                return self.report(game, root, pv, score, control)
        return TableHook(_scorer(provider, control), provider.probe_depth, report)

    def best(self, game: Game, pos: Position, control: Control | None = None) -> tuple[int, int] | None:
        """``(move, score)``: a best move of ``pos`` and its exact score, or ``None``
        when the position is not covered. Leaves ``pos`` as it found it; raises
        :class:`engine.control.Stopped` when ``control`` expires first."""
        provider = self.provider(game, control)
        if provider is None:
            return None
        if type(provider).best is not Exact.best:
            return provider.best(pos, control)
        moves = pos.legal_moves()
        if not moves or pos.outcome() is not None:
            return None
        best = None
        turn = pos.turn
        score = _scorer(provider, control)
        for move in moves:
            pos.push(move)
            self.probes += 1
            try:
                v = score(pos)
                if v is None:
                    outcome = pos.outcome()
                    if outcome is not None or not pos.legal_moves():
                        v = result_score(outcome if outcome is not None else pos.no_moves_value(), 0)
                changed = pos.turn != turn
            finally:
                pos.pop()
            if v is None:
                return None
            # One ply further from the end; margins do not depend on the distance.
            if v >= WIN_BOUND:
                v -= 1
            elif v <= -WIN_BOUND:
                v += 1
            if changed:
                v = -v
            if best is None or v > best[1]:
                best = (move, v)
        return best

    def principal_line(self, game: Game, pos: Position, first: Move,
                       control: Control | None = None) -> list[Move] | None:
        """The exact line from ``pos`` starting with ``first``: best moves of the provider
        to the game's end, or ``None`` when a position on the way is not covered.
        Leaves ``pos`` as it found it."""
        return self.extend(game, pos, [first], control)

    def extend(self, game: Game, pos: Position, pv: list[Move],
               control: Control | None = None) -> list[Move] | None:
        """``pv`` (legal from ``pos``) continued by the provider's best moves to the
        game's end, or ``None`` when a move is not legal or a position on the way is
        not covered. Leaves ``pos`` as it found it; raises
        :class:`engine.control.Stopped` when ``control`` expires first."""
        line: list[Move] = []
        try:
            for move in pv:
                if pos.outcome() is not None or move not in pos.legal_moves():
                    return None
                line.append(move)
                pos.push(move)
            while len(line) < LINE_LIMIT and pos.outcome() is None and pos.legal_moves():
                found = self.best(game, pos, control)
                if found is None:
                    return None
                line.append(found[0])
                pos.push(found[0])
        finally:
            for _ in line:
                pos.pop()
        return line

    def report(self, game: Game, pos: Position, pv: list[Move], score: int,
               control: Control | None = None) -> tuple[int, list[Move]] | None:
        """The search's reporting hook (``Searcher.tb_report``): a proven score without
        a distance and its PV become a win or loss in as many plies as the PV extended
        to the game's end, so that it prints as ``score mate N``."""
        try:
            line = self.extend(game, pos, pv, control) if pv else None
        except Stopped:
            return None
        if not line:
            return None
        return (WIN - len(line) if score > 0 else len(line) - WIN), line

    def __call__(self, game: Game, pos: Position, limits: Limits, context: Context) -> RootAnswer | None:
        """Root oracle (:class:`engine.oracle.Oracle`): the exact move, reported with
        its exact score; ``None`` when not covered or when the go's control expires first."""
        return self.oracle(game, pos, limits, context.control)

    def oracle(self, game: Game, pos: Position, limits: Limits,
               control: Control | None = None) -> RootAnswer | None:
        """The exact move of ``pos`` and its score, or ``None``.

        The reported line runs to the game's end. A proven result whose score has no
        distance (Kalah and reversi margins) is reported as a win or loss in as many
        plies as that line has, so that it prints as ``score mate N``; the margin goes
        to the note (``exact: win by 12 discs in 9 moves``). A provider with its own
        ``root`` (chess's tables) answers by its own rules, without a note."""
        t0 = time.perf_counter()
        try:
            provider = self.provider(game, control)
        except Stopped:
            return None
        if provider is None:
            return None
        if type(provider).root is not Exact.root:
            moves = pos.legal_moves()
            if limits.searchmoves:
                moves = [m for m in moves if m in limits.searchmoves] or moves
            answer = provider.root(pos, moves, control) if moves else None
            return None if answer is None else answer_info(answer[0], answer[1], answer[2], t0, answer[3],
                                                           nodes=answer[3])
        work = self._work(provider)
        try:
            found = self.best(game, pos, control)
        except Stopped:
            return None
        if found is None:
            return None
        move, score = found
        if limits.searchmoves and move not in limits.searchmoves:
            return None
        try:
            line = self.principal_line(game, pos, move, control) or [move]
        except Stopped:
            line = [move]
        complete = len(line) > 1 or _ends(pos, move)
        words = describe(score, len(line) if complete else None, provider.margin_unit)
        if is_proven(score) and mate_plies(score) is None and complete:
            score = WIN - len(line) if score > 0 else len(line) - WIN
        return answer_info(move, score, line, t0, len(line), nodes=max(1, self._work(provider) - work),
                           note=f"exact: {words}")

    def _work(self, provider: Exact) -> int:
        """Positions examined so far for root answers: the nodes of a provider that
        searches (its ``solver`` counts them in ``nodes``), or else the table probes."""
        nodes = provider.nodes()
        return self.probes if nodes is None else nodes


def _scorer(provider: Exact, control: Control | None) -> Callable[[Position], int | None]:
    """``provider.score``, given the go's control when the provider takes one (a solver
    that may run longer than a move has answers ``None`` once the control expires)."""
    if control is not None and provider.uses_control:
        return lambda pos: provider.score(pos, control)  # type: ignore[call-arg]
    return provider.score


def _ends(pos: Position, move: Move) -> bool:
    """True if ``move`` ends the game."""
    pos.push(move)
    try:
        return pos.outcome() is not None or not pos.legal_moves()
    finally:
        pos.pop()
