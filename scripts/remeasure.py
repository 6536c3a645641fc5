"""Re-measure the deterministic figures the documentation quotes, and check them.

The pages quote node counts, perft counts and bench signatures through
``{{ fig ID }}`` (``docs/hooks/zermelo_docs.py`` fills them in); their values,
the command that measures each and the commit it was last measured at live in
``docs/figures.json``. This script runs those commands from the repository
root and compares::

    python scripts/remeasure.py                 # the quick figures (what tests/test_docs.py runs)
    python scripts/remeasure.py --all           # every figure, the slow ones too (a few minutes)
    python scripts/remeasure.py --only bench.   # the figures whose ID starts so
    python scripts/remeasure.py --all --pure    # the same on the pure-Python build
    python scripts/remeasure.py --all --write   # store what was measured, with this commit

It exits 1 when a figure disagrees or its command fails. Timings and ratios are
not figures here: they are noisy, and the pages quote them with their commit and
command instead.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIGURES = REPO / "docs" / "figures.json"
#: What ``zermelo bench`` and ``zermelo perft`` print; a figure may name another pattern.
DEFAULT_PATTERN = r"Nodes searched: ([0-9,]+)"


def load() -> dict:
    return json.loads(FIGURES.read_text())


def argv(command: str) -> list[str]:
    """The command as the page writes it, run against this checkout with this interpreter
    (``zermelo`` is ``python -m protocol`` here, whatever is installed on the PATH)."""
    words = shlex.split(command)
    if words[0] == "zermelo":
        return [sys.executable, "-m", "protocol", *words[1:]]
    if words[0] == "python":
        return [sys.executable, *words[1:]]
    return words


def measure(figure: dict, env: dict[str, str]) -> tuple[int | str | None, str]:
    """(the value the command printed, or None; what went wrong, if anything)."""
    proc = subprocess.run(argv(figure["command"]), cwd=REPO, env=env, capture_output=True, text=True)
    if proc.returncode:
        return None, f"exit {proc.returncode}: {(proc.stderr or proc.stdout).strip()[-300:]}"
    match = re.search(figure.get("pattern", DEFAULT_PATTERN), proc.stdout)
    if not match:
        return None, f"no match for {figure.get('pattern', DEFAULT_PATTERN)!r} in the output"
    text = match.group(1)
    return (int(text.replace(",", "")) if text.replace(",", "").isdigit() else text), ""


def head_commit() -> str:
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                          text=True).stdout.strip() or "unknown"


def main(args: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare only (the default)")
    parser.add_argument("--write", action="store_true", help="store the measured values that differ")
    parser.add_argument("--all", action="store_true", help="the slow figures too")
    parser.add_argument("--only", default="", help="figures whose ID starts with this")
    parser.add_argument("--pure", action="store_true", help="run the pure-Python build (ZERMELO_PURE=1)")
    opts = parser.parse_args(args)
    data = load()
    env = dict(os.environ, **({"ZERMELO_PURE": "1"} if opts.pure else {}))
    chosen = {key: fig for key, fig in data["figures"].items()
              if key.startswith(opts.only) and (opts.all or fig.get("quick", True))}
    if not chosen:
        print(f"no figure matches {opts.only!r}", file=sys.stderr)
        return 2
    bad, changed, commit = 0, 0, head_commit()
    width = max(map(len, chosen))
    for key, fig in chosen.items():
        start = time.perf_counter()
        value, problem = measure(fig, env)
        seconds = time.perf_counter() - start
        if problem:
            verdict, bad = f"FAILED {problem}", bad + 1
        elif value == fig["value"]:
            verdict = "ok"
        else:
            verdict, bad = f"DIFFERS: the pages say {fig['value']!r}", bad + 1
            if opts.write:
                fig["value"], fig["commit"], changed = value, commit, changed + 1
        print(f"{key:<{width}}  {value if value is not None else '-'!s:>12}  {seconds:6.1f} s  {verdict}",
              flush=True)
    if opts.write and changed:
        FIGURES.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        print(f"wrote {changed} figure(s) to {FIGURES.relative_to(REPO)} (commit {commit})")
        return 0 if bad == changed else 1
    print(f"{len(chosen)} figures, {bad} disagree or failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
