"""The switch point of long compiled loops: where a thread waiting for the GIL gets it.

CPython hands the GIL to a waiting thread from the interpreter loop only: a thread
that has waited one switch interval (``sys.setswitchinterval``) for the GIL asks
for it, and the running thread gives it up at its next check, which every
interpreted function makes on entry. Compiled code makes no such check, so a long
compiled loop (the search, perft, an exact solver) would keep the server's reader
from ``isready`` and ``stop`` until it ends. Such loops call :func:`switch_point`
every few thousand operations instead.

Releasing the GIL from C for a moment (``with nogil: pass``) is no substitute: it
wakes the waiting thread, which usually finds the GIL taken again and restarts
its interval, so a loop that releases more often than the interval starves it.

This module is never compiled (it is not in ``engine.build.COMPILED_MODULES``):
the check lives in the interpreter's entry into :func:`switch_point`.
"""

from __future__ import annotations


def switch_point() -> None:
    """Hand the GIL to a thread that has waited a switch interval for it; else return at once."""
