"""Plays as hasher.py, but at its first ``go`` while the file of the second argument
does not exist it creates it and kills its parent process (the worker that runs
the match's games), as a node going down mid-game would."""
import os
import signal
import sys

from fakeengine import run

SEED = int(sys.argv[1])
MARK = sys.argv[2]


def choose(ctx):
    if not os.path.exists(MARK):
        open(MARK, "w").close()
        os.kill(os.getppid(), signal.SIGKILL)
    moves = sorted(ctx.legal_texts())
    if not moves:
        return "(none)"
    return moves[(ctx.pos.key ^ SEED * 0x9E3779B97F4A7C15) % (1 << 61) % len(moves)]


run(choose)
