"""zermelo against py-draughts' engine at equal time a move, in each draughts variant both play.

``zermelo match`` referees every game (zermelo's rules, over Hub pipes to both
sides): ``zermelo hub`` against ``scripts/py_draughts_hub.py``, py-draughts'
TurboEngine (international) or SimpleEngine (the 8x8 games) behind Hub, run by
the Python of an environment holding py-draughts (it imports as ``draughts``,
as pydraughts does, so it cannot live beside zermelo's test dependencies).
py-draughts replays every move it is sent by its own rules, so each game is
cross-checked: a move it refuses is counted here as a disagreement.

    python -m venv ~/pyd && ~/pyd/bin/pip install py-draughts
    nice -n 19 python scripts/draughts_vs_py_draughts.py --python ~/pyd/bin/python \\
        --out /tmp/vs-pyd --games 40 --movetime 500

Each opening is a few seeded random plies (``--random-plies``, ``--seed``), played
twice with the colours swapped. The records go to ``--out/<game>.rec`` and a
run resumes from them. Prints ``zermelo match``'s summary (score, Elo with its
95% interval) per game, then a table: games, zermelo's wins, draws and losses,
its score, the mean seconds a move each side used, and py-draughts' refusals.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GAMES = ["international", "shashki", "brazilian", "checkers"]
_SECONDS = re.compile(r"(\d+\.\d{3})s")


def mean_seconds(records: Path) -> dict[str, float]:
    """Each engine's mean seconds a move over the records (the runner's comments)."""
    from protocol.records import read_records, record_game

    used: dict[str, list[float]] = {}
    for rec in read_records(records.read_text()):
        first = record_game(rec).new_position(rec.start).turn
        for ply, comment in enumerate(rec.comments):
            m = _SECONDS.search(comment or "")
            if m:
                used.setdefault(rec.players[(first + ply) % 2], []).append(float(m.group(1)))
    return {name: sum(v) / len(v) for name, v in used.items()}


def tally(records: Path) -> tuple[int, int, int]:
    """zermelo's wins, draws and losses in the records."""
    from protocol.records import read_records

    w = d = lost = 0
    for rec in read_records(records.read_text()):
        mine = "1-0" if rec.players[0] == "zermelo" else "0-1"
        if rec.result == "1/2-1/2":
            d += 1
        elif rec.result == mine:
            w += 1
        else:
            lost += 1
    return w, d, lost


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", required=True, help="the Python of an environment holding py-draughts")
    ap.add_argument("--out", required=True, help="folder of the records and py-draughts' refusals")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--movetime", type=int, default=500, help="ms a move, each side (default 500)")
    ap.add_argument("--random-plies", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--margin-ms", type=int, default=5000,
                    help="overrun forgiven before a time forfeit: a loaded machine may hold a process back")
    ap.add_argument("--game", dest="games_played", action="append", choices=GAMES,
                    help="one of the games (repeatable; default all four)")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for game in args.games_played or GAMES:
        records, refusals = out / f"{game}.rec", out / f"{game}.refused"
        refusals.touch()
        peer = f"{args.python} {ROOT / 'scripts' / 'py_draughts_hub.py'} --log {refusals}"
        cmd = [sys.executable, "-m", "protocol", "match", "--game", game, "--games", str(args.games),
               "--movetime", str(args.movetime), "--margin-ms", str(args.margin_ms),
               "--random-plies", str(args.random_plies), "--seed", str(args.seed),
               "--records", str(records), "--event", "zermelo vs py-draughts",
               "--engine", f"cmd='{sys.executable} -m protocol hub' name=zermelo proto=hub",
               "--engine", f"cmd='{peer}' name=py-draughts proto=hub"]
        if records.exists():
            cmd.append("--resume")
        code = subprocess.run(cmd, cwd=ROOT).returncode
        if code != 0:
            print(f"{game}: zermelo match exited {code}", file=sys.stderr)
            return code
        w, d, lost = tally(records)
        seconds = mean_seconds(records)
        refused = sum(1 for line in refusals.read_text().splitlines() if line.strip())
        rows.append(f"| {game} | {w + d + lost} | {w} | {d} | {lost} | {(w + d / 2) / max(1, w + d + lost):.1%} "
                    f"| {seconds.get('zermelo', 0):.2f} | {seconds.get('py-draughts', 0):.2f} | {refused} |")
    print("| game | games | zermelo wins | draws | losses | zermelo's score | zermelo s/move "
          "| py-draughts s/move | py-draughts' refusals |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
