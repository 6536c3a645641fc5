"""Book making's settings object, and book making's place below the protocol:
``engine/books`` is handed a game object and plain move lists, so it imports
neither the games registry nor the protocol."""

from __future__ import annotations

import ast
import dataclasses
import pathlib

import pytest

from engine.books.build import BuildSettings

BOOKS = pathlib.Path(__file__).resolve().parents[1] / "engine" / "books"


def test_settings_are_frozen_and_normalised():
    s = BuildSettings(depth=4, max_moves=5, reply_movetime=[0, 50, 200])
    assert s.max_moves == (5,) and s.reply_movetime == (50, 200)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.plies = 3  # type: ignore[misc]
    assert s == BuildSettings(depth=4, max_moves=(5,), reply_movetime=(50, 200))
    assert hash(s) == hash(BuildSettings(depth=4, max_moves=[5], reply_movetime=(50, 200)))


def test_the_max_moves_schedule_is_by_ply_and_the_last_value_holds():
    s = BuildSettings(depth=2, max_moves=(3, 3, 1))
    assert [s.multipv(ply) for ply in range(5)] == [3, 3, 1, 1, 1]


@pytest.mark.parametrize("bad", [dict(), dict(depth=2, max_moves=()), dict(movetime=10, max_moves=(2, 0))])
def test_settings_that_cannot_build_are_refused(bad):
    with pytest.raises(ValueError):
        BuildSettings(**bad)


def test_book_making_imports_neither_games_nor_protocol():
    found = []
    for path in sorted(BOOKS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.name}: {n}" for n in names if n.split(".")[0] in ("games", "protocol")]
    assert found == []
