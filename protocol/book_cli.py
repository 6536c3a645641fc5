"""``zermelo book``: build, merge, export and inspect opening books.

::

    zermelo book build GAME --out FILE [--source search] [--plies N] [--depth D | --movetime MS]
                       [--margin M] [--max-moves K ...] [--replies] [--reply-movetime MS ...] [--full-plies N]
                       [--jobs 2] [--fen TEXT] [--backend local|ray [--address ADDR]]
    zermelo book build GAME --out FILE --source games --input FILE... [--plies N]
                       [--min-games N] [--min-score S]
    zermelo book build chess --out FILE --source polyglot --input FILE.bin [--plies N] [--max-moves K]
                       [--keep-share F]
    zermelo book learn FILE --input RECORDS... [--plies N] [--min-games K]
    zermelo book merge OUT IN [IN ...]
    zermelo book export IN --out FILE.bin        # chess: a Polyglot book
    zermelo book show GAME FILE [--fen TEXT] [--moves M ...]
    zermelo book stats FILE

``--source search`` expands the tree from the start position (or ``--fen``)
ply by ply to ``--plies``: every position is searched with MultiPV
``--max-moves`` at ``--depth`` (or ``--movetime``; several ``--max-moves``
values are a schedule by ply, the last for all later plies, e.g. ``3 3 1`` for
a book wide for two plies and narrow after), the moves within
``--margin`` of the best are kept, weighted 100 for the best down to 1 at the
margin, and their successors form the next ply. With ``--replies`` the other
searched moves are stored too, with weight 0 (never played from the book), and
followed where the side they lead away from is not the book's: for each side
the book may play, its tree holds its own kept moves and every searched reply
of the other side, so the book answers the likely replies instead of leaving
its line; ``--reply-movetime`` adds the move a search of that many ms picks to
those replies (several times: the pick of each, as engines of several speeds
would reply). ``--full-plies N`` makes the first N plies full-width: every
legal move there is followed for both sides, so that every position N plies
from the root has book moves (the 3-move openings of checkers with N = 3). Positions are searched by
``--jobs`` processes, or as tasks on a Ray cluster with ``--backend ray``
(the same book either way); each is committed as it is done, so a build stopped
halfway resumes where it stopped when run again with the same ``--out``.

``--source games`` reads game records — PGN for chess (python-chess), PDN
for checkers and shashki, zermelo's plain record for the other games (see
:mod:`protocol.records`) — and counts wins, draws and losses of every
move of the first ``--plies`` plies for the side playing it; a move is kept
if played at least ``--min-games`` times with a score of at least
``--min-score`` (wins plus half the draws over games), weighted ``2 W + D``
as Polyglot book makers do.

``--source polyglot`` walks a Polyglot chess book from the start to
``--plies``: at each position the moves weighing at least ``--keep-share`` of
the heaviest are kept with their Polyglot weights, the other moves among the
``--max-moves`` heaviest are stored as replies of weight 0, and the tree is
followed as with ``--replies`` above.

``learn`` adds the results of played games to a zermelo book in place and
re-weights the positions they touched; see :func:`engine.books.learn.learn`.

The algorithms are in :mod:`engine.books`; this module parses the command
line, loads the game, reads the record files and prints.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import time
from typing import Iterator

import games
from engine.files import open_regular, read_text_bounded
from engine.execution import Backend, ExecutionError, cluster_cpus
from engine.book import KEY_VERSION, Book, BookError, PolyglotBook, ZermeloBook, key_check, open_book
from engine.books.build import BuildSettings, replay
from engine.books.build import build_search as _build_search
from engine.books.export import export_polyglot as _export_polyglot
from engine.books.importer import PlayedGame, import_games, import_polyglot
from engine.books.learn import LearnReport
from engine.books.learn import learn as _learn
from engine.books.merge import merge as _merge
from engine.game import Game, Position
from protocol import backend as backend_args
from protocol.match.recordfile import RECORDS_LIMIT
from protocol.records import game_traits, read_records


def _game_of(name: str, params: dict | None = None) -> Game:
    return games.load(name, **params) if params else games.load(name)


def _book_game(path: str) -> Game:
    """The game (with its parameters) a zermelo book was made for."""
    book = ZermeloBook(path)
    try:
        return games.load(book.game_name, **json.loads(book.meta.get("params", "{}")))
    finally:
        book.close()


def played_games(paths: list[str], warn=print) -> Iterator[PlayedGame]:
    """The games of PGN, PDN or plain record files, read one file at a time; a game
    that cannot be read is skipped with a warning naming the file and its number.
    A file larger than a records file holds is refused (``ValueError``) before any is read."""
    for path in paths:
        # Each file is read whole: a giant (a 3 GB sparse file) would exhaust the memory;
        # a FIFO or a device is refused here, before any file is read.
        try:
            with open_regular(path) as f:
                size = os.fstat(f.fileno()).st_size
        except OSError as e:
            raise ValueError(f"{path}: {e.strerror or e}") from None
        if size > RECORDS_LIMIT:
            raise ValueError(f"{path}: {size:,} bytes, more than a records file holds (at most {RECORDS_LIMIT:,})")
    return _read_games(paths, warn)


def _read_games(paths: list[str], warn) -> Iterator[PlayedGame]:
    for path in paths:
        text = read_text_bounded(path, RECORDS_LIMIT, errors="replace")
        for rec in read_records(text, lambda n, why: warn(f"{path}: game {n} skipped: {why}")):
            yield PlayedGame(f"{path}: game {rec.number}", rec.game, rec.start, rec.moves, rec.result)


# -- the commands' work, for the command line and for scripts ---------------------------------

def build_search(name: str, out: str, *, jobs: int = 2, params: dict | None = None, progress=None,
                 backend: Backend = Backend(), **settings) -> ZermeloBook:
    """Build (or resume) a book by search; ``settings`` are :class:`BuildSettings`'."""
    return _build_search(_game_of(name, params), out, BuildSettings(**settings), jobs=jobs, progress=progress,
                         backend=backend)


