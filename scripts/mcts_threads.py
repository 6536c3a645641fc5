"""Simulations a second of the Monte-Carlo search with ``Threads 1`` and ``Threads 2``
(root parallelism: a helper process grows its own tree, its root merged at the end),
in one run: the same positions searched alternately by an engine of each, after one
warm-up go each (a helper imports the engine when it starts).

    python scripts/mcts_threads.py --size 9 --positions 4 --movetime 3000 --rounds 2

Per go it prints the simulations of all workers, the main worker's alone, the rate
over the go's time and per CPU second of all processes (the script's and its
helper's, from /proc: Linux); at the end the median rates and the median of the
per-position ratios. The machine's load decides much: say what it was.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import threading
import time
from pathlib import Path

import games
from engine.engine import Engine
from engine.mcts import MCTSSearcher
from engine.timeman import Limits


def engine_with(threads: int, size: int) -> Engine:
    engine = Engine(games)
    engine.set_option("UCI_Variant", "go")
    engine.set_option("go_size", str(size))
    engine.set_option("Strategy", "auto")
    engine.set_option("Threads", str(threads))
    return engine


def cpu_seconds(pids: list[int]) -> float:
    """CPU time of this process and of ``pids`` (the helpers), user and system."""
    total = time.process_time()
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def go(engine: Engine, moves: list[str], movetime: int) -> tuple[int, int, int, float]:
    """(all simulations, the main worker's, milliseconds, CPU seconds of every process) of one
    go on ``moves``."""
    engine.new_game()  # every go from a new tree: the rate, not the tree kept
    engine.set_position(None, moves)
    pids = engine._helpers.pids() if engine._helpers is not None else []
    cpu = cpu_seconds(pids)
    done = threading.Event()
    infos = []
    engine.go(Limits(movetime=movetime), lambda info, pv: infos.append(info), lambda best, ponder: done.set())
    done.wait()
    engine.wait()
    searcher = engine.searcher
    assert isinstance(searcher, MCTSSearcher)
    return infos[-1].nodes, searcher.nodes, infos[-1].time_ms, cpu_seconds(pids) - cpu


def openings(size: int, count: int, seed: int) -> list[list[str]]:
    """The empty board, then positions of 2, 6, 10... random plies (no passes)."""
    rng = random.Random(seed)
    game = games.load("go", size=size)
    lines: list[list[str]] = [[]]
    while len(lines) < count:
        pos = game.new_position()
        texts: list[str] = []
        for _ in range(2 + 4 * (len(lines) - 1)):
            moves = [m for m in pos.legal_moves() if pos.move_text(m) != "pass"]
            move = rng.choice(moves)
            texts.append(pos.move_text(move))
            pos.push(move)
        lines.append(texts)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--movetime", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}", flush=True)
    engines = {threads: engine_with(threads, args.size) for threads in (1, 2)}
    for engine in engines.values():
        go(engine, [], 500)  # warm-up: the helper's imports
    rates: dict[int, list[float]] = {1: [], 2: []}
    per_cpu: dict[int, list[float]] = {1: [], 2: []}
    ratios = []
    for rnd in range(args.rounds):
        for index, moves in enumerate(openings(args.size, args.positions, args.seed)):
            got = {}
            # Alternate which goes first, so that a change of load falls on both.
            for threads in ((1, 2) if (rnd + index) % 2 == 0 else (2, 1)):
                nodes, main_nodes, ms, cpu = go(engines[threads], moves, args.movetime)
                got[threads] = rate = nodes * 1000 / max(ms, 1)
                rates[threads].append(rate)
                per_cpu[threads].append(nodes / max(cpu, 1e-3))
                print(f"round {rnd + 1} position {index + 1} ({len(moves)} plies) Threads {threads}: "
                      f"{nodes} simulations ({main_nodes} by the main worker) in {ms} ms, {rate:.0f}/s, "
                      f"{cpu:.2f} CPU s ({nodes / max(cpu, 1e-3):.0f} per CPU second)", flush=True)
            ratios.append(got[2] / got[1])
    print(f"median simulations/s: Threads 1 {statistics.median(rates[1]):.0f}, "
          f"Threads 2 {statistics.median(rates[2]):.0f}; median ratio 2/1 {statistics.median(ratios):.2f} "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f}, {len(ratios)} pairs); median per CPU second: "
          f"Threads 1 {statistics.median(per_cpu[1]):.0f}, Threads 2 {statistics.median(per_cpu[2]):.0f}")
    print(f"load average after: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
