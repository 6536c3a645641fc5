"""One recipe for what a search needs: game, parameters, position, network and table hook.

The engine (:mod:`engine.engine`), every ``Threads`` helper (:mod:`engine.smp`)
and self-play data generation (``zermelo datagen``) build their searches from
these pieces, so that they cannot disagree (as Stockfish builds every thread's
``Worker`` from one recipe):

- :func:`load_game`: a game by registry name with its parameters (defaults when none);
- :class:`Networks`: which network evaluates a game and the one cache of the files
  read. A game with network inputs is evaluated by ``EvalFile`` when set, else by
  the network shipped for it, unless ``UseNNUE`` is off;
- :func:`open_position`: a start text and moves replayed, with the network attached
  before the first move so that its accumulator follows every ``push``;
- :func:`table_hook`: the game's exact knowledge as the search's table hook
  (:meth:`engine.endgame.Endgames.hook`), empty while it is not prepared.

Self-play data (``zermelo datagen``) is the hand-written evaluation's play on
purpose: a network is trained from it, and the shipped networks are remade byte
for byte from such data; it opens its positions with no network.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any

from pydantic import BaseModel

from engine import nnue
from engine.control import Control
from engine.driver import TableHook
from engine.endgame import Endgames
from engine.game import ExactConfig, Game, Position, Registry
from engine.options import CORES, EngineOptions


def load_game(registry: Registry, name: str, params: BaseModel | None = None) -> Game:
    """The game ``name`` of ``registry``, with ``params`` (its defaults when ``None``)."""
    return registry.load(name) if params is None else registry.game_class(name)(params)


class Networks:
    """Which network evaluates a game, and the networks read so far.

    Files are read once per (game, input set, path): the input set may follow the
    game's parameters (a board's size). A file refused once is remembered as
    ``None`` until :meth:`clear`, so that its error is said once."""

    def __init__(self) -> None:
        self._read: dict[tuple[str, str, str], nnue.Network | None] = {}

    @staticmethod
    def path(game: Game, eval_file: str = "") -> str:
        """The weights file for ``game``: ``eval_file``, else the shipped one ("" for none)."""
        return eval_file.strip() or str(nnue.shipped(game.name) or "")

    @staticmethod
    def key(game: Game, path: str) -> tuple[str, str, str]:
        return game.name, "" if game.inputs is None else game.inputs.name, path

    def get(self, game: Game, path: str) -> nnue.Network | None:
        """The network in ``path`` for ``game`` (``None`` without inputs or path, or for a
        file refused before); raises :class:`engine.nnue.NetworkFileError` for a file
        that cannot serve, read the first time."""
        if game.inputs is None or not path:
            return None
        key = self.key(game, path)
        if key not in self._read:
            self._read[key] = nnue.load_for_game(game, path)
        return self._read[key]

    def refuse(self, game: Game, path: str) -> None:
        """Remember ``path`` as refused for ``game`` (its error was said)."""
        self._read[self.key(game, path)] = None

    def clear(self) -> None:
        """Forget every file read (one may have been rewritten: a new training run)."""
        self._read.clear()


def open_position(game: Game, text: str | None, moves: Sequence[str],
                  network: nnue.Network | None = None) -> Position:
    """The position after ``moves`` (texts) from ``text`` (the start when ``None``),
    evaluated by ``network`` when one is given."""
    pos = game.new_position(text)
    if network is not None:
        pos.nn_attach(network)
    for move in moves:
        pos.push(pos.parse_move(move))
    return pos


def exact_config(options: EngineOptions, report: Callable[[str], None] = lambda text: None) -> ExactConfig:
    """The settings of the games' exact knowledge that ``options`` make; table defects
    found in play go to ``report``."""
    return ExactConfig(table_path=options.table_path, syzygy_path=options.syzygy_path,
                       syzygy_probe_depth=options.syzygy_probe_depth,
                       syzygy_50_move_rule=options.syzygy_50_move_rule,
                       syzygy_probe_limit=options.syzygy_probe_limit,
                       syzygy_verify=options.syzygy_verify,
                       endgame_empties=options.endgame_empties,
                       threads=min(options.threads, CORES), report=report)


def exact_settings(config: ExactConfig) -> dict[str, Any]:
    """``config`` as JSON values (for a helper process), without its ``report``."""
    return {f.name: getattr(config, f.name) for f in fields(ExactConfig) if f.name != "report"}


def exact_config_of(settings: dict[str, Any]) -> ExactConfig:
    """The :class:`ExactConfig` of :func:`exact_settings` (unknown names left out)."""
    known = {f.name for f in fields(ExactConfig)} - {"report"}
    return ExactConfig(**{name: value for name, value in settings.items() if name in known})


def table_hook(endgames: Endgames, game: Game, control: Control | None = None) -> TableHook:
    """The search's table hook of ``game`` (none while its exact knowledge is not
    prepared; the preparation runs under ``control``)."""
    return endgames.hook(game, control)
