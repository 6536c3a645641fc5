"""Protocol latency of the real server, over pipes, as a GUI sees it.

Measures, with medians and worst cases over several samples (limits on the median):

- in every game (``games.names()``, N-player ones included, and Chess960), and in
  chess with ``Threads 2``: ``isready`` -> ``readyok`` while ``go infinite``
  searches, sampled at several times after the go (the search at several depths;
  limit 20 ms), and ``stop`` -> ``bestmove`` after 0.4, 1.4 and 3.4 s of search
  (limit 50 ms);
- in chess: ``uci`` -> ``uciok`` counted from process start (limit 500 ms); a
  ``position startpos moves`` line of 640 plies until the ``readyok`` after it
  (no limit: GUIs resend the whole game before every move); ``isready`` and
  ``stop`` during ``go perft 6`` and during ``go mate 4`` (the proof-number
  search); ``setoption name Hash value 4096``, a search on that table, then
  ``Clear Hash``, ``ucinewgame`` and ``Hash 16`` (the 4 GB table dropped), each
  until its ``readyok``; ``isready`` while ``SyzygyPath`` tables are probed in
  the search;
- in Kalah: ``isready`` while the shipped endgame table (``TablePath`` at
  ``games/tables``) is read by the background preparation and by a go.

Every measurement is taken ``--samples`` times per server run (a fresh server for
what only a fresh server shows: start-up, a first table load). Both builds are
measured, run by run in turn: the compiled one as built in place, and the
pure-Python one (``ZERMELO_PURE=1``); a build that is not usable here (never
compiled, or out of date) shows up as pure in its heading. ``--load`` starts one
busy process per core for the whole run, so that the server competes for the CPU
as in a match or on a shared machine; without it, check that the machine is idle
(the load average is printed). The table at the end is Markdown, ready to paste.

Usage: ``nice python scripts/latency.py [--runs 2] [--samples 3]
[--build both|compiled|pure] [--games chess reversi ...] [--load] [--no-extras]``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import games  # noqa: E402

#: Knight shuffles: legal for ever, if repetitive.
LONG_GAME = " ".join(["g1f3 g8f6 f3g1 f6g8"] * 160)
#: Seconds after ``go infinite`` at which ``isready`` is sent: the search at several depths.
SAMPLE_AT = (0.1, 0.4, 1.4, 3.4)
#: Seconds of search before the ``stop`` of each sample, taken in turn: the stop at
#: several depths too.
STOP_AT = (3.4, 1.4, 0.4)
#: A Chess960 position (the first of the chessprogramming wiki's Chess960 perft list).
CHESS960_FEN = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
#: KQ against KR: Syzygy tables probed at every node of the search.
SYZYGY_FEN = "8/8/8/3k4/8/8/1Q6/K6r w - - 0 1"

ISREADY, STOP = 20.0, 50.0
#: An answer that never came: shown as such, and a failure.
NEVER = float("inf")
#: Seconds to wait for an answer before counting it as never come.
ANSWER_TIMEOUT = 60.0


class Server:
    def __init__(self, pure: bool) -> None:
        env = dict(os.environ, ZERMELO_PURE="1" if pure else "")
        self.started = time.perf_counter()
        self.proc = subprocess.Popen([sys.executable, "-m", "protocol"], cwd=REPO, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, bufsize=0, env=env)
        self.lines: queue.Queue[tuple[float, str | None]] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for raw in self.proc.stdout:
            self.lines.put((time.perf_counter(), raw.decode().strip()))
        self.lines.put((time.perf_counter(), None))  # end of output: nothing more will come

    def send(self, *lines: str) -> float:
        t = time.perf_counter()
        try:
            self.proc.stdin.write("".join(line + "\n" for line in lines).encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass  # the server died: the answer waited for is reported as never come
        return t

    def wait_for(self, prefix: str, timeout: float = ANSWER_TIMEOUT) -> float:
        """Arrival time of the next line starting with ``prefix``; ``NEVER`` (reported as
        a failure) when none comes within ``timeout`` seconds or the server has ended."""
        deadline = time.perf_counter() + timeout
        while True:
            try:
                t, line = self.lines.get(timeout=max(0.01, deadline - time.perf_counter()))
            except queue.Empty:
                print(f"no {prefix!r} within {timeout:g} s", file=sys.stderr)
                return NEVER
            if line is None:
                self.lines.put((t, None))
                print(f"the server ended before {prefix!r}", file=sys.stderr)
                return NEVER
            if line.startswith(prefix):
                return t

    def ready(self, *before: str) -> float:
        """Seconds from sending ``before`` (or ``isready`` alone) to the ``readyok``."""
        sent = self.send(*before, "isready")
        return self.wait_for("readyok") - sent

    def start(self, game: str, *options: str) -> None:
        self.send("uci")
        self.wait_for("uciok")
        if game == "chess960":
            self.send("setoption name UCI_Variant value chess", "setoption name UCI_Chess960 value true",
                      f"position fen {CHESS960_FEN}")
        else:
            self.send(f"setoption name UCI_Variant value {game}")
        self.send(*options)
        self.ready()

    def sample_isready(self, since: float, at: tuple[float, ...], into: list[float]) -> None:
        for t in at:
            time.sleep(max(0.0, since + t - time.perf_counter()))
            into.append(self.ready())

    def stopped(self, go: float, after: float, answer: str = "bestmove") -> float:
        """Seconds from a ``stop`` sent ``after`` seconds past ``go`` to the ``answer``."""
        time.sleep(max(0.0, go + after - time.perf_counter()))
        sent = self.send("stop")
        return self.wait_for(answer) - sent

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            print("the server did not exit at end of input", file=sys.stderr)
            self.proc.kill()
            self.proc.wait()


def build_of(pure: bool) -> str:
    """Which build a server started with these settings runs."""
    env = dict(os.environ, ZERMELO_PURE="1" if pure else "")
    out = subprocess.run([sys.executable, "-c", "import engine.build as b; print(b.describe())"], cwd=REPO,
                         env=env, capture_output=True, text=True).stdout
    return out.split()[0] if out else "?"


Samples = dict[str, list[float]]


def stop_points(samples: int) -> list[float]:
    return [STOP_AT[i % len(STOP_AT)] for i in range(samples)]


def search(name: str, game: str, pure: bool, samples: int, out: Samples, *options: str) -> None:
    """``isready`` during ``go infinite`` at the sample times, then ``stop``; ``samples`` gos."""
    print(f"{'pure' if pure else 'compiled'} {name}", file=sys.stderr, flush=True)
    server = Server(pure)
    server.start(game, *options)
    for after in stop_points(samples):
        go = server.send("go infinite")
        server.sample_isready(go, tuple(t for t in SAMPLE_AT if t <= after),
                              out.setdefault(f"{name}: isready mid-search", []))
        out.setdefault(f"{name}: stop->bestmove", []).append(server.stopped(go, after))
    server.close()


def startup(pure: bool, samples: int, out: Samples) -> None:
    for _ in range(samples):
        server = Server(pure)
        server.send("uci")
        out.setdefault("chess: uci->uciok from start", []).append(server.wait_for("uciok") - server.started)
        server.close()


def chess_extras(pure: bool, samples: int, out: Samples) -> None:
    print(f"{'pure' if pure else 'compiled'} extras", file=sys.stderr, flush=True)
    startup(pure, samples, out)
    server = Server(pure)
    server.start("chess")
    for _ in range(samples):
        server.send("position startpos")  # so that the long line cannot extend the current one
        out.setdefault("chess: 640-ply position->readyok", []).append(
            server.ready(f"position startpos moves {LONG_GAME}"))
    server.send("position startpos")
    for after in stop_points(samples):
        # go perft 6: 119 million paths, seconds even compiled.
        go = server.send("go perft 6")
        server.sample_isready(go, tuple(t for t in SAMPLE_AT if t <= after), out.setdefault("go perft 6: isready", []))
        out.setdefault("go perft 6: stop->perft stopped", []).append(
            server.stopped(go, after, "info string perft"))
    for after in stop_points(samples):
        # go mate: the proof-number search (a root oracle) before the alpha-beta search.
        go = server.send("go mate 4")
        server.sample_isready(go, tuple(t for t in SAMPLE_AT if t <= after), out.setdefault("go mate 4: isready", []))
        out.setdefault("go mate 4: stop->bestmove", []).append(server.stopped(go, after))
    for _ in range(samples):
        # A 4 GB table: made, part-filled by a search, cleared, and dropped.
        out.setdefault("Hash 4096: setoption->readyok", []).append(server.ready("setoption name Hash value 4096"))
        go = server.send("go movetime 1500")
        server.sample_isready(go, SAMPLE_AT[:3], out.setdefault("Hash 4096: isready in the 1st search", []))
        server.wait_for("bestmove")
        out.setdefault("Clear Hash (4 GB)->readyok", []).append(server.ready("setoption name Clear Hash"))
        server.send("go movetime 1000")
        server.wait_for("bestmove")
        out.setdefault("ucinewgame (4 GB)->readyok", []).append(server.ready("ucinewgame", "position startpos"))
        server.send("go movetime 1000")
        server.wait_for("bestmove")
        out.setdefault("Hash 16 (4 GB dropped)->readyok", []).append(server.ready("setoption name Hash value 16"))
    # Syzygy tables (python-chess) probed in the search.
    server.send(f"setoption name SyzygyPath value {REPO / 'tests' / 'data' / 'syzygy'}", f"position fen {SYZYGY_FEN}")
    server.ready()
    for after in stop_points(samples):
        go = server.send("go infinite")
        server.sample_isready(go, tuple(t for t in SAMPLE_AT if t <= after),
                              out.setdefault("SyzygyPath: isready mid-search", []))
        out.setdefault("SyzygyPath: stop->bestmove", []).append(server.stopped(go, after))
    server.close()


def table_load(pure: bool, samples: int, out: Samples) -> None:
    """Kalah's shipped table: read by ``isready``'s background preparation, then by a go
    (a fresh server for each sample: only the first use reads the table)."""
    print(f"{'pure' if pure else 'compiled'} table load", file=sys.stderr, flush=True)
    tables = REPO / "games" / "tables"
    for _ in range(samples):
        server = Server(pure)
        server.start("kalah")
        into = out.setdefault("TablePath (kalah): isready while loading", [])
        into.append(server.ready(f"setoption name TablePath value {tables}"))
        server.sample_isready(time.perf_counter(), (0.05, 0.2), into)
        server.close()
    for after in stop_points(samples):
        server = Server(pure)
        server.start("kalah")
        server.send(f"setoption name TablePath value {tables}")
        go = server.send("go infinite")  # no isready before: the go reads the table itself
        server.sample_isready(go, tuple(t for t in SAMPLE_AT[:3] if t <= after),
                              out.setdefault("TablePath (kalah): isready in a go", []))
        out.setdefault("TablePath (kalah): stop->bestmove", []).append(server.stopped(go, min(after, 1.4)))
        server.close()


def limit_of(name: str) -> float | None:
    if "uciok" in name:
        return 500.0
    if "640-ply" in name:
        return None
    return STOP if "stop" in name else ISREADY


def busy() -> None:
    while True:
        pass


def table(results: dict[bool, Samples], builds: tuple[bool, ...], heading: dict[bool, str]) -> tuple[list[str], bool]:
    """The Markdown table of medians and worst cases, and whether every median is within its limit."""
    ok = True
    head = "| measurement (ms) |" + "".join(f" {heading[pure]} median | worst |" for pure in builds) + " n | limit |"
    rows = [head, "|---|" + "---:|---:|" * len(builds) + "---:|---:|"]
    for name in results[builds[0]]:
        limit = limit_of(name)
        row, verdict, counts = f"| {name} |", "", set()
        for pure in builds:
            seconds = results[pure].get(name, [])
            counts.add(len(seconds))
            if not seconds:
                row += " - | - |"
                continue
            median, worst = statistics.median(seconds) * 1000, max(seconds) * 1000
            row += f" {median:.1f} | {worst:.1f} |"
            if limit is not None and median > limit:
                verdict, ok = " TOO SLOW", False
        n = "/".join(str(c) for c in sorted(counts))
        rows.append(f"{row} {n} | {f'{limit:g}' if limit else '-'}{verdict} |")
    return rows, ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2, help="server starts per game and build")
    parser.add_argument("--samples", type=int, default=3, help="samples of each measurement per run")
    parser.add_argument("--build", choices=("both", "compiled", "pure"), default="both")
    parser.add_argument("--games", nargs="+", default=[*games.names(), "chess960"])
    parser.add_argument("--load", action="store_true", help="one busy process per core during the run")
    parser.add_argument("--no-extras", action="store_true", help="only the searches of the games")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.samples < 1:
        parser.error("--runs and --samples must be at least 1")
    builds = {"both": (False, True), "compiled": (False,), "pure": (True,)}[args.build]
    began = time.perf_counter()
    print(f"load average before the run: {' '.join(f'{x:.2f}' for x in os.getloadavg())}, "
          f"{os.cpu_count()} cores, {'with' if args.load else 'without'} --load")
    loaders = [multiprocessing.Process(target=busy, daemon=True) for _ in range(os.cpu_count() or 1)] \
        if args.load else []
    for p in loaders:
        p.start()
    results: dict[bool, Samples] = {pure: {} for pure in builds}
    # Which build each column measured: an edit of a compiled module mid-run turns it pure.
    before = {pure: build_of(pure) for pure in builds}
    try:
        # The builds alternate run by run, so that a change in the machine's load hits both alike.
        for _ in range(args.runs):
            for pure in builds:
                for game in args.games:
                    search(game, game, pure, args.samples, results[pure])
                # Lazy SMP: one helper process searching beside the main worker.
                search("chess Threads 2", "chess", pure, args.samples, results[pure],
                       "setoption name Threads value 2")
                if not args.no_extras:
                    chess_extras(pure, args.samples, results[pure])
                    table_load(pure, args.samples, results[pure])
    finally:
        for p in loaders:
            p.terminate()
            p.join()
    changed = [before[pure] for pure in builds if build_of(pure) != before[pure]]
    if changed:
        print(f"WARNING: the {changed[0]} build changed during the run (a compiled module was edited): rerun")
    heading = {pure: before[pure] if before[pure] == ("pure" if pure else "compiled")
               else f"{'pure' if pure else 'compiled'} (ran {before[pure]})" for pure in builds}
    rows, ok = table(results, builds, heading)
    print(f"\n{args.runs} runs x {args.samples} samples; n = samples per measurement and build\n")
    print("\n".join(rows))
    print(f"\nload average after the run: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{time.perf_counter() - began:.0f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
