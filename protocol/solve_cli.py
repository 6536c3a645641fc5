"""``zermelo solve``: prove the game-theoretic value of a position by proof-number search.

    zermelo solve tictactoe                                  # draw
    zermelo solve mnk -p m=4 -p n=4 -p k=4                   # draw
    zermelo solve nim                                        # 7 coins, take 1-2, misère: a loss
    zermelo solve kalah -p pits=4 -p seeds=3                 # a win, by 6 seeds
    zermelo solve connect4 --fen ... --budget 60s
    zermelo solve reversi --fen ... --threads 2              # the exact disc difference, on 2 processes
    zermelo solve nim --tree                                 # the solution (AND/OR) tree, as text
    zermelo solve tictactoe --tree tree.svg                  # ... or drawn (.svg or .png)
    zermelo solve nim --graph                                # the complete game graph, solution in bold
    zermelo solve nim --graph nim.svg --problem V            # ... drawn; V: MINUS can force a win
    zermelo solve --file docs/graphs/fig10.json              # an AND/OR graph file: solvable nodes, solution graphs

The value is for the side to move: a win proof first, then a non-loss proof
(see :mod:`engine.pns`). It prints the value, a first move that achieves it,
the number of positions in the deciding proof and the plies to the end along
it. Kalah also gets its exact final store difference (``solve_margin``). Go and
reversi are solved for their exact margin by their own search instead (reversi's
on ``--threads`` processes, :mod:`games.reversi.split`).
``--tree`` shows the solution tree of the proof: the prover's one answer at
each of its turns, every move of the other side.

``--graph`` and ``--file`` pose the chapters' AND/OR problems instead (see
:mod:`engine.andor`): W(X) (PLUS, the side to move, can force a win) or V(X)
(MINUS, the other player, can force a win), the
solvable nodes marked round by round, every solution graph (or the smallest),
repeated positions merged into one node.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.position import Position


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
    parser.add_argument("game", nargs="?", help="game name (as UCI_Variant)")
    parser.add_argument("--fen", default=None, help="position text (default: the start position)")
    parser.add_argument("--moves", default="", help="moves played from that position, space-separated")
    parser.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE",
                        help="game parameter, e.g. -p pits=4 (repeatable)")
    parser.add_argument("--budget", default="120s",
                        help="nodes (e.g. 5000000) or seconds (e.g. 60s); default 120s")
    parser.add_argument("--threads", type=int, default=1, metavar="N",
                        help="processes for a game solved by its own margin search that can use them "
                             "(reversi, from 20 empties); default 1")
    parser.add_argument("--tree", nargs="?", const="-", default=None, metavar="FILE",
                        help="the solution tree: printed, or drawn to FILE (.svg or .png)")
    parser.add_argument("--tree-limit", type=int, default=20_000, help="most nodes of the solution tree (default 20000)")
    parser.add_argument("--graph", nargs="?", const="-", default=None, metavar="FILE",
                        help="the complete game graph (positions merged) with the solution graph: printed, "
                             "or drawn to FILE (.svg or .png)")
    parser.add_argument("--file", default=None, metavar="GRAPH.json",
                        help="solve an AND/OR graph file instead of a game (see engine/andor.py)")
    parser.add_argument("--problem", choices=("W", "V"), default="W",
                        help="W: PLUS can force a win; V: MINUS (the other player) can force a win; "
                             "with --graph the other problem follows when the first has no solution (default W)")
    parser.add_argument("--plus", default=None, metavar="PLAYER",
                        help="with --graph: PLUS, the player W asks about (default: the side to move)")
    parser.add_argument("--solution", type=int, default=None, metavar="N",
                        help="draw the N-th solution graph listed in bold (default: the smallest)")
    parser.add_argument("--draw", default=None, metavar="FILE", help="with --file: draw the graph (.svg or .png)")
    args = parser.parse_args(argv)
    if args.file is not None or args.graph is not None:
        return _andor_main(parser, args)
    if args.game is None:
        parser.error("a game name or --file GRAPH.json is required")
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
    if game.solve_note:
        return _margin_search(game, pos, nodes, deadline, started, max(1, args.threads))
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


def _margin_search(game, pos, nodes: int | None, deadline: float | None, started: float, threads: int = 1) -> int:
    """A game whose rules object offers ``solve_margin`` (Go, reversi) is solved for its
    exact first player's margin by its own search, not by proof numbers."""
    from engine.control import Stopped

    settings = ", ".join(f"{k}={v}" for k, v in game.params.model_dump().items())
    print(f"game: {game.name}" + (f" ({settings})" if settings else ""))
    print(f"position: {pos.to_text()}  ({game.players[pos.turn]} to move)")
    print(game.solve_note)

    def progress(lo: int, hi: int, count: int, seconds: float) -> None:
        print(f"  bounds [{lo:+d}, {hi:+d}] for the mover after {count:,} nodes, {seconds:.1f}s", flush=True)

    try:
        result = game.solve_margin(pos, deadline=deadline, max_nodes=nodes, report=progress, threads=threads)
    except Stopped:
        print(f"value: unknown (the budget ran out after {time.perf_counter() - started:.1f}s)")
        return 1
    first = game.players[0]
    komi = " (komi left out)" if "komi" in game.params.model_dump() else ""
    print(f"margin: {result.margin:+d} {game.margin_unit} for {first} with best play{komi}")
    print(f"value: {game.describe_margin(result.margin)}")
    print(f"first move: {pos.move_text(result.move) if result.move >= 0 else 'none'}")
    print(f"searched {result.nodes:,} nodes in {result.seconds:.1f}s ({result.searches} null-window searches)")
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


