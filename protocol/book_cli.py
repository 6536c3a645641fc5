"""``zermelo book``: build, merge, export and inspect opening books.

::

    zermelo book build GAME --out FILE [--source search] [--plies N] [--depth D | --movetime MS]
                       [--margin M] [--max-moves K ...] [--replies] [--reply-movetime MS ...] [--full-plies N]
                       [--jobs 2] [--fen TEXT]
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
``--jobs`` processes; each is committed as it is done, so a build stopped
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
re-weights the positions they touched; see :func:`learn`.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import pathlib
import signal
import struct
import sys
import time
from typing import NamedTuple

import games
from engine.book import (KEY_VERSION, Book, BookError, Entry, PolyglotBook, ZermeloBook, key_check, open_book,
                         sql_key)
from engine.game import Game, Position, is_proven
from protocol.records import game_traits, read_records


def _game_of(name: str, params: dict | None = None) -> Game:
    return games.load(name, **params) if params else games.load(name)


def _book_game(book: ZermeloBook) -> Game:
    return games.load(book.game_name, **json.loads(book.meta.get("params", "{}")))


def _replay(game: Game, root: str | None, line: list[str]) -> Position:
    pos = game.new_position(root)
    for text in line:
        pos.push(pos.parse_move(text))
    return pos


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


# -- build from search -----------------------------------------------------------------

_worker: dict = {}


def _init_worker(name: str, params: dict, root: str | None, hash_mb: int, depth: int | None,
                 movetime: int | None, margin: int, max_moves: list[int], replies: bool,
                 reply_movetime: list[int]) -> None:
    from engine.search import Searcher

    # Ctrl-C reaches the whole process group: the parent alone handles it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker.update(game=_game_of(name, params), root=root, searcher=Searcher(hash_mb), depth=depth,
                   movetime=movetime, margin=margin, max_moves=max_moves, replies=replies,
                   reply_movetime=reply_movetime)


def _search_position(line: list[str]) -> tuple[list[str], int, str, list[Entry]]:
    """Search one position; its kept moves as entries, with the replies of weight 0
    when asked for (worker side)."""
    from engine.timeman import Limits

    w = _worker
    pos = _replay(w["game"], w["root"], line)
    legal = pos.legal_moves()
    if len(legal) == 1:
        # A forced move (a compulsory capture, a pass) needs no search.
        return line, pos.key, pos.to_text(), [Entry(legal[0], pos.move_text(legal[0]), 100)]
    searcher = w["searcher"]
    # A cleared table makes every position's result independent of the order of the work.
    searcher.clear()
    last: dict[int, tuple[int, int, int]] = {}

    def on_info(info) -> None:
        if info.bound is None and info.pv:
            last[info.multipv] = (info.pv[0], info.score, info.depth)

    schedule = w["max_moves"]
    searcher.search(w["game"], pos, Limits(depth=w["depth"], movetime=w["movetime"]),
                    multipv=min(schedule[min(len(line), len(schedule) - 1)], len(legal)), move_overhead_ms=0,
                    on_info=on_info)
    lines = sorted(last.values(), key=lambda t: -t[1])
    best = lines[0][1]
    margin = w["margin"]
    entries = []
    for move, score, depth in lines:
        if best - score > margin or (is_proven(best) and score != best):
            if w["replies"]:
                entries.append(Entry(move, pos.move_text(move), 0, score, depth))
            continue
        weight = max(1, round(100 * (1 - (best - score) / (margin + 1))))
        entries.append(Entry(move, pos.move_text(move), weight, score, depth))
    for ms in w["reply_movetime"] if w["replies"] else ():
        searcher.clear()
        fast = searcher.search(w["game"], pos, Limits(movetime=ms), move_overhead_ms=0)
        if fast.best is not None and all(e.move != fast.best for e in entries):
            entries.append(Entry(fast.best, pos.move_text(fast.best), 0))
    return line, pos.key, pos.to_text(), entries


def _results(pool, todo: list[list[str]]):
    """The workers' results as they come, waking up often so that Ctrl-C is seen."""
    if not todo:
        return
    results = pool.imap_unordered(_search_position, todo)
    for _ in todo:
        while True:
            try:
                yield results.next(timeout=0.2)
                break
            except multiprocessing.TimeoutError:
                continue


