"""Dead stones and the score as a player counts them, from the playouts' ownership.

Benson's algorithm (:mod:`games.go.benson`) proves only the stones that no play can
kill, so at the end of a real game it leaves most dead stones standing. A player
judges instead: a group whose points the opponent ends up owning in most continuations
is dead. :func:`ownership` plays heavy playouts (:mod:`games.go.playout`) from the
position, half of them with each side to move, and gives for each point the mean of
+1 (Black's at the end) and -1 (White's); :func:`final_status` marks each group dead,
alive or in seki from it; :func:`final_score_by_ownership` takes the dead stones off
and counts the area. The Benson-based score (stones proven dead only) stays beside it.
"""

from __future__ import annotations

from games.go.board import BLACK, EMPTY, WHITE, GoPosition

#: Playouts :func:`ownership` plays by default: a few hundred settle a finished 9×9 board.
OWNERSHIP_PLAYOUTS = 400
#: A group is dead when its colour's mean ownership of its stones is below this (the
#: opponent owns them in more than three playouts of five).
DEAD_BELOW = -0.2
#: An empty point owned this evenly (``|ownership|`` below it) is shared: a seki's
#: liberty when alive groups of both colours touch it.
SHARED_BELOW = 0.5


def ownership(pos: GoPosition, playouts: int = OWNERSHIP_PLAYOUTS, seed: int = 1,
              heavy: bool = True) -> list[float]:
    """Each point's mean owner over ``playouts`` playouts from ``pos`` (in move order,
    ``A1`` first): +1 Black's every time, -1 White's every time. A finished game is
    played on as if neither side had passed."""
    board = pos.game.playout_board()
    board.clear_owner()
    for i in range(playouts):
        board.load(pos.board, i & 1, 0, 0)
        board.run((seed * 0x9E3779B97F4A7C15 + i) & 0xFFFFFFFFFFFFFFFF, heavy)
    return [board.owner[i] / playouts for i in range(board.npoints)]


def _groups(pos: GoPosition) -> list[list[int]]:
    """The groups of stones, each a list of board indices."""
    board, stride = pos.board, pos.stride
    seen: set[int] = set()
    groups = []
    for p in pos.points:
        if board[p] in (BLACK, WHITE) and p not in seen:
            group, stack = [], [p]
            seen.add(p)
            while stack:
                x = stack.pop()
                group.append(x)
                for y in (x + 1, x - 1, x + stride, x - stride):
                    if board[y] == board[p] and y not in seen:
                        seen.add(y)
                        stack.append(y)
            groups.append(group)
    return groups


def final_status(pos: GoPosition, owner: list[float]) -> dict[str, list[int]]:
    """The board indices of the stones ``dead``, ``alive`` and in ``seki`` (GTP's
    ``final_status_list``), judged from ``owner`` (:func:`ownership`)."""
    board, stride, width = pos.board, pos.stride, pos.game.width

    def own(p: int) -> float:
        return owner[(p // stride - 1) * width + p % stride - 1]

    status: dict[str, list[int]] = {"dead": [], "alive": [], "seki": []}
    groups = _groups(pos)
    dead: set[int] = set()
    for group in groups:
        sign = 1 if board[group[0]] == BLACK else -1
        if sum(sign * own(p) for p in group) / len(group) < DEAD_BELOW:
            dead.update(group)
    for group in groups:
        if group[0] in dead:
            status["dead"].extend(group)
            continue
        colour = board[group[0]]
        # Seki: a liberty owned by neither side that an alive enemy group also touches.
        seki = False
        for x in group:
            for y in (x + 1, x - 1, x + stride, x - stride):
                if board[y] == EMPTY and abs(own(y)) < SHARED_BELOW and any(
                        board[z] == 3 - colour and z not in dead for z in (y + 1, y - 1, y + stride, y - stride)):
                    seki = True
        status["seki" if seki else "alive"].extend(group)
    return {k: sorted(v) for k, v in status.items()}


def dead_stones(pos: GoPosition, owner: list[float]) -> list[int]:
    """The board indices of the stones judged dead from ``owner``."""
    return final_status(pos, owner)["dead"]


def final_score_by_ownership(pos: GoPosition, owner: list[float]) -> int:
    """Twice Black's area less White's, less komi, once the stones judged dead from
    ``owner`` are taken off (positive: Black wins)."""
    after = pos.copy()
    for p in dead_stones(pos, owner):
        after.board[p] = EMPTY
    return after.score2()


def score_text(score2: int) -> str:
    """A score of :func:`final_score_by_ownership` as GTP's ``final_score`` writes it."""
    if score2 == 0:
        return "0"
    return f"{'B' if score2 > 0 else 'W'}+{abs(score2) / 2:g}"
