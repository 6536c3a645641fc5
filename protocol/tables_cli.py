"""``zermelo tables``: build endgame tables by retrograde analysis and inspect table files.

    zermelo tables build chess KQK KRK KBNK --out tables/
    zermelo tables build chess 3 4 --out tables/     # every 3-piece / 4-piece pawnless class
    zermelo tables build checkers 4 --out tables/    # every draughts class of 4 pieces (and smaller)
    zermelo tables build shashki KKKvK --out tables/
    zermelo tables build kalah --seeds 13 --out tables/   # or class s13; --pits, --empty-capture, --xz
    zermelo tables build chess 4 --out tables/ --backend ray   # classes as tasks on a Ray cluster
    zermelo tables info tables/chess-KBNvK.ztb
    zermelo tables build chess KQK --out tables/ --steps --plot rounds.svg   # the marking, round by round
    zermelo tables build chess KQK --fixed-king c3 --steps                   # Brudno's table, king fixed on c3

The classes are built in dependency order (a class after those its captures and
promotions lead to), one after the other here or as tasks on Ray; each file is
written by this process, identical on either backend.
"""

from __future__ import annotations

import argparse
import functools
import lzma
import re
import sys
import time
from typing import TYPE_CHECKING, cast

import numpy as np

import games
from engine import tablefile
from engine.execution import ExecutionError, run_graph
from protocol import backend as backend_args

if TYPE_CHECKING:
    from games.mnk import MnkGame


def _progress(line: str) -> None:
    print(f"\r\033[K{line}", end="", file=sys.stderr, flush=True)


def _report_build(name: str, path, elapsed: float) -> None:
    header, _ = tablefile.read_header(path, encoding=None)
    print(f"{name}: {header['entries']:,} entries, {path.stat().st_size:,} bytes, "
          f"done {elapsed:.1f}s after the start -> {path}")


def build_main(args) -> int:
    if args.plot:
        from protocol import draw
        try:
            draw.check_picture_path(args.plot)
            draw.require_matplotlib()
        except (ValueError, draw.PlotsUnavailable) as e:
            print(f"zermelo tables: {e}", file=sys.stderr)
            return 2
        args.stats = True
    game = args.game.lower()
    # Registry names only: table files are named after them.
    cls = games.game_class(game) if game in games.names() else None
    from games import mnk_table
    if game in mnk_table.GAMES:
        return _build_whole_game(game, args)
    if cls is not None and cls.tables_note:
        print(f"{game}: {cls.tables_note}")
        return 0
    # How the class words on the command line read follows the game's table classes.
    builders = {"material": _build_chess, "pieces": _build_draughts, "seeds": _build_kalah}
    builder = builders.get(cls.table_classes) if cls is not None else None
    if (args.steps or args.fixed_king) and builder is not _build_chess:
        print("zermelo tables: --steps and --fixed-king are for chess classes", file=sys.stderr)
        return 2
    if args.out is None and not args.fixed_king and builder is not None:
        print("zermelo tables: --out DIRECTORY is required (where the table files go)", file=sys.stderr)
        return 2
    if builder is None:
        print(f"zermelo tables: no table builder for {args.game!r} (available: chess, checkers, "
              f"shashki, brazilian, international, kalah)", file=sys.stderr)
        return 2
    try:
        return builder(game, args)
    except (ValueError, ExecutionError, tablefile.TableError) as e:
        print(f"\nzermelo tables: {e}", file=sys.stderr)
        return 2


def _build_whole_game(name: str, args) -> int:
    """Tic-tac-toe's whole game written to a table file, read back for its start position."""
    from games import mnk_table

    if args.classes or args.steps or args.fixed_king:
        print(f"zermelo tables: {name} has one table, its whole game: no classes, --steps or --fixed-king",
              file=sys.stderr)
        return 2
    if args.out is None:
        print("zermelo tables: --out DIRECTORY is required (where the table files go)", file=sys.stderr)
        return 2
    game = cast("MnkGame", games.load(name))
    start = time.perf_counter()
    try:
        path = mnk_table.write_table(args.out, game, mnk_table.solve(game))
        value = mnk_table.probe(path, game, game.new_position())
    except (OSError, tablefile.TableError) as e:
        print(f"zermelo tables: {e}", file=sys.stderr)
        return 2
    _report_build(name, path, time.perf_counter() - start)
    who = game.players[0]
    said = "draw" if value == 0 else f"{who} {'wins' if value > 0 else 'loses'} in {abs(value) - 1} plies"
    print(f"{name}: the start position, read back from {path}: {said}")
    if args.stats:
        _stats(name, path, args, lambda _, idx: mnk_table.position_text(game, idx))
    return 0


