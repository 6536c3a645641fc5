"""Othello's side of GTP (:class:`engine.gtprules.GtpRules`), as Edax, GRhino and
Quarry speak it: vertices ``A1``-``H8`` with ``A1`` top left (the game's squares),
``pass``, the 8×8 board only, no komi, and the final score in discs."""

from __future__ import annotations

import re

from engine.gtprules import GtpRules

_SQUARE_RE = re.compile(r"[a-h][1-8]|pass")


class ReversiGtp(GtpRules):
    name = "Othello"
    implicit_pass = True

    def size(self) -> tuple[int, int]:
        return 8, 8

    def move(self, vertex: str) -> str:
        text = vertex.lower()
        if not vertex.isascii() or not _SQUARE_RE.fullmatch(text):
            raise ValueError(f"invalid vertex {vertex[:20]!r}: expected A1-H8 or pass")
        return text

    def with_turn(self, pos, colour: int) -> str:
        return f"{pos.to_text().split()[0]} {'XO'[colour]}"

    def board(self, pos) -> list[str]:
        squares = pos.to_text().split()[0]
        black, white = squares.count("X"), squares.count("O")
        lines = ["   A B C D E F G H"]
        for r in range(8):
            row = squares[8 * r:8 * r + 8].replace("-", ".")
            lines.append(f"{r + 1:2} {' '.join(row)} {r + 1}")
        lines += ["   A B C D E F G H",
                  f"{'Black' if pos.turn == 0 else 'White'} to move; discs Black {black}, White {white}"]
        return lines

    def final_score(self, pos) -> str:
        """The disc difference, empty squares going to the winner (the World Othello
        Federation's count); ``0`` for a draw."""
        squares = pos.to_text().split()[0]
        black, white = squares.count("X"), squares.count("O")
        empty = 64 - black - white
        if black == white:
            return "0"
        return f"{'B' if black > white else 'W'}+{abs(black - white) + empty}"
