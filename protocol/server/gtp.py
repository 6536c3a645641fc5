"""The GTP dialect: Go Text Protocol version 2, for Go GUIs, servers and other engines,
and for Othello's (Edax, GRhino and Quarry speak it with Othello's coordinates).

Every command is answered ``=[id] result`` or ``?[id] error``, then an empty
line; ``id`` is the command's optional number, echoed. Lines are cleaned as
section 2 of the specification asks: control characters other than tab and
newline dropped, tabs made spaces, ``#`` comments removed, empty lines ignored.

The game served (``zermelo gtp --game``, GRhino's ``set_game``) tells its side of
GTP through its ``gtp()`` (:class:`engine.gtprules.GtpRules`): the notation, the
board's size, how a position goes on with the other colour to move, the board
shown and the score; the commands only a game has (Go's handicap, SGF and dead
stones) are listed for it alone.

The game record is kept here, as setup stones (handicap, an SGF's ``AB``/``AW``)
and the moves played with their colours, and handed to the engine as a
position text and moves (:meth:`engine.engine.Engine.set_position`), so that
``undo``, a changed ``komi`` and ``printsgf`` all start from it (:meth:`GtpCommands.line`
says how a colour playing twice and a game going on after its end are played).
A refused command leaves the record, the rules and the engine as they were.

``genmove`` searches on the engine's clock: ``time_settings``/``time_left``
become the search's limits, and without them each move gets ``--movetime``
milliseconds (``zermelo-movetime`` changes it). While it searches the reader
stays live: GoGui's ``# interrupt`` line (announced by ``gogui-interrupt``)
ends the search, which then answers its best move so far; other commands wait
for the answer, as GTP's order requires. ``quit``, end of input and SIGTERM
stop the search first. ``lz-analyze`` and ``kata-analyze`` (Leela Zero's and
KataGo's, which Sabaki and Lizzie send) stream the search's best lines until the
next command, KataGo's with each point's expected owner when asked;
``lz-genmove_analyze``/``kata-genmove_analyze`` stream them during a genmove.

``final_score`` is the game's own count where it has one (Othello's discs); for
Go, ``final_score`` and ``final_status_list`` answer what the game scores
(:meth:`games.go.GoGame.final_score`, :mod:`games.go.score`): the area as the
rules count it (Tromp-Taylor: stones and the empty regions bordered by one
colour only) once the dead stones are taken off, dead being the groups the
opponent owns at the end of most playouts (:mod:`games.go.ownership`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import sys
import time
from pathlib import Path
from typing import Callable

from engine.driver import Info
from engine.files import read_bounded
from engine.gtprules import GtpRules
from engine.mcts import MCTSSearcher, Resignation
from engine.position import Position
from engine.timeman import GtpClock, TimeManager, gtp_limits
from protocol.server.identity import NAME, VERSION
from protocol.server.uci import wdl

#: The registry name of the game GTP plays.
GAME = "go"
#: Milliseconds a move may take when the controller gave no time settings.
DEFAULT_MOVETIME_MS = 1000
#: SGF files larger than this are refused before they are read.
SGF_LIMIT = 4 * 1024 * 1024
#: Column letters of GTP vertices: ``I`` is skipped.
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
_VERTEX_RE = re.compile(r"([a-hj-z])([0-9]{1,2})", re.IGNORECASE)
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_ID_RE = re.compile(r"[0-9]{1,18}")
_INT_ARG_RE = re.compile(r"[+-]?[0-9]{1,9}")
#: The first GTP commands a fresh server switches to GTP on: those UCI does not have.
_OPENERS = frozenset({"protocol_version", "name", "version", "known_command", "list_commands",
                      "boardsize", "clear_board", "komi", "play", "genmove", "showboard"})

#: The commands a game has only when its GTP rules name them (:attr:`GtpRules.extras`).
OPTIONAL = frozenset({"fixed_handicap", "set_free_handicap", "loadsgf", "printsgf", "final_status_list",
                      "gogui-analyze_commands", "lz-analyze", "kgs-genmove_cleanup", "kata-analyze",
                      "lz-genmove_analyze", "kata-genmove_analyze", "zermelo-ownership",
                      "zermelo-candidates"})
#: The candidates an analysis reports at most (``maxmoves``), as Leela Zero's few best.
ANALYSIS_LINES = 10

_ANALYZE = (
    "string/Final score/final_score",
    "plist/Alive stones/final_status_list alive",
    "plist/Dead stones/final_status_list dead",
    "dboard/Ownership/zermelo-ownership",
    "gfx/Candidates/zermelo-candidates %c",
    "plist/Legal moves/all_legal %c",
    "string/Board/showboard",
)


class GtpError(ValueError):
    """A refused command: its text is the ``?`` answer."""


def clean(line: str) -> str:
    """The line as GTP reads it: control characters dropped, tabs made spaces, the
    comment cut off.

    >>> clean("12 play\\tb d4  # opening\\r")
    '12 play b d4  '
    """
    line = _CONTROL_RE.sub("", line.replace("\t", " "))
    return line.split("#", 1)[0]


def split(line: str) -> tuple[str, str | None, list[str]]:
    """``(id, command, arguments)`` of a cleaned line; ``id`` is ``""`` when absent and
    ``command`` is ``None`` for an empty line.

    >>> split("7 genmove  W ")
    ('7', 'genmove', ['W'])
    """
    words = line.split()
    ident = ""
    if words and _ID_RE.fullmatch(words[0]):
        ident, words = words[0], words[1:]
    if not words:
        return ident, None, []
    return ident, words[0], words[1:]


def opens_gtp(line: str) -> bool:
    """True when ``line``, a fresh server's first command, is one only GTP has."""
    return split(clean(line))[1] in _OPENERS


