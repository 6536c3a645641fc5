"""The GTP dialect: Go Text Protocol version 2, for Go GUIs, servers and other engines.

Every command is answered ``=[id] result`` or ``?[id] error``, then an empty
line; ``id`` is the command's optional number, echoed. Lines are cleaned as
section 2 of the specification asks: control characters other than tab and
newline dropped, tabs made spaces, ``#`` comments removed, empty lines ignored.

The game record is kept here, as setup stones (handicap, an SGF's ``AB``/``AW``)
and the moves played with their colours, and handed to the engine as a
position text and moves (:meth:`engine.engine.Engine.set_position`), so that
``undo``, a changed ``komi`` and ``printsgf`` all start from it. GTP lets one
colour play twice in a row; the engine's position then goes on from the board
as it stands, with the other side to move (superko sees the boards from there).

``genmove`` searches on the engine's clock: ``time_settings``/``time_left``
become the search's limits, and without them each move gets ``--movetime``
milliseconds (``zermelo-movetime`` changes it). While it searches the reader
stays live: GoGui's ``# interrupt`` line (announced by ``gogui-interrupt``)
ends the search, which then answers its best move so far; other commands wait
for the answer, as GTP's order requires. ``quit``, end of input and SIGTERM
stop the search first. ``lz-analyze`` (Leela Zero's, which Sabaki and Lizzie
send) streams the search's best line until the next command.

``final_score`` and ``final_status_list`` answer what the game scores
(:meth:`games.go.GoGame.final_score`, :mod:`games.go.score`): the area as the
rules count it (Tromp-Taylor: stones and the empty regions bordered by one
colour only) once the dead stones are taken off. Dead are the stones inside the
opponent's unconditional territory (:func:`games.go.benson.unconditional`:
Benson's alive blocks and the regions they alone enclose), which no sequence of
play can save; every other stone is alive, and none is called seki.
"""

from __future__ import annotations

import asyncio
import re
import sys
import time
from pathlib import Path
from typing import Callable

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

