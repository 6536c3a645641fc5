"""The line server: one asyncio loop on stdin/stdout, whichever dialect it speaks.

One asyncio loop owns all output. Its reader hands one line at a time to the
command table of the dialect in use (:class:`protocol.server.uci.UciCommands`
for UCI and UGI, :class:`protocol.server.gtp.GtpCommands` for GTP,
:class:`protocol.server.nboard.NboardCommands` for NBoard) and stays
live while :class:`engine.engine.Engine` searches in its worker thread, so
``isready``, ``stop`` and GTP's ``# interrupt`` are answered at once. The
worker's callbacks hop onto the loop with ``call_soon_threadsafe``, and the
loop alone writes, whole lines, flushed: output never interleaves.

The server owns the engine's lifecycle: a search or a count (``go perft``) is
stopped by :meth:`Server.idle` before a command that changes the state, and a
search that ignored the stop for ``STOP_GRACE`` seconds (a defect) is given
up, with a legal move, so that no command waits for ever. Quit, end of input
and SIGTERM stop whatever runs, after it has answered. Each table turns bad
input into one error in its dialect and keeps the state as it was.

A fresh server speaks UCI; a first command that only GTP has (``protocol_version``,
``name``, ``boardsize``, ``list_commands``...) switches it to GTP, and a first
``hub`` to Hub (:class:`protocol.server.hub.HubCommands`, draughts).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import stat
import sys
import threading
from typing import TYPE_CHECKING, Callable, Protocol

from protocol.server import gtp, hub, nboard, uci
from protocol.server.identity import AUTHOR, NAME  # noqa: F401 - the names others import from here

if TYPE_CHECKING:
    from engine.engine import Engine
    from engine.timeman import Limits

#: Longest accepted input line; longer ones are dropped with an error.
LINE_LIMIT = 16 * 1024 * 1024
#: The search thread holds the GIL between switches: a short interval keeps
#: the reader answering ``isready`` and ``stop`` within milliseconds.
SWITCH_INTERVAL = 0.001
#: Seconds a stopped search may take to answer before it is given up.
STOP_GRACE = 2.0


class Commands(Protocol):
    """A dialect's command table: it reads the lines of its dialect and answers them."""

    async def handle(self, line: str) -> None:
        """Execute one input line; bad input is answered in the dialect, never raised."""

    def error(self, text: str) -> None:
        """Report a problem outside any command (an over-long line)."""

    def say(self, text: str) -> None:
        """A note of the engine outside a command, where the dialect puts notes."""


