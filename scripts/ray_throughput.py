"""Throughput of the local pool against Ray on the same cores: a match and a book build.

    python scripts/ray_throughput.py [--rounds 2] [--games 100] [--cpus 2]

Runs local, Ray, local, Ray, ... (interleaved, so that a busy machine weighs on
both alike) and prints the median games per hour and book positions per hour of
each, their ratio, and the overhead of one task: the round trip of an item that
does nothing, through each backend with ``--cpus`` workers. Ray is one local
instance of ``--cpus`` CPUs, started once (its start-up time is printed apart).
The match is zermelo (``--nodes`` per move) against a deterministic fake engine
at ``--game`` (Connect Four), the book
Connect Four to ``--book-plies`` at ``--book-depth``.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.execution import Backend, map_unordered, ray_module  # noqa: E402
from protocol.book_cli import build_search  # noqa: E402
from protocol.match.runner import Match, build_parser, config_from_args  # noqa: E402


def match_rate(backend: Backend, game: str, games: int, nodes: int, cpus: int) -> float:
    """Games per hour of one match."""
    fake = ROOT / "tests" / "fake_engines" / "hasher.py"
    args = build_parser().parse_args([
        "--game", game, "--games", str(games), "--nodes", str(nodes), "--random-plies", "2", "--seed", "1",
        "--engine", f"cmd='{sys.executable} -m protocol' name=zermelo",
        "--engine", f"cmd='{sys.executable} {fake} 7' name=hasher", "--concurrency", str(cpus)])
    cfg = config_from_args(args)
    cfg.backend = backend
    match = Match(cfg, out=open(os.devnull, "w"))
    t0 = time.monotonic()
    match.run_everywhere()
    assert len(match.results) == games
    return games * 3600 / (time.monotonic() - t0)


def book_rate(backend: Backend, plies: int, depth: int, cpus: int) -> float:
    """Positions searched per hour by one book build."""
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.monotonic()
        book = build_search("connect4", f"{tmp}/b.zbook", jobs=cpus, backend=backend, plies=plies, depth=depth)
        positions, _ = book.count()
        book.close()
        return positions * 3600 / (time.monotonic() - t0)


def _nothing() -> None:
    return None


def _echo(state, item):
    return item


def task_overhead_ms(backend: Backend, n: int, cpus: int) -> float:
    """Milliseconds per item that does nothing (workers already warm for Ray)."""
    t0 = time.monotonic()
    for _ in map_unordered(backend, (_nothing, ()), _echo, list(range(n)), jobs=cpus):
        pass
    return (time.monotonic() - t0) * 1000 / n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--game", default="connect4", help="the match's game (default connect4)")
    ap.add_argument("--nodes", type=int, default=1000, help="zermelo's nodes per move in the match")
    ap.add_argument("--cpus", type=int, default=2)
    ap.add_argument("--book-plies", type=int, default=4)
    ap.add_argument("--book-depth", type=int, default=7)
    args = ap.parse_args()
    local, ray = Backend(), Backend("ray", num_cpus=args.cpus)
    t0 = time.monotonic()
    ray_module(ray)
    print(f"Ray started with {args.cpus} CPUs in {time.monotonic() - t0:.1f} s")
    task_overhead_ms(ray, 20, args.cpus)  # the workers start
    rates: dict[str, dict[str, list[float]]] = {"match": {"local": [], "ray": []}, "book": {"local": [], "ray": []}}
    for r in range(args.rounds):
        for name, backend in (("local", local), ("ray", ray)):
            rates["match"][name].append(match_rate(backend, args.game, args.games, args.nodes, args.cpus))
            rates["book"][name].append(book_rate(backend, args.book_plies, args.book_depth, args.cpus))
            print(f"round {r + 1} {name}: {rates['match'][name][-1]:,.0f} games/h, "
                  f"{rates['book'][name][-1]:,.0f} book positions/h", flush=True)
    for what, unit in (("match", "games/h"), ("book", "positions/h")):
        lo, ra = statistics.median(rates[what]["local"]), statistics.median(rates[what]["ray"])
        print(f"{what}: local {lo:,.0f} {unit}, ray {ra:,.0f} {unit} (medians of {args.rounds}); "
              f"ray/local {100 * ra / lo:.0f}%")
    for name, backend in (("local", local), ("ray", ray)):
        print(f"overhead per task, {name}: {task_overhead_ms(backend, 500, args.cpus):.2f} ms "
              f"(500 empty items, {args.cpus} workers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
