"""Registry of the games zermelo plays.

Each game lives in its own module and is imported only when first loaded, so
that ``uci`` can list every game without paying for their tables.

>>> import games
>>> games.load("othello").name
'reversi'
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from engine.game import Game

# name -> (module, class, aliases)
_REGISTRY: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "chess": ("games.chess", "ChessGame", ("standard",)),
    "checkers": ("games.draughts", "CheckersGame", ("english", "draughts-english")),
    "shashki": ("games.draughts", "ShashkiGame", ("russian",)),
    "brazilian": ("games.draughts", "BrazilianGame", ("brazilian-draughts",)),
    "international": ("games.draughts", "InternationalGame", ("draughts", "international-draughts", "10x10")),
    "reversi": ("games.reversi", "ReversiGame", ("othello",)),
    "kalah": ("games.kalah", "KalahGame", ("mancala",)),
    "tictactoe": ("games.mnk", "TicTacToeGame", ("ttt", "tic-tac-toe")),
    "mnk": ("games.mnk", "MnkGame", ("gomoku",)),
    "nim": ("games.nim", "NimGame", ()),
    "connect4": ("games.connect4", "Connect4Game", ("connectfour", "cfour")),
    "rolit": ("games.rolit", "RolitGame", ("roll-it",)),
    "mnkmulti": ("games.mnk_multi", "MnkMultiGame", ("mnk-multi", "mnk3")),
    "go": ("games.go", "GoGame", ("weiqi", "baduk", "igo")),
}

_ALIASES = {alias: name for name, (_, _, aliases) in _REGISTRY.items() for alias in aliases}

# Names GUIs use for a registered game with fixed parameters: name -> (game, params).
# They are accepted wherever a game name is, but not listed (names() stays one
# entry per game); Chess960 is normally chosen with UCI_Chess960 instead.
_PRESETS: dict[str, tuple[str, dict]] = {"chess960": ("chess", {"chess960": True})}
_ALIASES.update({"fischerandom": "chess960", "frc": "chess960"})


def names() -> list[str]:
    """Registered game names, in registry order."""
    return list(_REGISTRY)


def canonical(name: str) -> str:
    """The registry name for ``name`` or one of its aliases (case-insensitive)."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _REGISTRY and key not in _PRESETS:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(names())}")
    return key


def game_class(name: str) -> type[Game]:
    """The Game class registered under ``name`` (imports its module)."""
    key = canonical(name)
    module, cls, _ = _REGISTRY[_PRESETS[key][0] if key in _PRESETS else key]
    return getattr(importlib.import_module(module), cls)


def load(name: str, **params) -> Game:
    """A game by name or alias, with parameters validated by its pydantic model.

    Games without parameters are cached, so repeated loads share tables.
    """
    key = canonical(name)
    if key in _PRESETS:
        params = {**params, **_PRESETS[key][1]}
    if params:
        cls = game_class(name)
        return cls(cls.Params(**params))
    return _load_default(canonical(name))


@lru_cache(maxsize=None)
def _load_default(name: str) -> Game:
    return game_class(name)()
