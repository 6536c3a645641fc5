"""Tic-tac-toe's whole game as a table file, in the format of the endgame tables.

The chapters give tic-tac-toe's value "by search and by a table". The search
solves it on first use (:mod:`games.solved_game`); this writes the same
knowledge as a ``.ztb`` file (:mod:`engine.tablefile`) that ``zermelo tables``
reads back. The index is the board in base 3, one digit a cell in the game's
cell order (0 empty, 1 X, 2 O), after a part for the side to move: X's positions
first, then O's, ``2 × 3^9 = 39,366`` entries. Every position reachable from the
start is solved by a memoised search over the game's own rules, the ``dtm1``
value of the side to move (plies to the end, the winner hurrying, the loser
delaying); a position already won by the player who just moved is a loss in 0
plies; the others are not legal.

>>> import games
>>> game = games.load("tictactoe")
>>> values = solve(game)
>>> int(values[index(game, game.new_position())]), int((values != ILLEGAL).sum())
(0, 5478)
"""

from __future__ import annotations

import pathlib

import numpy as np

from engine import tablefile
from games.mnk import MnkGame, MnkPosition

#: The games whose whole game ``zermelo tables build`` writes to a file.
GAMES = ("tictactoe",)
ILLEGAL = int(np.iinfo(np.int16).min)


def entries(game: MnkGame) -> int:
    return 2 * 3 ** len(game.cells)


def index(game: MnkGame, pos: MnkPosition) -> int:
    """The entry of ``pos``: its side to move, then its board in base 3."""
    x, o = pos.stones
    board = 0
    for cell in reversed(game.cells):
        board = board * 3 + (1 if x >> cell & 1 else 2 if o >> cell & 1 else 0)
    return pos.turn * 3 ** len(game.cells) + board


def position_text(game: MnkGame, idx: int) -> str:
    """The position of entry ``idx``, in the game's text (rows from the top)."""
    size = 3 ** len(game.cells)
    turn, board = divmod(idx, size)
    marks = {}
    for cell in game.cells:
        board, digit = divmod(board, 3)
        marks[cell] = ".xo"[digit]
    rows = ["".join(marks[r * game.width + c] for c in range(game.m)) for r in range(game.n - 1, -1, -1)]
    return f"{'/'.join(rows)} {'xo'[turn]}"


def _rank(v: int) -> int:
    """Order of ``dtm1`` values for the side to move: a quick win best, a slow loss before a quick one."""
    return 0 if v == 0 else (1000 - v if v > 0 else -1000 - v)


def solve(game: MnkGame) -> np.ndarray:
    """Every position reachable from the start, valued (``dtm1``, int16); the rest :data:`ILLEGAL`."""
    values = np.full(entries(game), ILLEGAL, dtype=np.int16)
    pos = game.new_position()

    def walk() -> int:
        idx = index(game, pos)
        if values[idx] != ILLEGAL:
            return int(values[idx])
        result = pos.outcome()
        moves = pos.legal_moves() if result is None else []
        if not moves:
            r = pos.no_moves_value() if result is None else result
            value = 0 if r == 0 else (1 if r > 0 else -1)
        else:
            value = -1000
            for m in moves:
                pos.push(m)
                child = walk()
                pos.pop()
                # The child's loss in n plies is a win in n + 1 here, and the other way round.
                mine = 0 if child == 0 else (-child + 1 if child < 0 else -child - 1)
                if value == -1000 or _rank(mine) > _rank(value):
                    value = mine
        values[idx] = value
        return value

    walk()
    return values


def table_path(directory: str | pathlib.Path, game: MnkGame) -> pathlib.Path:
    return pathlib.Path(directory) / f"{game.name}.ztb"


def expected_header(game: MnkGame) -> dict:
    return {"game": game.name, "material": "whole game", "entries": entries(game), "sides": 2,
            "m": game.m, "n": game.n, "k": game.k}


def write_table(directory: str | pathlib.Path, game: MnkGame, values: np.ndarray) -> pathlib.Path:
    header = expected_header(game)
    extra = {key: header[key] for key in ("sides", "m", "n", "k")}
    path = table_path(directory, game)
    path.parent.mkdir(parents=True, exist_ok=True)  # as the chess tables' builder does
    return tablefile.write(path, values, game=game.name, material="whole game",
                           stm_convention="a part per side to move (x, o), then the board in base 3",
                           extra={**extra, "players": list(game.players)})


def probe(path: str | pathlib.Path, game: MnkGame, pos: MnkPosition) -> int:
    """The ``dtm1`` value of ``pos`` read from the table file (:class:`engine.tablefile.TableError`
    for a file that is not this game's whole-game table)."""
    table = tablefile.open_table(path, expect=expected_header(game))
    return int(table.values[index(game, pos)])