# -- AND/OR graphs -------------------------------------------------------------------

#: Graphs up to this many nodes are listed node by node; pictures draw at most DRAWN_NODES.
LISTED_NODES = 60
DRAWN_NODES = 200

def _andor_main(parser, args) -> int:
    from engine import andor
    from protocol import draw

    picture = args.draw if args.file is not None else (args.graph if args.graph != "-" else None)
    if args.file is not None and (args.game is not None or args.graph is not None):
        parser.error("--file solves a graph file: give no game and no --graph (draw it with --draw FILE)")
    if picture is not None:
        try:
            draw.check_picture_path(picture)
            draw.require_matplotlib()
        except (ValueError, draw.PlotsUnavailable) as e:
            print(f"zermelo solve: {e}", file=sys.stderr)
            return 2
    if args.file is not None:
        try:
            graph = andor.load(args.file)
        except ValueError as e:
            print(f"zermelo solve: {e}", file=sys.stderr)
            return 2
        kinds = {k: sum(1 for v in graph.kind.values() if v == k) for k in andor.KINDS}
        print(f"graph: {graph.title or args.file}: {len(graph.kind)} nodes "
              f"({kinds['or']} OR, {kinds['and']} AND, {kinds['terminal']} terminal), {len(graph.edges())} arcs")
        print(f"problem {args.problem}: {andor.PROBLEMS[args.problem]}: is the root {graph.root} solvable "
              f"({'wins' if args.problem == 'W' else 'losses (of PLUS, the OR nodes as written)'} "
              "and solved terminals count)?")
        solved = _report(andor.pose(graph, args.problem), args.problem, graph.root, picture,
                         graph.title or args.file, which=args.solution)
        return 0 if solved else 1
    return _game_graph(parser, args, picture)


def _game_graph(parser, args, picture: str | None) -> int:
    import games
    from engine import andor
    from engine.game import InvalidPositionError, IllegalMoveError
    from protocol.tools import game_params

    params = game_params(parser, args.param)
    try:
        game = games.load(args.game, **params)
        pos = game.new_position(args.fen)
        for text in args.moves.split():
            pos.push(pos.parse_move(text))
    except (KeyError, ValueError, InvalidPositionError, IllegalMoveError) as e:
        print(f"zermelo solve: {e.args[0] if isinstance(e, KeyError) else e}", file=sys.stderr)
        return 2
    if len(game.players) != 2:
        print(f"zermelo solve: {game.name} is a game of {len(game.players)} players; "
              "AND/OR graphs are posed for two", file=sys.stderr)
        return 2
    if args.plus is not None and args.plus not in game.players:
        print(f"zermelo solve: --plus {args.plus!r}: expected one of {', '.join(game.players)}", file=sys.stderr)
        return 2
    plus = game.players.index(args.plus) if args.plus else pos.turn
    try:
        # A game may name its positions as the chapters do (Nim: 7+, 6−); else by their text.
        graph = andor.from_game(game, pos, plus, label=game.graph_label)
    except ValueError as e:
        print(f"zermelo solve: {e}", file=sys.stderr)
        return 2
    print(f"game graph: {game.name} from {graph.root}: {len(graph.kind)} positions "
          f"(repeated positions merged), {len(graph.edges())} arcs"
          + (f"; {game.graph_legend}" if game.graph_legend else ""))
    problems = [args.problem, "V" if args.problem == "W" else "W"]
    for problem in problems:
        # W: PLUS proves, its positions OR nodes; V: MINUS proves.
        prover, other = (game.players[plus], game.players[1 - plus])[::1 if problem == "W" else -1]
        role = "PLUS" if problem == "W" else "MINUS"
        print(f"{problem}({graph.root}): {prover} ({role}) can force a win; "
              f"{prover}'s positions are OR nodes, {other}'s AND nodes:")
        title = f"{game.name}: {problem}({graph.root}), {prover} ({role}) can force a win"
        # The picture is of the problem that has a solution graph, else of the last one posed.
        last = problem == problems[-1]
        if _report(andor.pose(graph, problem), problem, graph.root, picture, title, draw_unsolved=last,
                   which=args.solution):
            return 0
    return 1


