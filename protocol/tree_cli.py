"""``zermelo tree``: the tree a search algorithm actually walks, as text or a picture.

    zermelo tree --file tree.json --algorithm alphabeta          # a textbook tree: nested lists of leaves
    zermelo tree --file docs/trees/fig5.json --algorithm alphabeta1   # one bound: no deep cut-offs
    zermelo tree --file docs/trees/node-x.json                   # vector leaves: max^n (three players)
    zermelo tree tictactoe --fen "x../.o./... x" --depth 2 --algorithm pvs --order static
    zermelo tree rolit -p players=3 --depth 2 --algorithm paranoid
    zermelo tree --file docs/trees/bstar.json --algorithm bstar   # B*: bounds at every node, a proof
    zermelo tree chess --depth 2 --algorithm engine --svg tree.svg   # the engine's own search
    zermelo tree tree -p branching=3 -p depth=4 --algorithm alphabeta --order perfect --png kb.png

``--algorithm minimax|alphabeta|alphabeta1|pvs`` are the two-player textbook
algorithms of :mod:`engine.textbook` (fixed depth, no quiescence) with ``--order
none|random|static|perfect|worst``; ``alphabeta1`` passes each node only its
parent's bound (no deep cut-offs). ``sss`` and ``dual`` are Stockman's best-first SSS* and its dual DUAL* (generated
order), whose leaves are listed in the order evaluated beside alpha-beta's on the
same tree. ``bstar`` is Berliner's B*: a pessimistic and an optimistic value at
every node (a tree file's ``"bounds"``; a game's static evaluation ± ``--margin``,
exact at game ends and at the horizon), expanded best first until one root move's
pessimistic value reaches every other move's optimistic value (``--bstar-strategy``
chooses its root strategy). ``maxn|paranoid|brs`` are the N-player ones
(moves in generated order), for games of more than two players and for tree
files whose leaves are vectors (``--players N``, or ``"players"`` in the file);
max^n is their default. ``engine`` is the engine's iterative-deepening PVS
(transposition table, quiescence, pruning), shown at its last root search. A
two-player algorithm never runs on a game of more than two players: it is
refused in one line. Every node shows its move, its backed-up value and the
window it was searched with, from the root player's ("max") view (a tree file's:
max's, also when min moves at its root); moves never searched are marked cut,
with the rule that cut them (α-cut or β-cut, and the ancestor whose bound did it;
Korf's shallow and immediate cut-offs for max^n); the principal line is starred
(drawn thick); ties go to the first best move. The game ``tree`` is a uniform
random tree (``-p branching=B -p depth=D -p seed=S``). Per-level counts are of
every node visited; the record kept for the text and pictures stops at 200,000
nodes, and says so.
"""

from __future__ import annotations

import argparse
import sys

from engine.files import read_text_bounded

ALGORITHMS = ("minimax", "alphabeta", "alphabeta1", "pvs", "sss", "dual", "bstar", "maxn", "paranoid", "brs",
              "engine")
#: The best-first searches of :mod:`engine.bestfirst`: their order of work listed beside
#: alpha-beta's on the same tree (B* also draws the tree it built).
BEST_FIRST = ("sss", "dual", "bstar")
#: Nodes of one search kept for the text and the pictures (counts go on beyond it).
RECORD_LIMIT = 200_000
#: Longest tree file read (``--file``): far beyond any tree drawn.
TREE_FILE_LIMIT = 16 << 20


def add_position_arguments(parser: argparse.ArgumentParser, game_required: bool = True,
                           game_help: str = "game name (as UCI_Variant), or 'tree'") -> None:
    parser.add_argument("game", nargs=None if game_required else "?", help=game_help)
    parser.add_argument("--fen", default=None, help="position text (default: the start position)")
    parser.add_argument("--moves", default="", help="moves played from that position, space-separated")
    parser.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE",
                        help="game parameter, e.g. -p m=4 (repeatable)")