def _stats(name: str, path, args, position_text=None) -> None:
    """``--stats``: positions per distance to the end of a built class, and ``--plot`` of them."""
    table = tablefile.open_table(path, encoding=None)
    h = table.header
    if h["encoding"] != tablefile.ENCODING:
        print(f"{name}: --stats needs a distance table ({h['encoding']} holds margins)")
        return
    sides = h.get("sides", 1)
    half = len(table.values) // sides
    players = h.get("players") or [f"player {i + 1}" for i in range(sides)]
    parts = [tablefile.distances(table.values[i * half:(i + 1) * half]) for i in range(sides)]
    total_legal = sum(p.legal for p in parts)
    print(f"{name}: {total_legal:,} legal positions of {len(table.values):,} entries "
          f"({sum(p.illegal for p in parts):,} not legal)")
    for side, part in enumerate(parts):
        who = f"{players[side]} to move" if sides > 1 else "all"
        won, lost = sum(part.wins.values()), sum(part.losses.values())
        print(f"  {who}: {part.legal:,} legal = {won:,} won + {part.draws:,} drawn + {lost:,} lost")
        for label, counts in (("won", part.wins), ("lost", part.losses)):
            if not counts:
                continue
            by_moves: dict[int, int] = {}
            for plies, count in counts.items():
                moves = (plies + 1) // 2
                by_moves[moves] = by_moves.get(moves, 0) + count
            cells = ", ".join(f"{m}: {c:,}" for m, c in sorted(by_moves.items()))
            print(f"    {label}, positions per moves to the end: {cells}")
            print(f"    {label}: {max(by_moves)}-move maximum")
        if part.longest_win_index is not None and position_text is not None:
            print(f"    a longest win: {position_text(name, side * half + part.longest_win_index)}")
    if args.plot:
        from protocol import draw

        best = max(range(sides), key=lambda i: max(parts[i].wins, default=-1))
        wins = parts[best].wins
        by_moves = {}
        for plies, count in wins.items():
            by_moves[(plies + 1) // 2] = by_moves.get((plies + 1) // 2, 0) + count
        xs = sorted(by_moves)
        draw.plot_bars(args.plot, xs, [by_moves[x] for x in xs],
                       f"{name}: positions won by {players[best]} to move, per moves to mate or the end",
                       "moves to the end", "positions (log scale)", log=True, mark=f"longest win: {xs[-1]} moves")
        print(f"plot: {args.plot}")


class Rounds:
    """``--steps``: the marking of retrograde analysis printed round by round with the
    chapters' labels (0 mated; −1 mates in one; 2 every move reaches a −1; −3, …) and
    words: a position is won or lost for the player who moved into it, so the mated
    positions (0) are won and those that mate (−1) lost. The count of each round is
    kept for the picture."""

    def __init__(self, name: str, position_text=None):
        self.name = name
        self.position_text = position_text
        self.counts: list[tuple[int, int, int]] = []

    def __call__(self, ply: int, won, lost) -> None:
        # ``won``/``lost`` are for the side to move: the chapters' words are the other way round.
        self.counts.append((ply, len(won), len(lost)))
        if ply == 0:
            print(f"{self.name}: the chapters' words: a position is won or lost for the player who moved "
                  "into it (the side to move has the other result)")
            print(f"{self.name}: round 0: label 0: {len(lost):,} positions without a move, won (the side to "
                  "move is mated)" + (f"; {len(won):,} lost" if len(won) else "") + self._example(lost))
            return
        if not len(won) and not len(lost):
            print(f"{self.name}: round {ply}: nothing new is marked: the marking stops")
            return
        if len(won):
            print(f"{self.name}: round {ply}: label −{ply}: {len(won):,} positions lost: a move reaches "
                  f"a won position (labelled {ply - 1 if ply % 2 else -(ply - 1)})" + self._example(won))
        if len(lost):
            labels = "−1" if ply == 2 else f"−1 … −{ply - 1}"
            print(f"{self.name}: round {ply}: label {ply}: {len(lost):,} positions won: every move reaches "
                  f"a lost position (labelled {labels})" + self._example(lost))

    def _example(self, idx) -> str:
        if self.position_text is None or not len(idx):
            return ""
        return f" (e.g. {self.position_text(self.name, int(idx[0]))})"

    def finish(self, values: np.ndarray, plot: str | None) -> None:
        from engine import retro

        legal = int((values != retro.ILLEGAL).sum())
        print(f"{self.name}: never marked: {int((values == retro.DRAW).sum()):,} of {legal:,} legal positions: "
              f"draws; {int((values > 0).sum()):,} won and "
              f"{int(((values < 0) & (values != retro.ILLEGAL)).sum()):,} lost for the side to move")
        if plot:
            from protocol import draw

            draw.plot_rounds(plot, [c for c in self.counts if c[1] + c[2]],
                             f"{self.name}: positions marked in each round of the retrograde analysis")
            print(f"plot: {plot}")


def _sizes(name: str) -> None:
    from games.chess import tables as chess_retro

    naive, symmetric = chess_retro.index_sizes(name)
    pieces = len(chess_retro.chess_class(name).types)
    rest = " × ".join(["64"] * (pieces - 2))
    print(f"{name}: index: naive 64^{pieces} × 2 = {naive:,} entries; by symmetry "
          f"{len(chess_retro.chess_class(name).pairs)} king pairs{' × ' + rest if rest else ''} × 2 = "
          f"{symmetric:,} ({naive / symmetric:.1f} times fewer)")


def _fixed_king(args) -> int:
    """Brudno's KQK: the white king fixed on one square, a table of the other pieces only."""
    import chess

    from engine import retro
    from games.chess import tables as chess_retro

    names = [chess_retro.class_name(word) for word in args.classes]
    if len(names) != 1:
        raise ValueError("--fixed-king builds one class, e.g. KQK")
    try:
        square = chess.parse_square(args.fixed_king.lower())
    except ValueError:
        raise ValueError(f"--fixed-king {args.fixed_king!r}: expected a square such as c3") from None
    name = names[0]
    cls = chess_retro.FixedKingClass(name, square)
    _sizes(name)
    print(f"{name} with the white king fixed on {chess.square_name(square)} (Brudno): "
          f"64^{len(cls.types) - 1} × 2 = {cls.size:,} entries, {cls.size * np.dtype(retro.VALUE_DTYPE).itemsize:,} "
          f"bytes at {np.dtype(retro.VALUE_DTYPE).itemsize} bytes a value ({cls.size:,} at one byte)")
    rounds = Rounds(name) if args.steps else None
    t0 = time.monotonic()
    values = retro.solve(cls, on_round=rounds)
    legal = values != retro.ILLEGAL
    won = values > 0
    print(f"{name}, king on {chess.square_name(square)}: {int(legal.sum()):,} legal positions: "
          f"{int(won.sum()):,} won, {int((values == 0).sum()):,} drawn, {int((legal & (values < 0)).sum()):,} lost; "
          f"longest win {int(values.max()) // 2} moves ({int(values.max()) - 1} plies); {time.monotonic() - t0:.1f}s")
    for stm in (0, 1):
        part = values[stm * cls.half:(stm + 1) * cls.half]
        ok = part != retro.ILLEGAL
        print(f"  {'white' if stm == 0 else 'black'} to move: {int(ok.sum()):,} legal, {int((part > 0).sum()):,} won, "
              f"{int((part == 0).sum()):,} drawn, {int((ok & (part < 0)).sum()):,} lost")
    if rounds is not None:
        rounds.finish(values, args.plot)
    return 0


def _build_graph(names: list[str], path_of, expect_of, subclasses, solve, write, args, position_text=None) -> int:
    """Build every class of ``names`` whose file is missing (all with ``--force``),
    and first the classes they reach whose files are missing, as tasks of
    ``args.backend``: a class once the classes its captures and promotions lead to
    are built. ``solve(inputs, name, progress)`` solves a class from its
    subclasses' values; the files are written here, so they are the same on any backend.
    A file already there is read only if its header has the fields ``expect_of(name)``."""
    if not names:
        raise ValueError("no class to build given")
    backend = backend_args.from_args(args)
    nodes: dict = {}
    given: dict = {}
    progress = None if args.quiet or backend.is_ray else _progress

    def add(name: str, forced: bool) -> None:
        if name in nodes or name in given:
            return
        path = path_of(name)
        if path.exists() and not forced:
            given[name] = tablefile.open_table(path, encoding=None, expect=expect_of(name)).values
            return
        deps = subclasses(name)
        for dep in deps:
            add(dep, False)
        nodes[name] = (solve, (name, progress), deps)

    for name in dict.fromkeys(names):
        # --steps shows the marking, so the classes asked for are built again.
        if path_of(name).exists() and not (args.force or args.steps):
            print(f"{name}: {path_of(name)} exists (--force rebuilds)")
        else:
            add(name, args.force or args.steps)
    t0 = time.monotonic()
    for name, values in run_graph(backend, nodes, given):
        path = write(name, values)
        if progress:
            print(file=sys.stderr)
        _report_build(name, path, time.monotonic() - t0)
    if args.stats and not args.steps:
        for name in dict.fromkeys(names):
            _stats(name, path_of(name), args, position_text)
    return 0


def _chess_solve(inputs: dict, name: str, progress, steps: frozenset = frozenset(), plot=None) -> np.ndarray:
    from engine import retro
    from games.chess import tables as chess_retro

    report = (lambda line: progress(f"{name}: {line}")) if progress else None
    lookup = lambda sub: inputs[chess_retro.class_name(sub)]  # noqa: E731
    if name not in steps:
        return chess_retro.build(name, lookup, report)
    _sizes(name)
    rounds = Rounds(name, chess_retro.position_text)
    values = retro.solve(chess_retro.ChessClass(name, lookup), on_round=rounds)
    rounds.finish(values, plot)
    return values


def _build_chess(game: str, args) -> int:
    from games.chess import tables as chess_retro

    if args.fixed_king:
        return _fixed_king(args)
    names: list[str] = []
    for word in args.classes:
        group = {"3": chess_retro.THREE_PIECE, "4": chess_retro.FOUR_PIECE_PAWNLESS}.get(word)
        names += list(group) if group else [chess_retro.class_name(word)]
    for name in names:
        chess_retro.chess_class(name)  # refuses unsupported classes before any work starts
    if args.steps and not args.quiet and len(names) > 3:
        print(f"--steps: {len(names)} classes; each is shown round by round")
    solve = functools.partial(_chess_solve, steps=frozenset(names) if args.steps else frozenset(),
                              plot=args.plot if args.steps else None)
    return _build_graph(names, lambda name: chess_retro.table_path(args.out, name), chess_retro.expected_header,
                        chess_retro.subclasses,
                        solve, lambda name, values: chess_retro.write_table(args.out, name, values), args,
                        chess_retro.position_text)


def _draughts_solve(inputs: dict, name: str, progress, *, game: str) -> np.ndarray:
    from games.draughts import retro as draughts_retro

    report = (lambda line: progress(f"{name}: {line}")) if progress else None
    return draughts_retro.solve_class(games.load(game), name,
                                      lambda sub: inputs[draughts_retro.class_name(sub)], report)


def _build_draughts(game: str, args) -> int:
    from games.draughts import retro as draughts_retro

    names: list[str] = []
    for word in args.classes:
        if word.isdigit():
            n = int(word)
            if not 2 <= n <= draughts_retro.MAX_PIECES:
                raise ValueError(f"draughts tables hold 2 to {draughts_retro.MAX_PIECES} pieces, not {n}")
            names += [c for c in draughts_retro.all_classes(n) if c not in draughts_retro.all_classes(n - 1)]
        else:
            name = draughts_retro.class_name(word)
            if sum(map(sum, draughts_retro.parse_class(name))) > draughts_retro.MAX_PIECES:
                raise ValueError(f"draughts tables hold at most {draughts_retro.MAX_PIECES} pieces: {name}")
            names.append(name)
    rules = games.load(game)
    return _build_graph(names, lambda name: draughts_retro.table_path(args.out, game, name),
                        functools.partial(draughts_retro.expected_header, rules),
                        draughts_retro.subclasses, functools.partial(_draughts_solve, game=game),
                        lambda name, values: draughts_retro.write_table(args.out, rules, name, values), args)


def _kalah_solve(inputs: dict, name: str, progress, *, pits: int, empty_capture: bool) -> np.ndarray:
    from games.kalah import retro as kalah_retro

    return kalah_retro.solve(pits, int(name[1:]), empty_capture, progress)


def _build_kalah(game: str, args) -> int:
    from games.kalah import retro as kalah_retro

    seeds = [args.seeds] if args.seeds is not None else []
    for word in args.classes:
        m = re.fullmatch(r"s?(\d+)", word.lower())
        if not m:
            raise ValueError(f"bad Kalah class {word!r}; expected the seeds left in the pits, "
                             f"e.g. s13 (or --seeds 13)")
        seeds.append(int(m.group(1)))
    if not seeds:
        raise ValueError("give the seeds left in the pits: a class such as s13, or --seeds 13")
    if not 1 <= args.pits <= 8 or not all(1 <= s <= 30 for s in seeds):
        raise ValueError("Kalah tables: 1-8 pits a side, 1-30 seeds")

    def path_of(name: str):
        return kalah_retro.table_path(args.out, args.pits, int(name[1:]), args.empty_capture)

    def write(name: str, values):
        kalah_retro.write_table(path_of(name), values, args.pits, int(name[1:]), args.empty_capture)
        return path_of(name)

    # A Kalah table holds every seed level up to its own: each file stands alone.
    def expect_of(name: str) -> dict:
        return kalah_retro.expected_header(args.pits, int(name[1:]), args.empty_capture)

    status = _build_graph([f"s{s}" for s in seeds], path_of, expect_of, lambda name: [],
                          functools.partial(_kalah_solve, pits=args.pits, empty_capture=args.empty_capture),
                          write, args)
    for s in seeds if args.xz else ():
        path = kalah_retro.table_path(args.out, args.pits, s, args.empty_capture)
        packed = path.with_name(path.name + ".xz")
        packed.write_bytes(lzma.compress(path.read_bytes(), preset=9 | lzma.PRESET_EXTREME))
        print(f"s{s}: {packed} ({packed.stat().st_size:,} bytes)")
    return status


def info_main(args) -> int:
    status = 0
    for path in args.files:
        try:
            table = tablefile.open_table(path, verify=not args.no_verify, encoding=None)
        except tablefile.TableError as e:
            print(f"error: {e}", file=sys.stderr)
            status = 1
            continue
        h = table.header
        print(f"{table.path}:")
        for key in sorted(h):
            print(f"  {key}: {h[key]}")
        values = table.values
        sides = h.get("sides", 1)
        half = len(values) // sides
        for side in range(sides):
            part = values[side * half:(side + 1) * half]
            who = f"player {side + 1} to move" if sides > 1 else "all"
            if h.get("players"):
                who = f"{h['players'][side]} to move"
            if h["encoding"] == tablefile.ENCODING:
                s = tablefile.summary(part)
                # A side that only loses is described by its longest loss, not by "no win".
                longest = [f"longest {what} {n} plies ({verb} in {(n + 1) // 2})"
                           for what, verb, n in (("win", "mate", s["longest_win_plies"]),
                                                 ("loss", "mated", s["longest_loss_plies"])) if n is not None]
                print(f"  {who}: wins {s['wins']:,}, draws {s['draws']:,}, losses {s['losses']:,}, "
                      f"not legal {s['illegal']:,}; {', '.join(longest) or 'no win or loss'}")
            else:
                # Margin tables: the value is the final score difference still to be gained.
                v = np.asarray(part)
                print(f"  {who}: wins {int((v > 0).sum()):,}, draws {int((v == 0).sum()):,}, "
                      f"losses {int((v < 0).sum()):,}; margins {int(v.min()):+d} to {int(v.max()):+d}")
    return status


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="zermelo tables", description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build tables (and the smaller ones they need)")
    b.add_argument("game")
    b.add_argument("classes", nargs="*", metavar="CLASS",
                   help="chess: KQK, KQvKR, ... or 3 / 4 (all 3-piece / 4-piece pawnless classes); "
                        "checkers, shashki, brazilian, international: KKvK, KMvM, ... or 2 / 3 / 4 "
                        "(all classes of that many pieces); "
                        "kalah: s13 (seeds left in the pits)")
    b.add_argument("--out", default=None, help="directory of the table files (required but with --fixed-king)")
    b.add_argument("--seeds", type=int, help="kalah: seeds left in the pits (like class s13)")
    b.add_argument("--pits", type=int, default=6, help="kalah: pits a side (default 6)")
    b.add_argument("--empty-capture", action="store_true",
                   help="kalah: a last seed in an own empty pit captures even when the opposite pit is empty")
    b.add_argument("--xz", action="store_true",
                   help="kalah: also write an xz-compressed copy FILE.ztb.xz (the form the package ships)")
    b.add_argument("--force", action="store_true", help="rebuild classes whose file exists")
    b.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    b.add_argument("--stats", action="store_true",
                   help="then print each class's positions per distance to the end, its longest win")
    b.add_argument("--plot", metavar="FILE", help="with --stats: plot the distances to this .svg or .png; "
                                                   "with --steps: the positions marked in each round")
    b.add_argument("--steps", action="store_true",
                   help="chess: show the retrograde marking round by round (labels 0, −1, 2, −3, …), "
                        "the naive and the symmetric index sizes; the classes named are built again")
    b.add_argument("--fixed-king", metavar="SQUARE", default=None,
                   help="chess: Brudno's table with the white king fixed on SQUARE (e.g. c3), built in "
                        "memory only, with its size")
    backend_args.add_arguments(b)
    b.set_defaults(run=build_main)
    i = sub.add_parser("info", help="print a table file's header and counts")
    i.add_argument("files", nargs="+", metavar="FILE")
    i.add_argument("--no-verify", action="store_true", help="skip the payload checksum")
    i.set_defaults(run=info_main)
    args = parser.parse_args(argv)
    return args.run(args)
