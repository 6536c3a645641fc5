"""The engine facade: options, the selected game, the current position and the search.

The protocol server talks only to :class:`Engine`. It never prints: results
reach the caller through callbacks, which :meth:`Engine.go` calls from its
worker thread.

The games come from the registry handed to :class:`Engine` (the ``games``
package in the server); nothing here knows a game by name.

A ``go`` makes one :class:`engine.clock.Clock`, stamped with the arrival of the
go line, and runs, in a worker thread, first the table hook of the current game
(:func:`engine.session.table_hook`, the game's exact knowledge prepared on first
use, handed to the search it is made for), then the root oracles in the order :attr:`Engine.oracles` lists them (the
opening book when ``OwnBook`` is on, the ``go mate`` prover, the game's exact
knowledge, the game's closing move; see :mod:`engine.oracle`), then the search (:mod:`engine.driver`
with the game's strategy, :attr:`Engine.searcher`). All of them share the go's
clock and its :class:`engine.control.Control`: a ``stop`` reaches whichever
runs, or is about to, and what the oracles spend is simply time gone from the
same clock. In ponder and infinite mode the best move is held back until
:meth:`Engine.stop` or :meth:`Engine.ponderhit`, as UCI requires, even when the
search ends by itself (mate found, maximum depth).

A ``go`` after a refused ``position`` (or refused rules: an unknown
``UCI_Variant``, ``UCI_Chess960``, a game parameter) answers no move, with one
error message: a move for the position kept would be a move for another
position than the one the GUI believes it sent.

Clocks: UCI's ``wtime``/``btime`` belong to the players named ``"white"`` and
``"black"`` in ``Game.players`` (so in English checkers, where Black moves
first, ``btime`` is player 0's clock). For games whose players have other
names, ``wtime`` is player 0's clock, the first mover, as in Fairy-Stockfish.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import Any, Callable, cast

from pydantic import BaseModel
from pydantic_core import to_json

from engine import options as opt
from engine.book import EngineBook
from engine.clock import Clock
from engine.control import Control, Stopped
from engine.driver import Line, SearchResult, TableHook
from engine.driver import search as drive
from engine.endgame import Endgames
from engine.game import NO_MOVE, Game, Move, Position, Registry
from engine.mcts import MCTSSearcher
from engine.multiplayer import MultiplayerSearcher
from engine.oracle import ClosingMove, Context, MateProver, Oracle, RootAnswer
from engine.perft import divide
from engine.session import Networks, exact_settings, table_hook
from engine.settings import EngineSettings
from engine.search import Info, Searcher
from engine.skill import Skill, level_of
from engine.smp import Helpers, line_texts, mcts_settings, parse_line, pick, root_parallel
from engine.timeman import Limits
from engine.tt import TranspositionTable

#: A search worker: what a strategy of :data:`STRATEGIES` makes.
Strategy = Searcher | MultiplayerSearcher | MCTSSearcher


@dataclass(frozen=True)
class StrategyEntry:
    """How the engine makes a strategy's worker over its table, and sets it up from the
    options at each use."""

    make: Callable[[TranspositionTable], Strategy]
    configure: Callable[[Any, opt.EngineOptions, Any], None] = lambda worker, options, line: None


def _configure_alphabeta(worker: Searcher, options: opt.EngineOptions, line: Any) -> None:
    worker.configure(opt.search_params(options))


def _configure_multiplayer(worker: MultiplayerSearcher, options: opt.EngineOptions, line: Any) -> None:
    worker.algorithm = options.multiplayer_search


def _configure_mcts(worker: MCTSSearcher, options: opt.EngineOptions, line: tuple[str | None, list[str]]) -> None:
    # ``Strategy auto`` chooses Monte-Carlo only where it was measured with RAVE.
    worker.rave = options.rave or options.strategy == "auto"
    worker.heavy = options.playouts == "heavy"
    worker.line = line  # where the next search is, for the tree kept from the last


#: The search strategies by name (``Strategy``, and ``multiplayer`` for games scored by
#: value vectors): a new strategy is one entry here.
STRATEGIES: dict[str, StrategyEntry] = {
    "alphabeta": StrategyEntry(lambda table: Searcher(tt=table), _configure_alphabeta),
    "multiplayer": StrategyEntry(lambda table: MultiplayerSearcher(tt=table), _configure_multiplayer),
    "mcts": StrategyEntry(lambda table: MCTSSearcher(tt=table), _configure_mcts),
}

InfoCallback = Callable[["Info", list[str]], None]
BestmoveCallback = Callable[["str | None", "str | None"], None]
MessageCallback = Callable[[str], None]


@dataclass
class _Job:
    """One ``go``: its callbacks and the flags shared by the worker and the caller."""

    on_info: InfoCallback
    on_bestmove: BestmoveCallback
    on_message: MessageCallback
    root: Position  # the searched position; PVs become text on it while the search is at the root
    hold: bool  # bestmove waits for stop/ponderhit
    ponder: bool
    clock: Clock  # the go's clock, with its control (stop flag, deadline)
    #: Why this go may not answer a move (a refused position or rules), else ``None``.
    refused: str | None = None
    result: tuple[str | None, str | None] | None = None
    delivered: bool = False
    #: Given up after it ignored stop: its callbacks are silenced (see :meth:`Engine.abandon`).
    abandoned: bool = False

    @property
    def control(self) -> Control:
        return self.clock.control

    def info(self, info: Info, texts: Callable[[], list[str]]) -> None:
        if not self.abandoned:
            self.on_info(info, texts())

    def say(self, text: str) -> None:
        if not self.abandoned:
            self.on_message(text)


class Engine(EngineSettings):
    """Options, game, position and search behind one thread-safe facade.

    >>> import games
    >>> e = Engine(games)
    >>> e.set_option("UCI_Variant", "nim")
    []
    >>> e.set_position(None, ["2", "1"])
    >>> e.position.to_text()
    '4 1'
    """

    def __init__(self, registry: Registry) -> None:
        #: The games this engine may play.
        self.registry = registry
        self.options = opt.EngineOptions()
        #: Game parameters set through options (validated), per game name.
        self.game_params: dict[str, BaseModel] = {}
        #: The opening book (an oracle; ``rng`` may be seeded).
        self.book_probe = EngineBook()
        #: The exact knowledge of the games under the current options: the search's
        #: table hook and a root oracle (reconfigured when an option it depends on changes).
        self.endgames = Endgames(self._exact_config(self.options))
        #: The root oracles, in the order they are asked; the first legal move answered
        #: is played without a search.
        self.oracles: list[Oracle] = [self.book_probe, MateProver(), self.endgames, ClosingMove()]
        #: Refused input that makes a go answer no move: ``"position"`` or an option
        #: name -> (the game whose rule it is, ``None`` for every game; the reason).
        #: A refused parameter of a game blocks only that game (see :meth:`in_force`).
        self.refusals: dict[str, tuple[str | None, str]] = {}
        self._game: Game | None = None
        self._pos: Position | None = None
        #: The networks read for ``EvalFile`` or shipped (a file refused at a game switch or
        #: a parameter change is said once, the hand-written evaluation stays).
        self.networks = Networks()
        self.root_text: str | None = None
        self.moves: list[str] = []
        #: The transposition table (``Hash``) every search worker uses, made on first use.
        self._table: TranspositionTable | None = None
        #: The workers of the strategies (:data:`STRATEGIES`) by name, made on first use.
        self._workers: dict[str, Strategy] = {}
        #: The helper processes of ``Threads`` over the same table (Lazy SMP), once
        #: ``Threads`` > 1 was set.
        self._helpers: Helpers | None = None
        self._lock = threading.Lock()
        self._job: _Job | None = None
        self._thread: threading.Thread | None = None
        self._prepare_control = Control()
        self._prepare_thread: threading.Thread | None = None
        #: Position text of the searched position, for readers while it is searched.
        self._go_text: str | None = None
        #: Move lookup of one position: (position, key, legal moves by text, other texts tried).
        self._move_cache: tuple[Position, int, dict[str, Move], dict[str, Any]] | None = None
        #: Limited strength (``Skill Level``, ``UCI_Elo``): gates the oracles, weakens the search.
        self.skill = Skill()
        #: Where notes found outside a go go (a table defect met by the background
        #: preparation of ``isready``); called from any thread.
        self.on_message: MessageCallback | None = None

    # -- state -----------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The selected game (``UCI_Variant``) with its parameters, loaded on first use."""
        if self._game is None:
            self._game = self._load_game(self.options.variant)
        return self._game

    @property
    def position(self) -> Position:
        """The current position (start position plus the moves of the last ``position``).

        While a search runs on it, a copy made from its text is returned instead, so
        that ``d`` and ``query`` never read a position in the middle of the search.
        """
        if self.is_searching() and self._go_text is not None:
            return self.game.new_position(self._go_text)
        if self._pos is None:
            self._pos = self._replay(self.root_text, self.moves)
        return self._pos

    @property
    def strategy(self) -> str:
        """The entry of :data:`STRATEGIES` in use: ``Strategy`` (under ``auto`` the game's
        choice), where alpha-beta on a game scored by value vectors is ``multiplayer``."""
        name = self.game.auto_strategy() if self.options.strategy == "auto" else self.options.strategy
        return "multiplayer" if name == "alphabeta" and self.game.value_sum else name

    @property
    def searcher(self) -> Strategy:
        """The worker of :attr:`strategy` over the engine's table (``Hash`` MB), made on first use."""
        name = self.strategy
        strategy = STRATEGIES[name]
        worker = self._workers.get(name)
        if worker is None:
            worker = self._workers[name] = strategy.make(self.table)
        strategy.configure(worker, self.options, (self.root_text, list(self.moves)))
        return worker

    @property
    def table(self) -> TranspositionTable:
        """The transposition table (``Hash`` MB) of every search worker, made on first use."""
        if self._table is None:
            self._table = TranspositionTable(self.options.hash)
        return self._table

    def _searchers(self) -> list[Strategy]:
        """The searchers made so far."""
        return list(self._workers.values())

    @property
    def control(self) -> Control:
        """The running go's control (stop flag, deadline of the work before the search),
        or one that never stops outside a go."""
        job = self._job
        return job.control if job is not None and not job.delivered else Control()

    def prepare(self) -> None:
        """Get ready for the next go (``isready``): position and hash table now, slow
        initialisation (game tables) in a background thread. Returns at once; the next
        go stops that thread and builds what is still missing under its own control."""
        self.position
        self.searcher
        thread = self._prepare_thread
        # A preparation asked to stop (a table option changed) may not have ended yet:
        # it prepares what is stale, so a new one starts beside it.
        if thread is not None and thread.is_alive() and not self._prepare_control.stopped:
            return
        self._prepare_control = control = Control()
        self._prepare_thread = threading.Thread(target=self._run_prepare, args=(control,),
                                                name="prepare", daemon=True)
        self._prepare_thread.start()

    def _run_prepare(self, control: Control) -> None:
        # The current game's exact knowledge (tables read or built on first use).
        try:
            self.endgames.provider(self.game, control)
        except Stopped:
            return
        except Exception:  # noqa: BLE001 - the go that needs the tables reports the failure
            pass

    def end_prepare(self) -> None:
        """Ask the background preparation to stop (it ends at its next check)."""
        self._prepare_control.stop()

    def report(self, text: str) -> None:
        """An ``info string`` for the running go (e.g. a table defect found mid-search),
        or for :attr:`on_message` when no go runs."""
        job = self._job
        if job is not None and not job.delivered:
            job.say(text)
        elif self.on_message is not None:
            self.on_message(text)

    def context(self) -> Context:
        """What the root oracles are told of the current go (or of none)."""
        return Context(control=self.control, options=self.options, played=len(self.moves), report=self.report)

    def clock_players(self) -> tuple[int, int]:
        """Player numbers whose clocks UCI calls ``wtime`` and ``btime``."""
        players = self.game.players
        if "white" in players and "black" in players:
            return players.index("white"), players.index("black")
        return 0, 1

    def game_over(self) -> bool:
        """True when the current position ends the game (no move, or a rule ends it)."""
        pos = self.position
        return pos.outcome() is not None or not pos.legal_moves()

    def winner(self) -> int | None:
        """Player number of the winner of a finished game; ``None`` for a draw or a game in play.

        With more than two players the winner is the sole first place; a first place
        shared by several players is a draw.
        """
        ranking = self.ranking()
        if ranking is None or ranking.count(1) != 1:
            return None
        return ranking.index(1)

    def ranking(self) -> list[int] | None:
        """Each player's place in a finished game (1 = first, ties share a place), or
        ``None`` while it is in play; two-player games rank by their outcome."""
        ranking = self.position.ranking()
        return None if ranking is None else list(ranking)

    def divide(self, depth: int, control: Control | None = None) -> list[tuple[str, int]]:
        """Perft below each root move of the current position; raises
        :class:`engine.control.Stopped` when ``control`` is stopped first."""
        refused = self.in_force()
        if refused:
            raise ValueError(refused[0])
        return divide(self.position.copy(), depth, control)

    def display(self) -> list[str]:
        """The board, the position text, the key, the legal moves and any refusal
        in force (a go then answers no move), as lines."""
        pos = self.position
        return [*pos.render().splitlines(), "",
                f"Game: {self.game.name}",
                f"Text: {pos.to_text()}",
                f"Key: {pos.key & 0xFFFF_FFFF_FFFF_FFFF:016X}",
                f"To move: {self.game.players[pos.turn]}",
                *self._evaluation_line(pos),
                *(f"Refused: {reason}" for reason in self.in_force()),
                "Legal moves: " + " ".join(pos.move_text(m) for m in pos.legal_moves())]

    def _evaluation_line(self, pos: Position) -> list[str]:
        """``Evaluation: +12 (network FILE)`` or ``(hand-written)`` for a game with network inputs."""
        if self.game.inputs is None:
            return []
        source = "hand-written" if pos.network is None else f"network {self._network_path(self.game, self.options)}"
        return [f"Evaluation: {pos.evaluate():+d} ({source})"]

    # -- search ----------------------------------------------------------------

    def is_searching(self) -> bool:
        """True from :meth:`go` until its bestmove has been delivered."""
        job = self._job
        return job is not None and not job.delivered

    def go(self, limits: Limits, on_info: InfoCallback, on_bestmove: BestmoveCallback,
           on_message: MessageCallback | None = None, started: float | None = None) -> None:
        """Search the current position in a worker thread; returns at once.

        ``on_info(info, pv_texts)`` reports progress (PV already in move text,
        cut at the first illegal move); ``on_bestmove(move, ponder)`` is called
        exactly once, with ``None`` when there is no legal move (or the last
        position was refused), and in ponder/infinite mode only after :meth:`stop`
        or :meth:`ponderhit`; ``on_message(text)`` carries notes (book move,
        errors). All three are called from the worker thread, or from the thread
        calling :meth:`stop`/:meth:`ponderhit` when a held move is released.
        ``started`` (``time.perf_counter()``) is when the go arrived: the clock
        counts from there.
        """
        self._require_idle()
        pos = self.position
        searcher = self.searcher
        refused = "; ".join(self.in_force()) or None
        if self._helpers is not None and len(self._helpers):
            # Here, on the thread that started them: replacing a dead helper starts one.
            self._helpers.ready(self.table)
        self._go_text = pos.to_text()
        # The one clock of this go: the oracles, the table builds and the search spend it.
        clock = Clock(limits, pos.turn, self.options.move_overhead, started=started)
        job = _Job(on_info, on_bestmove, on_message or (lambda text: None), pos,
                   hold=limits.ponder or limits.infinite, ponder=limits.ponder, clock=clock,
                   refused=refused)
        self._job = job
        self._thread = threading.Thread(target=self._work, name="search", daemon=True,
                                        args=(job, searcher, pos, limits))
        self._thread.start()

    def stop(self) -> None:
        """End the search quickly; its bestmove follows (also in ponder/infinite mode)."""
        job = self._job
        if job is not None:
            job.control.stop()
            self._release(job)

    def ponderhit(self) -> None:
        """The opponent played the expected move: the ponder search becomes a timed one."""
        job = self._job
        if job is not None and job.ponder and job.control.ponderhit_at is None:
            # The clock re-stamps: whatever runs (tables, the search) is timed from now.
            job.control.ponderhit()
            self._release(job)

    def _release(self, job: _Job) -> None:
        """Deliver a bestmove that was held back for a stop or ponderhit."""
        with self._lock:
            job.hold = False
            ready = job.result is not None and not job.delivered
        if ready:
            self._deliver(job)

    def abandon(self) -> None:
        """Give up on a search that did not end after :meth:`stop` (a defect): deliver a
        legal move now and leave its thread, searcher and position to it.

        Later searches get a new searcher and a position replayed from the protocol
        text, so the stray thread can corrupt nothing; its callbacks are silenced.
        """
        job = self._job
        if job is None:
            return
        with self._lock:
            if job.delivered:
                return
            job.abandoned = True
        if self._helpers is not None:
            self._helpers.stop()
        self._table, self._workers = None, {}
        self._pos = None
        self._move_cache = None
        root = self._replay(self.root_text, self.moves)
        moves = root.legal_moves()
        job.result = (root.move_text(moves[0]) if moves and not job.refused else None, None)
        self._deliver(job)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the worker thread to end; True if it did."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True

    def _require_idle(self) -> None:
        if self.is_searching():
            raise RuntimeError("a search is running; stop it first")

    def _work(self, job: _Job, searcher: Strategy, pos: Position,
              limits: Limits) -> None:
        try:
            best, ponder = self._choose(job, searcher, pos, limits)
            texts = line_texts(job.root, [m for m in (best, ponder) if m is not None])
        except Exception as e:  # a bug must still end in a legal bestmove
            if job.abandoned:
                return
            job.say(f"error: search failed: {e!r}")
            # The failure may have left the searched position mid-line: replay it.
            self._pos = None
            root = self._replay(self.root_text, self.moves)
            moves = [m for m in limits.searchmoves or root.legal_moves() if m in root.legal_moves()]
            texts = [root.move_text(moves[0])] if moves else []
        result = (texts[0] if texts else None, texts[1] if len(texts) > 1 else None)
        with self._lock:
            if job.result is None:
                job.result = result
            ready = not job.hold
        if ready:
            self._deliver(job)

    def _choose(self, job: _Job, searcher: Strategy, pos: Position,
                limits: Limits) -> tuple[Move | None, Move | None]:
        if job.refused:
            job.say(f"error: {job.refused}; no move for the position kept")
            return None, None
        legal = pos.legal_moves()
        if not legal:
            return None, None
        self.end_prepare()
        control = job.control
        # Until the search begins, the control's deadline is the clock's share for
        # table builds and oracles. The hook is the current game's, made at every go.
        tables = table_hook(self.endgames, self.game, control)
        if not (limits.ponder or limits.infinite or self.options.analyse_mode):
            allowed = limits.searchmoves or legal
            answer = self._ask_oracles(pos, limits, allowed, job.say, control)
            if answer is not None:
                if answer.note:
                    job.say(answer.note)
                info = answer.info
                if info is not None:
                    job.info(info, lambda: line_texts(job.root, info.pv))
                return answer.move, None

        def report(info: Info) -> None:
            job.info(info, lambda: line_texts(job.root, info.pv))

        helpers = self._start_helpers(job, pos, limits)
        if helpers is None:
            result = self.skill.search(searcher, self.game, pos, limits, self.options, tables,
                                       multipv=self.options.multipv, clock=job.clock, on_info=report)
            return result.best, result.ponder
        try:
            if isinstance(searcher, MCTSSearcher):  # root parallelism: each helper grows its own tree
                result = root_parallel(searcher, self.game, pos, limits, helpers, self.options.multipv,
                                       job.clock, report)
            else:
                result = self._search_with_helpers(job, cast(Searcher, searcher), pos, limits, tables,
                                                   helpers, report)
        finally:
            helpers.stop()
        return result.best, result.ponder

    def _search_with_helpers(self, job: _Job, searcher: Searcher, pos: Position, limits: Limits,
                             tables: TableHook, helpers: Helpers, report: Callable[[Info], None]) -> SearchResult:
        """The main worker's search while the helpers search (Lazy SMP): its reports count
        every worker's nodes, and the move is picked among every worker's last completed
        iteration."""

        def counted(info: Info) -> None:
            nodes = info.nodes + helpers.poll()
            report(replace(info, nodes=nodes, nps=nodes * 1000 // max(info.time_ms, 1)))

        # A depth, node or mate limit fixes the answer, and MultiPV's lines are the main
        # worker's: these keep its answer (a limited strength runs no helper at all).
        chooses = not (limits.depth or limits.nodes or limits.mate) and self.options.multipv == 1

        def conclude(depth: int, line: Line) -> tuple[int, Line]:
            results = helpers.finish()
            if not chooses:
                return depth, line
            allowed = limits.searchmoves or pos.legal_moves()
            candidates = [(depth, line.score, line.pv)]
            for helper_depth, score, texts in results:
                pv = parse_line(pos, texts)
                if pv and pv[0] in allowed:
                    candidates.append((helper_depth, score, pv))
            chosen = candidates[pick(candidates)]
            return chosen[0], Line(chosen[1], chosen[2])

        return drive(searcher, self.game, pos, limits, multipv=self.options.multipv, clock=job.clock,
                     on_info=counted, conclude=conclude, tables=tables)

    def _start_helpers(self, job: _Job, pos: Position, limits: Limits) -> Helpers | None:
        """Start the helpers on this search (Lazy SMP; Monte-Carlo's at the root), if ``Threads``
        has any and the search is two-player at full strength; returns them, to be stopped after it."""
        helpers = self._helpers
        if helpers is None or not len(helpers):
            return None
        for error in helpers.errors:
            job.say(f"error: {error}")
        helpers.errors.clear()
        if self.game.value_sum:
            job.say(f"Threads {self.options.threads}: games of more than two players are searched by one thread")
            return None
        if level_of(self.options) is not None:
            return None
        params = self.game_params.get(self.options.variant)
        helpers.start({"registry": helpers.registry, "variant": self.options.variant,
                       # Every field set, those left out of dumps too (Chess960): the helper
                       # must play the server's game, not the default one.
                       "params": None if params is None else to_json(
                           {f: getattr(params, f) for f in params.model_fields_set}).decode(),
                       "root": self.root_text, "moves": self.moves, "key": pos.key,
                       "network": "" if pos.network is None
                       else self._network_path(self.game, self.options),
                       # The same exact knowledge as the main worker's table hook.
                       "exact": exact_settings(self.endgames.config),
                       # What the main worker's new_search makes the table's generation.
                       "generation": self.table.generation % 255 + 1, "depth": limits.depth or 0,
                       "searchmoves": [pos.move_text(m) for m in limits.searchmoves or []],
                       "mcts": mcts_settings(self.searcher),
                       "search": opt.search_params(self.options)})
        return helpers

    def _ask_oracles(self, pos: Position, limits: Limits, legal: list[Move],
                     on_message: MessageCallback, control: Control) -> RootAnswer | None:
        context = Context(control=control, options=self.options, played=len(self.moves), report=self.report)
        for oracle in self.oracles:
            if control.stopped:
                return None
            if not self.skill.allows(oracle, self.options, context.played):
                continue
            answer = oracle(self.game, pos, limits, context)
            if answer is not None and answer.move in legal:
                return answer
            if answer is not None and answer.move == NO_MOVE and answer.note:
                # An oracle without a move may still report something (a bad book).
                on_message(answer.note)
        return None

    def _deliver(self, job: _Job) -> None:
        with self._lock:
            if job.delivered:
                return
            job.delivered = True
        assert job.result is not None  # set before any delivery
        job.on_bestmove(*job.result)

