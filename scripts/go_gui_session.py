"""A whole Go game between zermelo and GNU Go, zermelo driven as a GUI drives it.

Runs ``tests/gtp_client/session.js``: Sabaki's GTP library (``@sabaki/gtp``, with
``@sabaki/go-board``) plays the game as Sabaki's engine-against-engine mode does,
over pipes: each engine synchronised before every move (``komi``, ``boardsize``,
``time_settings``, the moves), zermelo's moves asked with ``kata-genmove_analyze``
(the analysis lines read by Sabaki's parser), every few moves an ``lz-analyze`` or a
``kata-analyze ... ownership true`` of the position ended by the next command, and at
the end ``final_score`` and ``final_status_list dead`` from both. Prints the summary:
moves, time, how the game ended, protocol errors (any ``?`` answer, lost answer or
exit), analysis lines parsed, both final scores; ``--out DIR`` keeps the transcript
(every command and answer line of both engines, timed), the SGF and the summary.

    python scripts/go_gui_session.py --size 19 --byoyomi 1 --out DIR
    python scripts/go_gui_session.py --size 9 --max-moves 40      # a short one

Needs Node.js and GNU Go (``.ci/peers`` installs them and the pinned client).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CLIENT = REPO / "tests" / "gtp_client"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument("--level", type=int, default=1, help="GNU Go's level")
    parser.add_argument("--colour", choices=("black", "white"), default="black", help="zermelo's")
    parser.add_argument("--byoyomi", type=int, default=1, help="zermelo's seconds a move (time_settings 0 S 1)")
    parser.add_argument("--max-moves", type=int, default=0, help="stop after this many moves (0: to the end)")
    parser.add_argument("--analyze-every", type=int, default=20, help="an analysis every this many moves")
    parser.add_argument("--analyze-ms", type=int, default=2000, help="how long each analysis runs")
    parser.add_argument("--interval", type=int, default=50, help="analysis interval, centiseconds")
    parser.add_argument("--out", type=Path, help="directory for the transcript, the SGF and the summary")
    parser.add_argument("--gnugo", default=shutil.which("gnugo") or shutil.which("/usr/games/gnugo"))
    args = parser.parse_args()
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None or args.gnugo is None:
        print("needs node, npm and gnugo (.ci/peers installs them)", file=sys.stderr)
        return 2
    if not (CLIENT / "node_modules" / "@sabaki" / "gtp").is_dir():
        subprocess.run([npm, "ci", "--prefix", str(CLIENT), "--no-audit", "--no-fund"], check=True)
    command = [node, str(CLIENT / "session.js"), "--python", sys.executable, "--gnugo", args.gnugo,
               "--size", str(args.size), "--komi", str(args.komi), "--level", str(args.level),
               "--colour", args.colour, "--byoyomi", str(args.byoyomi), "--max-moves", str(args.max_moves),
               "--analyze-every", str(args.analyze_every), "--analyze-ms", str(args.analyze_ms),
               "--interval", str(args.interval)]
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        command += ["--transcript", str(args.out / "transcript.txt"), "--sgf", str(args.out / "game.sgf")]
    run = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
    if run.returncode != 0 or not run.stdout.strip():
        print(run.stdout + run.stderr, file=sys.stderr)
        return 1
    summary = json.loads(run.stdout.splitlines()[-1])
    if args.out is not None:
        (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    analysis, during = summary["analysis"], summary["genmoveAnalysis"]
    print(f"{args.size}x{args.size}, komi {args.komi:g}: zermelo ({args.colour}, {args.byoyomi} s a move) "
          f"against GNU Go level {args.level}")
    print(f"moves {summary['moves']}, ended: {summary['ended']}, {summary['seconds']} s "
          f"(zermelo's moves {summary['moveSeconds']['zermelo']} s, GNU Go's {summary['moveSeconds']['gnugo']} s)")
    print(f"protocol errors {len(summary['protocolErrors'])}, moves refused {len(summary['refused'])}")
    print(f"analyses {analysis['commands']}: lines {analysis['lines']}, parsed by Sabaki's parser "
          f"{analysis['parsed']}, with ownership {analysis['withOwnership']}")
    print(f"{during['command']} during zermelo's moves: lines {during['lines']}, parsed {during['parsed']}")
    print(f"final_score: zermelo {summary.get('finalScore', {}).get('zermelo')}, "
          f"GNU Go {summary.get('finalScore', {}).get('gnugo')}; dead stones: {summary.get('dead')}")
    for problem in summary["protocolErrors"][:10] + analysis["problems"][:5] + during["problems"][:5]:
        print("  ", json.dumps(problem)[:300])
    if "crash" in summary:
        print(summary["crash"], file=sys.stderr)
    clean = (not summary["protocolErrors"] and not summary["refused"] and "crash" not in summary
             and analysis["parsed"] == analysis["lines"] and during["parsed"] == during["lines"])
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
