"""py-draughts' engines behind the Hub protocol, for matches refereed by zermelo.

py-draughts (PyPI ``py-draughts``) imports as ``draughts``, as pydraughts does, so
this runs in an environment of its own with py-draughts and nothing of zermelo:

    python -m venv /tmp/pyd && /tmp/pyd/bin/pip install py-draughts
    zermelo match --game shashki --movetime 500 --engine "cmd=zermelo hub proto=hub" \\
        --engine "cmd='/tmp/pyd/bin/python scripts/py_draughts_hub.py' proto=hub"

It speaks the Hub commands a match runner sends (``hub``, ``set-param``,
``init``, ``new-game``, ``ping``, ``pos``, ``level``, ``go think``, ``quit``) for
the four variants both play: ``normal`` (international), ``russian``,
``brazilian`` and ``english``. Each ``pos`` is rebuilt on py-draughts' board and
every move of its ``moves`` is checked by py-draughts' rules: a move they refuse
is answered ``error`` and noted in ``--log``, so the match is refereed by
zermelo and cross-checked by py-draughts. International draughts is searched by
py-draughts' ``TurboEngine`` (10x10 only), the 8x8 variants by its ``SimpleEngine``;
``level move-time=S`` gives either the time ``S`` less ``--overhead``.

py-draughts numbers a board's dark squares 0, 1, ... from the top left of its
diagram, White (who moves first in every variant) at the bottom. A Hub board
string runs over the same squares in the same order, so it converts letter for
letter; Hub's move numbers differ by variant (``hub_number``). py-draughts'
American checkers lets a player pass over a capture; English draughts, which
zermelo plays, makes captures compulsory, and so does this engine's board.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import threading
import time

import draughts
from draughts.boards.american import Board as AmericanBoard
from draughts.boards.brazilian import Board as BrazilianBoard
from draughts.boards.russian import Board as RussianBoard
from draughts.boards.standard import Board as StandardBoard
from draughts.models import Color, Figure


class EnglishBoard(AmericanBoard):
    """py-draughts' American checkers with captures compulsory, as the English rules have them."""

    @property
    def legal_moves(self):
        moves = super().legal_moves
        captures = [m for m in moves if m.captured_list]
        return captures or moves


#: Hub variant name -> py-draughts board class.
BOARDS = {"normal": StandardBoard, "russian": RussianBoard, "brazilian": BrazilianBoard, "english": EnglishBoard}
LETTERS = {Figure.WHITE_MAN.value: "w", Figure.WHITE_KING.value: "W", Figure.BLACK_MAN.value: "b",
           Figure.BLACK_KING.value: "B", Figure.EMPTY.value: "e"}
FIGURES = {letter: value for value, letter in LETTERS.items()}


