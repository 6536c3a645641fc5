"""Self-play and strength matches for the non-chess games, and their tables.

Three suites, each a list of ``zermelo match`` runs (printed before they run;
records go to ``--out``):

- ``selfplay``: zermelo against itself on every registered game, 20 games at
  0.1 s per move, two random plies after the start so that games differ;
- ``strength``: zermelo against ``scripts/baseline_engine.py`` (plain
  alpha-beta, material-only evaluation), both at 1 s per move, 40 games, in
  checkers, reversi, kalah and connect4;
- ``mcts``: zermelo at 1 s per move against OpenSpiel's MCTS
  (``scripts/mcts_engine.py``) at a fixed number of simulations per move;
- ``soak``: zermelo against itself at 1 s + 0.01 s with no clock margin, 1000
  games over chess, checkers, Connect Four and Kalah (``SOAK_GAMES``): a hunt
  for time losses, illegal moves and crashes, not a strength measurement.

``report`` replays every record file of a directory with zermelo's rules
(``protocol.records.verify``, as ``zermelo match --replay``) and prints
one table row per file: W/D/L of the first engine named in the file, score,
Elo ± 95% (games independent), how the games ended, forfeits, and records
with problems.

    nice python scripts/strength.py selfplay --out runs/selfplay
    nice python scripts/strength.py strength --out runs/strength --only connect4,reversi
    python scripts/strength.py report runs/strength
"""

from __future__ import annotations

import argparse
import collections
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from protocol.records import read_records, verify  # noqa: E402
from protocol.match.stats import trinomial  # noqa: E402

BASELINE = 'cmd="python3 scripts/baseline_engine.py" name=baseline'
#: Simulations per move giving OpenSpiel's MCTS about a second on the measuring machine.
MCTS_SIMULATIONS = {"checkers": 800, "connect4": 1800, "kalah": 1100, "reversi": 500}
#: Two random plies after the start make the games differ (``--seed`` picks them); each
#: opening is played with both colours. The margin absorbs a loaded machine's late replies.
COMMON = ["--margin-ms", "1000", "--random-plies", "2"]
#: Games per game in the soak; a loss on time counts from the first millisecond over.
SOAK_GAMES = {"chess": 400, "checkers": 200, "connect4": 200, "kalah": 200}
SOAK = ["--tc", "1+0.01", "--concurrency", "2", "--random-plies", "4", "--margin-ms", "0"]


def _match(game: str, engines: list[str], extra: list[str], records: Path, seed: int = 1) -> list[str]:
    cmd = [sys.executable, "-m", "protocol", "match", "--game", game]
    for spec in engines:
        cmd += ["--engine", spec]
    return cmd + extra + COMMON + ["--seed", str(seed), "--pgn", str(records)]


def suite(name: str, out: Path, only: list[str] | None, games_n: int | None,
          seed: int = 1, zermelo: str = "zermelo") -> list[list[str]]:
    """The ``zermelo match`` command lines of a suite; ``zermelo`` is the command that
    starts the engine under test."""
    if name == "selfplay":
        names = games.names()
        return [_match(g, [f"cmd='{zermelo}' name=zA", f"cmd='{zermelo}' name=zB"],
                       ["--games", str(games_n or 20), "--movetime", "100", "--concurrency", "2"],
                       out / f"{g}.rec", seed) for g in names if not only or g in only]
    if name == "strength":
        names = ["connect4", "reversi", "kalah", "checkers"]
        return [_match(g, [f"cmd='{zermelo}' name=zermelo", BASELINE],
                       ["--games", str(games_n or 40), "--movetime", "1000", "--concurrency", "2"],
                       out / f"{g}.rec", seed) for g in names if not only or g in only]
    if name == "mcts":
        return [_match(g, [f"cmd='{zermelo}' name=zermelo movetime=1000",
                           f'cmd="python3 scripts/mcts_engine.py" name=mcts{n} nodes={n}'],
                       ["--games", str(games_n or 10), "--start-timeout", "30", "--concurrency", "1"],
                       out / f"{g}.rec", seed)
                for g, n in MCTS_SIMULATIONS.items() if not only or g in only]
    if name == "soak":
        # The later --margin-ms and --random-plies override COMMON's (argparse keeps the last).
        return [_match(g, [f"cmd='{zermelo}' name=zA", f"cmd='{zermelo}' name=zB"],
                       ["--games", str(games_n or n)], out / f"{g}.rec", seed) + SOAK
                for g, n in SOAK_GAMES.items() if not only or g in only]
    raise ValueError(f"unknown suite {name!r}")


