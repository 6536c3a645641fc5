"""List the places that tell games apart by comparing a game's name with a string.

A game's behaviour belongs in its class traits (``engine/game.py``), so that a
new game is one registry line and one class, not a hunt for string literals.
This script reads the source with ``ast`` and reports, outside ``games/`` and
the terminal's board renderers:

- comparisons (``==``, ``!=``, ``in``, ``not in``) where one side is a string
  literal naming a registered game or alias, or a tuple/list/set of them;
- dict displays whose keys include such a literal (a dispatch table keyed by game).

    python scripts/name_tests.py [DIR ...]      (default: engine protocol scripts)

It exits 1 when it finds any; ``tests/test_no_name_tests.py`` holds ``protocol/`` to none.
"""

from __future__ import annotations

import ast
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: Where naming a game is the point: the rules themselves and per-game drawing.
EXEMPT = ("games/", "protocol/terminal/boards.py")


#: Game names that are also protocol words: ``go`` is UCI's and the terminal's search
#: command, so a literal ``"go"`` in the protocol names the command, not the game.
COMMAND_WORDS = {"go"}


def game_names() -> set[str]:
    """Every registered game name, alias and preset name, except :data:`COMMAND_WORDS`."""
    import games

    return (set(games.names()) | set(games._ALIASES) | set(games._PRESETS)) - COMMAND_WORDS


def _literal_names(node: ast.AST, names: set[str]) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [n for elt in node.elts for n in _literal_names(elt, names)]
    return []


def find(path: pathlib.Path, names: set[str]) -> list[tuple[int, str]]:
    """``(line, what)`` for each game-name test in one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            found = [n for side in (node.left, *node.comparators) for n in _literal_names(side, names)]
            if found:
                out.append((node.lineno, f"compares with {', '.join(map(repr, found))}"))
        elif isinstance(node, ast.Dict):
            found = [n for key in node.keys if key is not None for n in _literal_names(key, names)]
            if found:
                out.append((node.lineno, f"dict keyed by {', '.join(map(repr, found))}"))
    return sorted(out)


def scan(dirs: list[str], names: set[str] | None = None) -> list[str]:
    """``path:line: what`` for every game-name test under ``dirs`` (relative to the repo)."""
    names = game_names() if names is None else names
    report = []
    for d in dirs:
        for path in sorted((ROOT / d).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(EXEMPT):
                continue
            report += [f"{rel}:{line}: {what}" for line, what in find(path, names)]
    return report


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    report = scan(argv or ["engine", "protocol", "scripts"])
    print("\n".join(report) if report else "no game-name tests found")
    return 1 if report else 0


if __name__ == "__main__":
    sys.exit(main())
