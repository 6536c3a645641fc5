"""The hasher's moves (chosen by the position and the seed of the first argument),
each after thinking for the milliseconds of the second: games that last long
enough to be interrupted in the middle, and replay the same when played again."""
import sys
import time

from fakeengine import run

SEED = int(sys.argv[1]) if len(sys.argv) > 1 else 1
DELAY = int(sys.argv[2]) / 1000 if len(sys.argv) > 2 else 0.05


def choose(ctx):
    moves = sorted(ctx.legal_texts())
    if not moves:
        return "(none)"
    time.sleep(DELAY)
    return moves[(ctx.pos.key ^ SEED * 0x9E3779B97F4A7C15) % (1 << 61) % len(moves)]


run(choose)
