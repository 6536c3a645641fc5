"""The documentation: the site builds in strict mode, the README stays a front page,
the commands the pages show run, and the figures they quote are the code's.

Convention (docs/design/contributing.md): in a ```` ```console ```` block each
``$ `` line is a command run from the repository root, and must exit 0; the
lines after it are output, each of which must appear in the real output, in
order (``…`` inside a line stands for any text; a line of ``…`` alone marks
output left out). A block preceded by ``<!-- not-run -->`` is shown only (long
matches, builds, commands writing into the checkout). ```` ```sh ```` blocks are
synopses with placeholders and are never run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.console import shown_in

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
PAGES = sorted(DOCS.rglob("*.md")) + [REPO / "README.md"]
NOT_RUN = "<!-- not-run -->"

pytestmark = pytest.mark.xdist_group("docs")


def console_blocks(path: Path) -> list[tuple[int, list[str]]]:
    """(line number, lines) of every console block of a page that is to be run."""
    blocks, lines = [], path.read_text().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```console":
            start, body = i, []
            i += 1
            while lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            before = [line for line in lines[:start] if line.strip()]
            if not (before and before[-1].strip() == NOT_RUN):
                blocks.append((start + 1, body))
        i += 1
    return blocks


def commands(body: list[str]) -> list[tuple[str, list[str]]]:
    """The block's commands (``\\`` continuations joined), each with its shown output."""
    out: list[tuple[str, list[str]]] = []
    pending = ""
    for line in body:
        if pending or line.startswith("$ "):
            text = line[2:] if line.startswith("$ ") and not pending else line
            pending += text
            if pending.endswith("\\"):
                pending = pending[:-1] + " "
                continue
            out.append((pending.strip(), []))
            pending = ""
        elif out:
            out[-1][1].append(line.rstrip())
    return out


RUNNABLE = [(path, lineno, cmd, shown) for path in PAGES for lineno, body in console_blocks(path)
            for cmd, shown in commands(body)]


@pytest.fixture(scope="module")
def shims(tmp_path_factory) -> Path:
    """``zermelo`` and ``python`` on the PATH run this checkout with this interpreter."""
    bin_dir = tmp_path_factory.mktemp("bin")
    for name, target in (("zermelo", f'"{sys.executable}" -m protocol'), ("python", f'"{sys.executable}"')):
        shim = bin_dir / name
        shim.write_text(f'#!/bin/sh\nexec {target} "$@"\n')
        shim.chmod(0o755)
    return bin_dir


def test_there_are_commands_to_run():
    assert len(RUNNABLE) >= 10


@pytest.mark.parametrize("path,lineno,cmd,shown", RUNNABLE,
                         ids=[f"{p.relative_to(REPO)}:{n}:{c[:40]}" for p, n, c, _ in RUNNABLE])
def test_shown_command_runs(path, lineno, cmd, shown, shims):
    env = dict(os.environ, PATH=f"{shims}{os.pathsep}{os.environ['PATH']}", PYTHONPATH=str(REPO))
    proc = subprocess.run(["bash", "-c", cmd], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"{path.name}:{lineno}: {cmd}\n{proc.stdout[-1500:]}\n{proc.stderr[-1500:]}"
    missing = shown_in(shown, (proc.stdout + proc.stderr).splitlines())
    assert missing is None, f"{path.name}:{lineno}: {cmd}: the page shows {missing!r}; got:\n{proc.stdout[-2000:]}"


def test_shown_in_matches_in_order_and_with_ellipses():
    assert shown_in(["a", "…", "c… s"], ["a", "b", "c 0.2 s"]) is None
    assert shown_in(["c", "a"], ["a", "b", "c"]) == "a"
    assert shown_in(["Nodes searched: 80"], ["Nodes searched: 81"]) == "Nodes searched: 80"


def test_readme_is_a_front_page():
    readme = (REPO / "README.md").read_text()
    assert len(readme.splitlines()) <= 300
    for target in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (REPO / target).exists(), target


def test_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    mkdocs = shutil.which("mkdocs") or pytest.skip("no mkdocs command")
    proc = subprocess.run([mkdocs, "build", "--strict", "--site-dir", str(tmp_path / "site")], cwd=REPO,
                          capture_output=True, text=True, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "WARNING" not in proc.stderr, proc.stderr[-4000:]
    # The options page is generated from the declarations: every option is on it.
    import games
    from engine.options import all_specs
    options = (tmp_path / "site" / "guide" / "options" / "index.html").read_text()
    assert all(f"<code>{spec.name}</code>" in options for spec in all_specs(games))
    assert "{{" not in (tmp_path / "site" / "guide" / "install" / "index.html").read_text()


def test_quick_figures_are_the_code_s():
    proc = subprocess.run([sys.executable, "scripts/remeasure.py", "--check"], cwd=REPO,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
