"""``zermelo tree``: the tree a search algorithm actually walks, as text or a picture.

    zermelo tree --file tree.json --algorithm alphabeta          # a textbook tree: nested lists of leaves
    zermelo tree tictactoe --fen "x../.o./... x" --depth 2 --algorithm pvs --order static
    zermelo tree chess --depth 2 --algorithm engine --svg tree.svg   # the engine's own search
    zermelo tree tree -p branching=3 -p depth=4 --algorithm alphabeta --order perfect --png kb.png

``--algorithm minimax|alphabeta|pvs`` are the textbook algorithms of
:mod:`engine.textbook` (fixed depth, no quiescence) with ``--order
none|random|static|perfect|worst``; ``engine`` is the engine's iterative-deepening PVS
(transposition table, quiescence, pruning), shown at its last root search. Every
node shows its move, its backed-up value and the window it was searched with,
from the root player's ("max") view; moves never searched are marked cut; the
principal line is starred (drawn thick). The game ``tree`` is a uniform random
tree (``-p branching=B -p depth=D -p seed=S``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ALGORITHMS = ("minimax", "alphabeta", "pvs", "engine")


def add_position_arguments(parser: argparse.ArgumentParser, game_required: bool = True,
                           game_help: str = "game name (as UCI_Variant), or 'tree'") -> None:
    parser.add_argument("game", nargs=None if game_required else "?", help=game_help)
    parser.add_argument("--fen", default=None, help="position text (default: the start position)")
    parser.add_argument("--moves", default="", help="moves played from that position, space-separated")
    parser.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE",
                        help="game parameter, e.g. -p m=4 (repeatable)")


def load_position(parser: argparse.ArgumentParser, args, tree_text: str | None = None):
    """(game, position) from the arguments of :func:`add_position_arguments`;
    ``tree_text``: a tree file's contents instead of a game."""
    import games
    from engine.game import Game, IllegalMoveError, InvalidPositionError
    from games.tree import TreeGame, TreeParams
    from protocol.tools import game_params

    params = game_params(parser, args.param)
    game: Game
    try:
        if tree_text is not None:
            game = TreeGame.from_text(tree_text)
        elif (args.game or "").lower() == "tree":
            game = TreeGame(TreeParams(**params))
        else:
            game = games.load(args.game, **params)
        pos = game.new_position(args.fen)
        for text in args.moves.split():
            pos.push(pos.parse_move(text))
    except KeyError as e:
        # A KeyError's str() quotes its message.
        raise SystemExit(f"{parser.prog}: {e.args[0]}")
    except (ValueError, InvalidPositionError, IllegalMoveError) as e:
        raise SystemExit(f"{parser.prog}: {e}")
    return game, pos


def move_namer(game, pos):
    """``path -> text``: the last move of a path of moves from ``pos``, in the game's notation."""
    from engine.game import NO_MOVE

    def name(path: list[int]) -> str:
        # A move the search did not take from the list is its null move (a pass).
        for m in path[:-1]:
            if m == NO_MOVE:
                pos.push_null()
            else:
                pos.push(m)
        try:
            return "null" if path[-1] == NO_MOVE else pos.move_text(path[-1])
        finally:
            for _ in path[:-1]:
                pos.pop()
    return name


