"""The wheel is tagged by what it holds: without a working C compiler the build
falls back to the pure-Python modules, and the wheel is then ``py3-none-any``,
installable anywhere, not tagged for a platform whose code it does not carry."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _sources(dst: Path) -> Path:
    """The repository's tracked files, with any generated C beside them (copied with
    their times, so that Cython finds them current and only the compile is tried)."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    names = [n for n in files.decode().split("\0") if n]
    names += [str(p.relative_to(ROOT)) for p in ROOT.glob("**/*.c") if "build" not in p.parts]
    for name in names:
        src = ROOT / name
        if src.is_file():
            (dst / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / name)
    return dst


def test_a_failed_compile_gives_a_pure_wheel(tmp_path):
    src = _sources(tmp_path / "src")
    out = tmp_path / "wheels"
    env = {**os.environ, "CC": "/bin/false"}
    env.pop("ZERMELO_PURE", None)
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(out), str(src)],
                          env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "compiling the hot path failed" in proc.stdout + proc.stderr
    wheels = list(out.glob("*.whl"))
    assert len(wheels) == 1
    assert wheels[0].name == "zermelo-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheels[0]) as whl:
        names = whl.namelist()
        wheel_file = whl.read("zermelo-0.1.0.dist-info/WHEEL").decode()
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    assert "engine/_compiled.json" not in names
    assert "Root-Is-Purelib: true" in wheel_file
    assert "engine/search.py" in names and "engine/search.pxd" in names