def build_search(name: str, out: str, *, plies: int, depth: int | None, movetime: int | None, margin: int,
                 max_moves: int | list[int], jobs: int, hash_mb: int = 16, root: str | None = None,
                 params: dict | None = None, replies: bool = False, reply_movetime: int | list[int] = 0,
                 full_plies: int = 0, progress=None) -> ZermeloBook:
    """Build (or resume) a book by search; see the module docstring.

    ``max_moves`` may be a list, the MultiPV of each ply from the root, the last
    one for all later plies; ``reply_movetime`` a list of search times whose
    picks are all answered."""
    max_moves = [max_moves] if isinstance(max_moves, int) else list(max_moves)
    reply_movetime = [t for t in ([reply_movetime] if isinstance(reply_movetime, int) else reply_movetime) if t]
    game = _game_of(name, params)
    book = ZermeloBook.create(out, game)
    book.add_root(root)
    progress = progress or (lambda text: None)
    start = time.monotonic()
    # Each line carries a mask of the sides (bit = player number) the book may play along it.
    layer: dict[int, tuple[list[str], int]] = {_replay(game, root, []).key: ([], 3)}
    seen = set(layer)
    done = searched = 0
    pool = None
    try:
        widths: list[int] = []  # positions per ply so far
        for ply in range(plies):
            widths.append(len(layer))
            todo, expand = [], []
            for key, (line, sides) in layer.items():
                pos = _replay(game, root, line)
                if pos.outcome() is not None or not pos.legal_moves():
                    continue
                if book.has(key):
                    expand.append((line, sides, book.rows(key)))
                else:
                    todo.append(line)
            if todo and pool is None:
                pool = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn").Pool(
                    jobs, _init_worker, (game.name, dict(params or {}), root, hash_mb, depth, movetime,
                                         margin, max_moves, replies, reply_movetime))
            last_report = 0.0
            layer_done = 0
            for line, key, text, entries in _results(pool, todo):
                book.put(key, entries, text)
                expand.append((line, layer[key][1], entries))
                searched += 1
                layer_done += 1
                now = time.monotonic()
                if now - last_report >= 2 or layer_done == len(todo):
                    last_report = now
                    left = f"{_clock(now - start)} elapsed"
                    if len(widths) > 1:
                        # Later plies are taken to grow as the last one did.
                        growth = widths[-1] / widths[-2]
                        future = sum(widths[-1] * growth ** k for k in range(1, plies - ply))
                        eta = (now - start) / searched * (len(todo) - layer_done + future)
                        left += f", about {_clock(eta)} left"
                    progress(f"ply {ply + 1}/{plies}: {layer_done}/{len(todo)} positions searched "
                             f"({done + searched} in the book), {left}")
            done += len(expand) - layer_done
            layer = {}
            for line, sides, entries in expand:
                pos = _replay(game, root, line)
                mover = 1 << pos.turn
                # Within the first full_plies every legal move is followed for both sides.
                followed = ([(m, sides) for m in pos.legal_moves()] if ply < full_plies else
                            # A reply (weight 0) is followed only for the side the book does not play here.
                            [(e.move, sides if e.weight > 0 else sides & ~mover) for e in entries])
                for move, child_sides in followed:
                    if not child_sides:
                        continue
                    text = pos.move_text(move)
                    pos.push(move)
                    if pos.key in layer:
                        old_line, old_sides = layer[pos.key]
                        layer[pos.key] = (old_line, old_sides | child_sides)
                    elif pos.key not in seen:
                        seen.add(pos.key)
                        layer[pos.key] = ([*line, text], child_sides)
                    pos.pop()
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    return book


def _follow(game: Game, root: str | None, plies: int, entries_of, progress=None) -> dict[int, tuple[str, list[Entry]]]:
    """Walk from ``root`` for ``plies`` plies: ``entries_of(pos)`` gives a position's
    entries (weight 0 = a reply); kept moves are followed for both sides, replies
    only for the side the book does not play there. Returns key -> (text, entries)."""
    out: dict[int, tuple[str, list[Entry]]] = {}
    layer = {_replay(game, root, []).key: ([], 3)}
    for _ in range(plies):
        nxt: dict[int, tuple[list[str], int]] = {}
        for key, (line, sides) in layer.items():
            pos = _replay(game, root, line)
            if pos.outcome() is not None or not pos.legal_moves():
                continue
            entries = entries_of(pos)
            out[key] = (pos.to_text(), entries)
            mover = 1 << pos.turn
            for e in entries:
                child_sides = sides if e.weight > 0 else sides & ~mover
                if not child_sides:
                    continue
                pos.push(e.move)
                if pos.key in nxt:
                    nxt[pos.key] = (nxt[pos.key][0], nxt[pos.key][1] | child_sides)
                elif pos.key not in out:
                    nxt[pos.key] = ([*line, e.text], child_sides)
                pos.pop()
        layer = nxt
    return out


