"""pydraughts (imported as ``draughts``) as an independent referee of the draughts
rules: its legal moves and perft in zermelo's terms, and random positions to ask
both about (``scripts/draughts_referee.py``, ``tests/test_draughts_referee.py``).

A move is compared as ``"from-to:captured,..."`` in the game's square numbers
(1-50 on 10×10, 1-32 of the standard diagram on 8×8, square 1 at the top left),
the captured squares sorted: what the move does to the board, not its path.
"""

from __future__ import annotations

import random

from engine.game import bits
from games.draughts.board import CAP_SHIFT

#: zermelo's game -> pydraughts' variant.
VARIANTS = {"international": "standard", "shashki": "russian", "brazilian": "brazilian", "checkers": "english"}


def _key(frm: int, to: int, captured) -> str:
    return f"{frm}-{to}:" + ",".join(map(str, sorted(captured)))


def zermelo_moves(game, fen: str) -> set[str]:
    """zermelo's legal moves of ``fen`` as keys."""
    pos = game.new_position(fen)
    square, low = game.geometry.square, game.geometry.cap_low
    return {_key(square[m & 63], square[m >> 6 & 63], (square[i] for i in bits((m >> CAP_SHIFT) << low)))
            for m in pos.legal_moves()}


def _game(variant: str, fen: str):
    import draughts  # pydraughts

    return draughts.Board(variant=variant, fen=fen)._game


def _ours(variant: str, n: int) -> int:
    # pydraughts keeps English positions turned round, colours swapped.
    return 33 - n if variant == "english" else n


def pydraughts_moves(variant: str, fen: str) -> set[str]:
    """pydraughts' legal moves of ``fen`` (zermelo's FEN text) as keys."""
    paths, captures = _game(variant, fen).legal_moves()
    out = set()
    for path, caps in zip(paths, captures):
        taken = [_ours(variant, c) for c in caps if c is not None]
        out.add(_key(_ours(variant, path[0][0]), _ours(variant, path[-1][1]), taken))
    return out


def pydraughts_perft(variant: str, fen: str, depth: int) -> list[int]:
    """pydraughts' perft of ``fen`` at depths 1..``depth`` (a move is a distinct
    board change, as zermelo counts)."""
    counts = [0] * depth

    def walk(game, d: int) -> None:
        paths, captures = game.legal_moves()
        seen = {}
        for path, caps in zip(paths, captures):
            seen.setdefault((path[0][0], path[-1][1], frozenset(c for c in caps if c is not None)), path)
        counts[d] += len(seen)
        if d + 1 < depth:
            for path in seen.values():
                child = game.copy()
                child.push(path)
                walk(child, d + 1)

    walk(_game(variant, fen), 0)
    return counts


def random_positions(game, n: int, rng: random.Random) -> list[str]:
    """``n`` FENs with a legal move: half from random games from the start, half
    random placements of a few men and kings (men off their crowning rows)."""
    out: list[str] = []
    while len(out) < n // 2:
        pos = game.new_position()
        for _ in range(rng.randrange(1, 120)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        if pos.legal_moves():
            out.append(pos.to_text())
    geo = game.geometry
    squares = list(bits(geo.valid))
    while len(out) < n:
        rng.shuffle(squares)
        k = rng.randrange(2, 13)
        occ, kings = [0, 0], 0
        for j, i in enumerate(squares[:k]):
            p = j % 2
            if rng.random() < 0.35:
                kings |= 1 << i
            elif game.promo_mask[p] >> i & 1:
                continue
            occ[p] |= 1 << i
        if not occ[0] or not occ[1]:
            continue
        pos = game.position_class(game, (occ[0], occ[1]), kings, rng.randrange(2))
        if pos.legal_moves():
            out.append(pos.to_text())
    return out
