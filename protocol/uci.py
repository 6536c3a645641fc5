"""Parsing and printing of UCI and UGI lines.

Pure functions, no I/O: :mod:`protocol.server` feeds them lines and writes
what they return. Tokens are separated by any white space; an unknown word in
front of a command is skipped, as the UCI text asks (``joho debug on`` is
``debug on``).

>>> split_command("  joho debug \\t on\\r")
('debug', ['on'], ['joho'])
>>> parse_setoption("name Move Overhead value 30".split())
('Move Overhead', '30')
>>> parse_position("fen 7 2 moves 1 2".split())
('7 2', ['1', '2'])
>>> format_score(999_995)
'mate 3'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

#: Every command the server understands, in both dialects.
COMMANDS = frozenset({
    "uci", "ugi", "debug", "isready", "setoption", "register", "ucinewgame", "uginewgame",
    "position", "go", "stop", "ponderhit", "quit", "query", "d", "display",
})

#: ``go`` parameters followed by an integer.
GO_INTS = frozenset({"wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime",
                     "p1time", "p2time", "p1inc", "p2inc", "perft"})
GO_FLAGS = frozenset({"infinite", "ponder"})
_GO_WORDS = GO_INTS | GO_FLAGS | {"searchmoves"}

#: Proven results without a distance print as centipawns below this, as Stockfish does for table wins.
TABLE_WIN_CP = 20_000


def split_command(line: str) -> tuple[str | None, list[str], list[str]]:
    """``(command, arguments, skipped words)``; command is ``None`` if the line has none."""
    tokens = line.split()
    for i, token in enumerate(tokens):
        if token in COMMANDS:
            return token, tokens[i + 1:], tokens[:i]
    return None, [], tokens


def parse_setoption(args: list[str]) -> tuple[str, str | None]:
    """Name and value (``None`` for buttons) of ``setoption name <id> [value <x>]``.

    Both may contain spaces; a value may be empty. Raises :class:`ValueError`.
    """
    if not args or args[0] != "name":
        raise ValueError("expected 'name <id> [value <x>]'")
    rest = args[1:]
    if "value" in rest:
        i = rest.index("value")
        name, value = " ".join(rest[:i]), " ".join(rest[i + 1:])
    else:
        name, value = " ".join(rest), None
    if not name:
        raise ValueError("missing option name")
    return name, value


def parse_position(args: list[str]) -> tuple[str | None, list[str]]:
    """Position text (``None`` = start position) and move texts of ``position``.

    Raises :class:`ValueError` when neither ``startpos`` nor ``fen`` starts it.
    """
    if not args:
        raise ValueError("expected 'startpos' or 'fen <text>'")
    moves: list[str] = []
    if "moves" in args:
        i = args.index("moves")
        args, moves = args[:i], args[i + 1:]
    if args == ["startpos"]:
        return None, moves
    if args[:1] == ["fen"] and len(args) > 1:
        return " ".join(args[1:]), moves
    raise ValueError(f"expected 'startpos' or 'fen <text>', got {' '.join(args)[:100]!r}")


@dataclass
class GoArgs:
    """The parameters of one ``go`` line, as written (clocks not yet mapped to players)."""

    ints: dict[str, int] = field(default_factory=dict)
    infinite: bool = False
    ponder: bool = False
    #: Move texts after ``searchmoves`` (``0000`` dropped); ``None`` without ``searchmoves``.
    searchmoves: list[str] | None = None
    #: Readable reasons for the parts that were ignored.
    errors: list[str] = field(default_factory=list)


def parse_go(args: list[str]) -> GoArgs:
    """Parse ``go`` parameters; bad values are reported in ``errors`` and ignored.

    ``searchmoves`` takes the rest of the line; unknown words are skipped.
    """
    go = GoArgs()
    i = 0
    while i < len(args):
        token = args[i]
        if token == "searchmoves":
            go.searchmoves = [t for t in args[i + 1:] if t != "0000"]
            break
        if token in GO_FLAGS:
            setattr(go, token, True)
        elif token in GO_INTS:
            if i + 1 == len(args) or args[i + 1] in _GO_WORDS:
                go.errors.append(f"go {token}: missing value")
            else:
                i += 1
                try:
                    go.ints[token] = int(args[i])
                except ValueError:
                    go.errors.append(f"go {token}: {args[i]!r} is not an integer")
        else:
            go.errors.append(f"go: unknown word {token!r} ignored")
        i += 1
    return go


def format_score(score: int) -> str:
    """``cp X`` or ``mate N`` (moves, negative when losing) from an internal score."""
    # engine.game brings pydantic along: imported when the first score is printed,
    # never before uciok.
    from engine.game import KNOWN_WIN, is_proven, mate_moves

    mate = mate_moves(score)
    if mate is not None:
        return f"mate {mate}"
    if is_proven(score):
        # A proven result without a distance (table hit): above every heuristic, like a TB win in Stockfish.
        ply = KNOWN_WIN - abs(score)
        return f"cp {TABLE_WIN_CP - ply if score > 0 else ply - TABLE_WIN_CP}"
    return f"cp {score}"


def wdl(score: int) -> tuple[int, int, int]:
    """Win/draw/loss per mille for the side to move.

    Proven results are certain; other scores go through a logistic model of
    the centipawn value (100 cp ahead wins about one game in five).
    """
    from engine.game import is_proven

    if is_proven(score):
        return (1000, 0, 0) if score > 0 else (0, 0, 1000)
    # Beyond ±10000 cp the model is flat; clamping keeps math.exp in range.
    score = max(-10_000, min(score, 10_000))
    w = round(1000 / (1 + math.exp((200 - score) / 80)))
    loss = round(1000 / (1 + math.exp((200 + score) / 80)))
    return w, 1000 - w - loss, loss


def format_info(info, pv: list[str], show_wdl: bool = False) -> str:
    """An ``info`` line from an :class:`engine.search.Info` and its PV as move texts."""
    parts = [f"info depth {info.depth} seldepth {info.seldepth} multipv {info.multipv} "
             f"score {format_score(info.score)}"]
    if info.bound in ("lowerbound", "upperbound"):
        parts.append(info.bound)
    elif info.bound in ("lower", "upper"):
        parts.append(info.bound + "bound")
    if show_wdl:
        parts.append("wdl %d %d %d" % wdl(info.score))
    parts.append(f"nodes {info.nodes} nps {info.nps} hashfull {info.hashfull} tbhits {info.tbhits} "
                 f"time {info.time_ms}")
    if pv:
        parts.append("pv " + " ".join(pv))
    return " ".join(parts)


def format_bestmove(best: str | None, ponder: str | None, with_ponder: bool = True) -> str:
    """``bestmove X [ponder Y]``; ``bestmove (none)`` without a legal move."""
    if best is None:
        return "bestmove (none)"
    if ponder is not None and with_ponder:
        return f"bestmove {best} ponder {ponder}"
    return f"bestmove {best}"