def build_polyglot(out: str, source: str, *, plies: int, max_moves: int, keep_share: float) -> ZermeloBook:
    """Build a chess book from a Polyglot book; see the module docstring."""
    game = _game_of("chess")
    poly = PolyglotBook(source)

    def entries_of(pos: Position) -> list[Entry]:
        found = sorted(poly.entries(pos)[0], key=lambda e: -e.weight)[:max_moves]
        if not found:
            return []
        top = found[0].weight
        return [e if e.weight >= keep_share * top else e._replace(weight=0) for e in found]

    try:
        walked = _follow(game, None, plies, entries_of)
    finally:
        poly.close()
    book = ZermeloBook.create(out, game)
    book.add_root(None)
    for key, (text, entries) in walked.items():
        if entries:
            book.put(key, entries, text)
    return book


# -- build from games ---------------------------------------------------------------------

def read_game_records(path: str | pathlib.Path):
    """Game records of a PGN, PDN or plain record file."""
    return read_records(pathlib.Path(path).read_text(encoding="utf-8", errors="replace"))


def build_games(name: str, out: str, inputs: list[str], *, plies: int, min_games: int, min_score: float,
                params: dict | None = None, warn=print) -> ZermeloBook:
    """Build a book from played games; see the module docstring."""
    game = _game_of(name, params)
    # (key, move) -> [text, games, wins, draws, losses]
    counts: dict[tuple[int, int], list] = {}
    texts: dict[int, str] = {}
    roots: list[str | None] = []
    used = skipped = 0
    for path in inputs:
        for i, rec in enumerate(read_game_records(path)):
            if rec.game != game.name or rec.result not in ("1-0", "0-1", "1/2-1/2"):
                skipped += 1
                continue
            first_score = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}[rec.result]
            try:
                pos = game.new_position(rec.start)
                for text in rec.moves[:plies]:
                    move = pos.parse_move(text)
                    mover_score = first_score if pos.turn == 0 else -first_score
                    c = counts.setdefault((pos.key, move), [pos.move_text(move), 0, 0, 0, 0])
                    texts.setdefault(pos.key, pos.to_text())
                    c[1] += 1
                    c[2 + (1 - mover_score)] += 1  # wins, draws, losses
                    pos.push(move)
            except ValueError as e:
                warn(f"{path}: game {i + 1} skipped: {e}")
                skipped += 1
                continue
            used += 1
            if rec.start not in roots:
                roots.append(rec.start)
    book = ZermeloBook.create(out, game)
    for root in roots:
        book.add_root(root)
    by_key: dict[int, list[Entry]] = {}
    for (key, move), (text, n, w, d, lost) in counts.items():
        if n >= min_games and (w + d / 2) / n >= min_score and 2 * w + d > 0:
            by_key.setdefault(key, []).append(Entry(move, text, 2 * w + d, None, None, n, w, d, lost))
    for key, entries in by_key.items():
        book.put(key, entries, texts[key])
    warn(f"{used} games used, {skipped} skipped; {len(by_key)} positions, "
         f"{sum(map(len, by_key.values()))} moves kept")
    return book


# -- learn from games ------------------------------------------------------------------------

#: z of the one-sided Wilson bound below which a learned move counts as clearly worse (about 84 %).
LEARN_Z = 1.0


class LearnReport(NamedTuple):
    """What :func:`learn` did."""

    used: int
    skipped: int
    entries: int
    """Entries whose counts grew."""
    positions: int
    """Positions re-weighted."""
    changed: int
    """Entries whose weight changed."""
    dropped: int
    """Playable entries that dropped to weight 0."""


def _wilson_upper(points: float, n: int, z: float = LEARN_Z) -> float:
    p = points / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre + spread) / (1 + z * z / n)


