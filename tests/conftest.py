"""Shared fixtures: every registered game, and the path to the shared data."""

from __future__ import annotations

import pathlib

import pytest

import games

#: Published data beside the checkout (Syzygy tables, Polyglot book).
SHARED = pathlib.Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture(params=games.names())
def game(request):
    return games.load(request.param)
