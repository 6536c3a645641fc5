"""Megabytes per second of the Syzygy checksum (games/chess/syzygy_checksum.py), in the
compiled and the pure build.

    nice -n 19 python scripts/syzygy_checksum_speed.py [--runs 5] [--mb 64] [--pure-mb 4]
                                                       [--builds compiled,pure]

Each run is a fresh process that verifies every file of ``tests/data/syzygy`` (4.4 MB,
70 files, through :class:`FileChecksum` as the engine does, files read from the page
cache) and hashes ``--mb`` megabytes of pseudo-random bytes held in memory (whole
16 MB chunks, the hashing alone); the pure build hashes ``--pure-mb``. Printed: the
median and the worst of ``--runs`` runs, per build, in MB/s (10^6 bytes).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

_CHILD = """
import random, sys, time
from pathlib import Path
from engine import build
from games.chess.syzygy_checksum import FileChecksum, checksum

megabytes = int(sys.argv[1])
files = sorted(Path(sys.argv[2]).iterdir())
t0 = time.perf_counter()
size = 0
for path in files:
    assert FileChecksum(str(path)).run() is None, path
    size += path.stat().st_size
files_rate = size / (time.perf_counter() - t0) / 1e6
data = random.Random(1).randbytes(megabytes * 1_000_000 // 64 * 64)
t0 = time.perf_counter()
checksum(data)
memory_rate = len(data) / (time.perf_counter() - t0) / 1e6
print(build.COMPILED, files_rate, memory_rate)
"""


def run(pure: bool, megabytes: int) -> tuple[bool, float, float]:
    env = dict(os.environ)
    env.pop("ZERMELO_PURE", None)
    if pure:
        env["ZERMELO_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", _CHILD, str(megabytes), str(REPO / "tests" / "data" / "syzygy")],
                         cwd=REPO, env=env, capture_output=True, text=True, check=True).stdout.split()
    return out[0] == "True", float(out[1]), float(out[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--mb", type=int, default=64, help="MB hashed in memory by the compiled build")
    parser.add_argument("--pure-mb", type=int, default=4, help="MB hashed in memory by the pure build")
    parser.add_argument("--builds", default="compiled,pure")
    args = parser.parse_args()
    for name in args.builds.split(","):
        pure = name == "pure"
        results = [run(pure, args.pure_mb if pure else args.mb) for _ in range(args.runs)]
        if not pure and not all(r[0] for r in results):
            print(f"{name}: the compiled build is not in use here (stale or missing); rebuild first", flush=True)
            continue
        files = [r[1] for r in results]
        memory = [r[2] for r in results]
        print(f"{name:8} files: median {statistics.median(files):8.1f} MB/s, worst {min(files):8.1f}   "
              f"memory: median {statistics.median(memory):8.1f} MB/s, worst {min(memory):8.1f}", flush=True)


if __name__ == "__main__":
    main()
