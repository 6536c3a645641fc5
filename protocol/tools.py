"""``zermelo perft`` and ``zermelo bench``: move-path counts and the search signature.

``zermelo perft [--game G] [--fen TEXT] DEPTH [--divide]`` prints the number
of move paths of DEPTH plies (with ``--divide``, first one ``move: count``
line per root move, as Stockfish's ``go perft``).

``zermelo bench [--game G] [--depth D] [--param K=V ...]`` searches the game's
bench positions to a fixed depth with a fresh table each and prints ``Nodes
searched`` (a signature of the search: the same code gives the same count) and
``Nodes/second``; ``--param`` benches the game with other parameters (its start
position when they change the board).
"""

from __future__ import annotations

import argparse
import sys
import time

from pydantic import ValidationError

import games
from engine.game import IllegalMoveError, InvalidPositionError


def _game_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", "-g", default="chess",
                        help=f"game name or alias (default chess; known: {', '.join(games.names())})")


def game_params(parser: argparse.ArgumentParser, items: list[str]) -> dict[str, str]:
    """``--param NAME=VALUE`` items as a dict (the game's pydantic model converts the
    values); a malformed item is a usage error."""
    params = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            parser.error(f"--param {item!r}: expected NAME=VALUE")
        params[name.strip()] = value.strip()
    return params


def _load(parser: argparse.ArgumentParser, name: str):
    try:
        return games.load(name)
    except KeyError as e:
        parser.error(e.args[0])


def perft_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="zermelo perft", description="Count move paths (perft) of any game.")
    _game_arg(parser)
    parser.add_argument("--fen", "--text", dest="text", help="position text (default: the start position)")
    parser.add_argument("depth", type=int, help="plies")
    parser.add_argument("--divide", action="store_true", help="one count per root move first")
    args = parser.parse_args(argv)
    if args.depth < 0:
        parser.error("depth must be 0 or more")
    game = _load(parser, args.game)
    try:
        pos = game.new_position(args.text)
    except InvalidPositionError as e:
        parser.error(str(e))
    from engine.perft import divide, perft

    start = time.perf_counter()
    if args.divide and args.depth > 0:
        counts = divide(pos, args.depth)
        for move, n in counts:
            print(f"{move}: {n}")
        print()
        total = sum(n for _, n in counts)
    else:
        total = perft(pos, args.depth)
    seconds = time.perf_counter() - start
    print(f"Nodes searched: {total}")
    print(f"Time: {seconds:.3f} s", file=sys.stderr)
    return 0


def bench_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="zermelo bench",
                                     description="Fixed-depth search of built-in positions: node signature and speed.")
    _game_arg(parser)
    parser.add_argument("--depth", "-d", type=int, default=None,
                        help="search depth (default: 5 for chess, draughts and reversi, 7 for the rest)")
    parser.add_argument("--param", "-p", action="append", default=[], metavar="K=V",
                        help="a game parameter (repeatable), e.g. --param heaps=3,4,5 to bench a larger Nim")
    args = parser.parse_args(argv)
    params = game_params(parser, args.param)
    try:
        game = games.load(args.game, **params)
    except KeyError as e:
        parser.error(e.args[0])
    except ValidationError as e:
        parser.error(f"bad game parameters: {e.errors()[0]['msg']}")
    if len(game.players) > 2:
        print(f"zermelo bench: {game.name} is a game of {len(game.players)} players; "
              "the bench signature is the two-player search's", file=sys.stderr)
        return 2
    depth = args.depth if args.depth is not None else game.bench_depth
    if depth < 1:
        parser.error("depth must be at least 1")
    from engine.bench import run_bench

    try:
        nodes, seconds = run_bench(game, game.bench_texts, depth)
    except (InvalidPositionError, IllegalMoveError) as e:
        print(f"zermelo bench: bad bench position: {e}", file=sys.stderr)
        return 1
    print(f"Positions: {max(1, len(game.bench_texts))}")
    print(f"Depth: {depth}")
    print(f"Nodes searched: {nodes}")
    print(f"Nodes/second: {int(nodes / max(seconds, 1e-9))}")
    return 0
