"""A file fuzzer: mutated books, tables, opening files and game records through the real server and tools.

Every file zermelo reads is untrusted. For each kind of file this script makes
valid seed files on the fly (a small book built with ``zermelo book build``,
tables built with ``zermelo tables build`` and the shipped Kalah table, the
Syzygy files of ``tests/data/syzygy``, PGN written by python-chess from random
games, records of tiny ``zermelo match`` runs), mutates them and loads each
mutant through

- the **server** (``python -m protocol`` over pipes, one process reused until a
  failure): ``setoption`` the file (``BookFile``, ``TablePath``,
  ``SyzygyPath``, ``EvalFile``), ``isready``, ``position`` + a short ``go`` that
  needs the file, ``stop``, ``isready``;
- the **GTP server** (``zermelo gtp``): ``loadsgf`` the file, then ``genmove``,
  ``showboard`` and ``name``, each to be answered;
- or the **tool**: ``zermelo match --openings``/``--replay``, ``zermelo book
  build --source games``, ``zermelo book stats``/``show``, ``zermelo tables info``,
  ``zermelo train --data`` and ``zermelo datagen``'s resume (a ``.zdata`` and its
  ``.progress`` sidecar),

each under a time limit and an address-space limit (``RLIMIT_AS``, ``--memory-mb``).

Mutations: truncation, bit flips, inserted, deleted, duplicated and overwritten
bytes, wrong headers, files swapped into another's name or role (a table of one
material under another's name, a DTZ file as a WDL one), sparse files of
gigabytes, ``.xz`` bombs (streams of zeros that expand to gigabytes), for
SQLite books views in place of tables, recursive CTE views, triggers, extra
tables, values of the wrong type and huge blobs, and for text files cut, doubled
and shuffled lines, junk tokens, deep variations, unterminated comments and
invalid UTF-8. In any kind, one case in twenty has its file made a FIFO nobody
writes (an open for reading blocks for ever), or a link to ``/dev/zero``,
``/dev/urandom`` or ``/dev/null`` (endless or empty, while ``stat`` says 0 bytes).
Training data adds millions of valid empty records (a sparse file after a real
header: memory and time that grow with the record count) and hostile sidecars:
JSON nested 100,000 deep, huge numbers, values of the wrong type, a FIFO, a device.

Each outcome is one of

- ``ok``: accepted, or refused with one error line naming the file (tools: a
  clean exit status, an error line, if any, naming the file);
- ``hang``: no ``bestmove``/``readyok`` (tools: no exit) while the process group used
  no CPU for ``--timeout`` seconds, or that many seconds of CPU (``fuzz.Patience``:
  a slow answer on a starved CPU, as beside a match under ``nice -n 19``, is no hang);
- ``traceback``: a Python traceback on stdout or stderr;
- ``memory``: ``MemoryError`` or death under the memory limit;
- ``crash``: the process died otherwise (a signal, or the server exited);
- ``lost-bestmove``: a ``go`` without exactly one ``bestmove``;
- ``noisy``: more than one error line for one file;
- ``unnamed``: an error line that does not name the file (or a silent failing exit);
- ``stderr``: anything else written to the server's stderr;
- ``silent``: a table whose content was changed, accepted without a word while
  the search's scores differ from those with the intact file (best effort: only
  table kinds are judged).

Every failing input is saved under ``--out`` with a ``repro.txt`` (the command or
the server lines, and the output). Usage::

    nice python scripts/fuzz_files.py [--minutes 5] [--kinds zbook,ztb-chess] [--seed 1]
                                      [--out fuzz-files] [--timeout 30] [--memory-mb 2048]

Prints per-kind counts; the exit status is 1 when any input failed.
"""

from __future__ import annotations

import argparse
import io
import json
import lzma
import os
import queue
import random
import re
import resource
import shlex
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))

from fuzz import Patience  # noqa: E402

PYTHON = sys.executable
ZERMELO = [PYTHON, "-m", "protocol"]
RANDOM_ENGINE = f"{shlex.quote(PYTHON)} {shlex.quote(str(REPO / 'scripts' / 'random_engine.py'))}"
FAILURES = ("hang", "traceback", "memory", "crash", "lost-bestmove", "noisy", "unnamed", "stderr", "silent")
#: Files above this size are saved as a recipe, not copied (sparse giants, bombs).
SAVE_LIMIT = 64 << 20
GIANT = 3 << 30


# -- running things --------------------------------------------------------------------


def limiter(memory_mb: int):
    """A ``preexec_fn`` capping the child's address space, so a reader that trusts a
    size field dies of MemoryError instead of taking the machine."""
    def apply() -> None:
        limit = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        os.setpgrp()  # a timeout kills the child's whole group (match engines too)
    return apply


def kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, 9)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def classify_text(text: str) -> str | None:
    if "MemoryError" in text or "Cannot allocate memory" in text or "cannot allocate memory" in text:
        return "memory"
    if "Traceback" in text:
        return "traceback"
    return None


@dataclass
class Result:
    outcome: str
    detail: str = ""
    transcript: str = ""  # the lines sent or the command, for the reproduction
    output: str = ""
    extra: list = field(default_factory=list)  # the server's scores, one per go


class Server:
    """``python -m protocol`` over pipes under the limits; threads collect stdout and stderr."""

    def __init__(self, memory_mb: int, args: tuple[str, ...] = ()):
        self.proc = subprocess.Popen(ZERMELO + list(args), cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, bufsize=0, preexec_fn=limiter(memory_mb))
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._pump_err, daemon=True).start()

    def _pump(self) -> None:
        for raw in self.proc.stdout:
            self.lines.put(raw.decode(errors="replace").rstrip("\r\n"))
        self.lines.put(None)

    def _pump_err(self) -> None:
        for raw in self.proc.stderr:
            self.stderr.append(raw.decode(errors="replace"))

    def send(self, line: str) -> bool:
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def until(self, want, timeout: float, seen: list[str]) -> bool:
        """Collect lines into ``seen`` until ``want(line)``; False on end of output or a
        hang (:class:`fuzz.Patience` over the server's process group, ``timeout``)."""
        patience = Patience(self.proc.pid, timeout, group=True)
        while True:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                if patience.hung():
                    return False
                continue
            if line is None:
                self.lines.put(None)  # stays at the end for the next reader
                return False
            seen.append(line)
            if want(line):
                return True

    def drain(self, seen: list[str], wait: float = 0.0) -> None:
        """Collect the lines that arrive within ``wait`` seconds."""
        end = time.monotonic() + wait
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                return
            if line is None:
                self.lines.put(None)
                return
            seen.append(line)

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            kill_group(self.proc)


def run_tool(args: list[str], cwd: Path, timeout: float, memory_mb: int) -> tuple[int | None, str]:
    """Run a ``zermelo`` command; ``(None, output)`` when it hangs (:class:`fuzz.Patience`
    over its process group, ``timeout``)."""
    proc = subprocess.Popen(ZERMELO + args, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, preexec_fn=limiter(memory_mb))
    chunks: list[bytes] = []
    reader = threading.Thread(target=lambda: chunks.append(proc.stdout.read()), daemon=True)
    reader.start()
    patience = Patience(proc.pid, timeout, group=True)
    code: int | None = None
    while code is None:
        try:
            code = proc.wait(0.5)
        except subprocess.TimeoutExpired:
            if patience.hung():
                kill_group(proc)
                break
    reader.join(10)
    return code, b"".join(chunks).decode(errors="replace")


# -- mutations -------------------------------------------------------------------------


def flip_bits(data: bytes, rng: random.Random, count: int) -> bytes:
    b = bytearray(data)
    for _ in range(count):
        if b:
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
    return bytes(b)