def report(directory: Path, out=sys.stdout) -> int:
    """Print the table of every ``*.rec`` file in ``directory``; 1 if a record is unsound."""
    print("| game | engines | games | W/D/L | score | Elo ± 95% | ended by | forfeits | replay |",
          file=out)
    print("|---|---|---|---|---|---|---|---|---|", file=out)
    bad_total = 0
    for path in sorted(directory.glob("*.rec")):
        records = read_records(path.read_text(encoding="utf-8"))
        if not records:
            continue
        # Scores are those of the engine that moved first in game 1, as in the runner's table.
        opener = next((r for r in records if r.tags.get("Round") == "1"), records[0])
        first, other = opener.players
        wdl = [0, 0, 0]
        ends: collections.Counter[str] = collections.Counter()
        forfeits: collections.Counter[str] = collections.Counter()
        bad = 0
        for rec in records:
            bad += bool(verify(rec))
            points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(rec.result)
            if points is None:
                continue
            mine = points if rec.players[0] == first else 1.0 - points
            wdl[{1.0: 0, 0.5: 1, 0.0: 2}[mine]] += 1
            if rec.termination == "normal":
                ends[_end_kind(rec.reason)] += 1
            else:
                forfeits[rec.termination] += 1
                ends[rec.termination] += 1
        est = trinomial(*wdl)
        bad_total += bad
        print(f"| {records[0].game} ({path.stem}) | {first} vs {other} | {len(records)} "
              f"| {wdl[0]}/{wdl[1]}/{wdl[2]} | {100 * est.score:.1f}% | {est} "
              f"| {', '.join(f'{k} {v}' for k, v in ends.most_common())} "
              f"| {sum(forfeits.values()) or 'none'} | {len(records) - bad}/{len(records)} sound |",
              file=out)
    return 1 if bad_total else 0


def _end_kind(reason: str) -> str:
    """How a game ended by the rules, from the runner's last comment
    (e.g. ``+M1/6 0.004s, no legal move for black: white wins``)."""
    reason = reason.rsplit(", ", 1)[-1].removeprefix("end by the rules: ")
    if reason.startswith("no legal move"):
        return "win (no move left)"
    return "win" if reason.endswith("wins") else reason


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("suite", choices=["selfplay", "strength", "mcts", "soak", "report"])
    p.add_argument("directory", nargs="?", help="record directory for 'report'")
    p.add_argument("--out", default="runs", help="record directory of a suite")
    p.add_argument("--only", help="comma-separated games")
    p.add_argument("--games", type=int, help="games per match instead of the suite's")
    p.add_argument("--seed", type=int, default=1, help="seed of the random opening plies (default 1)")
    p.add_argument("--cmd", default="zermelo",
                   help="command of the engine under test (default zermelo; e.g. 'python -m protocol' "
                        "to run the checkout the script is in)")
    args = p.parse_args()
    if args.suite == "report":
        return report(Path(args.directory or args.out))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    only = args.only.split(",") if args.only else None
    for cmd in suite(args.suite, out, only, args.games, args.seed, args.cmd):
        print("$ " + shlex.join(cmd), flush=True)
        log = Path(cmd[cmd.index("--pgn") + 1]).with_suffix(".out")
        with open(log, "w") as f:
            subprocess.run(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, check=False)
        print("\n".join(log.read_text().splitlines()[-4:]), flush=True)
    report(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
