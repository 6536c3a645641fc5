"""Plays a legal move chosen by the position alone (its key and the seed of the
first argument): the same game from the same opening whichever process plays it."""
import sys

from fakeengine import run

SEED = int(sys.argv[1]) if len(sys.argv) > 1 else 1


def choose(ctx):
    moves = sorted(ctx.legal_texts())
    if not moves:
        return "(none)"
    return moves[(ctx.pos.key ^ SEED * 0x9E3779B97F4A7C15) % (1 << 61) % len(moves)]


run(choose)
