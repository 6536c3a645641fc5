"""Prints garbage: invalid UTF-8, a 200 kB line, broken info lines, then a
``bestmove`` that is no move at all."""
import sys

from fakeengine import run


def choose(ctx):
    out = sys.stdout.buffer
    out.write(b"\xff\xfe\x00garbage \x80\x81\n")
    out.write(b"x" * 200_000 + b"\n")
    out.write(b"info depth x score cp banana pv\ninfo score mate\nbestmoves\n\n   \n")
    out.flush()
    return "#@!"


run(choose)
