"""Opening book measurements for the README.

    nice python scripts/book_gain.py probe  [--positions 100000]   # probe speed of book layouts
    nice python scripts/book_gain.py freq   [--draws 1000]         # Polyglot draws against the weights
    nice python scripts/book_gain.py variety [--games 20]          # distinct openings, book vs no book
    nice python scripts/book_gain.py match  [--games 40] [--movetime 100] [--only chess,connect4] [--concurrency 2]

``probe`` stores the same random book (``--positions`` keys, 1-4 moves each)
in zermelo's SQLite layout and in the alternatives, and times lookups of keys
in the book and of keys not in it (median of 5 rounds of 2,000 lookups).
``variety`` and ``match`` play ``zermelo match`` between the engine with its
book (``OwnBook``) and the same engine without, from the start position.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import json
import mmap
import os
import random
import re
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import chess
import chess.polyglot

import games
from engine import book as bk
from engine.engine import Engine

REPO = Path(__file__).resolve().parents[1]
POLYGLOT = REPO / "tests" / "data" / "polyglot" / "performance.bin"


# -- probe speed -------------------------------------------------------------------------


def _timed(fn, keys, rounds=5) -> float:
    """Median microseconds per call of ``fn(key)`` over ``keys``."""
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        for k in keys:
            fn(k)
        times.append((time.perf_counter() - t) / len(keys) * 1e6)
    return statistics.median(times)


def probe(args) -> None:
    rng = random.Random(1)
    book = {rng.getrandbits(64): [(m, rng.randint(1, 500)) for m in rng.sample(range(1 << 16), rng.randint(1, 4))]
            for _ in range(args.positions)}
    keys = list(book)
    hits = rng.sample(keys, 2000)
    misses = [rng.getrandbits(64) for _ in range(2000)]
    tmp = Path(tempfile.mkdtemp())
    rows = [(bk.sql_key(k), m, str(m), w) for k, ms in book.items() for m, w in ms]
    results = []

    def sqlite_layout(name, schema, query):
        path = tmp / f"{name}.db"
        conn = sqlite3.connect(path)
        conn.executescript(schema)
        conn.executemany("INSERT INTO moves(key, move, text, weight) VALUES (?, ?, ?, ?)", rows)
        conn.commit()
        conn.close()
        t = time.perf_counter()
        conn = sqlite3.connect(path.as_uri() + "?mode=ro", uri=True)
        opened = (time.perf_counter() - t) * 1e3
        fn = lambda k: conn.execute(query, (bk.sql_key(k),)).fetchall()  # noqa: E731
        results.append((name, path.stat().st_size, opened, _timed(fn, hits), _timed(fn, misses)))

    sqlite_layout("SQLite, WITHOUT ROWID primary key (zermelo)",
                  "CREATE TABLE moves(key INTEGER, move INTEGER, text TEXT, weight INTEGER, "
                  "PRIMARY KEY (key, move)) WITHOUT ROWID",
                  "SELECT move, text, weight FROM moves WHERE key = ? ORDER BY weight DESC")
    sqlite_layout("SQLite, rowid table + index on key",
                  "CREATE TABLE moves(key INTEGER, move INTEGER, text TEXT, weight INTEGER);"
                  "CREATE INDEX by_key ON moves(key)",
                  "SELECT move, text, weight FROM moves WHERE key = ? ORDER BY weight DESC")

    # JSON file loaded whole into a dict.
    path = tmp / "book.json"
    path.write_text(json.dumps({str(k): v for k, v in book.items()}))
    t = time.perf_counter()
    loaded = {int(k): v for k, v in json.loads(path.read_text()).items()}
    opened = (time.perf_counter() - t) * 1e3
    results.append(("JSON loaded into a dict", path.stat().st_size, opened,
                    _timed(lambda k: loaded.get(k, ()), hits), _timed(lambda k: loaded.get(k, ()), misses)))

    # Sorted 16-byte records, binary search over a memory map (the Polyglot layout).
    path = tmp / "book.bin"
    with open(path, "wb") as f:
        for k in sorted(book):
            for m, w in book[k]:
                f.write(struct.pack(">QHHI", k, m, w, 0))
    t = time.perf_counter()
    fd = os.open(path, os.O_RDONLY)
    mm = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
    n = len(mm) // 16

    class Keys:
        def __len__(self):
            return n

        def __getitem__(self, i):
            return struct.unpack_from(">Q", mm, i * 16)[0]

    view = Keys()
    opened = (time.perf_counter() - t) * 1e3

    def binary(k):
        i = bisect.bisect_left(view, k)
        out = []
        while i < n:
            key, m, w, _ = struct.unpack_from(">QHHI", mm, i * 16)
            if key != k:
                break
            out.append((m, w))
            i += 1
        return out

    results.append(("sorted records + bisect over mmap (Polyglot layout)", path.stat().st_size, opened,
                    _timed(binary, hits), _timed(binary, misses)))
    reader = chess.polyglot.MemoryMappedReader(path)
    results.append(("python-chess MemoryMappedReader.find_all on that file", path.stat().st_size, 0.0,
                    _timed(lambda k: list(reader.find_all(k)), hits),
                    _timed(lambda k: list(reader.find_all(k)), misses)))

    print(f"{args.positions:,} positions, {len(rows):,} entries")
    print("| layout | file bytes | open ms | hit µs | miss µs |\n|---|---:|---:|---:|---:|")
    for name, size, opened, hit, miss in results:
        print(f"| {name} | {size:,} | {opened:.1f} | {hit:.1f} | {miss:.1f} |")

    # The whole oracle on a real book: legality checks and the choice included.
    for name in ("chess", "connect4"):
        engine = Engine(games)
        engine.set_option("UCI_Variant", name)
        engine.set_option("OwnBook", "true")
        pos = engine.position
        from engine.timeman import Limits

        us = _timed(lambda _: engine.book_probe(engine.game, pos, Limits(), engine.context()), range(500))
        print(f"EngineBook probe, {name} start position (shipped book): {us:.0f} µs")
    engine = Engine(games)
    engine.set_option("OwnBook", "true")
    engine.set_option("BookFile", str(POLYGLOT))
    from engine.timeman import Limits

    us = _timed(lambda _: engine.book_probe(engine.game, engine.position, Limits(), engine.context()), range(500))
    print(f"EngineBook probe, chess start position (Polyglot performance.bin): {us:.0f} µs")


# -- frequencies -----------------------------------------------------------------------------


def freq(args) -> None:
    for line in ((), ("e2e4", "c7c5", "c2c3")):
        engine = Engine(games)
        engine.set_option("OwnBook", "true")
        engine.set_option("BookFile", str(POLYGLOT))
        engine.set_position(None, list(line))
        engine.book_probe.rng.seed(args.seed)
        board = chess.Board()
        for m in line:
            board.push_uci(m)
        weights = {e.move.uci(): e.weight for e in chess.polyglot.open_reader(POLYGLOT).find_all(board)}
        from engine.timeman import Limits

        counts = collections.Counter(engine.position.move_text(engine.book_probe(engine.game, engine.position,
                                                                                 Limits(), engine.context()).move)
                                     for _ in range(args.draws))
        total = sum(weights.values())
        chi2 = sum((counts[m] - args.draws * w / total) ** 2 / (args.draws * w / total) for m, w in weights.items())
        print(f"after {' '.join(line) or 'the start'}: {args.draws} draws, chi-square {chi2:.2f} "
              f"with {len(weights) - 1} degrees of freedom; unlisted moves: {set(counts) - set(weights) or 'none'}")
        print("| move | weight | expected % | drawn % |\n|---|---:|---:|---:|")
        for m, w in sorted(weights.items(), key=lambda t: -t[1]):
            print(f"| {m} | {w} | {100 * w / total:.1f} | {100 * counts[m] / args.draws:.1f} |")


# -- matches -----------------------------------------------------------------------------


def run_match(game: str, games_: int, movetime: int, pgn: Path, book_file: str | None = None,
              concurrency: int = 2) -> str:
    book = "option.OwnBook=true" + (f" option.BookFile={book_file}" if book_file else "")
    cmd = [sys.executable, "-m", "protocol.cli", "match", "--game", game,
           "--engine", f"cmd=zermelo name=book {book}", "--engine", "cmd=zermelo name=nobook",
           "--games", str(games_), "--movetime", str(movetime), "--concurrency", str(concurrency),
           "--openings", "startpos", "--pgn", str(pgn), "--adjudicate", "maxplies=300"]
    out = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(out.stderr)
    return out.stdout


def distinct_openings(pgn: Path, plies: int) -> tuple[int, int]:
    from protocol.records import read_records

    recs = read_records(pgn.read_text())
    return len({tuple(r.moves[:plies]) for r in recs}), len(recs)


def variety(args) -> None:
    pgn = Path(tempfile.mkdtemp()) / "variety.pgn"
    run_match("chess", args.games, args.movetime, pgn, str(POLYGLOT))
    for plies in (2, 4, 8):
        n, total = distinct_openings(pgn, plies)
        print(f"chess, book (performance.bin) vs no book, {total} games: {n} distinct openings of {plies} plies")
    pgn = Path(tempfile.mkdtemp()) / "variety-nobook.pgn"
    cmd = [sys.executable, "-m", "protocol.cli", "match", "--game", "chess", "--engine", "cmd=zermelo name=a",
           "--engine", "cmd=zermelo name=b", "--games", str(args.games), "--movetime", str(args.movetime),
           "--concurrency", "2", "--openings", "startpos", "--pgn", str(pgn), "--adjudicate", "maxplies=300"]
    subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=True)
    n, total = distinct_openings(pgn, 8)
    print(f"chess, no book on either side, {total} games: {n} distinct openings of 8 plies")


def match(args) -> None:
    names = args.only.split(",") if args.only else ["chess", "connect4", "reversi", "checkers", "kalah"]
    out_dir = Path(tempfile.mkdtemp())
    for name in names:
        t = time.monotonic()
        text = run_match(name, args.games, args.movetime, out_dir / f"{name}.pgn", concurrency=args.concurrency)
        row = re.search(r"^book\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+%)\s+(\S+ ± \S+)", text, re.M)
        n, total = distinct_openings(out_dir / f"{name}.pgn", 8)
        print(f"| {name} | {total} | {row.group(1)}/{row.group(2)}/{row.group(3)} | {row.group(4)} | "
              f"{row.group(5)} | {n} | {time.monotonic() - t:.0f} |", flush=True)
    print(f"records: {out_dir}", file=sys.stderr)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("probe")
    s.add_argument("--positions", type=int, default=100_000)
    s = sub.add_parser("freq")
    s.add_argument("--draws", type=int, default=1000)
    s.add_argument("--seed", type=int, default=1)
    s = sub.add_parser("variety")
    s.add_argument("--games", type=int, default=20)
    s.add_argument("--movetime", type=int, default=100)
    s = sub.add_parser("match")
    s.add_argument("--games", type=int, default=40)
    s.add_argument("--movetime", type=int, default=100)
    s.add_argument("--only", help="comma-separated games")
    s.add_argument("--concurrency", type=int, default=2, help="games played at once")
    args = p.parse_args()
    {"probe": probe, "freq": freq, "variety": variety, "match": match}[args.cmd](args)


if __name__ == "__main__":
    main()
