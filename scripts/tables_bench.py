"""Build chess endgame tables and report times, sizes and longest wins; check them.

    nice python scripts/tables_bench.py                    # the reported classes
    nice python scripts/tables_bench.py --all --repeat 3   # every 3-piece and 4-piece pawnless class
    nice python scripts/tables_bench.py KBNK --playouts 20 --syzygy 2000

Each class is built once per repeat with its subclasses already on disk, so a time is
the class alone (median wall and CPU seconds). Longest wins are compared with the
published figures (REFERENCE.md); ``--syzygy N`` compares N random positions per class
with the Syzygy WDL tables; ``--playouts N`` plays KQK, KRK and KBNK from random
positions (the table for the stronger side, the longest-resisting reply for the
defender) and checks that mate comes exactly at the table's distance.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import tempfile
import time

import chess
import chess.syzygy
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from engine import retro, tablefile  # noqa: E402
from games.chess import tables as chess_retro  # noqa: E402

SYZYGY = pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "syzygy"
PUBLISHED = {"KQvK": 10, "KRvK": 16, "KBBvK": 19, "KBNvK": 33, "KPvK": 28, "KQvKR": 35}
DEFAULT = ("KQvK", "KRvK", "KPvK", "KBNvK", "KBBvK", "KNNvK", "KQvKR")


def _order(names):
    """``names`` and their subclasses, smallest first."""
    seen: dict[str, None] = {}

    def visit(name):
        for sub in chess_retro.subclasses(name):
            visit(sub)
        seen.setdefault(name, None)

    for name in names:
        visit(chess_retro.class_name(name))
    return list(seen)


def _board(cls, idx):
    stm, sq = cls.decode(np.array([idx]))
    board = chess.Board(None)
    for k, (t, c) in enumerate(zip(cls.types, cls.colours)):
        board.set_piece_at(int(sq[0, k]), chess.Piece(t, c == 0))
    board.turn = bool(stm[0] == 0)
    return board


def _random_boards(tables, name, count, rng, where):
    values = np.asarray(tables.values(name))
    pool = np.flatnonzero(where(values) & (values != np.iinfo(values.dtype).min))
    cls = chess_retro.chess_class(name)
    while count:
        board = _board(cls, int(pool[rng.randrange(len(pool))]))
        if board.is_valid():
            count -= 1
            yield board


def check_syzygy(tables, name, count, rng) -> int:
    """Number of WDL disagreements with Syzygy (cursed wins count as wins)."""
    bad = 0
    with chess.syzygy.open_tablebase(str(SYZYGY)) as tb:
        for board in _random_boards(tables, name, count, rng, lambda v: np.ones(len(v), bool)):
            bad += tables.probe(board)[0] != np.sign(tb.probe_wdl(board))
    return bad


def playout(tables, board) -> tuple[int, int]:
    """Play a won position out; returns (table distance in moves, moves played to mate)."""
    strong = board.turn
    wdl, plies = tables.probe(board)
    moves = 0
    while not board.is_game_over():
        options = []
        for move in board.legal_moves:
            board.push(move)
            options.append((tables.probe(board), move))
            board.pop()
        if board.turn == strong:
            move = min(options, key=lambda o: (o[0][0] != -1, o[0][1]))[1]
            moves += 1
        else:
            move = max(options, key=lambda o: (o[0][0] == 1, o[0][1]))[1]
        board.push(move)
    assert board.is_checkmate() and board.turn != strong, board.fen()
    return (plies + 1) // 2, moves


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("classes", nargs="*", help=f"classes to build (default: {' '.join(DEFAULT)})")
    ap.add_argument("--all", action="store_true", help="every 3-piece and 4-piece pawnless class")
    ap.add_argument("--repeat", type=int, default=1, help="builds per class (median reported)")
    ap.add_argument("--syzygy", type=int, default=0, metavar="N", help="Syzygy WDL samples per class")
    ap.add_argument("--playouts", type=int, default=0, metavar="N", help="play-outs of KQK, KRK, KBNK")
    ap.add_argument("--out", help="table directory (default: a temporary one)")
    args = ap.parse_args(argv)
    names = args.classes or list(DEFAULT)
    if args.all:
        names = list(chess_retro.THREE_PIECE + chess_retro.FOUR_PIECE_PAWNLESS)
    directory = pathlib.Path(args.out or tempfile.mkdtemp(prefix="zermelo-tables-"))
    directory.mkdir(parents=True, exist_ok=True)
    tables = chess_retro.ChessTables(directory, build=True)
    rng = random.Random(2026)
    print(f"{'class':8} {'entries':>10} {'file bytes':>11} {'wall s':>7} {'cpu s':>7} "
          f"{'longest':>7} {'published':>9}" + ("  syzygy" if args.syzygy else ""))
    failures = 0
    for name in _order(names):
        walls, cpus = [], []
        for _ in range(args.repeat):
            w, c = time.perf_counter(), time.process_time()
            values = chess_retro.build(name, tables.values)
            walls.append(time.perf_counter() - w)
            cpus.append(time.process_time() - c)
        path = chess_retro.table_path(directory, name)
        tablefile.write(path, values, game=chess_retro.GAME, material=name,
                        stm_convention=chess_retro.STM_CONVENTION,
                        extra={"sides": 2, "players": ["white", "black"]})
        tables = chess_retro.ChessTables(directory, build=True)
        top = int(values[:len(values) // 2].max())
        longest = (top - 1 + 1) // 2 if top > 0 else 0
        published = PUBLISHED.get(name)
        failures += published is not None and published != longest
        if name == "KNNvK":
            # Published: no forced mate. The defender to move is lost only when already mated.
            black = values[len(values) // 2:]
            forced = int(((black < retro.loss_in(0)) & (black != retro.ILLEGAL)).sum())
            failures += forced > 0
            published = "no mate" if not forced else f"{forced} forced"
        line = (f"{name:8} {len(values):>10,} {path.stat().st_size:>11,} {statistics.median(walls):>7.2f} "
                f"{statistics.median(cpus):>7.2f} {longest:>7} {'' if published is None else published:>9}")
        if args.syzygy:
            bad = check_syzygy(tables, name, args.syzygy, rng)
            failures += bad
            line += f"  {bad} of {args.syzygy} differ"
        print(line, flush=True)
    for name in ("KQvK", "KRvK", "KBNvK")[:3 if args.playouts else 0]:
        if not chess_retro.table_path(directory, name).exists():
            continue
        exact = 0
        for board in _random_boards(tables, name, args.playouts, rng, lambda v: v > 0):
            table, played = playout(tables, board)
            exact += table == played
        failures += args.playouts - exact
        print(f"play-out {name}: {exact} of {args.playouts} mated in exactly the table distance")
    print(f"tables in {directory}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
