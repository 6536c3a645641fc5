"""The examples in the docstrings of engine/, games/ and protocol/ hold: every module
with doctests runs them, so an example can never go stale unnoticed."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import engine
import games
import protocol


def _modules() -> list[str]:
    """Every module of the three packages, the packages included; ``__main__`` modules
    are left out, as importing them runs the program."""
    names = []
    for package in (engine, games, protocol):
        names.append(package.__name__)
        names += [info.name for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
    return [name for name in names if not name.endswith(".__main__")]


def _has_examples(module: ModuleType) -> bool:
    return any(test.examples for test in doctest.DocTestFinder().find(module))


WITH_EXAMPLES = [name for name in _modules() if _has_examples(importlib.import_module(name))]


def test_modules_are_found():
    # Guards the collection itself: an empty list would pass every test vacuously.
    assert {"engine.game", "games", "protocol.server.uci"} <= set(WITH_EXAMPLES)


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    # doctest prints each failing example with what it got; pytest shows that output.
    assert result.attempted > 0 and result.failed == 0, f"{name}: {result.failed} of {result.attempted} failed"
