"""The protocol server: UCI (with ``UCI_Variant``) and UGI on stdin/stdout.

One asyncio loop owns all output. Its reader handles one line at a time
and stays live while :class:`engine.engine.Engine` searches in its worker
thread, so ``isready``, ``stop`` and ``ponderhit`` are answered at once. The
worker's callbacks hop onto the loop with ``call_soon_threadsafe``, and the
loop alone writes, whole lines, flushed: output never interleaves.

Every ``go`` ends in exactly one ``bestmove``. A ``position``, ``go``,
``setoption`` or ``ucinewgame`` arriving during a search first stops it and
waits for its ``bestmove``; a search that ignored the stop for
``STOP_GRACE`` seconds (a defect) is given up, with a legal move, so that no
command waits for ever. ``go perft`` runs in a worker thread too and stops
the same way. Bad input produces one ``info string error: ...`` line and
leaves the state as it was; a ``go`` after a refused ``position`` answers
``bestmove (none)`` (see :mod:`engine.engine`).
"""

from __future__ import annotations

import asyncio
import os
import signal
import stat
import sys
import threading
import time
from typing import TYPE_CHECKING

from engine import build
from protocol.server import handshake, uci

if TYPE_CHECKING:
    from engine.engine import Engine

NAME = "zermelo 0.1.0"
AUTHOR = "the zermelo authors"
#: Longest accepted input line; longer ones are dropped with an error.
LINE_LIMIT = 16 * 1024 * 1024
#: The search thread holds the GIL between switches: a short interval keeps
#: the reader answering ``isready`` and ``stop`` within milliseconds.
SWITCH_INTERVAL = 0.001
#: Seconds a stopped search may take to answer before it is given up.
STOP_GRACE = 2.0


