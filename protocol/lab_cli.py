"""``zermelo lab``: the search measured, by the real algorithms on real or synthetic trees.

    zermelo lab alphabeta --branching 3 --depth 6 --seed 1 --plot nodes.svg   # uniform random trees
    zermelo lab alphabeta --game chess --fen "..." --depth 3                  # a real position
    zermelo lab deepening --game tictactoe --depth 6                          # nodes per iteration
    zermelo lab quiescence                                                    # the horizon effect, shown

``alphabeta``: leaves and nodes of minimax, alpha-beta with random, static and
perfect move order, the one-bound alpha-beta (no deep cut-offs) beside it, PVS,
alpha-beta inside iterative deepening (best move of the previous iteration
first) and the engine's own search, depth by depth; on uniform trees beside b^d,
Knuth and Moore's b^⌈d/2⌉ + b^⌊d/2⌋ − 1 and the chapters' (b − 1)^d (4^n
turned into 3^n), with the gain over minimax, (b/(b − 1))^d beside the measured. Games of more than two players are
refused (every experiment here is a two-player algorithm).
``deepening``: the nodes of each iteration of iterative-deepening alpha-beta,
with and without reordering by the previous iteration, and the engine's.
``quiescence``: a fixed-depth alpha-beta without quiescence beside the engine's
search, on a position where a capture at the horizon is answered one ply later.
``memory``: time against space of a depth-first search on uniform trees b^m as m
grows: the nodes minimax visits (b^m leaves) beside what it holds at once, the
deepest path of open nodes (m + 1), the moves they keep (b a node) and the peak
of the memory Python allocates during the search (tracemalloc); beside them the
longest OPEN list of the best-first SSS*, which grows as b^⌈m/2⌉.
``sss``: leaves of alpha-beta, SSS* and DUAL* in the same (generated) order on
uniform trees, depth by depth, with minimax's and Knuth and Moore's.
"""

from __future__ import annotations

import argparse
import sys

#: The horizon example: White's queen can take a pawn on d6 that the c7 pawn defends.
HORIZON_FEN = "4k3/2p5/3p4/8/8/8/8/3QK3 w - - 0 1"


def _args(parser: argparse.ArgumentParser, game_default: str | None, default_text: str) -> None:
    parser.add_argument("--game", default=game_default, help=f"a game (default: {default_text})")
    parser.add_argument("--fen", default=None, help="position text (default: the start position)")
    parser.add_argument("--moves", default="", help="moves played from that position")
    parser.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE", help="game parameter")


def _position(parser, args):
    """(game, position); a game of more than two players is refused in one line: every
    experiment here runs two-player algorithms (``zermelo tree`` searches it by max^n,
    paranoid or best-reply search)."""
    from engine.textbook import players_of
    from protocol.tree_cli import load_position

    game, pos = load_position(parser, argparse.Namespace(game=args.game, fen=args.fen, moves=args.moves,
                                                         param=args.param))
    n = players_of(pos)
    if n > 2:
        print(f"{parser.prog}: {game.name} is a game of {n} players; these experiments run two-player "
              f"algorithms (zermelo tree {game.name} --algorithm maxn|paranoid|brs searches it)", file=sys.stderr)
        raise SystemExit(2)
    return game, pos


def _plot_check(path: str | None) -> str | None:
    """The error line for an unusable ``--plot`` (before any work), else ``None``."""
    if not path:
        return None
    from protocol import draw

    try:
        draw.check_picture_path(path)
        draw.require_matplotlib()
    except (ValueError, draw.PlotsUnavailable) as e:
        return str(e)
    return None


