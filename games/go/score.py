"""Go's end of game: the dead stones and the final score, as GTP and SGF write it.

One place scores a finished game for every caller (GTP's ``final_score`` and
``final_status_list``, the match referee, SGF's ``RE``), through
:meth:`games.go.GoGame.final_score` and :meth:`games.go.GoGame.dead_stones`.
Dead stones are the groups the opponent owns at the end of most playouts from
the position (:mod:`games.go.ownership`), as players mark them; Benson's
unconditional life (:mod:`games.go.benson`) proves far fewer at the end of a
real game. The score is the area count of the rules (Tromp-Taylor: stones and
the empty regions bordered by one colour only) less komi.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.go.board import GoPosition

# ``game`` below is the GoGame (its width, komi and positions), not imported: it imports this module.


def dead_stones(game: Any, pos: GoPosition) -> set[tuple[int, int]]:
    """The dead stones of ``pos`` as ``(column, row)`` points, row 0 the bottom one:
    the groups the opponent owns at the end of most playouts from here
    (:func:`games.go.ownership.final_status`), as a player would mark them. The
    playouts' seed is fixed, so every caller gets the same count of the same board."""
    from games.go.ownership import dead_stones as judged_dead, ownership

    dead = set(judged_dead(pos, ownership(pos)))
    width = game.width
    return {(i % width, i // width) for i, p in enumerate(pos.points) if p in dead}


def stone_rows(pos: GoPosition, dead: set[tuple[int, int]], status: str) -> list[str]:
    """The board's rows from the top (``x``/``o``/``.``) with only the stones of
    ``status`` (``alive``: those not in ``dead``, or ``dead``)."""
    rows = pos.to_text().split()[0].split("/")
    height = len(rows)
    keep_dead = status == "dead"
    return ["".join(ch if ch == "." or ((c, height - 1 - r) in dead) == keep_dead else "."
                    for c, ch in enumerate(row)) for r, row in enumerate(rows)]


def margin2(game: Any, pos: GoPosition, take_off_dead: bool = True) -> int:
    """Twice Black's area less White's, less komi (positive: Black wins): the area
    count of ``pos``, with the dead stones taken off first unless ``take_off_dead`` is
    False (the board counted as it stands, as the Tromp-Taylor rules the search plays
    by do)."""
    dead = dead_stones(game, pos) if take_off_dead else set()
    if dead:
        pos = game.new_position(f"{'/'.join(stone_rows(pos, dead, 'alive'))} {'xo'[pos.turn]} - 0")
    black, white = pos.area()
    return 2 * (black - white) - game.komi2


def final_score(game: Any, pos: GoPosition, take_off_dead: bool = True) -> str:
    """``B+7.5``, ``W+0.5`` or ``0`` (a draw): :func:`margin2` as GTP and SGF write it."""
    margin = margin2(game, pos, take_off_dead)
    if margin == 0:
        return "0"
    return f"{'B' if margin > 0 else 'W'}+{abs(margin) / 2:g}"
