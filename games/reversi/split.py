"""The exact reversi solver on several cores: a split along the principal variation.

``Threads N`` solves a root of at least ``PARALLEL_EMPTIES`` empties with N worker
processes, each with its own :class:`games.reversi.endgame.Solver` and table (the
compiled solver holds the GIL, so threads of one process would take turns). The
process that asks only coordinates; it searches nothing but the ordering of the
split nodes' moves.

At a split node (the root, and the first child of a split node while it has at
least ``SPLIT_EMPTIES`` empties and lies at most ``SPLIT_PLIES`` below the root) the
first move in the solver's own root order is searched first, for a bound (itself
split when it is a split node, else one job); the other moves then go to the
workers from a queue, each proved with a null window at the best score so far, and
searched again, at the front of the queue, only when it fails high: with the full
window when it beats the best score at that time, with a null window at it when the
best score has risen past it meanwhile. A move that reaches ``beta`` ends the node
and the workers still on its siblings are stopped. Every job's answer is a bound
or the exact value of one child, so the node's value is what one thread finds:
exact inside the window, a bound on its side outside it (the best move may differ
among moves of equal value). The win, draw or loss is proved first and the exact
score after, as :meth:`games.reversi.endgame.Solver.best` does; the coordinator
remembers the best move of each split node to order it first in the second pass.

A worker is a Python process running :func:`serve` on descriptor FD, talked to over a socket pair,
one JSON object a line: ``new`` (a fresh solver, with ``count_empties``), ``begin``
(a new solve: the table's generation), ``solve`` (``id``, the bitboards, the window
and ``max_nodes``; answered with ``id``, ``value`` and the job's ``nodes``, or
``stopped``) and ``stop`` (ends the running job). It ends at end of file on its
socket, so it never outlives the process that started it.
"""

from __future__ import annotations

import collections
import importlib
import json
import os
import selectors
import socket
import subprocess
import sys
import threading
import time
import queue
import weakref
from typing import Any, Callable

from engine import build
from engine.control import Control, Stopped
from games.reversi.bitboard import PASS, mobility, popcount

#: Least empties of a root that is solved in parallel: below, a solve takes under a
#: second with one process, and the workers' separate tables lose the transpositions
#: between the root's moves (a random 18-empty position: 2.1 M nodes with two
#: workers, 1.2 M with one process).
PARALLEL_EMPTIES = 20
#: Least empties of a split node below the root, and the deepest split below the root.
SPLIT_EMPTIES = 18
SPLIT_PLIES = 3
#: Most positions whose best move and worker the coordinator remembers between solves.
MEMORY = 1 << 16
#: Seconds between the coordinator's looks at the control while jobs run.
POLL = 0.005
#: Seconds a worker may take to answer a ``stop`` before it is killed.
ANSWER_TIMEOUT = 10.0

_MASK = (1 << 64) - 1
#: A worker's program (not ``-m``: the package imports this module before it would run).
_WORKER = "import sys; from games.reversi.split import serve; serve(int(sys.argv[1]), sys.argv[2])"


def prove(root: Callable[[int, int, int, int], tuple[int, int]], own: int, opp: int,
          report: Callable[[int, int], None] | None = None) -> tuple[int, int]:
    """``(score, move)`` by ``root(own, opp, alpha, beta)``, a fail-soft root search: the
    win, draw or loss first (the window -1..1), then the exact score on its side by
    null windows, each testing one score: 2, 4, 8... discs beyond the bound proved
    until one fails, then halving the interval left. A null window costs far less
    than the whole side of the score (FFO #40-#48: 15 % fewer nodes; #48, +28, 27 %
    fewer), and each fail-soft answer narrows the interval by what it proves.
    ``report(lo, hi)`` gets the mover's bounds after each search. The solver and the
    pool of workers both prove so."""
    score, move = root(own, opp, -1, 1)
    if score == 0:
        if report is not None:
            report(0, 0)
        return score, move
    # Searched on the mover's side of zero: lo <= sign * score < hi.
    sign = 1 if score > 0 else -1
    lo, hi = sign * score, 65
    step, gallop = 2, True
    while True:
        if report is not None:
            if sign > 0:
                report(lo, hi - 1)
            else:
                report(1 - hi, -lo)
        if hi - lo <= 1:
            return sign * lo, move
        if gallop:
            t = min(lo + step, hi - 1)
            step *= 2
        else:
            t = (lo + hi + 1) // 2
        if sign > 0:
            v, m = root(own, opp, t - 1, t)
            if v >= t:
                lo, move = v, m
            else:
                hi, gallop = v + 1, False
        else:
            # The root's move is known only when it fails high: the loss is at most -v.
            v, m = root(own, opp, -t, 1 - t)
            if v <= -t:
                lo = -v
            else:
                hi, gallop, move = 1 - v, False, m


