"""Where independent work runs: a local process pool (the default) or a Ray cluster.

Two shapes of work go through here, each with both backends:

- :func:`map_unordered`: many items handed to ``work(state, item)``, results back
  as they finish. Each worker process builds its ``state`` once (a searcher, a pair
  of engine processes) with ``init = (function, args)`` and keeps it for the next
  items. Locally the workers are forked processes, as the book builder has always
  used; on Ray each item is a task, the state is kept per Ray worker process, and an
  item whose worker or node dies is scheduled again (its result arrives once).
- :func:`run_graph`: named tasks that depend on each other's results (endgame
  classes after the classes their captures lead to). Locally they run one after
  the other in this process; on Ray each is a task started once its inputs exist.

Ray is imported only when the Ray backend is asked for, so the local path needs
nothing beyond zermelo's own dependencies. Without an address (and without
``RAY_ADDRESS``) a new local Ray instance is started that listens on loopback
only: a Ray head runs whatever job anyone who reaches its ports submits.
"""

from __future__ import annotations

import ipaddress
import multiprocessing
import os
import pathlib
import queue
import signal
import sys
from dataclasses import dataclass
from typing import Any, Callable, Generator, Iterator, Protocol, runtime_checkable

#: A worker's state maker: ``function(*args)`` builds it once per worker process.
Init = tuple[Callable[..., Any], tuple]

#: How often an item is scheduled again after its worker or node died.
MAX_RESCHEDULES = 5


class ExecutionError(Exception):
    """The backend cannot run the work (Ray missing, cluster unreachable, a worker died)."""


@dataclass(frozen=True)
class Backend:
    """``local`` (a process pool on this machine) or ``ray`` (a Ray cluster).

    ``address`` is handed to ``ray.init``: ``auto`` (the cluster started on this
    machine with ``ray start``, or ``RAY_ADDRESS``) or ``HOST:PORT`` connect to a
    running cluster; ``None`` connects to ``RAY_ADDRESS`` when it is set and
    otherwise starts a new local Ray instance listening on loopback only.
    ``num_cpus`` sizes a local Ray started here.
    """

    kind: str = "local"
    address: str | None = None
    num_cpus: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("local", "ray"):
            raise ValueError(f"unknown backend {self.kind!r}; expected local or ray")
        if self.address is not None and self.kind != "ray":
            raise ValueError("--address is for --backend ray")

    @property
    def is_ray(self) -> bool:
        return self.kind == "ray"

    def describe(self) -> str:
        return f"ray ({self.address or 'local or default cluster'})" if self.is_ray else "local"


def package_root() -> pathlib.Path:
    """The directory holding ``engine/``: put on the Ray workers' path so that a
    cluster on this machine runs this very code."""
    return pathlib.Path(__file__).resolve().parent.parent


#: The address of the local Ray instance this process started, once started.
_LOCAL_RAY: dict[str, str] = {}


def local_ray_address() -> str | None:
    """The (loopback) address of the local Ray instance this process started and is
    connected to, if any."""
    ray = sys.modules.get("ray")
    return _LOCAL_RAY.get("address") if ray is not None and ray.is_initialized() else None


def ray_module(backend: Backend):
    """The ``ray`` module, connected to the backend's cluster (an existing
    connection is kept). Raises :class:`ExecutionError` when Ray is missing, or
    when a local instance would listen beyond loopback."""
    local = backend.address is None and not os.environ.get("RAY_ADDRESS")
    if local and "ray" not in sys.modules:
        # Ray 2.x turns a node address of 127.0.0.1 (``_node_ip_address``) into the
        # machine's network address, and its servers then listen on every interface;
        # its single-machine mode, read when ray is imported, keeps all of them on
        # loopback. The processes of the instance inherit the setting.
        os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    try:
        import ray
    except ImportError:
        raise ExecutionError("the ray backend needs Ray: pip install 'zermelo[ray]'") from None
    if not ray.is_initialized():
        root = str(package_root())
        path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
        try:
            ray.init(address="local" if local else backend.address, num_cpus=backend.num_cpus,
                     include_dashboard=False, log_to_driver=False, runtime_env={"env_vars": {"PYTHONPATH": path}})
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise ExecutionError(f"cannot reach the Ray cluster at {backend.address}: {exc}") from None
        if local:
            addresses = {n["NodeManagerAddress"] for n in ray.nodes() if n.get("Alive")}
            if not addresses or not all(ipaddress.ip_address(a).is_loopback for a in addresses):
                ray.shutdown()
                raise ExecutionError(f"the local Ray instance would listen on {', '.join(sorted(addresses))}, "
                                     "not on loopback only (ray was imported before the backend started it); "
                                     "not started")
            _LOCAL_RAY["address"] = min(addresses)
    return ray


