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

Each session opens with ``uci`` or UGI's ``ugi`` at random. The entry ``gtp``
fuzzes Go over GTP (:class:`GtpFuzzer`: ``zermelo gtp``, or the plain server
switched by its first command) with every GTP command the server knows, files
for ``loadsgf`` the server wrote itself (``printsgf FILE``), mutated copies of
them, missing files, a directory and ``/dev/null``; each command's answer is
awaited, a ``genmove`` is checked against the ``all_legal`` listed before it, and
a refused command against ``showboard`` and ``printsgf`` before and after it.

A dead or hung server is killed, restarted and counted as a problem, so a hang
costs one ``--timeout`` and never stops the run. Usage::

    nice python scripts/fuzz.py [--seed 1] [--batches 20] [--games chess,nim,rolit:players=3,gtp]
                                [--lines-per-batch 40] [--minutes M] [--timeout 30] [--memory-mb 2048]

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


def address_limit(memory_mb: int | None):
    """A ``preexec_fn`` capping the server's address space (``None``: no cap), so that a
    read without bound ends in a MemoryError instead of taking the machine."""
    def apply() -> None:
        if memory_mb:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
    return apply


class Server:
    """``python -m protocol [ARGS]`` over pipes; threads collect its output lines and stderr."""

    def __init__(self, args: tuple[str, ...] = (), memory_mb: int | None = None,
                 program: tuple[str, ...] = (sys.executable, "-m", "protocol"), cwd: Path = REPO) -> None:
        # Run elsewhere (where files the fuzzed lines name may be written), it still
        # imports this checkout.
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
        self.proc = subprocess.Popen([*program, *args], cwd=cwd, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                                     preexec_fn=address_limit(memory_mb))
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: list[bytes] = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._pump_err, daemon=True).start()

    def _pump(self) -> None:
        for raw in self.proc.stdout:
            self.lines.put(raw.decode(errors="replace").rstrip("\r\n"))
        self.lines.put(None)

    def _pump_err(self) -> None:
        for raw in self.proc.stderr:
            self.stderr.append(raw)

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

    def kill(self) -> None:
        """End a server that may not read its input (a hang): SIGKILL, then reap it."""
        try:
            self.proc.kill()
        except OSError:
            pass
        self.proc.wait()


def default_games() -> list[str]:
    """Every game, Chess960, each game of more players at every player count it allows,
    and Go over GTP (:data:`GTP`)."""
    names = list(games.names()) + ["chess960", GTP]
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


def report(stats: Stats, text: str, sent: list[str]) -> None:
    """Count and print a problem, with the last lines sent before it."""
    stats.problems.append(text)
    print("PROBLEM:", text, flush=True)
    for line in sent:
        print("   sent:", line[:200] + ("…" if len(line) > 200 else ""), flush=True)


def mutate_tokens(rng: random.Random, line: str) -> str:
    """``line`` with one to four of its tokens made odd, doubled, cut, dropped or junk."""
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
        self.send_raw(self.rng.choice(["uci", "ugi"]))  # UGI's handshake, as cutegames sends it
        for line in option_lines:
            self.send_raw(line)

    def problem(self, text: str) -> None:
        report(self.stats, text, self.sent[-self.verbose:] if self.verbose else [])

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
        return mutate_tokens(self.rng, line)

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

#: The entry of the games list that fuzzes Go over GTP (``zermelo gtp``, and the plain
#: server switched to GTP by its first command).
GTP = "gtp"
#: GTP vertices' column letters (no I).
GTP_COLUMNS = "ABCDEFGHJKLMNOPQRST"
#: Commands that only look: the board and the record must be the same after them.
GTP_QUERIES = {"showboard", "printsgf", "all_legal", "final_score", "final_status_list", "name", "version",
               "protocol_version", "known_command", "list_commands", "gogui-analyze_commands"}
#: Wall seconds a genmove may take before the fuzzer interrupts it (``# interrupt``); a
#: huge ``time_settings`` is no hang.
GTP_INTERRUPT_AFTER = 5.0


