"""Boards for ``zermelo play``: each game's position text drawn as styled text.

A renderer reads only the public position text (``Position.to_text()``, the
format each game documents) and returns prompt_toolkit formatted text: a list
of ``(style, text)`` pairs whose styles are the classes of :data:`STYLE_RULES`.
The cells that changed with the last move are highlighted, found by comparing
the cells of the position before the move with the current ones; the game
needs no notion of "the squares of a move".

Renderers are registered by game name in :data:`RENDERERS`; a game without
one is shown with its own ``render()`` text.

>>> import games
>>> game = games.load("tictactoe")
>>> view = View(game, game.new_position(".../.x./... o"), ".../.../... x")
>>> print("".join(text for _, text in draw(view)))
   a  b  c
3  ·  ·  ·  3
2  ·  X  ·  2
1  ·  ·  ·  1
   a  b  c
<BLANKLINE>
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, cast

from engine.game import Game, Position

if TYPE_CHECKING:
    from games.connect4 import Connect4Game
    from games.mnk import MnkGame
    from games.nim import NimParams

Fragments = list[tuple[str, str]]
Cell = tuple[int, int]

#: Style classes used by the boards; :mod:`protocol.terminal.app` builds its Style from them.
STYLE_RULES: dict[str, str] = {
    "coord": "#8a8a8a",
    # Mid-tone squares, so that white and black pieces both stand out on both
    # (contrast 3:1 or more, WCAG's measure; tests/test_play_screen.py checks it).
    "light": "bg:#b58863",
    "dark": "bg:#86592f",
    "last-light": "bg:#958a35",
    "last-dark": "bg:#7a6f22",
    "white-piece": "#ffffff bold",
    "black-piece": "#000000 bold",
    "square-number": "#5b3d22",
    "felt": "bg:#2e7d32",
    "last-felt": "bg:#4c8a2e",
    "legal": "#a5d6a7",
    "rack": "bg:#1e3a8a",
    "last-rack": "bg:#374151",
    "first-disc": "#ff6b6b bold",
    "second-disc": "#facc15 bold",
    "hole": "#4f6bb8",
    # The line that won (Connect Four, m,n,k): its pieces in reverse video.
    "win": "reverse",
    "paper": "bg:#f1e4c3",
    "last-paper": "bg:#e3d27a",
    "x-mark": "#b91c1c bold",
    "o-mark": "#1d4ed8 bold",
    "dot": "#9c8a66",
    "pit": "bg:#8d6e63 #ffffff bold",
    "last-pit": "bg:#c9a44c #000000 bold",
    "store": "bg:#5d4037 #ffffff bold",
    "last-store": "bg:#b08a2e #000000 bold",
    "coin": "#f59e0b bold",
    "taken": "#6b6b6b",
    # Rolit's balls and the N-player m,n,k-game's third and fourth stones.
    "red-ball": "#dc2626 bold",
    "yellow-ball": "#facc15 bold",
    "green-ball": "#16a34a bold",
    "blue-ball": "#2563eb bold",
    "plus-mark": "#15803d bold",
    "star-mark": "#7e22ce bold",
}


@dataclass
class View:
    """What a renderer draws: the current position and the text before the last move."""

    game: Game
    pos: Position
    last: str | None = None
    """Position text before the last move; ``None`` when no move has been played."""
    flipped: bool = False
    """Draw the board from the second player's side."""
    mono: bool = False
    """The terminal shows no colour: the sides are told apart by the glyphs' shapes."""
    text: str = field(init=False)

    def __post_init__(self) -> None:
        self.text = self.pos.to_text()


def draw(view: View) -> Fragments:
    """The board of ``view`` as formatted text, by the game's renderer or its ``render()``."""
    renderer = RENDERERS.get(view.game.name)
    if renderer is None:
        return [("", view.pos.render())]
    return renderer(view)


def _changed(cells: dict[Cell, str], before: dict[Cell, str] | None) -> set[Cell]:
    if before is None:
        return set()
    return {c for c in cells.keys() | before.keys() if cells.get(c, "") != before.get(c, "")}