def mutate_bytes(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One to three generic byte mutations; returns the data and their names."""
    names = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        n = len(data)
        at = rng.randrange(n + 1)
        op = rng.randrange(10)
        if op == 0:
            data, name = data[:at], f"truncate@{at}"
        elif op == 1:
            k = rng.choice([1, 1, 2, 8, 64])
            data, name = flip_bits(data, rng, k), f"flip{k}"
        elif op == 2:
            junk = rng.randbytes(rng.choice([1, 4, 16, 300]))
            data, name = data[:at] + junk + data[at:], f"insert{len(junk)}@{at}"
        elif op == 3:
            k = rng.choice([1, 7, 64, 4096])
            data, name = data[:at] + data[at + k:], f"delete{k}@{at}"
        elif op == 4:
            k = rng.choice([4, 16, 64])
            data, name = rng.randbytes(k) + data[k:], f"header-random{k}"
        elif op == 5:
            k = rng.choice([4, 16, 64])
            data, name = bytes(k) + data[k:], f"header-zero{k}"
        elif op == 6:
            k = rng.choice([16, 512, 4096])
            data, name = data[:at] + data[at:at + k] + data[at:], f"dup{k}@{at}"
        elif op == 7:
            k = rng.choice([8, 512, 4096])
            data, name = data[:at] + b"\xff" * k + data[at + k:], f"ff{k}@{at}"
        elif op == 8:
            data, name = data + rng.randbytes(rng.choice([1, 15, 1000])), "append"
        else:
            data, name = rng.choice([b"", rng.randbytes(max(1, n))]), "replace-all"
        names.append(name)
    return data, "+".join(names)


_ZEROS_XZ: list[bytes] = []


def xz_bomb(prefix: bytes, gigabytes: float) -> bytes:
    """An xz file of ``prefix`` then zeros up to ``gigabytes``, a few hundred KB on disk:
    concatenated streams (which xz readers take as one file), one of 64 MB of zeros repeated."""
    if not _ZEROS_XZ:
        _ZEROS_XZ.append(lzma.compress(bytes(1 << 26)))
    return lzma.compress(prefix) + _ZEROS_XZ[0] * max(1, int(gigabytes * 16))


def ztb_split(data: bytes) -> tuple[dict, bytes]:
    (length,) = struct.unpack("<I", data[8:12])
    return json.loads(data[12:12 + length]), data[12 + length:]


def ztb_join(header: dict, payload: bytes) -> bytes:
    text = json.dumps(header).encode()
    text += b" " * (-(12 + len(text)) % 64)  # the payload stays 64-byte aligned, as written
    return b"ZRMTBL\r\n" + struct.pack("<I", len(text)) + text + payload


def mutate_ztb_header(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """A field of a table's JSON header given a wrong value, or its length field broken."""
    header, payload = ztb_split(data)
    op = rng.randrange(4)
    if op == 0:
        length = rng.choice([0, 1, 0xFFFFFFFF, 0x7FFFFFFF, len(data)])
        return data[:8] + struct.pack("<I", length) + data[12:], f"header-length={length}"
    key = rng.choice(sorted(header))
    if op == 1:
        del header[key]
        return ztb_join(header, payload), f"header-drop-{key}"
    value = rng.choice([10 ** 12, -1, 0, 2 ** 64, 1.5, "x", None, [], {}, "i8", "f4", "O", "<U9", "chess",
                        "checkers", "KRvK", "nan", True, 10 ** 400])
    if value == 10 ** 400:
        header[key] = 0
        text = json.dumps(header).replace('": 0', '": ' + "9" * 400, 1)
        raw = text.encode()
        return b"ZRMTBL\r\n" + struct.pack("<I", len(raw)) + raw + payload, f"header-{key}=9x400"
    header[key] = value
    return ztb_join(header, payload), f"header-{key}={value!r}"


def mutate_ztb(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """Table-aware mutations: header fields, payload-only bit flips (the CRC must catch
    them), a grown payload with a matching size field, or generic bytes."""
    r = rng.random()
    if r < 0.35:
        return mutate_ztb_header(data, rng)
    header, payload = ztb_split(data)
    offset = len(data) - len(payload)
    if r < 0.55:
        return data[:offset] + flip_bits(payload, rng, rng.choice([1, 3])), "payload-flip"
    if r < 0.65:
        extra = rng.choice([1, 100, 1 << 20])
        grown = dict(header, entries=header["entries"] + extra)
        return ztb_join(grown, payload + bytes(extra * (2 if header.get("dtype") == "i2" else 1))), \
            f"payload+{extra}-entries"
    return mutate_bytes(data, rng)


# -- SQLite books ----------------------------------------------------------------------


def book_columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]


SQL_MUTATIONS = [
    "view-for-moves", "recursive-view-moves", "recursive-view-meta", "trigger", "extra-table",
    "text-weight", "blob-weight", "huge-weight", "negative-weight", "real-weight", "null-move",
    "huge-blob-text", "huge-blob-move", "meta-game", "meta-format", "meta-params", "meta-key-check",
    "meta-roots", "meta-drop", "moves-drop", "many-rows", "index-on-expr", "wal", "user-version",
    "page-size", "big-meta-value", "duplicate-meta", "moves-without-rowid-missing-col",
]


def mutate_sqlite(src: Path, dest: Path, rng: random.Random) -> str:
    """A structural change to a zermelo book, made through SQLite itself."""
    shutil.copyfile(src, dest)
    op = rng.choice(SQL_MUTATIONS)
    conn = sqlite3.connect(dest)
    cols = book_columns(conn, "moves")
    col_list = ", ".join(cols)
    try:
        if op == "view-for-moves":
            conn.execute("ALTER TABLE moves RENAME TO moves_real")
            conn.execute(f"CREATE VIEW moves AS SELECT {col_list} FROM moves_real")
        elif op == "recursive-view-moves":
            conn.execute("DROP TABLE moves")
            sel = ", ".join("x" if c == "key" else ("'a1'" if c in ("move", "text") else "x") for c in cols)
            conn.execute(f"CREATE VIEW moves({col_list}) AS WITH RECURSIVE c(x) AS "
                         f"(SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT {sel} FROM c")
        elif op == "recursive-view-meta":
            conn.execute("DROP TABLE meta")
            conn.execute("CREATE VIEW meta(name, value) AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL "
                         "SELECT x + 1 FROM c) SELECT 'n' || x, x FROM c")
        elif op == "trigger":
            conn.execute("CREATE TABLE log(x)")
            conn.execute("CREATE TRIGGER t AFTER INSERT ON moves BEGIN INSERT INTO log VALUES (1); END")
            conn.execute("CREATE TRIGGER t2 BEFORE DELETE ON meta BEGIN SELECT RAISE(ABORT, 'no'); END")
        elif op == "extra-table":
            conn.execute("CREATE TABLE extra(a, b BLOB)")
            conn.execute("INSERT INTO extra VALUES (1, randomblob(10000))")
        elif op in ("text-weight", "blob-weight", "huge-weight", "negative-weight", "real-weight"):
            value = {"text-weight": "'heavy'", "blob-weight": "x'00ff'", "huge-weight": "9223372036854775807",
                     "negative-weight": "-5", "real-weight": "1e308"}[op]
            column = rng.choice([c for c in cols if c not in ("key", "move", "text")] or ["weight"])
            conn.execute(f"UPDATE moves SET {column} = {value}")
            op += f"({column})"
        elif op == "null-move":
            conn.execute("UPDATE moves SET move = NULL WHERE rowid IN (SELECT rowid FROM moves LIMIT 3)"
                         if "rowid" in cols else "UPDATE moves SET text = NULL")
        elif op == "huge-blob-text":
            conn.execute("UPDATE moves SET text = zeroblob(30000000) WHERE key = (SELECT key FROM moves LIMIT 1)")
        elif op == "huge-blob-move":
            conn.execute("UPDATE positions SET text = randomblob(20000000) "
                         "WHERE key = (SELECT key FROM positions LIMIT 1)")
        elif op.startswith("meta-") and op != "meta-drop":
            name = {"meta-game": "game", "meta-format": "format_version", "meta-params": "params",
                    "meta-key-check": "key_check", "meta-roots": "roots"}[op]
            value = rng.choice(["chess", "nim", "", "99", "-1", "{", "[1, 2]", "null", "x" * 100000,
                                '{"seeds": 99999999999}', "\x00\xff", "1e999"])
            conn.execute("UPDATE meta SET value = ? WHERE name = ?", (value, name))
            op += f"={value[:20]!r}"
        elif op == "meta-drop":
            conn.execute("DROP TABLE meta")
        elif op == "moves-drop":
            conn.execute("DROP TABLE moves")
        elif op == "many-rows":
            conn.execute("CREATE TABLE filler(x)")
            conn.execute("INSERT INTO filler WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
                         "LIMIT 200000) SELECT x FROM c")
        elif op == "index-on-expr":
            conn.execute("CREATE INDEX odd ON moves(abs(weight) / (weight - weight))")
        elif op == "wal":
            conn.execute("PRAGMA journal_mode = WAL")
        elif op == "user-version":
            conn.execute("PRAGMA user_version = 123456")
        elif op == "page-size":
            conn.execute("PRAGMA page_size = 512")
            conn.execute("VACUUM")
        elif op == "big-meta-value":
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('comment', zeroblob(10000000))")
        elif op == "duplicate-meta":
            conn.execute("CREATE TABLE meta2 AS SELECT * FROM meta")
            conn.execute("INSERT INTO meta2 SELECT name, 'other' FROM meta")
            conn.execute("DROP TABLE meta")
            conn.execute("ALTER TABLE meta2 RENAME TO meta")
        else:  # a moves table lacking a column the reader selects
            keep = [c for c in cols if c != rng.choice(cols)]
            conn.execute(f"CREATE TABLE m2 AS SELECT {', '.join(keep)} FROM moves")
            conn.execute("DROP TABLE moves")
            conn.execute("ALTER TABLE m2 RENAME TO moves")
        conn.commit()
    except sqlite3.Error as e:
        op += f" (partial: {e})"
    finally:
        conn.close()
    if rng.random() < 0.2:  # the structural change and byte damage together
        data, name = mutate_bytes(dest.read_bytes(), rng)
        dest.write_bytes(data)
        op += "+" + name
    return op


# -- text files ------------------------------------------------------------------------


def mutate_text(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """Line- and token-level damage to a text file (PGN, PDN, EPD, records), or bytes."""
    r = rng.random()
    if r < 0.25:
        return mutate_bytes(data, rng)
    lines = data.split(b"\n")
    names = []
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines) or 1)
        op = rng.randrange(12)
        if not lines:
            lines = [b""]
        if op == 0:
            del lines[i:i + rng.randint(1, 5)]
            names.append("cut-lines")
        elif op == 1:
            lines[i:i] = lines[i:i + rng.randint(1, 20)] * rng.choice([2, 50])
            names.append("dup-lines")
        elif op == 2:
            rng.shuffle(lines)
            names.append("shuffle-lines")
        elif op == 3:
            tokens = lines[i].split(b" ")
            j = rng.randrange(len(tokens) + 1)
            tokens.insert(j, rng.choice([b"Qxh9", b"0-0-0-0", b"1-0", b"*", b"e9e10", b"99999999999.", b"$300",
                                         b"{", b"}", b"(", b")", b"[", b"]", b"%", b";", b"\x00", b"\xff\xfe",
                                         b"[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]", b"[SetUp \"1\"]",
                                         b"[Variant \"chess960\"]", b"[Game \"nim\"]", b"12x28", b"x" * 5000]))
            lines[i] = b" ".join(tokens)
            names.append("junk-token")
        elif op == 4:
            lines.insert(i, b"(" * rng.choice([100, 5000, 100000]))
            names.append("deep-variation")
        elif op == 5:
            lines.insert(i, b"{ unterminated comment")
            names.append("open-comment")
        elif op == 6:
            lines.insert(i, b"1. e4 " * rng.choice([1000, 100000]))
            names.append("long-line")
        elif op == 7:
            lines[i] = lines[i].replace(b"\"", b"", 1)
            names.append("unquote")
        elif op == 8:
            lines = lines * rng.choice([2, 20, 200])
            names.append("repeat-file")
        elif op == 9:
            lines.insert(i, rng.randbytes(rng.choice([10, 1000])))
            names.append("binary-line")
        elif op == 10:
            lines[i] = re.sub(rb"\d+", lambda m: rng.choice([b"0", b"-1", b"9" * 40, b"\xd9\xa3"]), lines[i])
            names.append("numbers")
        else:
            lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
            names.append("cut-line")
    return b"\n".join(lines), "+".join(names)