def load_position(parser: argparse.ArgumentParser, args, tree_text: str | None = None, players: int | None = None):
    """(game, position) from the arguments of :func:`add_position_arguments`;
    ``tree_text``: a tree file's contents instead of a game (``players``: its leaves
    are vectors of that many values)."""
    import games
    from engine.game import Game, IllegalMoveError, InvalidPositionError
    from games.tree import TreeGame, TreeParams
    from protocol.tools import game_params

    params = game_params(parser, args.param)
    game: Game
    try:
        if tree_text is not None:
            game = TreeGame.from_text(tree_text, players)
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


def cut_expander(game, pos, name, view: int = 0):
    """For abstract trees: the whole subtree below a move the search never tried, as
    cut nodes, values from player ``view``'s side (vectors as they are)."""
    from games.tree import TreePosition, VectorTreePosition
    from protocol.draw import Shown, vector_text

    if not isinstance(pos, TreePosition):
        return None

    def value_of() -> str:
        if isinstance(pos, VectorTreePosition):
            return vector_text(pos.values())
        return str(pos.leaf_value() if view == 0 else -pos.leaf_value())

    def expand(path: list[int], depth: int):
        label = name(path)
        for m in path:
            pos.push(m)
        try:
            def build(label: str) -> Shown:
                moves = pos.legal_moves()
                node = Shown(label, "" if moves else value_of(), "", "cut", pos.turn == view)
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


def refusal(game, pos, algorithm: str) -> str | None:
    """Why ``algorithm`` cannot search this game, in one line; ``None`` when it can."""
    from engine.textbook import VECTOR_ALGORITHMS, players_of
    from games.tree import VectorTreePosition

    n = players_of(pos)
    vectors = bool(pos.values())
    vector_leaves = isinstance(pos, VectorTreePosition)
    if algorithm not in VECTOR_ALGORITHMS and (n > 2 or vector_leaves):
        why = f"{game.name} is a game of {n} players" if n > 2 else "the tree's leaves are value vectors"
        what = "the engine's search is" if algorithm == "engine" else f"{algorithm} is"
        return f"{why}: {what} for two players with one value; use --algorithm maxn, paranoid or brs"
    if algorithm in VECTOR_ALGORITHMS and not vectors:
        return (f"{algorithm} searches value vectors (games of more than two players, tree files with "
                f"--players N); {game.name} has one value per position: use minimax, alphabeta, alphabeta1 or pvs")
    return None


class _Beside:
    """Alpha-beta run on the same tree in the same move order, for a best-first search
    to be compared with: its nodes (or leaves) as paths of moves, how a path reads,
    and whose values the output gives. Prints the game and position lines."""

    def __init__(self, game, pos, depth: int, view: int, leaves_only: bool) -> None:
        from engine.textbook import Textbook
        from engine.trace import Node, Recorder
        from games.tree import TreeGame

        self.recorder = Recorder(pos, limit=RECORD_LIMIT)
        self.book = Textbook(pos, self.recorder)
        self.book.alphabeta(depth)
        self.paths: list[tuple[int, ...]] = []
        stack: list[tuple[Node, tuple[int, ...]]] = [(self.recorder.root, ())]
        while stack:
            node, path = stack.pop()
            if not (leaves_only and node.children):
                self.paths.append(path)
            stack.extend((child, path + (child.move,)) for child in reversed(node.children))
        self.name = move_namer(game, pos)
        self.sign = 1 if view == pos.turn else -1
        self.mover = game.players[pos.turn]
        self.whose = f"{game.players[view]} ({self.mover} to move)" if view != pos.turn else self.mover
        print(f"game: {game.name}; position: {pos.to_text() or 'root'} ({self.mover} to move)")
        if isinstance(game, TreeGame) and game.note:
            print(f"note: {game.note}")

    def called(self, path: tuple[int, ...]) -> str:
        return " ".join(self.name(list(path[:k + 1])) for k in range(len(path))) or "root"

    def compare(self, mine: list[tuple[int, ...]], what: str, only_theirs: str, only_mine: str) -> None:
        """The two lines of what only one of the searches reached, headed ``only_theirs`` and ``only_mine``."""
        have, searched = set(mine), set(self.paths)
        skipped = [self.called(p) for p in self.paths if p not in have]
        extra = [self.called(p) for p in mine if p not in searched]
        if self.recorder.truncated:
            print(f"(alpha-beta's {what} are compared over the first {RECORD_LIMIT:,} nodes only)")
        for head, names in ((only_theirs, skipped), (only_mine, extra)):
            print(f"{head}: {len(names):,}"
                  + (f" ({', '.join(names[:30])}{', …' if len(names) > 30 else ''})" if names else ""))


