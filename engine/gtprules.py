"""What a game tells the GTP server (:mod:`protocol.server.gtp`) about itself.

GTP, the Go Text Protocol, also serves Othello (Edax, GRhino and Quarry speak it
with Othello's coordinates). The server keeps the game's record and answers the
commands; the notation, the board's size, how a position goes on with the other
colour to move and how a finished game is scored come from the game, through a
:class:`GtpRules` its ``gtp()`` method returns (``None``: GTP does not serve it).

GTP's colours are Black and White; they are the game's players of those names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from engine.position import Position


class GtpRules:
    """A game's side of GTP; each method's default says what most games do."""

    name: ClassVar[str] = ""
    """The game's name in GTP, as GRhino's ``list_games`` and ``set_game`` write it
    (``Go``, ``Othello``)."""
    extras: ClassVar[frozenset[str]] = frozenset()
    """The optional GTP commands the game has (handicap stones, SGF files, dead
    stones): of the server's commands that need them, only these are listed."""

    native: ClassVar[bool] = False
    """GTP's own game (Go), which engines play without GRhino's ``set_game`` (Go
    engines do not know the command)."""
    implicit_pass: ClassVar[bool] = False
    """A pass is not sent with ``play``: the colour of the next move says it (Othello's
    engines, GRhino's among them, refuse ``play COLOR pass``)."""

    # Any: each game's rules read their own game class, which imports this module.
    def __init__(self, game: Any) -> None:
        self.game = game

    def size(self) -> tuple[int, int]:
        """The board's columns and rows."""
        raise NotImplementedError

    def size_params(self, size: int) -> dict[str, str]:
        """The game's parameters (field to value text) for ``boardsize size``; raises
        ``ValueError`` for a size the game is not played on. By default only the
        present size is."""
        if (size, size) != self.size():
            raise ValueError("unacceptable size")
        return {}

    def komi(self) -> float | None:
        """The komi a controller sends, ``None`` for a game without one."""
        return None

    def komi_params(self, komi: float) -> dict[str, str]:
        """The game's parameters for ``komi``; by default none: the game has no komi
        and the command is accepted (controllers send it to every engine)."""
        return {}

    def move(self, vertex: str) -> str:
        """The game's move text of a GTP vertex (or ``pass``); raises ``ValueError``
        with words for the user when it is no vertex of this board."""
        raise NotImplementedError

    def vertex(self, move: str) -> str:
        """The GTP vertex of a move text of the game."""
        return move.upper() if move.lower() != "pass" else "pass"

    def setup(self, stones: dict[tuple[int, int], int], colour: int) -> str:
        """The position text of a board with ``stones`` (by ``(column, row)`` from the
        bottom left, 0 Black 1 White) and ``colour`` to move: handicap stones and an
        SGF's setup, for a game that has those commands."""
        raise NotImplementedError

    def with_turn(self, pos: Position, colour: int) -> str:
        """The text of ``pos``'s board with player ``colour`` to move and play going
        on: GTP lets a colour play twice, and a finished game go on."""
        raise NotImplementedError

    def board(self, pos: Position) -> list[str]:
        """``showboard``'s lines: the board with its coordinates and who moves."""
        return pos.render().splitlines()

    def cleanup_moves(self, pos: Position) -> list[int] | None:
        """The moves KGS's ``kgs-genmove_cleanup`` may choose from in ``pos``: GNU Go's
        meaning, play on to take the opponent's dead stones off rather than pass while
        they stand; ``None`` for all the legal moves (nothing to clean up)."""
        return None

    def ownership(self, pos: Position) -> list[float] | None:
        """Each point's expected owner at the end of ``pos``, from -1 (White's) to 1
        (Black's), rows from the top and left to right as KataGo's ``ownership`` lists
        them; ``None`` for a game without such an estimate."""
        return None

    def final_score(self, pos: Position) -> str | None:
        """``final_score`` of a position, as GTP writes it (``B+12``, ``W+0.5``, ``0``);
        ``None`` when the server's area count (Go's) is the score."""
        return None
