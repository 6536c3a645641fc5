"""A match client for GTP engines (the Go Text Protocol, version 2): GNU Go, KataGo,
Leela Zero, Pachi... and zermelo's own GTP server.

:class:`GtpEngine` is driven by the runner as a UCI :class:`protocol.match.process.EngineProcess`
is (the same process handling: its own session, chunked reading, ``quit`` then
SIGTERM and SIGKILL), and speaks GTP underneath:

- the handshake is ``protocol_version`` (which must answer 2); each new game is
  ``boardsize``, ``komi`` and ``clear_board``;
- a move is asked for with ``genmove``, after the moves played since the last one
  were sent with ``play`` (the runner's ``position ... moves ...`` line says which;
  a history that differs from what the engine has is played again from
  ``clear_board``). The time of the runner's ``go`` line becomes ``time_settings``
  (once a game) and ``time_left``: ``movetime`` as Canadian byo-yomi of one stone
  in that many seconds, a clock as absolute time; depth and node limits mean
  nothing to GTP, where the engine's own level (its command line) rules;
- ``isready`` is a ``protocol_version`` round trip; GTP has no ``stop``: an
  overrunning engine is closed (and started again for the next game);
- commands carry ids, so a late answer to an abandoned command is never taken for
  the answer to the next one;
- at the end of a game :meth:`GtpEngine.final_score` asks the engine's score
  (``B+7.5``, ``W+0.5``, ``0``), which the runner compares with its own.

GTP plays from the empty board only: positions set up from text cannot be sent.
"""

from __future__ import annotations

import math
import time

from protocol.match.process import EngineError, EngineProcess, EngineSpec, Reply
from protocol.match.sgf import go_board

__all__ = ["GtpEngine", "go_board", "same_score"]

#: GTP's colours, by player number (Black moves first).
COLOURS = ("b", "w")


def same_score(a: str, b: str) -> bool:
    """Whether two GTP scores agree (``B+7`` and ``B+7.0`` do; ``0`` and ``Draw`` do).

    >>> same_score("B+7.5", "b+7.5"), same_score("0", "Draw"), same_score("W+1", "B+1")
    (True, True, False)
    """
    def norm(text: str) -> tuple[str, float] | None:
        t = text.strip().upper()
        if t in ("0", "DRAW", "JIGO"):
            return ("0", 0.0)
        if len(t) > 2 and t[0] in "BW" and t[1] == "+":
            try:
                return (t[0], float(t[2:]))
            except ValueError:
                return None
        return None

    x, y = norm(a), norm(b)
    return x is not None and x == y


class GtpEngine(EngineProcess):
    """One GTP engine process, for a board of ``size`` points a side and ``komi``."""

    def __init__(self, spec: EngineSpec, size: int, komi: float, *, log=None):
        super().__init__(spec, "gtp", None, log=log, ponder=False)
        self.size = size
        self.komi = komi
        self._id = 0
        #: The moves the engine has been told (GTP vertices in lower case), from the empty board.
        self.played: list[str] = []
        #: Whether this game's ``time_settings`` have been sent.
        self._timed = False

    async def command(self, text: str, timeout: float) -> str:
        """Send one command and return its answer's text; raises :class:`EngineError`
        for a failure answer (``?``), a timeout or a crash."""
        self._id += 1
        ident = str(self._id)
        await self.send(f"{ident} {text}")
        deadline = time.monotonic() + timeout
        while True:
            _, line = await self._next(deadline)
            if line[:1] not in ("=", "?"):
                continue  # the rest of an earlier, abandoned answer
            head, _, rest = line[1:].partition(" ")
            if head != ident:
                continue
            await self._answer_end(deadline)
            if line[0] == "?":
                raise EngineError("crash", f"{self.name}: {text.split()[0]} refused: {rest.strip()}")
            return rest.strip()

    async def _answer_end(self, deadline: float) -> None:
        """Skip to the empty line that ends an answer (multi-line answers add lines)."""
        while True:
            if not (await self._raw(deadline))[1]:
                return

    async def start(self, timeout: float) -> None:
        """Spawn and check the protocol version (GTP 2)."""
        self.starts += 1
        await self._spawn()
        try:
            version = await self.command("protocol_version", timeout)
            if version != "2":
                raise EngineError("start", f"{self.name}: GTP protocol version {version!r}, not 2")
        except EngineError as exc:
            await self.close()
            raise EngineError("start", f"{self.name} failed to start: {exc}") from None

    def _emit(self, now: float, line: str) -> None:
        # GTP lets an engine comment after '#': no part of an answer (a comment line
        # would otherwise read as the empty line that ends one).
        if not line.startswith("#"):
            super()._emit(now, line.split("#", 1)[0].strip())

    async def ping(self, timeout: float) -> None:
        await self.command("protocol_version", timeout)

    async def new_game(self, timeout: float) -> None:
        await self.command(f"boardsize {self.size}", timeout)
        await self.command(f"komi {self.komi:g}", timeout)
        await self.command("clear_board", timeout)
        self.played = []
        self._timed = False

    async def go(self, position: str, go: str, deadline_s: float) -> Reply:
        """``play`` the moves of ``position`` the engine lacks, set its clock from ``go``,
        and ``genmove``; the answer's vertex (or ``pass``, ``resign``) is the move."""
        sent = time.monotonic()
        words = position.split()
        if len(words) > 1 and words[1] != "startpos":
            raise EngineError("crash", f"{self.name}: GTP plays from the empty board only")
        # Vertices are case-insensitive: the runner writes C3, an engine may answer c3.
        moves = [m.lower() for m in words[words.index("moves") + 1:]] if "moves" in words else []
        if moves[:len(self.played)] != self.played:
            await self.command("clear_board", deadline_s)
            self.played = []
        for i in range(len(self.played), len(moves)):
            await self.command(f"play {COLOURS[i % 2]} {moves[i]}", deadline_s)
            self.played.append(moves[i])
        colour = COLOURS[len(moves) % 2]
        await self._clock(colour, go, deadline_s)
        left = max(0.001, deadline_s - (time.monotonic() - sent))
        answer = await self.command(f"genmove {colour}", left)
        reply = Reply(answer.lower() if answer else None, (time.monotonic() - sent) * 1000.0)
        if reply.move is not None and reply.move != "resign":
            self.played.append(reply.move)
        return reply

    async def _clock(self, colour: str, go: str, timeout: float) -> None:
        """The ``go`` line's time as GTP's: ``movetime`` as byo-yomi of one stone, the
        mover's clock as absolute time (whole seconds, at least one)."""
        words = go.split()
        values = {words[i]: words[i + 1] for i in range(1, len(words) - 1)}
        if "movetime" in values:
            seconds, stones = max(1, int(values["movetime"]) // 1000), 1
            settings = f"0 {seconds} 1"
        else:
            key = ("btime", "wtime")[COLOURS.index(colour)]
            if key not in values:
                return
            seconds, stones = max(1, math.floor(int(values[key]) / 1000)), 0
            settings = f"{seconds} 0 0"
        if not self._timed:
            await self.command(f"time_settings {settings}", timeout)
            self._timed = True
        await self.command(f"time_left {colour} {seconds} {stones}", timeout)

    async def stop_search(self, grace: float) -> bool:
        """GTP cannot stop a ``genmove``: the runner closes the engine."""
        return False

    async def final_score(self, timeout: float) -> str | None:
        """The engine's score of the finished game (``B+7.5``), ``None`` when it has none."""
        try:
            return await self.command("final_score", timeout)
        except EngineError:
            return None
