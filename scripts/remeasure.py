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
command instead. A figure no command can measure (the positions a shipped network
was trained on) is pinned to its file's SHA-256 instead: it is checked to still
describe that file.

Then it checks the words of the pages against the code (``--facts`` alone, no
command run; see :func:`doc_facts`): the compiled modules against what the game
pages say of their build, full strength quoted as one figure, the shipped
networks' position counts, the games' notation table against the registry and
the package summary against the game families.
"""

from __future__ import annotations

import argparse
import hashlib
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


def check_pinned(figure: dict) -> tuple[int | str | None, str]:
    """A pinned figure: (its value, or None; what went wrong) — its file must be the one it describes."""
    path = REPO / figure["file"]
    if not path.is_file():
        return None, f"{figure['file']} is missing"
    if hashlib.sha256(path.read_bytes()).hexdigest() != figure["sha256"]:
        return None, f"{figure['file']} changed since the figure was stated: restate it (value and sha256)"
    return figure["value"], ""


# -- the pages' words against the code -------------------------------------------------

#: The word each registered game goes by in the package summary (pyproject.toml's description).
FAMILY = {"chess": "chess", "checkers": "draughts", "shashki": "draughts",
          "international": "draughts", "brazilian": "draughts", "reversi": "reversi", "kalah": "Kalah",
          "tictactoe": "m,n,k", "mnk": "m,n,k", "mnkmulti": "m,n,k", "nim": "Nim", "connect4": "Connect Four",
          "rolit": "Rolit", "go": "Go"}
NUMBER = r"\d{1,3}(?:,\d{3})+"


def pages() -> dict[str, str]:
    """Every page of the site and the README, by path from the repository root. The chapters
    page is left out: it is command output, checked by tests/test_chapters.py."""
    out = {str(p.relative_to(REPO)): p.read_text() for p in sorted((REPO / "docs").rglob("*.md"))}
    out.pop("docs/chapters.md", None)
    out["README.md"] = (REPO / "README.md").read_text()
    return out


def sentences(text: str) -> list[str]:
    """A page cut into table rows and sentences (lines of a paragraph joined)."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        rows = [line for line in block.splitlines() if line.lstrip().startswith("|")]
        if rows:
            out.extend(rows)
            continue
        out.extend(re.split(r"(?<=[.!?])\s+(?=[A-Z`(*\[])", " ".join(block.split())))
    return out


def filled(text: str, figures: dict) -> str:
    """The page as the site shows it: ``{{ fig ID }}`` replaced by the figure."""
    return re.sub(r"\{\{\s*fig\s+([\w.\-]+)\s*\}\}",
                  lambda m: f"{figures[m.group(1)]['value']:,}" if m.group(1) in figures else m.group(0), text)


def compiled_words(texts: dict[str, str]) -> list[str]:
    """A game page must not call its game's modules pure Python or not compiled when
    ``engine.build.COMPILED_MODULES`` holds them, and must name every one of them when
    it names that list; no page may put a module in the list that is not there."""
    sys.path.insert(0, str(REPO))
    import games
    from engine.build import COMPILED_MODULES

    problems = []
    for name in games.names():
        package = games.game_class(name).__module__
        page = f"docs/guide/games/{package.split('.')[1].split('_')[0]}.md"
        if page not in texts:
            continue
        mine = [m for m in COMPILED_MODULES if m == package or m.startswith(package.rsplit(".", 1)[0] + ".")
                and m.split(".")[1] == package.split(".")[1]]
        if not mine:
            continue
        for sentence in sentences(texts[page]):
            low = sentence.lower()
            if "pure python" in low or re.search(r"not (yet )?in `?engine\.build\.COMPILED_MODULES", sentence):
                problems.append(f"{page}: says {name} is not compiled, but engine/build.py compiles "
                                f"{', '.join(mine)}: {sentence[:100]!r}")
        if "COMPILED_MODULES" in texts[page]:
            missing = [m for m in mine if f"`{m}`" not in texts[page]]
            if missing:
                problems.append(f"{page}: names COMPILED_MODULES but not {', '.join(missing)}")
    for path, text in texts.items():
        for sentence in sentences(text):
            if "COMPILED_MODULES" in sentence and not re.search(r"\bnot\b", sentence):
                for module in re.findall(r"`((?:engine|games)\.[\w.]+)`", sentence):
                    if module != "engine.build.COMPILED_MODULES" and module not in COMPILED_MODULES:
                        problems.append(f"{path}: puts {module} in COMPILED_MODULES; engine/build.py does not")
    return problems


