"""No code in engine/ or protocol/ looks a member up by a literal name
(``getattr(x, "name")``, ``hasattr(x, "name")``): what a game, a position or an
exact provider offers is declared with a default on its base class
(engine/game.py, engine/position.py), so mypy checks every use and a new game's
author reads the contract instead of grepping for it. Feature tests of the
standard library's modules (``hasattr(os, "memfd_create")``) are the exception."""

import ast
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

#: Modules whose members depend on the platform: probing them is the only way to ask.
PLATFORM_MODULES = {"os", "mmap"}


def probes(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """``(line, text)`` of each ``getattr``/``hasattr`` with a literal member name."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
                and not (isinstance(node.args[0], ast.Name) and node.args[0].id in PLATFORM_MODULES)):
            found.append((node.lineno, ast.unparse(node)))
    return found


def scan(dirs: list[str]) -> list[str]:
    report = []
    for d in dirs:
        for path in sorted((ROOT / d).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            report += [f"{rel}:{line}: {text}" for line, text in probes(path.read_text(encoding="utf-8"), rel)]
    return report


def test_the_scan_finds_a_probe():
    source = ('a = getattr(game, "exact", None)\nif hasattr(pos, "values"):\n    pass\n'
              'b = getattr(self, "cmd_" + name)\nc = hasattr(os, "memfd_create")\nd = getattr(x, name)\n')
    assert [line for line, _ in probes(source)] == [1, 2]


def test_engine_and_protocol_probe_no_member_by_name():
    assert scan(["engine", "protocol"]) == []


def test_the_contract_type_checks_strictly():
    # The two files a game's author reads: every member typed, nothing returned as Any.
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "engine/game.py", "engine/position.py"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
