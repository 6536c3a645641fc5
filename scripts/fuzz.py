"""A protocol fuzzer: random and mutated lines thrown at the real server over pipes.

For every game in turn (every game of ``games.names()``, Chess960, and the games
of more than two players at each player count) it sends batches of lines: valid commands (positions
reached by random play, timed and depth-limited ``go`` lines, ``stop``,
``ponderhit``, options and game parameters, game switches) and mutations of
them (numbers made huge, negative or written in Unicode digits, junk words,
truncated and doubled tokens, long lines, random move texts and position
texts). Each batch ends with ``stop`` and ``isready``; then it checks

- ``readyok`` arrives, and the server never hangs (see :class:`Patience`: no CPU
  used for ``--timeout`` seconds, or that much CPU used, without the answer; a
  slow answer on a starved CPU, as beside a match under ``nice -n 19``, is no hang);
- every ``go`` (but ``go perft``) got exactly one ``bestmove``;
- every ``bestmove`` is legal: each ``go`` is sent right after a ``d``, whose
  ``Legal moves:`` line is the server's own view of the position it searches
  (``bestmove (none)`` is the only answer while ``d`` lists a ``Refused:`` line);
- the server is alive, printed no traceback, no ``search failed`` and nothing on
  stderr, and no more than two error lines per line sent.

A dead server is restarted and counted as a problem. Usage::

    nice python scripts/fuzz.py [--seed 1] [--batches 20] [--games chess,nim,rolit:players=3]
                                [--lines-per-batch 40] [--minutes M] [--timeout 30]

A game is a name, optionally with parameters (``mnkmulti:players=4,m=7``). With
``--minutes`` each game gets an equal share of the time.

Prints a summary (lines sent, batches, go/bestmove counts, problems); the exit
status is 1 when a problem was found.
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games  # noqa: E402
from engine.options import all_specs, engine_specs  # noqa: E402
from protocol.server import uci  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
#: Stand-ins for a number: huge, negative, Unicode digits, not numbers at all.
ODD_NUMBERS = ["9" * 30, "9" * 400, "-1", "-2147483649", "0", "²", "٣", "１２", "1_000", "1e9", "0x10",
               "+5", "-0", "", "nan", "18446744073709551617", "007"]
JUNK = ["foo", "searchmoves", "moves", "fen", "startpos", "value", "name", "wtime", "0000", "(none)",
        "ponder", "infinite", "\u00e9", "\u202e", "x" * 300, "go", "position", "stop", "ponderhit"]
#: Engine option values kept harmless for the machine (no 4 GB hash, no 24-empty solves).
SAFE_OPTIONS = {
    "Hash": ["1", "4", "16", "64", "0", "5000"] + ODD_NUMBERS,
    "Threads": ["1", "2", "0", "513"], "MultiPV": ["1", "2", "3", "0", "300"],
    "Move Overhead": ["0", "10", "100", "-5", "99999"], "UCI_ShowWDL": ["true", "false", "maybe"],
    "Ponder": ["true", "false"], "OwnBook": ["true", "false"], "BookFile": ["/nonexistent.bin", "<empty>", ""],
    "BookBestOnly": ["true", "false"], "BookVariety": ["0", "50", "100", "101"], "BookDepth": ["0", "10", "255"],
    "SyzygyPath": ["/nonexistent/syzygy", "<empty>", "/tmp"], "SyzygyProbeDepth": ["1", "5", "0"],
    "Syzygy50MoveRule": ["true", "false"], "SyzygyProbeLimit": ["0", "5", "7", "8"],
    "TablePath": ["/nonexistent/tables", "<empty>"], "EndgameEmpties": ["0", "8", "12", "14", "25"],
    "UCI_AnalyseMode": ["true", "false"], "UCI_Opponent": ["GM 2800 computer sf", ""],
    "UCI_Chess960": ["false", "true"], "Clear Hash": [None],
}


#: A hang is also any wait longer than this many ``--timeout`` s of wall time (without
#: /proc, ``--timeout`` itself): a process starved to 1 % of a core answers 1 s of work
#: in 100 s.
WALL_FACTOR = 20


def cpu_seconds(pid: int, group: bool = False) -> float | None:
    """CPU seconds used so far by process ``pid`` (every thread), or with ``group`` by
    every process of the group it leads; None without /proc or once it is gone."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    pids = [entry for entry in _proc_entries() if entry.isdigit()] if group else [str(pid)]
    total, found = 0, False
    for entry in pids:
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # After the name in parentheses: state, ppid, pgrp, ..., utime (14th), stime (15th).
        fields = stat[stat.rindex(b")") + 2:].split()
        if group and int(fields[2]) != pid:
            continue
        total += int(fields[11]) + int(fields[12])
        found = True
    return total / tick if found else None