def best_first_main(game, pos, algorithm: str, depth: int, view: int) -> int:
    """SSS* or DUAL*: the value, the leaves in the order evaluated, and alpha-beta's
    leaves on the same tree in the same move order beside them."""
    from engine.bestfirst import sss
    from protocol import draw

    run = sss(pos, depth, dual=algorithm == "dual")
    beside = _Beside(game, pos, depth, view, leaves_only=True)
    recorder, book, sign, mover = beside.recorder, beside.book, beside.sign, beside.mover
    how = ("sss (Stockman's SSS*: best first, OPEN list)" if algorithm == "sss"
           else "dual (DUAL*: SSS* from the opponent's side)")
    print(f"algorithm: {how}, move order none, depth {depth}")
    best_text = f"; best move: {pos.move_text(run.best)}" if run.best >= 0 else ""
    print(f"value: {draw.score_text(sign * run.value)} for {beside.whose}{best_text}")
    print(f"visited: {run.nodes:,} nodes in all; {run.leaves:,} leaves evaluated; "
          f"OPEN held at most {run.most_open:,} states")
    print(f"alpha-beta, same order: {recorder.visits:,} nodes, {book.leaves:,} leaves evaluated; "
          f"its stack at most {depth + 1} nodes")
    if len(run.evaluated) <= 200:
        print("leaves in the order evaluated: " + ", ".join(
            f"{beside.called(path)} = {draw.score_text(sign * v)}" for path, v in run.evaluated))
    beside.compare([path for path, _ in run.evaluated], "leaves", f"evaluated by alpha-beta, never by {algorithm}",
                   f"evaluated by {algorithm}, never by alpha-beta")
    return 0


def interval_text(low: int, high: int, sign: int) -> str:
    """A B* interval from the view of ``sign`` (1: the root side's; -1: the other's); a point as one value."""
    from protocol import draw

    low, high = (low, high) if sign == 1 else (-high, -low)
    return draw.score_text(low) if low == high else f"[{draw.score_text(low)}, {draw.score_text(high)}]"


