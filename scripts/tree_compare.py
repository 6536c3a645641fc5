"""This checkout against an earlier revision of itself, every game: no regression.

A change that should not alter play (a restructuring) is checked by matches of
the working tree's engine against the engine of ``--base``, checked out into a
temporary git worktree, with the working tree's match runner as referee. Each
game is played ``--games`` times (openings with two seeded random plies, both
colours) at ``--movetime`` ms per move; the script prints one row per game
(W/D/L of this tree, score, Elo ± 95 %) and removes the worktree.

    python scripts/tree_compare.py --base 47766c8 [--games 40] [--movetime 100] [--only chess,nim]
"""

from __future__ import annotations

import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games  # noqa: E402

#: The runner's closing table row of the first engine: ``new  W  D  L  score%  Elo ± x  LOS%``.
_ROW = re.compile(r"^new\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)%\s+(.*?)\s+[\d.]+%$")


def match(game: str, base_dir: pathlib.Path, args) -> str:
    """One game's match; returns its table row."""
    engine = "cmd='python -m protocol' name={name} dir={dir}"
    cmd = [sys.executable, "-m", "protocol", "match", "--game", game,
           "--engine", engine.format(name="new", dir=ROOT),
           "--engine", engine.format(name="base", dir=base_dir),
           "--games", str(args.games), "--movetime", str(args.movetime), "--concurrency", str(args.concurrency),
           "--random-plies", "2", "--seed", str(args.seed), "--margin-ms", "1000"]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False).stdout
    for line in out.splitlines():
        m = _ROW.match(line.strip())
        if m:
            w, d, loss, score, elo = m.groups()
            return f"| {game} | {w}/{d}/{loss} | {score} % | {elo} |"
    return f"| {game} | no result | | {out.strip().splitlines()[-1:] if out.strip() else 'no output'} |"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--base", required=True, help="the earlier revision (any git revision)")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--movetime", type=int, default=100, help="ms per move")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", help="comma-separated games (default: every game)")
    args = p.parse_args()
    names = args.only.split(",") if args.only else games.names()
    with tempfile.TemporaryDirectory() as tmp:
        base_dir = pathlib.Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", str(base_dir), args.base], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            print(f"this tree against {args.base}: {args.games} games per game, {args.movetime} ms per move")
            print("| game | W/D/L (this tree) | score | Elo ± 95 % |")
            print("|---|---|---|---|")
            for name in names:
                print(match(name, base_dir, args), flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base_dir)], cwd=ROOT, check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
