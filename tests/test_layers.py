"""The floor plan of the layers, checked from the source.

``protocol`` sits above ``engine`` and ``games``; ``games`` use only ``engine``'s
interface modules (never the search, never the protocol); ``engine`` knows no
game and no protocol. The import graph is read with ``ast`` from every module of
the three packages, counting imports inside functions and under
``TYPE_CHECKING`` too: an import dodged into a function is still a dependency.
An edge goes to the module named (``from a.b import c`` names ``a.b.c`` when that
is a module, else ``a.b``), not to the packages above it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "games", "protocol")


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _target(name: str, modules: dict[str, Path]) -> str | None:
    """The module of ours ``name`` refers to (the longest known prefix), or ``None``."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        edges = graph[module] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                names = [f"{base}.{alias.name}" for alias in node.names]
            for name in names:
                target = _target(name, modules)
                if target is not None and target != module:
                    edges.add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _layer(module: str) -> str:
    return module.split(".")[0]


def test_the_graph_is_read():
    graph = import_graph()
    assert "engine.search" in graph["engine.engine"]
    assert "engine.game" in graph["games"]


def test_no_cycle_between_modules():
    assert _cycles(import_graph()) == []


def test_the_cycle_finder_finds_cycles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_engine_imports_no_game_and_no_protocol():
    bad = [(m, t) for m, ts in import_graph().items() if _layer(m) == "engine"
           for t in ts if _layer(t) in ("games", "protocol")]
    assert bad == []


def test_games_import_neither_the_search_nor_the_protocol():
    bad = [(m, t) for m, ts in import_graph().items() if _layer(m) == "games"
           for t in ts if t == "engine.search" or _layer(t) == "protocol"]
    assert bad == []
