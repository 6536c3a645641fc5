"""The game-agnostic engine: search, time management, transposition table,
books and table probing. Never prints, never imports ``protocol``."""

from engine import build as _build

# Before any hot-path module is imported: compiled or pure, all together.
_build.install()