def parse_colour(text: str) -> int:
    """0 for Black, 1 for White (``b``, ``black``, ``w``, ``white``, any case)."""
    colour = {"b": 0, "black": 0, "w": 1, "white": 1}.get(text.lower())
    if colour is None:
        raise GtpError(f"invalid color {text[:20]!r}: expected b, black, w or white")
    return colour


def parse_vertex(text: str, width: int, height: int) -> tuple[int, int] | None:
    """``(column, row)`` from 0 at ``A1``, or ``None`` for ``pass``.

    >>> parse_vertex("j10", 19, 19), parse_vertex("PASS", 9, 9)
    ((8, 9), None)
    """
    if text.lower() == "pass":
        return None
    # ASCII only: Unicode case folding reads the long s as S and the Kelvin sign as K.
    m = _VERTEX_RE.fullmatch(text) if text.isascii() else None
    if m is not None:
        col, row = COLUMNS.index(m.group(1).upper()), int(m.group(2)) - 1
        if col < width and 0 <= row < height:
            return col, row
    raise GtpError(f"invalid vertex {text[:20]!r}: expected A1-{COLUMNS[width - 1]}{height} or pass")


def vertex_text(point: tuple[int, int] | None) -> str:
    return "pass" if point is None else f"{COLUMNS[point[0]]}{point[1] + 1}"


def handicap_points(stones: int, size: int) -> list[tuple[int, int]]:
    """The fixed handicap placement of the GTP specification (section 4.1.1): star
    points on the third line of boards below 13x13, the fourth above; at most 4
    stones on 7x7 and even sizes, 9 on odd ones from 9x9, none below 7x7.

    >>> [vertex_text(p) for p in handicap_points(5, 19)]
    ['D4', 'Q16', 'D16', 'Q4', 'K10']
    """
    most = 0 if not 7 <= size <= 25 else 4 if size % 2 == 0 or size == 7 else 9
    if not 2 <= stones <= most:
        raise GtpError(f"invalid handicap {stones} on {size}x{size}: from 2 to {most}" if most
                       else f"no fixed handicap on {size}x{size}")
    lo = 2 if size < 13 else 3
    hi, mid = size - 1 - lo, size // 2
    corners = [(lo, lo), (hi, hi), (lo, hi), (hi, lo)]
    sides = [(lo, mid), (hi, mid), (mid, lo), (mid, hi)]
    points = corners[:min(stones, 4)]
    if stones >= 6:
        points += sides[:2 if stones < 8 else 4]
    if stones % 2 == 1 and stones >= 5:
        points.append((mid, mid))
    return points


