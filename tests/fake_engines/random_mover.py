"""Plays uniformly random legal moves (seed from the first argument)."""
import sys

from fakeengine import run

run(seed=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