def _grid(view: View, rows: int, cols: int, parse: Callable[[str], dict[Cell, str]],
          paint: Callable[[Cell, str, bool], tuple[str, str]],
          row_labels: list[str] | None, col_labels: list[str] | None,
          side: list[str] | None = None) -> Fragments:
    """A rectangular board: ``paint(cell, code, last)`` gives the style and 3-character
    text of each cell; row 0 is the top row of the unflipped board."""
    cells = parse(view.text)
    changed = _changed(cells, parse(view.last) if view.last is not None else None)
    order_r = range(rows - 1, -1, -1) if view.flipped else range(rows)
    order_c = range(cols - 1, -1, -1) if view.flipped else range(cols)
    width = max((len(s) for s in row_labels), default=0) if row_labels else 0
    out: Fragments = []

    def header() -> None:
        if col_labels:
            labels = "".join(f"{col_labels[c]:^3}" for c in order_c)
            out.append(("class:coord", (" " * (width + 1) + labels).rstrip() + "\n"))

    header()
    for i, r in enumerate(order_r):
        if row_labels:
            out.append(("class:coord", f"{row_labels[r]:>{width}} "))
        for c in order_c:
            out.append(paint((r, c), cells.get((r, c), ""), (r, c) in changed))
        if row_labels:
            out.append(("class:coord", f" {row_labels[r]}"))
        if side and i < len(side):
            out.append(("class:coord", side[i]))
        out.append(("", "\n"))
    header()
    return out


def _expand(row: str) -> str:
    """A row with FEN-style digit runs of empty cells written out as dots."""
    return re.sub(r"\d+", lambda m: "." * int(m.group()), row)


# -- chess -----------------------------------------------------------------------

#: Solid glyphs for both sides, told apart by their colour: an outline glyph in white
#: is a thin line that fades into a light square. Without colour White's are outlines.
_CHESS_GLYPHS = dict(zip("KQRBNPkqrbnp", "♚♛♜♝♞♟♚♛♜♝♞♟"))
_CHESS_OUTLINES = dict(zip("KQRBNP", "♔♕♖♗♘♙"))


def _chess_cells(text: str) -> dict[Cell, str]:
    cells = {}
    for r, row in enumerate(text.split()[0].split("/")):
        for c, ch in enumerate(_expand(row)):
            if ch != ".":
                cells[r, c] = ch
    return cells


def _chequer(r: int, c: int, last: bool) -> str:
    shade = "light" if (r + c) % 2 == 0 else "dark"
    return f"class:last-{shade}" if last else f"class:{shade}"


def _chess(view: View) -> Fragments:
    def paint(cell: Cell, code: str, last: bool) -> tuple[str, str]:
        bg = _chequer(*cell, last)
        if not code:
            return bg, "   "
        colour = "white-piece" if code.isupper() else "black-piece"
        glyph = _CHESS_OUTLINES[code] if view.mono and code.isupper() else _CHESS_GLYPHS[code]
        return f"{bg} class:{colour}", f" {glyph} "

    return _grid(view, 8, 8, _chess_cells, paint, [str(8 - r) for r in range(8)], list("abcdefgh"))


# -- draughts --------------------------------------------------------------------

#: Men and kings, solid for both sides as in chess (White's outlined without colour).
_DRAUGHTS_GLYPHS = {"w": "⛂", "W": "⛃", "b": "⛂", "B": "⛃"}
_DRAUGHTS_OUTLINES = {"w": "⛀", "W": "⛁"}
_PIECE = re.compile(r"(K?)([a-h]\d+|\d+)")


def _draughts_cells(text: str, place: Callable[[str], Cell]) -> dict[Cell, str]:
    """Cells of a draughts FEN (``W:W21,K22:B1,2``): ``w``/``b`` men, ``W``/``B`` kings."""
    cells = {}
    for part in text.split(":")[1:]:
        colour = part[:1].lower()
        for name in part[1:].split(","):
            m = _PIECE.fullmatch(name.strip())
            if m:
                cells[place(m.group(2))] = colour.upper() if m.group(1) else colour
    return cells


