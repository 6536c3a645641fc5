"""An asyncio client for UCI and UGI engines, made for refereeing matches.

The runner, not the engine, is the judge: this module only talks. It starts an
engine in its own session (so the whole process group can be killed), reads its
output in chunks (no line-length limit can wedge it; over-long lines are
dropped), timestamps every line when it arrives, and raises :class:`EngineError`
on a crash, a missed deadline or a failed start. :meth:`EngineProcess.close`
always ends the process group: ``quit``, then SIGTERM, then SIGKILL.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import shlex
import shutil
import signal
import socket
import time
from dataclasses import dataclass, field

#: Lines longer than this are dropped (garbage protection); real ``info`` lines are far shorter.
MAX_LINE = 1 << 16
#: Mate scores are mapped to centipawns beyond any heuristic value: ``±(MATE_CP - moves)``.
MATE_CP = 100_000

# Process groups started and not yet reaped, killed at interpreter exit as a last resort.
_LIVE_GROUPS: set[int] = set()


@atexit.register
def _kill_leftovers() -> None:
    for pgid in list(_LIVE_GROUPS):
        _killpg(pgid, signal.SIGKILL)


def _killpg(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


class EngineError(Exception):
    """An engine failed: ``kind`` is ``"start"``, ``"crash"`` or ``"timeout"``."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


@dataclass
class EngineSpec:
    """One ``--engine`` argument: ``key=value`` words, values quoted when they hold spaces.

    Keys: ``cmd`` (program and arguments), ``name``, ``proto`` or ``protocol`` (``uci``,
    ``ugi``, ``gtp`` for a Go engine, see :mod:`protocol.match.gtp`, or ``hub`` for a
    draughts engine, see :mod:`protocol.match.hub`),
    ``dir`` (working directory), ``args`` (extra arguments), ``option.NAME=VALUE``
    (sent with ``setoption``), ``ponder`` (``on``/``off``: think on the opponent's
    time, overriding ``--ponder``) and the per-engine limits ``tc``, ``movetime``,
    ``depth``, ``nodes`` (override the match-wide ones).

    >>> EngineSpec.parse('cmd="python3 -m protocol" name=z1 option.Hash=64').argv
    ['python3', '-m', 'protocol']
    """

    argv: list[str]
    name: str
    proto: str | None = None
    dir: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    limits: dict[str, str] = field(default_factory=dict)
    ponder: bool | None = None

    @classmethod
    def parse(cls, text: str) -> "EngineSpec":
        argv: list[str] = []
        extra: list[str] = []
        name = proto = workdir = None
        options: dict[str, str] = {}
        limits: dict[str, str] = {}
        ponder = None
        for word in shlex.split(text):
            key, sep, value = word.partition("=")
            if not sep:
                raise ValueError(f"engine spec word {word!r} is not key=value")
            if key == "cmd":
                argv = shlex.split(value)
            elif key == "args":
                extra = shlex.split(value)
            elif key == "name":
                name = value
            elif key in ("proto", "protocol"):
                if value.lower() not in ("uci", "ugi", "gtp", "hub"):
                    raise ValueError(f"{key} must be uci, ugi, gtp or hub, not {value!r}")
                proto = value.lower()
            elif key == "dir":
                workdir = value
            elif key.startswith("option."):
                options[key[len("option."):]] = value
            elif key in ("tc", "movetime", "depth", "nodes"):
                limits[key] = value
            elif key == "ponder":
                if value.lower() not in ("on", "off", "true", "false", "1", "0"):
                    raise ValueError(f"ponder must be on or off, not {value!r}")
                ponder = value.lower() in ("on", "true", "1")
            else:
                raise ValueError(f"unknown engine spec key {key!r}")
        if not argv:
            raise ValueError(f"engine spec {text!r} has no cmd=")
        return cls(argv + extra, name or os.path.basename(argv[0]), proto, workdir, options, limits, ponder)


def missing_programs(specs: list[EngineSpec]) -> list[str]:
    """What keeps the engines of ``specs`` from starting on this machine (empty: nothing);
    asked of every node of a cluster before a match starts there."""
    problems = []
    for spec in specs:
        if spec.dir is not None and not os.path.isdir(spec.dir):
            problems.append(f"{spec.name}: no directory {spec.dir}")
            continue
        program = spec.argv[0]
        if os.sep in program:
            found = os.access(os.path.join(spec.dir or os.getcwd(), program), os.X_OK)
        else:
            found = shutil.which(program) is not None
        if not found:
            problems.append(f"{spec.name}: no program {program!r}")
        elif len(spec.argv) > 1 and spec.argv[1].endswith(".py") and \
                not os.path.exists(os.path.join(spec.dir or os.getcwd(), spec.argv[1])):
            # A script handed to an interpreter, the usual engine of a test set-up.
            problems.append(f"{spec.name}: no script {spec.argv[1]!r}")
    return [f"{socket.gethostname()}: {p}" for p in problems]