class _Worker:
    """One worker process, seen from the coordinator."""

    def __init__(self, solver: str) -> None:
        ours, theirs = socket.socketpair()
        env = dict(os.environ)
        # The worker imports the same sources (and build) as the coordinator.
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(build.ROOT), env.get("PYTHONPATH", "")) if p)
        try:
            self.proc = subprocess.Popen([sys.executable, "-c", _WORKER, str(theirs.fileno()), solver],
                                         pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, env=env)
        finally:
            theirs.close()
        self.sock = ours
        self.buffer = b""
        #: The running job: ``(id, square, child own, child opp, lo, hi, full)``, or ``None``.
        self.job: tuple[int, int, int, int, int, int, bool] | None = None
        #: When the running job was given (``time.perf_counter()``).
        self.since = 0.0
        #: The last job given: ``(square, child own, child opp, lo, hi, full)``.
        self.last: tuple[int, int, int, int, int, bool] = (0, 0, 0, 0, 0, False)

    def send(self, message: dict[str, Any]) -> None:
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def messages(self) -> list[dict[str, Any]]:
        """The complete messages that can be read now (the socket is readable)."""
        data = self.sock.recv(1 << 16)
        if not data:
            raise ConnectionError("a solver worker ended")
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\n")
        return [json.loads(line) for line in lines]

    def kill(self) -> None:
        self.sock.close()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def _close(workers: list[_Worker]) -> None:
    for worker in workers:
        worker.kill()


