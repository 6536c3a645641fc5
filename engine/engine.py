"""The engine facade: options, the selected game, the current position and the search.

The protocol server talks only to :class:`Engine`. It never prints: results
reach the caller through callbacks, which :meth:`Engine.go` calls from its
worker thread.

A ``go`` runs, in a worker thread, first the root oracles (the opening book
when ``OwnBook`` is on, then :attr:`Engine.oracles`, e.g. endgame tables),
then :meth:`engine.search.Searcher.search`. In ponder and infinite mode the
best move is held back until :meth:`Engine.stop` or :meth:`Engine.ponderhit`,
as UCI requires, even when the search ends by itself (mate found, maximum
depth).

Clocks: UCI's ``wtime``/``btime`` belong to the players named ``"white"`` and
``"black"`` in ``Game.players`` (so in English checkers, where Black moves
first, ``btime`` is player 0's clock). For games whose players have other
names, ``wtime`` is player 0's clock, the first mover, as in Fairy-Stockfish.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from pydantic import ValidationError

import games
from engine import options as opt
from engine.game import NO_MOVE, Game, IllegalMoveError, Move, Position
from engine.perft import divide

if TYPE_CHECKING:
    from engine.search import Info, Searcher
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


#: Consulted at the root before the search: ``(game, pos, limits) -> answer``.
#: It must leave ``pos`` as it found it and return ``None`` to let the search decide.
Oracle = Callable[[Game, Position, "Limits"], "RootAnswer | None"]

InfoCallback = Callable[["Info", list[str]], None]
BestmoveCallback = Callable[["str | None", "str | None"], None]
MessageCallback = Callable[[str], None]


@dataclass
class _Job:
    """One ``go``: its callbacks and the flags shared by the worker and the caller."""

    on_info: InfoCallback
    on_bestmove: BestmoveCallback
    on_message: MessageCallback
    root: Position  # private to the worker: turns PVs into text
    hold: bool  # bestmove waits for stop/ponderhit
    ponder: bool
    stopped: bool = False
    ponderhit: bool = False
    searching: bool = False  # inside Searcher.search: stop/ponderhit go straight to it
    result: tuple[str | None, str | None] | None = None
    delivered: bool = False


class Engine:
    """Options, game, position and search behind one thread-safe facade.

    >>> e = Engine()
    >>> e.set_option("UCI_Variant", "nim")
    []
    >>> e.set_position(None, ["2", "1"])
    >>> e.position.to_text()
    '4 1'
    """

    def __init__(self) -> None:
        self.options = opt.EngineOptions()
        #: Non-default game parameters set through options, per game name.
        self.game_params: dict[str, dict[str, Any]] = {}
        #: The opening book, consulted first when ``OwnBook`` is on.
        self.book_probe: Oracle | None = None
        #: Further root oracles (endgame tables, solved positions), in order.
        self.oracles: list[Oracle] = []
        #: Called with the engine after an option changed, by option field name
        #: (``"syzygy_path"``, ``"book_file"``, ...); a hook may raise
        #: :class:`engine.options.OptionError` to refuse the new value.
        self.option_hooks: dict[str, list[Callable[[Engine], None]]] = {}
        #: Slow initialisation run by :meth:`prepare` (tables built on first use).
        self.prepare_hooks: list[Callable[[], None]] = []
        self._game: Game | None = None
        self._pos: Position | None = None
        self.root_text: str | None = None
        self.moves: list[str] = []
        self._searcher: Searcher | None = None
        self._lock = threading.Lock()
        self._job: _Job | None = None
        self._thread: threading.Thread | None = None
        from engine import endgame, probe
        from engine.book import attach

        attach(self)
        endgame.attach(self)
        probe.attach(self)
        from engine.skill import Skill

        #: Limited strength (``Skill Level``, ``UCI_Elo``): gates the oracles, weakens the search.
        self.skill = Skill(self)

    # -- state -----------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The selected game (``UCI_Variant``) with its parameters, loaded on first use."""
        if self._game is None:
            self._game = self._load_game(self.options.variant, self.game_params.get(self.options.variant, {}))
        return self._game

    @property
    def position(self) -> Position:
        """The current position (start position plus the moves of the last ``position``)."""
        if self._pos is None:
            self._pos = self.game.new_position(self.root_text)
        return self._pos

    @property
    def searcher(self) -> Searcher:
        """The searcher, created on first use with ``Hash`` MB of table."""
        if self._searcher is None:
            from engine.search import Searcher

            self._searcher = Searcher(self.options.hash)
        return self._searcher

    def prepare(self) -> None:
        """Do the slow initialisation now (game tables, hash table), e.g. on ``isready``."""
        self.position
        self.searcher
        for hook in self.prepare_hooks:
            hook()

    @staticmethod
    def _load_game(name: str, params: dict[str, Any]) -> Game:
        return games.load(name, **params)

    # -- options ---------------------------------------------------------------

    def set_option(self, name: str, value: str | None) -> list[str]:
        """Set an option from protocol text; returns notes for the user.

        Raises :class:`engine.options.OptionError` for an unknown option or an
        invalid value; the previous state is then kept.
        """
        self._require_idle()
        spec = opt.find_spec(name)
        if spec.game is not None:
            return self._set_game_param(spec, value)
        if spec.field == "clear_hash":
            if self._searcher is not None:
                self._searcher.clear()
            return []
        old = self.options
        new = opt.set_value(old, spec, value)
        game = None
        if spec.field == "variant" and new.variant != old.variant:
            game = self._load_game(new.variant, self.game_params.get(new.variant, {}))
        self.options = new
        try:
            for hook in self.option_hooks.get(spec.field, ()):
                hook(self)
        except opt.OptionError:
            self.options = old
            raise
        if game is not None:
            self._select(game)
        notes = []
        if spec.field == "hash" and self._searcher is not None:
            self._searcher.resize(new.hash)
        if spec.field == "threads" and new.threads > 1:
            notes.append(f"Threads {new.threads}: the search uses one thread")
        return notes

    def _set_game_param(self, spec: opt.OptionSpec, text: str | None) -> list[str]:
        value = opt.parse_text(spec, text)
        params = {**self.game_params.get(spec.game, {}), spec.field: value}
        try:
            validated = games.game_class(spec.game).Params(**params)
        except ValidationError as e:
            raise opt.OptionError(f"{spec.name}: {opt.validation_reason(e)}") from None
        params = {k: getattr(validated, k) for k in params}
        if spec.game == self.options.variant:
            self._select(self._load_game(spec.game, params))
        self.game_params[spec.game] = params
        return []

    def _select(self, game: Game) -> None:
        """Switch to ``game`` and reset the position to its start."""
        self._game = game
        self._pos = None
        self.root_text = None
        self.moves = []

    # -- position --------------------------------------------------------------

    def new_game(self) -> None:
        """Forget the previous game: empty the hash table, back to the start position."""
        self._require_idle()
        if self._searcher is not None:
            self._searcher.clear()
        self._select(self.game)

    def set_position(self, text: str | None, moves: list[str]) -> None:
        """Set up ``text`` (``None`` = the start position) and play ``moves``.

        Raises :class:`engine.game.InvalidPositionError` or
        :class:`engine.game.IllegalMoveError`; the previous position is then kept.
        When the new line extends the current one (GUIs resend the whole game
        every move), only the new moves are replayed.
        """
        self._require_idle()
        game = self.game
        done = len(self.moves)
        if self._pos is not None and text == self.root_text and moves[:done] == self.moves:
            pos = self._pos.copy()
        else:
            pos, done = game.new_position(text), 0
        for ply in range(done, len(moves)):
            try:
                move = pos.parse_move(moves[ply])
            except IllegalMoveError as e:
                raise IllegalMoveError(f"move {ply + 1} ({moves[ply]!r}): {e}") from None
            pos.push(move)
        self._pos, self.root_text, self.moves = pos, text, list(moves)

    def parse_moves(self, texts: list[str]) -> list[Move]:
        """Moves of the current position; raises :class:`engine.game.IllegalMoveError`."""
        return [self.position.parse_move(t) for t in texts]

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
        """Player number of the winner of a finished game; ``None`` for a draw or a game in play."""
        pos = self.position
        result = pos.outcome()
        if result is None:
            if pos.legal_moves():
                return None
            result = pos.no_moves_value()
        if result == 0:
            return None
        return pos.turn if result > 0 else 1 - pos.turn

    def divide(self, depth: int) -> list[tuple[str, int]]:
        """Perft below each root move of the current position."""
        return divide(self.position.copy(), depth)

    def display(self) -> list[str]:
        """The board, the position text, the key and the legal moves, as lines."""
        pos = self.position
        return [*pos.render().splitlines(), "",
                f"Game: {self.game.name}",
                f"Text: {pos.to_text()}",
                f"Key: {pos.key & 0xFFFF_FFFF_FFFF_FFFF:016X}",
                f"To move: {self.game.players[pos.turn]}",
                "Legal moves: " + " ".join(pos.move_text(m) for m in pos.legal_moves())]

    # -- search ----------------------------------------------------------------

    def is_searching(self) -> bool:
        """True from :meth:`go` until its bestmove has been delivered."""
        job = self._job
        return job is not None and not job.delivered

    def go(self, limits: Limits, on_info: InfoCallback, on_bestmove: BestmoveCallback,
           on_message: MessageCallback | None = None) -> None:
        """Search the current position in a worker thread; returns at once.

        ``on_info(info, pv_texts)`` reports progress (PV already in move text,
        cut at the first illegal move); ``on_bestmove(move, ponder)`` is called
        exactly once, with ``None`` when there is no legal move, and in
        ponder/infinite mode only after :meth:`stop` or :meth:`ponderhit`;
        ``on_message(text)`` carries notes (book move, errors). All three are
        called from the worker thread, or from the thread calling
        :meth:`stop`/:meth:`ponderhit` when a held move is released.
        """
        self._require_idle()
        pos = self.position
        searcher = self.searcher
        job = _Job(on_info, on_bestmove, on_message or (lambda text: None), pos.copy(),
                   hold=limits.ponder or limits.infinite, ponder=limits.ponder)
        self._job = job
        self._thread = threading.Thread(target=self._work, name="search", daemon=True,
                                        args=(job, searcher, pos.copy(), limits))
        self._thread.start()

    def stop(self) -> None:
        """End the search quickly; its bestmove follows (also in ponder/infinite mode)."""
        job = self._job
        if job is not None:
            self._release(job, "stopped", self.searcher.stop)

    def ponderhit(self) -> None:
        """The opponent played the expected move: the ponder search becomes a timed one."""
        job = self._job
        if job is not None and job.ponder:
            self._release(job, "ponderhit", self.searcher.ponderhit)

    def _release(self, job: _Job, flag: str, forward: Callable[[], None]) -> None:
        """Mark ``job`` stopped or ponderhit, forward that to a running search, and
        deliver a bestmove that was held back for it."""
        with self._lock:
            setattr(job, flag, True)
            job.hold = False
            if job.searching:
                forward()
            ready = job.result is not None and not job.delivered
        if ready:
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

    def _work(self, job: _Job, searcher: Searcher, pos: Position, limits: Limits) -> None:
        try:
            best, ponder = self._choose(job, searcher, pos, limits)
        except Exception as e:  # a bug must still end in a legal bestmove
            job.on_message(f"error: search failed: {e!r}")
            # The failure may have left the search's copies mid-line; the engine's own
            # position is never searched.
            job.root = self.position.copy()
            moves = limits.searchmoves or job.root.legal_moves()
            best, ponder = (moves[0] if moves else None), None
        texts = self._pv_texts(job.root, [m for m in (best, ponder) if m is not None])
        result = (texts[0] if texts else None, texts[1] if len(texts) > 1 else None)
        with self._lock:
            job.result = result
            ready = not job.hold
        if ready:
            self._deliver(job)

    def _choose(self, job: _Job, searcher: Searcher, pos: Position,
                limits: Limits) -> tuple[Move | None, Move | None]:
        started = time.monotonic()
        legal = pos.legal_moves()
        if not legal:
            return None, None
        if not (limits.ponder or limits.infinite or self.options.analyse_mode):
            allowed = limits.searchmoves or legal
            answer = self._ask_oracles(pos, limits, allowed, job.on_message)
            if answer is not None:
                if answer.note:
                    job.on_message(answer.note)
                if answer.info is not None:
                    job.on_info(answer.info, self._pv_texts(job.root, answer.info.pv))
                return answer.move, None
        with self._lock:
            # The searcher keeps a stop or ponderhit that comes before the search starts;
            # from here on stop() and ponderhit() forward them directly.
            if job.stopped:
                searcher.stop()
            elif job.ponderhit:
                searcher.ponderhit()
            job.searching = True
        # Time the oracles took (a table built on first use) is spent from the same clock.
        spent_ms = int((time.monotonic() - started) * 1000)
        try:
            result = self.skill.search(searcher, self.game, pos, limits, multipv=self.options.multipv,
                                       move_overhead_ms=self.options.move_overhead + spent_ms,
                                       on_info=lambda info: job.on_info(info, self._pv_texts(job.root, info.pv)),
                                       stopped=lambda: job.stopped)
        finally:
            with self._lock:
                job.searching = False
        return result.best, result.ponder

    def _ask_oracles(self, pos: Position, limits: Limits, legal: list[Move],
                     on_message: MessageCallback) -> RootAnswer | None:
        oracles = ([self.book_probe] if self.options.own_book and self.book_probe else []) + self.oracles
        oracles = [oracle for oracle in oracles if self.skill.allows(oracle)]
        for oracle in oracles:
            answer = oracle(self.game, pos, limits)
            if answer is not None and answer.move in legal:
                return answer
            if answer is not None and answer.move == NO_MOVE and answer.note:
                # An oracle without a move may still report something (a bad book).
                on_message(answer.note)
        return None

    @staticmethod
    def _pv_texts(root: Position, pv: list[Move]) -> list[str]:
        """``pv`` as move texts, cut at the first move that is not legal where it is played."""
        texts = []
        for move in pv:
            if move not in root.legal_moves():
                break
            texts.append(root.move_text(move))
            root.push(move)
        for _ in texts:
            root.pop()
        return texts

    def _deliver(self, job: _Job) -> None:
        with self._lock:
            if job.delivered:
                return
            job.delivered = True
        job.on_bestmove(*job.result)
