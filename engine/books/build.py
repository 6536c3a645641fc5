"""A book by search, expanded ply by ply from a root.

Every position of a ply is searched with MultiPV; the moves within the margin
of the best are kept, weighted 100 for the best down to 1 at the margin, and
their successors form the next ply (see :class:`BuildSettings` for the
schedule, the replies and the full-width plies). The positions of a ply are
searched as independent items by worker processes, local or on a Ray cluster
(:mod:`engine.execution`), and committed to the book in the ply's order as soon
as those before them are: the file is the same whichever worker searched what,
and a build stopped halfway resumes where it stopped when run again on the
same file.
"""

from __future__ import annotations

import contextlib
import functools
import pathlib
import time
from dataclasses import dataclass
from typing import Callable, Iterator

from engine.book import Entry, ZermeloBook
from engine.execution import Backend, map_unordered
from engine.game import Game, Position, is_proven
from engine.search import Info, Searcher
from engine.timeman import Limits


@dataclass(frozen=True)
class BuildSettings:
    """What a book built by search holds: the same settings build the same book.

    ``max_moves`` and ``reply_movetime`` may be given as one int; they are kept
    as tuples (a zero reply time means none).
    """

    plies: int = 8
    """Plies from the root covered."""
    depth: int | None = None
    """Search depth per position (or ``movetime``, or both)."""
    movetime: int | None = None
    """Search time per position, ms."""
    margin: int = 30
    """Moves within this score of the best are kept."""
    max_moves: tuple[int, ...] = (3,)
    """MultiPV of each ply from the root, the last one for all later plies (``3, 3, 1``
    for a book wide for two plies and narrow after)."""
    replies: bool = False
    """Store the searched moves outside the margin with weight 0 (never played) and
    follow them where the side they lead away from is not the book's: for each
    side the book may play, its tree holds its own kept moves and every searched
    reply of the other side."""
    reply_movetime: tuple[int, ...] = ()
    """With ``replies``: also answer the move a search of each of these many ms
    picks, as engines of several speeds would reply."""
    full_plies: int = 0
    """The first plies are full-width: every legal move there is followed for both
    sides, so that every position this many plies from the root has book moves."""
    root: str | None = None
    """The root position's text (``None`` = the start position)."""
    hash_mb: int = 16
    """Transposition table per search process."""

    def __post_init__(self) -> None:
        # Frozen: the normalised values are set through object.__setattr__.
        max_moves = (self.max_moves,) if isinstance(self.max_moves, int) else tuple(self.max_moves)
        replies = self.reply_movetime
        reply_movetime = tuple(t for t in ((replies,) if isinstance(replies, int) else replies) if t)
        object.__setattr__(self, "max_moves", max_moves)
        object.__setattr__(self, "reply_movetime", reply_movetime)
        if not max_moves or min(max_moves) < 1:
            raise ValueError(f"max_moves must be at least 1, not {list(max_moves)}")
        if self.depth is None and self.movetime is None:
            raise ValueError("a book search needs a depth or a movetime")

    def multipv(self, ply: int) -> int:
        """The MultiPV of positions ``ply`` plies from the root."""
        return self.max_moves[min(ply, len(self.max_moves) - 1)]


def replay(game: Game, root: str | None, line: list[str]) -> Position:
    """The position after the move texts ``line`` from ``root``."""
    pos = game.new_position(root)
    for text in line:
        pos.push(pos.parse_move(text))
    return pos


def search_position(game: Game, settings: BuildSettings, searcher: Searcher,
                    line: list[str]) -> tuple[list[str], int, str, list[Entry]]:
    """Search the position after ``line``: its key, text and kept moves as entries,
    with the replies of weight 0 when asked for."""
    pos = replay(game, settings.root, line)
    legal = pos.legal_moves()
    if len(legal) == 1:
        # A forced move (a compulsory capture, a pass) needs no search.
        return line, pos.key, pos.to_text(), [Entry(legal[0], pos.move_text(legal[0]), 100)]
    # A cleared table makes every position's result independent of the order of the work.
    searcher.clear()
    last: dict[int, tuple[int, int, int]] = {}

    def on_info(info: Info) -> None:
        if info.bound is None and info.pv:
            last[info.multipv] = (info.pv[0], info.score, info.depth)

    searcher.search(game, pos, Limits(depth=settings.depth, movetime=settings.movetime),
                    multipv=min(settings.multipv(len(line)), len(legal)), move_overhead_ms=0, on_info=on_info)
    lines = sorted(last.values(), key=lambda t: -t[1])
    best = lines[0][1]
    margin = settings.margin
    entries = []
    for move, score, depth in lines:
        if best - score > margin or (is_proven(best) and score != best):
            if settings.replies:
                entries.append(Entry(move, pos.move_text(move), 0, score, depth))
            continue
        weight = max(1, round(100 * (1 - (best - score) / (margin + 1))))
        entries.append(Entry(move, pos.move_text(move), weight, score, depth))
    for ms in settings.reply_movetime if settings.replies else ():
        searcher.clear()
        fast = searcher.search(game, pos, Limits(movetime=ms), move_overhead_ms=0)
        if fast.best is not None and all(e.move != fast.best for e in entries):
            entries.append(Entry(fast.best, pos.move_text(fast.best), 0))
    return line, pos.key, pos.to_text(), entries


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def build_search(game: Game, out: str | pathlib.Path, settings: BuildSettings, *, jobs: int = 2,
                 progress: Callable[[str], None] | None = None, backend: Backend = Backend()) -> ZermeloBook:
    """Build (or resume) the book of ``game`` at ``out`` by search with ``jobs``
    workers of ``backend``; ``progress`` hears a line now and then. Returns the
    book open for writing."""
    book = ZermeloBook.create(out, game)
    book.add_root(settings.root)
    progress = progress or (lambda text: None)
    start = time.monotonic()
    # Each line carries a mask of the sides (bit = player number) the book may play along it.
    layer: dict[int, tuple[list[str], int]] = {replay(game, settings.root, []).key: ([], 3)}
    seen = set(layer)
    done = searched = 0
    plies = settings.plies
    init = (Searcher, (settings.hash_mb,))
    work = functools.partial(search_position, game, settings)
    widths: list[int] = []  # positions per ply so far
    for ply in range(plies):
        widths.append(len(layer))
        todo, expand = [], []
        for key, (line, sides) in layer.items():
            pos = replay(game, settings.root, line)
            if pos.outcome() is not None or not pos.legal_moves():
                continue
            if book.has(key):
                expand.append((line, sides, book.rows(key)))
            else:
                todo.append(line)
        last_report = 0.0
        layer_done = 0
        with contextlib.closing(map_unordered(backend, init, work, todo, jobs=jobs)) as results:
            for line, key, text, entries in _in_order(results):
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
            pos = replay(game, settings.root, line)
            mover = 1 << pos.turn
            # Within the first full_plies every legal move is followed for both sides.
            followed = ([(m, sides) for m in pos.legal_moves()] if ply < settings.full_plies else
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
    return book


def _in_order(results: Iterator[tuple[int, tuple]]) -> Iterator[tuple]:
    """The results of :func:`map_unordered` in the items' order, each as soon as
    those before it are in."""
    early: dict[int, tuple] = {}
    nxt = 0
    for index, result in results:
        early[index] = result
        while nxt in early:
            yield early.pop(nxt)
            nxt += 1
