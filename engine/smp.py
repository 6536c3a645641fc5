"""Lazy SMP: helper processes that search the same root over the engine's table.

``Threads N`` gives the two-player search N - 1 helpers. They are processes, not
threads: the compiled search holds the GIL but for a moment at each checkpoint,
so threads of one process take turns (``scripts/smp_spike.py`` measures both).
Every helper maps the engine's transposition table (the memory behind
:meth:`engine.tt.TranspositionTable.fileno`, handed over the socket), searches
the go's position with its own move-ordering state and the driver's helper
depth pattern (:func:`engine.driver.search` with ``helper=i``), and writes what
it finds into the table, where the main worker, which alone reports and decides
the move, reads it. Entries are written without locks; the table detects torn
ones.

A helper is ``python -m engine.smp FD PARENT``, started (never forked: the
server runs threads) from the thread that runs the protocol, and talked to over
a socket pair, one JSON object a line (no pickle):

- ``attach`` (with the table's descriptor): search in this table from now on;
- ``go``: the game (registry module, variant, parameters as JSON), the position
  (start text and moves, replayed as the engine does, and its key, checked), the
  table generation of the search, the depth limit, ``searchmoves`` as texts and
  the helper's number; the helper answers ``done`` with its node count once
  stopped (or at its last depth);
- ``stop``: end the running go.

A helper ends at end of file on its socket: the server quit, was ended by a
signal or was killed. On Linux it also asks to be killed when the server dies
(``PR_SET_PDEATHSIG``). No helper outlives the server.
"""

from __future__ import annotations

import atexit
import importlib
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import weakref
from typing import Any

from engine import build, nnue
from engine.control import Control
from engine.driver import search
from engine.game import Game, Position
from engine.search import Searcher
from engine.timeman import Limits
from engine.tt import TranspositionTable

#: Seconds a helper may take to answer ``done`` after ``stop`` (or to end after
#: ``quit``) before it is killed; it answers within a checkpoint.
ANSWER_TIMEOUT = 2.0


