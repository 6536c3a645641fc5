"""Builds the compiled hot path from the same ``.py`` sources, or nothing.

Everything else is declared in ``pyproject.toml``. The modules listed in
``engine.build.COMPILED_MODULES`` are compiled by Cython (pure-Python mode: the
``.pxd`` beside a ``.py`` gives its C types) when a C compiler works; when one does
not, or ``ZERMELO_PURE=1`` is set, the install still succeeds and zermelo runs
the pure-Python build. A successful build writes ``engine/_compiled.json``, the
hashes of the sources compiled, which ``engine.build`` checks at every start.
"""

from __future__ import annotations

import json
import os
import runpy
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
BUILD = runpy.run_path(str(HERE / "engine" / "build.py"))
MODULES = BUILD["COMPILED_MODULES"]


def _extensions():
    if os.environ.get("ZERMELO_PURE", "") not in ("", "0"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        print("zermelo: Cython not available; installing the pure-Python build", file=sys.stderr)
        return []
    from setuptools import Extension
    exts = [Extension(m, [str(Path(*m.split(".")).with_suffix(".py"))],
                      extra_compile_args=["-O2", "-g0"]) for m in MODULES]
    try:
        return cythonize(exts, language_level=3, nthreads=os.cpu_count() or 1, quiet=True,
                         compiler_directives={
                             # Types come from the .pxd files (and cython.declare); the
                             # annotations stay ordinary Python ones, checked by mypy.
                             "annotation_typing": False})
    except Exception as exc:  # a Cython error must not fail the install
        print(f"zermelo: Cython could not translate the hot path ({exc}); installing the pure-Python build",
              file=sys.stderr)
        return []


class OptionalBuildExt(build_ext):
    """Compile every module or none: a failed compile leaves the pure build."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self):
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as exc:  # no compiler, or it failed: stay pure
            self._remove_outputs()
            print(f"zermelo: compiling the hot path failed ({exc}); installing the pure-Python build",
                  file=sys.stderr)
            return
        self._write_manifest()

    def _out_dir(self) -> Path:
        return HERE if self.inplace else Path(self.build_lib)

    def _remove_outputs(self):
        for ext in self.extensions:
            path = self._out_dir() / self.get_ext_filename(ext.name)
            if path.exists():
                path.unlink()

    def _write_manifest(self):
        import Cython
        manifest = {"cython": Cython.__version__,
                    "modules": {m: BUILD["source_hash"](m, HERE) for m in MODULES}}
        target = self._out_dir() / "engine" / "_compiled.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(manifest, indent=1) + "\n")

    def get_outputs(self):
        return super().get_outputs() + [str(self._out_dir() / "engine" / "_compiled.json")]


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