def learned_weights(entries: list[Entry], min_games: int) -> list[Entry]:
    """The entries of one position re-weighted from their game counts.

    Each playable entry (weight > 0) played at least ``min_games`` times gets
    Laplace's estimate of its score, ``s = (W + D/2 + 1) / (games + 2)``; the
    best is the highest of these, or 1/2 (the prior) for a playable entry
    tried fewer times. An entry whose Wilson upper bound (z = 1) lies below
    the best drops to weight 0, a reply the book knows but never plays; the
    others weigh ``100 s / best``. Shrinking small samples towards 1/2 keeps
    a lucky game or two from deciding, and the bound keeps a move until its
    results are clearly worse. Entries of weight 0 and those tried less stay
    as they are: their weight is the search's.
    """
    learned = {e.move: (e.wins + e.draws / 2 + 1) / (e.games + 2)
               for e in entries if e.weight > 0 and e.games >= min_games}
    if not learned:
        return list(entries)
    untried = any(e.weight > 0 and e.move not in learned for e in entries)
    best = max(max(learned.values()), 0.5 if untried else 0.0)
    top = max(learned, key=learned.get)
    out = []
    for e in entries:
        s = learned.get(e.move)
        if s is None:
            out.append(e)
        elif e.move != top and _wilson_upper(e.wins + e.draws / 2, e.games) < best:
            out.append(e._replace(weight=0))
        else:
            out.append(e._replace(weight=max(1, round(100 * s / best))))
    return out


def learn(path: str, inputs: list[str], *, plies: int | None = None, min_games: int = 2,
          warn=print) -> LearnReport:
    """Add played games to the book at ``path`` and re-weight what they touched.

    Each game of the record files ``inputs`` is replayed from its start (the
    first ``plies`` plies, all by default); wherever the played move is an
    entry of the book's position, the game's result from the mover's view is
    added to the entry's games/wins/draws/losses. Every position with a grown
    entry is then re-weighted by :func:`learned_weights`. Records of another
    game, unfinished ones and those with a move that does not parse are
    skipped (the last two with a warning), so a game adds all its counts or
    none. Running it twice on the same records counts them twice.
    """
    existing = ZermeloBook(path)
    try:
        game = _book_game(existing)
    finally:
        existing.close()
    book = ZermeloBook.create(path, game)
    try:
        # (key, move) -> [games, wins, draws, losses]
        added: dict[tuple[int, int], list[int]] = {}
        book_moves: dict[int, dict[int, str]] = {}
        used = skipped = 0
        for file in inputs:
            for i, rec in enumerate(read_game_records(file)):
                where = f"{file}: game {i + 1}"
                if rec.game != game.name:
                    warn(f"{where} skipped: a {rec.game} game, the book is for {game.name}")
                    skipped += 1
                    continue
                if rec.result not in ("1-0", "0-1", "1/2-1/2"):
                    warn(f"{where} skipped: unfinished ({rec.result})")
                    skipped += 1
                    continue
                first_score = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}[rec.result]
                hits = []
                try:
                    pos = game.new_position(rec.start)
                    for text in rec.moves[:plies]:
                        move = pos.parse_move(text)
                        if pos.key not in book_moves:
                            book_moves[pos.key] = {e.move: e.text for e in book.rows(pos.key)}
                        if book_moves[pos.key].get(move) == pos.move_text(move):
                            hits.append((pos.key, move, first_score if pos.turn == 0 else -first_score))
                        pos.push(move)
                except ValueError as e:
                    warn(f"{where} skipped: {e}")
                    skipped += 1
                    continue
                used += 1
                for key, move, score in hits:
                    c = added.setdefault((key, move), [0, 0, 0, 0])
                    c[0] += 1
                    c[2 - score] += 1  # wins, draws, losses
        by_key: dict[int, dict[int, list[int]]] = {}
        for (key, move), c in added.items():
            by_key.setdefault(key, {})[move] = c
        changed = dropped = 0
        for key, grown in by_key.items():
            entries = []
            for e in book.rows(key):
                g, w, d, lost = grown.get(e.move, (0, 0, 0, 0))
                entries.append(e._replace(games=e.games + g, wins=e.wins + w, draws=e.draws + d,
                                          losses=e.losses + lost))
            new = learned_weights(entries, min_games)
            changed += sum(a.weight != b.weight for a, b in zip(entries, new))
            dropped += sum(a.weight > 0 and b.weight == 0 for a, b in zip(entries, new))
            book.put(key, new)
    finally:
        book.close()
    report = LearnReport(used, skipped, len(added), len(by_key), changed, dropped)
    warn(f"{used} games used, {skipped} skipped; {report.entries} entries of {report.positions} positions "
         f"updated; {changed} weights changed, {dropped} moves dropped to weight 0")
    return report


# -- merge and export -------------------------------------------------------------------------

