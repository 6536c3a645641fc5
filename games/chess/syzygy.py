"""Syzygy endgame tables for chess, through python-chess's ``chess.syzygy``.

:class:`SyzygyTables` opens nothing until the first probe: setting the path
only lists the directories (python-chess maps a file on its first use). A
position of zermelo's chess board is handed to python-chess by copying its
bitboards into an empty ``chess.Board`` (about 5 µs, against 90 µs through a
FEN).

Values follow python-chess: WDL ``2`` win, ``1`` cursed win (a win the
fifty-move rule turns into a draw), ``0`` draw, ``-1`` blessed loss, ``-2``
loss, for the side to move, assuming the position follows a capture or pawn
move; DTZ counts plies to the next capture or pawn move (or mate) with
python-chess's rounding.

A table file that is missing while a probe needs it, or that turns out corrupt,
is reported once through ``report`` and its material is no longer probed:
the search plays on without it.
"""

from __future__ import annotations

import os
from typing import Callable

import chess
import chess.syzygy

#: python-chess bitboard attributes by zermelo piece type (pawn 1 ... king 6).
_PIECE_ATTRS = (None, "pawns", "knights", "bishops", "rooks", "queens", "kings")
_LETTERS = "_PNBRQK"


class SyzygyTables:
    """The Syzygy tables of one or more directories (``:``-separated, ``;`` on Windows).

    A directory that does not exist holds no tables: GUIs send default paths
    (polyglot turns xboard's ``egtpath`` into one) and placeholders, and engines
    accept them silently. ``missing`` lists such directories.
    """

    def __init__(self, path: str, report: Callable[[str], None] | None = None):
        self.directories = [d for d in path.split(os.pathsep) if d.strip()]
        self.report = report or (lambda text: None)
        self.tablebase = chess.syzygy.Tablebase()
        self.missing = [d for d in self.directories if not os.path.isdir(d)]
        for d in self.directories:
            if d not in self.missing:
                self.tablebase.add_directory(d)
        names = set(self.tablebase.wdl)
        #: Most pieces of any WDL table found (0: none).
        self.cardinality = max((len(n) - 1 for n in names), default=0)
        self.has_dtz = set(self.tablebase.dtz)
        self._broken: set[str] = set()

    @staticmethod
    def board(pos) -> chess.Board:
        """A python-chess board of a zermelo chess position (no castling rights)."""
        b = chess.Board(None)
        bb = pos.bb
        b.pawns, b.knights, b.bishops = bb[1] | bb[9], bb[2] | bb[10], bb[3] | bb[11]
        b.rooks, b.queens, b.kings = bb[4] | bb[12], bb[5] | bb[13], bb[6] | bb[14]
        b.occupied_co[chess.WHITE] = bb[0]
        b.occupied_co[chess.BLACK] = bb[8]
        b.occupied = bb[0] | bb[8]
        b.turn = pos.turn == 0
        b.castling_rights = 0
        b.ep_square = pos.ep
        b.halfmove_clock = pos.halfmove
        return b

    @staticmethod
    def material(pos) -> str:
        """Table name of the position's material, white first (``KRvK``)."""
        bb = pos.bb
        sides = []
        for o in (0, 8):
            sides.append("".join(_LETTERS[t] * bb[o | t].bit_count() for t in (6, 5, 4, 3, 2, 1)))
        return "v".join(sides)

    def covers(self, pos) -> bool:
        """True if the WDL table of the position's material is present and usable."""
        name = self.material(pos)
        return name in self.tablebase.wdl and name not in self._broken

    def probe_wdl(self, board: chess.Board, name: str) -> int | None:
        """WDL of ``board`` (material ``name``), or ``None`` when a table is missing or broken."""
        try:
            return self.tablebase.probe_wdl(board)
        except Exception as e:  # missing sub-table, corrupt or truncated file
            self._fail(name, e)
            return None

    def probe_dtz(self, board: chess.Board, name: str) -> int | None:
        """DTZ of ``board``, or ``None`` when a table is missing or broken."""
        try:
            return self.tablebase.probe_dtz(board)
        except Exception as e:
            self._fail(name, e)
            return None

    def _fail(self, name: str, error: Exception) -> None:
        if name not in self._broken:
            self._broken.add(name)
            detail = error.args[0] if isinstance(error, KeyError) and error.args else error
            self.report(f"error: Syzygy {name}: {detail}; playing on without it")

    def close(self) -> None:
        self.tablebase.close()
