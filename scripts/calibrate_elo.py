"""Calibrate ``UCI_Elo`` in chess against Stockfish at its own ``UCI_Elo``.

Each row is a match through zermelo's match runner (``python -m protocol match``):
zermelo at one setting against ``/usr/games/stockfish`` with
``UCI_LimitStrength`` at one Elo, the built-in openings plus random plies, each
opening with both colours. The fitted Elo of the row is the opponent's Elo plus
``400 log10(s / (1 - s))``, with the 95 % interval of the pentanomial
statistics (opening pairs), the runner's honest error bar.

    nice python scripts/calibrate_elo.py run --games 30 --tc 5+0.05 \\
        --row 1400:1400 --row 1800:1800 --row full:2000
    python scripts/calibrate_elo.py table [DIR]  # the table of the rows run so far

A row ``Z:S`` is zermelo's ``UCI_Elo`` Z (``full``: full strength) against
Stockfish's ``UCI_Elo`` S. Outputs (match summary and PGN per row) go to
``runs/calibrate/``; ``table`` reads them back.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from protocol.match.stats import pentanomial  # noqa: E402

OUT = ROOT / "runs" / "calibrate"
STOCKFISH = "/usr/games/stockfish"


def engine_specs(z: str, s: int) -> list[str]:
    zermelo = f"cmd='{sys.executable} -m protocol' dir={ROOT} name=z{z}"
    if z != "full":
        zermelo += f" option.UCI_LimitStrength=true option.UCI_Elo={z}"
    stockfish = f"cmd={STOCKFISH} name=sf{s} option.UCI_LimitStrength=true option.UCI_Elo={s} option.Threads=1"
    return [zermelo, stockfish]


def run_row(z: str, s: int, args: argparse.Namespace) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    stem = OUT / f"z{z}_sf{s}"
    cmd = [sys.executable, "-m", "protocol", "match", "--game", "chess", "--games", str(args.games),
           "--tc", args.tc, "--random-plies", str(args.random_plies), "--seed", str(args.seed),
           "--concurrency", str(args.concurrency), "--pgn", f"{stem}.pgn",
           "--adjudicate", "win=1000:4", "maxplies=400"]
    for spec in engine_specs(z, s):
        cmd += ["--engine", spec]
    print(" ".join(cmd[:1] + ["-m", "protocol"] + cmd[3:]), flush=True)
    with open(f"{stem}.txt", "w") as out:
        subprocess.run(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, check=False)
    print(row_line(stem), flush=True)


def parse(stem: pathlib.Path) -> tuple[str, int, list[int], list[int]] | None:
    """``(zermelo setting, opponent Elo, [W, D, L], pentanomial)`` of a finished row."""
    m = re.fullmatch(r"z(\w+)_sf(\d+)", stem.name)
    text = pathlib.Path(f"{stem}.txt").read_text() if pathlib.Path(f"{stem}.txt").exists() else ""
    wdl = re.search(rf"^z{m.group(1)}\s+(\d+)\s+(\d+)\s+(\d+)\s", text, re.M)
    penta = re.search(r"pentanomial \[LL LD DD\+WL WD WW\]: \[([\d, ]+)\]", text)
    if not (wdl and penta):
        return None
    return m.group(1), int(m.group(2)), [int(x) for x in wdl.groups()], [int(x) for x in penta.group(1).split(",")]


def row_line(stem: pathlib.Path) -> str:
    row = parse(stem)
    if row is None:
        return f"{stem.name}: unfinished"
    z, s, (w, d, l_), penta = row
    est = pentanomial(penta)
    n = w + d + l_
    score = (w + d / 2) / n
    fitted = s + est.elo
    err = f"{est.error:.0f}" if math.isfinite(est.error) else "inf"
    setting = "full strength" if z == "full" else f"UCI_Elo {z}"
    return (f"| {setting} | Stockfish UCI_Elo {s} | {n} | {w}/{d}/{l_} | {100 * score:.1f} % "
            f"| {fitted:.0f} ± {err} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    run = sub.add_parser("run", help="play the rows")
    run.add_argument("--row", action="append", required=True, help="Z:S, e.g. 1400:1400 or full:2000")
    run.add_argument("--games", type=int, default=30)
    run.add_argument("--tc", default="5+0.05")
    run.add_argument("--random-plies", type=int, default=2)
    run.add_argument("--seed", type=int, default=1)
    run.add_argument("--concurrency", type=int, default=1)
    table = sub.add_parser("table", help="print the table of the rows played")
    table.add_argument("dir", nargs="?", type=pathlib.Path, default=OUT, help=f"where the rows are (default {OUT})")
    args = parser.parse_args(argv)
    if args.cmd == "run":
        for row in args.row:
            z, s = row.split(":")
            run_row(z, int(s), args)
    print("| zermelo | opponent | games | W/D/L | score | fitted Elo ± 95 % |")
    print("|---|---|---|---|---|---|")
    for txt in sorted(getattr(args, "dir", OUT).glob("*.txt")):
        print(row_line(txt.with_suffix("")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