def _numbered_square(name: str, size: int = 8) -> Cell:
    """Square ``name`` of the numbered boards (checkers 1-32, international draughts
    1-50): ``size // 2`` a row from the top, the top row's on the odd columns
    (Black's side, as in the published numbering)."""
    n, per_row = int(name) - 1, size // 2
    r = n // per_row
    return r, 2 * (n % per_row) + (1 if r % 2 == 0 else 0)


def _algebraic_square(name: str) -> Cell:
    return 8 - int(name[1:]), ord(name[0]) - ord("a")


def _draughts_paint(cell: Cell, code: str, last: bool, number: str = "", mono: bool = False) -> tuple[str, str]:
    bg = _chequer(*cell, last)
    if not code:
        return (f"{bg} class:square-number", f"{number:>3}") if number else (bg, "   ")
    colour = "white-piece" if code.lower() == "w" else "black-piece"
    glyph = _DRAUGHTS_OUTLINES[code] if mono and code in _DRAUGHTS_OUTLINES else _DRAUGHTS_GLYPHS[code]
    return f"{bg} class:{colour}", f" {glyph} "


def _numbered(view: View, size: int) -> Fragments:
    count = size * size // 2
    numbers = {_numbered_square(str(n), size): str(n) for n in range(1, count + 1)}

    def paint(cell: Cell, code: str, last: bool) -> tuple[str, str]:
        return _draughts_paint(cell, code, last, numbers.get(cell, ""), view.mono)

    # The numbering beside the board, since pieces hide the numbers of their squares.
    key = []
    last = size - 1
    for r in (range(last, -1, -1) if view.flipped else range(size)):
        nums = [numbers[r, c] for c in (range(last, -1, -1) if view.flipped else range(size)) if (r, c) in numbers]
        indent = "  " if (r % 2 == 0) != view.flipped else ""
        key.append("    " + indent + "".join(f"{n:>4}" for n in nums))
    return _grid(view, size, size, lambda t: _draughts_cells(t, lambda name: _numbered_square(name, size)),
                 paint, None, None, key)


def _checkers(view: View) -> Fragments:
    return _numbered(view, 8)


def _international(view: View) -> Fragments:
    return _numbered(view, 10)


def _shashki(view: View) -> Fragments:
    def paint(cell: Cell, code: str, last: bool) -> tuple[str, str]:
        return _draughts_paint(cell, code, last, mono=view.mono)

    return _grid(view, 8, 8, lambda t: _draughts_cells(t, _algebraic_square), paint,
                 [str(8 - r) for r in range(8)], list("abcdefgh"))


# -- reversi ---------------------------------------------------------------------