def build_polyglot(out: str, source: str, *, plies: int, max_moves: int, keep_share: float) -> ZermeloBook:
    """Build a chess book from a Polyglot book; see the module docstring."""
    return import_polyglot(_game_of("chess"), out, source, plies=plies, max_moves=max_moves,
                           keep_share=keep_share)


def build_games(name: str, out: str, inputs: list[str], *, plies: int, min_games: int, min_score: float,
                params: dict | None = None, warn=print) -> ZermeloBook:
    """Build a book from the game record files ``inputs``; see the module docstring."""
    return import_games(_game_of(name, params), out, played_games(inputs, warn), plies=plies,
                        min_games=min_games, min_score=min_score, warn=warn)


def learn(path: str, inputs: list[str], *, plies: int | None = None, min_games: int = 2,
          warn=print) -> LearnReport:
    """Add the games of the record files ``inputs`` to the book at ``path`` in place."""
    return _learn(path, _book_game(path), played_games(inputs, warn), plies=plies, min_games=min_games, warn=warn)


def merge(out: str, inputs: list[str]) -> ZermeloBook:
    """Merge books of one game: weights and game counts add up, the deeper score wins."""
    return _merge(out, inputs, _book_game(inputs[0]))


def export_polyglot(path: str, out: str, plies: int = 1000) -> int:
    """Write a chess book as a Polyglot ``.bin``; returns the number of entries."""
    game = _book_game(path)
    if not game.polyglot:
        raise BookError(f"{path}: Polyglot books are for chess, this one is for {game.name}")
    return _export_polyglot(path, game, out, plies)


# -- show and stats -------------------------------------------------------------------------

def show_lines(book: Book, pos: Position) -> list[str]:
    """The book moves of ``pos`` as a table, then (zermelo's format) its legal
    entries of weight 0: the replies it answers but never plays."""
    entries, bad = book.entries(pos)
    replies = []
    if isinstance(book, ZermeloBook):
        legal = set(pos.legal_moves())
        replies = [e for e in book.rows(pos.key)
                   if e.weight == 0 and e.move in legal and pos.move_text(e.move) == e.text]
    total = sum(e.weight for e in entries) or 1
    lines = [f"{pos.to_text()}  key {pos.key & (1 << 64) - 1:016x}"]
    if not entries and not replies:
        lines.append("(no book moves)")
    else:
        lines.append(f"{'move':<10} {'weight':>7} {'share':>6} {'score':>7} {'depth':>5} {'games':>6}  +W =D -L")
    for e in sorted(entries, key=lambda e: -e.weight) + replies:
        score = "" if e.score is None else str(e.score)
        depth = "" if e.depth is None else str(e.depth)
        wdl = f"+{e.wins} ={e.draws} -{e.losses}" if e.games else ""
        share = f"{100 * e.weight / total:>5.1f}%" if e.weight else " reply"
        lines.append(f"{e.text:<10} {e.weight:>7} {share} {score:>7} {depth:>5} {e.games or '':>6}  {wdl}")
    lines += [f"skipped: {b}" for b in bad]
    return lines