def full_strength(texts: dict[str, str]) -> list[str]:
    """Full strength is one figure, stated in docs/measured/strength.md ("## Full strength"):
    a sentence elsewhere that gives full strength an Elo gives that one (or names the ends of
    ``UCI_Elo``'s range, which the code sets)."""
    sys.path.insert(0, str(REPO))
    from engine.options import EngineOptions
    from engine.skill import ELO_LEVELS

    source = texts["docs/measured/strength.md"]
    section = re.search(r"^## Full strength\n(.*?)(?=^## )", source, re.M | re.S)
    stated = section and re.search(r"measures \*\*about (\d{4})\*\*", section.group(1))
    if not stated:
        return ["docs/measured/strength.md: no '## Full strength' section stating 'measures **about N**'"]
    figure = stated.group(1)
    elo = EngineOptions.model_fields["elo"].metadata
    bounds = {str(getattr(m, attr)) for m in elo for attr in ("ge", "le") if hasattr(m, attr)}
    allowed = {figure} | bounds | {str(e) for e, _ in ELO_LEVELS}
    problems = []
    for path, text in texts.items():
        if path == "docs/measured/strength.md":
            text = text.replace(section.group(0), "")
        for sentence in sentences(text):
            if "full strength" not in sentence.lower():
                continue
            # Four-digit Elo figures; a formula's constant ("Elo = 1084 + 26.6 · level") is none.
            other = set(re.findall(r"(?<![\d.,±+−-])(?<!= )([12]\d{3})(?![\d,])", sentence)) - allowed
            if other:
                problems.append(f"{path}: full strength given as {', '.join(sorted(other))}, not the one figure "
                                f"(about {figure}, docs/measured/strength.md): {sentence[:120]!r}")
            elif not {figure} & set(re.findall(r"\d{4}", sentence)) and re.search(r"full strength[^.]*\bmeasures", sentence):
                problems.append(f"{path}: full strength measured without the figure about {figure}")
    return problems


def network_positions(texts: dict[str, str], figures: dict) -> list[str]:
    """The positions a shipped network was trained on, wherever a page speaks of the network
    shipped now, are its figure ``net.GAME.positions`` (pinned to the file)."""
    counts = {key.split(".")[1]: fig["value"] for key, fig in figures.items() if key.startswith("net.")}
    shipped = {p.stem for p in (REPO / "games" / "nets").glob("*.znn")}
    problems = [f"games/nets/{g}.znn ships without a figure net.{g}.positions in docs/figures.json"
                for g in sorted(shipped - set(counts))]
    allowed = {f"{n:,}" for g, n in counts.items() if g in shipped}
    for path, text in texts.items():
        for sentence in sentences(filled(text, figures)):
            # What is said of the network shipped now, not of one shipped before or then.
            for match in re.finditer(r"shipped (?:network|one)(?! before| then)\b[^.;|]*?(" + NUMBER + r")(?= positions|\))",
                                     sentence):
                if match.group(1) not in allowed:
                    problems.append(f"{path}: the shipped network with {match.group(1)} positions; the shipped "
                                    f"networks' are {', '.join(sorted(allowed))}")
            if re.search(r"play with a network by default", sentence):
                stated = set(re.findall(NUMBER + r"(?= and| positions)", sentence))
                if stated and stated != allowed:
                    problems.append(f"{path}: the shipped networks trained on {', '.join(sorted(stated))} positions; "
                                    f"their figures say {', '.join(sorted(allowed))}")
    return problems


def games_table(texts: dict[str, str]) -> list[str]:
    """docs/guide/games/index.md's notation table has a row per registered game, with its
    aliases and players."""
    sys.path.insert(0, str(REPO))
    import games

    text = texts["docs/guide/games/index.md"]
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 5:
            rows[cells[0].strip("`")] = cells
    problems = [f"docs/guide/games/index.md: the notation table has no row for {name}"
                for name in games.names() if name not in rows]
    problems += [f"docs/guide/games/index.md: the notation table's {name} is not a registered game"
                 for name in rows if name not in games.names()]
    for name, cells in rows.items():
        if name not in games.names():
            continue
        cls = games.game_class(name)
        wrong = [a for a in re.findall(r"`([^`]+)`", cells[1]) if a not in cls.aliases]
        if wrong:
            problems.append(f"docs/guide/games/index.md: {name}'s aliases {', '.join(wrong)} are not its aliases")
        players = games.load(name).players
        if not cells[2].startswith(", ".join(players)):
            problems.append(f"docs/guide/games/index.md: {name}'s players are {', '.join(players)}, "
                            f"the table says {cells[2]!r}")
    return problems


def package_summary(description: str | None = None) -> list[str]:
    """pyproject.toml's description (or ``description``) names every registered game's family."""
    sys.path.insert(0, str(REPO))
    import tomllib

    import games

    if description is None:
        description = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["description"]
    problems = [f"scripts/remeasure.py: FAMILY has no word for the game {name}"
                for name in games.names() if name not in FAMILY]
    problems += [f"pyproject.toml: the description does not name {FAMILY[name]} ({name})"
                 for name in games.names() if name in FAMILY and FAMILY[name] not in description]
    return problems


def doc_facts(texts: dict[str, str] | None = None) -> list[str]:
    """Every disagreement between the pages' words and the code, one line each."""
    texts = pages() if texts is None else texts
    figures = load()["figures"]
    return (compiled_words(texts) + full_strength(texts) + network_positions(texts, figures)
            + games_table(texts) + package_summary())


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
    parser.add_argument("--facts", action="store_true", help="check only the pages' words against the code")
    opts = parser.parse_args(args)
    facts = doc_facts()
    for line in facts:
        print(f"facts: {line}")
    print(f"the pages' words against the code: {len(facts)} disagree")
    if opts.facts:
        return 1 if facts else 0
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
        value, problem = check_pinned(fig) if "sha256" in fig else measure(fig, env)
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
    return 1 if bad or facts else 0


if __name__ == "__main__":
    sys.exit(main())
