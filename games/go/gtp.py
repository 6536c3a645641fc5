"""Go's side of GTP (:class:`engine.gtprules.GtpRules`): GTP's own game, whose
vertices are the game's points (``A1`` bottom left, ``I`` skipped)."""

from __future__ import annotations

from engine.gtprules import GtpRules
from games.go.board import COLUMNS


class GoGtp(GtpRules):
    name = "Go"
    native = True
    extras = frozenset({"fixed_handicap", "set_free_handicap", "loadsgf", "printsgf", "final_status_list",
                        "gogui-analyze_commands", "lz-analyze", "kgs-genmove_cleanup", "kata-analyze",
                        "lz-genmove_analyze", "kata-genmove_analyze", "zermelo-ownership",
                        "zermelo-candidates"})
    #: Playouts of an analysis' ownership: a few dozen give the shape of a 19×19 board
    #: in about a second.
    ownership_playouts = 64

    def size(self) -> tuple[int, int]:
        return self.game.width, self.game.height

    def size_params(self, size: int) -> dict[str, str]:
        """A square board: ``go_width``/``go_height`` set before are cleared."""
        if not 1 <= size <= len(COLUMNS):
            raise ValueError("unacceptable size")
        return {"size": str(size), "width": "0", "height": "0"}

    def komi(self) -> float | None:
        return self.game.komi

    def komi_params(self, komi: float) -> dict[str, str]:
        return {"komi": repr(komi)}

    def move(self, vertex: str) -> str:
        # ASCII only: Unicode case folding reads the long s as S and the Kelvin sign as K.
        point = self.game.parse_point(vertex) if vertex.isascii() else None
        if point is None:
            raise ValueError(f"invalid vertex {vertex[:20]!r}: expected {self.game.first_point}-"
                             f"{self.game.last_point} or pass")
        return "pass" if point == self.game.pass_move else vertex.upper()

    def cleanup_moves(self, pos) -> list[int] | None:
        """While the opponent has stones inside the mover's unconditional territory
        (Benson's: they cannot live), every play but those filling the mover's own eyes,
        and no pass: the area count of the rules then needs no dead stones agreed."""
        from games.go.benson import unconditional

        _, owner = unconditional(pos.board, pos.points, pos.stride)
        own = pos.turn + 1
        if not any(pos.board[p] and pos.board[p] != own and owner[p] == own for p in pos.points):
            return None
        return [m for m in pos.playout_moves() if m != pos.pass_move] or None

    def ownership(self, pos) -> list[float] | None:
        """The playouts' ownership (:func:`games.go.ownership.ownership`), rows from the top."""
        from games.go.ownership import ownership

        owner = ownership(pos, self.ownership_playouts)
        width, height = self.size()
        return [owner[r * width + c] for r in reversed(range(height)) for c in range(width)]

    def setup(self, stones: dict[tuple[int, int], int], colour: int) -> str:
        width, height = self.size()
        cells = [["."] * width for _ in range(height)]
        for (c, r), stone in stones.items():
            cells[height - 1 - r][c] = "xo"[stone]
        return f"{'/'.join(''.join(row) for row in cells)} {'xo'[colour]} - 0"

    def with_turn(self, pos, colour: int) -> str:
        """The board with ``colour`` to move, no ko and no passes: after two passes the
        game goes on, as GNU Go and GUIs let players resume."""
        return f"{pos.to_text().split()[0]} {'xo'[colour]} - 0"

    def board(self, pos) -> list[str]:
        """The rows from the top, columns lettered, and the area count so far."""
        width, height = self.size()
        letters = "   " + " ".join(COLUMNS[:width])
        lines = [letters]
        for i, row in enumerate(pos.to_text().split()[0].split("/")):
            lines.append(f"{height - i:2} {' '.join(row.upper())} {height - i}")
        black, white = pos.area()
        return lines + [letters, f"{'Black' if pos.turn == 0 else 'White'} to move; area Black {black}, "
                                 f"White {white}; komi {self.game.komi:g}"]
