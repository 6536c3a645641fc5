"""``zermelo tables``: build endgame tables by retrograde analysis and inspect table files.

    zermelo tables build chess KQK KRK KBNK --out tables/
    zermelo tables build chess 3 4 --out tables/     # every 3-piece / 4-piece pawnless class
    zermelo tables info tables/chess-KBNvK.ztb
"""

from __future__ import annotations

import argparse
import sys
import time

from engine import tablefile


def _progress(line: str) -> None:
    print(f"\r\033[K{line}", end="", file=sys.stderr, flush=True)


def build_main(args) -> int:
    if args.game.lower() != "chess":
        print(f"zermelo tables: no table builder for {args.game!r} (available: chess)", file=sys.stderr)
        return 2
    from games import chess_retro

    names: list[str] = []
    for word in args.classes:
        group = {"3": chess_retro.THREE_PIECE, "4": chess_retro.FOUR_PIECE_PAWNLESS}.get(word)
        try:
            names += list(group) if group else [chess_retro.class_name(word)]
        except ValueError as e:
            print(f"zermelo tables: {e}", file=sys.stderr)
            return 2
    tables = chess_retro.ChessTables(args.out, build=True,
                                     progress=None if args.quiet else _progress)
    for name in dict.fromkeys(names):
        path = chess_retro.table_path(args.out, name)
        if path.exists() and not args.force:
            print(f"{name}: {path} exists (--force rebuilds)")
            continue
        if args.force:
            path.unlink(missing_ok=True)
        t0 = time.monotonic()
        try:
            tables.build(name)
        except ValueError as e:
            print(f"\nzermelo tables: {e}", file=sys.stderr)
            return 2
        if not args.quiet:
            print(file=sys.stderr)
        elapsed = time.monotonic() - t0
        header, _ = tablefile.read_header(path)
        print(f"{name}: {header['entries']:,} entries, {path.stat().st_size:,} bytes, "
              f"built in {elapsed:.1f}s (subclasses included) -> {path}")
    return 0


def info_main(args) -> int:
    status = 0
    for path in args.files:
        try:
            table = tablefile.open_table(path, verify=not args.no_verify)
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
            s = tablefile.summary(values[side * half:(side + 1) * half])
            who = f"player {side + 1} to move" if sides > 1 else "all"
            if h.get("players"):
                who = f"{h['players'][side]} to move"
            longest = s["longest_win_plies"]
            mate = "none" if longest is None else f"{longest} plies (mate in {(longest + 1) // 2})"
            print(f"  {who}: wins {s['wins']:,}, draws {s['draws']:,}, losses {s['losses']:,}, "
                  f"not legal {s['illegal']:,}; longest win {mate}")
    return status


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="zermelo tables", description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build tables (and the smaller ones they need)")
    b.add_argument("game")
    b.add_argument("classes", nargs="+", metavar="CLASS",
                   help="material class (KQK, KQvKR, ...), or 3 / 4 for all 3-piece / 4-piece pawnless classes")
    b.add_argument("--out", required=True, help="directory of the table files")
    b.add_argument("--force", action="store_true", help="rebuild classes whose file exists")
    b.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    b.set_defaults(run=build_main)
    i = sub.add_parser("info", help="print a table file's header and counts")
    i.add_argument("files", nargs="+", metavar="FILE")
    i.add_argument("--no-verify", action="store_true", help="skip the payload checksum")
    i.set_defaults(run=info_main)
    args = parser.parse_args(argv)
    return args.run(args)
