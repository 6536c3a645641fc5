"""``zermelo play`` without a terminal: one move or command a line from a pipe or file.

When standard input is not a terminal there is no screen to run, so the same
:class:`protocol.terminal.session.Session` is driven line by line: each line is
entered as at the prompt, the engine's replies are waited for, and what the
screen would show is printed as plain text (the moves, the messages, the board
when it is a human's turn or the game is over). The end of the input ends the
session::

    printf 'e4\\nNf3\\n' | zermelo play chess --depth 4
"""

from __future__ import annotations

import argparse
import queue
from typing import Callable, TextIO

from protocol.terminal.boards import View, draw
from protocol.terminal.session import COMMANDS, Session


def play_lines(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, sides: Callable[[Session], str]) -> int:
    """Play the game of ``args`` with the lines of ``stdin``; ``sides(session)`` says who plays what."""
    events: queue.SimpleQueue = queue.SimpleQueue()
    s = Session(args.game, humans=args.humans, movetime=args.time, depth=args.depth, start=args.fen,
                array=args.array, options=args.options, post=lambda fn, *a: events.put((fn, a)))

    def say(text: str) -> None:
        print(text, file=stdout, flush=True)

    def settle() -> None:
        # The engine's reports arrive from its thread; they are run here, in order, until it rests.
        while s.thinking is not None:
            fn, fn_args = events.get()
            fn(*fn_args)

    shown = 0
    said = ""

    def report() -> None:
        nonlocal shown, said
        engine_moved = False
        for mover, text in zip(s.movers[shown:], s.shown[shown:]):
            if mover not in s.humans:
                engine_moved = True
            else:
                say(f"{s.player_name(mover)} plays {text}")
        shown = len(s.moves)
        if engine_moved and s.last_search:
            say(s.last_search)
        if s.panel == "help":
            say("\n".join(f"  {name:<9}{text}" for name, text in COMMANDS.items()))
        if s.message and s.message != said:
            say(s.message)
        said = s.message

    def board() -> None:
        view = View(s.game, s.position, s.before[-1] if s.before else None, s.flipped, mono=True)
        say("".join(text for _, text in draw(view)).rstrip("\n"))
        if not s.is_over():
            turn = s.position.turn
            say(f"{s.player_name(turn)} to move ({'you' if turn in s.humans else 'zermelo'})")

    say(f"zermelo play {s.title}: {sides(s)}; level {s.level_text()}")
    say("one move or command a line; 'help' lists the commands")
    try:
        s.begin()
        settle()
        report()
        board()
        for line in stdin:
            before = (s.position.to_text(), len(s.moves))
            s.submit(line)
            settle()
            report()
            if s.quit:
                break
            if (s.position.to_text(), len(s.moves)) != before:
                board()
    finally:
        s.close()
    return 0
