"""A match client for GTP engines (the Go Text Protocol, version 2): GNU Go, KataGo,
Leela Zero, Pachi... for Go, GRhino's ``gtp-rhino`` and Edax for Othello, and
zermelo's own GTP server for both.

:class:`GtpEngine` is driven by the runner as a UCI :class:`protocol.match.process.EngineProcess`
is (the same process handling: its own session, chunked reading, ``quit`` then
SIGTERM and SIGKILL), and speaks GTP underneath:

- the handshake is ``protocol_version`` (which must answer 2); each new game is
  ``set_game`` for a game other than Go (GRhino's command: ``set_game Othello``),
  ``boardsize``, ``komi`` where the game has one, and ``clear_board``; what the game
  is in GTP comes from its :class:`engine.gtprules.GtpRules`;
- a move is asked for with ``genmove``, after the moves played since the last one
  were sent with ``play`` (the runner's ``position ... moves ...`` line says which;
  an Othello pass is not sent, the colour of the next play saying it;
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

from engine.gtprules import GtpRules
from protocol.match.process import EngineError, EngineProcess, EngineSpec, Reply

__all__ = ["GtpEngine", "gtp_rules", "same_score"]

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


def gtp_rules(game) -> GtpRules | None:
    """The GTP side of ``game`` when GTP engines can play it: the game declares it, on a
    square board (``boardsize`` is one number); ``None`` otherwise."""
    rules = game.gtp()
    if rules is None:
        return None
    width, height = rules.size()
    return rules if width == height else None


class GtpEngine(EngineProcess):
    """One GTP engine process, for the game of ``rules`` (its board size and komi)."""

    def __init__(self, spec: EngineSpec, rules: GtpRules, *, log=None):
        super().__init__(spec, "gtp", None, log=log, ponder=False)
        self.rules = rules
        self.size = rules.size()[0]
        self.komi = rules.komi()
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
        if not self.rules.native:
            await self.command(f"set_game {self.rules.name}", timeout)
        await self.command(f"boardsize {self.size}", timeout)
        if self.komi is not None:
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
        moves = words[words.index("moves") + 1:] if "moves" in words else []
        await self.sync(moves, deadline_s)
        colour = COLOURS[len(moves) % 2]
        await self._clock(colour, go, deadline_s)
        left = max(0.001, deadline_s - (time.monotonic() - sent))
        answer = await self.command(f"genmove {colour}", left)
        reply = Reply(answer.lower() if answer else None, (time.monotonic() - sent) * 1000.0)
        if reply.move is not None and reply.move != "resign":
            self.played.append(reply.move)
        return reply

    async def sync(self, moves: list[str], timeout: float) -> None:
        """``play`` the moves of the game the engine has not been told (all of them from
        ``clear_board`` when its game went another way)."""
        # Vertices are case-insensitive: the runner writes C3, an engine may answer c3.
        moves = [m.lower() for m in moves]
        if moves[:len(self.played)] != self.played:
            await self.command("clear_board", timeout)
            self.played = []
        for i in range(len(self.played), len(moves)):
            if not (moves[i] == "pass" and self.rules.implicit_pass):
                await self.command(f"play {COLOURS[i % 2]} {self.rules.vertex(moves[i])}", timeout)
            self.played.append(moves[i])

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

    async def final_score(self, timeout: float, moves: list[str]) -> str | None:
        """The engine's score of the finished game of ``moves`` (``B+7.5``), ``None`` when
        it has none; the moves it was not told (the other side's last) are played first."""
        try:
            await self.sync(moves, timeout)
            return await self.command("final_score", timeout)
        except EngineError:
            return None
