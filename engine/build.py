"""Which build runs: the compiled hot path, or the pure-Python reference.

The compiled build is made from the same ``.py`` sources by Cython (see
``setup.py``); each compiled module sits beside its source. The build writes
``_compiled.json`` beside this file: every compiled module and a hash of the
sources it was made from. At import, before any game or search module loads,
:func:`install` compares those hashes with the sources on disk. The compiled
modules are used only all together and only while every one of them matches its
source: an edited ``.py`` never hides behind a stale extension (the whole build
then runs pure until rebuilt), and ``ZERMELO_PURE=1`` forces the pure build.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path

#: The modules of the hot path that the compiled build compiles, in build order.
COMPILED_MODULES: tuple[str, ...] = (
    "engine.position",
    "engine.nnue",
    "engine.tt",
    "engine.search",
    "games.nim",
    "games.kalah.board",
    "games.mnk",
    "games.draughts.position",
    "games.draughts.checkers",
    "games.draughts.shashki",
    "games.chess.bitboards",
    "games.chess.evaluate",
    "games.chess.board",
    "games.chess.position",
    "games.chess.syzygy_checksum",
    "engine.perft",
    "games.reversi.bitboard",
    "games.reversi.endgame",
    "games.reversi.board",
    "games.connect4",
    "games.go.benson",
    "games.go.playout",
    "games.go.board",
    "games.go.solve",
)

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = Path(__file__).with_name("_compiled.json")
REBUILD = "pip install -e . (or: python setup.py build_ext --inplace)"


def source_files(module: str, root: Path = ROOT) -> list[Path]:
    """The files a compiled module is made from: its ``.py`` and, if present, its ``.pxd``."""
    base = root.joinpath(*module.split("."))
    return [p for p in (base.with_suffix(".py"), base.with_suffix(".pxd")) if p.exists()]


def source_hash(module: str, root: Path = ROOT) -> str:
    """SHA-256 over the sources of ``module`` (what the manifest records)."""
    h = hashlib.sha256()
    for path in source_files(module, root):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def _extension_exists(module: str, root: Path) -> bool:
    base = root.joinpath(*module.split("."))
    return any(base.parent.joinpath(base.name + suffix).exists()
               for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def decide(manifest_path: Path = MANIFEST, root: Path = ROOT,
           environ: Mapping[str, str] = os.environ) -> tuple[bool, str]:
    """(compiled?, why) for the sources under ``root`` and the build manifest."""
    if environ.get("ZERMELO_PURE", "") not in ("", "0"):
        return False, "ZERMELO_PURE is set"
    try:
        manifest = json.loads(manifest_path.read_text())
        modules: dict[str, str] = manifest["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return False, "no compiled modules (no C compiler at install, or a pure install)"
    if set(modules) != set(COMPILED_MODULES):
        return False, f"compiled modules out of date (the build compiled another module list); rebuild: {REBUILD}"
    missing = [m for m in modules if not _extension_exists(m, root)]
    if missing:
        return False, f"compiled module missing: {missing[0]}"
    stale = [m for m, digest in modules.items() if source_hash(m, root) != digest]
    if stale:
        more = f" and {len(stale) - 1} more" if len(stale) > 1 else ""
        return False, f"compiled modules out of date ({stale[0]}{more} edited since the build); rebuild: {REBUILD}"
    return True, f"Cython {manifest.get('cython', '?')}"


COMPILED, REASON = decide()


def describe() -> str:
    """One line for ``--version`` and the ``uci`` handshake."""
    return f"compiled ({REASON})" if COMPILED else f"pure Python ({REASON})"


class _PureFinder:
    """Loads the ``.py`` source of every compiled module when the build runs pure."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name not in COMPILED_MODULES:
            return None
        source = ROOT.joinpath(*name.split(".")).with_suffix(".py")
        return importlib.util.spec_from_file_location(name, source)


def install() -> None:
    """Route the hot-path imports to the pure sources unless the compiled build is usable."""
    if not COMPILED and _PureFinder not in sys.meta_path:
        sys.meta_path.insert(0, _PureFinder)
