"""A match client for Hub engines (Scan's draughts protocol): Scan, and zermelo's
own ``zermelo hub``.

:class:`HubEngine` is driven by the runner as a UCI
:class:`protocol.match.process.EngineProcess` is, and speaks Hub underneath:

- the handshake is ``hub`` (answered by ``param`` lines and ``wait``), then
  ``set-param name=variant`` when the engine declares ``variant``, the spec's
  options as ``set-param``, and ``init`` (answered ``ready``); ``isready`` is a
  ``ping``/``pong`` round trip and a new game ``new-game``;
- the runner's ``position ... moves ...`` line, in the game's own move texts,
  becomes ``pos pos=<board> moves="..."`` in Hub's numbers
  (``game.hub_notation()``), and its ``go`` line a ``level`` (``move-time``, the
  mover's ``time`` and ``inc``, ``depth`` or ``nodes``) and ``go think``;
- ``done move=...`` is turned back into the game's move text; ``info`` lines give
  the score (in men), depth and nodes; ``stop`` ends an overrunning search.

Pondering is not offered to Hub engines.
"""

from __future__ import annotations

import time

from protocol.match.process import EngineError, EngineProcess, EngineSpec, Reply
from protocol.server.hub import move_parts, move_text, parse_args, quote


class HubEngine(EngineProcess):
    """One Hub engine process playing ``game`` (a draughts game)."""

    def __init__(self, spec: EngineSpec, game, *, log=None):
        super().__init__(spec, "hub", None, log=log, ponder=False)
        self.game = game
        self.notation = game.hub_notation()
        self.white = self.notation.white

    async def start(self, timeout: float) -> None:
        self.starts += 1
        await self._spawn()
        try:
            deadline = time.monotonic() + timeout
            await self.send("hub")
            self.declared = set()
            while True:
                _, line = await self._next(deadline)
                words = line.split(None, 1)
                if words[0] == "param":
                    self.declared.add(parse_args(words[1] if len(words) > 1 else "").get("name", "").lower())
                elif words[0] == "wait":
                    break
            if "variant" in self.declared:
                await self.send(f"set-param name=variant value={self.notation.variant}")
            for key, value in self.spec.options.items():
                await self.send(f"set-param name={quote(key)} value={quote(value)}")
            await self.send("init")
            while (await self._next(deadline))[1] != "ready":
                pass
        except EngineError as exc:
            await self.close()
            raise EngineError("start", f"{self.name} failed to start: {exc}") from None

    async def ping(self, timeout: float) -> None:
        await self.send("ping")
        deadline = time.monotonic() + timeout
        while (await self._next(deadline))[1] != "pong":
            pass

    async def new_game(self, timeout: float) -> None:
        await self.send("new-game")
        await self.ping(timeout)

    def _hub_position(self, position: str):
        """``(board string, Hub moves, the position reached)`` of a runner's position line."""
        words = position.split()
        moves = words[words.index("moves") + 1:] if "moves" in words else []
        text = words[2] if len(words) > 2 and words[1] == "fen" else None
        pos = self.game.new_position(text)
        board = self.notation.board_string(pos)
        hub_moves = []
        for word in moves:
            m = pos.parse_move(word)
            hub_moves.append(move_text(*self.notation.parts(pos, m)))
            pos.push(m)
        return board, hub_moves, pos

    def _level(self, go: str, turn: int) -> str:
        words = go.split()
        values = {words[i]: words[i + 1] for i in range(1, len(words) - 1, 2)}
        if "movetime" in values:
            return f"level move-time={int(values['movetime']) / 1000:g}"
        if "depth" in values:
            return f"level depth={values['depth']}"
        if "nodes" in values:
            return f"level nodes={values['nodes']}"
        side = "w" if turn == self.white else "b"
        if f"{side}time" in values:
            inc = int(values.get(f"{side}inc", 0)) / 1000
            moves = f"moves={values['movestogo']} " if "movestogo" in values else ""
            # Hub adds the increment before the move: the clock shown is without it.
            return f"level {moves}time={max(0.0, int(values[f'{side}time']) / 1000 - inc):g} inc={inc:g}"
        return "level move-time=1"

    async def go(self, position: str, go: str, deadline_s: float) -> Reply:
        try:
            board, hub_moves, pos = self._hub_position(position)
        except ValueError as exc:
            raise EngineError("crash", f"{self.name}: cannot send the position: {exc}") from None
        sent = time.monotonic()
        await self.send(f'pos pos={board} moves="{" ".join(hub_moves)}"' if hub_moves else f"pos pos={board}")
        await self.send(self._level(go, pos.turn))
        await self.send("go think")
        return await self._done(pos, sent, deadline_s)

    async def _done(self, pos, sent: float, deadline_s: float) -> Reply:
        deadline = sent + deadline_s
        reply = Reply(None, 0.0)
        while True:
            when, line = await self._next(deadline)
            words = line.split(None, 1)
            args = parse_args(words[1] if len(words) > 1 else "")
            if words[0] == "info":
                try:
                    if "score" in args:
                        reply.score = round(float(args["score"]) * 100)
                    if "depth" in args:
                        reply.depth = int(args["depth"])
                    if "nodes" in args:
                        reply.nodes = int(args["nodes"])
                except ValueError:
                    pass
            elif words[0] == "done":
                reply.elapsed_ms = (when - sent) * 1000.0
                text = args.get("move")
                if text:
                    try:
                        reply.move = pos.move_text(self.notation.find(pos, *move_parts(text)))
                    except ValueError:
                        reply.move = text  # not legal here: the runner forfeits it as such
                return reply

    async def stop_search(self, grace: float) -> bool:
        try:
            await self.send("stop")
            deadline = time.monotonic() + grace
            while not (await self._next(deadline))[1].startswith("done"):
                pass
            return True
        except EngineError:
            return False
