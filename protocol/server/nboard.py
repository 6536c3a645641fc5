"""The NBoard dialect: Chris Welty's protocol of the NBoard Othello GUI, as Edax serves it.

The GUI sends one command a line; the engine answers only some of them:

- ``nboard N``: the protocol version (1 or 2); answered ``set myname zermelo``.
- ``set depth N``: the search's depth limit for ``go`` and ``hint`` (1-60).
- ``set game GGF``: the whole game, a GGF record ``(;GM[Othello]...;)``: the board
  and side of ``BO[8 ...]``, the moves ``B[f5]``/``W[d6/-1.5/2.1]`` (``pa``: a pass;
  after a ``/`` an evaluation and the seconds the move took) and the clock
  ``TI[main//increment]``, from which each side's time left is counted.
- ``set contempt N``: accepted (reversi positions are not drawn by repetition).
- ``move M[/eval/time]``: a move of the game, appended to it.
- ``hint N``: ``N`` best moves, each answered ``search PV EVAL 0 DEPTH`` (evaluations
  in discs for the side to move), between ``status`` lines.
- ``go``: the engine's move, ``=== MOVE/EVAL/TIME`` (seconds), between ``status``
  lines, after a ``nodestats NODES SECONDS`` line.
- ``ping N``: answered ``pong N`` once every earlier command is done (a running
  hint is stopped first).
- ``learn``: acknowledged by ``status`` lines (zermelo keeps no learning book).
- ``quit``: ends the server.

Bad input (an unknown command, an illegal move, a GGF that does not parse) is
reported on standard error, as Edax does, and changes nothing. The rules stay with
the game: this layer only reads the GGF's words and hands the engine the board
text and the moves (:meth:`engine.engine.Engine.set_position`).

An exact score (the endgame solver's ``exact: win by 12 discs`` note) is reported
as that disc difference; any other score is the search's, in discs (about 100
evaluation units a disc), never presented as exact.
"""

from __future__ import annotations

import asyncio
import re
import sys
import time
from dataclasses import dataclass, field, replace

from protocol.server.identity import NAME

#: The registry name of the game NBoard plays.
GAME = "reversi"
#: Milliseconds a move may take when neither a clock nor a depth limits it.
DEFAULT_MOVETIME_MS = 1000
#: A GGF record longer than this is refused before it is read.
GGF_LIMIT = 64 * 1024
_TAG_RE = re.compile(r"([A-Za-z]{1,3})\[([^\]]*)\]")
_EXACT_RE = re.compile(r"exact: (?:(win|loss) by (\d+) discs|draw)")


class NboardError(ValueError):
    """A refused command: its text goes to standard error."""


@dataclass
class GgfGame:
    """What a GGF game record says: the start (board text or ``None`` for the standard
    start), the moves as squares (``pass`` for a pass) with the seconds each took, and
    the clock (main time and increment in seconds, ``None`` when untimed)."""

    start: str | None = None
    moves: list[tuple[int, str, float]] = field(default_factory=list)
    main_s: float | None = None
    inc_s: float = 0.0
    #: The game the record names (``GM[Othello]``), ``None`` when it names none.
    kind: str | None = None

    def time_left_ms(self) -> tuple[int | None, int | None]:
        """Each side's clock after the moves, in milliseconds (``None``: untimed)."""
        if self.main_s is None:
            return None, None
        left = [self.main_s, self.main_s]
        for colour, _, seconds in self.moves:
            left[colour] += self.inc_s - seconds
        return int(max(0.0, left[0]) * 1000), int(max(0.0, left[1]) * 1000)


def parse_clock(text: str) -> float:
    """Seconds of a GGF time ``[[h:]m:]s`` (a trailing ``,...`` option is ignored).

    >>> parse_clock("5:00"), parse_clock("1:02:03"), parse_clock("30")
    (300.0, 3723.0, 30.0)
    """
    seconds = 0.0
    for part in text.split(",")[0].split(":"):
        seconds = 60 * seconds + float(part or 0)
    return seconds


def parse_move_text(text: str) -> tuple[str, float]:
    """``(move, seconds)`` of a move as NBoard writes it, ``f5``, ``F5/-2.5/1.3`` or ``PA``.

    >>> parse_move_text("F5/-2.50/1.3"), parse_move_text("pa")
    (('f5', 1.3), ('pass', 0.0))
    """
    fields = text.strip().split("/")
    move = fields[0].strip().lower()
    if not move:
        raise NboardError(f"empty move {text[:40]!r}")
    if move in ("pa", "pass", "ps", "--", "@@"):
        move = "pass"
    seconds = 0.0
    if len(fields) > 2 and fields[2].strip():
        try:
            seconds = max(0.0, float(fields[2]))
        except ValueError:
            raise NboardError(f"bad time in move {text[:40]!r}") from None
    return move, seconds