def alphabeta_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="zermelo lab alphabeta")
    _args(parser, None, "uniform random trees")
    parser.add_argument("--branching", type=int, default=3, help="uniform trees: children per node (default 3)")
    parser.add_argument("--depth", type=int, default=5, help="deepest search, plies (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="uniform trees: leaf values' seed; random order's seed")
    parser.add_argument("--plot", help="plot nodes against depth (log scale) to this .svg or .png")
    args = parser.parse_args(argv)
    error = _plot_check(args.plot)
    if error:
        print(f"zermelo lab: {error}", file=sys.stderr)
        return 2
    from engine import lab
    from engine.textbook import knuth_moore
    from games.tree import TreeGame

    b = args.branching
    if not 1 <= args.depth <= 12 or not 1 <= b <= 30:
        parser.error("--depth 1 to 12, --branching 1 to 30")
    depths = list(range(1, args.depth + 1))
    if args.game is None:
        game = TreeGame.uniform(b, args.depth, args.seed)

        def position_at(d: int):
            return TreeGame.uniform(b, d, args.seed).new_position()
        print(f"uniform trees: branching {b}, depth 1 to {args.depth}, seed {args.seed} "
              f"(each move adds a random step to the value)")
    else:
        game, pos = _position(parser, args)
        text = pos.to_text()

        def position_at(d: int):
            return game.new_position(text)
        print(f"{game.name}: {text}")
    table = lab.alphabeta_table(game, position_at, depths, args.seed)
    header = ["depth"] + [str(d) for d in depths]
    rows = [["leaves:"]]
    for name, counts in table.items():
        rows.append([f"  {name}"] + [f"{c.leaves:,}" for c in counts])
    if args.game is None:
        rows.append(["  b^d (minimax)"] + [f"{b ** d:,}" for d in depths])
        rows.append(["  b^⌈d/2⌉+b^⌊d/2⌋−1 (Knuth-Moore)"] + [f"{knuth_moore(b, d):,}" for d in depths])
        if b > 1:
            # The chapters' rule of thumb: alpha-beta turns b^n into about (b−1)^n, 4^n into 3^n.
            rows.append([f"  {b - 1}^d (the chapters' alpha-beta: (b−1)^d)"] + [f"{(b - 1) ** d:,}" for d in depths])
    if args.game is None and b > 1:
        rows.append(["gain over minimax (its leaves / these):"])
        rows.append([f"  ({b}/{b - 1})^d (the chapters')"] + [f"{(b / (b - 1)) ** d:.2f}" for d in depths])
        for name in ("alpha-beta, random order", "alpha-beta, static order", "alpha-beta, perfect order"):
            rows.append([f"  {name}"] + [f"{b ** d / c.leaves:.2f}" for c, d in zip(table[name], depths)])
    rows.append(["nodes:"])
    for name, counts in table.items():
        rows.append([f"  {name}"] + [f"{c.nodes:,}" for c in counts])
    rows.append(["value:"])
    for name, counts in table.items():
        rows.append([f"  {name}"] + [str(c.value) for c in counts])
    width = max(len(r[0]) for r in rows + [header])
    cols = [max(len(r[i]) for r in rows + [header] if len(r) > i) for i in range(1, len(header))]
    print(header[0].ljust(width) + "".join(h.rjust(w + 2) for h, w in zip(header[1:], cols)))
    for r in rows:
        print(r[0].ljust(width) + "".join(c.rjust(w + 2) for c, w in zip(r[1:], cols)))
    if args.game is None:
        exact = all(c.leaves == b ** d for c, d in zip(table["minimax"], depths))
        km = all(c.leaves == knuth_moore(b, d) for c, d in zip(table["alpha-beta, perfect order"], depths))
        print(f"minimax leaves = b^d: {'yes' if exact else 'NO'}; "
              f"perfect-order alpha-beta leaves = Knuth-Moore: {'yes' if km else 'NO'}")
    if args.plot:
        from protocol import draw

        series = {name: (depths, [float(c.leaves) for c in counts]) for name, counts in table.items()}
        if args.game is None:
            series["formula: b^ceil(d/2) + b^floor(d/2) - 1"] = (depths, [float(knuth_moore(b, d)) for d in depths])
        where = f"uniform trees, b={b}" if args.game is None else game.name
        draw.plot_lines(args.plot, series, f"leaves evaluated against depth ({where})", "depth (plies)",
                        "leaves (log scale)")
        print(f"plot: {args.plot}")
    return 0


def deepening_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="zermelo lab deepening")
    _args(parser, "tictactoe", "tictactoe")
    parser.add_argument("--depth", type=int, default=6, help="deepest iteration (default 6)")
    parser.add_argument("--plot", help="plot nodes per iteration to this .svg or .png")
    args = parser.parse_args(argv)
    error = _plot_check(args.plot)
    if error:
        print(f"zermelo lab: {error}", file=sys.stderr)
        return 2
    from engine import lab

    game, pos = _position(parser, args)
    if not 1 <= args.depth <= 12:
        parser.error("--depth 1 to 12")
    text = pos.to_text()
    with_tt, per_with = lab.iterative_count(game.new_position(text), args.depth, True)
    without, per_without = lab.iterative_count(game.new_position(text), args.depth, False)
    engine, per_engine, _ = lab.engine_count(game, game.new_position(text), args.depth)
    print(f"{game.name}: {text}; iterative deepening to depth {args.depth}, nodes per iteration")
    rows = [("alpha-beta, previous best move first", per_with, with_tt.nodes),
            ("alpha-beta, same order every iteration", per_without, without.nodes),
            ("engine search (TT, killers, history)", per_engine, engine.nodes)]
    depths = list(range(1, args.depth + 1))
    width = max(len(r[0]) for r in rows)
    print("iteration".ljust(width) + "".join(f"{d:>9}" for d in depths) + f"{'total':>10}")
    for name, per, total in rows:
        print(name.ljust(width) + "".join(f"{n:>9,}" for n in per) + f"{total:>10,}")
    if args.plot:
        from protocol import draw

        draw.plot_lines(args.plot, {name: (depths[:len(per)], [float(n) for n in per]) for name, per, _ in rows},
                        f"nodes per iteration ({game.name})", "iteration (depth)", "nodes (log scale)")
        print(f"plot: {args.plot}")
    return 0


