"""Protocol latency of the real server, over pipes, as a GUI sees it.

Measures (medians over several runs, with the worst run):

- ``uci`` -> ``uciok`` counted from process start (requirement: < 0.5 s);
- ``isready`` -> ``readyok`` while a search runs (requirement: < 20 ms);
- ``stop`` -> ``bestmove`` of an infinite search (requirement: < 50 ms);
- a ``position startpos moves`` line of 640 chess plies, replayed from the
  start, until the ``readyok`` that follows it (no requirement; GUIs resend
  the whole game before every move).

Both builds are measured, side by side: the compiled one as built in place,
and the pure-Python one (``ZERMELO_PURE=1``); a build that is not usable here
(never compiled, or out of date) shows up as pure in its heading.

Usage: ``nice python scripts/latency.py [--game chess] [--runs 9] [--build both|compiled|pure]``.
The machine's load shows up in the figures: compare runs made together.
"""

from __future__ import annotations

import argparse
import os
import queue
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: Requirement per measurement, in milliseconds.
LIMITS_MS = {"uci->uciok from start": 500, "isready->readyok mid-search": 20, "stop->bestmove": 50,
             "640-ply position->readyok": None}
#: Knight shuffles: legal for ever, if repetitive.
LONG_GAME = " ".join(["g1f3 g8f6 f3g1 f6g8"] * 160)


class Server:
    def __init__(self, pure: bool) -> None:
        env = dict(os.environ, ZERMELO_PURE="1" if pure else "")
        self.started = time.perf_counter()
        self.proc = subprocess.Popen([sys.executable, "-m", "protocol"], cwd=REPO, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, bufsize=0, env=env)
        self.lines: queue.Queue[tuple[float, str]] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for raw in self.proc.stdout:
            self.lines.put((time.perf_counter(), raw.decode().strip()))

    def send(self, line: str) -> float:
        t = time.perf_counter()
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        return t

    def wait_for(self, prefix: str, timeout: float = 30) -> float:
        """Arrival time of the next line starting with ``prefix``."""
        deadline = time.perf_counter() + timeout
        while True:
            t, line = self.lines.get(timeout=max(0.01, deadline - time.perf_counter()))
            if line.startswith(prefix):
                return t

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(10)


def build_of(pure: bool) -> str:
    """Which build a server started with these settings runs."""
    env = dict(os.environ, ZERMELO_PURE="1" if pure else "")
    out = subprocess.run([sys.executable, "-c", "import engine.build as b; print(b.describe())"], cwd=REPO,
                         env=env, capture_output=True, text=True).stdout
    return out.split()[0] if out else "?"


def measure(game: str, runs: int, pure: bool) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {name: [] for name in LIMITS_MS}
    for _ in range(runs):
        server = Server(pure)
        server.send("uci")
        out["uci->uciok from start"].append(server.wait_for("uciok") - server.started)
        server.send(f"setoption name UCI_Variant value {game}")
        server.send("isready")
        server.wait_for("readyok")
        server.send("go infinite")
        time.sleep(0.3)
        for _ in range(5):
            sent = server.send("isready")
            out["isready->readyok mid-search"].append(server.wait_for("readyok") - sent)
            time.sleep(0.05)
        sent = server.send("stop")
        out["stop->bestmove"].append(server.wait_for("bestmove") - sent)
        if game == "chess":
            server.send("position startpos")  # so that the long line cannot extend the current one
            sent = server.send(f"position startpos moves {LONG_GAME}")
            server.send("isready")
            out["640-ply position->readyok"].append(server.wait_for("readyok") - sent)
        server.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="chess")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--build", choices=("both", "compiled", "pure"), default="both")
    args = parser.parse_args(argv)
    builds = {"both": (False, True), "compiled": (False,), "pure": (True,)}[args.build]
    # Alternate the builds run by run, so that a change in the machine's load hits both alike.
    results: dict[bool, dict[str, list[float]]] = {pure: {name: [] for name in LIMITS_MS} for pure in builds}
    for _ in range(args.runs):
        for pure in builds:
            for name, seconds in measure(args.game, 1, pure).items():
                results[pure][name] += seconds
    ok = True
    print(f"game {args.game}, {args.runs} server starts per build")
    head = "".join(f" {build_of(pure) + ' median':>17} {'worst':>7}" for pure in builds)
    print(f"{'measurement (ms)':<30}{head} {'limit':>6}")
    for name in LIMITS_MS:
        if not results[builds[0]][name]:
            continue
        limit = LIMITS_MS[name]
        row, verdict = "", ""
        for pure in builds:
            seconds = results[pure][name]
            median, worst = statistics.median(seconds) * 1000, max(seconds) * 1000
            row += f" {median:>17.1f} {worst:>7.1f}"
            if limit is not None and median >= limit:
                verdict, ok = "TOO SLOW", False
        print(f"{name:<30}{row} {limit or '-':>6} {verdict or ('ok' if limit else '')}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
