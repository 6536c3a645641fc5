"""``zermelo solve``: prove the game-theoretic value of a position by proof-number search.

    zermelo solve tictactoe                                  # draw
    zermelo solve mnk -p m=4 -p n=4 -p k=4                   # draw
    zermelo solve nim                                        # 7 coins, take 1-2, misère: a loss
    zermelo solve kalah -p pits=4 -p seeds=3                 # a win, by 6 seeds
    zermelo solve connect4 --fen ... --budget 60s
    zermelo solve nim --tree                                 # the solution (AND/OR) tree, as text
    zermelo solve tictactoe --tree tree.svg                  # ... or drawn (.svg or .png)

The value is for the side to move: a win proof first, then a non-loss proof
(see :mod:`engine.pns`). It prints the value, a first move that achieves it,
the number of positions in the deciding proof and the plies to the end along
it. Kalah also gets its exact final store difference (``solve_margin``).
``--tree`` shows the solution tree of the proof: the prover's one answer at
each of its turns, every move of the other side.
"""

from __future__ import annotations

import argparse
import sys
import time


def _budget(text: str) -> tuple[int | None, float | None]:
    """``"5000000"`` nodes or ``"30s"`` seconds."""
    text = text.strip().lower()
    if text.endswith("s"):
        return None, float(text[:-1])
    return int(text), None


def main(argv: list[str]) -> int:
    # A budget in seconds counts from here, so that it covers the imports and set-up too.
    started = time.perf_counter()
    parser = argparse.ArgumentParser(prog="zermelo solve", description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="game name (as UCI_Variant)")
    parser.add_argument("--fen", default=None, help="position text (default: the start position)")
    parser.add_argument("--moves", default="", help="moves played from that position, space-separated")
    parser.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE",
                        help="game parameter, e.g. -p pits=4 (repeatable)")
    parser.add_argument("--budget", default="120s",
                        help="nodes (e.g. 5000000) or seconds (e.g. 60s); default 120s")
    parser.add_argument("--tree", nargs="?", const="-", default=None, metavar="FILE",
                        help="the solution tree: printed, or drawn to FILE (.svg or .png)")
    parser.add_argument("--tree-limit", type=int, default=20_000, help="most nodes of the solution tree (default 20000)")
    args = parser.parse_args(argv)
    if args.tree not in (None, "-"):
        from protocol import draw
        try:
            draw.check_picture_path(args.tree)
            draw.require_matplotlib()
        except (ValueError, draw.PlotsUnavailable) as e:
            print(f"zermelo solve: {e}", file=sys.stderr)
            return 2

    import games
    from engine.game import InvalidPositionError, IllegalMoveError, NO_MOVE
    from engine.pns import solve
    from protocol.tools import game_params

    params = game_params(parser, args.param)
    try:
        nodes, seconds = _budget(args.budget)
    except ValueError:
        parser.error(f"--budget {args.budget!r}: expected a node count or seconds like 60s")
    if not (nodes if nodes is not None else seconds or 0) > 0:
        parser.error(f"--budget {args.budget!r}: must be positive")
    try:
        game = games.load(args.game, **params)
        pos = game.new_position(args.fen)
        for text in args.moves.split():
            pos.push(pos.parse_move(text))
    except (KeyError, ValueError, InvalidPositionError, IllegalMoveError) as e:
        # A KeyError's str() quotes its message.
        print(f"zermelo solve: {e.args[0] if isinstance(e, KeyError) else e}", file=sys.stderr)
        return 2

    if len(game.players) > 2:
        print(f"zermelo solve: {game.name} is a game of {len(game.players)} players; "
              "proof-number search proves two-player games only", file=sys.stderr)
        return 2
    deadline = started + seconds if seconds is not None else None
    result = solve(game, pos, max_nodes=nodes, deadline=deadline)
    elapsed = time.perf_counter() - started
    mover = game.players[pos.turn]
    settings = ", ".join(f"{k}={v}" for k, v in game.params.model_dump().items())
    print(f"game: {game.name}" + (f" ({settings})" if settings else ""))
    print(f"position: {pos.to_text()}  ({mover} to move)")
    if result.value is None:
        if deadline is not None:
            # The solver reads the clock every few nodes; how far it ran on is shown, not hidden.
            over = max(0.0, time.perf_counter() - deadline)
            budget = f"{seconds:g}s ran out after {result.nodes:,} nodes in {elapsed:.2f}s, {over:.2f}s past it"
        else:
            budget = f"{nodes:,} nodes ran out after {result.nodes:,} nodes in {elapsed:.2f}s"
        print(f"value: unknown (the budget of {budget})")
        return 1
    value = {1: f"win for {mover}", 0: "draw", -1: f"loss for {mover} (win for {game.players[1 - pos.turn]})"}
    print(f"value: {value[result.value]}")
    if result.plies is not None:
        print(f"distance: the game ends within {result.plies} plies along the proof")
    if result.move != NO_MOVE:
        print(f"first move: {pos.move_text(result.move)}")
    else:
        print("first move: none (every move loses)" if result.value < 0 else "first move: none")
    print(f"proof: {result.size:,} positions; searched {result.nodes:,} nodes in {result.seconds:.1f}s")
    if game.margin_unit:
        # Such a game's module offers solve_margin(pos), the exact final margin.
        solve_margin = sys.modules[type(game).__module__].solve_margin
        t0 = time.perf_counter()
        margin = solve_margin(pos)
        print(f"margin: {margin:+d} {game.margin_unit} for {mover} with perfect play "
              f"({time.perf_counter() - t0:.1f}s)")
    if args.tree is not None:
        return _tree(game, pos, result.value, args.tree, args.tree_limit)
    return 0


def _tree(game, pos, value: int, where: str, limit: int) -> int:
    """Print or draw the solution tree proving ``value``."""
    from engine.pns import solution_tree
    from protocol import draw

    prover, tree = solution_tree(game, pos, value, max_nodes=limit)
    shown = draw.shown_solution(tree, pos, game.players, prover)
    nodes = sum(1 for _ in tree.walk())
    goal = "a draw at least" if value == 0 else "the win"
    print(f"solution tree: {nodes:,} nodes; {game.players[prover]}'s strategy for {goal}: "
          f"its one answer at each 'or' node (starred), every move of {game.players[1 - prover]} at each 'and' node"
          + ("; cut short at --tree-limit" if any(n.truncated for n in tree.walk()) else ""))
    if where == "-":
        for line in draw.text_tree(shown, draw.colour_wanted(sys.stdout), limit=2000):
            print(line)
    else:
        drawn = draw.draw_tree(shown, where, f"{game.name}: solution tree ({game.players[prover]} proves {goal})")
        print(f"picture: {where} ({drawn} nodes drawn)")
    return 0
