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

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
BUILD = runpy.run_path(str(HERE / "engine" / "build.py"))
MODULES = BUILD["COMPILED_MODULES"]


def _cpu_flags() -> list[str]:
    """The population count as one instruction where the building x86-64 CPU has it
    (without the flag, every bitboard count calls a library routine)."""
    import platform
    if platform.machine() not in ("x86_64", "AMD64"):
        return []
    try:
        flags = next((line.split(":", 1)[1].split() for line in Path("/proc/cpuinfo").read_text().splitlines()
                      if line.startswith("flags")), [])
    except OSError:
        return []
    return ["-mpopcnt"] if "popcnt" in flags else []


def _extensions():
    if os.environ.get("ZERMELO_PURE", "") not in ("", "0"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        print("zermelo: Cython not available; installing the pure-Python build", file=sys.stderr)
        return []
    from setuptools import Extension
    # -O3: GCC vectorises the network accumulator's loops only from -O3 (docs/guide/networks.md).
    exts = [Extension(m, [str(Path(*m.split(".")).with_suffix(".py"))],
                      extra_compile_args=["-O3", "-g0", *_cpu_flags()]) for m in MODULES]
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
        # What the build produced, for the distribution's purity (see BuiltDistribution).
        self.distribution.compiled = False
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
        self.distribution.compiled = True

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


class BuiltDistribution(Distribution):
    """Has extension modules only if the build produced them: once ``build_ext`` has
    run, a failed compile (the pure build) makes the distribution pure, so that it
    installs into purelib and its wheel is tagged ``py3-none-any``."""

    #: Whether build_ext compiled the modules; None before it has run.
    compiled: bool | None = None

    def has_ext_modules(self):
        if self.compiled is not None:
            return self.compiled
        return super().has_ext_modules()


def _wheel_command():
    """``bdist_wheel`` tagged by what the build produced: a platform wheel only when
    the compiled modules are in it, else a pure ``py3-none-any`` one (the extensions
    alone would tag it for this platform even when none compiled)."""
    try:
        from setuptools.command.bdist_wheel import bdist_wheel
    except ImportError:  # setuptools before 70.1 takes it from the wheel package
        try:
            from wheel.bdist_wheel import bdist_wheel
        except ImportError:
            return None

    class TaggedWheel(bdist_wheel):
        def run(self):
            if not self.skip_build:
                # Built first (bdist_wheel's own run finds it done) so that the tag can follow it.
                self.run_command("build")
                self.root_is_pure = not self.distribution.has_ext_modules()
            super().run()

    return TaggedWheel


COMMANDS: dict[str, type] = {"build_ext": OptionalBuildExt}
WHEEL = _wheel_command()
if WHEEL is not None:
    COMMANDS["bdist_wheel"] = WHEEL

setup(ext_modules=_extensions(), cmdclass=COMMANDS, distclass=BuiltDistribution)
