"""Move-path enumeration: perft and divide, for every game.

Perft counts the leaves of the legal-move tree at a fixed depth; a position
whose game has ended contributes no leaves below it. ``count_games`` counts
complete games instead (every leaf of the whole tree).
"""

from __future__ import annotations

from engine.control import Control, Stopped
from engine.position import Position
from engine.switch import switch_point


def perft(pos: Position, depth: int) -> int:
    """Number of move paths of exactly ``depth`` plies from ``pos``."""
    if depth == 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        pos.push(m)
        total += perft(pos, depth - 1)
        pos.pop()
    return total


def _perft_stoppable(pos: Position, depth: int, control: Control) -> int:
    """:func:`perft` that raises :class:`engine.control.Stopped` once ``control`` is stopped
    (looked at above the last ply, where the counting is bulk).

    Each look is also a switch point: a compiled count offers the GIL there, so that
    the protocol reader reads ``isready`` and ``stop`` while it runs."""
    if depth <= 1:
        return perft(pos, depth)
    switch_point()
    if control.stopped:
        raise Stopped
    total = 0
    for m in pos.legal_moves():
        pos.push(m)
        try:
            total += _perft_stoppable(pos, depth - 1, control)
        finally:
            pos.pop()
    return total


def divide(pos: Position, depth: int, control: Control | None = None) -> list[tuple[str, int]]:
    """Per root move (in the game's notation), the perft count below it.

    With ``control``, a stop raises :class:`engine.control.Stopped` (``pos`` restored).
    """
    out = []
    for m in pos.legal_moves():
        text = pos.move_text(m)
        pos.push(m)
        try:
            if depth <= 1:
                n = 1
            elif control is None:
                n = perft(pos, depth - 1)
            else:
                n = _perft_stoppable(pos, depth - 1, control)
        finally:
            pos.pop()
        out.append((text, n))
    return out


def count_games(pos: Position) -> int:
    """Number of complete games from ``pos`` (leaves of the full game tree)."""
    moves = pos.legal_moves()
    if not moves or pos.outcome() is not None:
        return 1
    total = 0
    for m in moves:
        pos.push(m)
        total += count_games(pos)
        pos.pop()
    return total