class Server:
    """Dispatches protocol lines to an :class:`Engine` and writes the answers."""

    def __init__(self, out=None) -> None:
        self.out = out if out is not None else sys.stdout.buffer
        self._engine: Engine | None = None
        self.dialect: str | None = None  # "uci" or "ugi" once the handshake happened
        self.debug = False
        self.loop: asyncio.AbstractEventLoop | None = None
        # Set once the last go's bestmove is out; set from the start, as no go is pending.
        self.bestmove_sent = asyncio.Event()
        self.bestmove_sent.set()
        #: A running ``go perft``: its control and the task that prints its result.
        self.perft_job: tuple | None = None
        self.running = True

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
        try:
            self.out.write(line.encode() + b"\n")
            self.out.flush()
        except (BrokenPipeError, ValueError):
            self.running = False

    def say(self, text: str) -> None:
        """An ``info string`` line (several if ``text`` has several lines)."""
        for line in text.splitlines() or [""]:
            self.write(f"info string {line}")

    def error(self, text: str) -> None:
        # Bad input may be huge (a 1 MB "position"): quote only its start.
        self.say(f"error: {text if len(text) <= 300 else text[:300] + '...'}")

    def from_thread(self, fn, *args) -> None:
        """Run ``fn(*args)`` on the loop; safe from any thread, keeps call order."""
        if self.loop is None:
            raise RuntimeError("the server's loop is not running")
        self.loop.call_soon_threadsafe(fn, *args)

    def note(self, text: str) -> None:
        """An ``info string`` of the engine outside a go (a table defect found by the
        background preparation), from any thread."""
        try:
            self.from_thread(self.say, text)
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
                self.error(f"input line of {skipped + len(raw)} bytes ignored (limit {LINE_LIMIT})")
                skipped = 0
                continue
            await self.handle(raw.decode(errors="replace"))
        await self.shutdown()

    async def handle(self, line: str) -> None:
        """Execute one input line; exceptions become ``info string error`` lines."""
        cmd, args, skipped = uci.split_command(line)
        if cmd is None:
            if skipped:
                unknown = f"unknown command {' '.join(skipped)[:100]!r}"
                if self.dialect is not None:
                    self.error(unknown)
                else:
                    # A person typing at a fresh server learns how to start; a GUI probing
                    # for another protocol ignores a line it does not know.
                    self.write(f"{unknown}; type 'uci' (or 'ugi') to start, or 'help'")
            return
        if skipped and self.debug:
            self.say(f"ignored {' '.join(skipped)[:100]!r}")
        try:
            await getattr(self, "cmd_" + cmd)(args)
        except Exception as e:  # bad input must never kill the server
            self.error(f"{cmd}: {e}")

    async def idle(self) -> None:
        """Stop a running search (or perft) and wait until its bestmove has been written."""
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
                self.error(f"the search did not stop within {STOP_GRACE:g} s; playing a legal move")
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

    # -- commands ------------------------------------------------------------------

    async def cmd_uci(self, args: list[str]) -> None:
        self.handshake("uci")

    async def cmd_help(self, args: list[str]) -> None:
        # Plain text before the handshake; after it, info strings, which clients skip.
        for line in uci.HELP:
            if self.dialect is None:
                self.write(line)
            else:
                self.say(line)

    async def cmd_ugi(self, args: list[str]) -> None:
        self.handshake("ugi")

    def handshake(self, dialect: str) -> None:
        self.dialect = dialect
        self.write(f"id name {NAME}")
        self.write(f"id author {AUTHOR}")
        for line in handshake.option_lines(self.say):
            self.write(line)
        # Before the ok, where clients skip unknown lines: which build answers.
        self.write(f"info string build: {build.describe()}")
        self.write(f"{dialect}ok")

    async def cmd_debug(self, args: list[str]) -> None:
        if args[:1] not in (["on"], ["off"]):
            raise ValueError("expected 'debug on' or 'debug off'")
        self.debug = args[0] == "on"

    async def cmd_isready(self, args: list[str]) -> None:
        try:
            if not self.engine.is_searching() and self.perft_job is None:
                self.engine.prepare()  # returns at once: tables are built in the background
        finally:
            # readyok is a liveness ping: it must come even if the preparation failed.
            self.write("readyok")

    async def cmd_setoption(self, args: list[str]) -> None:
        name, value = uci.parse_setoption(args)
        if name.lower() == "debug":
            # cutegames' sample settings send a bare ``setoption name debug``: the same
            # as ``debug on``; ``value false``/``off`` turns it off again.
            setting = value or "on"
            if setting.lower() not in ("on", "true", "off", "false"):
                raise ValueError(f"debug: expected true or false, got {setting[:40]!r}")
            self.debug = setting.lower() in ("on", "true")
            return
        await self.idle()
        for note in self.engine.set_option(name, value):
            self.say(note)

    async def cmd_register(self, args: list[str]) -> None:
        """No registration needed: accepted and ignored."""

    async def cmd_ucinewgame(self, args: list[str]) -> None:
        await self.idle()
        self.engine.new_game()

    cmd_uginewgame = cmd_ucinewgame

    async def cmd_position(self, args: list[str]) -> None:
        try:
            text, moves = uci.parse_position(args)
        except ValueError as e:
            # The GUI believes it sent a position: no go may answer for the one kept.
            self.engine.refuse("position", f"position refused: {e}")
            raise
        await self.idle()
        self.engine.set_position(text, moves)

    async def cmd_go(self, args: list[str]) -> None:
        started = time.perf_counter()  # the clock runs from the go line, however long it is
        go = uci.parse_go(args, len(self.engine.game.players))
        await self.idle()
        for err in go.errors:
            self.error(err)
        if "perft" in go.ints:
            self.perft(go.ints["perft"])
            return
        limits = self.limits(go)
        self.bestmove_sent = asyncio.Event()
        done = self.bestmove_sent
        show_wdl = self.engine.options.show_wdl
        with_ponder = self.dialect != "ugi"

        def on_info(info, pv: list[str]) -> None:
            self.from_thread(self.write, uci.format_info(info, pv, show_wdl))

        def on_bestmove(best: str | None, ponder: str | None) -> None:
            self.from_thread(self._bestmove, uci.format_bestmove(best, ponder, with_ponder), done)

        def on_message(text: str) -> None:
            self.from_thread(self.say, text)

        if self.debug:
            self.say(f"search {limits}")
        self.engine.go(limits, on_info, on_bestmove, on_message, started=started)

    def _bestmove(self, line: str, done: asyncio.Event) -> None:
        self.write(line)
        done.set()

    def limits(self, go: uci.GoArgs):
        """The search limits of a ``go``, clocks mapped to player numbers.

        :func:`protocol.server.uci.parse_go` already forced every number into its range.
        Move texts of ``searchmoves`` that are not legal here are dropped with one
        error line; when none is left the root is not restricted.
        """
        from engine.timeman import Limits

        ints = go.ints
        white, black = self.engine.clock_players()
        n = len(self.engine.game.players)
        time: list[int | None] = [None] * n
        inc = [0] * n
        for key, player in (("wtime", white), ("btime", black)):
            if key in ints:
                time[player] = ints[key]
        for key, player in (("winc", white), ("binc", black)):
            if key in ints:
                inc[player] = ints[key]
        # p1time … pNtime, p1inc … pNinc: the K-th mover's clock (parse_go dropped K > N).
        for key, value in ints.items():
            m = uci.PLAYER_CLOCK.fullmatch(key)
            if m is not None:
                (time if m.group(2) == "time" else inc)[int(m.group(1)) - 1] = value
        searchmoves = None
        if go.searchmoves is not None:
            searchmoves, bad = [], []
            for text in go.searchmoves:
                try:
                    searchmoves += self.engine.parse_moves([text])
                except ValueError:
                    bad.append(text)
            if bad:
                rest = "every move is searched" if not searchmoves else f"{len(searchmoves)} searched"
                self.error(f"searchmoves: ignored {len(bad)} not legal here ({rest}): {uci.quote_some(bad)}")
        return Limits(time=tuple(time), inc=tuple(inc),
                      movestogo=ints.get("movestogo") or None, movetime=ints.get("movetime"),
                      depth=ints.get("depth"), nodes=ints.get("nodes"), mate=ints.get("mate"),
                      infinite=go.infinite, ponder=go.ponder, searchmoves=searchmoves)

    def perft(self, depth: int) -> None:
        """Start ``go perft``: counted in a worker thread, printed when done; a stop
        ends it with one ``info string`` line instead."""
        from engine.control import Control

        if depth < 1:
            raise ValueError("perft depth must be at least 1")
        control = Control()
        counting = asyncio.get_running_loop().run_in_executor(None, self.engine.divide, depth, control)
        self.perft_job = (control, asyncio.ensure_future(self._perft_result(counting)))

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
            self.perft_job = None
        for move, n in counts:
            self.write(f"{move}: {n}")
        self.write("")
        self.write(f"Nodes searched: {sum(n for _, n in counts)}")

    async def cmd_stop(self, args: list[str]) -> None:
        if self.perft_job is not None:
            self.perft_job[0].stop()
        if self._engine is not None:
            self.engine.stop()

    async def cmd_ponderhit(self, args: list[str]) -> None:
        if self._engine is not None:
            self.engine.ponderhit()

    async def cmd_quit(self, args: list[str]) -> None:
        self.running = False

    async def cmd_query(self, args: list[str]) -> None:
        what = args[0] if args else ""
        if what == "gameover":
            self.write(f"response {str(self.engine.game_over()).lower()}")
        elif what == "p1turn":
            self.write(f"response {str(self.engine.position.turn == 0).lower()}")
        elif what == "turn":
            self.write(f"response p{self.engine.position.turn + 1}")
        elif what == "result":
            if not self.engine.game_over():
                self.write("response none")
            else:
                winner = self.engine.winner()
                self.write("response " + ("draw" if winner is None else f"p{winner + 1}win"))
        elif what == "ranking":
            ranking = self.engine.ranking()
            self.write("response " + ("none" if ranking is None else " ".join(map(str, ranking))))
        else:
            raise ValueError("expected 'query gameover', 'query p1turn', 'query turn', 'query result' "
                             "or 'query ranking'")

    async def cmd_d(self, args: list[str]) -> None:
        for line in self.engine.display():
            self.write(line)

    cmd_display = cmd_d


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


async def serve() -> None:
    """Serve standard input. SIGTERM, and SIGINT from a terminal, end the server as
    ``quit`` does (a running search first writes its bestmove). Under a GUI, SIGINT
    is ignored: a Ctrl-C in the GUI's terminal reaches its whole process group, and
    the GUI, which may still want this engine's moves, ends it with ``quit``."""
    server = Server()
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


def main() -> int:
    """Run the server until ``quit``, end of input or a terminating signal; exit status 0."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        asyncio.run(serve())
    except KeyboardInterrupt:  # Ctrl-C before the loop took the signal over
        return 130
    return 0
