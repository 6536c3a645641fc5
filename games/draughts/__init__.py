"""Draughts on the 8×8 board: English checkers and Russian draughts (shashki).

Both games share the board layout (``board``), the position machinery and
evaluation (``position``); each module holds its rules of movement.
"""

from games.draughts.checkers import CheckersGame
from games.draughts.shashki import ShashkiGame

__all__ = ["CheckersGame", "ShashkiGame"]