def quiescence_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="zermelo lab quiescence")
    _args(parser, None, "chess, from the position where White's queen can take a defended pawn")
    parser.add_argument("--depth", type=int, default=1, help="search depth of both (default 1)")
    args = parser.parse_args(argv)
    if args.game is None:
        # The documented example (any game and position may be given instead).
        args.game, args.fen = "chess", args.fen or HORIZON_FEN
    from engine import lab

    game, pos = _position(parser, args)
    print(f"{game.name}: {pos.to_text()}")
    print(pos.render())
    print()
    results = lab.horizon(game, pos, args.depth)
    width = max(len(r.name) for r in results)
    print(f"{'search'.ljust(width)}  {'value':>7}  {'nodes':>7}  line")
    from protocol.draw import score_text

    for r in results:
        print(f"{r.name.ljust(width)}  {score_text(r.value):>7}  {r.nodes:>7,}  {' '.join(_line_text(pos, r.line))}")
    # One ply more moves the horizon past the reply: the plain search sees it too.
    deeper = lab.horizon(game, pos, args.depth + 1)[0]
    print(f"{deeper.name.ljust(width)}  {score_text(deeper.value):>7}  {deeper.nodes:>7,}  "
          f"{' '.join(_line_text(pos, deeper.line))}")
    return 0


def _line_text(pos, line: list[int]) -> list[str]:
    out = []
    for m in line:
        out.append(pos.move_text(m))
        pos.push(m)
    for _ in line:
        pos.pop()
    return out


class PathWatcher:
    """A listener holding what a depth-first search holds: the open nodes on the path
    and the moves each keeps; it records the most of both at once and counts nodes."""

    def __init__(self, pos):
        self.pos = pos
        self.held: list[int] = []
        self.moves = 0
        self.nodes = 0
        self.deepest = 0
        self.most_moves = 0

    def enter(self, move: int, depth: int, alpha: int, beta: int, quiescence: bool) -> None:
        pos = self.pos
        kept = len(pos.legal_moves()) if depth > 0 and pos.outcome() is None else 0
        self.held.append(kept)
        self.moves += kept
        self.nodes += 1
        self.deepest = max(self.deepest, len(self.held))
        self.most_moves = max(self.most_moves, self.moves)

    def leave(self, value: int) -> None:
        self.moves -= self.held.pop()


def memory_row(b: int, m: int, algorithm: str, seed: int) -> tuple[int, int, int, int]:
    """(nodes, deepest path, most moves held, peak bytes allocated) of one depth-first
    search of the uniform tree b^m; the peak is traced in a second, silent run, so that
    the watcher's own lists are not counted."""
    import gc
    import tracemalloc

    from engine.textbook import Textbook
    from games.tree import TreeGame

    game = TreeGame.uniform(b, m, seed)
    pos = game.new_position()
    watcher = PathWatcher(pos)
    Textbook(pos, watcher).search(algorithm, m)
    pos = game.new_position()
    book = Textbook(pos)
    # A full collection empties the interpreter's free lists, and the watched run above fills
    # them again the same way: the traced search allocates the same whatever ran before it.
    gc.collect()
    Textbook(game.new_position()).search(algorithm, m)
    tracemalloc.start()
    try:
        book.search(algorithm, m)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return watcher.nodes, watcher.deepest, watcher.most_moves, peak


