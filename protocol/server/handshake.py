"""The ``option`` lines of the handshake, served from a cache so that ``uciok`` comes fast.

Building the lines means importing pydantic and every game (the parameters
of each game are options), several times the cost of the rest of the
start-up, while GUIs give ``uci`` half a second or less. The lines are
therefore kept in ``$XDG_CACHE_HOME/zermelo/options.json`` (``~/.cache`` by
default) with the size and modification time of every source they depend
on; any change to those files rebuilds them from
:func:`engine.options.all_specs`. This module imports neither pydantic nor
a game.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Callable

from engine.files import read_text_bounded


#: Longest cache read: the lines are tens of kilobytes.
CACHE_LIMIT = 4 << 20


def _cache_path() -> Path:
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "zermelo" / "options.json"


def _signature() -> list:
    """Python version and (path, size, mtime) of the option declarations and every game source."""
    files = []
    for package, pattern in (("engine", "options.py"), ("engine", "game.py"), ("games", "**/*.py")):
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            raise ModuleNotFoundError(f"no package {package}", name=package)
        root = Path(spec.submodule_search_locations[0])
        for path in sorted(root.glob(pattern)):
            st = path.stat()
            files.append([str(path), st.st_size, st.st_mtime_ns])
    return [sys.version, files]


def build_lines() -> list[str]:
    """The ``option name ... type ...`` lines, built from the declarations."""
    import games
    from engine.options import all_specs

    return [spec.uci_line() for spec in all_specs(games)]


def option_lines(report: Callable[[str], None] | None = None) -> list[str]:
    """The ``option`` lines, from the cache when no source has changed since it was written.

    A cache that cannot be read as the lines of this build (damaged, edited by
    hand) is rebuilt, and ``report`` told so in one line: ``uci`` must always be
    answered with the options and its ok.
    """
    path = _cache_path()
    signature = _signature()
    try:
        cached = json.loads(read_text_bounded(path, CACHE_LIMIT))
        if cached["signature"] == signature:
            lines = cached["lines"]
            if _well_formed(lines):
                return lines
            raise ValueError("not a list of option lines")
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as e:
        if report is not None:
            report(f"option cache {path} unreadable ({str(e)[:80]}); rebuilt")
    lines = build_lines()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"signature": signature, "lines": lines}))
        os.replace(tmp, path)  # atomic: servers starting together never read half a file
    except OSError:
        pass  # an unwritable cache only costs speed
    return lines


def _well_formed(lines: object) -> bool:
    """True for a list of single ``option name ...`` lines, as :func:`build_lines` makes."""
    return isinstance(lines, list) and all(
        isinstance(line, str) and line.startswith("option name ") and line.isprintable() for line in lines)