class Pool:
    """``size`` worker processes solving one position together (started at the first
    solve, kept between solves with their tables, ended by :meth:`close` or when the
    pool is dropped)."""

    def __init__(self, size: int, solver: type, count_empties: bool = False) -> None:
        self.size = size
        # The solver class comes from its caller (the solver's own module, which imports
        # this one), and reaches the workers as ``module:name``.
        self._solver = f"{solver.__module__}:{solver.__qualname__}"
        self.count_empties = count_empties
        self._workers: list[_Worker] = []
        self._selector = selectors.DefaultSelector()
        self._finalizer = weakref.finalize(self, _close, self._workers)
        #: Nodes of the solves so far: the workers' and the coordinator's ordering.
        self.nodes = 0
        #: Seconds the workers had a job, added over the workers (against the wall time
        #: and the workers' number: how much of the time they had work).
        self.busy = 0.0
        self.control: Control | None = None
        #: Nodes after which a solve stops (0: no limit), roughly: a running job stops
        #: at its own share.
        self.max_nodes = 0
        self._next_id = 0
        #: Best moves of the split nodes, for the next pass over them.
        self._best: dict[tuple[int, int], int] = {}
        #: The worker that last searched each job's position.
        self._owner: dict[tuple[int, int], int] = {}
        #: Orders the split nodes' moves as the solver's root does.
        self._orderer = solver(count_empties)

    def pids(self) -> list[int]:
        return [w.proc.pid for w in self._workers]

    def close(self) -> None:
        self._finalizer()
        self._workers.clear()
        self._owner.clear()
        self._selector.close()
        self._selector = selectors.DefaultSelector()

    def fresh(self) -> None:
        """Start the next solve from empty tables (as a new solver would)."""
        self._best.clear()
        self._owner.clear()
        for worker in self._workers:
            worker.send({"cmd": "new", "count_empties": self.count_empties})

    def start(self) -> None:
        """Start the workers not running yet."""
        while len(self._workers) < self.size:
            worker = _Worker(self._solver)
            worker.send({"cmd": "new", "count_empties": self.count_empties})
            self._workers.append(worker)
            self._selector.register(worker.sock, selectors.EVENT_READ, worker)

    def best(self, own: int, opp: int) -> tuple[int, int]:
        """``(score, move)`` as :meth:`games.reversi.endgame.Solver.best` finds them: the
        win, draw or loss first, then the exact score on its side. Raises
        :class:`engine.control.Stopped` when :attr:`control` expires or past
        :attr:`max_nodes`; the workers are stopped first, their tables left valid."""
        if len(self._owner) > MEMORY:
            self._owner.clear()
            self._best.clear()
        try:
            self.start()
            for worker in self._workers:
                worker.send({"cmd": "begin"})
            return prove(self.root, own, opp)
        except (OSError, ValueError):
            # A worker gone (killed from outside) or a garbled answer: this solve runs in
            # this process, and the next one starts new workers.
            self.close()
            solver = self._orderer
            solver.control, solver.max_nodes = self.control, self.max_nodes
            before = solver.nodes
            try:
                return solver.best(own, opp)
            finally:
                self.nodes += solver.nodes - before
                solver.control, solver.max_nodes = None, 0

    def root(self, own: int, opp: int, alpha: int, beta: int) -> tuple[int, int]:
        """``(score, move)`` within ``(alpha, beta)``, fail-soft, as the solver's ``root``."""
        return self._split(own, opp, alpha, beta, 0)

    def _split(self, own: int, opp: int, alpha: int, beta: int, ply: int) -> tuple[int, int]:
        before = self._orderer.nodes
        moves = self._orderer.root_moves(own, opp, self._best.get((own, opp), -1))
        self.nodes += self._orderer.nodes - before
        if not moves:
            if mobility(opp, own):
                return -self._child(opp, own, -beta, -alpha, ply), PASS
            return self._run_one(own, opp, alpha, beta), -1
        sq, f = moves[0]
        best, best_move = -self._child(opp & ~f, own | f | 1 << sq, -beta, -alpha, ply), sq
        if best < beta:
            best, best_move = self._siblings(moves[1:], own, opp, alpha, beta, best, best_move)
        self._best[own, opp] = best_move
        return best, best_move

    def _child(self, own: int, opp: int, alpha: int, beta: int, ply: int) -> int:
        """The value of a split node's first child: split in turn, or one job."""
        if ply < SPLIT_PLIES and popcount(~(own | opp) & _MASK) >= SPLIT_EMPTIES:
            return self._split(own, opp, alpha, beta, ply + 1)[0]
        return self._run_one(own, opp, alpha, beta)

    def _run_one(self, own: int, opp: int, alpha: int, beta: int) -> int:
        """One job, on the first worker, waited for."""
        worker = self._workers[0]
        self._assign(worker, (-1, own, opp, alpha, beta, True))
        while True:
            for done, value in self._wait():
                if done is worker:
                    assert value is not None
                    return value

    def _siblings(self, moves: list[tuple[int, int]], own: int, opp: int, alpha: int, beta: int,
                  best: int, best_move: int) -> tuple[int, int]:
        """The moves after the first, proved by the workers (see the module's description)."""
        # Jobs: (square, child own, child opp, a, full); ``a`` is set when the job starts.
        pending = collections.deque((sq, opp & ~f, own | f | 1 << sq, 0, False) for sq, f in moves)
        try:
            while True:
                for index, worker in enumerate(self._workers):
                    if worker.job is None and pending:
                        sq, no, nq, _, full = self._take(pending, index)
                        a = max(alpha, best)
                        # The child's window, from its mover's side.
                        lo, hi = (-beta, -a) if full else (-a - 1, -a)
                        self._assign(worker, (sq, no, nq, lo, hi, full))
                if all(w.job is None for w in self._workers):
                    return best, best_move
                for worker, value in self._wait():
                    if value is None:
                        continue
                    sq, no, nq, lo, hi, full = worker.last
                    v, a = -value, -hi
                    if full:
                        if v > best:
                            best, best_move = v, sq
                    elif v <= a:
                        best = max(best, v)  # an upper bound, as the solver's root keeps it
                    elif v >= beta:
                        best, best_move = v, sq
                    else:
                        # Failed high: searched again first, exactly if it still beats the best.
                        pending.appendleft((sq, no, nq, 0, v > max(alpha, best)))
                    if best >= beta:
                        return best, best_move
        finally:
            self._halt()

    def _take(self, pending: collections.deque, index: int) -> tuple[int, int, int, int, bool]:
        """The next job for worker ``index``: the first that it searched before (its table
        holds that subtree: the exact pass after the win/draw/loss proof, a search again
        after a fail high) or that no worker did, else the first."""
        for i, job in enumerate(pending):
            if self._owner.get((job[1], job[2]), index) == index:
                del pending[i]
                return job
        return pending.popleft()

    def _assign(self, worker: _Worker, job: tuple[int, int, int, int, int, bool]) -> None:
        sq, own, opp, lo, hi, full = job
        self._owner[own, opp] = self._workers.index(worker)
        self._next_id += 1
        worker.job = (self._next_id, sq, own, opp, lo, hi, full)
        worker.since = time.perf_counter()
        worker.last = (sq, own, opp, lo, hi, full)
        limit = max(1, self.max_nodes - self.nodes) if self.max_nodes else 0
        worker.send({"cmd": "solve", "id": self._next_id, "own": own, "opp": opp, "alpha": lo, "beta": hi,
                     "max_nodes": limit})

    def _wait(self) -> list[tuple[_Worker, int | None]]:
        """The jobs finished by the next answers (a worker and its job's value; ``None``
        for a stale answer), the control looked at every ``POLL`` seconds."""
        out: list[tuple[_Worker, int | None]] = []
        while not out:
            if self.control is not None and self.control.expired():
                self._halt()
                raise Stopped
            for key, _ in self._selector.select(POLL):
                worker = key.data
                for message in worker.messages():
                    if worker.job is None or message["id"] != worker.job[0]:
                        continue  # the answer of a job stopped meanwhile
                    self._done(worker, message)
                    if message.get("stopped"):
                        self._halt()
                        raise Stopped
                    out.append((worker, message["value"]))
        return out

    def _done(self, worker: _Worker, message: dict[str, Any]) -> None:
        worker.job = None
        self.nodes += message["nodes"]
        self.busy += time.perf_counter() - worker.since

    def _halt(self) -> None:
        """Stop every running job and wait for the workers to answer (a worker that does
        not is killed and replaced at the next solve)."""
        for worker in self._workers:
            if worker.job is not None:
                worker.send({"cmd": "stop", "id": worker.job[0]})
        for worker in list(self._workers):
            worker.sock.settimeout(ANSWER_TIMEOUT)
            try:
                while worker.job is not None:
                    for message in worker.messages():
                        if worker.job is not None and message["id"] == worker.job[0]:
                            self._done(worker, message)
            except (OSError, ValueError):
                self._selector.unregister(worker.sock)
                worker.kill()
                self._workers.remove(worker)
            finally:
                if worker in self._workers:
                    worker.sock.settimeout(None)


