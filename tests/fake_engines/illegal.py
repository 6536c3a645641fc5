"""Plays a well-formed but illegal move (Nim: take 9 coins; chess: e2e5)."""
from fakeengine import run

run(lambda ctx: {"nim": "9", "chess": "e2e5"}.get(ctx.game_name, "a9"))