def bstar_main(game, pos, depth: int, view: int, margin: int, strategy: str, pictures: list[str],
               text: bool) -> int:
    """B*: the root's interval and move, the proof, each expansion with the root moves'
    intervals after it, the nodes beside alpha-beta's on the same tree, and the tree
    B* built (each node's interval, and the order it was expanded in)."""
    from engine.bestfirst import bstar
    from engine.game import InvalidPositionError
    from games.tree import TreePosition
    from protocol import draw

    try:
        run = bstar(pos, depth, margin, strategy, limit=RECORD_LIMIT)
    except InvalidPositionError as e:
        print(f"zermelo tree: {e}", file=sys.stderr)
        return 2
    beside = _Beside(game, pos, depth, view, leaves_only=False)
    recorder, book, sign, mover, whose = beside.recorder, beside.book, beside.sign, beside.mover, beside.whose
    called, name = beside.called, beside.name
    file_bounds = isinstance(pos, TreePosition) and pos.game.root is not None
    print(f"algorithm: bstar (Berliner's B*: best first, a pessimistic and an optimistic value at every node), "
          f"strategy {strategy}, depth {depth}")
    if not file_bounds:
        print(f"bounds: the static evaluation ± {margin:,} (--margin); exact at game ends and at the horizon")
    children = run.kids[0] or []
    best_text = f"; best move: {pos.move_text(run.best)}" if run.best >= 0 else ""
    print(f"value: {interval_text(run.low, run.high, sign)} for {whose}{best_text}")
    if run.best >= 0:
        chosen = next(k for k in children if run.move[k] == run.best)
        rivals = [k for k in children if k != chosen]
        if run.separated and rivals:
            # The proof reads in the mover's own values, where pessimistic is the lower bound.
            rival = max(run.highs[k] for k in rivals)
            print(f"proof: {pos.move_text(run.best)} is best for {mover}: its pessimistic value, "
                  f"{draw.score_text(run.lows[chosen])}, reaches every other move's optimistic value "
                  f"(at most {draw.score_text(rival)})" + (f"; values from {mover}'s side" if sign != 1 else ""))
        elif run.separated:
            print(f"proof: {pos.move_text(run.best)} is the only move")
        else:
            print(f"stopped at {run.generated:,} generated nodes without a proof: "
                  f"{pos.move_text(run.best)} has the best pessimistic value")
    print(f"expanded: {run.expanded:,} nodes; generated {run.generated:,} nodes in all (the root included)")
    print(f"alpha-beta, same order: {recorder.visits:,} nodes, {book.leaves:,} leaves evaluated")
    print("expansions in order, with the root's moves' intervals after each:")
    for i, (where, how, intervals) in enumerate(run.expansions[:50]):
        roots = ", ".join(f"{pos.move_text(run.move[k])} {interval_text(low, high, sign)}"
                          for k, (low, high) in zip(children, intervals))
        print(f"  {i + 1}. {called(where)}" + (f" ({how})" if how else "") + f": {roots}")
    if len(run.expansions) > 50:
        print(f"  … {len(run.expansions) - 50:,} more")
    beside.compare([run.path(k) for k in range(len(run.parent))], "nodes",
                   "visited by alpha-beta, never generated by bstar", "generated by bstar, never visited by alpha-beta")
    shown = _bstar_shown(run, game, pos, name, view, sign)
    total = sum(1 for _ in shown.walk())
    if total <= 80 or text:
        print()
        for line in draw.text_tree(shown, draw.colour_wanted(sys.stdout), limit=100_000 if text else 400):
            print(line)
    elif not pictures:
        print(f"({total} nodes: too many to print; --text prints them, --svg or --png draws them)")
    for picture in pictures:
        drawn = draw.draw_tree(shown, picture, f"{game.name}: B*, depth {depth}")
        print(f"picture: {picture} ({drawn} nodes drawn of {total})")
    return 0


def _bstar_shown(run, game, pos, name, view: int, sign: int):
    """The tree B* built, as drawn: each node's interval and when it was expanded, the
    chosen move starred; below a tree file's unexpanded nodes, the moves never generated."""
    from protocol.draw import Shown

    expander = cut_expander(game, pos, name, view)
    strategies = {path: how for path, how, _ in run.expansions}
    chosen = -1
    for k in run.kids[0] or []:
        if run.move[k] == run.best:
            chosen = k

    def build(k: int, path: tuple[int, ...]) -> Shown:
        kind = "best" if k in (0, chosen) else "visited"
        node = Shown(name(list(path)) if path else "root", interval_text(run.lows[k], run.highs[k], sign), "",
                     kind, run.max_node[k] == (sign == 1))
        if run.order[k]:
            how = strategies.get(path, "")
            node.result = f"expanded {run.order[k]}" + (f" ({how})" if how else "")
            node.children = [build(c, path + (run.move[c],)) for c in run.kids[k] or []]
        elif expander is not None and run.lows[k] != run.highs[k]:
            for m in _moves_below(pos, path):
                stub = expander(list(path + (m,)), 0)
                for below in stub.walk():
                    below.note = "not generated"
                node.children.append(stub)
        return node
    return build(0, ())