# -- seeds -----------------------------------------------------------------------------


class Seeds:
    """Valid files made on first use in ``root``, each kind asking for what it needs."""

    def __init__(self, root: Path, memory_mb: int):
        self.root, self.memory_mb = root, memory_mb
        self.done: dict[str, object] = {}

    def _tool(self, args: list[str], timeout: float = 300) -> str:
        rc, out = run_tool(args, self.root, timeout, self.memory_mb)
        if rc != 0:
            raise RuntimeError(f"seed command failed ({rc}): zermelo {' '.join(args)}\n{out[-2000:]}")
        return out

    def get(self, what: str):
        if what not in self.done:
            self.done[what] = getattr(self, "_" + what.replace("-", "_"))()
        return self.done[what]

    def _chess_tables(self) -> Path:
        out = self.root / "ztb-chess"
        self._tool(["tables", "build", "chess", "KQK", "KRK", "--out", str(out), "--quiet"])
        return out

    def _draughts_tables(self) -> Path:
        out = self.root / "ztb-draughts"
        self._tool(["tables", "build", "checkers", "2", "--out", str(out), "--quiet"])
        return out

    def _kalah_tables(self) -> Path:
        out = self.root / "ztb-kalah"
        self._tool(["tables", "build", "kalah", "--seeds", "6", "--xz", "--out", str(out), "--quiet"])
        return out

    def _books(self) -> list[tuple[str, Path]]:
        out = self.root / "books"
        out.mkdir(exist_ok=True)
        self._tool(["book", "build", "tictactoe", "--out", str(out / "tictactoe.zbook"), "--plies", "3",
                    "--depth", "2"])
        found = [("tictactoe", out / "tictactoe.zbook")]
        for game, name in (("connect4", "connect4.zbook"), ("chess", "chess-games.zbook")):
            if (REPO / "tests" / "data" / "books" / name).exists():
                shutil.copyfile(REPO / "tests" / "data" / "books" / name, out / name)
                found.append((game, out / name))
        return found

    def _polyglot(self) -> list[Path]:
        out = self.root / "polyglot"
        out.mkdir(exist_ok=True)
        self._tool(["book", "export", str(REPO / "games" / "books" / "chess.zbook"), "--out", str(out / "chess.bin")])
        found = [out / "chess.bin"]
        small = REPO / "tests" / "data" / "books" / "chess-games.bin"
        if small.exists():
            found.append(small)
        return found

    def _syzygy(self) -> Path | None:
        path = REPO / "tests" / "data" / "syzygy"
        return path if path.is_dir() and any(path.glob("*.rtbw")) else None

    def _pgn(self) -> Path:
        """Random chess games written by python-chess: a FEN start, comments, a variation."""
        import chess
        import chess.pgn

        rng = random.Random(7)
        out = io.StringIO()
        for g in range(6):
            board = chess.Board()
            if g == 5:
                board = chess.Board("4k3/8/8/8/8/8/4P3/4K2R w K - 0 1")
            game = chess.pgn.Game()
            game.setup(board)
            node = game
            for ply in range(rng.randint(6, 40)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                move = rng.choice(moves)
                if ply == 3 and len(moves) > 1:
                    node.add_variation(next(m for m in moves if m != move)).comment = "also"
                node = node.add_main_variation(move)
                board.push(move)
                if ply % 7 == 0:
                    node.comment = f"ply {ply}"
            game.headers["Result"] = board.result(claim_draw=True)
            print(game, file=out, end="\n\n")
        path = self.root / "games.pgn"
        path.write_text(out.getvalue())
        return path

    def _epd(self) -> Path:
        import chess

        rng = random.Random(8)
        lines = ["startpos moves e2e4 e7e5", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]
        for _ in range(8):
            board = chess.Board()
            for _ in range(rng.randint(2, 12)):
                board.push(rng.choice(list(board.legal_moves)))
            lines.append(board.epd() + (" moves " + rng.choice(list(board.legal_moves)).uci()
                                        if rng.random() < 0.5 else ""))
        path = self.root / "openings.epd"
        path.write_text("\n".join(lines) + "\n")
        return path

    def _checkers_openings(self) -> Path:
        path = self.root / "checkers-openings.txt"
        path.write_text("startpos moves 9-13 22-18\nB:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
                        " moves 11-15\nW:W18,22,23:B9,10,11\n")
        return path

    def _nets(self) -> list[tuple[str, Path]]:
        """The shipped networks, by game."""
        return [(path.stem, path) for path in sorted((REPO / "games" / "nets").glob("*.znn"))]

    def _sgfs(self) -> list[Path]:
        """Go games of random moves on boards of 5, 9 and 19 points, written as SGF."""
        import games
        from protocol.match.sgf import to_sgf
        from protocol.records import GameRecord

        rng = random.Random(9)
        found = []
        for size, plies in ((5, 20), (9, 60), (19, 40)):
            game = games.load("go", size=size)
            pos = game.new_position()
            moves = []
            for _ in range(plies):
                legal = pos.legal_moves()
                if not legal or pos.outcome() is not None:
                    break
                move = rng.choice(legal)
                moves.append(pos.move_text(move))
                pos.push(move)
            path = self.root / f"go{size}.sgf"
            path.write_bytes(to_sgf(GameRecord("go", ("a", "b"), "*", moves=moves, comments=["c"] * len(moves)),
                                    game=game))
            found.append(path)
        return found

    def _zdata(self) -> Path:
        """Self-play training data of four Kalah games, with its progress sidecar."""
        path = self.root / "kalah.zdata"
        self._tool(["datagen", "kalah", "--games", "4", "--nodes", "50", "--out", str(path), "--concurrency", "1"])
        return path

    def _records(self) -> list[tuple[str, Path]]:
        """Records of tiny random-engine matches: PGN, PDN, a plain record, an N-player one."""
        found = []
        for game, ext, extra in (("chess", "pgn", ["--adjudicate", "maxplies=40"]), ("checkers", "pdn", []),
                                 ("connect4", "txt", []), ("rolit", "txt", ["--players", "3"])):
            path = self.root / f"records-{game}.{ext}"
            engines = []
            for i in range(3 if game == "rolit" else 2):
                engines += ["--engine", f"cmd=\"{RANDOM_ENGINE} {i + 1}\" name=r{i + 1}"]
            self._tool(["match", "--game", game, *extra, *engines, "--games", "2", "--depth", "1",
                        "--pgn", str(path), "--seed", "1"], timeout=120)
            found.append((game, path))
        return found


# -- kinds -----------------------------------------------------------------------------


@dataclass
class Case:
    """One mutated input: the files of a case directory and the file to be named."""

    label: str
    files: dict[str, bytes] = field(default_factory=dict)
    target: str = ""  # the file the error line must name (relative to the case directory)
    links: dict[str, Path] = field(default_factory=dict)  # intact files beside the mutant
    giants: dict[str, int] = field(default_factory=dict)  # sparse files: name -> size
    made: dict[str, Path] = field(default_factory=dict)  # files already written elsewhere (SQLite)
    changed: bool = True  # the content differs from the intact file (silence can be judged)
    game: str = ""
    extra: dict = field(default_factory=dict)
    specials: dict[str, str] = field(default_factory=dict)  # name -> "fifo" or a device it links to

    def write(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for name, what in self.specials.items():
            if what == "fifo":
                os.mkfifo(folder / name)
            else:
                (folder / name).symlink_to(what)
        for name, data in self.files.items():
            (folder / name).write_bytes(data)
        for name, src in self.links.items():
            (folder / name).symlink_to(src)
        for name, src in self.made.items():
            shutil.move(str(src), folder / name)
        for name, size in self.giants.items():
            with open(folder / name, "ab") as f:
                f.truncate(size)


class Kind:
    name = ""
    #: Scores are compared with the intact files' (tables only).
    judge_silent = False

    def __init__(self, seeds: Seeds):
        self.seeds = seeds

    def make(self, rng: random.Random, scratch: Path) -> Case:
        raise NotImplementedError

    def run(self, case: Case, folder: Path, ctx: Runner) -> Result:
        raise NotImplementedError


class ServerKind(Kind):
    """A kind loaded by the server: option lines, then positions and ``go`` lines."""

    def setup(self, case: Case, folder: Path) -> list[str]:
        raise NotImplementedError

    def searches(self, case: Case) -> list[tuple[str, str]]:
        raise NotImplementedError

    def reset(self) -> list[str]:
        raise NotImplementedError

    def run(self, case: Case, folder: Path, ctx: Runner) -> Result:
        result = ctx.server_session(self.setup(case, folder), self.searches(case), self.reset())
        target = str(folder / case.target)
        if result.outcome == "ok":
            errors = [line for line in result.output.splitlines() if line.startswith("info string error")]
            names = {target, case.target, Path(case.target).name, case.extra.get("also_name", "\0")}
            if len(errors) > 1:
                result.outcome, result.detail = "noisy", f"{len(errors)} error lines: {errors[:3]}"
            elif errors and not any(n in errors[0] for n in names):
                result.outcome, result.detail = "unnamed", errors[0][:300]
            elif not errors and self.judge_silent and case.changed:
                base = ctx.baseline(self, case)
                if base is not None and base != result.extra:
                    result.outcome = "silent"
                    result.detail = f"scores {result.extra} without a word; intact file gives {base}"
        return result


def pick_mutation(data: bytes, rng: random.Random, aware, giant_ok: bool = True) -> tuple[bytes | None, str]:
    """The mutant of ``data``: format-aware, generic bytes, or (``None``) a sparse giant."""
    r = rng.random()
    if giant_ok and r < 0.03:
        return None, "sparse-3GB"
    if aware is not None and r < 0.6:
        return aware(data, rng)
    return mutate_bytes(data, rng)


#: Share of the cases whose file (or sidecar) becomes a FIFO or a device.
SPECIAL_RATE = 0.05
#: What such a file becomes: a FIFO nobody writes (an open for reading blocks for ever),
#: endless zeros, endless random bytes, an empty device.
SPECIALS = ("fifo", "/dev/zero", "/dev/urandom", "/dev/null")


def make_special(case: Case, rng: random.Random, name: str | None = None) -> Case:
    """``case`` with its target (or ``name``) made a FIFO or a link to a device."""
    name = name or case.target
    what = rng.choice(SPECIALS)
    for table in (case.files, case.links, case.giants, case.made):
        table.pop(name, None)
    case.specials[name] = what
    case.label = f"{what}:{name if name != case.target else 'target'}"
    case.changed = True
    return case


class BookKind(ServerKind):
    """zermelo books (SQLite) through ``BookFile``, with ``OwnBook`` on."""

    name = "zbook"

    def make(self, rng: random.Random, scratch: Path) -> Case:
        game, src = rng.choice(self.seeds.get("books"))
        target = f"book-{rng.getrandbits(32):08x}.zbook"
        if rng.random() < 0.55:
            made = scratch / target
            label = mutate_sqlite(src, made, rng)
            return Case(label, target=target, made={target: made}, game=game)
        data, label = pick_mutation(src.read_bytes(), rng, None)
        if rng.random() < 0.05:  # another game's intact book, or a Polyglot file under the name
            other = rng.choice(self.seeds.get("books") + [("chess", p) for p in self.seeds.get("polyglot")])[1]
            data, label = other.read_bytes(), f"swap:{other.name}"
        if data is None:
            return Case(label, target=target, giants={target: GIANT}, game=game)
        return Case(label, {target: data}, target=target, game=game)

    def setup(self, case: Case, folder: Path) -> list[str]:
        return [f"setoption name UCI_Variant value {case.game}", "setoption name OwnBook value true",
                f"setoption name BookFile value {folder / case.target}"]

    def searches(self, case: Case) -> list[tuple[str, str]]:
        return [("position startpos", "go depth 2"), ("position startpos", "go movetime 50")]

    def reset(self) -> list[str]:
        return ["setoption name BookFile value <empty>", "setoption name OwnBook value false"]


class PolyglotKind(BookKind):
    name = "polyglot"

    def make(self, rng: random.Random, scratch: Path) -> Case:
        src = rng.choice(self.seeds.get("polyglot"))
        target = f"book-{rng.getrandbits(32):08x}.bin"
        data, label = pick_mutation(src.read_bytes(), rng, mutate_polyglot)
        if data is None:
            return Case(label, target=target, giants={target: GIANT}, game="chess")
        return Case(label, {target: data}, target=target, game="chess")


def mutate_polyglot(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """Entry-level damage: unsorted keys, odd moves and weights, a ragged length."""
    entries = [bytearray(data[i:i + 16]) for i in range(0, len(data) - 15, 16)]
    if not entries:
        return mutate_bytes(data, rng)
    op = rng.randrange(5)
    if op == 0:
        rng.shuffle(entries)
        return b"".join(entries), "unsorted"
    if op == 1:
        for e in rng.sample(entries, min(len(entries), 5)):
            e[8:10] = rng.randbytes(2)
        return b"".join(entries), "random-moves"
    if op == 2:
        for e in entries:
            e[10:12] = rng.choice([b"\x00\x00", b"\xff\xff"])
        return b"".join(entries), "weights"
    if op == 3:
        return data + rng.randbytes(rng.randrange(1, 16)), "ragged"
    # Keys of the start position with every move: the key right, the moves wrong.
    start = entries[0][:8]
    return b"".join(bytes(start) + struct.pack(">HHI", m, 1, 0) for m in range(0, 65536, 97)), "start-key-junk"


class TableKind(ServerKind):
    """zermelo's own tables through ``TablePath``: one file mutated (or swapped into
    another's name) in a directory with the others intact."""

    judge_silent = True
    seed_name = ""
    game = ""
    positions: list[str] = []
    go = "go depth 3"

    def files(self) -> list[Path]:
        return sorted(p for p in self.seeds.get(self.seed_name).iterdir() if p.is_file())

    def pick(self, files: list[Path], rng: random.Random) -> Path:
        return rng.choice(files)

    def make(self, rng: random.Random, scratch: Path) -> Case:
        files = self.files()
        src = self.pick(files, rng)
        links = {p.name: p.resolve() for p in files if p != src}
        target = src.name
        if rng.random() < 0.1 and len(files) > 1:
            other = rng.choice([p for p in files if p != src])
            return Case(f"swap:{other.name}->{src.name}", {target: other.read_bytes()}, target=target,
                        links=links, game=self.game)
        raw = src.read_bytes()
        if target.endswith(".xz"):
            return self._xz_case(raw, target, links, rng)
        data, label = pick_mutation(raw, rng, mutate_ztb)
        if data is None:
            return Case(label, target=target, links=links, giants={target: GIANT}, game=self.game)
        return Case(label, {target: data}, target=target, links=links, game=self.game, changed=data != raw)

    def _xz_case(self, raw: bytes, target: str, links: dict, rng: random.Random) -> Case:
        plain = lzma.decompress(raw)
        r = rng.random()
        if r < 0.15:
            # Zeros after an intact header and payload, or after the header alone.
            header, payload = ztb_split(plain)
            keep = plain if rng.random() < 0.5 else plain[:len(plain) - len(payload)]
            data, label = xz_bomb(keep, 3), "xz-bomb-3GB"
        elif r < 0.2:
            data, label = xz_bomb(b"", 3), "xz-bomb-zeros"
        elif r < 0.6:
            mutated, label = mutate_ztb(plain, rng)
            data, label = lzma.compress(mutated), "xz(" + label + ")"
        else:
            data, label = mutate_bytes(raw, rng)
        # The .ztb beside it would be preferred or equal; only the .xz is in play.
        links = {k: v for k, v in links.items() if not target.startswith(k)}
        return Case(label, {target: data}, target=target, links=links, game=self.game)

    def setup(self, case: Case, folder: Path) -> list[str]:
        return [f"setoption name UCI_Variant value {self.game}", f"setoption name TablePath value {folder}"]

    def searches(self, case: Case) -> list[tuple[str, str]]:
        return [(f"position fen {p}", self.go) for p in self.positions]

    def reset(self) -> list[str]:
        return ["setoption name TablePath value <empty>"]


class ChessTableKind(TableKind):
    name, seed_name, game = "ztb-chess", "chess-tables", "chess"
    positions = ["8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "8/8/3k4/8/8/8/8/1R2K3 b - - 0 1"]


class DraughtsTableKind(TableKind):
    name, seed_name, game = "ztb-draughts", "draughts-tables", "checkers"
    positions = ["B:W21:B1", "W:WK21:B6", "B:WK30:BK3"]


class KalahTableKind(TableKind):
    name, seed_name, game = "ztb-kalah", "kalah-tables", "kalah"
    positions = ["1,0,0,0,0,1,20/0,0,1,1,0,2,22 1", "0,2,0,0,1,0,21/1,0,0,0,1,0,22 2"]

    def pick(self, files: list[Path], rng: random.Random) -> Path:
        # The shipped table as a seed too, now and then (it takes a second to decompress).
        shipped = sorted((REPO / "games" / "tables").glob("kalah-*.ztb*"))
        return rng.choice(shipped) if shipped and rng.random() < 0.15 else rng.choice(files)

    def make(self, rng: random.Random, scratch: Path) -> Case:
        # Alone in its directory: the file with the most seeds is the one read (the
        # ``.xz`` twin of a ``.ztb`` would be chosen over it).
        case = super().make(rng, scratch)
        case.links = {}
        return case


def random_fen(material: str, rng: random.Random) -> str | None:
    """A legal position of a Syzygy material (``KBNvK``) with either side to move, not over."""
    import chess

    white, black = material.split("v")
    for _ in range(2000):
        board = chess.Board(None)
        squares = rng.sample(range(64), len(white) + len(black))
        ok = True
        for color, pieces in ((chess.WHITE, white), (chess.BLACK, black)):
            for letter in pieces:
                sq = squares.pop()
                if letter == "P" and chess.square_rank(sq) in (0, 7):
                    ok = False
                board.set_piece_at(sq, chess.Piece.from_symbol(letter if color else letter.lower()))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if ok and board.is_valid() and not board.is_game_over():
            return board.fen()
    return None


class SyzygyKind(TableKind):
    """Syzygy files through ``SyzygyPath``: one file of the directory mutated, or another's
    content (or its DTZ twin) under its name; the position searched has its material."""

    name, game = "syzygy", "chess"
    go = "go depth 2"

    def files(self) -> list[Path]:
        folder = self.seeds.get("syzygy")
        return sorted(p for p in folder.iterdir() if p.suffix in (".rtbw", ".rtbz")) if folder else []

    def make(self, rng: random.Random, scratch: Path) -> Case:
        files = self.files()
        src = rng.choice(files)
        links = {p.name: p.resolve() for p in files if p != src}
        raw = src.read_bytes()
        r = rng.random()
        if r < 0.12:
            other = rng.choice([p for p in files if p.suffix == src.suffix and p != src])
            data, label = other.read_bytes(), f"swap:{other.name}->{src.name}"
        elif r < 0.18:
            twin = src.with_suffix(".rtbz" if src.suffix == ".rtbw" else ".rtbw")
            data, label = twin.read_bytes(), f"role:{twin.name}->{src.name}"
        else:
            data, label = pick_mutation(raw, rng, None)
        material = src.stem
        fens = [f for f in (random_fen(material, rng) for _ in range(2)) if f]
        case = Case(label, target=src.name, links=links, game="chess", changed=data != raw,
                    extra={"fens": fens, "also_name": material})
        if data is None:
            case.giants[src.name] = GIANT
        else:
            case.files[src.name] = data
        return case

    def setup(self, case: Case, folder: Path) -> list[str]:
        return ["setoption name UCI_Variant value chess", f"setoption name SyzygyPath value {folder}"]

    def searches(self, case: Case) -> list[tuple[str, str]]:
        return [(f"position fen {f}", self.go) for f in case.extra["fens"]]

    def reset(self) -> list[str]:
        return ["setoption name SyzygyPath value <empty>"]


class ToolKind(Kind):
    """A kind read by a ``zermelo`` command line."""

    timeout_factor = 1.0

    def command(self, case: Case, folder: Path) -> list[str]:
        raise NotImplementedError

    def run(self, case: Case, folder: Path, ctx: Runner) -> Result:
        args = self.command(case, folder)
        transcript = "cd " + shlex.quote(str(folder)) + " && zermelo " + shlex.join(args)
        rc, out = run_tool(args, folder, ctx.timeout * self.timeout_factor, ctx.memory_mb)
        res = Result("ok", transcript=transcript, output=out)
        bad = classify_text(out)
        target = case.target
        if rc is None:
            res.outcome, res.detail = "hang", (f"no exit (no CPU used for {ctx.timeout * self.timeout_factor:.0f} s, "
                                               "or that much used)")
        elif bad:
            res.outcome, res.detail = bad, last_lines(out)
        elif rc < 0:
            res.outcome, res.detail = "crash", f"killed by signal {-rc}"
        elif rc != 0 and not out.strip():
            res.outcome, res.detail = "unnamed", f"exit status {rc} without a word"
        else:
            errors = [line for line in out.splitlines() if "error:" in line.lower()]
            if errors and not any(target in line or Path(target).name in line for line in errors):
                res.outcome, res.detail = "unnamed", errors[0][:300]
        return res


def last_lines(text: str, n: int = 6) -> str:
    """The exception line of the first traceback in ``text``, else its last lines."""
    lines = text.strip().splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Traceback"):
            for after in lines[i + 1:]:
                if after and not after.startswith(" "):
                    return after[:800]
    return " | ".join(lines[-n:])[-800:]


class TextFileKind(ToolKind):
    """Text files (or a binary book) mutated line- or byte-wise; ``sources`` lists
    ``(game, seed path)``."""

    def sources(self) -> list[tuple[str, Path]]:
        raise NotImplementedError

    def make(self, rng: random.Random, scratch: Path) -> Case:
        game, src = rng.choice(self.sources())
        target = f"input-{rng.getrandbits(32):08x}{''.join(src.suffixes)}"
        raw = src.read_bytes()
        if src.suffix in (".bin",):
            data, label = pick_mutation(raw, rng, mutate_polyglot)
        elif src.suffix == ".zbook":
            made = scratch / target
            label = mutate_sqlite(src, made, rng)
            return Case(label, target=target, made={target: made}, game=game)
        else:
            data, label = pick_mutation(raw, rng, mutate_text, giant_ok=rng.random() < 0.3)
        if data is None:
            return Case(label, target=target, giants={target: GIANT}, game=game)
        return Case(label, {target: data}, target=target, game=game)


class OpeningsKind(TextFileKind):
    """``zermelo match --openings FILE`` with two random-move engines, two short games."""

    name = "openings"
    timeout_factor = 2.0

    def sources(self) -> list[tuple[str, Path]]:
        found = [("chess", self.seeds.get("epd")), ("chess", self.seeds.get("pgn")),
                 ("checkers", self.seeds.get("checkers-openings"))]
        found += [("chess", p) for p in self.seeds.get("polyglot")]
        found += [(g, p) for g, p in self.seeds.get("books") if g == "connect4"]
        return found

    def command(self, case: Case, folder: Path) -> list[str]:
        return ["match", "--game", case.game, "--openings", case.target, "--games", "2", "--depth", "1",
                "--opening-plies", "6", "--adjudicate", "maxplies=12", "--seed", "1",
                "--engine", f"cmd=\"{RANDOM_ENGINE} 1\" name=a", "--engine", f"cmd=\"{RANDOM_ENGINE} 2\" name=b"]


class ReplayKind(TextFileKind):
    """``zermelo match --replay FILE`` on mutated records (PGN, PDN, plain, N-player)."""

    name = "replay"

    def sources(self) -> list[tuple[str, Path]]:
        return self.seeds.get("records") + [("chess", self.seeds.get("pgn"))]

    def command(self, case: Case, folder: Path) -> list[str]:
        return ["match", "--replay", case.target]


class BookImportKind(TextFileKind):
    """``zermelo book build GAME --source games --input FILE`` on mutated records."""

    name = "book-import"

    def sources(self) -> list[tuple[str, Path]]:
        return [(g, p) for g, p in self.seeds.get("records") if g != "rolit"] + [("chess", self.seeds.get("pgn"))]

    def command(self, case: Case, folder: Path) -> list[str]:
        return ["book", "build", case.game, "--source", "games", "--input", case.target, "--out", "out.zbook",
                "--plies", "6", "--min-games", "1"]


class TablesInfoKind(ToolKind):
    """``zermelo tables info FILE`` on mutated tables of every game (``.ztb``, ``.ztb.xz``)."""

    name = "tables-info"

    def make(self, rng: random.Random, scratch: Path) -> Case:
        kind = rng.choice([ChessTableKind, DraughtsTableKind, KalahTableKind])(self.seeds)
        case = kind.make(rng, scratch)
        case.links = {}
        return case

    def command(self, case: Case, folder: Path) -> list[str]:
        return ["tables", "info", case.target]


class BookToolsKind(TextFileKind):
    """``zermelo book stats FILE`` and ``book show GAME FILE`` on mutated books."""

    name = "book-tools"

    def sources(self) -> list[tuple[str, Path]]:
        return self.seeds.get("books") + [("chess", p) for p in self.seeds.get("polyglot")]

    def make(self, rng: random.Random, scratch: Path) -> Case:
        case = super().make(rng, scratch)
        case.extra["show"] = rng.random() < 0.5
        return case

    def command(self, case: Case, folder: Path) -> list[str]:
        if case.extra["show"]:
            return ["book", "show", case.game, case.target]
        return ["book", "stats", case.target]


class EvalFileKind(ServerKind):
    """Networks through ``EvalFile``: the shipped ones mutated, giants, FIFOs and devices."""

    name = "eval-file"

    def make(self, rng: random.Random, scratch: Path) -> Case:
        game, src = rng.choice(self.seeds.get("nets"))
        target = f"net-{rng.getrandbits(32):08x}.znn"
        data, label = pick_mutation(src.read_bytes(), rng, None)
        if rng.random() < 0.05:  # another game's intact network
            other = rng.choice(self.seeds.get("nets"))[1]
            data, label = other.read_bytes(), f"swap:{other.name}"
        if data is None:
            return Case(label, target=target, giants={target: GIANT}, game=game)
        return Case(label, {target: data}, target=target, game=game)

    def setup(self, case: Case, folder: Path) -> list[str]:
        return [f"setoption name UCI_Variant value {case.game}",
                f"setoption name EvalFile value {folder / case.target}"]

    def searches(self, case: Case) -> list[tuple[str, str]]:
        return [("position startpos", "go depth 2")]

    def reset(self) -> list[str]:
        return ["setoption name EvalFile value <empty>"]


class GtpSgfKind(Kind):
    """SGF files through GTP's ``loadsgf`` (``zermelo gtp``): then ``genmove``,
    ``showboard`` and ``name`` must be answered; a refusal is one ``?`` naming the file."""

    name = "gtp-sgf"

    def make(self, rng: random.Random, scratch: Path) -> Case:
        src = rng.choice(self.seeds.get("sgfs"))
        target = f"game-{rng.getrandbits(32):08x}.sgf"
        data, label = pick_mutation(src.read_bytes(), rng, mutate_text, giant_ok=rng.random() < 0.3)
        if data is None:
            return Case(label, target=target, giants={target: GIANT}, game="go")
        return Case(label, {target: data}, target=target, game="go")

    def run(self, case: Case, folder: Path, ctx: Runner) -> Result:
        return ctx.gtp_session(["1 boardsize 9", f"2 loadsgf {folder / case.target}", "3 genmove b",
                                "4 showboard", "5 name"], loaded=2, target=case.target)


def nested_json(rng: random.Random) -> tuple[bytes, str]:
    """A hostile progress sidecar: deep nesting, huge or wrong values, junk."""
    depth = rng.choice([1000, 100_000])
    return rng.choice([
        (b"[" * depth, f"nested-[{depth}"),
        (b'{"a":' * depth + b"1" + b"}" * depth, f"nested-{{{depth}"),
        (json.dumps({"games": 10 ** 30, "positions": 10 ** 30, "bytes": 10 ** 30}).encode(), "huge-counts"),
        (json.dumps({"games": -1, "positions": "x", "bytes": 1.5, "settings": []}).encode(), "wrong-types"),
        (b"9" * 5_000_000, "huge-number"),
        (rng.randbytes(200), "junk"),
    ])


class ZdataKind(ToolKind):
    """Training data (``.zdata``) and its progress sidecar through ``zermelo train`` and
    ``zermelo datagen``'s resume: mutated records, millions of valid empty records (a
    sparse file after a real header), and hostile sidecars (deep JSON, huge numbers,
    a FIFO or a device)."""

    name = "zdata"

    def make(self, rng: random.Random, scratch: Path) -> Case:
        src = self.seeds.get("zdata")
        data = src.read_bytes()
        target = f"data-{rng.getrandbits(32):08x}.zdata"
        sidecar = target + ".progress"
        side = Path(str(src) + ".progress").read_bytes()
        case = Case("intact", {target: data, sidecar: side}, target=target, game="kalah")
        r = rng.random()
        if r < 0.35:
            case.files[target], case.label = mutate_bytes(data, rng)
            if rng.random() < 0.5:
                del case.files[sidecar]
        elif r < 0.6:
            # Valid empty records (counts 0, score 0, result 0: five zero bytes) by the million.
            header = 5 + 1 + 1 + data[6] + 1 + data[7 + data[6]] + 4
            records = rng.choice([2_000_000, 20_000_000, 200_000_000])
            case.files = {target: data[:header]}
            case.giants = {target: header + 5 * records}
            case.label = f"empty-records-{records}"
        elif r < 0.85:
            case.files[sidecar], case.label = nested_json(rng)
        else:
            case = make_special(case, rng, sidecar)
        case.extra["datagen"] = rng.random() < 0.3
        return case

    def command(self, case: Case, folder: Path) -> list[str]:
        if case.extra["datagen"]:
            return ["datagen", "kalah", "--games", "6", "--nodes", "30", "--out", case.target, "--concurrency", "1"]
        return ["train", "kalah", "--data", case.target, "--out", "out.znn", "--epochs", "1", "--acc", "8",
                "--batch", "64", "--trainer", "numpy"]


KINDS = {k.name: k for k in (BookKind, PolyglotKind, ChessTableKind, DraughtsTableKind, KalahTableKind, SyzygyKind,
                             OpeningsKind, ReplayKind, BookImportKind, TablesInfoKind, BookToolsKind,
                             EvalFileKind, GtpSgfKind, ZdataKind)}


# -- the run ---------------------------------------------------------------------------


class Runner:
    def __init__(self, work: Path, out: Path, timeout: float, memory_mb: int):
        self.work, self.out, self.timeout, self.memory_mb = work, out, timeout, memory_mb
        self.server: Server | None = None
        self.gtp: Server | None = None
        self.baselines: dict[tuple, list[str] | None] = {}

    def ensure_server(self) -> Server:
        if self.server is None or self.server.proc.poll() is not None:
            if self.server is not None:
                self.server.close()
            self.server = Server(self.memory_mb)
            self.server.send("uci")
            seen: list[str] = []
            if not self.server.until(lambda line: line == "uciok", self.timeout, seen):
                raise RuntimeError("the server did not start: " + " | ".join(seen[-5:]) + "".join(self.server.stderr))
        return self.server

    def restart(self) -> None:
        if self.server is not None:
            kill_group(self.server.proc)
            self.server = None

    def server_session(self, setup: list[str], searches: list[tuple[str, str]], reset: list[str]) -> Result:
        """Send the lines; ``Result.extra`` holds each go's last score."""
        server = self.ensure_server()
        sent: list[str] = []
        seen: list[str] = []

        def send(line: str) -> None:
            sent.append(line)
            server.send(line)

        def ready() -> bool:
            send("isready")
            return server.until(lambda line: line == "readyok", self.timeout, seen)

        res = Result("ok")
        scores: list[str] = []
        for line in ["ucinewgame", "setoption name Clear Hash"] + setup:
            send(line)
        ok = ready()
        gos = bestmoves = 0
        waited = "isready"
        if ok:
            for position, go in searches:
                send(position)
                send(go)
                gos += 1
                start = len(seen)
                if not server.until(lambda line: line.startswith("bestmove"), self.timeout, seen):
                    ok, waited = False, f"{position!r}, {go!r}"
                    break
                bestmoves += 1
                infos = [line for line in seen[start:] if line.startswith("info") and " score " in line]
                scores.append(infos[-1].split(" score ")[1].split(" nodes")[0] if infos else "-")
            send("stop")
            ok = ok and ready()
            server.drain(seen, 0.05)
            bestmoves = sum(line.startswith("bestmove") for line in seen)
        for line in reset:
            send(line)
        ok = ok and ready()
        output = "\n".join(seen)
        err = "".join(server.stderr)
        res.transcript, res.output, res.extra = "\n".join(sent), output + ("\n[stderr]\n" + err if err else ""), scores
        bad = classify_text(output + err)
        alive = server.proc.poll() is None
        if bad:
            res.outcome, res.detail = bad, last_lines(output + "\n" + err)
        elif not alive:
            code = server.proc.returncode
            res.outcome = "memory" if code in (-9, -6) else "crash"
            res.detail = f"server exited with {code}: {last_lines(err or output)}"
        elif not ok:
            res.outcome, res.detail = "hang", (f"no answer to {waited} (no CPU used for {self.timeout:.0f} s, "
                                               "or that much used)")
        elif bestmoves != gos:
            res.outcome, res.detail = "lost-bestmove", f"{gos} go, {bestmoves} bestmove"
        elif err:
            res.outcome, res.detail = "stderr", err[-300:]
        if res.outcome != "ok":
            self.restart()
        return res

    def gtp_session(self, commands: list[str], loaded: int, target: str) -> Result:
        """Send numbered GTP commands to a ``zermelo gtp`` (kept from case to case until
        a failure), each answered before the next; command number ``loaded`` may be
        refused, in one answer naming ``target``, every other must be accepted."""
        if self.gtp is None or self.gtp.proc.poll() is not None:
            self.gtp = Server(self.memory_mb, ("gtp", "--movetime", "50"))
        server = self.gtp
        seen: list[str] = []
        res = Result("ok", transcript="\n".join(commands))
        waited = ""
        answers: dict[int, str] = {}
        for command in commands:
            server.send(command)
            number = int(command.split()[0])
            if not server.until(lambda line: line[:1] in "=?" and line[1:].split(" ")[0] == str(number),
                                self.timeout, seen):
                waited = command
                break
            answers[number] = seen[-1]
            server.until(lambda line: line == "", self.timeout, seen)
        err = "".join(server.stderr)
        output = "\n".join(seen)
        res.output = output + ("\n[stderr]\n" + err if err else "")
        bad = classify_text(output + err)
        if bad:
            res.outcome, res.detail = bad, last_lines(output + "\n" + err)
        elif server.proc.poll() is not None:
            code = server.proc.returncode
            res.outcome = "memory" if code in (-9, -6) else "crash"
            res.detail = f"server exited with {code}: {last_lines(err or output)}"
        elif waited:
            res.outcome, res.detail = "hang", (f"no answer to {waited!r} (no CPU used for {self.timeout:.0f} s, "
                                               "or that much used)")
        else:
            refused = {n: a for n, a in answers.items() if a.startswith("?")}
            if set(refused) - {loaded}:
                res.outcome, res.detail = "noisy", f"refused after the load: {list(refused.values())[:3]}"
            elif loaded in refused and Path(target).name not in refused[loaded]:
                res.outcome, res.detail = "unnamed", refused[loaded][:300]
        if res.outcome != "ok":
            kill_group(server.proc)
            self.gtp = None
        else:
            server.stderr.clear()
        return res

    def baseline(self, kind: ServerKind, case: Case) -> list[str] | None:
        """The scores the same searches give with the intact files (cached)."""
        key = (kind.name, tuple(kind.searches(case)))
        if key not in self.baselines:
            folder = Path(tempfile.mkdtemp(prefix="base-", dir=self.work))
            intact = Case("intact", target=case.target, game=case.game, extra=case.extra,
                          links={p.name: p.resolve() for p in kind.files()})
            intact.write(folder)
            res = self.server_session(kind.setup(intact, folder), kind.searches(intact), kind.reset())
            errors = "info string error" in res.output
            self.baselines[key] = res.extra if res.outcome == "ok" and not errors else None
            shutil.rmtree(folder, ignore_errors=True)
        return self.baselines[key]

    def save(self, kind: Kind, index: int, case: Case, folder: Path, res: Result) -> Path:
        dest = self.out / kind.name / f"{index:04d}-{res.outcome}"
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir(parents=True)
        notes = []
        for name, what in case.specials.items():
            notes.append(f"mkfifo {shlex.quote(name)}" if what == "fifo" else f"ln -s {what} {shlex.quote(name)}")
        for path in folder.iterdir():
            # The intact files beside the mutant are copied too: the seeds go with the run.
            if path.name in case.specials:
                continue
            if path.is_file() and path.stat().st_size > SAVE_LIMIT:
                if path.name in case.giants:
                    notes.append(f"truncate -s {path.stat().st_size} {shlex.quote(path.name)}  # sparse")
                else:
                    notes.append(f"# {path.name}: {path.stat().st_size} bytes, not kept")
            elif path.is_file():
                shutil.copyfile(path, dest / path.name)
        how = ("server lines (python -m protocol):" if isinstance(kind, ServerKind) else
               "GTP lines (python -m protocol gtp):" if isinstance(kind, GtpSgfKind) else "command:")
        text = (f"kind {kind.name}, mutation {case.label}\noutcome {res.outcome}: {res.detail}\n"
                f"case directory was {folder}; its files are here, but for:\n"
                + "".join(f"  {n}\n" for n in notes)
                + f"(run it from this directory with {folder} replaced by it)\n\n{how}\n{res.transcript}\n\noutput:\n{res.output[-6000:]}\n")
        (dest / "repro.txt").write_text(text, errors="replace")
        return dest


@dataclass
class Tally:
    counts: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)


def run(kinds: list[str], seconds_per_kind: float, seed: int, out: Path, timeout: float = 30.0,
        memory_mb: int = 2048, min_cases: int = 1, verbose: bool = True) -> dict[str, Tally]:
    """Fuzz each kind for ``seconds_per_kind`` (at least ``min_cases`` inputs); returns
    the counts per kind. Failing inputs are saved under ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="fuzz-files-"))
    seeds = Seeds(work / "seeds", memory_mb)
    seeds.root.mkdir()
    runner = Runner(work, out, timeout, memory_mb)
    tallies: dict[str, Tally] = {}
    try:
        for name in kinds:
            kind = KINDS[name](seeds)
            rng = random.Random(f"{seed}:{name}")
            tally = tallies[name] = Tally()
            if isinstance(kind, TableKind) and not kind.files():
                print(f"{name}: no seed files, skipped", flush=True)
                continue
            kind.make(random.Random(0), work)  # seeds are built outside the kind's clock
            end = time.monotonic() + seconds_per_kind
            index = 0
            while index < min_cases or time.monotonic() < end:
                folder = work / f"{name}-{index:04d}"
                case = kind.make(rng, work)
                if rng.random() < SPECIAL_RATE:
                    case = make_special(case, rng)
                case.write(folder)
                res = kind.run(case, folder, runner)
                tally.counts["tried"] += 1
                tally.counts[res.outcome] += 1
                if res.outcome != "ok":
                    saved = runner.save(kind, index, case, folder, res)
                    line = f"{name} #{index} {res.outcome} [{case.label}]: {res.detail[:300]} -> {saved}"
                    tally.failures.append(line)
                    if verbose:
                        print("FAIL", line, flush=True)
                shutil.rmtree(folder, ignore_errors=True)
                index += 1
            if verbose:
                print(summary_line(name, tally), flush=True)
    finally:
        for server in (runner.server, runner.gtp):
            if server is not None:
                server.close()
        shutil.rmtree(work, ignore_errors=True)
    return tallies


def summary_line(name: str, tally: Tally) -> str:
    c = tally.counts
    parts = [f"{c['tried']} tried", f"{c['ok']} ok"] + [f"{c[k]} {k}" for k in FAILURES if c[k] or k in
                                                          ("hang", "traceback", "memory")]
    return f"{name:13s} " + ", ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="total budget, split evenly across the kinds")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, of {','.join(KINDS)}")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="fuzz-files", help="directory for failing inputs")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per go/readyok, per tool run")
    parser.add_argument("--memory-mb", type=int, default=2048, help="address-space limit of every process")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        parser.error(f"unknown kinds {unknown}; known: {', '.join(KINDS)}")
    t0 = time.monotonic()
    tallies = run(kinds, args.minutes * 60 / len(kinds), args.seed, Path(args.out), args.timeout, args.memory_mb)
    total = Counter()
    print(f"\nseed {args.seed}, {time.monotonic() - t0:.0f} s; failing inputs under {args.out}/")
    for name, tally in tallies.items():
        print(summary_line(name, tally))
        total.update(tally.counts)
    failed = sum(total[k] for k in FAILURES)
    print(f"all: {total['tried']} tried, {total['ok']} ok, {failed} failed")
    for tally in tallies.values():
        for line in tally.failures:
            print("  -", line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
