"""The game-agnostic engine: search, time management, transposition table,
books and table probing. Never prints, never imports ``protocol``."""