def memory_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="zermelo lab memory")
    parser.add_argument("--branching", type=int, default=3, help="children per node (default 3)")
    parser.add_argument("--depth", type=int, default=8, help="deepest tree, plies (default 8)")
    parser.add_argument("--seed", type=int, default=1, help="leaf values' seed (default 1)")
    args = parser.parse_args(argv)
    b = args.branching
    if not 2 <= b <= 30 or not 1 <= args.depth <= 12 or b ** args.depth > 2_000_000:
        parser.error("--branching 2 to 30, --depth 1 to 12, at most 2,000,000 leaves")
    from engine.bestfirst import sss
    from games.tree import TreeGame

    print(f"uniform trees b^m: branching {b}, depth m = 1 to {args.depth}; a depth-first search holds one "
          f"path: time O(b^m), space O(bm)")
    header = ("m", "nodes", "b^m", "path", "moves held", "peak bytes +", "alpha-beta nodes", "peak bytes +",
              "SSS* OPEN")
    rows = []
    for m in range(1, args.depth + 1):
        nodes, path, moves, peak = memory_row(b, m, "minimax", args.seed)
        ab_nodes, _, _, ab_peak = memory_row(b, m, "alphabeta", args.seed)
        most_open = sss(TreeGame.uniform(b, m, args.seed).new_position(), m).most_open
        rows.append([m, nodes, b ** m, path, moves, peak, ab_nodes, ab_peak, most_open])
    # Peaks above the smallest tree's: what the interpreter holds anyway cancels out.
    base, ab_base = rows[0][5], rows[0][7]
    for r in rows:
        r[5] -= base
        r[7] -= ab_base
    widths = [max(len(header[i]), *(len(f"{r[i]:,}") for r in rows)) for i in range(len(header))]
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    for r in rows:
        print("  ".join(f"{v:,}".rjust(w) for v, w in zip(r, widths)))
    print("minimax: nodes, path (open nodes), moves held and peak bytes above m = 1; alpha-beta: nodes and peak "
          "bytes above m = 1 (tracemalloc, in a run of its own); SSS*: its longest OPEN list")
    first, last = rows[0], rows[-1]
    if len(rows) > 1:
        print(f"from m = {first[0]} to m = {last[0]}: nodes × {last[1] / first[1]:,.0f}, path × "
              f"{last[3] / first[3]:.1f}, peak bytes + {last[5]:,}, SSS*'s OPEN × {last[8] / first[8]:,.0f}")
    return 0


def sss_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="zermelo lab sss")
    parser.add_argument("--branching", type=int, default=3, help="children per node (default 3)")
    parser.add_argument("--depth", type=int, default=6, help="deepest tree, plies (default 6)")
    parser.add_argument("--seeds", type=int, default=20, help="trees per depth, seeds 1 to N (default 20)")
    args = parser.parse_args(argv)
    b = args.branching
    if not 2 <= b <= 30 or not 1 <= args.depth <= 12 or not 1 <= args.seeds <= 1000 \
            or args.seeds * b ** args.depth > 5_000_000:
        parser.error("--branching 2 to 30, --depth 1 to 12, --seeds 1 to 1000, at most 5,000,000 leaves in all")
    from engine.bestfirst import sss
    from engine.textbook import Textbook, knuth_moore
    from games.tree import TreeGame

    print(f"uniform trees: branching {b}, depth 1 to {args.depth}, seeds 1 to {args.seeds}; leaves evaluated "
          f"per tree (mean), moves in generated order")
    names = ("minimax b^d", "alpha-beta", "SSS*", "DUAL*", "Knuth-Moore minimum")
    table: dict[str, list[float]] = {name: [] for name in names}
    fewer = more = 0
    for d in range(1, args.depth + 1):
        sums = [0, 0, 0]
        for seed in range(1, args.seeds + 1):
            game = TreeGame.uniform(b, d, seed)
            book = Textbook(game.new_position())
            book.alphabeta(d)
            sss_leaves = sss(game.new_position(), d).leaves
            fewer += sss_leaves < book.leaves
            more += sss_leaves > book.leaves
            sums[0] += book.leaves
            sums[1] += sss_leaves
            sums[2] += sss(game.new_position(), d, dual=True).leaves
        table["minimax b^d"].append(b ** d)
        for name, total in zip(names[1:4], sums):
            table[name].append(total / args.seeds)
        table["Knuth-Moore minimum"].append(knuth_moore(b, d))
    width = max(len(n) for n in names)
    print("depth".ljust(width) + "".join(f"{d:>10}" for d in range(1, args.depth + 1)))
    for name in names:
        print(name.ljust(width) + "".join(f"{v:>10,.1f}" for v in table[name]))
    print(f"SSS* evaluated fewer leaves than alpha-beta on {fewer} of {args.depth * args.seeds} trees, "
          f"more on {more}")
    return 0


_SUBCOMMANDS = {"alphabeta": alphabeta_main, "deepening": deepening_main, "quiescence": quiescence_main,
                "memory": memory_main, "sss": sss_main}


USAGE = "usage: zermelo lab {" + ",".join(_SUBCOMMANDS) + "} [OPTIONS]  (EXPERIMENT --help for its options)"


def main(argv: list[str]) -> int:
    if argv and argv[0] in ("-h", "--help"):
        print(f"{USAGE}\n\n{__doc__}")
        return 0
    if not argv or argv[0] not in _SUBCOMMANDS:
        unknown = f"zermelo lab: unknown experiment {argv[0]!r}\n" if argv else ""
        print(f"{USAGE}\n{unknown}\n{__doc__}", file=sys.stderr)
        return 2
    return _SUBCOMMANDS[argv[0]](argv[1:])
