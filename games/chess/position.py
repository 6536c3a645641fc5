"""The chess position the registry hands out: the board plus text I/O.

A subclass of :class:`games.chess.board.Board` that adds only the methods of the
protocol boundary (FEN, UCI and SAN move text, the text board), so that in the
compiled build it is an extension type too and the search's calls reach the
board's C methods directly.
"""

from __future__ import annotations

from . import notation
from .board import Board


class ChessPosition(Board):
    """A chess position: :class:`~games.chess.board.Board` plus FEN and move text."""

    def parse_move(self, text: str) -> int:
        return notation.parse_move(self, text)

    def move_text(self, move: int) -> str:
        return notation.move_text(move, self)

    def to_text(self) -> str:
        return notation.fen(self)

    def render(self) -> str:
        return notation.render(self)

    def san(self, move: int) -> str:
        """Standard algebraic notation of a legal move."""
        return notation.san(self, move)

    def parse_san(self, text: str) -> int:
        """The legal move for a SAN text (raises ``IllegalMoveError``)."""
        return notation.parse_san(self, text)
