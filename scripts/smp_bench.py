"""Threads 2 against Threads 1 in the real server, over pipes, in one run.

For each ``Threads`` value a server is started (``python -m protocol``), given
``Hash`` and ``Threads``, and, for every position of the spike's set
(``scripts/smp_spike.py``), sent ``ucinewgame``, the position and ``go depth D``:
the time to depth ``D`` is the ``time`` of the last report. The servers take
turns run by run; medians (and the worst run) are printed per position, with
the speed-up of time to depth.

Then, with the last ``Threads`` value: ``isready`` -> ``readyok`` while ``go
infinite`` runs, ``stop`` -> ``bestmove``, and the memory of the process group
(the server and its helpers: the sum of their ``Pss`` in
``/proc/<pid>/smaps_rollup``, which counts the shared table once, and each
one's ``VmRSS``) after a search filled the table.

With ``--choice N``, instead: N ``go movetime`` searches with ``Threads 2`` in
an engine of this process, over the set's positions in turn (each after
``ucinewgame``), recording at each the candidates of the move's pick (the main
worker's and the helper's last completed iterations, :func:`engine.smp.pick`):
how often the helper's iteration is deeper or shallower than the main worker's
when the clock stops, and how often taking the deepest, or Stockfish's vote,
plays another move than the main worker's.

Usage: ``nice python scripts/smp_bench.py [--depth 12] [--runs 3] [--threads 1 2] [--hash 64]``
or ``nice python scripts/smp_bench.py --choice 300 [--movetime 100]`` (Linux: it reads ``/proc``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))

from serverpipe import ServerPipe, status_kb  # noqa: E402
from smp_spike import POSITIONS  # noqa: E402


class Server(ServerPipe):
    def __init__(self, threads: int, hash_mb: int) -> None:
        super().__init__()
        self.send("uci", f"setoption name Hash value {hash_mb}", f"setoption name Threads value {threads}")
        self.until("uciok")
        self.ready()

    def ready(self) -> float:
        """Milliseconds from ``isready`` to ``readyok``."""
        start = time.perf_counter()
        self.send("isready")
        self.until("readyok")
        return (time.perf_counter() - start) * 1000

    def time_to_depth(self, fen: str, depth: int) -> tuple[int, int]:
        """(ms, nodes) of the last report of ``go depth``, as the server counts them."""
        self.send("ucinewgame", f"position fen {fen}", f"go depth {depth}")
        last = [line for line in self.until("bestmove") if line.startswith("info depth")][-1].split()
        return int(last[last.index("time") + 1]), int(last[last.index("nodes") + 1])

    def group(self) -> list[int]:
        """The server and its helper processes."""
        pids = [self.proc.pid]
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                except OSError:
                    continue
                if ppid == self.proc.pid:
                    pids.append(int(entry.name))
        return pids


def latency(server: Server, samples: int) -> tuple[list[float], list[float]]:
    """isready and stop latencies (ms) during ``go infinite`` searches."""
    ready, stop = [], []
    for i in range(samples):
        server.send("ucinewgame", f"position fen {POSITIONS[i % len(POSITIONS)]}", "go infinite")
        for at in (0.1, 0.5, 1.0):
            time.sleep(at)
            ready.append(server.ready())
        start = time.perf_counter()
        server.send("stop")
        server.until("bestmove")
        stop.append((time.perf_counter() - start) * 1000)
    return ready, stop


def choice(searches: int, movetime: int, hash_mb: int) -> None:
    """The ``--choice`` measurement (see the module's description)."""
    import games
    from engine import engine as engine_module
    from engine import smp
    from engine.engine import Engine
    from engine.timeman import Limits

    seen: list[list[smp.Result]] = []

    def recording_pick(results: list[smp.Result], vote: bool = smp.VOTE) -> int:
        seen.append(list(results))
        return smp.pick(results, vote)

    engine_module.pick = recording_pick
    engine = Engine(games)
    engine.set_option("UCI_Variant", "chess")
    engine.set_option("Hash", str(hash_mb))
    engine.set_option("Threads", "2")
    done = threading.Event()
    for index in range(searches):
        engine.new_game()
        engine.set_position(POSITIONS[index % len(POSITIONS)], [])
        done.clear()
        engine.go(Limits(movetime=movetime), lambda info, pv: None, lambda move, ponder: done.set())
        done.wait()
        engine.wait()
    engine.set_option("Threads", "1")
    with_helper = [r for r in seen if len(r) > 1]
    deeper = sum(max(d for d, _, _ in r[1:]) > r[0][0] for r in with_helper)
    shallower = sum(max(d for d, _, _ in r[1:]) < r[0][0] for r in with_helper)
    other_deepest = sum(r[smp.pick(r, False)][2][0] != r[0][2][0] for r in with_helper)
    other_vote = sum(r[smp.pick(r, True)][2][0] != r[0][2][0] for r in with_helper)
    depths = [r[0][0] for r in seen]
    n = max(len(with_helper), 1)
    print(f"{searches} searches of go movetime {movetime} (Threads 2, Hash {hash_mb} MB, cores "
          f"{os.cpu_count()}, load average {os.getloadavg()[0]:.2f}); main worker's depth: median "
          f"{statistics.median(depths)}, lowest {min(depths)}, highest {max(depths)}")
    print(f"the helper had completed an iteration in {len(with_helper)} of {len(seen)}; of these, its "
          f"iteration was deeper than the main worker's in {deeper} ({100 * deeper / n:.0f} %), "
          f"shallower in {shallower} ({100 * shallower / n:.0f} %)")
    print(f"another move than the main worker's: deepest {other_deepest} ({100 * other_deepest / n:.0f} %), "
          f"vote {other_vote} ({100 * other_vote / n:.0f} %)")


def report(threads_values: list[int], depth: int, times: dict[int, list[list[int]]]) -> None:
    base = threads_values[0]
    print(f"{'position':>8} " + " ".join(f"{f'Threads {t} ms':>16} {'worst':>7}" for t in threads_values)
          + "  speed-up")
    ratios: dict[int, list[float]] = {t: [] for t in threads_values}
    for index in range(len(POSITIONS)):
        cells = []
        for threads in threads_values:
            median = statistics.median(times[threads][index])
            ratios[threads].append(statistics.median(times[base][index]) / max(median, 1))
            cells.append(f"{median:>16.0f} {max(times[threads][index]):>7}")
        print(f"{index + 1:>8} " + " ".join(cells) + "  "
              + " ".join(f"{ratios[t][-1]:.2f}" for t in threads_values[1:]))
    for threads in threads_values:
        total = sum(statistics.median(t) for t in times[threads])
        print(f"Threads {threads}: sum of median times to depth {depth}: {total} ms; speed-up over "
              f"Threads {base}: median {statistics.median(ratios[threads]):.2f}, "
              f"worst {min(ratios[threads]):.2f}, best {max(ratios[threads]):.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--hash", type=int, default=64)
    parser.add_argument("--latency-samples", type=int, default=5)
    parser.add_argument("--choice", type=int, default=0, metavar="N",
                        help="measure the move's pick over N go movetime searches instead")
    parser.add_argument("--movetime", type=int, default=100)
    args = parser.parse_args()
    if args.choice:
        sys.path.insert(0, str(REPO))
        choice(args.choice, args.movetime, args.hash)
        return 0
    print(f"depth {args.depth}; {args.runs} runs; Hash {args.hash} MB; cores {os.cpu_count()}; "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)
    times: dict[int, list[list[int]]] = {t: [[] for _ in POSITIONS] for t in args.threads}
    for run in range(args.runs):
        for threads in args.threads:
            server = Server(threads, args.hash)
            for index, fen in enumerate(POSITIONS):
                times[threads][index].append(server.time_to_depth(fen, args.depth)[0])
            server.close()
        print(f"run {run + 1} done", flush=True)
    if args.runs:
        report(args.threads, args.depth, times)
    threads = args.threads[-1]
    server = Server(threads, args.hash)
    ready, stop = latency(server, args.latency_samples)
    print(f"Threads {threads}: isready during go infinite: median {statistics.median(ready):.1f} ms, "
          f"worst {max(ready):.1f} ms ({len(ready)} samples); stop -> bestmove: median "
          f"{statistics.median(stop):.1f} ms, worst {max(stop):.1f} ms ({len(stop)} samples)")
    server.send("ucinewgame", f"position fen {POSITIONS[2]}", "go movetime 5000")
    server.until("bestmove")
    pids = server.group()
    pss = sum(status_kb(pid, "smaps_rollup", "Pss") for pid in pids)
    rss = [status_kb(pid, "status", "VmRSS") for pid in pids]
    print(f"Threads {threads}, Hash {args.hash} MB, after a 5 s search: {len(pids)} processes, "
          f"Pss summed {pss / 1024:.0f} MB, VmRSS each {', '.join(f'{r / 1024:.0f}' for r in rss)} MB")
    server.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