def cluster_cpus(backend: Backend) -> int:
    """CPUs of the Ray cluster (1 at least)."""
    return max(1, int(ray_module(backend).cluster_resources().get("CPU", 1)))


def on_each_node(backend: Backend, fn: Callable, *args) -> dict[str, Any]:
    """``fn(*args)`` once on every live node of the cluster, by node address."""
    ray = ray_module(backend)
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    remote = ray.remote(num_cpus=0, max_retries=0)(fn)
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    refs = [remote.options(scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False))
            .remote(*args) for n in nodes]
    return {n["NodeManagerAddress"] + ":" + str(n.get("NodeManagerPort", "")): r
            for n, r in zip(nodes, ray.get(refs))}


# -- map_unordered ------------------------------------------------------------------------

def map_unordered(backend: Backend, init: Init, work: Callable[[Any, Any], Any], items: list, *,
                  jobs: int, on_reschedule: Callable[[int, str], None] | None = None
                  ) -> Generator[tuple[int, Any], None, None]:
    """``(index, work(state, items[index]))`` for every item, as each finishes, with
    at most ``jobs`` at work at once. Closing the iterator early drops the work not
    yet done (on Ray: queued tasks are cancelled and running ones stopped).
    ``on_reschedule(index, why)`` hears of an item scheduled again on Ray."""
    if backend.is_ray:
        return _ray_map(backend, init, work, items, jobs, on_reschedule)
    return _local_map(init, work, items, jobs)


def _serve(init: Init, work, todo, done) -> None:
    """A local worker process: builds its state, then works the items of ``todo``
    until ``None``, putting each result (or the error) on ``done``."""
    # Ctrl-C reaches the whole process group: the parent alone handles it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    state = init[0](*init[1])
    for index, item in iter(todo.get, None):
        try:
            done.put((index, work(state, item)))
        except Exception as e:  # handed to the parent, which raises it
            done.put((index, e))


def _local_map(init: Init, work, items: list, jobs: int) -> Generator[tuple[int, Any], None, None]:
    if not items:
        return
    # Two calls, so that each names its context's type (Windows has no fork).
    context = (multiprocessing.get_context("spawn") if sys.platform == "win32"
               else multiprocessing.get_context("fork"))
    todo, done = context.Queue(), context.Queue()
    processes = [context.Process(target=_serve, args=(init, work, todo, done), daemon=True)
                 for _ in range(max(1, min(jobs, len(items))))]
    for p in processes:
        p.start()
    try:
        for pair in enumerate(items):
            todo.put(pair)
        for _ in items:
            # Waking up often, so that Ctrl-C and a dead process are seen.
            while True:
                try:
                    index, result = done.get(timeout=0.2)
                except queue.Empty:
                    if not all(p.is_alive() for p in processes):
                        raise ExecutionError("a worker process died") from None
                    continue
                if isinstance(result, Exception):
                    raise result
                yield index, result
                break
    finally:
        # Items no worker took may still sit in the queue's feeder thread, blocked on a
        # full pipe: without this, exit would wait on it for ever (after Ctrl-C, an error).
        todo.cancel_join_thread()
        for p in processes:
            p.terminate()
        for p in processes:
            p.join()


@runtime_checkable
class Closable(Protocol):
    """A worker's state that holds resources to give back (a table, a process pool)."""

    def close(self) -> None: ...


#: Per Ray worker process: the key of the state built there, and the state.
_WORKER_STATE: dict[str, Any] = {}


def _ray_work(key: str, init: Init, work, item):
    """One item on a Ray worker: the state of ``init`` is built on first use and
    kept for the following items of the same ``key``."""
    if _WORKER_STATE.get("key") != key:
        old = _WORKER_STATE.pop("state", None)
        if isinstance(old, Closable):
            old.close()
        _WORKER_STATE["state"] = init[0](*init[1])
        _WORKER_STATE["key"] = key
    return work(_WORKER_STATE["state"], item)