def _proc_entries() -> list[str]:
    try:
        return os.listdir("/proc")
    except OSError:
        return []


class Patience:
    """Tells a slow answer from a hang by the CPU the waited-for process uses.

    Waiting hangs once the process used no CPU for ``timeout`` seconds (stuck: a lost
    wake-up, a deadlock) or used ``timeout`` seconds of CPU (spinning) without the
    answer, or after ``WALL_FACTOR`` times ``timeout`` in all. A server starved of the
    CPU (beside a match, under ``nice -n 19``) still gets some every second, so its
    slow answers are no hang. Without /proc: ``timeout`` seconds of wall time.
    """

    def __init__(self, pid: int, timeout: float, group: bool = False) -> None:
        self.pid, self.timeout, self.group = pid, timeout, group
        self.start = self.progress = time.monotonic()
        self.first = self.last = cpu_seconds(pid, group)

    def hung(self) -> str:
        """Why the wait is a hang, or ``""`` while it is not."""
        now = time.monotonic()
        cpu = cpu_seconds(self.pid, self.group)
        if cpu is None or self.first is None or self.last is None:
            return f"no answer in {self.timeout:g} s" if now - self.start > self.timeout else ""
        if cpu > self.last:
            self.last, self.progress = cpu, now
        if cpu - self.first > self.timeout:
            return f"{cpu - self.first:.1f} s of CPU used without the answer"
        if now - self.progress > self.timeout:
            return f"no CPU used for {now - self.progress:.0f} s"
        if now - self.start > WALL_FACTOR * self.timeout:
            return f"no answer in {now - self.start:.0f} s"
        return ""


@dataclass
class Stats:
    lines: int = 0
    batches: int = 0
    gos: int = 0
    bestmoves: int = 0
    restarts: int = 0
    errors: int = 0
    problems: list[str] = field(default_factory=list)


class Server:
    """``python -m protocol`` over pipes; a thread collects its output lines."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "protocol"], cwd=REPO, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: list[bytes] = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.append(self.proc.stderr.read()), daemon=True).start()

    def _pump(self) -> None:
        for raw in self.proc.stdout:
            self.lines.put(raw.decode(errors="replace").rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line: str) -> bool:
        try:
            self.proc.stdin.write(line.encode(errors="surrogateescape") + b"\n")
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def default_games() -> list[str]:
    """Every game, Chess960, and each game of more players at every player count it allows."""
    names = list(games.names()) + ["chess960"]
    for spec in all_specs(games):
        if spec.field == "players" and spec.kind == "spin":
            names += [f"{spec.game}:players={k}" for k in range(spec.min, spec.max + 1) if k != spec.default]
    return names


def parse_game(text: str) -> tuple[str, dict[str, str]]:
    """``rolit:players=3`` -> ``("rolit", {"players": "3"})``."""
    name, _, rest = text.partition(":")
    params = dict(part.split("=", 1) for part in rest.split(",") if part)
    return games.canonical(name), params


class Model:
    """The fuzzer's own idea of the game, used only to make plausible lines."""

    def __init__(self, rng: random.Random, name: str, params: dict[str, str] | None = None):
        self.rng, self.name, self.params = rng, name, dict(params or {})
        self.game = games.load(name, **self.params)

    def option_lines(self) -> list[str]:
        """The lines that select this game and its parameters on the server."""
        specs = {s.field: s.name for s in all_specs(games) if s.game == self.game.name}
        return [f"setoption name UCI_Variant value {self.name}"] + [
            f"setoption name {specs[k]} value {v}" for k, v in self.params.items()]

    def start(self):
        """A start position: Chess960 draws one of its 960."""
        if getattr(self.game, "chess960", False):
            import chess

            board = chess.Board.from_chess960_pos(self.rng.randrange(960))
            return self.game.new_position(board.shredder_fen())
        return self.game.new_position()

    def set_param(self, field_name: str, value: str) -> None:
        try:
            params = {**self.params, field_name: value}
            self.game, self.params = games.load(self.name, **params), params
        except Exception:
            pass  # refused by the server too

    def random_line(self, max_plies: int = 30) -> tuple[str | None, list[str]]:
        """A position text (or ``None``) and legal move texts reached by random play."""
        pos = self.start()
        text = None if pos.to_text() == self.game.new_position().to_text() else pos.to_text()
        if self.rng.random() < 0.4:
            for _ in range(self.rng.randrange(max_plies)):
                moves = pos.legal_moves()
                if not moves or pos.outcome() is not None:
                    break
                pos.push(self.rng.choice(moves))
            text, pos = pos.to_text(), self.game.new_position(pos.to_text())
        texts = []
        for _ in range(self.rng.randrange(max_plies)):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            move = self.rng.choice(moves)
            texts.append(pos.move_text(move))
            pos.push(move)
        return text, texts