_ANALYZE = (
    "string/Final score/final_score",
    "plist/Alive stones/final_status_list alive",
    "plist/Dead stones/final_status_list dead",
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
    m = _VERTEX_RE.fullmatch(text)
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

    def __init__(self, server) -> None:
        self.server = server
        self.selected = False
        #: Setup stones (handicap, SGF) by point, 0 Black 1 White; the side that moves first.
        self.setup: dict[tuple[int, int], int] = {}
        self.first = 0
        #: The moves played: colour and vertex text (``pass`` included).
        self.record: list[tuple[int, str]] = []
        #: ``time_settings`` in milliseconds and stones; ``time_left`` per colour.
        self.clock: tuple[int, int, int] | None = None
        self.left: list[tuple[int, int] | None] = [None, None]
        self.movetime = self.movetime_ms
        #: The running genmove's or analysis' answer, set once written.
        self.pending: asyncio.Event | None = None
        self.analysing = False

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
        if cmd not in self.commands():
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
        return sorted(n.replace("_", "-", 1) if n.startswith(("gogui_", "zermelo_", "lz_")) else n for n in names)

    # -- the engine's game -------------------------------------------------------------

    @property
    def engine(self):
        if not self.selected:
            self.server.engine.set_option("UCI_Variant", GAME)
            self.selected = True
        return self.server.engine

    @property
    def size(self) -> tuple[int, int]:
        game = self.engine.game
        return game.width, game.height

    def apply(self) -> None:
        """Hand the setup and the record to the engine; raises if it refuses them."""
        engine = self.engine
        width, height = self.size
        cells = [["."] * width for _ in range(height)]
        for (c, r), colour in self.setup.items():
            cells[height - 1 - r][c] = "xo"[colour]
        text: str | None = None
        if self.setup or self.first:
            text = f"{'/'.join(''.join(row) for row in cells)} {'xo'[self.first]} - 0"
        moves: list[str] = []
        turn = self.first
        for colour, move in self.record:
            if colour != turn:
                engine.set_position(text, moves)
                text, moves = self.flipped(engine.position.to_text(), colour), []
            moves.append(move)
            turn = 1 - colour
        engine.set_position(text, moves)

    @staticmethod
    def flipped(text: str, colour: int) -> str:
        """A position text's board with ``colour`` to move, no ko, no passes."""
        return f"{text.split()[0]} {'xo'[colour]} - 0"

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
        pos = self.engine.position
        if pos.turn == colour:
            return pos
        return self.engine.game.new_position(self.flipped(pos.to_text(), colour))

    def set_rule(self, name: str, value: str) -> None:
        """Set a parameter of the game (``go_size``, ``go_komi``): a refused value leaves
        the rules, the record and the position as they were."""
        engine = self.engine
        option = f"{GAME}_{name}"
        old = getattr(engine.game.params, name)
        try:
            engine.set_option(option, value)
        except Exception as e:
            engine.set_option(option, "" if old is None else str(old))
            self.apply()
            raise GtpError(str(e)) from None

    # -- the standard commands -----------------------------------------------------------

    async def cmd_protocol_version(self, ident: str, args: list[str]) -> str:
        return "2"

    async def cmd_name(self, ident: str, args: list[str]) -> str:
        return NAME.split()[0]

    async def cmd_version(self, ident: str, args: list[str]) -> str:
        return VERSION

    async def cmd_known_command(self, ident: str, args: list[str]) -> str:
        return "true" if args and args[0] in self.commands() else "false"

    async def cmd_list_commands(self, ident: str, args: list[str]) -> str:
        return "\n".join(self.commands())

    cmd_help = cmd_list_commands

    async def cmd_quit(self, ident: str, args: list[str]) -> str:
        self.server.running = False
        return ""

    async def cmd_boardsize(self, ident: str, args: list[str]) -> str:
        size = self.int_arg(args, 0, "boardsize SIZE")
        if not 1 <= size <= len(COLUMNS):
            raise GtpError("unacceptable size")
        try:
            self.set_rule("size", str(size))
        except GtpError:
            raise GtpError("unacceptable size") from None
        self.clear()
        return ""

    async def cmd_clear_board(self, ident: str, args: list[str]) -> str:
        self.engine.new_game()
        self.clear()
        return ""

    def clear(self) -> None:
        self.setup, self.first, self.record = {}, 0, []
        self.left = [None, None]
        self.apply()

    async def cmd_komi(self, ident: str, args: list[str]) -> str:
        if not args:
            raise GtpError("syntax error: komi FLOAT")
        try:
            komi = float(args[0])
        except ValueError:
            raise GtpError(f"syntax error: {args[0][:20]!r} is not a number") from None
        self.set_rule("komi", repr(komi))
        # The table's scores were counted under the old komi (the keys do not hold it).
        self.engine.new_game()
        self.apply()
        return ""

    async def cmd_play(self, ident: str, args: list[str]) -> str:
        if len(args) < 2:
            raise GtpError("syntax error: play COLOR VERTEX")
        colour = parse_colour(args[0])
        point = parse_vertex(args[1], *self.size)
        text = vertex_text(point)
        try:
            self.position_for(colour).parse_move(text)
        except ValueError as e:
            raise GtpError(f"illegal move: {str(e).removeprefix('illegal move ')}") from None
        self.change(lambda: self.record.append((colour, text)))
        return ""

    async def cmd_genmove(self, ident: str, args: list[str]) -> None:
        await self.generate(ident, args, play=True)

    async def cmd_reg_genmove(self, ident: str, args: list[str]) -> None:
        await self.generate(ident, args, play=False)

    async def generate(self, ident: str, args: list[str], play: bool) -> None:
        """Search for ``colour``; the answer is written when the search ends, while the
        reader goes on (``# interrupt``)."""
        started = time.perf_counter()
        if not args:
            raise GtpError("syntax error: genmove COLOR")
        colour = parse_colour(args[0])
        engine = self.engine
        if engine.position.turn != colour:
            engine.set_position(self.flipped(engine.position.to_text(), colour), [])
        limits = self.limits(colour)

        def on_bestmove(best: str | None, ponder: str | None) -> None:
            self.pending = None
            try:
                if play and best is not None:
                    self.change(lambda: self.record.append((colour, best)))
                else:
                    # No move (the game is over): a pass, which the record cannot take.
                    self.apply()
            except Exception as e:  # noqa: BLE001 - answered like any refused command
                self.answer(ident, str(e), ok=False)
            else:
                self.answer(ident, "pass" if best is None or best == "pass" else best.upper())

        self.pending = self.server.search(limits, lambda info, pv: None, on_bestmove, self.say, started=started)

    def limits(self, colour: int):
        """The search limits of a genmove: the controller's clock, or the fixed move time."""
        from engine.timeman import gtp_limits

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
        self.clock = (1000 * main, 1000 * byo, stones)
        self.left = [None, None]
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
        return self.engine.game.final_score(self.engine.position) or ""

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
        pos = self.engine.position
        rows = pos.to_text().split()[0].split("/")
        width, height = self.size
        letters = "   " + " ".join(COLUMNS[:width])
        lines = ["", letters]
        for i, row in enumerate(rows):
            r = height - i
            lines.append(f"{r:2} {' '.join(row.upper())} {r}")
        black, white = pos.area()
        lines += [letters, f"{'Black' if pos.turn == 0 else 'White'} to move; area Black {black}, "
                           f"White {white}; komi {self.engine.game.komi:g}"]
        return "\n".join(lines)

    async def cmd_all_legal(self, ident: str, args: list[str]) -> str:
        if not args:
            raise GtpError("syntax error: all_legal COLOR")
        pos = self.position_for(parse_colour(args[0]))
        return " ".join(pos.move_text(m) for m in pos.legal_moves() if pos.move_text(m) != "pass")

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
        path = Path(args[0])
        upto = self.int_arg(args, 1, "loadsgf FILENAME [MOVE_NUMBER]") if len(args) > 1 else None
        try:
            if path.stat().st_size > SGF_LIMIT:
                raise ValueError(f"larger than {SGF_LIMIT // (1024 * 1024)} MB")
            game = sgf.Sgf_game.from_bytes(path.read_bytes())
            board, plays = sgf_moves.get_setup_and_moves(game)
            komi = game.get_komi()
        except (OSError, ValueError, KeyError) as e:
            raise GtpError(f"cannot load file {args[0][:200]}: {e}") from None
        if upto is not None:
            plays = plays[:max(upto - 1, 0)]
        size = board.side
        old = (self.engine.game.params.size, self.engine.game.params.komi)
        saved = (dict(self.setup), self.first, list(self.record))
        try:
            self.set_rule("size", str(size))
            self.set_rule("komi", repr(komi))
            self.setup = {(col, row): "bw".index(colour) for colour, (row, col) in board.list_occupied_points()}
            first = game.get_root().get("PL") if game.get_root().has_property("PL") else None
            self.first = "bw".index(first) if first else "bw".index(plays[0][0]) if plays else 0
            if not plays and not first and self.setup and all(c == 0 for c in self.setup.values()):
                self.first = 1  # handicap stones only: White moves first
            self.record = [(("bw".index(colour)), vertex_text(None if move is None else (move[1], move[0])))
                           for colour, move in plays]
            self.engine.new_game()
            self.apply()
        except Exception as e:
            self.setup, self.first, self.record = saved
            self.engine.set_option(f"{GAME}_size", str(old[0]))
            self.engine.set_option(f"{GAME}_komi", "" if old[1] is None else str(old[1]))
            self.apply()
            raise GtpError(f"cannot load file {args[0][:200]}: {e}") from None
        return "white" if self.engine.position.turn else "black"

    async def cmd_printsgf(self, ident: str, args: list[str]) -> str:
        sgf, _ = _sgfmill()
        width, height = self.size
        if width != height:
            raise GtpError("SGF of a rectangular board is not supported")
        game = sgf.Sgf_game(size=width)
        root = game.get_root()
        root.set("KM", self.engine.game.komi)
        root.set("RU", "Tromp-Taylor")
        root.set("AP", (NAME.split()[0], VERSION))
        setup = [[(r, c) for (c, r), colour in self.setup.items() if colour == k] for k in (0, 1)]
        if self.setup:
            root.set_setup_stones(setup[0], setup[1])
        if self.first:
            root.set("PL", "w")
        for colour, move in self.record:
            point = parse_vertex(move, width, height)
            game.extend_main_sequence().set_move("bw"[colour], None if point is None else (point[1], point[0]))
        text = game.serialise().decode()
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

    async def cmd_lz_analyze(self, ident: str, args: list[str]) -> None:
        """Leela Zero's analysis, as Sabaki and Lizzie ask for it: ``lz-analyze [COLOR]
        [[interval] CENTISECONDS]`` answers ``=`` at once, then every interval one
        ``info move ... pv ...`` line of the search's best line (visits are its nodes,
        the win rate from its score as ``UCI_ShowWDL`` counts it), until the next
        command stops the search and ends the answer with its empty line."""
        words = [a for a in args if a != "interval"]
        engine = self.engine
        colour = engine.position.turn
        if words and not _INT_ARG_RE.fullmatch(words[0]):
            colour, words = parse_colour(words[0]), words[1:]
        interval = max(1, self.int_arg(words, 0, "lz-analyze [COLOR] [INTERVAL]")) / 100 if words else 1.0
        if engine.position.turn != colour:
            engine.set_position(self.flipped(engine.position.to_text(), colour), [])
        self.server.write(f"={ident}")
        shown = [time.monotonic()]

        def on_info(info, pv: list[str]) -> None:
            now = time.monotonic()
            if not pv or now - shown[0] < interval:
                return
            shown[0] = now
            win, draw, _ = wdl(info.score)
            line = " ".join(move.upper() for move in pv)
            self.server.write(f"info move {pv[0].upper()} visits {max(1, info.nodes)} "
                              f"winrate {10 * win + 5 * draw} prior 0 order 0 pv {line}")

        def on_bestmove(best: str | None, ponder: str | None) -> None:
            self.pending, self.analysing = None, False
            try:
                self.apply()
            finally:
                self.server.write("")

        from engine.timeman import Limits

        self.analysing = True
        self.pending = self.server.search(Limits(infinite=True), on_info, on_bestmove, self.say)

    async def cmd_zermelo_movetime(self, ident: str, args: list[str]) -> str:
        self.movetime = max(1, self.int_arg(args, 0, "zermelo-movetime MILLISECONDS"))
        return ""

    async def cmd_zermelo_setoption(self, ident: str, args: list[str]) -> str:
        """Any engine option (``Hash``, ``Threads``, ``go_ko``...): ``NAME [VALUE]``."""
        if not args:
            raise GtpError("syntax error: zermelo-setoption NAME [VALUE]")
        if args[0].lower() == "uci_variant":
            raise GtpError("GTP plays Go: UCI_Variant stays go")
        notes = self.engine.set_option(args[0], " ".join(args[1:]) if len(args) > 1 else None)
        self.apply()
        return "\n".join(notes)

    @staticmethod
    def int_arg(args: list[str], i: int, usage: str) -> int:
        if len(args) <= i or not _INT_ARG_RE.fullmatch(args[i]):
            raise GtpError(f"syntax error: {usage}")
        return int(args[i])



def _sgfmill():
    """sgfmill's SGF reader and writer and its setup-and-moves reader, imported when
    first used (the server starts without it). sgfmill ships no type information."""
    from sgfmill import sgf, sgf_moves  # type: ignore[import-untyped]

    return sgf, sgf_moves