class GtpFuzzer:
    """Go over GTP: valid and mutated GTP commands, each answered before the next is sent.

    Checks, besides the server staying alive without a traceback and answering
    ``name`` after each batch (:class:`Patience`):

    - every command (or id) gets exactly one answer, ``=`` or ``?``, with its id;
    - a ``genmove``'s vertex is ``pass``, ``resign`` or among the ``all_legal`` the
      server listed just before it;
    - a refused command (``?``) leaves the game as it was: ``showboard`` and
      ``printsgf`` before and after it agree.

    The server is ``zermelo gtp`` or, every other start, the plain server switched to
    GTP by its first command; its address space is capped (``memory_mb``).
    """

    #: The server's program (a test puts a fake one in its place).
    program: tuple[str, ...] = (sys.executable, "-m", "protocol")

    def __init__(self, rng: random.Random, stats: Stats, timeout: float, verbose: int = 0,
                 memory_mb: int | None = 2048) -> None:
        import tempfile

        from protocol.server import gtp as gtp_dialect

        self.dialect = gtp_dialect
        self.rng, self.stats, self.timeout, self.verbose, self.memory_mb = rng, stats, timeout, verbose, memory_mb
        self.game = GTP
        self.sent: list[str] = []
        self.log = None
        self.work = Path(tempfile.mkdtemp(prefix="fuzz-gtp-"))
        (self.work / "dir.sgf").mkdir()
        self.size = 9
        self.ident = 0
        self.tail = False  # an analysis' answer is open until the next command
        self.starts = 0
        self.lost = False  # the last answer due never came (a hang or a dead server)
        self.server = self.new_server()

    def new_server(self) -> Server:
        self.starts += 1
        self.tail, self.lost = False, False
        if self.starts % 2:
            server = Server(("gtp", "--movetime", "30"), self.memory_mb, self.program, self.work)
            self.server = server
        else:
            # The plain server, switched to GTP by its first command.
            server = self.server = Server((), self.memory_mb, self.program, self.work)
            self.command("protocol_version")
            self.command("zermelo-movetime 30")
        return server

    def problem(self, text: str) -> None:
        report(self.stats, text, self.sent[-self.verbose:] if self.verbose else [])

    def restart(self) -> None:
        self.stats.restarts += 1
        self.server.kill()
        self.server = self.new_server()

    def send_raw(self, line: str) -> None:
        self.stats.lines += 1
        self.sent.append(line)
        if self.log is not None:
            self.log.write(line + "\n")
        self.server.send(line)

    def next_line(self, patience: Patience, interrupt_at: float | None) -> str | None:
        """The server's next output line; ``None`` once it ended or hung (said as a problem)."""
        while True:
            try:
                line = self.server.lines.get(timeout=0.5)
            except queue.Empty:
                if interrupt_at is not None and time.monotonic() > interrupt_at:
                    self.send_raw("# interrupt")
                    interrupt_at = None
                why = patience.hung() if self.server.alive() else "the server ended"
                if why:
                    self.problem(f"gtp: no answer to {self.sent[-1][:120]!r} ({why})")
                    self.lost = True
                    return None
                continue
            if line is None:
                self.server.lines.put(None)
                self.problem(f"gtp: the server ended after {self.sent[-1][:120]!r}: "
                             f"{b''.join(self.server.stderr)[-300:]!r}")
                self.lost = True
                return None
            if "Traceback" in line:
                self.problem(f"gtp: {line[:300]}")
            return line

    def command(self, line: str) -> tuple[bool, str] | None:
        """Send ``line`` and read its answer: ``(ok, text)``, ``None`` when no answer is due
        (an empty line) or none came (a problem, said)."""
        ident, cmd, _ = self.dialect.split(self.dialect.clean(line))
        self.send_raw(line)
        if line.strip() == "# interrupt" or (cmd is None and not ident):
            return None
        patience = Patience(self.server.proc.pid, self.timeout)
        genmove = cmd in ("genmove", "reg_genmove", "reg-genmove")
        interrupt_at = time.monotonic() + GTP_INTERRUPT_AFTER if genmove else None
        while self.tail:  # the end of an analysis' answer
            got = self.next_line(patience, None)
            if got is None:
                return None
            self.tail = got != ""
        while True:
            got = self.next_line(patience, interrupt_at)
            if got is None:
                return None
            if got[:1] in ("=", "?"):
                break
            if got:
                self.problem(f"gtp: output outside an answer: {got[:200]!r}")
        head, _, text = got[1:].partition(" ")
        if head != ident:
            self.problem(f"gtp: the answer {got[:80]!r} has another id than {line[:80]!r}")
        if cmd in ("lz-analyze", "kata-analyze") and got[0] == "=":
            self.tail = True
            return True, text
        body = [text]
        while True:
            more = self.next_line(patience, None)
            if more is None:
                return None
            if more == "":
                return got[0] == "=", "\n".join(body)
            body.append(more)

    def numbered(self, text: str) -> tuple[bool, str] | None:
        self.ident += 1
        return self.command(f"{self.ident} {text}")

    def vertex(self) -> str:
        rng = self.rng
        if rng.random() < 0.05:
            return "pass"
        size = max(1, min(self.size, 19))
        return f"{GTP_COLUMNS[rng.randrange(size)]}{rng.randint(1, size)}"

    def sgf_file(self) -> str:
        rng = self.rng
        saved = sorted(self.work.glob("g*.sgf"))
        r = rng.random()
        if saved and r < 0.5:
            return str(rng.choice(saved))
        if saved and r < 0.7:
            # A mutated copy of one the server wrote.
            data = rng.choice(saved).read_bytes()
            cut = rng.randrange(len(data) + 1)
            junk = rng.choice([b"", b"(", b")", b"[", b";B[zz]", b"SZ[99]", b"SZ[0]", b"KM[nan]", b"\xff",
                               b"AB[aa]" * 50])
            path = self.work / f"m{rng.randrange(20)}.sgf"
            path.write_bytes(data[:cut] + junk + data[cut + rng.randrange(3):])
            return str(path)
        return rng.choice([str(self.work / "missing.sgf"), str(self.work / "dir.sgf"), "/dev/null", "", "''"])

    def valid_line(self) -> str:
        rng = self.rng
        colour = rng.choice(["b", "w", "black", "white", "B"])
        kind = rng.randrange(24)
        if kind < 5:
            return f"play {colour} {self.vertex()}"
        if kind < 8:
            return f"genmove {colour}" if kind < 7 else f"reg_genmove {colour}"
        if kind == 8:
            self.size = rng.choice([1, 2, 5, 7, 9, 9, 13, 19, 0, 25])
            return f"boardsize {self.size}"
        if kind == 9:
            return rng.choice(["clear_board", "undo", "undo"])
        if kind == 10:
            return f"komi {rng.choice(['0', '5.5', '6.5', '7.5', '-3', '0.25', '1e9', 'nan', 'x'])}"
        if kind == 11:
            return rng.choice(["showboard", "final_score", "final_status_list dead", "final_status_list alive",
                               "final_status_list seki", f"all_legal {colour}", "printsgf", "list_commands",
                               "known_command genmove", "name", "version", "protocol_version",
                               "gogui-analyze_commands", "gogui-interrupt"])
        if kind == 12:
            return rng.choice([f"time_settings {rng.randint(0, 5)} {rng.randint(0, 2)} {rng.randint(0, 3)}",
                               f"time_left {colour} {rng.randint(0, 5)} {rng.randint(0, 3)}",
                               f"kgs-time_settings {rng.choice(['none', 'absolute', 'canadian', 'byoyomi', 'x'])} "
                               + " ".join(str(rng.randint(-1, 5)) for _ in range(rng.randint(0, 3)))])
        if kind == 13:
            return rng.choice([f"fixed_handicap {rng.randint(0, 10)}",
                               "set_free_handicap " + " ".join(self.vertex() for _ in range(rng.randint(0, 4)))])
        if kind < 16:
            return f"loadsgf {self.sgf_file()}" + (f" {rng.randint(0, 30)}" if rng.random() < 0.3 else "")
        if kind == 16:
            return f"printsgf {self.work / f'g{rng.randrange(8)}.sgf'}"
        if kind < 20:
            name, values = rng.choice([
                ("go_size", ["5", "7", "9", "13", "19", "0", "20", "-1", "x"]), ("go_width", ["0", "5", "7", "20"]),
                ("go_height", ["0", "5", "9", "20"]), ("go_komi", ["6.5", "", "0", "nan", "-1e9"]),
                ("go_ko", ["superko", "simple", "none"]), ("Hash", ["1", "16", "0"]), ("Threads", ["1", "2"]),
                ("Strategy", ["mcts", "alphabeta", "x"]), ("RAVE", ["true", "false"]),
                ("UCI_Variant", ["chess", "go"])])
            return f"zermelo-setoption {name} {rng.choice(values)}"
        if kind == 20:
            return f"zermelo-movetime {rng.choice(['1', '30', '0', '-5', 'x'])}"
        if kind == 21:
            return rng.choice([f"lz-analyze {colour} {rng.randint(1, 20)}",
                               f"kata-analyze {colour} {rng.randint(1, 20)} ownership {rng.choice(['true', 'false'])}",
                               f"lz-genmove_analyze {colour} {rng.randint(1, 20)}",
                               f"kata-genmove_analyze {colour} interval {rng.randint(1, 20)} maxmoves 3",
                               "zermelo-ownership", f"zermelo-candidates {colour}"])
        return rng.choice(["", "# a comment", "\t\tname", "version"])

    def state(self) -> tuple:
        """What a refused command must leave as it was: the board and the record."""
        board, record = self.numbered("showboard"), self.numbered("printsgf")
        return board, record

    def batch(self, lines: int) -> None:
        rng = self.rng
        self.sent = []
        for _ in range(lines):
            r = rng.random()
            mutated = r >= 0.55
            line = self.valid_line()
            if r >= 0.97:
                line = line + " " + " ".join(rng.choice(JUNK[:12]) for _ in range(rng.choice([1000, 20_000])))
            elif mutated:
                line = mutate_tokens(rng, line)
            ident, cmd, args = self.dialect.split(self.dialect.clean(line))
            if cmd == "quit":
                continue
            if not ident and rng.random() < 0.85 and cmd is not None:
                self.ident += 1
                line = f"{self.ident} {line}"
            checked = (mutated or cmd in ("zermelo-setoption", "loadsgf", "boardsize", "komi", "undo")) \
                and cmd not in GTP_QUERIES
            before = self.state() if checked else None
            legal = None
            if cmd in ("genmove", "reg_genmove") and not mutated and args:
                listed = self.numbered(f"all_legal {args[0]}")
                legal = set(listed[1].upper().split()) if listed and listed[0] else None
                self.stats.gos += 1
            answer = self.command(line)
            if self.lost:
                self.restart()
                return
            if legal is not None and answer is not None:
                self.stats.bestmoves += 1
                move = answer[1].strip().upper()
                if answer[0] and move not in legal | {"PASS", "RESIGN"}:
                    self.problem(f"gtp: {line[:80]!r} answered {move!r}, not among all_legal {sorted(legal)[:12]}")
            if before is not None and answer is not None and not answer[0]:
                after = self.state()
                if self.lost:
                    self.restart()
                    return
                if after != before:
                    self.problem(f"gtp: the refused {line[:100]!r} ({answer[1][:100]}) changed the game:"
                                 f" {before[0][1][-120:] if before[0] else None!r} -> "
                                 f"{after[0][1][-120:] if after[0] else None!r}")
        answer = self.numbered("name")
        err = b"".join(self.server.stderr)
        if self.lost or not self.server.alive() or b"Traceback" in err:
            if b"Traceback" in err:
                self.problem(f"gtp: a traceback on stderr: {err[-400:]!r}")
            self.restart()
            return
        self.server.stderr.clear()
        self.stats.batches += 1

    def close(self) -> None:
        import shutil

        self.server.kill()
        shutil.rmtree(self.work, ignore_errors=True)


