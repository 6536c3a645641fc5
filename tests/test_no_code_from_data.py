"""Nothing read from a file or a pipe is ever run as code: no ``pickle`` (nor its
relatives), ``eval``, ``exec`` or ``compile`` of text in the engine, the protocol
or the games, checked on their syntax trees and, for the compiled modules'
declarations, on their text."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "protocol", "games")
MODULES = {"pickle", "cPickle", "_pickle", "dill", "cloudpickle", "marshal", "shelve", "joblib"}
CALLS = {"eval", "exec", "compile", "__import__"}


def sources() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def offences(path: Path, root: Path = ROOT) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        if any(name.split(".")[0] in MODULES for name in names):
            out.append(f"{path.relative_to(root)}:{node.lineno}: imports {', '.join(names)}")
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            # re.compile and the like are attributes of a module: only the builtins are code runners.
            if name in CALLS and (isinstance(func, ast.Name) or name in ("eval", "exec")):
                out.append(f"{path.relative_to(root)}:{node.lineno}: calls {name}")
    return out


def test_the_sources_are_read():
    assert len(sources()) > 50 and (ROOT / "engine" / "book.py") in sources()


def test_no_pickle_eval_or_exec_in_the_engine_protocol_or_games():
    bad = [line for path in sources() for line in offences(path)]
    assert bad == []


def test_nor_in_the_compiled_declarations():
    pattern = re.compile(r"\b(pickle|marshal)\b|\b(eval|exec)\s*\(")
    bad = [f"{p.relative_to(ROOT)}: {m.group(0)}" for package in PACKAGES for p in (ROOT / package).rglob("*.pxd")
           for m in pattern.finditer(p.read_text(encoding="utf-8"))]
    assert bad == []


def test_the_check_finds_what_it_looks_for(tmp_path):
    path = tmp_path / "sample.py"
    path.write_text("import pickle\nfrom marshal import loads\nx = eval('1')\nexec('y = 2')\n"
                    "z = re.compile('a')\nw = compile('1', 'f', 'eval')\n")
    found = [line.split(": ", 1)[1] for line in offences(path, tmp_path)]
    assert found == ["imports pickle", "imports marshal", "calls eval", "calls exec", "calls compile"]
