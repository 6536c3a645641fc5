"""The ``zermelo`` command: no arguments runs the protocol server (GUIs start
engines that way); a first word selects a tool.

Tools are imported only when chosen, so the server starts fast.
"""

from __future__ import annotations

import importlib
import os
import sys

# subcommand -> (module:function taking argv, one-line help)
_COMMANDS: dict[str, tuple[str, str]] = {
    "gtp": ("protocol.server.core:gtp_main", "serve the Go Text Protocol (GTP 2) on stdin/stdout, for Go or Othello"),
    "hub": ("protocol.server.core:hub_main", "serve Hub, the draughts engine protocol (Scan's), on stdin/stdout"),
    "dxp": ("protocol.dxp:main", "play draughts over DXP (DamExchange) on TCP, as initiator or follower"),
    "nboard": ("protocol.server.core:nboard_main", "serve the NBoard protocol (Othello GUIs) on stdin/stdout"),
    "perft": ("protocol.tools:perft_main", "count move paths (perft/divide) for any game"),
    "bench": ("protocol.tools:bench_main", "fixed-depth search over built-in positions: node signature and nps"),
    "play": ("protocol.terminal.app:main", "play against the engine in the terminal"),
    "match": ("protocol.match.runner:main", "run engine-vs-engine matches"),
    "tables": ("protocol.tables_cli:main", "build and inspect endgame tables"),
    "solve": ("protocol.solve_cli:main", "prove the game-theoretic value of a position"),
    "book": ("protocol.book_cli:main", "build, show and export opening books"),
    "tree": ("protocol.tree_cli:main", "the tree a search walks: values, windows, cut-offs (text or picture)"),
    "lab": ("protocol.lab_cli:main", "measured search: alpha-beta node counts, deepening, quiescence"),
    "explain": ("protocol.explain_cli:main", "the static evaluation's terms, for a position and each move"),
    "datagen": ("protocol.datagen_cli:main", "self-play positions with search scores and results, for training"),
    "train": ("protocol.train_cli:main", "train the evaluation network on datagen's files"),
    "tune": ("protocol.tune_cli:main", "tune the hand-written evaluation's weights on datagen's files (Texel), "
             "or the search's numbers by matches (tune spsa)"),
}


def usage() -> str:
    lines = ["usage: zermelo [COMMAND] [ARGS...]", "",
             "With no command, run the protocol server on stdin/stdout (UCI/UGI, or GTP or Hub when the",
             "first command is a GTP one or hub); 'zermelo --game G [-p K=V ...]' serves game G from the start.",
             "", "commands:"]
    lines += [f"  {name:<8} {help_}" for name, (_, help_) in _COMMANDS.items()]
    lines.append("  (COMMAND --help for its options; --version: the version and which build runs)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    try:
        status = _run(sys.argv[1:] if argv is None else argv)
        # Flushed here so that a reader gone early (``| head``) is met inside the handler,
        # not by the interpreter's last flush at exit.
        sys.stdout.flush()
    except BrokenPipeError:
        # The Python docs' recipe (signal module, "Note on SIGPIPE"): stdout pointed at
        # devnull, so that the flush at exit does not fail again, and a quiet exit.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1
    return status


def _run(argv: list[str]) -> int:
    if not argv:
        from protocol.server import main as serve
        return serve() or 0
    cmd, rest = argv[0], argv[1:]
    if cmd in ("-h", "--help", "help"):
        print(usage())
        return 0
    if cmd in ("-V", "--version"):
        from engine import build
        from protocol.server import NAME
        print(f"{NAME}, {build.describe()}")
        return 0
    if cmd.startswith("-"):
        # Options before any command are the server's (``zermelo --game reversi``).
        from protocol.server.core import uci_main
        return uci_main(argv)
    if cmd not in _COMMANDS:
        print(f"zermelo: unknown command {cmd!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module, func = _COMMANDS[cmd][0].split(":")
    status: int = getattr(importlib.import_module(module), func)(rest) or 0
    return status


if __name__ == "__main__":
    sys.exit(main())
