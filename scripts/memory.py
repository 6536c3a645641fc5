"""Memory of the real server against its ``Hash``: RSS <= base + Hash + 10 %.

For each build (compiled as built in place, and pure with ``ZERMELO_PURE=1``) and
each ``Hash`` size, a server is started, set to that ``Hash``, and runs one long
search that fills the table; its resident size (``VmRSS`` of
``/proc/<pid>/status``) is read after it. ``base`` is the same run with ``Hash 1``,
the 1 MB table taken off: the interpreter, the game and the search loaded, and
what a long search leaves with the allocator (a few MB whatever the table's size:
allocation churn, the chess pawn cache).

Usage: ``nice python scripts/memory.py [--game chess] [--hash 16 64 256] [--movetime 5000]``
(Linux only: it reads ``/proc``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))

from serverpipe import ServerPipe  # noqa: E402

MB = 1 << 20


def build_of(pure: bool) -> str:
    env = dict(os.environ, ZERMELO_PURE="1" if pure else "")
    out = subprocess.run([sys.executable, "-c", "import engine.build as b; print(b.describe())"], cwd=REPO,
                         env=env, capture_output=True, text=True).stdout
    return out.split()[0] if out else "?"


def measure(pure: bool, game: str, hash_mb: int, movetime: int) -> tuple[int, int]:
    """(resident bytes after a ``movetime`` search with ``Hash hash_mb``, its hashfull per mille)."""
    server = ServerPipe(pure)
    try:
        server.send("uci", f"setoption name UCI_Variant value {game}", f"setoption name Hash value {hash_mb}",
                    "setoption name OwnBook value false", "isready")
        server.until("readyok")
        server.send(f"go movetime {movetime}")
        lines = server.until("bestmove", timeout=movetime / 1000 + 60)
        hashfull = max((int(line.split(" hashfull ")[1].split()[0]) for line in lines if " hashfull " in line),
                       default=0)
        return server.rss(), hashfull
    finally:
        server.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="chess")
    parser.add_argument("--hash", type=int, nargs="+", default=[16, 64, 256])
    parser.add_argument("--movetime", type=int, default=5000, help="ms of the search that fills the table")
    args = parser.parse_args(argv)
    ok = True
    print(f"game {args.game}, a {args.movetime} ms search per server; MB = 2**20 bytes")
    print(f"{'build':<9} {'Hash':>5} {'base':>7} {'RSS':>7} {'base+Hash':>10} {'over':>7} {'hashfull':>9}")
    for pure in (False, True):
        build = build_of(pure)
        base = measure(pure, args.game, 1, args.movetime)[0] - MB
        for hash_mb in args.hash:
            rss, hashfull = measure(pure, args.game, hash_mb, args.movetime)
            over = (rss - base - hash_mb * MB) / (hash_mb * MB)
            verdict = "ok" if rss <= base + 1.1 * hash_mb * MB else "TOO BIG"
            ok &= verdict == "ok"
            print(f"{build:<9} {hash_mb:>5} {base / MB:>7.1f} {rss / MB:>7.1f} {base / MB + hash_mb:>10.1f} "
                  f"{over:>+7.1%} {hashfull:>9} {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