class _Helper:
    """One helper process, seen from the server."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        env = dict(os.environ)
        # The helper imports the same sources as the server, wherever it was started.
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(build.ROOT), env.get("PYTHONPATH", "")) if p)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "engine.smp", str(theirs.fileno()), str(os.getpid())],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env)
        finally:
            theirs.close()
        self.sock = ours
        self.buffer = b""
        #: The table (and its :attr:`TranspositionTable.made`) the helper searches in.
        self.table: TranspositionTable | None = None
        self.made = 0
        self.busy = False
        self.alive = True
        #: Nodes of the helper's last go.
        self.nodes = 0

    def send(self, message: dict[str, Any], fd: int = -1) -> bool:
        data = (json.dumps(message) + "\n").encode()
        try:
            if fd >= 0:
                socket.send_fds(self.sock, [data], [fd])
            else:
                self.sock.sendall(data)
        except OSError:
            self.kill()
        return self.alive

    def answer(self, timeout: float) -> dict[str, Any] | None:
        """The helper's next message, ``None`` (and the helper killed) when none comes in time."""
        try:
            self.sock.settimeout(timeout)
            while b"\n" not in self.buffer:
                data = self.sock.recv(1 << 12)
                if not data:
                    raise OSError("end of file")
                self.buffer += data
            line, self.buffer = self.buffer.split(b"\n", 1)
            return json.loads(line)
        except (OSError, ValueError):
            self.kill()
            return None

    def kill(self) -> None:
        self.alive = self.busy = False
        self.sock.close()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def close(self) -> None:
        if self.alive:
            self.send({"cmd": "quit"})
        self.sock.close()
        try:
            self.proc.wait(ANSWER_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.kill()
        self.alive = self.busy = False


class Helpers:
    """The helper processes of one engine.

    :meth:`resize` and :meth:`ready` start processes, so they are called from the
    thread that lives as long as the server (the protocol's): the system kills a
    helper when the thread that started it ends. :meth:`start` and :meth:`stop`
    bracket one search, from any thread.
    """

    def __init__(self, registry: str) -> None:
        #: The module of the games registry, which helpers import.
        self.registry = registry
        self._helpers: list[_Helper] = []
        self._lock = threading.Lock()
        #: Errors met by helpers, for the next report to the user.
        self.errors: list[str] = []
        _every.add(self)

    def __len__(self) -> int:
        return len(self._helpers)

    def resize(self, count: int, table: TranspositionTable) -> None:
        """Run ``count`` helpers over ``table``."""
        with self._lock:
            self._settle()
            while len(self._helpers) > count:
                self._helpers.pop().close()
            while len(self._helpers) < count:
                self._helpers.append(_Helper())
            self._attach(table)

    def ready(self, table: TranspositionTable) -> None:
        """Before a go: the last go's helpers idle, dead ones replaced, all over ``table``."""
        with self._lock:
            self._settle()
            for index, helper in enumerate(self._helpers):
                if not helper.alive:
                    self.errors.append("a Threads helper ended or stopped answering; a new one is started")
                    try:
                        self._helpers[index] = _Helper()
                    except OSError as e:  # out of processes or descriptors: try at the next go
                        self.errors.append(f"a Threads helper could not be started: {e}")
            self._attach(table)

    def settle(self) -> None:
        """Wait until no helper searches (before the table is replaced or cleared)."""
        with self._lock:
            self._settle()

    def start(self, go: dict[str, Any]) -> None:
        """Start every helper on the ``go`` (see the module's description)."""
        with self._lock:
            self._settle()
            for index, helper in enumerate(self._helpers, 1):
                if helper.alive and helper.table is not None:
                    helper.busy = helper.send({**go, "cmd": "go", "index": index})

    def stop(self) -> None:
        """End the helpers' search; returns at once (:meth:`settle` waits)."""
        with self._lock:
            for helper in self._helpers:
                if helper.busy:
                    helper.send({"cmd": "stop"})

    def close(self) -> None:
        with self._lock:
            for helper in self._helpers:
                helper.close()
            self._helpers = []

    def pids(self) -> list[int]:
        return [h.proc.pid for h in self._helpers if h.alive]

    def nodes(self) -> int:
        """The helpers' nodes in the last go, once :meth:`settle` has waited for them."""
        return sum(h.nodes for h in self._helpers)

    def _settle(self) -> None:
        for helper in self._helpers:
            while helper.busy:
                message = helper.answer(ANSWER_TIMEOUT)
                if message is None:
                    break  # killed: replaced at the next go, which says so
                if "error" in message:
                    self.errors.append(f"Threads helper: {message['error']}")
                elif "done" in message:
                    helper.busy = False
                    helper.nodes = message["done"]

    def _attach(self, table: TranspositionTable) -> None:
        fd = table.fileno()
        for helper in self._helpers:
            if helper.alive and (helper.table is not table or helper.made != table.made) and fd >= 0:
                if helper.send({"cmd": "attach", "buckets": table.buckets}, fd):
                    helper.table, helper.made = table, table.made


#: Every engine's helpers, ended when the server exits.
_every: weakref.WeakSet[Helpers] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for helpers in list(_every):
        for helper in helpers._helpers:
            helper.close()


# -- the helper process ---------------------------------------------------------------


class _Worker:
    """The helper's state: its table, its games, its position and its searcher."""

    def __init__(self) -> None:
        self.table = TranspositionTable(1)
        self.searcher = Searcher(tt=self.table)
        self.games: dict[tuple[str, str, str | None], Game] = {}
        self.game: Game | None = None
        self.pos: Position | None = None
        self.line: tuple[str | None, list[str]] = (None, [])
        self.networks: dict[tuple[str, str], nnue.Network] = {}

    def attach(self, fd: int, buckets: int) -> None:
        self.table.attach(fd, buckets)
        self.searcher.forget()

    def load(self, registry: str, variant: str, params: str | None) -> Game:
        key = (registry, variant, params)
        game = self.games.get(key)
        if game is None:
            games = importlib.import_module(registry)
            if params is None:
                game = games.load(variant)
            else:
                cls = games.game_class(variant)
                game = cls(cls.Params.model_validate_json(params))
            self.games[key] = game
        return game

    def position(self, game: Game, root: str | None, moves: list[str]) -> Position:
        """The position after ``moves`` from ``root``, extending the last one when it can."""
        done = len(self.line[1])
        pos = self.pos
        if game is not self.game:
            # Move-ordering statistics are one game's.
            self.game, self.searcher, pos = game, Searcher(tt=self.table), None
        if pos is None or root != self.line[0] or moves[:done] != self.line[1]:
            pos, done = game.new_position(root), 0
        self.pos, self.line = None, (root, [])
        for text in moves[done:]:
            pos.push(pos.parse_move(text))
        self.pos, self.line = pos, (root, list(moves))
        return pos

    def go(self, message: dict[str, Any], control: Control) -> int:
        game = self.load(message["registry"], message["variant"], message["params"])
        pos = self.position(game, message["root"], message["moves"])
        # The server's network (EvalFile), so that helpers score leaves as the main worker does.
        path = message.get("network", "")
        network = None
        if path:
            network = self.networks.get((game.name, path))
            if network is None:
                network = self.networks[(game.name, path)] = nnue.load_for_game(game, path)
        if getattr(pos, "network", None) is not network:
            pos.nn_attach(network)
        if pos.key != message["key"]:
            raise ValueError("the position replayed is not the server's")
        searchmoves = [pos.parse_move(text) for text in message["searchmoves"]]
        limits = Limits(infinite=True, depth=message["depth"] or None, searchmoves=searchmoves or None)
        # The search's new_search brings the table to the server's generation.
        self.table.generation = (message["generation"] - 2) % 255 + 1
        result = search(self.searcher, game, pos, limits, control=control, helper=message["index"],
                        ply=len(message["moves"]))
        return result.nodes


def _die_with(parent: int) -> None:
    """Be killed when the server dies (Linux), and end now if it already has."""
    if sys.platform.startswith("linux"):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(0)


def serve(fd: int, parent: int) -> None:
    """The helper process: attach, search and stop as the server says, until end of file."""
    _die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the server's to handle
    # The reader thread must see ``stop`` while the search runs.
    sys.setswitchinterval(0.001)
    sock = socket.socket(fileno=fd)
    inbox: queue.Queue[tuple[dict[str, Any], Any]] = queue.Queue()
    running: list[Control] = []

    def send(message: dict[str, Any]) -> None:
        try:
            sock.sendall((json.dumps(message) + "\n").encode())
        except OSError:
            os._exit(0)

    def read() -> None:
        buffer, fds = b"", []
        while True:
            try:
                data, got, _, _ = socket.recv_fds(sock, 1 << 16, 4)
            except OSError:
                data, got = b"", []
            if not data:
                os._exit(0)  # the server is gone
            fds.extend(got)
            buffer += data
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                message = json.loads(line)
                command = message.get("cmd")
                if command == "stop":
                    if running:
                        running[-1].stop()
                elif command == "go":
                    # The go's control is made here, so that a stop read before its
                    # search starts still stops it.
                    running[:] = [Control()]
                    inbox.put((message, running[-1]))
                elif command == "attach":
                    inbox.put((message, fds.pop(0)))
                elif command == "quit":
                    os._exit(0)

    threading.Thread(target=read, name="helper-reader", daemon=True).start()
    worker = _Worker()
    while True:
        message, extra = inbox.get()
        if message["cmd"] == "attach":
            worker.attach(extra, message["buckets"])
            continue
        nodes = 0
        try:
            nodes = worker.go(message, extra)
        except Exception as e:  # noqa: BLE001 - told to the server, which carries on without this go
            worker.pos = None
            send({"error": f"{e!r}"})
        send({"done": nodes})


if __name__ == "__main__":
    serve(int(sys.argv[1]), int(sys.argv[2]))