def _moves_below(pos, path: tuple[int, ...]) -> list[int]:
    for m in path:
        pos.push(m)
    try:
        return pos.legal_moves()
    finally:
        for _ in path:
            pos.pop()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="zermelo tree", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    add_position_arguments(parser, game_required=False)
    parser.add_argument("--file", help="a tree file: nested lists of leaf values (JSON or Python), or an object "
                        "with named nodes, a min root, vector leaves (see the format in the documentation)")
    parser.add_argument("--players", type=int, default=None,
                        help="a tree file's leaves are vectors of this many values, one per player (2 to 26)")
    parser.add_argument("--depth", type=int, default=None, help="plies (default: a file tree's height, else 2)")
    parser.add_argument("--algorithm", choices=ALGORITHMS, default=None,
                        help="default: alphabeta, or maxn for games of more than two players and vector trees")
    from engine.textbook import ORDERS

    parser.add_argument("--order", default="none", choices=ORDERS,
                        help="textbook move order (default none; worst: the best move last)")
    parser.add_argument("--seed", type=int, default=0, help="seed of --order random")
    from engine.bestfirst import BSTAR_MARGIN, BSTAR_STRATEGIES

    parser.add_argument("--margin", type=int, default=None,
                        help=f"bstar: a node's bounds are its static evaluation ± this (default {BSTAR_MARGIN}); "
                             "a tree file's own bounds are used instead")
    parser.add_argument("--bstar-strategy", default="auto", choices=BSTAR_STRATEGIES,
                        help="bstar's choice at the root: prove the best move, disprove the rest, or auto "
                             "(the one more likely to succeed; default)")
    parser.add_argument("--svg", help="draw the tree to this SVG file")
    parser.add_argument("--png", help="draw the tree to this PNG file")
    parser.add_argument("--text", action="store_true", help="print the tree as text even when it is large")
    parser.add_argument("--limit", type=int, default=300, help="most nodes a picture draws (default 300)")
    args = parser.parse_args(argv)

    from engine.textbook import VECTOR_ALGORITHMS, Textbook, players_of
    from games.tree import TreeGame, VectorTreePosition
    from engine.trace import Recorder
    from protocol import draw

    if not args.file and not args.game:
        parser.error("give a GAME or --file TREE")
    if args.players is not None and not args.file:
        parser.error("--players goes with --file (a game knows its own players: -p players=N where it has them)")
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
            tree_text = read_text_bounded(args.file, TREE_FILE_LIMIT)
        except OSError as e:
            print(f"zermelo tree: {args.file}: {e.strerror or e}", file=sys.stderr)
            return 2
        except UnicodeDecodeError as e:
            print(f"zermelo tree: {args.file}: {e}", file=sys.stderr)
            return 2
    try:
        game, pos = load_position(parser, args, tree_text, args.players)
    except SystemExit as e:
        if args.file and isinstance(e.code, str):
            # The file's defect, named with the file.
            raise SystemExit(e.code.replace("zermelo tree: ", f"zermelo tree: {args.file}: ", 1))
        raise
    vector_game = players_of(pos) > 2 or isinstance(pos, VectorTreePosition)
    algorithm = args.algorithm or ("maxn" if vector_game else "alphabeta")
    refused = refusal(game, pos, algorithm)
    if refused:
        print(f"zermelo tree: {refused}", file=sys.stderr)
        return 2
    tree = game if isinstance(game, TreeGame) else None
    depth = args.depth if args.depth is not None else (tree.height() if tree is not None else 2)
    deepest = 64 if args.file else 12
    if not 1 <= depth <= deepest:
        parser.error(f"--depth: 1 to {deepest} plies")

    # A file tree is shown from max's view (the textbooks keep it when min moves at the root).
    view = 0 if args.file else pos.turn
    if algorithm != "bstar" and (args.margin is not None or args.bstar_strategy != "auto"):
        parser.error("--margin and --bstar-strategy go with --algorithm bstar")
    if algorithm == "bstar":
        if args.order != "none":
            print("zermelo tree: bstar searches in generated order; no --order with it", file=sys.stderr)
            return 2
        margin = BSTAR_MARGIN if args.margin is None else args.margin
        if not 0 <= margin < 1_000_000:
            parser.error("--margin: 0 to 999,999")
        missing = tree.unbounded(depth) if tree is not None else None
        if missing is not None:
            print(f"zermelo tree: {args.file}: bstar needs bounds at every interior node below the root, "
                  f'{{"bounds": [low, high], "children": [...]}}; node {missing} has none', file=sys.stderr)
            return 2
        return bstar_main(game, pos, depth, view, margin, args.bstar_strategy,
                          [p for p in (args.svg, args.png) if p], args.text)
    if algorithm in BEST_FIRST:
        if picture or args.order != "none":
            print(f"zermelo tree: {algorithm} searches in generated order and lists its leaves; "
                  "no --order, --svg or --png with it", file=sys.stderr)
            return 2
        return best_first_main(game, pos, algorithm, depth, view)
    recorder = Recorder(pos, limit=RECORD_LIMIT)
    if algorithm == "engine" and tree is not None and len(tree.leaf_depths()) > 1:
        # The engine scores a position without moves as a game end, not by a leaf value.
        print("zermelo tree: --algorithm engine needs a tree with every leaf at the same depth", file=sys.stderr)
        return 2
    book = None
    if algorithm == "engine":
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
        value = book.search(algorithm, depth)
        best = book.best
        order = "legal order" if algorithm in VECTOR_ALGORITHMS else f"move order {args.order}"
        how = f"{_ALGORITHM_NAMES[algorithm]}, {order}, depth {depth}" + (" (layers)" if algorithm == "brs" else "")
        note = f"{book.leaves:,} leaves evaluated"
    root = recorder.root
    name = move_namer(game, pos)
    players = tuple(game.players) if algorithm in VECTOR_ALGORITHMS else None
    shown = draw.shown_tree(root, name, cut_expander(game, pos, name, view), view, players)
    levels = recorder.level_counts()
    mover = game.players[pos.turn]
    print(f"game: {game.name}; position: {pos.to_text() or 'root'} ({mover} to move)")
    if tree is not None and tree.note:
        print(f"note: {tree.note}")
    print(f"algorithm: {how}")
    best_text = f"; best move: {pos.move_text(best)}" if best is not None and best >= 0 else ""
    if book is not None and algorithm == "maxn":
        entries = ", ".join(f"{p} {v}" for p, v in zip(game.players, book.vector))
        print(f"value: {draw.vector_text(book.vector)} ({entries}), {mover} to move{best_text}")
    elif book is not None and algorithm in VECTOR_ALGORITHMS:
        others = [p for i, p in enumerate(game.players) if i != pos.turn]
        against = " and ".join(others) + (" together" if len(others) > 1 else "")
        print(f"value: {draw.score_text(value)} for {mover} (against {against}){best_text}")
        print(f"line ends at {draw.vector_text(book.vector)}")
    elif view != pos.turn:
        print(f"value: {draw.score_text(-value)} for {game.players[view]} ({mover} to move){best_text}")
    else:
        print(f"value: {draw.score_text(value)} for {mover}{best_text}")
    print(f"visited: {recorder.visits:,} nodes in all; {note}")
    print(draw.counts_text(levels))
    cut = sum(len(n.unsearched) for n in root.walk())
    if cut:
        print(f"cut: {cut} moves never searched")
        for line in draw.cut_lines(shown)[:50]:
            print(line)
    total = sum(1 for _ in shown.walk())
    if recorder.truncated:
        print(f"record: the first {RECORD_LIMIT:,} nodes are kept for the text and pictures "
              f"(the counts above are of all {sum(n for n, _ in levels):,})")
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


_ALGORITHM_NAMES = {"minimax": "minimax", "alphabeta": "alphabeta", "alphabeta1": "alphabeta1 (one bound)",
                    "pvs": "pvs", "maxn": "maxn (max^n, Korf's pruning)", "paranoid": "paranoid",
                    "brs": "brs (best-reply search)"}