class Fuzzer:
    def __init__(self, rng: random.Random, stats: Stats, timeout: float, verbose: int = 0):
        self.rng, self.stats, self.timeout, self.verbose = rng, stats, timeout, verbose
        self.sent: list[str] = []  # the lines of the current batch, shown with a problem
        self.log = None  # a file that receives every line sent (to replay a session)
        self.server = Server()
        self.pending: list[set[str]] = []  # legal moves seen by ``d``, one per go awaiting its bestmove
        self.legal: set[str] | None = None  # the last ``Legal moves:`` line, not yet tied to a go
        self.refused = False  # the last ``d`` listed a refusal in force
        self.awaiting = 0  # gos whose bestmove has not arrived
        self.batch_errors = 0
        self.start(["setoption name UCI_Variant value chess"])

    # -- server --------------------------------------------------------------------

    def start(self, option_lines: list[str]) -> None:
        self.send_raw("uci")
        for line in option_lines:
            self.send_raw(line)

    def problem(self, text: str) -> None:
        self.stats.problems.append(text)
        print("PROBLEM:", text, flush=True)
        if self.verbose:
            for line in self.sent[-self.verbose:]:
                print("   sent:", line[:200] + ("…" if len(line) > 200 else ""), flush=True)

    def restart(self, option_lines: list[str]) -> None:
        self.stats.restarts += 1
        self.stats.gos -= self.awaiting  # reported already; their bestmoves died with the server
        self.server.close()
        self.server = Server()
        self.pending, self.legal, self.awaiting = [], None, 0
        self.start(option_lines)

    def send_raw(self, line: str) -> None:
        self.stats.lines += 1
        self.sent.append(line)
        if self.log is not None:
            self.log.write(line + "\n")
        self.server.send(line)

    def await_line(self, want) -> str:
        """Handle output until ``want(line)``: ``""``, or why not (the server ended or hung)."""
        patience = Patience(self.server.proc.pid, self.timeout)
        while not self.read(time.monotonic() + 0.5, want):
            if not self.server.alive():
                return "the server ended"
            why = patience.hung()
            if why:
                return why
        return ""

    def read(self, until: float, want=None) -> bool:
        """Handle output until ``want(line)`` is true or the time is up."""
        while True:
            left = until - time.monotonic()
            try:
                line = self.server.lines.get(timeout=max(0.0, left)) if left > 0 else self.server.lines.get_nowait()
            except queue.Empty:
                return False
            if line is None:
                return False
            self.on_line(line)
            if want is not None and want(line):
                return True

    def on_line(self, line: str) -> None:
        if "Traceback" in line or "search failed" in line:
            self.problem(f"{self.game}: {line[:300]}")
        if line.startswith("info string error"):
            self.batch_errors += 1
            self.stats.errors += 1
        elif line.startswith("Refused:"):
            self.refused = True
        elif line.startswith("Legal moves:"):
            # Under a refusal (a bad position or rules) the go must answer ``(none)``.
            self.legal = set() if self.refused else set(line.split()[2:])
        elif line.startswith("bestmove"):
            self.stats.bestmoves += 1
            self.awaiting -= 1
            if self.awaiting < 0:
                self.problem(f"{self.game}: bestmove without a go: {line}")
                self.awaiting = 0
            legal = self.pending.pop(0) if self.pending else None
            move = line.split()[1] if len(line.split()) > 1 else ""
            if legal is not None and (move not in legal if move != "(none)" else legal):
                self.problem(f"{self.game}: illegal {line!r}; legal were {sorted(legal)[:12]}")

    # -- lines ---------------------------------------------------------------------

    def send(self, line: str) -> None:
        """Send one fuzzed line, bracketing a ``go`` with the ``d`` that tells its legal moves."""
        cmd, args, _ = uci.split_command(line)
        if cmd in ("quit", "d", "display"):
            return
        if cmd == "go" and "perft" not in uci.parse_go(args).ints:
            self.legal, self.refused = None, False
            self.send_raw("d")
            self.await_line(lambda out: out.startswith("Legal moves:"))
            self.pending.append(self.legal if self.legal is not None else set())
            self.stats.gos += 1
            self.awaiting += 1
        self.send_raw(line)
        self.read(time.monotonic())  # keep the pipe drained

    def valid_line(self, model: Model) -> str:
        rng = self.rng
        kind = rng.randrange(20)
        if kind < 5:
            text, moves = model.random_line()
            head = "position startpos" if text is None else f"position fen {text}"
            return head + (" moves " + " ".join(moves) if moves else "")
        if kind < 10:
            return rng.choice([f"go depth {rng.randint(1, 4)}", f"go movetime {rng.randint(1, 60)}",
                               f"go nodes {rng.randint(1, 3000)}",
                               f"go wtime {rng.randint(0, 3000)} btime {rng.randint(0, 3000)} winc 10 binc 10",
                               f"go p1time {rng.randint(0, 2000)} p2time 1000 movestogo {rng.randint(0, 40)}",
                               " ".join(["go"] + [f"p{k}time {rng.randint(0, 3000)}" for k in range(1, 5)]
                                        + [f"p{k}inc {rng.randint(0, 50)}" for k in range(1, 5)]),
                               f"go mate {rng.randint(1, 4)} movetime 100", "go infinite",
                               "go ponder movetime 50", f"go depth 2 searchmoves {' '.join(model.random_line(2)[1])}",
                               f"go perft {rng.randint(1, 2)}"])
        if kind < 12:
            return rng.choice(["stop", "ponderhit", "isready", "ucinewgame", "uginewgame", "query gameover",
                               "query p1turn", "query result", "query turn", "query ranking", "debug on", "debug off", "uci", "ugi"])
        if kind < 15:
            name = rng.choice(list(SAFE_OPTIONS))
            value = rng.choice(SAFE_OPTIONS[name])
            return f"setoption name {name}" + ("" if value is None else f" value {value}")
        if kind < 18:
            spec = rng.choice([s for s in all_specs(games) if s.game == model.game.name] or engine_specs(games))
            if spec.kind == "spin":
                value = str(rng.randint(spec.min, spec.max)) if rng.random() < 0.7 else rng.choice(ODD_NUMBERS)
            elif spec.kind == "check":
                value = rng.choice(["true", "false", "yes"])
            elif spec.shape == "seq":
                value = ",".join(str(rng.randint(0, 9)) for _ in range(rng.randint(1, 5)))
            else:
                return rng.choice(model.option_lines())
            if spec.game is not None and spec.game == model.game.name:
                model.set_param(spec.field, value.split(",") if spec.shape == "seq" else value)
            return f"setoption name {spec.name} value {value}"
        return rng.choice(model.option_lines())

    def mutate(self, line: str) -> str:
        rng = self.rng
        tokens = line.split() or ["go"]
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(tokens))
            op = rng.randrange(7)
            if op == 0:
                tokens[i] = rng.choice(ODD_NUMBERS) or "0"
            elif op == 1:
                tokens.insert(i, rng.choice(JUNK))
            elif op == 2 and len(tokens) > 1:
                del tokens[i]
            elif op == 3:
                tokens.insert(i, tokens[i])
            elif op == 4:
                t = tokens[i]
                tokens[i] = t[:rng.randrange(len(t) + 1)] + rng.choice("0123456789:-x/²٣ ") + t[rng.randrange(len(t) + 1):]
            elif op == 5:
                tokens[i] = "".join(rng.choice("abcdefgh12345678:x-/,.KQkqw ") for _ in range(rng.randint(1, 12)))
            else:
                tokens = tokens[:i + 1]
        return " ".join(t for t in tokens if t)

    def long_line(self) -> str:
        rng = self.rng
        n = rng.choice([1000, 20_000, 300_000])
        return rng.choice(["go movetime 10 ", "position startpos moves ", "setoption name Hash value ",
                           "go depth 1 searchmoves ", ""]) + " ".join(rng.choice(JUNK[:12]) for _ in range(n))

    # -- batches -------------------------------------------------------------------

    def batch(self, model: Model, lines: int) -> None:
        self.game = model.name
        self.batch_errors = 0
        self.sent = []
        sent = 0
        for _ in range(lines):
            r = self.rng.random()
            if r < 0.55:
                line = self.valid_line(model)
            elif r < 0.97:
                line = self.mutate(self.valid_line(model))
            else:
                line = self.long_line()
            self.send(line)
            sent += 1
            if not self.server.alive():
                break
        self.send("stop")
        self.send_raw("isready")
        why = self.await_line(lambda out: out == "readyok")
        if why:
            self.problem(f"{model.name}: no readyok ({why})")
            self.restart(model.option_lines())
            return
        # A stop's bestmove may come just after readyok.
        while self.awaiting > 0 and not why:
            why = self.await_line(lambda out: out.startswith("bestmove"))
        if self.awaiting:
            self.problem(f"{model.name}: {self.awaiting} go without a bestmove after stop ({why})")
            self.restart(model.option_lines())
            return
        if self.batch_errors > 2 * (sent + 1):
            self.problem(f"{model.name}: {self.batch_errors} error lines for {sent} lines")
        err = b"".join(self.server.stderr)
        if not self.server.alive() or err:
            self.problem(f"{model.name}: server died or wrote to stderr: {err[-500:]!r}")
            self.restart(model.option_lines())
        self.stats.batches += 1


