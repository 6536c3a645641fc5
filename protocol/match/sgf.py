"""Go game records as SGF (FF[4]), written through sgfmill.

A :class:`protocol.records.GameRecord` of a Go game becomes one SGF game tree:
board size and komi from the game, ``PB``/``PW`` the players, ``RE`` the result
(``B+7.5`` by the area count at a normal end, ``B+R`` a resignation, ``B+T`` a loss
on time, ``B+F`` another forfeit, ``0`` a draw, ``?`` unfinished), ``RU`` the rules,
the record's tags (event, round, date) in their SGF properties, each move's comment
(the engine's score and time) as the node's ``C`` and the reason of the ending as
the last node's. A match appends one tree per game: the file is an SGF collection.
Go's result and board, as GTP and SGF name them, are asked of the game here too.
"""

from __future__ import annotations

from typing import Any

# sgfmill ships no type information.
from sgfmill import common, sgf  # type: ignore[import-untyped]

import games
from engine.game import Game, Position
from protocol.records import GameRecord


def game_spans(data: bytes) -> tuple[list[tuple[int, int]], int]:
    r"""The byte spans of the game trees of an SGF collection, and where a tree left
    open at the end begins (``len(data)`` when none is): brackets inside property
    values (``C[a (note)]``, escaped ``\]``) are no tree's.

    >>> game_spans(rb"(;C[a ( b \] c]) (;B[aa])(;W[")
    ([(0, 16), (17, 25)], 25)
    """
    spans, depth, start, in_value, escaped = [], 0, 0, False, False
    for i, byte in enumerate(data):
        if in_value:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x5D:  # ]
                in_value = False
        elif byte == 0x5B:  # [
            in_value = True
        elif byte == 0x28:  # (
            if depth == 0:
                start = i
            depth += 1
        elif byte == 0x29 and depth:  # )
            depth -= 1
            if depth == 0:
                spans.append((start, i + 1))
    return spans, start if depth or in_value else len(data)


def tree_round(tree: bytes) -> tuple[str | None, str | None]:
    """The event (``EV``) and round (``RO``) of one SGF game tree; ``ValueError`` when
    sgfmill cannot read it."""
    root = sgf.Sgf_game.from_bytes(tree).get_root()
    event = root.get("EV") if root.has_property("EV") else None
    return event, root.get("RO") if root.has_property("RO") else None


def go_board(game: Game) -> tuple[int, float] | None:
    """The board size and komi GTP is told for ``game``: a Go board (square,
    ``boardsize`` is one number); ``None`` for any other game."""
    return game.gtp_board()


def rectangular(data: bytes, width: int, height: int) -> bytes:
    """An SGF written on a square board of the longer side (rows from the top) with its
    size made ``SZ[width:height]``, as FF[4] writes a rectangular board.

    >>> rectangular(b"(;FF[4]GM[1]SZ[7];B[ab])", 7, 5)
    b'(;FF[4]GM[1]SZ[7:5];B[ab])'
    """
    if width == height:
        return data
    return data.replace(b"SZ[%d]" % max(width, height), b"SZ[%d:%d]" % (width, height), 1)


#: How each record ending reads in SGF's ``RE`` after ``B+``/``W+``.
_ENDINGS = {"resignation": "R", "time forfeit": "T"}


def result_text(rec: GameRecord, score: str | None) -> str:
    """SGF's ``RE`` of ``rec``; ``score`` is the area result of a normal end (``B+7.5``).

    >>> result_text(GameRecord("go", ("a", "b"), "0-1", termination="resignation"), None)
    'W+R'
    """
    if rec.result == "1/2-1/2":
        return "0"
    if rec.result not in ("1-0", "0-1"):
        return "?"
    if rec.termination == "normal" and score:
        return score
    winner = "B" if rec.result == "1-0" else "W"
    return f"{winner}+{_ENDINGS.get(rec.termination, 'F')}"


def to_sgf(rec: GameRecord, score: str | None = None, game: Any = None) -> bytes:
    """One SGF game tree of the Go game ``rec`` (a set-up start as ``AB``/``AW`` and ``PL``),
    played on ``game`` (its size, komi and ko rule; by default the record's game)."""
    if game is None:
        game = games.load(rec.game, **rec.params)
    width, height = game.width, game.height
    if width != height:
        raise ValueError(f"SGF here is for square boards, not {width}x{height}")
    tree = sgf.Sgf_game(width)
    root = tree.get_root()
    root.set("KM", game.komi)
    root.set("RU", "Tromp-Taylor" if game.superko else "Tromp-Taylor, simple ko")
    root.set("PB", rec.players[0])
    root.set("PW", rec.players[1])
    root.set("RE", result_text(rec, score))
    # "?" and "-" are the records' placeholders for an unknown site or round.
    for tag, prop in (("Event", "EV"), ("Round", "RO"), ("Site", "PC")):
        if rec.tags.get(tag, "?") not in ("?", "-"):
            root.set(prop, rec.tags[tag])
    if rec.tags.get("Date"):
        root.set("DT", rec.tags["Date"].replace(".", "-"))
    first = 0
    if rec.start:
        # A set-up position: its stones (rows from the top) and the side to move.
        pos = game.new_position(rec.start)
        rows = pos.rows()
        stones = {colour: {(height - 1 - r, c) for r, row in enumerate(rows)
                           for c, ch in enumerate(row) if ch == colour} for colour in "xo"}
        root.set_setup_stones(stones["x"], stones["o"])
        first = pos.turn
        root.set("PL", "bw"[first])
    node = root
    for i, text in enumerate(rec.moves):
        node = tree.extend_main_sequence()
        node.set_move("bw"[(first + i) % 2], common.move_from_vertex(text, width))
        comment = rec.comments[i] if i < len(rec.comments) else None
        if comment:
            node.set("C", comment)
    if rec.reason:
        old = node.get("C") if node.has_property("C") else ""
        node.set("C", f"{old}\n{rec.reason}" if old else rec.reason)
    return tree.serialise()
