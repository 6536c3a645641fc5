"""Plays, after ``argv[1]`` seconds, the legal move (in text order) whose index is the
ply number modulo their count, and expects the reply the same rule picks
(``bestmove X ponder Y``): two ponderers always predict each other. ``go ponder``
is answered only after ``ponderhit`` (again after ``argv[1]`` seconds) or ``stop``
(at once)."""
import sys
import time

import games
from fakeengine import Context, say

THINK = float(sys.argv[1]) if len(sys.argv) > 1 else 0.05


def pick(pos, ply: int) -> str | None:
    moves = sorted(pos.move_text(m) for m in pos.legal_moves())
    return moves[ply % len(moves)] if moves else None


def answer(ctx: Context) -> None:
    move = pick(ctx.pos, ctx.ply)
    if move is None:
        say("bestmove (none)")
        return
    after = ctx.pos.copy()
    after.push(after.parse_move(move))
    reply = pick(after, ctx.ply + 1)
    say("info depth 1 score cp 0 nodes 1 pv " + move)
    say(f"bestmove {move}" + (f" ponder {reply}" if reply else ""))


ctx = Context(1)
pondering = False
for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "uci":
        say("id name ponderer")
        say("option name Ponder type check default false")
        say("uciok")
    elif cmd == "isready":
        say("readyok")
    elif cmd == "position":
        rest = words[1:]
        cut = rest.index("moves") if "moves" in rest else len(rest)
        ctx.pos = games.load("chess").new_position(None if rest[0] == "startpos" else " ".join(rest[1:cut]))
        for move in rest[cut + 1:]:
            ctx.pos.push(ctx.pos.parse_move(move))
        ctx.ply = len(rest[cut + 1:])
    elif cmd == "go" and "ponder" in words:
        pondering = True
    elif cmd == "go" or cmd == "ponderhit" and pondering:
        pondering = False
        time.sleep(THINK)
        answer(ctx)
    elif cmd == "stop" and pondering:
        pondering = False
        say(f"bestmove {pick(ctx.pos, ctx.ply)}")
    elif cmd == "quit":
        break