def run(seed: int, batches: int, game_names: list[str], lines_per_batch: int, minutes: float | None,
        timeout: float, verbose: int = 0, log: str | None = None) -> Stats:
    """``batches`` batches per game; with ``minutes``, each game batches for its equal
    share of the time instead (at least one batch)."""
    rng = random.Random(seed)
    stats = Stats()
    fuzzer = Fuzzer(rng, stats, timeout, verbose)
    if log:
        fuzzer.log = open(log, "w", encoding="utf-8", errors="surrogateescape", buffering=1)
    share = minutes * 60 / len(game_names) if minutes else None
    for entry in game_names:
        name, params = parse_game(entry)
        model = Model(rng, name, params)
        for line in model.option_lines():
            fuzzer.send(line)
        end = time.monotonic() + share if share else None
        done = 0
        while (end is None and done < batches) or (end is not None and (done == 0 or time.monotonic() < end)):
            fuzzer.batch(model, lines_per_batch)
            done += 1
    fuzzer.server.close()
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batches", type=int, default=5, help="batches per game (without --minutes)")
    parser.add_argument("--games", default=",".join(default_games()),
                        help="comma-separated games, NAME or NAME:PARAM=VALUE,... (default: every game, "
                             "Chess960, every player count)")
    parser.add_argument("--lines-per-batch", type=int, default=40)
    parser.add_argument("--minutes", type=float, default=None, help="the time budget, split evenly across the games")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="a wait for readyok or bestmove hangs after this many seconds of CPU used, "
                             "or of none used, by the server (see Patience)")
    parser.add_argument("--log", help="write every line sent to this file (server restarts show as 'uci')")
    parser.add_argument("--verbose", type=int, default=0, metavar="N", help="show the last N lines sent with a problem")
    args = parser.parse_args(argv)
    names = [n for n in re.split(r",(?=[^=,]+(?::|,|$))", args.games) if n]
    t0 = time.monotonic()
    stats = run(args.seed, args.batches, names, args.lines_per_batch, args.minutes, args.timeout, args.verbose, args.log)
    print(f"seed {args.seed}, games {','.join(names)}: {stats.lines} lines sent, {stats.batches} batches, "
          f"{stats.gos} go / {stats.bestmoves} bestmove, {stats.errors} error lines, "
          f"{stats.restarts} restarts, {len(stats.problems)} problems, {time.monotonic() - t0:.0f} s")
    for p in stats.problems:
        print("  -", p)
    return 1 if stats.problems else 0


if __name__ == "__main__":
    sys.exit(main())