def hub_number(variant: str, index: int) -> int:
    """Hub's number of py-draughts' square ``index``: international draughts counts
    from the top left as py-draughts does, from 1; Russian and Brazilian moves count
    from White's side (square 1 = a1, along the rows); English moves use the checkers
    diagram, whose square 1 is py-draughts' last square (the first mover's far corner
    seen from the other side).

    >>> hub_number("normal", 0), hub_number("russian", 0), hub_number("russian", 28), hub_number("english", 0)
    (1, 29, 1, 32)
    """
    if variant == "normal":
        return index + 1
    if variant == "english":
        return 32 - index
    return (7 - index // 4) * 4 + index % 4 + 1


def board_string(board) -> str:
    """Hub's ``pos`` string of a board: the side to move and a letter a square."""
    side = "W" if board.turn == Color.WHITE else "B"
    return side + "".join(LETTERS[int(v)] for v in board.position)


def parse_board(variant: str, text: str):
    """A py-draughts board of ``variant`` from a Hub ``pos`` string."""
    import numpy as np

    cls = BOARDS[variant]
    if len(text) != cls.SQUARES_COUNT + 1 or text[0] not in "WB" or set(text[1:]) - set(FIGURES):
        raise ValueError(f"bad position {text[:60]!r} for {variant}")
    squares = np.array([FIGURES[c] for c in text[1:]], dtype=np.int8)
    return cls(starting_position=squares, turn=Color.WHITE if text[0] == "W" else Color.BLACK)


def move_parts(variant: str, move) -> tuple[int, int, list[int]]:
    """``(from, to, taken)`` of a py-draughts move in Hub's numbers, the taken ascending."""
    return (hub_number(variant, move.square_list[0]), hub_number(variant, move.square_list[-1]),
            sorted(hub_number(variant, i) for i in move.captured_list))


def move_text(variant: str, move) -> str:
    """Hub's text of a py-draughts move: ``32-28``, or ``28x19x23`` (from, to, taken)."""
    frm, to, taken = move_parts(variant, move)
    return "x".join(map(str, [frm, to, *taken])) if taken else f"{frm}-{to}"


def find_move(variant: str, board, text: str):
    """The legal move of ``board`` a Hub move text names (raises ``ValueError``)."""
    sep = "x" if "x" in text else "-"
    try:
        numbers = [int(n) for n in text.split(sep)]
    except ValueError:
        raise ValueError(f"bad move {text[:40]!r}") from None
    frm, to, taken = numbers[0], numbers[-1] if sep == "-" else numbers[1], set(numbers[2:])
    for move in board.legal_moves:
        f, t, tk = move_parts(variant, move)
        if (f, t) == (frm, to) and (not taken or set(tk) == taken) and bool(tk) == (sep == "x"):
            return move
    raise ValueError(f"{text} is not legal by py-draughts' rules in {board.fen}")


def parse_args(text: str) -> dict[str, str]:
    out = {}
    for word in shlex.split(text):
        key, _, value = word.partition("=")
        out[key] = value
    return out


class HubEngine:
    """The Hub dialogue in front of py-draughts' engine for one variant at a time."""

    def __init__(self, engine: str, overhead: float, log) -> None:
        self.choice = engine
        self.overhead = overhead
        self.log = log
        self.variant = "normal"
        self.level: dict[str, str] = {"move-time": "1"}
        self.board = None
        self.engine = None

    def write(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def error(self, text: str) -> None:
        self.write(f'error message="{text}"')
        if self.log:
            self.log.write(text + "\n")
            self.log.flush()

    def new_engine(self) -> None:
        turbo = self.choice == "turbo" or self.choice == "auto" and self.variant == "normal"
        self.engine = draughts.TurboEngine(depth_limit=64) if turbo else draughts.SimpleEngine(depth_limit=64)

    def handle(self, line: str) -> bool:
        cmd, _, rest = line.strip().partition(" ")
        args = parse_args(rest)
        if cmd == "hub":
            self.write(f"id name=py-draughts version={draughts.__version__}")
            self.write(f'param name=variant value=normal type=enum values="{" ".join(BOARDS)}"')
            self.write('param name=engine value=auto type=enum values="auto turbo simple"')
            self.write("wait")
        elif cmd == "set-param":
            name, value = args.get("name"), args.get("value", "")
            if name == "variant" and value in BOARDS:
                self.variant = value
            elif name == "engine" and value in ("auto", "turbo", "simple"):
                self.choice = value
            else:
                self.error(f"unknown param {name}={value}")
        elif cmd == "init":
            self.new_engine()
            self.write("ready")
        elif cmd == "new-game":
            self.new_engine()
        elif cmd == "ping":
            self.write("pong")
        elif cmd == "pos":
            try:
                board = parse_board(self.variant, args["pos"]) if "pos" in args else BOARDS[self.variant]()
                for text in args.get("moves", "").split():
                    board.push(find_move(self.variant, board, text))
                self.board = board
            except (ValueError, KeyError) as exc:
                self.error(str(exc))
        elif cmd == "level":
            self.level = args
        elif cmd == "go":
            self.think()
        elif cmd == "quit":
            return False
        elif cmd not in ("stop", "ponder-hit", ""):
            self.error(f"unknown command {cmd}")
        return True

    def think(self) -> None:
        board, engine = self.board, self.engine
        if board is None or not board.legal_moves:
            self.error("no position or no legal move")
            self.write("done")
            return
        start = time.perf_counter()
        timer = None
        if "depth" in self.level:
            engine.depth_limit, engine.time_limit = int(self.level["depth"]), None
        else:
            budget = max(0.01, float(self.level.get("move-time", 1)) - self.overhead)
            engine.depth_limit, engine.time_limit = 64, budget
            if isinstance(engine, draughts.SimpleEngine):
                # SimpleEngine looks at the clock every 2,048 nodes, a quarter of a
                # second on an 8x8 board: its own stop flag, raised on time, ends the search.
                timer = threading.Timer(budget, lambda: setattr(engine, "stop_search", True))
                timer.start()
        try:
            move, score = engine.get_best_move(board, with_evaluation=True)
        finally:
            if timer is not None:
                timer.cancel()
        used = time.perf_counter() - start
        depth = engine.completed_depth if isinstance(engine, draughts.TurboEngine) else 0
        self.write(f"info depth={depth} score={max(-99.0, min(99.0, score)):.2f} nodes={engine.nodes} time={used:.3f}")
        self.write(f"done move={move_text(self.variant, move)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", choices=["auto", "turbo", "simple"], default="auto",
                    help="py-draughts' engine: auto is TurboEngine on 10x10, SimpleEngine on 8x8")
    ap.add_argument("--overhead", type=float, default=0.05,
                    help="seconds of a move-time kept for the answer's way back (default 0.05)")
    ap.add_argument("--log", help="append every refused command and illegal move to this file")
    args = ap.parse_args()
    log = open(args.log, "a") if args.log else None
    hub = HubEngine(args.engine, args.overhead, log)
    for line in sys.stdin:
        if not hub.handle(line):
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