def stats_lines(path: str) -> list[str]:
    """A book's header, sizes and reach from its roots."""
    book = open_book(path)
    lines = [f"file: {path} ({pathlib.Path(path).stat().st_size:,} bytes), {book.kind} book"]
    if isinstance(book, PolyglotBook):
        game = games.load("chess")
        keys = {e.key for e in book.reader}
        lines.append(f"entries: {len(book.reader):,}, positions: {len(keys):,}")
        roots: list[str | None] = [None]
    else:
        meta = book.meta
        try:
            game = _book_game(path)
            same = meta.get("key_check") == key_check(game) and meta.get("key_version") == str(KEY_VERSION)
            keys_ok = "match" if same else "DIFFER from"
        except (KeyError, ValueError) as e:
            book.close()
            raise BookError(f"{path}: unknown game or parameters ({e})") from None
        positions, stored = book.count()
        scored, played = book.conn.execute(
            "SELECT COUNT(score), COALESCE(SUM(games), 0) FROM moves").fetchone()
        lines += [f"game: {meta['game']}, parameters {meta.get('params')}",
                  f"format {meta.get('format')} v{meta.get('format_version')}, key version "
                  f"{meta.get('key_version')}, keys {keys_ok} this zermelo's",
                  f"positions: {positions:,}, entries: {stored:,} ({scored:,} with a score), "
                  f"game moves counted: {played:,}"]
        roots = book.roots
    # Reach: positions found by walking the book's moves from its roots, by ply.
    per_ply: list[int] = []
    seen: set[int] = set()
    layer = [game.new_position(r) for r in roots]
    while layer:
        nxt = []
        count = 0
        for pos in layer:
            if pos.key in seen:
                continue
            seen.add(pos.key)
            entries, _ = book.entries(pos)
            if not entries:
                continue
            count += 1
            for entry in entries:
                child = pos.copy()
                child.push(entry.move)
                nxt.append(child)
        if count:
            per_ply.append(count)
        layer = nxt
    lines.append(f"reach from the start: {len(per_ply)} plies; positions with moves per ply: "
                 + " ".join(map(str, per_ply)))
    book.close()
    return lines


# -- command line -------------------------------------------------------------------------

def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="zermelo book", description="Build, merge, export and inspect opening books.")
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build a book by search or from game records")
    b.add_argument("game")
    b.add_argument("--out", required=True, help="book file (.zbook); an existing one is resumed or extended")
    b.add_argument("--source", choices=("search", "games", "polyglot"), default="search")
    b.add_argument("--plies", type=int, default=8, help="plies from the start covered (default 8)")
    b.add_argument("--depth", type=int, help="search depth per position (default 6 without --movetime)")
    b.add_argument("--movetime", type=int, help="search time per position, ms")
    b.add_argument("--margin", type=int, default=30, help="keep moves within this score of the best (default 30)")
    b.add_argument("--max-moves", type=int, nargs="+", default=[3],
                   help="MultiPV: at most this many moves per position (default 3); several values are "
                        "a schedule by ply, the last for all later plies")
    b.add_argument("--replies", action="store_true",
                   help="store the searched moves outside the margin with weight 0 and answer them")
    b.add_argument("--reply-movetime", type=int, nargs="+", default=[], metavar="MS",
                   help="with --replies: also answer the move a search of MS ms picks (each of several)")
    b.add_argument("--full-plies", type=int, default=0, metavar="N",
                   help="follow every legal move in the first N plies, so that the book answers every "
                        "position reached in N plies (e.g. the 3-move openings of checkers)")
    b.add_argument("--jobs", type=int, help="positions searched at once (default 2; with --backend ray, "
                                            "the cluster's CPUs)")
    backend_args.add_arguments(b)
    b.add_argument("--hash", type=int, default=16, help="MB of hash per process")
    b.add_argument("--fen", help="root position text instead of the start position")
    b.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help="a game parameter")
    b.add_argument("--input", nargs="+", default=[], help="game records (--source games) or a Polyglot .bin")
    b.add_argument("--keep-share", type=float, default=0.5,
                   help="--source polyglot: keep moves weighing at least this share of the heaviest (default 0.5)")
    b.add_argument("--min-games", type=int, default=2, help="keep moves played at least this often (default 2)")
    b.add_argument("--min-score", type=float, default=0.4,
                   help="keep moves scoring at least this (wins + draws/2 over games; default 0.4)")
    n = sub.add_parser("learn", help="add played games to a book and re-weight its moves from their results")
    n.add_argument("book", help="zermelo book (.zbook), updated in place")
    n.add_argument("--input", nargs="+", required=True, help="game records (PGN, PDN or plain)")
    n.add_argument("--plies", type=int, help="plies of each game walked (default: all)")
    n.add_argument("--min-games", type=int, default=2,
                   help="re-weight a move once played at least this often (default 2)")
    m = sub.add_parser("merge", help="merge books of one game")
    m.add_argument("out")
    m.add_argument("inputs", nargs="+")
    e = sub.add_parser("export", help="write a chess book as a Polyglot .bin")
    e.add_argument("book")
    e.add_argument("--out", required=True)
    e.add_argument("--plies", type=int, default=1000)
    s = sub.add_parser("show", help="the book moves of a position")
    s.add_argument("game")
    s.add_argument("book")
    s.add_argument("--fen", help="position text (default: the start position)")
    s.add_argument("--moves", nargs="*", default=[], help="moves played from it")
    t = sub.add_parser("stats", help="a book's header, size and reach")
    t.add_argument("book")
    return p


