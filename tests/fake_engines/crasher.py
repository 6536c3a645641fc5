"""Plays a legal move, then dies without a word on its second ``go``."""
import os

from fakeengine import random_move, run


def choose(ctx):
    if ctx.gos >= 2:
        os._exit(3)
    return random_move(ctx)


run(choose)
