"""The build switch: compiled modules are used all together, only while they match their sources."""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import build

#: The rules and protocol this module checks must hold in the pure and the compiled build alike.
pytestmark = pytest.mark.both_builds

ROOT = Path(__file__).resolve().parents[1]


def _tree(tmp_path: Path, edit: str | None = None) -> Path:
    """A copy of the compiled modules' sources, with a fake extension beside each and a manifest."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for module in build.COMPILED_MODULES:
        for src in build.source_files(module):
            dst = tmp_path / src.relative_to(ROOT)
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(src.read_bytes())
            dst.with_name(dst.stem + suffix).write_bytes(b"")
    modules = {m: build.source_hash(m, tmp_path) for m in build.COMPILED_MODULES}
    (tmp_path / "_compiled.json").write_text(json.dumps({"cython": "3.x", "modules": modules}))
    if edit is not None:
        path = tmp_path.joinpath(*edit.split(".")).with_suffix(".py")
        path.write_text(path.read_text() + "\n# edited\n")
    return tmp_path


def test_matching_build_is_compiled(tmp_path):
    root = _tree(tmp_path)
    assert build.decide(root / "_compiled.json", root, {}) == (True, "Cython 3.x")


def test_environment_forces_pure(tmp_path):
    root = _tree(tmp_path)
    compiled, why = build.decide(root / "_compiled.json", root, {"ZERMELO_PURE": "1"})
    assert not compiled and "ZERMELO_PURE" in why


def test_one_edited_source_makes_the_whole_build_pure(tmp_path):
    edited = build.COMPILED_MODULES[-1]
    root = _tree(tmp_path, edit=edited)
    compiled, why = build.decide(root / "_compiled.json", root, {})
    assert not compiled and edited in why and "rebuild" in why


def test_missing_manifest_is_pure(tmp_path):
    compiled, why = build.decide(tmp_path / "_compiled.json", tmp_path, {})
    assert not compiled and "no compiled modules" in why


def test_pure_process_loads_every_hot_module_from_source():
    code = ("import sys, importlib, engine.build as b\n"
            "for m in b.COMPILED_MODULES: importlib.import_module(m)\n"
            "print(all(sys.modules[m].__file__.endswith('.py') for m in b.COMPILED_MODULES), b.describe())")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "ZERMELO_PURE": "1"}, timeout=60)
    assert out.stdout.startswith("True pure Python"), out.stderr


def test_running_build_is_the_one_reported():
    """Where the build is compiled every hot module is an extension; where not, a source."""
    for module in build.COMPILED_MODULES:
        loaded = importlib.import_module(module).__file__
        assert loaded is not None and loaded.endswith(".py") != build.COMPILED


@pytest.mark.parametrize("dialect", ["uci", "ugi"])
def test_handshake_names_the_build(dialect):
    out = subprocess.run([sys.executable, "-m", "protocol"], input=f"{dialect}\nquit\n", cwd=ROOT,
                         capture_output=True, text=True, timeout=60).stdout.splitlines()
    assert f"info string build: {build.describe()}" in out
    assert out.index(f"{dialect}ok") > out.index(f"info string build: {build.describe()}")


def test_version_names_the_build():
    out = subprocess.run([sys.executable, "-m", "protocol", "--version"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60).stdout
    assert build.describe() in out and out.startswith("zermelo ")