class Server:
    """Reads lines, hands them to the dialect's command table and writes the answers."""

    def __init__(self, out=None, dialect: str | None = None, engine: Engine | None = None,
                 option_lines: dict[str, str] | None = None) -> None:
        self.out = out if out is not None else sys.stdout.buffer
        #: An engine set up before the server starts (``zermelo --game G``), else made on first use.
        self._engine: Engine | None = engine
        if engine is not None:
            engine.on_message = self.note
        #: Handshake lines by option name that replace the declared ones: the defaults
        #: the start flags gave (``UCI_Variant`` is the game chosen).
        self.option_lines = option_lines or {}
        #: "uci", "ugi", "gtp" or "hub" once chosen; a fresh server reads UCI until a GTP or Hub command.
        self.dialect: str | None = None
        self.table: Commands = uci.UciCommands(self)
        if dialect == "gtp":
            self.use_gtp()
        elif dialect == "hub":
            self.use_hub()
        elif dialect == "nboard":
            self.dialect = "nboard"
            self.table = nboard.NboardCommands(self)
        self.debug = False
        self.loop: asyncio.AbstractEventLoop | None = None
        # Set once the last search's move is out; set from the start, as none is pending.
        self.bestmove_sent = asyncio.Event()
        self.bestmove_sent.set()
        #: A running ``go perft``: its control and the task that prints its result.
        self.perft_job: tuple | None = None
        self.running = True

    def use_gtp(self) -> None:
        """Speak GTP from now on."""
        self.dialect = "gtp"
        self.table = gtp.GtpCommands(self)

    def use_hub(self) -> None:
        """Speak Hub from now on."""
        self.dialect = "hub"
        self.table = hub.HubCommands(self)

    @property
    def engine(self) -> Engine:
        """The :class:`engine.engine.Engine`, imported and created on first use:
        answering ``uci`` needs neither."""
        if self._engine is None:
            import games
            from engine.engine import Engine

            self._engine = Engine(games)
            self._engine.on_message = self.note
        return self._engine

    # -- output ------------------------------------------------------------------

    def write(self, line: str) -> None:
        """Write one line and flush; only ever called on the loop's thread."""
        self.write_lines([line])

    def write_lines(self, lines: list[str]) -> None:
        """Write whole lines with one flush (an answer of several lines at once)."""
        try:
            self.out.write("".join(line + "\n" for line in lines).encode())
            self.out.flush()
        except (BrokenPipeError, ValueError):
            self.running = False

    def from_thread(self, fn, *args) -> None:
        """Run ``fn(*args)`` on the loop; safe from any thread, keeps call order."""
        if self.loop is None:
            raise RuntimeError("the server's loop is not running")
        self.loop.call_soon_threadsafe(fn, *args)

    def note(self, text: str) -> None:
        """A note of the engine outside a search (a table defect found by the
        background preparation), from any thread."""
        try:
            self.from_thread(lambda: self.table.say(text))
        except RuntimeError:  # the loop has closed: the server is exiting
            pass

    # -- input -------------------------------------------------------------------

    async def run(self, reader: asyncio.StreamReader) -> None:
        """Handle lines until ``quit`` or end of input, then stop any search."""
        skipped = 0  # bytes of an over-long line being dropped
        while self.running:
            try:
                raw = await reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as e:
                if e.partial.strip() and not skipped:
                    await self.handle(e.partial.decode(errors="replace"))
                break
            except asyncio.LimitOverrunError as e:
                skipped += len(await reader.readexactly(e.consumed))
                continue
            if skipped:
                self.table.error(f"input line of {skipped + len(raw)} bytes ignored (limit {LINE_LIMIT})")
                skipped = 0
                continue
            await self.handle(raw.decode(errors="replace"))
        await self.shutdown()

    async def handle(self, line: str) -> None:
        """Hand one line to the dialect's table, after switching to GTP (or Hub) if it is
        a fresh server's first command and only GTP (Hub) has it."""
        if self.dialect is None and gtp.opens_gtp(line):
            self.use_gtp()
        elif self.dialect is None and line.strip() == "hub":
            self.use_hub()
        await self.table.handle(line)

    # -- the engine's lifecycle ------------------------------------------------------

    def search(self, limits: Limits, on_info: Callable, on_bestmove: Callable[[str | None, str | None], None],
               on_message: Callable[[str], None], started: float | None = None) -> asyncio.Event:
        """Start a search; its callbacks run on the loop, ``on_bestmove`` exactly once,
        after which the returned event is set."""
        self.bestmove_sent = done = asyncio.Event()

        def info(info, pv: list[str]) -> None:
            self.from_thread(on_info, info, pv)

        def bestmove(best: str | None, ponder: str | None) -> None:
            self.from_thread(self._delivered, on_bestmove, best, ponder, done)

        def message(text: str) -> None:
            self.from_thread(on_message, text)

        self.engine.go(limits, info, bestmove, message, started=started)
        return done

    @staticmethod
    def _delivered(on_bestmove, best: str | None, ponder: str | None, done: asyncio.Event) -> None:
        on_bestmove(best, ponder)
        done.set()

    def stop(self) -> None:
        """Ask a running search or count to end; its answer follows."""
        if self.perft_job is not None:
            self.perft_job[0].stop()
        if self._engine is not None:
            self.engine.stop()

    async def idle(self) -> None:
        """Stop a running search (or perft) and wait until its answer has been written."""
        if self.perft_job is not None:
            control, task = self.perft_job
            control.stop()
            await task
        if self._engine is None:
            return
        if self.engine.is_searching():
            self.engine.stop()
            try:
                await asyncio.wait_for(asyncio.shield(self.bestmove_sent.wait()), STOP_GRACE)
            except asyncio.TimeoutError:
                self.table.error(f"the search did not stop within {STOP_GRACE:g} s; playing a legal move")
                self.engine.abandon()
                await self.bestmove_sent.wait()

    async def shutdown(self) -> None:
        self.running = False
        if self._engine is None:
            return
        self.engine.end_prepare()
        if self.perft_job is not None:
            self.perft_job[0].stop()
        if self.engine.is_searching():
            self.engine.stop()
            try:
                await asyncio.wait_for(self.bestmove_sent.wait(), STOP_GRACE)
            except asyncio.TimeoutError:
                pass
        self.engine.wait(1.0)


