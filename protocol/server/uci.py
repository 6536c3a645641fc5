"""Parsing and printing of UCI and UGI lines.

Pure functions, no I/O: :mod:`protocol.server.core` feeds them lines and writes
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
>>> format_score(999_993, players=3)  # 7 plies: the mover's 1st, 4th and 7th
'mate 3'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

#: Every command the server understands, in both dialects.
COMMANDS = frozenset({
    "uci", "ugi", "debug", "isready", "setoption", "register", "ucinewgame", "uginewgame",
    "position", "go", "stop", "ponderhit", "quit", "query", "d", "display", "help",
})

#: The answer to ``help``: the commands, one a line.
HELP = (
    "zermelo speaks UCI (start with 'uci') and UGI (start with 'ugi'); commands:",
    "uci | ugi                       the handshake: identity, options, uciok/ugiok",
    "isready                         answered readyok",
    "setoption name N [value V]      e.g. setoption name UCI_Variant value connect4",
    "ucinewgame | uginewgame         a new game: start position, table cleared",
    "position startpos|fen T [moves M ...]",
    "go [depth D] [movetime MS] [nodes N] [mate N] [wtime/btime/winc/binc MS] [infinite] [perft D]",
    "stop | ponderhit                end the search (bestmove) | the expected move was played",
    "query gameover|p1turn|turn|result|ranking",
    "d                               the board, its text and the legal moves",
    "debug on|off | help | quit",
)

#: ``go`` parameters followed by an integer.
GO_INTS = frozenset({"wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime",
                     "p1time", "p2time", "p1inc", "p2inc", "perft"})
GO_FLAGS = frozenset({"infinite", "ponder"})
_GO_WORDS = GO_INTS | GO_FLAGS | {"searchmoves"}
#: The clocks of games of more than two players: ``p1time … pNtime p1inc … pNinc``
#: (``p1``/``p2`` are UGI's own words; the server refuses a player the game lacks).
PLAYER_CLOCK = re.compile(r"p([1-9][0-9]?)(time|inc)")


def _is_go_int(token: str) -> bool:
    return token in GO_INTS or PLAYER_CLOCK.fullmatch(token) is not None

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


#: Accepted range of each integer ``go`` parameter. A value outside is clamped into
#: it (and reported): clocks beyond ~24 days, depths beyond the search's limit and
#: mates beyond its longest countable distance mean "as much as possible".
MAX_MS = 2**31 - 1
MAX_DEPTH = 128  # engine.search.MAX_DEPTH
GO_RANGES = {
    **dict.fromkeys(("wtime", "btime", "p1time", "p2time", "winc", "binc", "p1inc", "p2inc", "movetime"),
                    (0, MAX_MS)),
    "movestogo": (0, 10_000), "depth": (1, MAX_DEPTH), "nodes": (1, 10**15), "mate": (1, MAX_DEPTH),
    "perft": (1, 64),
}
#: An integer as GUIs write it: ASCII digits only (``int()`` also takes ``²``-like
#: Unicode digits, underscores and surrounding blanks).
_INT_RE = re.compile(r"[+-]?[0-9]+")
#: How many offending words an error line quotes.
QUOTED = 5


def parse_int(text: str, lo: int, hi: int) -> tuple[int, bool]:
    """``(value, clamped)``: ``text`` as an integer forced into ``lo..hi``.

    Raises :class:`ValueError` unless ``text`` is a plain ASCII integer. Any number
    of digits is accepted (Python refuses to convert more than 4300).

    >>> parse_int("99999999999999999999999999999999999999999", 0, 1000), parse_int("-7", 1, 9)
    ((1000, True), (1, True))
    """
    if not _INT_RE.fullmatch(text):
        raise ValueError(f"{text[:20]!r} is not an integer")
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > 30:
        return (lo if text[0] == "-" else hi), True
    value = int(text)
    clamped = min(hi, max(lo, value))
    return clamped, clamped != value


def quote_some(words: list[str], limit: int = QUOTED) -> str:
    """The first few of ``words`` quoted, then ``…``: ``'a', 'b', …``."""
    shown = [repr(w[:20] + "…" if len(w) > 20 else w) for w in words[:limit]]
    return ", ".join(shown + (["…"] if len(words) > limit else []))


@dataclass
class GoArgs:
    """The parameters of one ``go`` line, as written (clocks not yet mapped to players)."""

    ints: dict[str, int] = field(default_factory=dict)
    infinite: bool = False
    ponder: bool = False
    #: Move texts after ``searchmoves`` (``0000`` dropped); ``None`` without ``searchmoves``.
    searchmoves: list[str] | None = None
    #: What was ignored or clamped, as one readable text (so one error line per ``go``).
    errors: list[str] = field(default_factory=list)


def parse_go(args: list[str], players: int = 2) -> GoArgs:
    """Parse ``go`` parameters; bad values are ignored, out-of-range ones clamped
    (:data:`GO_RANGES`), and all of it summed up in at most one ``errors`` entry.

    ``searchmoves`` takes the rest of the line; unknown words are skipped, and so
    are the clocks of players beyond the game's ``players``.

    >>> parse_go("depth 9999 frob movetime x".split()).errors
    ["go: depth 9999 clamped to 128; movetime: 'x' is not an integer; ignored 1 unknown word: 'frob'"]
    >>> parse_go("p1time 10 p4time 10".split(), players=3).errors
    ['go: p4time: no player 4 among 3 players']
    """
    go = GoArgs()
    problems: list[str] = []
    unknown: list[str] = []
    i = 0
    while i < len(args):
        token = args[i]
        if token == "searchmoves":
            go.searchmoves = [t for t in args[i + 1:] if t != "0000"]
            break
        if token in GO_FLAGS:
            setattr(go, token, True)
        elif (m := PLAYER_CLOCK.fullmatch(token)) and int(m.group(1)) > players:
            problems.append(f"{token}: no player {m.group(1)} among {players} players")
            i += 1 if i + 1 < len(args) and _INT_RE.fullmatch(args[i + 1]) else 0
        elif _is_go_int(token):
            if i + 1 == len(args) or args[i + 1] in _GO_WORDS or _is_go_int(args[i + 1]):
                problems.append(f"{token}: missing value")
            else:
                i += 1
                try:
                    value, clamped = parse_int(args[i], *GO_RANGES.get(token, (0, MAX_MS)))
                except ValueError as e:
                    problems.append(f"{token}: {e}")
                else:
                    go.ints[token] = value
                    if clamped:
                        problems.append(f"{token} {args[i][:20]}{'…' if len(args[i]) > 20 else ''} "
                                        f"clamped to {value}")
        else:
            unknown.append(token)
        i += 1
    if unknown:
        problems.append(f"ignored {len(unknown)} unknown word{'s' if len(unknown) > 1 else ''}: "
                        f"{quote_some(unknown)}")
    if problems:
        # Many bad values on one line still make one line, its first few problems quoted.
        shown = problems[:QUOTED] + ([f"{len(problems) - QUOTED} more"] if len(problems) > QUOTED else [])
        go.errors.append("go: " + "; ".join(shown))
    return go


def format_score(score: int, players: int = 2) -> str:
    """``cp X`` or ``mate N`` (moves, negative when losing) from an internal score.

    With more than two ``players`` N counts the mover's own moves as well: the
    plies to the end divided by the number of players, rounded up.
    """
    # engine.game brings pydantic along: imported when the first score is printed,
    # never before uciok.
    from engine.game import KNOWN_WIN, is_proven, mate_moves, mate_plies

    if players > 2:
        plies = mate_plies(score)
        mate = None if plies is None else (-1 if plies < 0 else 1) * -(-abs(plies) // players)
    else:
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
    # Games of more than two players report every player's value (index = player).
    vector = getattr(info, "vector", None)
    players = len(vector) if vector else 2
    parts = [f"info depth {info.depth} seldepth {info.seldepth} multipv {info.multipv} "
             f"score {format_score(info.score, players)}"]
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
    # The vector comes last since a string runs to the end of the line.
    if vector:
        parts.append("string vector " + " ".join(map(str, vector)))
    return " ".join(parts)


def format_bestmove(best: str | None, ponder: str | None, with_ponder: bool = True) -> str:
    """``bestmove X [ponder Y]``; ``bestmove (none)`` without a legal move."""
    if best is None:
        return "bestmove (none)"
    if ponder is not None and with_ponder:
        return f"bestmove {best} ponder {ponder}"
    return f"bestmove {best}"