def _params(items: list[str]) -> dict:
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        out[name.strip()] = value.strip()
    return out


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.cmd == "build":
            params = _params(args.param)
            name = games.canonical(args.game)
            began = time.monotonic()
            if args.source == "search":
                depth = args.depth if args.depth or args.movetime else 6
                settings = BuildSettings(plies=args.plies, depth=depth, movetime=args.movetime,
                                         margin=args.margin, max_moves=tuple(args.max_moves),
                                         replies=args.replies, reply_movetime=tuple(args.reply_movetime),
                                         full_plies=args.full_plies, root=args.fen, hash_mb=args.hash)
                backend = backend_args.from_args(args)
                jobs = args.jobs or (cluster_cpus(backend) if backend.is_ray else 2)
                book = _build_search(_game_of(name, params), args.out, settings, jobs=jobs, backend=backend,
                                     progress=lambda text: print(text, file=sys.stderr, flush=True))
            elif args.source == "polyglot":
                if not game_traits(name).polyglot or len(args.input) != 1:
                    raise ValueError("--source polyglot builds a chess book from one --input FILE.bin")
                if len(args.max_moves) > 1:
                    raise ValueError("--source polyglot takes one --max-moves value")
                book = build_polyglot(args.out, args.input[0], plies=args.plies, max_moves=args.max_moves[0],
                                      keep_share=args.keep_share)
            else:
                if not args.input:
                    raise ValueError("--source games needs --input FILE...")
                book = build_games(name, args.out, args.input, plies=args.plies, min_games=args.min_games,
                                   min_score=args.min_score, params=params,
                                   warn=lambda text: print(text, file=sys.stderr))
            positions, entries = book.count()
            book.close()
            print(f"{args.out}: {positions} positions, {entries} entries, {time.monotonic() - began:.1f} s")
        elif args.cmd == "learn":
            learn(args.book, args.input, plies=args.plies, min_games=args.min_games,
                  warn=lambda text: print(text, file=sys.stderr))
        elif args.cmd == "merge":
            book = merge(args.out, args.inputs)
            positions, entries = book.count()
            book.close()
            print(f"{args.out}: {positions} positions, {entries} entries")
        elif args.cmd == "export":
            n = export_polyglot(args.book, args.out, args.plies)
            print(f"{args.out}: {n} Polyglot entries")
        elif args.cmd == "show":
            game = games.load(args.game)
            opened = open_book(args.book)
            opened.check_game(game)
            pos = replay(game, args.fen, args.moves)
            print("\n".join(show_lines(opened, pos)))
            opened.close()
        else:
            print("\n".join(stats_lines(args.book)))
    except ExecutionError as e:
        print(f"zermelo book: {e}", file=sys.stderr)
        return 2
    except (BookError, ValueError, KeyError, OSError) as e:
        print(f"zermelo book: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("zermelo book: interrupted; run the same build again to resume", file=sys.stderr)
        return 130
    return 0