def parse_ggf(text: str) -> GgfGame:
    """The game of a GGF record ``(;GM[Othello]PC[...]TI[...]BO[8 ... *]B[f5]W[d6];)``.

    >>> g = parse_ggf("(;GM[Othello]TI[5:00//0:02]BO[8 ---------------------------O*------*O"
    ...               "--------------------------- *]B[f5//1.5]W[d6];)")
    >>> g.kind, g.start[-1], [m for _, m, _ in g.moves], g.main_s, g.inc_s, g.time_left_ms()
    ('othello', '*', ['f5', 'd6'], 300.0, 2.0, (300500, 302000))
    """
    text = text.strip()
    if len(text) > GGF_LIMIT:
        raise NboardError(f"GGF record of {len(text)} characters (limit {GGF_LIMIT})")
    if not (text.startswith("(;") and text.endswith(";)")):
        raise NboardError(f"not a GGF game record {text[:40]!r}: expected (; ... ;)")
    game = GgfGame()
    for tag, value in _TAG_RE.findall(text[2:-2]):
        tag = tag.upper()
        if tag == "GM":
            game.kind = value.strip().lower()
        elif tag == "BO":
            words = value.split()
            if not words or words[0] != "8":
                raise NboardError(f"GGF board {value[:40]!r}: only 8x8 boards are played here")
            game.start = value
        elif tag == "TI":
            main, _, rest = value.partition("/")
            inc = rest.lstrip("/").split("/")[0] if rest else ""
            try:
                game.main_s = parse_clock(main) if main.strip() else None
                game.inc_s = parse_clock(inc) if inc.strip() else 0.0
            except ValueError:
                raise NboardError(f"bad GGF clock {value[:40]!r}") from None
        elif tag in ("B", "W"):
            move, seconds = parse_move_text(value)
            game.moves.append((0 if tag == "B" else 1, move, seconds))
    return game


def eval_text(score: int, exact: int | None) -> str:
    """The evaluation NBoard shows, in discs for the side to move: the exact margin when
    known, else the search's score at about 100 units a disc (a proven result
    without its margin counts the whole board)."""
    from engine.game import is_proven

    if exact is not None:
        return f"{exact:.2f}"
    if is_proven(score):
        return "64.00" if score > 0 else "-64.00"
    return f"{score / 100:.2f}"