async def open_stdin() -> asyncio.StreamReader:
    """A stream of standard input that never blocks the loop.

    Pipes and sockets are watched by the loop itself; terminals and regular
    files (``zermelo < script.txt``) are read by a small feeding thread, since
    the loop cannot poll files and a non-blocking terminal would also make
    standard output non-blocking.
    """
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=LINE_LIMIT)
    if _from_gui():
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        return reader

    def feed() -> None:
        try:
            while chunk := os.read(sys.stdin.fileno(), 1 << 16):
                loop.call_soon_threadsafe(reader.feed_data, chunk)
            loop.call_soon_threadsafe(reader.feed_eof)
        except RuntimeError:
            pass  # input after quit: the loop is already closed

    threading.Thread(target=feed, name="stdin", daemon=True).start()
    return reader


def _from_gui() -> bool:
    """True when standard input is a pipe or a socket: a GUI or match runner, not a person."""
    mode = os.fstat(sys.stdin.fileno()).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


async def serve(dialect: str | None = None, engine: Engine | None = None,
                option_lines: dict[str, str] | None = None) -> None:
    """Serve standard input (in ``dialect``, or UCI until a GTP command comes). SIGTERM, and SIGINT from a terminal, end the server as
    ``quit`` does (a running search first writes its bestmove). Under a GUI, SIGINT
    is ignored: a Ctrl-C in the GUI's terminal reaches its whole process group, and
    the GUI, which may still want this engine's moves, ends it with ``quit``."""
    server = Server(dialect=dialect, engine=engine, option_lines=option_lines)
    server.loop = loop = asyncio.get_running_loop()
    reading = asyncio.ensure_future(server.run(await open_stdin()))

    def terminate() -> None:
        server.running = False
        reading.cancel()

    loop.add_signal_handler(signal.SIGTERM, terminate)
    if _from_gui():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    else:
        loop.add_signal_handler(signal.SIGINT, terminate)
    try:
        await reading
    except asyncio.CancelledError:
        # Cut off mid-line or mid-command: the search still ends with its bestmove.
        await server.shutdown()


