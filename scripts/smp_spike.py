"""Spike: can more than one core speed up the search, and how?

On six chess positions, the time the main worker takes to complete depth ``D``:

- ``1 worker``: one :class:`engine.search.Searcher` alone;
- ``2 threads``: the main worker and a helper thread in this process over the
  same table (the helper deepens without end, skipping depths as Lazy SMP's
  helpers do, until the main worker is done);
- ``2 processes``: the same helper in a forked process, over the same table
  memory (the anonymous mapping is shared across ``fork``).

and the nodes per second summed over the workers. Each position is searched
from an empty table. Threads cannot help while the compiled search holds the
GIL (it offers it only at its periodic checkpoint); processes can.

Usage: ``nice python scripts/smp_spike.py [--depth 9] [--runs 3]`` (Linux: fork).
"""

from __future__ import annotations

import argparse
import mmap
import os
import signal
import statistics
import struct
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import games  # noqa: E402
from engine import build  # noqa: E402
from engine.control import Control  # noqa: E402
from engine.driver import search as drive  # noqa: E402
from engine.search import Searcher  # noqa: E402
from engine.timeman import Limits  # noqa: E402
from engine.tt import TranspositionTable  # noqa: E402

POSITIONS = (
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqk2r/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQK2R w KQkq - 2 7",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2rq1rk1/pp1bppbp/3p1np1/4n3/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 8 13",
    "r2q1rk1/ppp2ppp/2n1bn2/2b1p3/4P3/2NP1N2/PPPBBPPP/R2Q1RK1 b - - 3 8",
)
HASH_MB = 64
#: The helper's number for the driver's skip pattern (0: no skipping).
HELPER = 1


def main_search(game, text: str, depth: int, table: TranspositionTable) -> tuple[float, int]:
    searcher = Searcher(tt=table)
    pos = game.new_position(text)
    start = time.perf_counter()
    result = searcher.search(game, pos, Limits(depth=depth))
    return time.perf_counter() - start, result.nodes


def helper_search(game, text: str, table: TranspositionTable, control: Control) -> int:
    """Deepen until stopped, as the driver's helper 1 (Lazy SMP's skipped depths)
    or, with ``--no-skip``, over every depth as the main worker does."""
    searcher = Searcher(tt=table)
    pos = game.new_position(text)
    drive(searcher, game, pos, Limits(infinite=True), control=control, helper=HELPER)
    return searcher.nodes


def run_alone(game, text: str, depth: int) -> tuple[float, int]:
    return main_search(game, text, depth, TranspositionTable(HASH_MB))


def run_threads(game, text: str, depth: int) -> tuple[float, int]:
    table = TranspositionTable(HASH_MB)
    control = Control()
    helper_nodes = [0]

    def helper() -> None:
        helper_nodes[0] = helper_search(game, text, table, control)

    thread = threading.Thread(target=helper)
    thread.start()
    seconds, nodes = main_search(game, text, depth, table)
    control.stop()
    thread.join()
    return seconds, nodes + helper_nodes[0]


def run_processes(game, text: str, depth: int) -> tuple[float, int]:
    table = TranspositionTable(HASH_MB)
    # Halt the table's page-in thread first: a child forked while it holds its lock
    # would wait for it for ever.
    table.new_search()
    # The helper's node count comes back through a shared word; its stop through another.
    shared = mmap.mmap(-1, 16)
    pid = os.fork()
    if pid == 0:
        control = Control()

        def watch() -> None:
            while shared[8] == 0:
                time.sleep(0.001)
            control.stop()

        threading.Thread(target=watch, daemon=True).start()
        nodes = helper_search(game, text, table, control)
        shared[0:8] = struct.pack("q", nodes)
        os._exit(0)
    seconds, nodes = main_search(game, text, depth, table)
    shared[8] = 1
    os.waitpid(pid, 0)
    return seconds, nodes + struct.unpack("q", shared[0:8])[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=9)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--modes", nargs="+", default=["alone", "threads", "processes"])
    parser.add_argument("--no-skip", action="store_true", help="the helper searches every depth")
    args = parser.parse_args()
    global HELPER
    HELPER = 0 if args.no_skip else 1
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    game = games.load("chess")
    print(f"build: {build.describe()}; depth {args.depth}; {args.runs} runs; Hash {HASH_MB} MB; "
          f"helper {'without' if args.no_skip else 'with'} skipped depths; "
          f"load average {os.getloadavg()[0]:.2f}")
    runners = {"alone": run_alone, "threads": run_threads, "processes": run_processes}
    totals: dict[str, list[float]] = {mode: [] for mode in args.modes}
    print(f"{'position':>8} " + " ".join(f"{mode + ' s':>14} {mode + ' knps':>16}" for mode in args.modes))
    for index, text in enumerate(POSITIONS):
        cells = []
        for mode in args.modes:
            times, rates = [], []
            for _ in range(args.runs):
                seconds, nodes = runners[mode](game, text, args.depth)
                times.append(seconds)
                rates.append(nodes / seconds / 1000)
            totals[mode].append(statistics.median(times))
            cells.append(f"{statistics.median(times):>14.2f} {statistics.median(rates):>16.0f}")
        print(f"{index + 1:>8} " + " ".join(cells), flush=True)
    base = totals[args.modes[0]]
    for mode in args.modes:
        ratios = [b / t for b, t in zip(base, totals[mode])]
        print(f"{mode}: time to depth {args.depth}, sum of medians {sum(totals[mode]):.2f} s; "
              f"speed-up over {args.modes[0]}: median {statistics.median(ratios):.2f}, "
              f"worst {min(ratios):.2f}, best {max(ratios):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
