"""The UCI and UGI dialect: its lines parsed and printed, and its command table.

The parsing and printing are pure functions, no I/O; :class:`UciCommands` runs
the commands against the line server (:mod:`protocol.server.core`), which
writes what they answer. Tokens are separated by any white space; an unknown word in
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

import asyncio
import math
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine import build
from engine.timeman import PLAYER_CLOCK
from protocol.server import handshake
from protocol.server.identity import AUTHOR, NAME

if TYPE_CHECKING:
    from engine.timeman import Limits

#: Every command the server understands, in both dialects.
COMMANDS = frozenset({
    "uci", "ugi", "debug", "isready", "setoption", "register", "ucinewgame", "uginewgame",
    "position", "go", "stop", "ponderhit", "quit", "query", "d", "display", "help",
})

#: The answer to ``help``: the commands, one a line.
HELP = (
    "zermelo speaks UCI (start with 'uci'), UGI (start with 'ugi') and GTP (start with a GTP",
    "command such as 'protocol_version', or run 'zermelo gtp'); the commands of UCI and UGI:",
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
#: The clocks of games of more than two players, ``p1time … pNtime p1inc … pNinc``
#: (``PLAYER_CLOCK``; ``p1``/``p2`` are UGI's own words; the server refuses a player
#: the game lacks).


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
    from engine.multiplayer import VectorInfo

    # Games of more than two players report every player's value (index = player).
    vector = info.vector if isinstance(info, VectorInfo) else None
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


class UciCommands:
    """The UCI and UGI command table: each ``cmd_<word>`` runs one command against the
    line server's engine (:class:`protocol.server.core.Server`).

    Every ``go`` ends in exactly one ``bestmove``. A ``position``, ``go``,
    ``setoption`` or ``ucinewgame`` arriving during a search first stops it and
    waits for its ``bestmove``; ``go perft`` runs in a worker thread too and stops
    the same way. Bad input produces one ``info string error: ...`` line and leaves
    the state as it was; a ``go`` after a refused ``position`` answers
    ``bestmove (none)`` (see :mod:`engine.engine`).
    """

    def __init__(self, server) -> None:
        self.server = server

    def say(self, text: str) -> None:
        """An ``info string`` line (several if ``text`` has several lines)."""
        for line in text.splitlines() or [""]:
            self.server.write(f"info string {line}")

    def error(self, text: str) -> None:
        # Bad input may be huge (a 1 MB "position"): quote only its start.
        self.say(f"error: {text if len(text) <= 300 else text[:300] + '...'}")

    async def handle(self, line: str) -> None:
        """Execute one input line; exceptions become ``info string error`` lines."""
        cmd, args, skipped = split_command(line)
        if cmd is None:
            if skipped:
                unknown = f"unknown command {' '.join(skipped)[:100]!r}"
                if self.server.dialect is not None:
                    self.error(unknown)
                else:
                    # A person typing at a fresh server learns how to start; a GUI probing
                    # for another protocol ignores a line it does not know.
                    self.server.write(f"{unknown}; type 'uci' (or 'ugi') to start, or 'help'")
            return
        if skipped and self.server.debug:
            self.say(f"ignored {' '.join(skipped)[:100]!r}")
        try:
            await getattr(self, "cmd_" + cmd)(args)
        except Exception as e:  # bad input must never kill the server
            self.error(f"{cmd}: {e}")

    # -- commands ------------------------------------------------------------------

    async def cmd_uci(self, args: list[str]) -> None:
        self.handshake("uci")

    async def cmd_help(self, args: list[str]) -> None:
        # Plain text before the handshake; after it, info strings, which clients skip.
        for line in HELP:
            if self.server.dialect is None:
                self.server.write(line)
            else:
                self.say(line)

    async def cmd_ugi(self, args: list[str]) -> None:
        self.handshake("ugi")

    def handshake(self, dialect: str) -> None:
        self.server.dialect = dialect
        self.server.write(f"id name {NAME}")
        self.server.write(f"id author {AUTHOR}")
        shown = self.server.option_lines
        for line in handshake.option_lines(self.say):
            name = line[len("option name "):line.find(" type ")]
            self.server.write(shown.get(name, line))
        # Before the ok, where clients skip unknown lines: which build answers.
        self.server.write(f"info string build: {build.describe()}")
        self.server.write(f"{dialect}ok")

    async def cmd_debug(self, args: list[str]) -> None:
        if args[:1] not in (["on"], ["off"]):
            raise ValueError("expected 'debug on' or 'debug off'")
        self.server.debug = args[0] == "on"

    async def cmd_isready(self, args: list[str]) -> None:
        try:
            if not self.server.engine.is_searching() and self.server.perft_job is None:
                self.server.engine.prepare()  # returns at once: tables are built in the background
        finally:
            # readyok is a liveness ping: it must come even if the preparation failed.
            self.server.write("readyok")

    async def cmd_setoption(self, args: list[str]) -> None:
        name, value = parse_setoption(args)
        if name.lower() == "debug":
            # cutegames' sample settings send a bare ``setoption name debug``: the same
            # as ``debug on``; ``value false``/``off`` turns it off again.
            setting = value or "on"
            if setting.lower() not in ("on", "true", "off", "false"):
                raise ValueError(f"debug: expected true or false, got {setting[:40]!r}")
            self.server.debug = setting.lower() in ("on", "true")
            return
        await self.server.idle()
        for note in self.server.engine.set_option(name, value):
            self.say(note)

    async def cmd_register(self, args: list[str]) -> None:
        """No registration needed: accepted and ignored."""

    async def cmd_ucinewgame(self, args: list[str]) -> None:
        await self.server.idle()
        self.server.engine.new_game()

    cmd_uginewgame = cmd_ucinewgame

    async def cmd_position(self, args: list[str]) -> None:
        try:
            text, moves = parse_position(args)
        except ValueError as e:
            # The GUI believes it sent a position: no go may answer for the one kept.
            self.server.engine.refuse("position", f"position refused: {e}")
            raise
        await self.server.idle()
        self.server.engine.set_position(text, moves)

    async def cmd_go(self, args: list[str]) -> None:
        started = time.perf_counter()  # the clock runs from the go line, however long it is
        go = parse_go(args, len(self.server.engine.game.players))
        await self.server.idle()
        for err in go.errors:
            self.error(err)
        if "perft" in go.ints:
            self.perft(go.ints["perft"])
            return
        limits = self.limits(go)
        show_wdl = self.server.engine.options.show_wdl
        with_ponder = self.server.dialect != "ugi"

        def on_info(info, pv: list[str]) -> None:
            self.server.write(format_info(info, pv, show_wdl))

        def on_bestmove(best: str | None, ponder: str | None) -> None:
            self.server.write(format_bestmove(best, ponder, with_ponder))

        if self.server.debug:
            self.say(f"search {limits}")
        self.server.search(limits, on_info, on_bestmove, self.say, started=started)

    def limits(self, go: GoArgs) -> Limits:
        """The search limits of a ``go``, clocks mapped to player numbers.

        :func:`parse_go` already forced every number into its range.
        Move texts of ``searchmoves`` that are not legal here are dropped with one
        error line; when none is left the root is not restricted.
        """
        from engine.timeman import uci_limits

        engine = self.server.engine
        searchmoves = None
        if go.searchmoves is not None:
            searchmoves, bad = [], []
            for text in go.searchmoves:
                try:
                    searchmoves += engine.parse_moves([text])
                except ValueError:
                    bad.append(text)
            if bad:
                rest = "every move is searched" if not searchmoves else f"{len(searchmoves)} searched"
                self.error(f"searchmoves: ignored {len(bad)} not legal here ({rest}): {quote_some(bad)}")
        # p1time … pNtime, p1inc … pNinc: the K-th mover's clock (parse_go dropped K > N).
        return uci_limits(go.ints, len(engine.game.players), engine.clock_players(),
                          infinite=go.infinite, ponder=go.ponder, searchmoves=searchmoves)

    def perft(self, depth: int) -> None:
        """Start ``go perft``: counted in a worker thread, printed when done; a stop
        ends it with one ``info string`` line instead."""
        from engine.control import Control

        if depth < 1:
            raise ValueError("perft depth must be at least 1")
        control = Control()
        counting = asyncio.get_running_loop().run_in_executor(None, self.server.engine.divide, depth, control)
        self.server.perft_job = (control, asyncio.ensure_future(self._perft_result(counting)))

    async def _perft_result(self, counting: asyncio.Future) -> None:
        from engine.control import Stopped

        try:
            counts = await counting
        except Stopped:
            self.say("perft stopped")
            return
        except Exception as e:  # noqa: BLE001 - reported like any bad command
            self.error(f"go perft: {e}")
            return
        finally:
            self.server.perft_job = None
        for move, n in counts:
            self.server.write(f"{move}: {n}")
        self.server.write("")
        self.server.write(f"Nodes searched: {sum(n for _, n in counts)}")

    async def cmd_stop(self, args: list[str]) -> None:
        self.server.stop()

    async def cmd_ponderhit(self, args: list[str]) -> None:
        if self.server._engine is not None:
            self.server.engine.ponderhit()

    async def cmd_quit(self, args: list[str]) -> None:
        self.server.running = False

    async def cmd_query(self, args: list[str]) -> None:
        what = args[0] if args else ""
        if what == "gameover":
            self.server.write(f"response {str(self.server.engine.game_over()).lower()}")
        elif what == "p1turn":
            self.server.write(f"response {str(self.server.engine.position.turn == 0).lower()}")
        elif what == "turn":
            self.server.write(f"response p{self.server.engine.position.turn + 1}")
        elif what == "result":
            if not self.server.engine.game_over():
                self.server.write("response none")
            else:
                winner = self.server.engine.winner()
                self.server.write("response " + ("draw" if winner is None else f"p{winner + 1}win"))
        elif what == "ranking":
            ranking = self.server.engine.ranking()
            self.server.write("response " + ("none" if ranking is None else " ".join(map(str, ranking))))
        else:
            raise ValueError("expected 'query gameover', 'query p1turn', 'query turn', 'query result' "
                             "or 'query ranking'")

    async def cmd_d(self, args: list[str]) -> None:
        for line in self.server.engine.display():
            self.server.write(line)

    cmd_display = cmd_d