def groups(rows: list[str]) -> list[list[tuple[int, int]]]:
    """The strings of stones of a board given as rows from the top (``x``/``o``/``.``),
    each as ``(column, row)`` points from ``A1``."""
    height = len(rows)
    colour = {(c, height - 1 - r): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."}
    seen: set[tuple[int, int]] = set()
    out = []
    for start in sorted(colour, key=lambda p: (p[1], p[0])):
        if start in seen:
            continue
        seen.add(start)
        stack, group = [start], []
        while stack:
            c, r = stack.pop()
            group.append((c, r))
            for q in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
                if q not in seen and colour.get(q) == colour[start]:
                    seen.add(q)
                    stack.append(q)
        out.append(sorted(group, key=lambda p: (p[1], p[0])))
    return out


class GtpCommands:
    """The GTP command table: each ``cmd_<name>`` answers one command (its result text,
    or :class:`GtpError`) against the line server's engine."""

    #: Milliseconds per move without time settings (``zermelo gtp --movetime``).
    movetime_ms = DEFAULT_MOVETIME_MS
    #: The game served until ``set_game`` (``zermelo gtp --game``).
    game_name = GAME
    #: Engine options set once the engine is made (``zermelo gtp --option NAME=VALUE``).
    options: list[tuple[str, str]] = []

    def __init__(self, server) -> None:
        self.server = server
        self.selected = False
        #: Setup stones (handicap, SGF) by point, 0 Black 1 White; the side that moves first.
        self.setup: dict[tuple[int, int], int] = {}
        self.first = 0
        #: The moves played: colour and the game's move text (``pass`` included).
        self.record: list[tuple[int, str]] = []
        #: ``time_settings`` (or ``kgs-time_settings``); ``time_left`` per colour.
        self.clock: GtpClock | None = None
        self.left: list[tuple[int, int] | None] = [None, None]
        self.movetime = self.movetime_ms
        #: The running genmove's or analysis' answer, set once written.
        self.pending: asyncio.Event | None = None
        self.analysing = False
        #: When ``genmove`` answers ``resign`` (``ResignThreshold``).
        self.resignation = Resignation()

    # -- dispatch --------------------------------------------------------------------

    def answer(self, ident: str, text: str, ok: bool = True) -> None:
        self.server.write_lines([f"{'=' if ok else '?'}{ident} {text}", ""])

    def error(self, text: str) -> None:
        self.answer("", text, ok=False)

    def say(self, text: str) -> None:
        """Notes go to standard error, where GTP controllers show an engine's log."""
        print(text, file=sys.stderr, flush=True)

    async def handle(self, line: str) -> None:
        if line.strip() == "# interrupt":
            self.server.stop()  # the running genmove answers its best move so far
            return
        ident, cmd, args = split(clean(line))
        if cmd is None:
            if ident:
                self.answer(ident, "missing command", ok=False)
            return
        if self.pending is not None:
            # Any command ends an analysis; quit also cuts a genmove short.
            if cmd == "quit" or self.analysing:
                self.server.stop()
            await self.pending.wait()
        if cmd not in self.known():
            self.answer(ident, f"unknown command {cmd[:40]!r}", ok=False)
            return
        method = getattr(self, "cmd_" + cmd.replace("-", "_"))
        try:
            result = await method(ident, args)
        except Exception as e:  # bad input must never kill the server
            self.answer(ident, str(e).splitlines()[0] if str(e) else type(e).__name__, ok=False)
            return
        if result is not None:
            self.answer(ident, result)

    @classmethod
    def commands(cls) -> list[str]:
        """The command names; extensions are named ``gogui-...`` and ``zermelo-...``, as
        GTP names private commands (Leela Zero's ``lz-...`` too), their methods with an
        underscore."""
        names = [name[4:] for name in dir(cls) if name.startswith("cmd_")]
        return sorted(n.replace("_", "-", 1) if n.startswith(("gogui_", "zermelo_", "lz_", "kata_", "kgs_")) else n
                      for n in names)

    def known(self) -> list[str]:
        """The commands of the game served: those that need the game's support
        (:data:`OPTIONAL`) only where it declares them."""
        extras = self.rules.extras
        return [name for name in self.commands() if name not in OPTIONAL or name in extras]

    # -- the engine's game -------------------------------------------------------------

    @property
    def engine(self):
        if not self.selected:
            self.server.engine.set_option("UCI_Variant", self.game_name)
            self.selected = True
            for name, value in self.options:
                try:
                    self.server.engine.set_option(name, value)
                except Exception as e:  # noqa: BLE001 - said; the option keeps its default
                    self.say(f"error: --option {name}={value}: {e}")
        return self.server.engine

    @property
    def rules(self) -> GtpRules:
        """The game's side of GTP (its notation, size and score)."""
        rules = self.engine.game.gtp()
        if rules is None:
            raise GtpError(f"GTP does not serve {self.engine.game.name}")
        return rules

    @property
    def size(self) -> tuple[int, int]:
        return self.rules.size()

    def line(self, colour: int | None = None) -> tuple[str | None, list[str], Position]:
        """The engine's line for the setup and the record (a position text, or ``None``
        for the start, and moves), and the position it reaches, with ``colour`` to move
        when given. Raises ``ValueError`` (an illegal move) when the record cannot be
        played.

        GTP lets a colour play twice and the game go on after it ended (two passes in
        Go). The other colour's turn is then passed, when the rules allow a pass
        there, so that the position keeps its history (superko sees every board);
        where they do not, the position goes on from the board with the colour to move
        (:meth:`engine.gtprules.GtpRules.with_turn`). A pass recorded in a finished
        game that cannot go on is kept in the record, and plays nothing."""
        game, rules = self.engine.game, self.rules
        text = rules.setup(self.setup, self.first) if self.setup or self.first else None
        pos = game.new_position(text)
        moves: list[str] = []

        def restart(turn: int) -> None:
            nonlocal pos, text, moves
            text, moves = rules.with_turn(pos, turn), []
            pos = game.new_position(text)

        def hand_over(turn: int) -> None:
            try:
                pos.push(pos.parse_move("pass"))
            except ValueError:
                restart(turn)
                return
            if pos.turn == turn and pos.legal_moves():
                moves.append("pass")
            else:
                pos.pop()
                restart(turn)

        for number, (turn, move) in enumerate(self.record, 1):
            if pos.turn != turn:
                hand_over(turn)
            try:
                played = pos.parse_move(move)
            except ValueError as e:
                if pos.legal_moves():
                    raise ValueError(f"move {number}: {e}") from None
                # The game had ended: it goes on, as GTP lets it.
                ended, saved = pos, (text, moves)
                restart(turn)
                try:
                    played = pos.parse_move(move)
                except ValueError as e:
                    pos, (text, moves) = ended, saved
                    if move == "pass":
                        continue
                    raise ValueError(f"move {number}: {e}") from None
            pos.push(played)
            moves.append(move)
        if colour is not None:
            if pos.turn != colour:
                hand_over(colour)
            if not pos.legal_moves():
                ended, saved = pos, (text, moves)
                restart(colour)
                if not pos.legal_moves():
                    pos, (text, moves) = ended, saved
        return text, moves, pos

    def apply(self, colour: int | None = None) -> None:
        """Hand the setup and the record to the engine (with ``colour`` to move when
        given); raises if the record cannot be played."""
        text, moves, _ = self.line(colour)
        self.engine.set_position(text, moves)

    def change(self, change: Callable[[], object]) -> None:
        """Change the record with ``change()``; if the engine refuses the result, the
        record and the engine's position are as they were."""
        saved = (dict(self.setup), self.first, list(self.record))
        change()
        try:
            self.apply()
        except Exception:
            self.setup, self.first, self.record = saved
            self.apply()
            raise

    def position_for(self, colour: int):
        """The current position with ``colour`` to move."""
        return self.line(colour)[2]

    def set_params(self, values: dict[str, str]) -> None:
        """Set parameters of the game (``size``, ``komi``) and play the record again
        under them; a refused value, or a record the new rules cannot play, leaves the
        rules, the record and the position as they were."""
        engine = self.engine
        game = engine.game
        old = game.params.model_dump()
        refusals = dict(engine.refusals)
        try:
            for field, value in values.items():
                engine.set_option(f"{game.name}_{field}", value)
            self.apply()
        except Exception as e:
            self.restore(game.name, old, refusals)
            raise GtpError(str(e)) from None

    def restore(self, name: str, params: dict, refusals: dict) -> None:
        """Put the game's parameters back as ``params`` (a dump of the old ones), the
        engine's refusals as they were and the record on the board again."""
        engine = self.engine
        now = engine.game.params.model_dump()
        for field, value in params.items():
            if now.get(field) != value:
                engine.set_option(f"{name}_{field}", "" if value is None else str(value))
        engine.refusals.clear()
        engine.refusals.update(refusals)
        self.apply()

    def parse_move(self, vertex: str) -> str:
        try:
            return self.rules.move(vertex)
        except ValueError as e:
            raise GtpError(str(e)) from None

    # -- the standard commands -----------------------------------------------------------

    async def cmd_protocol_version(self, ident: str, args: list[str]) -> str:
        return "2"

    async def cmd_name(self, ident: str, args: list[str]) -> str:
        return NAME.split()[0]

    async def cmd_version(self, ident: str, args: list[str]) -> str:
        return VERSION

    async def cmd_known_command(self, ident: str, args: list[str]) -> str:
        return "true" if args and args[0] in self.known() else "false"

    async def cmd_list_commands(self, ident: str, args: list[str]) -> str:
        return "\n".join(self.known())

    cmd_help = cmd_list_commands

    async def cmd_quit(self, ident: str, args: list[str]) -> str:
        self.server.running = False
        return ""

    async def cmd_boardsize(self, ident: str, args: list[str]) -> str:
        size = self.int_arg(args, 0, "boardsize SIZE")
        try:
            values = self.rules.size_params(size)
        except ValueError:
            raise GtpError("unacceptable size") from None
        saved = (dict(self.setup), self.first, list(self.record))
        self.setup, self.first, self.record = {}, 0, []
        try:
            self.set_params(values)
        except GtpError:
            self.setup, self.first, self.record = saved
            self.apply()
            raise GtpError("unacceptable size") from None
        self.engine.new_game()
        self.clear()
        return ""

    async def cmd_clear_board(self, ident: str, args: list[str]) -> str:
        self.engine.new_game()
        self.clear()
        return ""

    def clear(self) -> None:
        self.setup, self.first, self.record = {}, 0, []
        self.left = [None, None]
        self.resignation.clear()
        self.apply()

    async def cmd_komi(self, ident: str, args: list[str]) -> str:
        if not args:
            raise GtpError("syntax error: komi FLOAT")
        try:
            komi = float(args[0])
        except ValueError:
            raise GtpError(f"syntax error: {args[0][:20]!r} is not a number") from None
        values = self.rules.komi_params(komi)
        if values:
            self.set_params(values)
            # The table's scores were counted under the old komi (the keys do not hold it).
            self.engine.new_game()
            self.apply()
        return ""

    async def cmd_play(self, ident: str, args: list[str]) -> str:
        if len(args) < 2:
            raise GtpError("syntax error: play COLOR VERTEX")
        colour = parse_colour(args[0])
        text = self.parse_move(args[1])
        pos = self.position_for(colour)
        try:
            pos.parse_move(text)
        except ValueError as e:
            if text != "pass" or pos.legal_moves():
                raise GtpError(f"illegal move: {str(e).removeprefix('illegal move ')}") from None
            # A pass in a game over for both: recorded, as GTP asks, and nothing played.
        self.change(lambda: self.record.append((colour, text)))
        return ""

    async def cmd_genmove(self, ident: str, args: list[str]) -> None:
        await self.generate(ident, args, play=True)

    async def cmd_reg_genmove(self, ident: str, args: list[str]) -> None:
        await self.generate(ident, args, play=False)

    async def cmd_kgs_genmove_cleanup(self, ident: str, args: list[str]) -> None:
        """KGS's cleanup phase, as GNU Go plays it: a genmove that takes the opponent's
        dead stones off rather than passing (the game's :meth:`GtpRules.cleanup_moves`)."""
        await self.generate(ident, args, play=True, cleanup=True)

    async def generate(self, ident: str, args: list[str], play: bool, cleanup: bool = False) -> None:
        """Search for ``colour``; the answer is written when the search ends, while the
        reader goes on (``# interrupt``)."""
        started = time.perf_counter()
        if not args:
            raise GtpError("syntax error: genmove COLOR")
        colour = parse_colour(args[0])
        self.apply(colour)
        limits = self.limits(colour)
        budget = TimeManager(limits, colour, self.engine.options.move_overhead)
        if budget.timed:
            # On standard error, where controllers log an engine: what the clock allows.
            self.say(f"genmove {'bw'[colour]}: {budget.soft_ms} ms, at most {budget.hard_ms} ms")
        rules = self.rules
        if cleanup:
            allowed = rules.cleanup_moves(self.engine.position)
            if allowed is not None:
                limits = dataclasses.replace(limits, searchmoves=allowed)
        # The search's last report: a Monte-Carlo search's win rate may resign the game.
        last: list = [None]

        def on_info(info, pv: list[str]) -> None:
            if info.multipv == 1:
                last[0] = info

        def on_bestmove(best: str | None, ponder: str | None) -> None:
            self.pending = None
            if play and not cleanup and best is not None and self.resigns(colour, last[0]):
                self.answer(ident, "resign")
                return
            # No move: the game is over for both sides, and the answer is a pass.
            move = "pass" if best is None else best
            try:
                if play:
                    self.change(lambda: self.record.append((colour, move)))
                else:
                    self.apply()
            except Exception as e:  # noqa: BLE001 - answered like any refused command
                self.answer(ident, str(e), ok=False)
            else:
                self.answer(ident, rules.vertex(move))

        self.pending = self.server.search(limits, on_info, on_bestmove, self.say, started=started)

    def resigns(self, colour: int, last: Info | None) -> bool:
        """Whether a genmove of ``colour`` resigns after a search whose last report was
        ``last``: a Monte-Carlo search that ``ResignThreshold`` finds hopeless."""
        searcher = self.engine.searcher
        return isinstance(searcher, MCTSSearcher) and self.resignation.hopeless(
            colour, last, self.engine.options.resign_threshold, searcher.win_rate())

    def limits(self, colour: int):
        """The search limits of a genmove: the controller's clock, or the fixed move time."""
        return gtp_limits(colour, self.clock, self.left[colour], self.movetime)

    # -- more of the specification -------------------------------------------------------

    async def cmd_undo(self, ident: str, args: list[str]) -> str:
        if not self.record:
            raise GtpError("cannot undo")
        self.change(self.record.pop)
        return ""

    async def cmd_time_settings(self, ident: str, args: list[str]) -> str:
        main, byo, stones = (self.int_arg(args, i, "time_settings MAIN BYO_YOMI STONES") for i in range(3))
        if min(main, byo, stones) < 0:
            raise GtpError("syntax error: negative time")
        self.clock = GtpClock(1000 * main, 1000 * byo, stones)
        self.left = [None, None]
        return ""

    async def cmd_kgs_time_settings(self, ident: str, args: list[str]) -> str:
        """KGS's: ``none``, ``absolute MAIN``, ``canadian MAIN BYO_YOMI STONES`` or
        ``byoyomi MAIN PERIOD PERIODS`` (Japanese: each move within a period keeps it)."""
        usage = "kgs-time_settings none|absolute MAIN|canadian MAIN BYO STONES|byoyomi MAIN PERIOD PERIODS"
        kind = args[0].lower() if args else ""
        counts = {"none": 0, "absolute": 1, "canadian": 3, "byoyomi": 3}
        if kind not in counts:
            raise GtpError(f"syntax error: {usage}")
        numbers = [self.int_arg(args, i + 1, usage) for i in range(counts[kind])]
        if min(numbers, default=0) < 0:
            raise GtpError("syntax error: negative time")
        if kind == "none":
            clock = None
        elif kind == "absolute":
            clock = GtpClock(1000 * numbers[0], 0, 0)
        else:
            main, period, stones = numbers
            if stones == 0 or period == 0:
                raise GtpError(f"syntax error: {usage} (a period and its stones)")
            clock = GtpClock(1000 * main, 1000 * period, stones, japanese=kind == "byoyomi")
        self.clock, self.left = clock, [None, None]
        return ""

    async def cmd_time_left(self, ident: str, args: list[str]) -> str:
        if len(args) < 3:
            raise GtpError("syntax error: time_left COLOR TIME STONES")
        colour = parse_colour(args[0])
        seconds, stones = self.int_arg(args, 1, "time_left"), self.int_arg(args, 2, "time_left")
        if seconds < 0 or stones < 0:
            raise GtpError("syntax error: negative time")
        self.left[colour] = (1000 * seconds, stones)
        return ""

    async def cmd_final_score(self, ident: str, args: list[str]) -> str:
        pos = self.engine.position
        score = self.rules.final_score(pos)
        if score is not None:
            return score
        return self.engine.game.final_score(pos) or ""

    async def cmd_final_status_list(self, ident: str, args: list[str]) -> str:
        if not args or args[0] not in ("alive", "dead", "seki"):
            raise GtpError("syntax error: final_status_list alive|dead|seki")
        if args[0] == "seki":
            return ""
        from games.go.score import stone_rows

        pos = self.engine.position
        rows = stone_rows(pos, self.engine.game.dead_stones(pos), args[0])
        return "\n".join(" ".join(vertex_text(p) for p in group) for group in groups(rows))

    async def cmd_showboard(self, ident: str, args: list[str]) -> str:
        return "\n" + "\n".join(self.rules.board(self.engine.position))

    async def cmd_all_legal(self, ident: str, args: list[str]) -> str:
        if not args:
            raise GtpError("syntax error: all_legal COLOR")
        pos = self.position_for(parse_colour(args[0]))
        rules = self.rules
        return " ".join(rules.vertex(pos.move_text(m)) for m in pos.legal_moves() if pos.move_text(m) != "pass")

    async def cmd_fixed_handicap(self, ident: str, args: list[str]) -> str:
        stones = self.int_arg(args, 0, "fixed_handicap NUMBER")
        width, height = self.size
        if width != height:
            raise GtpError("no fixed handicap on a rectangular board")
        points = handicap_points(stones, width)
        self.place_handicap(points)
        return " ".join(vertex_text(p) for p in points)

    async def cmd_set_free_handicap(self, ident: str, args: list[str]) -> str:
        points = [parse_vertex(a, *self.size) for a in args]
        width, height = self.size
        if len(points) < 2 or len(points) >= width * height or None in points or len(set(points)) < len(points):
            raise GtpError("bad vertex list")
        self.place_handicap([p for p in points if p is not None])
        return ""

    def place_handicap(self, points: list[tuple[int, int]]) -> None:
        if self.setup or self.record:
            raise GtpError("board not empty")

        def put() -> None:
            self.setup, self.first = dict.fromkeys(points, 0), 1

        self.change(put)

    async def cmd_loadsgf(self, ident: str, args: list[str]) -> str:
        sgf, sgf_moves = _sgfmill()
        if not args:
            raise GtpError("syntax error: loadsgf FILENAME [MOVE_NUMBER]")
        upto = self.int_arg(args, 1, "loadsgf FILENAME [MOVE_NUMBER]") if len(args) > 1 else None
        name = args[0][:200]
        try:
            # Never a FIFO or a device: the reader would wait on it, or read for ever.
            data = read_bounded(args[0], SGF_LIMIT)
            game = sgf.Sgf_game.from_bytes(data)
            root = game.get_root()
            kind = root.get("GM") if root.has_property("GM") else 1
            if kind != 1:
                raise ValueError(f"not a game of Go (GM[{kind}])")
            komi = game.get_komi()
            first = root.get("PL") if root.has_property("PL") else None
            try:
                board, plays = sgf_moves.get_setup_and_moves(game)
            except ValueError as e:
                # sgfmill says nothing of a point off the board or a setup it cannot place.
                raise ValueError(str(e) or "a move or a stone off the board") from None
        except Exception as e:  # noqa: BLE001 - sgfmill's errors, said in words
            raise GtpError(f"cannot load file {name}: {_reason(e, 'not an SGF game')}") from None
        if upto is not None:
            plays = plays[:max(upto - 1, 0)]
        size = board.side
        engine = self.engine
        old, refusals = engine.game.params.model_dump(), dict(engine.refusals)
        saved = (dict(self.setup), self.first, list(self.record))
        try:
            if not 1 <= size <= len(COLUMNS):
                raise ValueError(f"a board of {size}x{size}")
            self.setup, self.first, self.record = {}, 0, []
            for field, value in self.rules.size_params(size).items():
                engine.set_option(f"{engine.game.name}_{field}", value)
            engine.set_option(f"{engine.game.name}_komi", repr(komi))
            self.setup = {(col, row): "bw".index(colour) for colour, (row, col) in board.list_occupied_points()}
            self.first = "bw".index(first) if first else "bw".index(plays[0][0]) if plays else 0
            if not plays and not first and self.setup and all(c == 0 for c in self.setup.values()):
                self.first = 1  # handicap stones only: White moves first
            self.record = [(("bw".index(colour)), vertex_text(None if move is None else (move[1], move[0])))
                           for colour, move in plays]
            engine.new_game()
            self.apply()
        except Exception as e:
            self.setup, self.first, self.record = saved
            self.restore(engine.game.name, old, refusals)
            raise GtpError(f"cannot load file {name}: {_reason(e, 'its game cannot be played here')}") from None
        return "white" if self.engine.position.turn else "black"

    async def cmd_printsgf(self, ident: str, args: list[str]) -> str:
        sgf, _ = _sgfmill()
        width, height = self.size
        # A rectangular board is written on a square one as wide as its longer side,
        # its rows at the top (SGF counts rows from there), and its size as SZ[w:h].
        side = max(width, height)
        game = sgf.Sgf_game(size=side)
        root = game.get_root()
        root.set("KM", self.engine.game.komi)
        root.set("RU", "Tromp-Taylor")
        root.set("AP", (NAME.split()[0], VERSION))
        shift = side - height
        setup = [[(r + shift, c) for (c, r), colour in self.setup.items() if colour == k] for k in (0, 1)]
        if self.setup:
            root.set_setup_stones(setup[0], setup[1])
        if self.first:
            root.set("PL", "w")
        for colour, move in self.record:
            point = parse_vertex(move, width, height)
            game.extend_main_sequence().set_move("bw"[colour], None if point is None else (point[1] + shift, point[0]))
        from protocol.match.sgf import rectangular

        text = rectangular(game.serialise(), width, height).decode()
        if args:
            try:
                Path(args[0]).write_text(text)
            except OSError as e:
                raise GtpError(f"cannot write file {args[0][:200]}: {e.strerror}") from None
            return ""
        return "\n" + text.strip()

    # -- extensions -------------------------------------------------------------------

    async def cmd_gogui_interrupt(self, ident: str, args: list[str]) -> str:
        """Announces that ``# interrupt`` ends a running genmove."""
        return ""

    async def cmd_gogui_analyze_commands(self, ident: str, args: list[str]) -> str:
        return "\n".join(_ANALYZE)

    async def cmd_zermelo_ownership(self, ident: str, args: list[str]) -> str:
        """GoGui's ``dboard``: each point's expected owner, from -1 (White's) to 1 (Black's),
        a row of the board a line from the top (:meth:`GtpRules.ownership`)."""
        owner = self.rules.ownership(self.engine.position)
        if owner is None:
            raise GtpError(f"{self.engine.game.name} has no ownership estimate")
        width = self.size[0]
        return "\n" + "\n".join(" ".join(f"{v:.2f}" for v in owner[i:i + width])
                                 for i in range(0, len(owner), width))

    async def cmd_zermelo_candidates(self, ident: str, args: list[str]) -> None:
        """GoGui's ``gfx``: a search of the move time for ``[COLOR]``, its candidates
        labelled with their win rates, the best line as a variation, the ownership
        shaded, the win rate and visits as text (GoGui shows them on the board)."""
        engine = self.engine
        colour = parse_colour(args[0]) if args else engine.position.turn
        self.apply(colour)
        rules = self.rules
        owner = rules.ownership(engine.position)
        multipv, analysing = engine.options.multipv, engine.options.analyse_mode
        wanted = max(multipv, ANALYSIS_LINES)
        engine.set_option("MultiPV", str(wanted))
        # An analysis shows the search: no book move or closing pass answers in its place.
        engine.set_option("UCI_AnalyseMode", "true")
        lines: dict[int, tuple[int, list[str]]] = {}
        nodes = [0]

        def on_info(info, pv: list[str]) -> None:
            if info.bound is not None or not pv:
                return
            if info.multipv == 1:
                lines.clear()
            win, draw, _ = wdl(info.score)
            lines[info.multipv] = ((2 * win + draw) // 20, [rules.vertex(m) for m in pv])
            nodes[0] = info.nodes

        def on_bestmove(best: str | None, ponder: str | None) -> None:
            self.pending = None
            out = []
            try:
                engine.set_option("MultiPV", str(multipv))
                engine.set_option("UCI_AnalyseMode", "true" if analysing else "false")
                self.apply()
                shown = [lines[k] for k in sorted(lines) if lines[k][1][0] != "pass"]
                if owner is not None:
                    width = self.size[0]
                    out.append("INFLUENCE " + " ".join(
                        f"{COLUMNS[i % width]}{len(owner) // width - i // width} {v:.2f}" for i, v in enumerate(owner)))
                if shown:
                    out.append("LABEL " + " ".join(f"{pv[0]} {rate}%" for rate, pv in shown))
                if lines:
                    rate, pv = lines[min(lines)]
                    out.append("VAR " + " ".join(f"{'bw'[(colour + i) % 2]} {m}" for i, m in enumerate(pv)))
                    out.append(f"TEXT {'Black' if colour == 0 else 'White'} {rate}%, {nodes[0]} visits")
            except Exception as e:  # noqa: BLE001 - answered like any refused command
                self.answer(ident, str(e), ok=False)
            else:
                self.answer(ident, "\n" + "\n".join(out))

        from engine.timeman import Limits

        self.pending = self.server.search(Limits(movetime=self.movetime), on_info, on_bestmove, self.say)

    async def cmd_lz_analyze(self, ident: str, args: list[str]) -> None:
        """Leela Zero's analysis, as Sabaki and Lizzie ask for it (:meth:`analyze`)."""
        await self.analyze(ident, args, kata=False, play=False)

    async def cmd_kata_analyze(self, ident: str, args: list[str]) -> None:
        """KataGo's analysis: win rates from 0 to 1, and ``ownership true`` (which Sabaki
        sends) adds each point's expected owner to every line (:meth:`analyze`)."""
        await self.analyze(ident, args, kata=True, play=False)

    async def cmd_lz_genmove_analyze(self, ident: str, args: list[str]) -> None:
        """A genmove on the clock that streams its analysis, then ``play MOVE``."""
        await self.analyze(ident, args, kata=False, play=True)

    async def cmd_kata_genmove_analyze(self, ident: str, args: list[str]) -> None:
        await self.analyze(ident, args, kata=True, play=True)

    async def analyze(self, ident: str, args: list[str], kata: bool, play: bool) -> None:
        """``[COLOR] [INTERVAL] [interval CENTISECONDS] [ownership true|false] [minmoves N]
        [maxmoves N]`` answers ``=`` at once, then at most every interval (one second by
        default) one line of the search's latest lines, best first, each ``info move M
        visits V winrate W prior 0 order I pv M ...`` (Leela Zero's GTP extension; KataGo's
        with the win rate from 0 to 1 and ``ownership`` last). Visits are the search's
        nodes so far, the win rates the lines' scores as ``UCI_ShowWDL`` counts them, for
        the colour analysed. The analysis runs until the next command, which ends the
        answer with its empty line; the genmove variants search on the clock, as
        ``genmove``, and end with ``play MOVE`` (the move is played)."""
        started = time.perf_counter()
        engine = self.engine
        usage = f"{'kata' if kata else 'lz'}-{'genmove_' if play else ''}analyze [COLOR] [INTERVAL] [KEY VALUE]..."
        words = list(args)
        if play and not words:
            raise GtpError(f"syntax error: {usage}")
        colour = engine.position.turn
        if words and not _INT_ARG_RE.fullmatch(words[0]):
            colour, words = parse_colour(words[0]), words[1:]
        if words and _INT_ARG_RE.fullmatch(words[0]):
            words = ["interval"] + words
        keys = {"interval": 100, "ownership": False, "minmoves": 0, "maxmoves": ANALYSIS_LINES}
        if len(words) % 2:
            raise GtpError(f"syntax error: {usage}")
        for key, value in zip(words[::2], words[1::2]):
            if key not in keys or isinstance(keys[key], bool) != (value in ("true", "false")):
                raise GtpError(f"syntax error: {usage}")
            keys[key] = value == "true" if value in ("true", "false") else self.int_arg([value], 0, usage)
        interval = max(1, int(keys["interval"])) / 100
        self.apply(colour)
        rules = self.rules
        owner = None
        if keys["ownership"]:
            owner = rules.ownership(engine.position)
            if owner is None:
                raise GtpError(f"{engine.game.name} has no ownership estimate")
        limits = self.limits(colour) if play else None
        # The analysis reports several candidates; a genmove keeps the lines it is set to.
        multipv = engine.options.multipv
        lines_wanted = multipv if play else max(multipv, int(keys["maxmoves"]) or 1)
        if lines_wanted != multipv:
            engine.set_option("MultiPV", str(lines_wanted))
        self.server.write(f"={ident}")
        sign = 1 if colour == 0 else -1
        tail = "" if owner is None else " ownership " + " ".join(f"{sign * v:.4f}" for v in owner)
        lines: dict[int, str] = {}
        timer: list[asyncio.TimerHandle | None] = [None]
        shown = [float("-inf")]
        loop = asyncio.get_running_loop()

        def flush() -> None:
            timer[0] = None
            if len(lines) >= max(1, int(keys["minmoves"])):
                shown[0] = loop.time()
                self.server.write(" ".join(lines[k] for k in sorted(lines)) + tail)
            lines.clear()

        last: list = [None]

        def on_info(info, pv: list[str]) -> None:
            if info.multipv == 1:
                last[0] = info
            if info.bound is not None or not pv:
                return
            if info.multipv == 1:
                lines.clear()
            win, draw, _ = wdl(info.score)
            rate = f"{(2 * win + draw) / 2000:.6f}" if kata else str(10 * win + 5 * draw)
            lines[info.multipv] = (f"info move {rules.vertex(pv[0])} visits {max(1, info.nodes)} winrate {rate} "
                                   f"prior 0 order {info.multipv - 1} pv {' '.join(rules.vertex(m) for m in pv)}")
            # The lines of one report arrive together: written a moment after the last.
            if timer[0] is None:
                timer[0] = loop.call_at(max(loop.time() + 0.02, shown[0] + interval), flush)

        def on_bestmove(best: str | None, ponder: str | None) -> None:
            self.pending, self.analysing = None, False
            if timer[0] is not None:
                timer[0].cancel()
                flush()
            try:
                if lines_wanted != multipv:
                    engine.set_option("MultiPV", str(multipv))
                if play and best is not None and self.resigns(colour, last[0]):
                    # As genmove: KataGo's genmove_analyze ends with "play resign".
                    self.server.write("play resign")
                elif play:
                    move = "pass" if best is None else best
                    self.change(lambda: self.record.append((colour, move)))
                    self.server.write(f"play {rules.vertex(move)}")
                else:
                    self.apply()
            finally:
                self.server.write("")

        from engine.timeman import Limits

        self.analysing = not play
        self.pending = self.server.search(limits or Limits(infinite=True), on_info, on_bestmove, self.say,
                                          started=started)

    async def cmd_zermelo_movetime(self, ident: str, args: list[str]) -> str:
        self.movetime = max(1, self.int_arg(args, 0, "zermelo-movetime MILLISECONDS"))
        return ""

    async def cmd_zermelo_setoption(self, ident: str, args: list[str]) -> str:
        """Any engine option (``Hash``, ``Threads``, ``go_ko``...): ``NAME [VALUE]``."""
        if not args:
            raise GtpError("syntax error: zermelo-setoption NAME [VALUE]")
        if args[0].lower() == "uci_variant":
            raise GtpError("the game is chosen with set_game (list_games names them)")
        engine = self.engine
        name, old, refusals = engine.game.name, engine.game.params.model_dump(), dict(engine.refusals)
        try:
            notes = engine.set_option(args[0], " ".join(args[1:]) if len(args) > 1 else None)
            self.apply()
        except Exception as e:
            # Refused, or the game's record cannot be played under the new rules: as before.
            self.restore(name, old, refusals)
            raise GtpError(_reason(e, "refused")) from None
        return "\n".join(notes)

    async def cmd_list_games(self, ident: str, args: list[str]) -> str:
        """GRhino's: the games served, by their GTP names (``Go``, ``Othello``)."""
        return "\n".join(rules.name for rules in _served().values())

    async def cmd_set_game(self, ident: str, args: list[str]) -> str:
        """GRhino's: ``set_game NAME`` serves that game from its start (``Othello``)."""
        served = {rules.name.lower(): game for game, rules in _served().items()}
        game = served.get(" ".join(args).lower())
        if game is None:
            raise GtpError(f"unknown game {' '.join(args)[:40]!r}: list_games names them")
        engine = self.engine
        if engine.game.name != game:
            engine.set_option("UCI_Variant", game)
        self.game_name = game
        engine.new_game()
        self.clear()
        return ""

    @staticmethod
    def int_arg(args: list[str], i: int, usage: str) -> int:
        if len(args) <= i or not _INT_ARG_RE.fullmatch(args[i]):
            raise GtpError(f"syntax error: {usage}")
        return int(args[i])



def _served() -> dict[str, GtpRules]:
    """The games GTP serves (those whose rules say how), by registry name."""
    import games

    served = {}
    for name in games.names():
        rules = games.load(name).gtp()
        if rules is not None:
            served[name] = rules
    return served


def _reason(e: Exception, default: str) -> str:
    """An exception's first line for an answer, ``default`` when it says nothing."""
    if isinstance(e, OSError) and e.strerror:  # the words alone, not "[Errno 22] ...: 'path'"
        return e.strerror
    text = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return text if text and not isinstance(e, (KeyError, IndexError, AttributeError, TypeError)) else default


def _sgfmill():
    """sgfmill's SGF reader and writer and its setup-and-moves reader, imported when
    first used (the server starts without it). sgfmill ships no type information."""
    from sgfmill import sgf, sgf_moves  # type: ignore[import-untyped]

    return sgf, sgf_moves