@dataclass
class Reply:
    """What an engine answered to one ``go``."""

    move: str | None
    """The ``bestmove`` token; ``None`` for ``(none)``, ``0000`` or nothing."""
    elapsed_ms: float
    """From writing ``go`` (or ``ponderhit``) to receiving the ``bestmove`` line."""
    score: int | None = None
    """Last reported score of the main line, centipawns from the engine's side to
    move; mates as ``±(MATE_CP - moves)``."""
    depth: int | None = None
    nodes: int | None = None
    pv: list[str] = field(default_factory=list)
    ponder: str | None = None
    """The move the engine expects in reply (``bestmove X ponder Y``)."""


def parse_info(tokens: list[str], reply: Reply) -> None:
    """Fold one ``info`` line (tokens after ``info``) into ``reply``; junk is ignored."""
    if "multipv" in tokens:
        i = tokens.index("multipv")
        if i + 1 < len(tokens) and tokens[i + 1] != "1":
            return
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        try:
            if tok == "string":
                return
            if tok == "depth" and i + 1 < n:
                reply.depth = int(tokens[i + 1])
                i += 2
            elif tok == "nodes" and i + 1 < n:
                reply.nodes = int(tokens[i + 1])
                i += 2
            elif tok == "score" and i + 2 < n:
                kind, value = tokens[i + 1], int(tokens[i + 2])
                if kind == "cp":
                    reply.score = value
                elif kind == "mate":
                    reply.score = MATE_CP - value if value > 0 else -MATE_CP - value
                i += 3
            elif tok == "pv":
                reply.pv = tokens[i + 1:]
                return
            else:
                i += 1
        except ValueError:
            i += 1


