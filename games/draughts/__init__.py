"""Draughts: English checkers, Russian (shashki) and Brazilian draughts on 8×8,
international draughts on 10×10.

The games share the board layouts (``board``), the position machinery and
evaluation (``position``); ``checkers`` and ``shashki`` hold the rules of
movement, which ``international`` sets for the games with the majority rule.
"""

from games.draughts.checkers import CheckersGame
from games.draughts.international import BrazilianGame, InternationalGame
from games.draughts.shashki import ShashkiGame

__all__ = ["BrazilianGame", "CheckersGame", "InternationalGame", "ShashkiGame"]
