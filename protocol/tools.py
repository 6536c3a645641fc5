"""``zermelo perft`` and ``zermelo bench``: move-path counts and the search signature.

``zermelo perft [--game G] [--fen TEXT] DEPTH [--divide]`` prints the number
of move paths of DEPTH plies (with ``--divide``, first one ``move: count``
line per root move, as Stockfish's ``go perft``).

``zermelo perft --games`` counts complete games instead (every game to its end,
by result and length: tic-tac-toe's 255,168 beside the chapters' bound 9!), and
``zermelo perft --estimate N [DEPTH]`` estimates the complete tree (or perft at
DEPTH) by Knuth's N random probes, with the average branching factor (see
:mod:`engine.estimate`), beside the chapters' figures where they give one.

``zermelo bench [--game G] [--depth D] [--param K=V ...]`` searches the game's
bench positions to a fixed depth with a fresh table each and prints ``Nodes
searched`` (a signature of the search: the same code gives the same count),
``Nodes/second`` of the search alone and, on its own line, the set-up it
leaves out (see :mod:`engine.bench`); ``--param`` benches the game with other
parameters (its start position when they change the board).
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
    parser.add_argument("--param", "-p", action="append", default=[], metavar="K=V",
                        help="a game parameter (repeatable), e.g. -p m=4")
    parser.add_argument("depth", type=int, nargs="?", help="plies (not with --games; optional with --estimate)")
    parser.add_argument("--divide", action="store_true", help="one count per root move first")
    parser.add_argument("--games", action="store_true",
                        help="count complete games (every game to its end) instead of paths of DEPTH plies")
    parser.add_argument("--estimate", type=int, default=None, metavar="N",
                        help="estimate the complete tree (or perft at DEPTH) by Knuth's N random probes")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random probes (default 1)")
    args = parser.parse_args(argv)
    if args.games and (args.estimate is not None or args.depth is not None or args.divide):
        parser.error("--games counts whole games: no DEPTH, --divide or --estimate with it")
    if args.estimate is not None and (args.estimate < 1 or args.divide):
        parser.error("--estimate needs a positive number of probes, and no --divide")
    if args.depth is None and not args.games and args.estimate is None:
        parser.error("the depth is required (or --games, or --estimate N)")
    if args.depth is not None and args.depth < 0:
        parser.error("depth must be 0 or more")
    params = game_params(parser, args.param)
    try:
        game = games.load(args.game, **params)
    except KeyError as e:
        parser.error(e.args[0])
    except ValidationError as e:
        parser.error(f"bad game parameters: {e.errors()[0]['msg']}")
    try:
        pos = game.new_position(args.text)
    except InvalidPositionError as e:
        parser.error(str(e))
    if args.games:
        return _count_games(game, pos)
    if args.estimate is not None:
        return _estimate(game, pos, args.estimate, args.seed, args.depth)
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
    _time(seconds)
    return 0


def _time(seconds: float) -> None:
    """The time on stderr (stdout keeps only the counts, for scripts), after the counts:
    stdout into a pipe or file is block-buffered, so without this flush a shared
    stream (``2>&1``) would show the time first or run it into the last count."""
    sys.stdout.flush()
    print(f"Time: {seconds:.3f} s", file=sys.stderr)


def _count_games(game, pos) -> int:
    from engine.estimate import complete_games

    start = time.perf_counter()
    count = complete_games(pos)
    seconds = time.perf_counter() - start
    p = game.players
    print(f"complete games: {count.games:,} ({p[0]} wins {count.wins[0]:,}, {p[1]} wins {count.wins[1]:,}, "
          f"draws {count.draws:,})")
    print("by length in plies: " + ", ".join(f"{n}: {c:,}" for n, c in sorted(count.lengths.items())))
    print(f"nodes of the complete game tree: {count.nodes:,} (root included)")
    # Placement games state the chapters' bound: every order of filling the board.
    orders = game.filling_orders()
    if orders is not None and pos.to_text() == game.new_position().to_text():
        cells, bound = orders
        print(f"bound: {cells}! = {bound:,} orders of filling the board; "
              f"{count.games / bound:.1%} of them are games (many end earlier)")
    _time(seconds)
    return 0


def _power(log10: float) -> str:
    if log10 == float("-inf"):
        return "0"
    if log10 < 9:
        return f"{10 ** log10:,.0f}"
    mantissa, exponent = 10 ** (log10 % 1), int(log10 // 1)
    return f"{mantissa:.2f} × 10^{exponent}"


def _estimate(game, pos, probes: int, seed: int, depth: int | None) -> int:
    from engine.estimate import knuth_estimate

    start = time.perf_counter()
    est = knuth_estimate(pos, probes, seed, depth)
    seconds = time.perf_counter() - start
    mean_length = sum(est.lengths) / probes
    print(f"Knuth's estimate from {probes:,} random probes (seed {seed}); "
          f"probes last {mean_length:.1f} plies on average, at most {max(est.lengths)}")
    low, median, high = est.spread()
    if depth is None:
        print(f"complete games: ≈ {_power(est.log10_leaves())}")
        print(f"nodes of the complete game tree: ≈ {_power(est.log10_nodes())}")
        print(f"average branching factor: {est.branching():.2f} (moves per interior node)")
        print(f"spread: log10 of one probe's count: 10 % below {low:.1f}, median {median:.1f}, "
              f"10 % above {high:.1f} (the mean is carried by the longest games)")
        print(f"b^d: ≈ 10^{est.log10_bd():.1f}, b = {est.ply_branching():.2f} moves a ply (geometric mean along "
              f"the probes), d = {mean_length:.1f} plies (their mean length): one game of typical length")
        chapters = game.size_in_chapters
        if chapters is not None and pos.to_text() == game.new_position().to_text():
            print(f"chapters: ≈ 10^{chapters[0]} {chapters[1]}")
            print(f"why they differ: Knuth's estimate is the mean of the probes' products b0·b1·…, carried by "
                  f"the few longest random games (up to {max(est.lengths)} plies: the spread above); the "
                  "chapters' figure is b^d, the paths of one game of typical length (random games run "
                  "longer than played ones)")
    else:
        print(f"perft {depth}: ≈ {_power(est.log10_leaves())}")
        print(f"nodes to depth {depth}: ≈ {_power(est.log10_nodes())}")
        if est.leaf_sum:
            print(f"effective branching factor: {10 ** (est.log10_leaves() / max(depth, 1)):.2f} "
                  f"(perft {depth} to the power 1/{depth})")
    _time(seconds)
    return 0


def bench_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="zermelo bench",
                                     description="Fixed-depth search of built-in positions: node signature and speed.")
    _game_arg(parser)
    parser.add_argument("--depth", "-d", type=int, default=None,
                        help="search depth (default: 5 for chess, draughts and reversi, 7 for the rest)")
    parser.add_argument("--param", "-p", action="append", default=[], metavar="K=V",
                        help="a game parameter (repeatable), e.g. --param heaps=3,4,5 to bench a larger Nim")
    evaluation = parser.add_mutually_exclusive_group()
    evaluation.add_argument("--eval-file", metavar="PATH", default="",
                            help="network weights (.znn) to evaluate with (default: the network "
                                 "shipped for the game, if any)")
    evaluation.add_argument("--hand-written", action="store_true",
                            help="evaluate with the game's hand-written evaluation, not a network")
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
    from engine import nnue
    from engine.bench import BENCH_HASH_MB, bench

    try:
        chosen = None if args.hand_written else nnue.chosen_for(game, args.eval_file)
    except nnue.NetworkFileError as e:
        print(f"zermelo bench: {e}", file=sys.stderr)
        return 2
    try:
        result = bench(game, game.bench_texts, depth, chosen and chosen[1])
    except (InvalidPositionError, IllegalMoveError) as e:
        print(f"zermelo bench: bad bench position: {e}", file=sys.stderr)
        return 1
    positions = max(1, len(game.bench_texts))
    print(f"Positions: {positions}")
    print(f"Evaluation: {'network ' + chosen[0] if chosen else 'hand-written'}")
    print(f"Depth: {depth}")
    print(f"Nodes searched: {result.nodes}")
    print(f"Search time: {result.search_seconds * 1000:.0f} ms")
    print(f"Nodes/second: {result.nps}")
    print(f"Set-up, not timed: {result.setup_seconds * 1000:.0f} ms ({positions} position{'s' * (positions > 1)} "
          f"and fresh {BENCH_HASH_MB} MB tables, their memory touched; a warm-up search of depth 1)")
    return 0
