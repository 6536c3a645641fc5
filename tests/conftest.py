"""Shared fixtures: every registered game, and the paths of the data the tests ship."""

from __future__ import annotations

import pathlib
import signal
import subprocess
import sys

import pytest

import games

#: Published files the tests read, shipped in ``tests/data`` (see its README):
#: every 3- and 4-piece Syzygy table and a Polyglot opening book.
DATA = pathlib.Path(__file__).resolve().parent / "data"
SYZYGY_DIR = DATA / "syzygy"
POLYGLOT_BOOK = DATA / "polyglot" / "performance.bin"
ROOT = DATA.parent.parent


def zermelo(*args: str) -> subprocess.CompletedProcess:
    """``zermelo ARGS`` run as a user runs it, from the repository root: its exit status and output."""
    return subprocess.run([sys.executable, "-m", "protocol", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def interruptible() -> None:
    """``preexec_fn`` of a child that a test interrupts: Ctrl-C at its default, as from a
    terminal. A test worker started in the background ignores SIGINT, and an ignored
    signal stays ignored across exec, so the child would rightly play on."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(params=games.names())
def game(request):
    return games.load(request.param)