def _report(graph, problem: str, root: str, picture: str | None, title: str, draw_unsolved: bool = True,
            which: int | None = None) -> bool:
    """Print the marking, the solvable nodes and the solution graphs; draw when asked.
    True when the root is solvable."""
    from engine import andor

    marking = andor.mark(graph, problem)
    ok = marking.solvable
    small = len(graph.kind) <= LISTED_NODES
    for r, names in enumerate(marking.rounds):
        listed = ", ".join(names) if small else f"{len(names):,} nodes"
        print(f"  round {r}: {listed}" + ("  (solved terminals)" if r == 0 else ""))
    unsolved = andor.ordered(graph, set(graph.kind) - ok)
    if small:
        print(f"solvable: {', '.join(andor.ordered(graph, ok)) or 'none'} ({len(ok)} of {len(graph.kind)})")
        print(f"not solvable: {', '.join(unsolved) or 'none'}")
    else:
        print(f"solvable: {len(ok):,} of {len(graph.kind):,} nodes")
    every, complete = andor.solution_graphs(graph, marking)
    best = andor.minimal_solution(graph, marking)
    if best is None:
        print(f"{problem}({root}) has no solution graph: {root} is not solvable")
    else:
        count = f"{len(every)}" if complete else f"more than {len(every)}"
        sizes = sorted(len(sol.nodes) for sol in every)
        print(f"solution graphs: {count}" + ("" if small else
              f" (the {'first ' * (not complete)}{len(every)}: {sizes[0]:,} to {sizes[-1]:,} nodes)"))
        for i, sol in enumerate(every if small else [], 1):
            mark = "  (smallest)" if complete and sol.nodes == best.nodes else ""
            print(f"  {i}: {', '.join(andor.ordered(graph, sol.nodes))}  ({len(sol.nodes)} nodes){mark}")
            print(f"     {_arcs(graph, sol)}")
        if not complete or not small:
            found = ", ".join(andor.ordered(graph, best.nodes)) + "  " if small else ""
            print(f"  smallest found: {found}({len(best.nodes):,} nodes)")
    shown = best
    if which is not None and best is not None:
        if not 1 <= which <= len(every):
            print(f"--solution {which}: there are {len(every)} solution graphs listed; the smallest is drawn")
        else:
            shown = every[which - 1]
    if not small:
        print(f"(the nodes are listed for graphs of at most {LISTED_NODES} nodes)")
    else:
        _listing(graph, ok, shown)
    if picture is not None and (best is not None or draw_unsolved):
        if len(graph.kind) > DRAWN_NODES:
            print(f"picture: not drawn: {len(graph.kind):,} nodes, more than the {DRAWN_NODES} a picture shows")
        else:
            from protocol import draw

            drawn = draw.draw_graph(graph, marking, shown, picture, title, _caption(root, best, shown, every, complete))
            print(f"picture: {picture} ({drawn} nodes drawn, {len(shown.nodes) if shown else 0} in bold)")
    return best is not None


def _listing(graph, ok: set[str], shown) -> None:
    from engine import andor

    print("graph (* solution graph, + solvable):")
    for n in andor.ordered(graph, graph.kind):
        tag = "*" if shown and n in shown.nodes else ("+" if n in ok else " ")
        kind = graph.kind[n]
        if kind == "terminal":
            what = {"solved": "solved", "unsolved": "unsolved"}.get(graph.value[n], graph.value[n])
            print(f"  {tag} {n}  terminal  {what}")
        else:
            kids = ", ".join(_arc_text(graph, n, c) for c in graph.children[n])
            print(f"  {tag} {n}  {kind.upper()}  -> {kids}")


def _arc_text(graph, a: str, b: str) -> str:
    move = graph.edge_label.get((a, b))
    return f"{b} ({move})" if move else b


def _arcs(graph, sol) -> str:
    return "; ".join(f"{a} -> {_arc_text(graph, a, b)}" for a, b in sol.edges(graph)) or "(the root alone)"


def _caption(root: str, best, shown, every: list, complete: bool) -> str:
    """The picture's footnote: which solution graph is drawn in bold, or that there is none."""
    if shown is None:
        return f"{root} is not solvable: there is no solution graph to draw."
    if shown is not best:
        return f"In bold: solution graph {every.index(shown) + 1} of {len(every)} ({len(shown.nodes)} nodes)."
    if complete and len(every) == 1:
        return f"In bold: the one solution graph ({len(shown.nodes)} nodes)."
    if complete and sum(len(s.nodes) == len(shown.nodes) for s in every) > 1:
        return (f"In bold: solution graph {every.index(shown) + 1} of {len(every)} ({len(shown.nodes)} nodes, "
                "as few as any).")
    of = f"of the {len(every)}" if complete else "found"
    return f"In bold: the smallest solution graph {of} ({len(shown.nodes)} nodes)."