def _reversi(view: View) -> Fragments:
    def cells(text: str) -> dict[Cell, str]:
        board = text.split()[0]
        return {(i // 8, i % 8): ch for i, ch in enumerate(board) if ch in "XO"}

    legal = set()
    for move in view.pos.legal_moves():
        name = view.pos.move_text(move)
        if name != "pass":
            legal.add((int(name[1:]) - 1, ord(name[0]) - ord("a")))

    def paint(cell: Cell, code: str, last: bool) -> tuple[str, str]:
        bg = "class:last-felt" if last else "class:felt"
        if code == "X":
            return f"{bg} class:black-piece", " ● "
        if code == "O":
            return f"{bg} class:white-piece", " ○ " if view.mono else " ● "
        if cell in legal:
            return f"{bg} class:legal", " · "
        return bg, "   "

    # Each side's discs beside the first rows, as the game counts them at the end.
    board = view.text.split()[0]
    side = [f"  black {board.count('X')}", f"  white {board.count('O')}"]
    return _grid(view, 8, 8, cells, paint, [str(r + 1) for r in range(8)], list("abcdefgh"), side)


# -- Rolit ---------------------------------------------------------------------------

_BALLS = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}


def _rolit(view: View) -> Fragments:
    def cells(text: str) -> dict[Cell, str]:
        board = text.split()[0]
        return {(i // 8, i % 8): ch for i, ch in enumerate(board) if ch in _BALLS}

    legal = set()
    for move in view.pos.legal_moves():
        name = view.pos.move_text(move)
        legal.add((int(name[1:]) - 1, ord(name[0]) - ord("a")))

    def paint(cell: Cell, code: str, last: bool) -> tuple[str, str]:
        bg = "class:last-felt" if last else "class:felt"
        if code:
            return f"{bg} class:{_BALLS[code]}-ball", f" {code.upper()} "
        if cell in legal:
            return f"{bg} class:legal", " · "
        return bg, "   "

    # Each player's count beside the first rows, then the balls of colours not in play.
    board = view.text.split()[0]
    side = [f"  {name} {board.count(code)}" for code, name in _BALLS.items() if name in view.game.players]
    neutral = sum(board.count(code) for code, name in _BALLS.items() if name not in view.game.players)
    if neutral:
        side.append(f"  neutral {neutral}")
    return _grid(view, 8, 8, cells, paint, [str(r + 1) for r in range(8)], list("abcdefgh"), side)


# -- m,n,k, tic-tac-toe and Connect Four ---------------------------------------------

def _size(text: str) -> tuple[int, int]:
    """Rows and columns of a ``/``-separated board text (rows from the top)."""
    rows = text.split()[0].split("/")
    return len(rows), len(_expand(rows[0]))


def _stones(text: str) -> dict[Cell, str]:
    rows = text.split()[0].split("/")
    return {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(_expand(row)) if ch in "xo+*"}


_MARKS = {"x": "x-mark", "o": "o-mark", "+": "plus-mark", "*": "star-mark"}


def _winning_cells(view: View, cells: dict[Cell, str], k: int) -> set[Cell]:
    """The cells of every run of ``k`` or more same stones, once the game is over
    (before that no such run stands on the board)."""
    if view.pos.outcome() is None:
        return set()
    won: set[Cell] = set()
    for (r, c), code in cells.items():
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            if cells.get((r - dr, c - dc)) == code:
                continue  # not the start of its run
            run = [(r, c)]
            while cells.get((run[-1][0] + dr, run[-1][1] + dc)) == code:
                run.append((run[-1][0] + dr, run[-1][1] + dc))
            if len(run) >= k:
                won.update(run)
    return won


def _mnk(view: View) -> Fragments:
    n, m = _size(view.text)
    # The renderers are per game: each reads its own game's documented attributes.
    won = _winning_cells(view, _stones(view.text), cast("MnkGame", view.game).k)

    def paint(cell: Cell, code: str, last: bool) -> tuple[str, str]:
        bg = "class:last-paper" if last else "class:paper"
        if not code:
            return f"{bg} class:dot", " · "
        return f"{bg} class:{_MARKS[code]}" + (" class:win" if cell in won else ""), f" {code.upper()} "

    return _grid(view, n, m, _stones, paint, [str(n - r) for r in range(n)],
                 [chr(ord("a") + c) for c in range(m)])


def _connect4(view: View) -> Fragments:
    rows, cols = _size(view.text)
    won = _winning_cells(view, _stones(view.text), cast("Connect4Game", view.game).connect)

    def paint(cell: Cell, code: str, last: bool) -> tuple[str, str]:
        bg = "class:last-rack" if last else "class:rack"
        if not code:
            return f"{bg} class:hole", " · "
        # Both discs solid (a hollow one reads as an empty hole), told apart by colour.
        disc = " ○ " if view.mono and code == "o" else " ● "
        return f"{bg} class:{'first' if code == 'x' else 'second'}-disc" + (" class:win" if cell in won else ""), disc

    # Gravity fixes the orientation: the board is never turned over.
    upright = View(view.game, view.pos, view.last, mono=view.mono)
    out = _grid(upright, rows, cols, _stones, paint, None, None)
    out.append(("class:coord", "".join(f"{c + 1:^3}" for c in range(cols)) + "\n"))
    return out


# -- Kalah ---------------------------------------------------------------------------

def _kalah(view: View) -> Fragments:
    def counts(text: str) -> list[int]:
        return [int(x) for x in text.split()[0].replace("/", ",").split(",")]

    now = counts(view.text)
    before = counts(view.last) if view.last is not None else now
    p = len(now) // 2 - 1
    names = view.game.players
    bottom = 1 if view.flipped else 0
    top = 1 - bottom

    def slot(i: int, store: bool) -> tuple[str, str]:
        kind = "store" if store else "pit"
        style = f"class:last-{kind}" if now[i] != before[i] else f"class:{kind}"
        return style, f"{now[i]:^4}"

    def base(player: int) -> int:
        return player * (p + 1)

    gap = ("", " ")
    out: Fragments = [("class:coord", "      " + "".join(f"{i:^4} " for i in range(p, 0, -1))
                       + f"   {names[top]}\n")]
    # The top player's pits run right to left, so sowing goes counter-clockwise.
    out.append(("", "      "))
    for i in range(p - 1, -1, -1):
        out += [slot(base(top) + i, False), gap]
    out.append(("", "\n"))
    out += [("", " "), slot(base(top) + p, True), ("", " " * (5 * p + 1)), slot(base(bottom) + p, True),
            ("class:coord", f"   stores: {names[top]} left, {names[bottom]} right\n")]
    out.append(("", "      "))
    for i in range(p):
        out += [slot(base(bottom) + i, False), gap]
    out.append(("", "\n"))
    out.append(("class:coord", "      " + "".join(f"{i:^4} " for i in range(1, p + 1)) + f"   {names[bottom]}\n"))
    return out


# -- Nim -------------------------------------------------------------------------------

def _nim(view: View) -> Fragments:
    def heaps(text: str) -> list[int]:
        return [int(h) for h in text.split()[0].split(",")]

    now = heaps(view.text)
    before = heaps(view.last) if view.last is not None else now
    params = cast("NimParams", view.game.params)
    out: Fragments = []
    for i, (h, b) in enumerate(zip(now, before)):
        out.append(("class:coord", f"heap {i + 1:>2}  "))
        out.append(("class:coin", "● " * h))
        out.append(("class:taken", "○ " * max(b - h, 0)))
        out.append(("", f" ({h})\n"))
    rule = "taking the last coin wins" if params.normal else "taking the last coin loses"
    out.append(("class:coord", f"\ntake 1..{params.max_take} coins from one heap; {rule}\n"))
    return out


# -- Go ------------------------------------------------------------------------------

def _go(view: View) -> Fragments:
    rows, cols = _size(view.text)

    def paint(cell: Cell, code: str, last: bool) -> tuple[str, str]:
        bg = "class:last-light" if last else "class:light"
        if code == "x":
            return f"{bg} class:black-piece", " ● "
        if code == "o":
            return f"{bg} class:white-piece", " ○ " if view.mono else " ● "
        return f"{bg} class:square-number", " · "

    # GTP's coordinates: rows counted from the bottom, the letter I skipped.
    return _grid(view, rows, cols, _stones, paint, [str(rows - r) for r in range(rows)],
                 list("ABCDEFGHJKLMNOPQRST"[:cols]))


RENDERERS: dict[str, Callable[[View], Fragments]] = {
    "chess": _chess,
    "checkers": _checkers,
    "shashki": _shashki,
    "brazilian": _shashki,
    "international": _international,
    "reversi": _reversi,
    "tictactoe": _mnk,
    "mnk": _mnk,
    "mnkmulti": _mnk,
    "rolit": _rolit,
    "connect4": _connect4,
    "kalah": _kalah,
    "nim": _nim,
    "go": _go,
}
