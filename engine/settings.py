"""The engine's settings: its options and their effects, and the position it is set to.

:class:`EngineSettings` is the part of :class:`engine.engine.Engine` that the
protocol's ``setoption``, ``ucinewgame`` and ``position`` commands change: each
option's effect (``engine.options.EFFECTS``) runs here with the new options in
place and may refuse them, the previous state kept; a position is set up by the
session recipe (:mod:`engine.session`) and extended move by move when a GUI
resends the game. The search itself is the engine's.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, cast

from pydantic import BaseModel, ValidationError

from engine import nnue
from engine import options as opt
from engine.book import EngineBook
from engine.endgame import Endgames
from engine.game import ExactConfig, Game, IllegalMoveError, Move, Position, Registry
from engine.session import Networks, exact_config, load_game, open_position
from engine.smp import Helpers
from engine.tt import TranspositionTable

if TYPE_CHECKING:
    from engine.mcts import MCTSSearcher
    from engine.multiplayer import MultiplayerSearcher
    from engine.search import Searcher

#: Distinct unknown move texts given to the game's parser per position; beyond, a text
#: that is not a legal move's own text is refused at once.
_PARSE_LIMIT = 64


class EngineSettings:
    """Options, game parameters and position of an engine (see the module's description).

    The engine's constructor sets the state declared here; its properties and its
    search give the members declared for type checking only."""

    registry: Registry
    options: opt.EngineOptions
    game_params: dict[str, BaseModel]
    book_probe: EngineBook
    endgames: Endgames
    networks: Networks
    refusals: dict[str, tuple[str | None, str]]
    root_text: str | None
    moves: list[str]
    _game: Game | None
    _pos: Position | None
    _table: TranspositionTable | None
    _helpers: Helpers | None
    _move_cache: tuple[Position, int, dict[str, Move], dict[str, Any]] | None

    if TYPE_CHECKING:
        @property
        def game(self) -> Game: ...

        @property
        def position(self) -> Position: ...

        @property
        def table(self) -> TranspositionTable: ...

        def _searchers(self) -> list[Searcher | MultiplayerSearcher | MCTSSearcher]: ...

        def _require_idle(self) -> None: ...

        def end_prepare(self) -> None: ...

        def report(self, text: str) -> None: ...

    def _load_game(self, name: str) -> Game:
        """The game ``name`` (a registry name) with the parameters set for it."""
        return load_game(self.registry, name, self.game_params.get(name))

    def _replay(self, text: str | None, moves: list[str]) -> Position:
        """The position after ``moves`` from ``text``, with the network of the options."""
        try:
            network = self._network_for(self.game, self.options)
        except nnue.NetworkFileError as e:
            self.networks.refuse(self.game, self._network_path(self.game, self.options))
            self.report(f"error: {e}; the hand-written evaluation is used")
            network = None
        return open_position(self.game, text, moves, network)

    # -- options ---------------------------------------------------------------

    def set_option(self, name: str, value: str | None) -> list[str]:
        """Set an option from protocol text; returns notes for the user.

        Raises :class:`engine.options.OptionError` for an unknown option or an
        invalid value; the previous state is then kept. A refused value of an
        option that defines the rules (the game, Chess960, a game parameter) makes
        every go answer no move until the option is set successfully; a refused
        parameter does so only while its own game is played.
        """
        self._require_idle()
        spec = opt.find_spec(name, self.registry)
        try:
            notes = self._set_option(spec, value)
        except opt.OptionError as e:
            if spec.game is not None or spec.field == "variant":
                self.refusals[spec.name] = (spec.game, f"setoption refused: {e}")
            raise
        self.refusals.pop(spec.name, None)
        return notes

    def _set_option(self, spec: opt.OptionSpec, value: str | None) -> list[str]:
        if spec.game is not None:
            return self._set_game_param(spec.game, spec, value)
        old = self.options
        value, clamped = opt.clamp_text(spec, value)
        new = opt.set_value(old, spec, value, self.registry)
        self.options = new
        effect = opt.EFFECTS.get(spec.field)
        notes = [clamped] if clamped else []
        try:
            return notes + ((getattr(self, effect)(old, new) or []) if effect else [])
        except Exception:  # refused (OptionError) or failed: the old options stay
            self.options = old
            raise

    # The effects of options (``engine.options.EFFECTS``): each runs with the new options
    # in place and may refuse them by raising OptionError before it changes anything.

    def _select_variant(self, old: opt.EngineOptions, new: opt.EngineOptions) -> None:
        if new.variant != old.variant:
            self._select(self._load_game(new.variant))

    @staticmethod
    def _network_path(game: Game, options: opt.EngineOptions) -> str:
        """The weights file ``options`` give ``game``: ``EvalFile``, else the shipped one ("" for none)."""
        return Networks.path(game, options.eval_file)

    def _network_for(self, game: Game, options: opt.EngineOptions) -> nnue.Network | None:
        """The network evaluating ``game`` under ``options`` (read once per file), or ``None``;
        raises :class:`engine.nnue.NetworkFileError` for a file that cannot serve."""
        return self.networks.get(game, self._network_path(game, options)) if options.use_nnue else None

    def _set_network(self, old: opt.EngineOptions, new: opt.EngineOptions) -> list[str]:
        # The file is read again: it may have been rewritten (a new training run).
        self.networks.clear()
        notes = []
        path = new.eval_file.strip()
        try:
            # Whatever the game of the moment, a file that fits no game is refused now.
            named = nnue.network_game(path) if path and new.use_nnue else None
            if named is not None and named not in self.registry.names():
                raise nnue.NetworkFileError(f"{path}: the network is for the game {named!r}, "
                                            "which zermelo does not play")
            network = self._network_for(self.game, new)
        except nnue.NetworkMismatchError as e:
            # Another game's network (or another board's): GUIs send options before the
            # variant, so it is kept, and checked again when the game or its parameters change.
            self.networks.refuse(self.game, self._network_path(self.game, new))
            network = None
            notes.append(f"EvalFile: {e}; kept for the game it fits, {self.game.name} is evaluated "
                         "by the hand-written evaluation")
        except nnue.NetworkFileError as e:
            raise opt.OptionError(f"EvalFile: {e}; the evaluation in use stays") from None
        if self._pos is not None and self.game.inputs is not None:
            self._pos.nn_attach(network)
        return notes

    def _resize_hash(self, old: opt.EngineOptions, new: opt.EngineOptions) -> None:
        if self._table is not None:
            self._replace_table(lambda table: table.resize(new.hash))

    def _replace_table(self, change: Callable[[TranspositionTable], None]) -> None:
        """Make the table new (resized or cleared): the helpers leave the old one
        first, and search in the new one."""
        helpers, table = self._helpers, self.table
        if helpers is not None:
            helpers.settle()
        change(table)
        if helpers is not None and len(helpers):
            helpers.ready(table)

    def _clear_hash(self, old: opt.EngineOptions, new: opt.EngineOptions) -> None:
        self._forget()

    def _forget(self) -> None:
        """Empty the shared table once, and every worker's move-ordering statistics."""
        if self._table is not None:
            self._replace_table(lambda table: table.clear())
        for searcher in self._searchers():
            searcher.forget()

    def _set_threads(self, old: opt.EngineOptions, new: opt.EngineOptions) -> list[str]:
        """Run ``Threads`` - 1 helper processes (no more than the cores allow)."""
        workers = min(new.threads, opt.CORES)
        if workers > 1 and not isinstance(self.registry, ModuleType):
            raise opt.OptionError("Threads: helper processes need the games registry as a module")
        if workers > 1 and self.table.fileno() < 0:
            raise opt.OptionError("Threads: this system cannot share the table between processes")
        if self._helpers is None and workers > 1:
            self._helpers = Helpers(cast(ModuleType, self.registry).__name__)
        if self._helpers is not None:
            self._helpers.resize(workers - 1, self.table)
        # Root solvers (reversi's) take their processes from the games' exact knowledge.
        if workers != self.endgames.config.threads:
            self.end_prepare()
            self.endgames.set_threads(workers)
        if new.threads == 1:
            return []
        capped = " (the cores of this machine)" if workers < new.threads else ""
        return [f"Threads {new.threads}: two-player games are searched by {workers} processes{capped}, "
                "games of more than two players by one"]

    def _check_book_file(self, old: opt.EngineOptions, new: opt.EngineOptions) -> None:
        self.book_probe.on_book_file(new)

    def _configure_tables(self, old: opt.EngineOptions, new: opt.EngineOptions) -> list[str]:
        path = new.table_path.strip()
        if path and not os.path.isdir(path):
            raise opt.OptionError(f"TablePath: no such directory: {path}")
        config = self._exact_config(new)
        if config != self.endgames.config:
            self.end_prepare()
            self.endgames.configure(config)
            # The current game's files are checked against their roles now: their
            # defects answer the option.
            return self.endgames.check(self.game)
        return []

    def _exact_config(self, options: opt.EngineOptions) -> ExactConfig:
        return exact_config(options, self.report)

    def _set_game_param(self, game: str, spec: opt.OptionSpec, text: str | None) -> list[str]:
        """Set a parameter of ``game`` (``spec.game``).

        When ``game`` is played, also under a name with preset parameters (the variant
        ``chess960`` is chess with ``UCI_Chess960`` on), the parameter changes the game
        played from its present parameters, and the variant becomes ``game`` itself:
        ``UCI_Chess960 false`` after ``UCI_Variant chess960`` is standard chess, as a GUI
        that sends both (cutechess) means it.
        """
        value = opt.parse_text(spec, text)
        cls = self.registry.game_class(game)
        playing = self.registry.game_class(self.options.variant) is cls
        current = self.game.params if playing else self.game_params.get(game)
        # The fields set explicitly, read as attributes: a dump leaves out excluded ones.
        fields = {} if current is None else {f: getattr(current, f) for f in current.model_fields_set}
        try:
            params = cls.Params(**{**fields, spec.field: value})
        except ValidationError as e:
            raise opt.OptionError(f"{spec.name}: {opt.validation_reason(e)}") from None
        if playing:
            self.options = self.options.model_copy(update={"variant": game})
            self._select(cls(params))
        self.game_params[game] = params
        return []

    def _select(self, game: Game) -> None:
        """Switch to ``game`` and reset the position to its start."""
        self._game = game
        self._pos = None
        self.root_text = None
        self.moves = []
        self.refusals.pop("position", None)

    # -- position --------------------------------------------------------------

    def new_game(self) -> None:
        """Forget the previous game: empty the hash table, back to the start position."""
        self._require_idle()
        self._forget()
        self._select(self.game)

    def set_position(self, text: str | None, moves: list[str]) -> None:
        """Set up ``text`` (``None`` = the start position) and play ``moves``.

        Raises :class:`engine.game.InvalidPositionError` or
        :class:`engine.game.IllegalMoveError`; the previous position is then kept,
        and the next go answers no move (see :meth:`refuse`). When the new line
        extends the current one (GUIs resend the whole game every move), only the
        new moves are played, on the current position itself: copying a long game's
        history would cost more than the search.
        """
        self._require_idle()
        try:
            self._set_position(text, moves)
        except ValueError as e:
            self.refuse("position", f"position refused: {e}")
            raise
        self.refusals.pop("position", None)

    def _set_position(self, text: str | None, moves: list[str]) -> None:
        done = len(self.moves)
        pos = self._pos
        if pos is not None and text == self.root_text and moves[:done] == self.moves:
            extending = True
        else:
            # Set up as every position is, with the network of EvalFile attached.
            pos, done, extending = self._replay(text, []), 0, False
        ply = done
        try:
            for ply in range(done, len(moves)):
                pos.push(pos.parse_move(moves[ply]))
        except IllegalMoveError as e:
            if extending:
                for _ in range(ply - done):
                    pos.pop()
            raise IllegalMoveError(f"move {ply + 1} ({moves[ply]!r}): {e}") from None
        self._pos, self.root_text, self.moves = pos, text, list(moves)

    def refuse(self, what: str, reason: str) -> None:
        """Record refused input (``"position"`` or an option name): until it is replaced
        by accepted input, a go answers no move and says ``reason``."""
        self.refusals[what] = (None, reason)

    def in_force(self) -> list[str]:
        """The reasons of the refusals that make a go of the current game answer no move."""
        played = self.registry.game_class(self.options.variant)
        return [reason for game, reason in self.refusals.values()
                if game is None or self.registry.game_class(game) is played]

    def parse_moves(self, texts: list[str]) -> list[Move]:
        """Moves of the current position; raises :class:`engine.game.IllegalMoveError`.

        Cheap for long lists (``searchmoves`` of thousands of words): the legal moves'
        texts are looked up first; other spellings go to the game's parser, at most
        ``_PARSE_LIMIT`` distinct ones per position.
        """
        pos = self.position
        cache = self._move_cache
        if cache is None or cache[0] is not pos or cache[1] != pos.key:
            cache = self._move_cache = (pos, pos.key, {pos.move_text(m): m for m in pos.legal_moves()}, {})
        legal, tried = cache[2], cache[3]
        out = []
        for text in texts:
            move = legal.get(text)
            if move is None:
                found = tried.get(text)
                if found is None:
                    if len(tried) >= _PARSE_LIMIT:
                        raise IllegalMoveError(f"{text[:40]!r} is not a legal move here")
                    try:
                        found = pos.parse_move(text)
                    except ValueError as e:
                        found = str(e)
                    tried[text] = found
                if isinstance(found, str):
                    raise IllegalMoveError(found)
                move = found
            out.append(move)
        return out