def merge(out: str, inputs: list[str]) -> ZermeloBook:
    """Merge books of one game: weights and game counts add up, the deeper score wins."""
    books = [ZermeloBook(p) for p in inputs]
    game = _book_game(books[0])
    merged: dict[tuple[int, int], list] = {}
    texts: dict[int, str] = {}
    try:
        for b in books:
            b.check_game(game)
            for key, *row in b.all_rows():
                e = Entry(*row)
                old = merged.get((key, e.move))
                if old is None:
                    merged[(key, e.move)] = list(e)
                    continue
                old[2] += e.weight
                if e.score is not None and (old[3] is None or (e.depth or 0) > (old[4] or 0)):
                    old[3], old[4] = e.score, e.depth
                for i in range(5, 9):
                    old[i] += e[i]
            for text in b.position_texts():
                texts.setdefault(sql_key(game.new_position(text).key), text)
        book = ZermeloBook.create(out, game)
        for b in books:
            for root in b.roots:
                book.add_root(root)
    finally:
        for b in books:
            b.close()
    for (key, _), row in merged.items():
        book.put(key, [Entry(*row)], texts.get(key))
    return book


def _polyglot_move(board, uci: str) -> int:
    import chess

    move = chess.Move.from_uci(uci)
    to = move.to_square
    if board.piece_type_at(move.from_square) == chess.KING and abs(chess.square_file(to) -
                                                                     chess.square_file(move.from_square)) == 2:
        to = chess.square(7 if chess.square_file(to) == 6 else 0, chess.square_rank(to))
    promo = {None: 0, chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}[move.promotion]
    return to | move.from_square << 6 | promo << 12


def export_polyglot(path: str, out: str, plies: int = 1000) -> int:
    """Write a chess book as a Polyglot ``.bin``: its stored positions and every
    position reachable from its roots through its moves (at most ``plies`` from a
    root); returns the number of entries."""
    import chess
    import chess.polyglot

    book = ZermeloBook(path)
    game = _book_game(book)
    if not game.polyglot:
        raise BookError(f"{path}: Polyglot books are for chess, this one is for {game.name}")
    rows: dict[tuple[int, int], int] = {}
    seen: set[int] = set()
    stack = [(game.new_position(text), 0) for text in book.position_texts()]
    stack += [(game.new_position(root), 0) for root in book.roots]
    while stack:
        pos, ply = stack.pop()
        if pos.key in seen or ply >= plies:
            continue
        seen.add(pos.key)
        entries, _ = book.entries(pos)
        board = chess.Board(pos.to_text())
        key = chess.polyglot.zobrist_hash(board)
        for e in entries:
            rows[(key, _polyglot_move(board, e.text))] = e.weight
            child = pos.copy()
            child.push(e.move)
            stack.append((child, ply + 1))
    top = max(rows.values(), default=1)
    scale = min(1.0, 0xFFFF / top)
    data = sorted(((key, move, max(1, round(w * scale))) for (key, move), w in rows.items()),
                  key=lambda r: (r[0], -r[2], r[1]))
    with open(out, "wb") as f:
        for key, move, weight in data:
            f.write(struct.pack(">QHHI", key, move, weight, 0))
    book.close()
    return len(data)


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
            game = _book_game(book)
            same = meta.get("key_check") == key_check(game) and meta.get("key_version") == str(KEY_VERSION)
            keys_ok = "match" if same else "DIFFER from"
        except (KeyError, ValueError) as e:
            book.close()
            raise BookError(f"{path}: unknown game or parameters ({e})") from None
        positions, entries = book.count()
        scored, played = book.conn.execute(
            "SELECT COUNT(score), COALESCE(SUM(games), 0) FROM moves").fetchone()
        lines += [f"game: {meta['game']}, parameters {meta.get('params')}",
                  f"format {meta.get('format')} v{meta.get('format_version')}, key version "
                  f"{meta.get('key_version')}, keys {keys_ok} this zermelo's",
                  f"positions: {positions:,}, entries: {entries:,} ({scored:,} with a score), "
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
            for e in entries:
                child = pos.copy()
                child.push(e.move)
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
    b.add_argument("--jobs", type=int, default=2, help="search processes (default 2)")
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
                book = build_search(name, args.out, plies=args.plies, depth=depth, movetime=args.movetime,
                                    margin=args.margin, max_moves=args.max_moves, jobs=args.jobs,
                                    hash_mb=args.hash, root=args.fen, params=params, replies=args.replies,
                                    reply_movetime=args.reply_movetime, full_plies=args.full_plies,
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
            book = open_book(args.book)
            book.check_game(game)
            pos = _replay(game, args.fen, args.moves)
            print("\n".join(show_lines(book, pos)))
            book.close()
        else:
            print("\n".join(stats_lines(args.book)))
    except (BookError, ValueError, KeyError, OSError) as e:
        print(f"zermelo book: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("zermelo book: interrupted; run the same build again to resume", file=sys.stderr)
        return 130
    return 0
