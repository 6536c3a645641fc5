"""``zermelo bench``'s nodes per second against a long ``go``'s, on the same positions, in one run.

The bench times the search alone (:mod:`engine.bench`: the set-up, fresh tables and
their first touch, is timed apart), so its speed must be the speed the server
searches at. For each game this runs ``zermelo bench`` before and after one
server that searches every bench position with ``go movetime MS`` (analysis
mode: no book or table move), and compares the bench's nodes per second (the
mean of the two) with the server's (its last ``info`` lines' nodes over their
times, summed over the positions). Exit status 1 when a game's two figures
differ by more than ``--tolerance`` (10 % by default).

    nice python scripts/bench_vs_go.py                       # chess, 3 s a position
    nice python scripts/bench_vs_go.py chess reversi --movetime 5000 --depth 7

Timed figures: run on a quiet machine, or say what else ran.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import games

ROOT = Path(__file__).resolve().parents[1]


def bench(game: str, depth: int | None) -> int:
    """The nodes per second ``zermelo bench`` prints for ``game``."""
    extra = [] if depth is None else ["--depth", str(depth)]
    out = subprocess.run([sys.executable, "-m", "protocol", "bench", "--game", game, *extra], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    print("   " + out.strip().replace("\n", "\n   "))
    return int(re.search(r"Nodes/second: (\d+)", out).group(1))


def served(game: str, movetime: int) -> tuple[int, int]:
    """(nodes, milliseconds) of ``go movetime`` on every bench position, summed."""
    texts = list(games.load(game).bench_texts) or [None]
    proc = subprocess.Popen([sys.executable, "-m", "protocol", "--game", game], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None

    def send(line: str) -> None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def until(word: str) -> list[str]:
        lines = []
        while not (line := proc.stdout.readline()).startswith(word):
            if not line:
                raise RuntimeError("the server ended")
            lines.append(line)
        return lines

    send("uci")
    until("uciok")
    send("setoption name UCI_AnalyseMode value true")
    nodes = ms = 0
    for text in texts:
        send("ucinewgame")
        send("position startpos" if text is None else f"position fen {text}")
        send(f"go movetime {movetime}")
        last = [line for line in until("bestmove") if " nodes " in line][-1].split()
        nodes += int(last[last.index("nodes") + 1])
        ms += int(last[last.index("time") + 1])
    send("quit")
    proc.wait(30)
    return nodes, ms


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["chess"])
    parser.add_argument("--movetime", type=int, default=3000, help="ms of each go (default 3000)")
    parser.add_argument("--depth", type=int, help="bench depth (default: the game's)")
    parser.add_argument("--tolerance", type=float, default=0.10, help="largest relative gap (default 0.10)")
    args = parser.parse_args(argv)
    worst = 0.0
    for game in args.games:
        print(f"{game}:")
        before = bench(game, args.depth)
        nodes, ms = served(game, args.movetime)
        after = bench(game, args.depth)
        go_nps = nodes * 1000 // max(ms, 1)
        bench_nps = (before + after) // 2
        gap = bench_nps / go_nps - 1
        worst = max(worst, abs(gap))
        print(f"   go movetime {args.movetime}: {nodes:,} nodes in {ms:,} ms, {go_nps:,} nodes/s")
        print(f"   bench: {before:,} and {after:,} nodes/s, mean {bench_nps:,}: {gap:+.1%} against the go")
    print(f"largest gap {worst:.1%} (tolerance {args.tolerance:.0%})")
    return 0 if worst <= args.tolerance else 1


if __name__ == "__main__":
    sys.exit(main())
