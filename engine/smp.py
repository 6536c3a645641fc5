"""Lazy SMP and root parallelism: helper processes that search the same root.

``Threads N`` gives the two-player search N - 1 helpers. They are processes, not
threads: the compiled search holds the GIL but for a moment at each checkpoint,
so threads of one process take turns (``scripts/smp_spike.py`` measures both).
Every helper maps the engine's transposition table (the memory behind
:meth:`engine.tt.TranspositionTable.fileno`, handed over the socket), searches
the go's position with its own move-ordering state and the driver's helper
depth pattern (:func:`engine.driver.search` with ``helper=i``), and writes what
it finds into the table, where the main worker reads it. Entries are written
without locks; the table detects torn ones.

Each helper tells the server its node count at every report of its search and
its best line (depth, score, PV) at every completed iteration: the server's
reports count every worker's nodes, and once the main worker ends, the helpers
are stopped and the move is :func:`pick`-ed among every worker's last completed
iteration (the deepest; Stockfish's vote is the alternative, see ``VOTE``).

Monte-Carlo tree search (``Strategy mcts``) is parallel at the root instead (Chaslot,
Winands & van den Herik 2008): each helper grows its own tree from the same root with
its own seed, for as long as the main worker searches, and reports its root
children's simulations (visits and wins, its priors left out) with every report and
in ``done``; :func:`root_parallel` adds them to the main worker's root children
before the most visited is played. The table is not used by it.

A helper is ``python -m engine.smp FD PARENT``, started (never forked: the
server runs threads) from the thread that runs the protocol, and talked to over
a socket pair, one JSON object a line (no pickle):

- ``attach`` (with the table's descriptor): search in this table from now on;
- ``go``: the game (registry module, variant, parameters as JSON), the position
  (start text and moves, replayed as the engine does, and its key, checked), the
  table generation of the search, the depth limit, ``searchmoves`` as texts,
  the helper's number and ``mcts`` (the Monte-Carlo settings, ``rave`` and
  ``heavy``, or null for alpha-beta); while it searches the helper sends
  ``nodes`` (its count so far) at every report, with ``depth``, ``score`` (the
  side to move's, as the search scores) and ``pv`` (texts) at every completed
  iteration (Monte-Carlo: ``root``, a list of [move text, visits, wins]), and it
  answers ``done`` with its node count and its answer's depth, score and PV
  (or ``root``) once stopped (or at its last depth);
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
import time
import weakref
from dataclasses import replace
from typing import Any, Callable

from engine import build
from engine.control import Control
from engine.driver import Info, Line, SearchResult, search
from engine.game import EVAL_LIMIT, Game, IllegalMoveError, Position
from engine.endgame import Endgames
from engine.mcts import MCTSSearcher
from engine.search import DEFAULT_PARAMS, Searcher
from engine.session import Networks, exact_config_of, load_game, table_hook
from engine.timeman import Limits
from engine.tt import TranspositionTable

#: Seconds a helper may take to answer ``done`` after ``stop`` (or to end after
#: ``quit``) before it is killed. A running helper answers within a checkpoint, but
#: one just started may still be importing the engine, which takes seconds on a
#: loaded machine: killing it then would only start another.
ANSWER_TIMEOUT = 10.0

#: Seconds the main worker waits, once it ended, for the stopped helpers' ``done``
#: before it picks the move: the clock's time is spent, and their completed
#: iterations, which the pick uses, are known already from their reports.
FINISH_WAIT = 0.02

#: Seconds the main Monte-Carlo worker waits for the stopped helpers' ``done``: their
#: last report may be a batch behind (batches double), and a simulation ends in a moment.
MCTS_FINISH_WAIT = 0.05

#: Whether :func:`pick` votes (Stockfish) rather than taking the deepest iteration:
#: ``scripts/smp_bench.py --choice`` measures how often the two differ from the
#: main worker's answer.
VOTE = False

#: A worker's last completed iteration: its depth, score (the root mover's) and PV.
Result = tuple[int, int, list[int]]


def pick(results: list[Result], vote: bool = VOTE) -> int:
    """The index of the result to play among every worker's (the main worker's first).

    The deepest iteration, the main worker's on a tie; or Stockfish's vote: each
    worker gives its move (score - lowest score + 14) * depth, and the move with
    the most votes is played, along the line of its best-valued worker. Either
    way a proven win (the shortest) is taken over anything else and a proven loss
    is never preferred.
    """
    low = min(score for _, score, _ in results)
    votes: dict[int, int] = {}

    def value(result: Result) -> int:
        return (result[1] - low + 14) * result[0]

    for result in results:
        votes[result[2][0]] = votes.get(result[2][0], 0) + value(result)
    best = 0
    for index, (depth, score, pv) in enumerate(results):
        depth0, score0, pv0 = results[best]
        if abs(score0) > EVAL_LIMIT:
            # A proven result: the fastest win, else the slowest loss.
            better = score > score0
        elif score > EVAL_LIMIT:
            better = True
        elif score < -EVAL_LIMIT:
            better = False
        elif vote:
            better = (votes[pv[0]], value(results[index])) > (votes[pv0[0]], value(results[best]))
        else:
            better = depth > depth0
        if better:
            best = index
    return best


def parse_line(pos: Position, texts: list[str]) -> list[int]:
    """The longest prefix of ``texts`` that is a legal line from ``pos`` (a helper's PV), as moves."""
    moves: list[int] = []
    try:
        for text in texts:
            move = pos.parse_move(text)
            if move not in pos.legal_moves():
                break
            pos.push(move)
            moves.append(move)
    except IllegalMoveError:
        pass
    finally:
        for _ in moves:
            pos.pop()
    return moves


def line_texts(pos: Position, pv: list[int]) -> list[str]:
    """``pv`` played from ``pos`` as move texts, cut at the first move that is not legal."""
    texts = []
    for move in pv:
        if move not in pos.legal_moves():
            break
        texts.append(pos.move_text(move))
        pos.push(move)
    for _ in texts:
        pos.pop()
    return texts


def mcts_settings(worker: object) -> dict[str, bool] | None:
    """What a helper needs to search as the Monte-Carlo ``worker`` does (``None``: alpha-beta)."""
    return {"rave": worker.rave, "heavy": worker.heavy} if isinstance(worker, MCTSSearcher) else None


def root_parallel(searcher: MCTSSearcher, game: Game, pos: Position, limits: Limits, helpers: Helpers,
                  multipv: int, clock: Any, on_info: Callable[[Info], None]) -> SearchResult:
    """The main Monte-Carlo worker's search while the helpers grow their own trees: its
    reports count every worker's simulations, and once it ends the helpers' root
    children are added to its own before the move is chosen. A depth or node limit,
    and MultiPV's lines, keep the main worker's answer (the same from run to run)."""

    def counted(info: Info) -> None:
        nodes = info.nodes + helpers.poll()
        on_info(replace(info, nodes=nodes, nps=nodes * 1000 // max(info.time_ms, 1)))

    chooses = not (limits.depth or limits.nodes or limits.mate) and multipv == 1

    def conclude(depth: int, line: Line) -> tuple[int, Line]:
        helpers.finish(MCTS_FINISH_WAIT)
        if not chooses:
            return depth, line
        by_text = {pos.move_text(m): m for m in searcher.root_moves}
        extra: dict[int, tuple[int, float]] = {}
        for root in helpers.roots():
            for text, visits, wins in root:
                move = by_text.get(text)
                if move is not None:
                    n, w = extra.get(move, (0, 0.0))
                    extra[move] = (n + visits, w + wins)
        return depth, searcher.merge(extra)

    return search(searcher, game, pos, limits, multipv=multipv, clock=clock, on_info=counted, conclude=conclude)


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
        #: Nodes of the helper's last go, as last reported.
        self.nodes = 0
        #: Depth, score and PV texts of its last completed iteration in this go.
        self.result: tuple[int, int, list[str]] | None = None
        #: A Monte-Carlo helper's root children as last reported: [move text, visits, wins].
        self.root: list[list] = []

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

    def answer(self, timeout: float, kill: bool = True) -> dict[str, Any] | None:
        """The helper's next message, ``None`` when none comes in time (0: only one already
        arrived); then the helper is killed if ``kill``. A helper gone is killed always."""
        try:
            self.sock.settimeout(timeout)
            while b"\n" not in self.buffer:
                data = self.sock.recv(1 << 12)
                if not data:
                    raise ConnectionError("end of file")
                self.buffer += data
            line, self.buffer = self.buffer.split(b"\n", 1)
            return json.loads(line)
        except (TimeoutError, BlockingIOError):
            if kill:
                self.kill()
            return None
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
                helper.nodes, helper.result, helper.root = 0, None, []
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

    def poll(self) -> int:
        """The helpers' nodes in this go so far: what they reported, read without waiting."""
        with self._lock:
            for helper in self._helpers:
                while helper.busy and (message := helper.answer(0, kill=False)) is not None:
                    self._take(helper, message)
            return self.nodes()

    def finish(self, wait: float = FINISH_WAIT) -> list[tuple[int, int, list[str]]]:
        """Stop the helpers, wait up to ``wait`` seconds for their ``done``, and return the
        last completed iteration (depth, score, PV texts) of each that completed one.
        A helper still busy is waited for, as ever, by the next :meth:`settle`."""
        with self._lock:
            for helper in self._helpers:
                if helper.busy:
                    helper.send({"cmd": "stop"})
            deadline = time.monotonic() + wait
            for helper in self._helpers:
                while helper.busy:
                    message = helper.answer(max(deadline - time.monotonic(), 0.0), kill=False)
                    if message is None:
                        break
                    self._take(helper, message)
            return [h.result for h in self._helpers if h.result is not None]

    def roots(self) -> list[list[list]]:
        """Each Monte-Carlo helper's root children in this go, as last heard of."""
        with self._lock:
            return [h.root for h in self._helpers if h.root]

    def pids(self) -> list[int]:
        return [h.proc.pid for h in self._helpers if h.alive]

    def nodes(self) -> int:
        """The helpers' nodes in the last go, as last reported (all of them once
        :meth:`settle` has waited)."""
        return sum(h.nodes for h in self._helpers)

    def _settle(self) -> None:
        for helper in self._helpers:
            while helper.busy:
                message = helper.answer(ANSWER_TIMEOUT)
                if message is None:
                    break  # killed: replaced at the next go, which says so
                self._take(helper, message)

    def _take(self, helper: _Helper, message: dict[str, Any]) -> None:
        """Read one message of a helper's go."""
        if "error" in message:
            self.errors.append(f"Threads helper: {message['error']}")
        if "nodes" in message:
            helper.nodes = message["nodes"]
        if message.get("depth"):
            helper.result = (message["depth"], message["score"], message["pv"])
        if "root" in message:
            helper.root = message["root"]
        if "done" in message:
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
    """The helper's state: its table, its games, its position and its searcher, built
    by the engine's recipe (:mod:`engine.session`)."""

    def __init__(self) -> None:
        self.table = TranspositionTable(1)
        self.searcher = Searcher(tt=self.table)
        #: The Monte-Carlo worker (``Strategy mcts``), its tree kept between goes.
        self.mcts = MCTSSearcher(tt=self.table)
        self.games: dict[tuple[str, str, str | None], Game] = {}
        self.game: Game | None = None
        self.pos: Position | None = None
        self.line: tuple[str | None, list[str]] = (None, [])
        self.networks = Networks()
        #: The exact knowledge of the server's settings (its table hook), kept while they hold.
        self.endgames = Endgames()

    def attach(self, fd: int, buckets: int) -> None:
        self.table.attach(fd, buckets)
        self.searcher.forget()
        self.mcts.forget()

    def load(self, registry: str, variant: str, params: str | None) -> Game:
        key = (registry, variant, params)
        game = self.games.get(key)
        if game is None:
            games = importlib.import_module(registry)
            model = None if params is None else games.game_class(variant).Params.model_validate_json(params)
            game = self.games[key] = load_game(games, variant, model)
        return game

    def position(self, game: Game, root: str | None, moves: list[str]) -> Position:
        """The position after ``moves`` from ``root``, extending the last one when it can."""
        done = len(self.line[1])
        pos = self.pos
        if game is not self.game:
            # Move-ordering statistics and trees are one game's.
            self.game, self.searcher, pos = game, Searcher(tt=self.table), None
            self.mcts = MCTSSearcher(tt=self.table)
        if pos is None or root != self.line[0] or moves[:done] != self.line[1]:
            pos, done = game.new_position(root), 0
        self.pos, self.line = None, (root, [])
        for text in moves[done:]:
            pos.push(pos.parse_move(text))
        self.pos, self.line = pos, (root, list(moves))
        return pos

    def go(self, message: dict[str, Any], control: Control, send: Any) -> dict[str, Any]:
        """Search the ``go``; reports through ``send`` and returns the ``done`` message."""
        game = self.load(message["registry"], message["variant"], message["params"])
        pos = self.position(game, message["root"], message["moves"])
        # The server's network and exact knowledge, so that helpers score leaves and
        # probe tables as the main worker does.
        network = self.networks.get(game, message.get("network", ""))
        if pos.network is not network:
            pos.nn_attach(network)
        config = exact_config_of(message.get("exact", {}))
        if config != self.endgames.config:
            self.endgames = Endgames(config)
        if pos.key != message["key"]:
            raise ValueError("the position replayed is not the server's")
        # A message without the numbers (a tool's own) searches with the defaults.
        self.searcher.configure(message.get("search", DEFAULT_PARAMS))
        searchmoves = [pos.parse_move(text) for text in message["searchmoves"]]
        limits = Limits(infinite=True, depth=message["depth"] or None, searchmoves=searchmoves or None)
        # The search's new_search brings the table to the server's generation.
        self.table.generation = (message["generation"] - 2) % 255 + 1
        if message.get("mcts") is not None:
            return self.go_mcts(message, game, pos, limits, control, send)

        def report(info: Info) -> None:
            # The server adds the helpers' nodes to its reports and may play this line.
            if info.multipv == 1:
                if info.bound is None:
                    send({"nodes": info.nodes, "depth": info.depth, "score": info.score,
                          "pv": line_texts(pos, info.pv)})
                else:
                    send({"nodes": info.nodes})

        result = search(self.searcher, game, pos, limits, control=control, helper=message["index"],
                        ply=len(message["moves"]), on_info=report, tables=table_hook(self.endgames, game, control))
        return {"done": result.nodes, "depth": result.depth, "score": result.score,
                "pv": line_texts(pos, result.pv)}


    def go_mcts(self, message: dict[str, Any], game: Game, pos: Position, limits: Limits, control: Control,
                send: Any) -> dict[str, Any]:
        """A Monte-Carlo helper's go: its own tree from the root, seeded by its number and
        the position, its root children reported at every report and in ``done``."""
        searcher = self.mcts
        searcher.rave, searcher.heavy = message["mcts"]["rave"], message["mcts"]["heavy"]
        searcher.line = (message["root"], list(message["moves"]))
        searcher.rng.seed(message["index"] * 0x9E3779B97F4A7C15 ^ message["key"])

        def report(info: Info) -> None:
            if info.multipv == 1:
                send({"nodes": info.nodes, "root": searcher.root_stats()})

        result = search(searcher, game, pos, limits, control=control, helper=message["index"],
                        ply=len(message["moves"]), on_info=report)
        return {"done": result.nodes, "root": searcher.root_stats()}


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
        done: dict[str, Any] = {"done": 0}
        try:
            done = worker.go(message, extra, send)
        except Exception as e:  # noqa: BLE001 - told to the server, which carries on without this go
            worker.pos = None
            send({"error": f"{e!r}"})
        send(done)


if __name__ == "__main__":
    serve(int(sys.argv[1]), int(sys.argv[2]))