# -- the worker process ----------------------------------------------------------------


def serve(fd: int, solver_class: str) -> None:
    """The worker process: solve jobs as they come, until end of file, with the solver
    class ``module:name``."""
    module, _, name = solver_class.partition(":")
    Solver = vars(importlib.import_module(module))[name]

    # The reader thread must see ``stop`` while a job runs (the solver offers the GIL).
    sys.setswitchinterval(0.001)
    sock = socket.socket(fileno=fd)
    inbox: queue.Queue[tuple[dict[str, Any], Control]] = queue.Queue()
    running: list[tuple[int, Control]] = []
    lock = threading.Lock()

    def send(message: dict[str, Any]) -> None:
        try:
            with lock:
                sock.sendall((json.dumps(message) + "\n").encode())
        except OSError:
            os._exit(0)

    def read() -> None:
        buffer = b""
        while True:
            try:
                data = sock.recv(1 << 16)
            except OSError:
                data = b""
            if not data:
                os._exit(0)  # the coordinator is gone
            buffer += data
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                message = json.loads(line)
                if message["cmd"] == "stop":
                    if running and running[-1][0] == message["id"]:
                        running[-1][1].stop()
                    continue
                # A job's control is made here, so that a stop read before it starts stops it.
                control = Control()
                if message["cmd"] == "solve":
                    running[:] = [(message["id"], control)]
                inbox.put((message, control))

    threading.Thread(target=read, name="solver-reader", daemon=True).start()
    solver = Solver()
    while True:
        message, control = inbox.get()
        command = message["cmd"]
        if command == "new":
            solver = Solver(message["count_empties"])
        elif command == "begin":
            solver.begin()
        elif command == "solve":
            start = solver.nodes
            solver.control, solver.max_nodes = control, start + message["max_nodes"] if message["max_nodes"] else 0
            try:
                value = solver.solve(message["own"], message["opp"], message["alpha"], message["beta"])
                send({"id": message["id"], "value": value, "nodes": solver.nodes - start})
            except Stopped:
                send({"id": message["id"], "stopped": True, "nodes": solver.nodes - start})
            finally:
                solver.control = None