class EngineProcess:
    """One running engine. Not reentrant: one game drives it at a time.

    ``log``, if given, receives every line sent (``>``) and received (``<``).
    """

    def __init__(self, spec: EngineSpec, proto: str, variant: str | None, *, log=None, ponder: bool = False,
                 game_options: dict[str, str] | None = None):
        self.spec = spec
        #: The game's parameters as the engine's options (``go_size``: ``19``), set after the
        #: variant; an engine that declares options but not one of these cannot play the game.
        self.game_options = dict(game_options or {})
        #: Told ``Ponder`` true at the start, and sent ``go ponder`` on the opponent's time.
        self.ponders = ponder
        self.proto = proto
        self.variant = variant
        self.log = log
        self.proc: asyncio.subprocess.Process | None = None
        self.declared: set[str] = set()
        self._lines: asyncio.Queue = asyncio.Queue()
        self._reader: asyncio.Task | None = None
        self.starts = 0

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    # -- process ---------------------------------------------------------------

    async def start(self, timeout: float) -> None:
        """Spawn, handshake (``uci``/``ugi``), select the game, set options, ``isready``.

        Raises :class:`EngineError` (``"start"``) if any step fails or times out;
        the process is then already closed.
        """
        self.starts += 1
        await self._spawn()
        try:
            deadline = time.monotonic() + timeout
            await self.send(self.proto)
            self.declared = set()
            while True:
                _, line = await self._next(deadline)
                words = line.split()
                if words[:2] == ["option", "name"]:
                    end = words.index("type") if "type" in words else len(words)
                    self.declared.add(" ".join(words[2:end]).lower())
                elif words == [self.proto + "ok"]:
                    break
            if self.variant is not None:
                await self.send(f"setoption name UCI_Variant value {self.variant}")
            for key, value in self.game_options.items():
                if self.declared and key.lower() not in self.declared:
                    raise EngineError("start", f"{self.name} has no option {key}, the game's parameter")
                await self.send(f"setoption name {key} value {value}")
            if self.ponders and "ponder" in self.declared and "Ponder" not in self.spec.options:
                await self.send("setoption name Ponder value true")
            for key, value in self.spec.options.items():
                await self.send(f"setoption name {key} value {value}")
            await self.ping(max(0.1, deadline - time.monotonic()))
        except EngineError as exc:
            await self.close()
            raise EngineError("start", f"{self.name} failed to start: {exc}") from None

    async def _spawn(self) -> None:
        """Start the process in its own session, with a reader of its output."""
        self._lines = asyncio.Queue()
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.spec.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL, cwd=self.spec.dir, start_new_session=True)
        except OSError as exc:
            self.proc = None
            raise EngineError("start", f"{self.name}: cannot start {self.spec.argv[0]!r}: {exc}") from None
        _LIVE_GROUPS.add(self.proc.pid)
        if self.log is not None:
            self.log(f"{self.name} started pid {self.proc.pid}")
        # Opened as a pipe above, so asyncio always gives the reader.
        assert self.proc.stdout is not None
        self._reader = asyncio.create_task(self._read(self.proc.stdout))

    async def close(self, grace: float = 1.0) -> None:
        """End the engine: ``quit``, then SIGTERM and SIGKILL to its process group."""
        proc = self.proc
        if proc is None:
            return
        if proc.returncode is None:
            if proc.stdin is not None:
                try:
                    proc.stdin.write(b"quit\n")
                    await asyncio.wait_for(proc.stdin.drain(), grace)
                except (OSError, asyncio.TimeoutError, RuntimeError):
                    pass
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    await asyncio.wait_for(proc.wait(), grace)
                    break
                except asyncio.TimeoutError:
                    _killpg(proc.pid, sig)
            await proc.wait()
        # The leader is gone; children it left in the group go too.
        _killpg(proc.pid, signal.SIGKILL)
        _LIVE_GROUPS.discard(proc.pid)
        if proc.stdin is not None:
            proc.stdin.close()
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except asyncio.CancelledError:
                # The reader's own cancellation ends here; the caller's (an interrupted
                # match) must go on, or the match would carry on after Ctrl-C.
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise
            except Exception:
                pass
            self._reader = None
        self.proc = None

    # -- lines -----------------------------------------------------------------

    async def _read(self, stream: asyncio.StreamReader) -> None:
        buf = b""
        dropping = False
        try:
            while True:
                chunk = await stream.read(65536)
                now = time.monotonic()
                if not chunk:
                    break
                buf += chunk
                *lines, buf = buf.split(b"\n")
                for raw in lines:
                    if dropping:
                        dropping = False
                        continue
                    if len(raw) <= MAX_LINE:
                        self._emit(now, raw.decode("utf-8", "replace").strip())
                if len(buf) > MAX_LINE:
                    buf, dropping = b"", True
        finally:
            self._lines.put_nowait(None)

    def _emit(self, now: float, line: str) -> None:
        if self.log is not None:
            self.log(f"{self.name} < {line}")
        self._lines.put_nowait((now, line))

    async def _raw(self, deadline: float) -> tuple[float, str]:
        """The next line with its arrival time, empty lines included (GTP ends an answer
        with one); a timeout at ``deadline``, a crash (with the exit code) at the end."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise EngineError("timeout", f"{self.name}: no answer in time")
        try:
            item = await asyncio.wait_for(self._lines.get(), remaining)
        except asyncio.TimeoutError:
            raise EngineError("timeout", f"{self.name}: no answer in time") from None
        if item is None:
            # Keep reporting the end to later readers.
            self._lines.put_nowait(None)
            code = None
            if self.proc is not None:
                try:
                    code = await asyncio.wait_for(self.proc.wait(), 0.5)
                except asyncio.TimeoutError:
                    pass
            raise EngineError("crash", f"{self.name}: output closed (exit code {code})")
        return item

    async def _next(self, deadline: float) -> tuple[float, str]:
        """The next non-empty line with its arrival time."""
        while True:
            item = await self._raw(deadline)
            if item[1]:
                return item

    async def send(self, line: str) -> None:
        proc = self.proc
        stdin = proc.stdin if proc is not None and proc.returncode is None else None
        if stdin is None:
            raise EngineError("crash", f"{self.name}: engine is not running")
        if self.log is not None:
            self.log(f"{self.name} > {line}")
        try:
            stdin.write(line.encode() + b"\n")
            await stdin.drain()
        except (OSError, RuntimeError):
            raise EngineError("crash", f"{self.name}: engine closed its input") from None

    # -- commands --------------------------------------------------------------

    async def ping(self, timeout: float) -> None:
        """``isready`` and wait for ``readyok``; lines before it (stale output) are dropped."""
        await self.send("isready")
        deadline = time.monotonic() + timeout
        while (await self._next(deadline))[1] != "readyok":
            pass

    async def new_game(self, timeout: float) -> None:
        await self.send("uginewgame" if self.proto == "ugi" else "ucinewgame")
        await self.ping(timeout)

    async def go(self, position: str, go: str, deadline_s: float) -> Reply:
        """Send ``position`` and ``go``; wait for ``bestmove`` at most ``deadline_s`` seconds.

        Raises :class:`EngineError` (``"timeout"``, carrying nothing of the search)
        when the deadline passes, ``"crash"`` when the engine dies.
        """
        await self.send(position)
        await self.send(go)
        return await self._bestmove(time.monotonic(), deadline_s)

    async def ponder(self, position: str, go: str) -> None:
        """Start a ponder search (``go`` holds ``ponder``); nothing is read until it ends."""
        await self.send(position)
        await self.send(go)

    async def ponderhit(self, deadline_s: float) -> Reply:
        """The expected move came: ``ponderhit``, then as :meth:`go`, timed from the ponderhit."""
        await self.send("ponderhit")
        return await self._bestmove(time.monotonic(), deadline_s)

    async def _bestmove(self, sent: float, deadline_s: float) -> Reply:
        deadline = sent + deadline_s
        reply = Reply(None, 0.0)
        while True:
            when, line = await self._next(deadline)
            words = line.split()
            if words[0] == "info":
                parse_info(words[1:], reply)
            elif words[0] == "bestmove":
                reply.elapsed_ms = (when - sent) * 1000.0
                move = words[1] if len(words) > 1 else None
                reply.move = None if move in (None, "(none)", "0000") else move
                if len(words) > 3 and words[2] == "ponder":
                    reply.ponder = words[3]
                return reply

    async def stop_search(self, grace: float) -> bool:
        """``stop`` an overrunning search and wait ``grace`` seconds for its ``bestmove``."""
        try:
            await self.send("stop")
            deadline = time.monotonic() + grace
            while not (await self._next(deadline))[1].startswith("bestmove"):
                pass
            return True
        except EngineError:
            return False