def main(dialect: str | None = None, engine: Engine | None = None,
         option_lines: dict[str, str] | None = None) -> int:
    """Run the server until ``quit``, end of input or a terminating signal; exit status 0."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        asyncio.run(serve(dialect, engine, option_lines))
    except KeyboardInterrupt:  # Ctrl-C before the loop took the signal over
        return 130
    return 0


def gtp_main(argv: list[str] | None = None) -> int:
    """``zermelo gtp``: serve GTP on stdin/stdout."""
    parser = argparse.ArgumentParser(prog="zermelo gtp", description="Serve the Go Text Protocol "
                                     "(version 2) on standard input and output, for Go or Othello.")
    parser.add_argument("--movetime", type=int, default=gtp.DEFAULT_MOVETIME_MS, metavar="MS",
                        help="milliseconds per move without time_settings (default %(default)s)")
    parser.add_argument("--game", default=gtp.GAME, metavar="GAME",
                        help="the game served: go (default) or reversi (othello); set_game changes it")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                        help="an engine option from the start (ResignThreshold=10, Threads=2; "
                             "zermelo-setoption changes it)")
    args = parser.parse_args(argv)
    if args.movetime < 1:
        parser.error("--movetime must be at least 1")
    import games
    from engine import options as opt

    for text in args.option:
        name, _, value = text.partition("=")
        try:
            spec = opt.find_spec(name, games)
            if spec.game is not None or spec.field == "variant":
                raise opt.OptionError("the game and its rules are GTP's commands (boardsize, komi, set_game)")
            opt.set_value(opt.EngineOptions(), spec, value, games)
        except opt.OptionError as e:
            parser.error(f"--option {text}: {e}")
        gtp.GtpCommands.options = [*gtp.GtpCommands.options, (spec.name, value)]
    try:
        game = games.canonical(args.game)
        served = games.load(game).gtp() is not None
    except KeyError:
        served = False
    if not served:
        parser.error(f"--game {args.game}: GTP serves go and reversi")
    gtp.GtpCommands.movetime_ms = args.movetime
    gtp.GtpCommands.game_name = game
    return main("gtp")


def hub_main(argv: list[str] | None = None) -> int:
    """``zermelo hub``: serve Hub (draughts) on stdin/stdout."""
    parser = argparse.ArgumentParser(prog="zermelo hub", description="Serve the Hub protocol of draughts "
                                     "engines (Scan's) on standard input and output.")
    parser.parse_args(argv)
    return main("hub")

def uci_main(argv: list[str]) -> int:
    """``zermelo --game G [-p K=V ...]``: the UCI/UGI server playing G from the start, for
    clients that cannot choose a game by ``setoption`` (python-chess manages ``UCI_Variant``
    itself) and for GUIs' and bots' engine arguments."""
    from protocol.tools import game_params

    parser = argparse.ArgumentParser(
        prog="zermelo", description="Serve UCI/UGI on standard input and output, playing GAME from the "
        "start (a client's 'setoption name UCI_Variant' may still change it).")
    parser.add_argument("--game", "-g", required=True, help="game name or alias, e.g. reversi")
    parser.add_argument("--param", "-p", action="append", default=[], metavar="K=V",
                        help="a game parameter (repeatable), e.g. -p width=8; the game's "
                             "'setoption name <game>_<K>' names the same")
    args = parser.parse_args(argv)
    try:
        engine, lines = start_engine(args.game, game_params(parser, args.param))
    except ValueError as e:
        parser.error(str(e))
    return main(engine=engine, option_lines=lines)


def start_engine(game: str, params: dict[str, str]) -> tuple[Engine, dict[str, str]]:
    """An engine playing ``game`` with ``params`` (field name -> text, as ``setoption``
    reads them), and the handshake lines showing them as the defaults; raises
    :class:`ValueError` for an unknown game or a bad parameter."""
    from dataclasses import replace

    import games
    from engine import options as opt
    from engine.engine import Engine

    engine = Engine(games)
    engine.set_option("UCI_Variant", game)
    played = engine.game
    specs = {spec.field: spec for spec in opt.game_param_specs(played.name, type(played.params))}
    for field, text in params.items():
        if field not in specs:
            raise opt.OptionError(f"{played.name} has no parameter {field!r}; its parameters: "
                                  f"{', '.join(specs) or 'none'}")
        engine.set_option(specs[field].name, text)
    variant = next(spec for spec in opt.engine_specs(games) if spec.field == "variant")
    shown = [replace(variant, default=engine.game.name)]
    chosen = engine.game.params
    shown += [replace(specs[f], default=getattr(chosen, f)) for f in chosen.model_fields_set if f in specs]
    return engine, {spec.name: spec.uci_line() for spec in shown}


def nboard_main(argv: list[str] | None = None) -> int:
    """``zermelo nboard``: serve the NBoard protocol (Othello) on stdin/stdout."""
    parser = argparse.ArgumentParser(prog="zermelo nboard", description="Serve the NBoard protocol "
                                     "(Othello GUIs) on standard input and output.")
    parser.add_argument("--movetime", type=int, default=nboard.DEFAULT_MOVETIME_MS, metavar="MS",
                        help="milliseconds per move without a clock or a depth (default %(default)s)")
    args = parser.parse_args(argv)
    if args.movetime < 1:
        parser.error("--movetime must be at least 1")
    nboard.NboardCommands.movetime_ms = args.movetime
    return main("nboard")