def run(seed: int, batches: int, game_names: list[str], lines_per_batch: int, minutes: float | None,
        timeout: float, verbose: int = 0, log: str | None = None, memory_mb: int | None = 2048) -> Stats:
    """``batches`` batches per game; with ``minutes``, each game batches for its equal
    share of the time instead (at least one batch). ``memory_mb`` caps the GTP server."""
    rng = random.Random(seed)
    stats = Stats()
    fuzzer = Fuzzer(rng, stats, timeout, verbose)
    if log:
        fuzzer.log = open(log, "w", encoding="utf-8", errors="surrogateescape", buffering=1)
    share = minutes * 60 / len(game_names) if minutes else None
    for entry in game_names:
        end = time.monotonic() + share if share else None
        done = 0
        if entry == GTP:
            gtp = GtpFuzzer(rng, stats, timeout, verbose, memory_mb)
            gtp.log = fuzzer.log
            while (end is None and done < batches) or (end is not None and (done == 0 or time.monotonic() < end)):
                gtp.batch(lines_per_batch)
                done += 1
            gtp.close()
            continue
        name, params = parse_game(entry)
        model = Model(rng, name, params)
        for line in model.option_lines():
            fuzzer.send(line)
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
                        help="comma-separated games, NAME or NAME:PARAM=VALUE,..., or gtp for Go over GTP "
                             "(default: every game, Chess960, every player count, gtp)")
    parser.add_argument("--lines-per-batch", type=int, default=40)
    parser.add_argument("--minutes", type=float, default=None, help="the time budget, split evenly across the games")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="a wait for readyok or bestmove hangs after this many seconds of CPU used, "
                             "or of none used, by the server (see Patience)")
    parser.add_argument("--log", help="write every line sent to this file (server restarts show as 'uci')")
    parser.add_argument("--memory-mb", type=int, default=2048, help="address-space limit of the GTP server")
    parser.add_argument("--verbose", type=int, default=0, metavar="N", help="show the last N lines sent with a problem")
    args = parser.parse_args(argv)
    names = [n for n in re.split(r",(?=[^=,]+(?::|,|$))", args.games) if n]
    t0 = time.monotonic()
    stats = run(args.seed, args.batches, names, args.lines_per_batch, args.minutes, args.timeout, args.verbose,
                args.log, args.memory_mb)
    print(f"seed {args.seed}, games {','.join(names)}: {stats.lines} lines sent, {stats.batches} batches, "
          f"{stats.gos} go / {stats.bestmoves} bestmove, {stats.errors} error lines, "
          f"{stats.restarts} restarts, {len(stats.problems)} problems, {time.monotonic() - t0:.0f} s")
    for p in stats.problems:
        print("  -", p)
    return 1 if stats.problems else 0


if __name__ == "__main__":
    sys.exit(main())