def cut_expander(game, pos, name):
    """For abstract trees: the whole subtree below a move the search never tried, as cut nodes."""
    from games.tree import TreePosition
    from protocol.draw import Shown

    if not isinstance(pos, TreePosition):
        return None
    max_turn = pos.turn

    def expand(path: list[int], depth: int):
        label = name(path)
        for m in path:
            pos.push(m)
        try:
            def build(label: str) -> Shown:
                moves = pos.legal_moves()
                value = "" if moves else str(pos.leaf_value() if max_turn == 0 else -pos.leaf_value())
                node = Shown(label, value, "", "cut", pos.turn == max_turn)
                for m in moves:
                    text = pos.move_text(m)
                    pos.push(m)
                    node.children.append(build(text))
                    pos.pop()
                return node
            return build(label)
        finally:
            for _ in path:
                pos.pop()
    return expand


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="zermelo tree", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    add_position_arguments(parser, game_required=False)
    parser.add_argument("--file", help="a tree as nested lists of leaf values (JSON or Python), max to move at the root")
    parser.add_argument("--depth", type=int, default=None, help="plies (default: a file tree's height, else 2)")
    parser.add_argument("--algorithm", choices=ALGORITHMS, default="alphabeta")
    from engine.textbook import ORDERS

    parser.add_argument("--order", default="none", choices=ORDERS,
                        help="textbook move order (default none; worst: the best move last)")
    parser.add_argument("--seed", type=int, default=0, help="seed of --order random")
    parser.add_argument("--svg", help="draw the tree to this SVG file")
    parser.add_argument("--png", help="draw the tree to this PNG file")
    parser.add_argument("--text", action="store_true", help="print the tree as text even when it is large")
    parser.add_argument("--limit", type=int, default=300, help="most nodes a picture draws (default 300)")
    args = parser.parse_args(argv)

    from engine.textbook import Textbook
    from engine.trace import Recorder, best_line, level_counts
    from protocol import draw

    if not args.file and not args.game:
        parser.error("give a GAME or --file TREE")
    picture = args.svg or args.png
    try:
        if args.svg:
            draw.check_picture_path(args.svg)
        if args.png:
            draw.check_picture_path(args.png)
        if picture:
            draw.require_matplotlib()
    except (ValueError, draw.PlotsUnavailable) as e:
        print(f"zermelo tree: {e}", file=sys.stderr)
        return 2
    tree_text = None
    if args.file:
        try:
            tree_text = Path(args.file).read_text()
        except OSError as e:
            print(f"zermelo tree: {e}", file=sys.stderr)
            return 2
    game, pos = load_position(parser, args, tree_text)
    depth = args.depth if args.depth is not None else (game.height() if hasattr(game, "height") else 2)
    if not 1 <= depth <= 12:
        parser.error("--depth: 1 to 12 plies")

    recorder = Recorder(pos, limit=200_000)
    if args.algorithm == "engine" and hasattr(game, "leaf_depths") and len(game.leaf_depths()) > 1:
        # The engine scores a position without moves as a game end, not by a leaf value.
        print("zermelo tree: --algorithm engine needs a tree with every leaf at the same depth", file=sys.stderr)
        return 2
    if args.algorithm == "engine":
        from engine.search import Searcher
        from engine.timeman import Limits

        searcher = Searcher(16)
        searcher.trace = recorder
        result = searcher.search(game, pos, Limits(depth=depth))
        value, best = result.score, result.best
        how = f"the engine's search (iterative deepening PVS, TT, quiescence), depth {depth}"
        note = f"{len(recorder.roots)} root searches (iterations and re-searches); the last one is shown"
    else:
        book = Textbook(pos, recorder, args.order, args.seed)
        value = book.search(args.algorithm, depth)
        principal = best_line(recorder.root)
        best = principal[1].move if len(principal) > 1 else None
        how = f"{args.algorithm}, move order {args.order}, depth {depth}"
        note = f"{book.leaves:,} leaves evaluated"
    root = recorder.root
    name = move_namer(game, pos)
    shown = draw.shown_tree(root, name, cut_expander(game, pos, name))
    levels = level_counts(root)
    mover = game.players[pos.turn]
    print(f"game: {game.name}; position: {pos.to_text() or 'root'} ({mover} to move)")
    print(f"algorithm: {how}")
    print(f"value: {draw.score_text(value)} for {mover}" + (f"; best move: {pos.move_text(best)}" if best is not None else ""))
    print(f"visited: {recorder.visits:,} nodes in all; {note}")
    print(draw.counts_text(levels))
    cut = sum(len(n.unsearched) for n in root.walk())
    if cut:
        print(f"cut: {cut} moves never searched")
    total = sum(1 for _ in shown.walk())
    if total <= 80 or args.text:
        print()
        for line in draw.text_tree(shown, draw.colour_wanted(sys.stdout), limit=100_000 if args.text else 400):
            print(line)
    elif not picture:
        print(f"({total} nodes: too many to print; --text prints them, --svg or --png draws them)")
    title = f"{game.name}: {how}"
    for path in (args.svg, args.png):
        if path:
            drawn = draw.draw_tree(shown, path, title, args.limit)
            print(f"picture: {path} ({drawn} nodes drawn of {total})")
    return 0
