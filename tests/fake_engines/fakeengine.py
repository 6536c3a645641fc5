"""A minimal UCI/UGI engine on zermelo's rules, for refereeing tests.

Each fake engine script calls :func:`run` with a ``choose(ctx)`` callback that
returns the ``bestmove`` text for a ``go`` (or ``None`` to answer nothing).
``ctx`` holds the position, the game, the ``go`` count of this process and a
seeded random generator.
"""

from __future__ import annotations

import random
import sys

import games


class Context:
    def __init__(self, seed: int):
        self.game_name = "chess"
        self.pos = None
        self.gos = 0
        self.rng = random.Random(seed)

    def legal_texts(self) -> list[str]:
        return [self.pos.move_text(m) for m in self.pos.legal_moves()]


def random_move(ctx: Context) -> str:
    moves = ctx.legal_texts()
    return ctx.rng.choice(moves) if moves else "(none)"


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def run(choose=random_move, seed: int = 1, on_quit=None) -> None:
    ctx = Context(seed)
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        if cmd in ("uci", "ugi"):
            say("id name fake")
            say("option name UCI_Variant type combo default chess " + " ".join(f"var {g}" for g in games.names()))
            say("option name Hash type spin default 16 min 1 max 1024")
            say(cmd + "ok")
        elif cmd == "isready":
            games.load(ctx.game_name)  # heavy set-up before readyok, as real engines do
            say("readyok")
        elif cmd == "setoption" and len(words) >= 5 and words[2] == "UCI_Variant":
            ctx.game_name = words[4]
        elif cmd == "position":
            game = games.load(ctx.game_name)
            rest = words[1:]
            cut = rest.index("moves") if "moves" in rest else len(rest)
            text = None if rest[0] == "startpos" else " ".join(rest[1:cut])
            ctx.pos = game.new_position(text)
            for move in rest[cut + 1:]:
                ctx.pos.push(ctx.pos.parse_move(move))
        elif cmd == "go":
            ctx.gos += 1
            move = choose(ctx)
            if move is not None:
                say("info depth 1 score cp 0 nodes 1 pv " + move)
                say("bestmove " + move)
        elif cmd == "quit":
            if on_quit is None or on_quit():
                return