class NboardCommands:
    """The NBoard command table, against the line server's engine."""

    #: Milliseconds per move without a clock or depth (``zermelo nboard --movetime``).
    movetime_ms = DEFAULT_MOVETIME_MS

    def __init__(self, server) -> None:
        self.server = server
        self.selected = False
        self.version = 0
        self.depth: int | None = None
        self.contempt = 0
        self.game = GgfGame()
        #: The running go's or hint's answer, set once written; ``hinting`` for a hint.
        self.pending: asyncio.Event | None = None
        self.hinting = False

    # -- output --------------------------------------------------------------------

    def send(self, *lines: str) -> None:
        self.server.write_lines(list(lines))

    def error(self, text: str) -> None:
        print(f"Error: {text}", file=sys.stderr, flush=True)

    def say(self, text: str) -> None:
        """Notes go to standard error, which NBoard shows as the engine's log."""
        print(text, file=sys.stderr, flush=True)

    # -- dispatch ------------------------------------------------------------------

    async def handle(self, line: str) -> None:
        words = line.strip().split(None, 1)
        if not words:
            return
        cmd, rest = words[0].lower(), (words[1] if len(words) > 1 else "")
        if cmd == "set":
            words = rest.split(None, 1)
            cmd, rest = "set_" + (words[0].lower() if words else ""), (words[1] if len(words) > 1 else "")
        if self.pending is not None:
            # A hint is analysis: any command ends it; a go is answered first.
            if self.hinting or cmd == "quit":
                self.server.stop()
            await self.pending.wait()
        method = getattr(self, "cmd_" + cmd, None) if cmd.replace("_", "").isalnum() else None
        if method is None:
            self.error(f"unknown command {line.strip()[:60]!r}")
            return
        try:
            await method(rest.strip())
        except Exception as e:  # bad input must never kill the server
            self.error(str(e).splitlines()[0] if str(e) else type(e).__name__)

    # -- the engine's game ---------------------------------------------------------

    @property
    def engine(self):
        if not self.selected:
            self.server.engine.set_option("UCI_Variant", GAME)
            self.selected = True
        return self.server.engine

    def apply(self, game: GgfGame) -> None:
        """Hand ``game`` to the engine and keep it; a refused game leaves the engine and
        the kept game as they were."""
        try:
            self.engine.set_position(game.start, [move for _, move, _ in game.moves])
        except Exception:
            self.engine.set_position(self.game.start, [move for _, move, _ in self.game.moves])
            raise
        self.game = game

    def limits(self):
        """A search's limits: the depth set, the side's clock from the GGF, or else a
        fixed time per move."""
        from engine.timeman import Limits

        times = self.game.time_left_ms()
        turn = self.engine.position.turn
        inc = int(self.game.inc_s * 1000)
        if times[turn] is not None:
            return Limits(time=times, inc=(inc, inc), depth=self.depth)
        if self.depth is not None:
            return Limits(depth=self.depth)
        return Limits(movetime=self.movetime_ms)

    # -- commands ------------------------------------------------------------------

    async def cmd_nboard(self, rest: str) -> None:
        if rest not in ("1", "2"):
            raise NboardError(f"protocol version {rest[:20]!r}: versions 1 and 2 are spoken")
        self.version = int(rest)
        self.engine  # noqa: B018 - selects reversi now, so that the first set game is fast
        self.send(f"set myname {NAME.split()[0]}")

    async def cmd_set_depth(self, rest: str) -> None:
        try:
            depth = int(rest)
        except ValueError:
            raise NboardError(f"set depth {rest[:20]!r}: expected a number from 1 to 60") from None
        if not 1 <= depth <= 60:
            raise NboardError(f"set depth {depth}: expected a number from 1 to 60")
        self.depth = depth

    async def cmd_set_game(self, rest: str) -> None:
        game = parse_ggf(rest)
        if game.kind is not None:
            # The record's game by the registry's names and aliases: ``othello`` is reversi.
            try:
                same = self.engine.registry.canonical(game.kind) == GAME
            except KeyError:
                same = False
            if not same:
                raise NboardError(f"GGF game {game.kind[:20]!r}: only {GAME} (othello) is played here")
        self.apply(game)

    async def cmd_set_contempt(self, rest: str) -> None:
        try:
            self.contempt = int(rest)
        except ValueError:
            raise NboardError(f"set contempt {rest[:20]!r}: expected a number") from None

    async def cmd_move(self, rest: str) -> None:
        move, seconds = parse_move_text(rest)
        game = replace(self.game, moves=self.game.moves + [(self.engine.position.turn, move, seconds)])
        self.apply(game)

    async def cmd_ping(self, rest: str) -> None:
        self.send(f"pong {rest}".rstrip())

    async def cmd_learn(self, rest: str) -> None:
        self.send("status learning", "status")

    async def cmd_quit(self, rest: str) -> None:
        self.server.running = False

    async def cmd_go(self, rest: str) -> None:
        await self.search(1, hint=False)

    async def cmd_hint(self, rest: str) -> None:
        try:
            count = int(rest or "1")
        except ValueError:
            raise NboardError(f"hint {rest[:20]!r}: expected a number of moves") from None
        if count < 1:
            raise NboardError(f"hint {count}: expected at least 1")
        await self.search(count, hint=True)

    async def search(self, count: int, hint: bool) -> None:
        """``go`` (answered ``===``, the position kept: the GUI sends the move back) or
        ``hint count`` (``count`` lines ``search``); the reader goes on meanwhile."""
        started = time.perf_counter()
        engine = self.engine
        self.hinting = hint
        limits = self.limits()
        engine.set_option("MultiPV", str(count))
        last: dict[int, tuple] = {}
        exact: list[int | None] = [None]

        def on_info(info, pv: list[str]) -> None:
            last[info.multipv] = (info, pv)

        def on_message(text: str) -> None:
            m = _EXACT_RE.search(text)
            if m is not None:
                exact[0] = 0 if m.group(1) is None else int(m.group(2)) * (1 if m.group(1) == "win" else -1)
            self.say(text)

        def on_bestmove(best: str | None, ponder: str | None) -> None:
            self.pending = None
            self.hinting = False
            seconds = time.perf_counter() - started
            nodes = max((info.nodes for info, _ in last.values()), default=0)
            lines = [f"nodestats {nodes} {seconds:.2f}"]
            if hint:
                for index in sorted(last):
                    info, pv = last[index]
                    margin = exact[0] if index == 1 else None
                    lines.append(f"search {''.join(pv) or (best or 'pa')} {eval_text(info.score, margin)} 0 "
                                 f"{info.depth}")
            else:
                info = last[1][0] if 1 in last else None
                score = eval_text(info.score, exact[0]) if info is not None else "0.00"
                lines.append(f"=== {best or 'pa'}/{score}/{seconds:.1f}")
            lines.append("status")
            self.send(*lines)

        self.send("status thinking")
        self.pending = self.server.search(limits, on_info, on_bestmove, on_message, started=started)