def _ray_map(backend: Backend, init: Init, work, items: list, jobs: int,
             on_reschedule) -> Generator[tuple[int, Any], None, None]:
    if not items:
        return
    ray = ray_module(backend)
    from ray import exceptions as rex

    # Retried here, not by Ray, so that every reschedule is seen and counted.
    task = ray.remote(num_cpus=1, max_retries=0)(_ray_work)
    # The state maker and its arguments (plain values and dataclasses) by value.
    key = repr((init[0].__module__, init[0].__qualname__, init[1]))
    init_ref = ray.put(init)
    waiting = list(range(len(items)))
    waiting.reverse()
    running: dict[Any, int] = {}
    tries = [0] * len(items)
    try:
        while waiting or running:
            while waiting and len(running) < jobs:
                index = waiting.pop()
                running[task.remote(key, init_ref, work, items[index])] = index
            ready, _ = ray.wait(list(running), num_returns=1)
            index = running.pop(ready[0])
            try:
                result = ray.get(ready[0])
            except rex.RayTaskError as exc:
                raise exc.as_instanceof_cause() from None
            except rex.RayError as exc:  # the worker or its node died: the item is played again
                tries[index] += 1
                if tries[index] > MAX_RESCHEDULES:
                    raise ExecutionError(f"item {index} failed {tries[index]} times: {exc}") from None
                if on_reschedule is not None:
                    on_reschedule(index, type(exc).__name__)
                waiting.append(index)
                continue
            yield index, result
    finally:
        # Early close (a decided SPRT, Ctrl-C): queued tasks are cancelled, running
        # ones stopped with their worker, which takes its engine processes along.
        for ref in running:
            ray.cancel(ref, force=True)


# -- run_graph ----------------------------------------------------------------------------

#: A node of a task graph: ``function(inputs, *args)`` where ``inputs`` maps the
#: names of ``deps`` to their results.
Node = tuple[Callable[..., Any], tuple, list[str]]


def _order(nodes: dict[str, Node], given: dict[str, Any]) -> list[str]:
    """The node names, each after the nodes it depends on."""
    out: list[str] = []
    state: dict[str, int] = {}

    def visit(name: str) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            raise ValueError(f"task graph has a cycle through {name}")
        state[name] = 1
        for dep in nodes[name][2]:
            if dep in nodes:
                visit(dep)
            elif dep not in given:
                raise ValueError(f"{name} needs {dep}, which is neither built nor given")
        state[name] = 2
        out.append(name)

    for name in nodes:
        visit(name)
    return out


def run_graph(backend: Backend, nodes: dict[str, Node], given: dict[str, Any] | None = None
              ) -> Iterator[tuple[str, Any]]:
    """``(name, result)`` for every node as it is done; a node runs once every
    node it depends on is done. ``given`` holds results known beforehand (e.g. the
    classes whose files exist)."""
    given = dict(given or {})
    order = _order(nodes, given)
    if backend.is_ray:
        return _ray_graph(backend, nodes, given, order)
    return _local_graph(nodes, given, order)


def _local_graph(nodes, given, order) -> Iterator[tuple[str, Any]]:
    for name in order:
        fn, args, deps = nodes[name]
        given[name] = fn({d: given[d] for d in deps}, *args)
        yield name, given[name]


def _graph_task(fn, args, names, *values):
    return fn(dict(zip(names, values)), *args)


def _ray_graph(backend, nodes, given, order) -> Iterator[tuple[str, Any]]:
    ray = ray_module(backend)
    from ray import exceptions as rex

    # A node whose worker or node dies is run again by Ray, its inputs rebuilt from lineage.
    task = ray.remote(num_cpus=1, max_retries=MAX_RESCHEDULES)(_graph_task)
    # Results known beforehand go to the object store once, however many nodes read them.
    refs: dict[str, Any] = {name: ray.put(value) for name, value in given.items()
                            if any(name in nodes[n][2] for n in order)}
    known = set(refs)
    for name in order:
        fn, args, deps = nodes[name]
        inputs = [refs[d] for d in deps]
        refs[name] = task.remote(fn, args, list(deps), *inputs)
    names = {ref: name for name, ref in refs.items() if name not in known}
    pending = list(names)
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            try:
                value = ray.get(ready[0])
            except rex.RayTaskError as exc:
                raise exc.as_instanceof_cause() from None
            yield names[ready[0]], value
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
