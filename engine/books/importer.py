"""Books made from what others played: game records, or a Polyglot chess book.

The caller reads record files (their formats are the protocol's) into
:class:`PlayedGame` values; a Polyglot book is read through
:class:`engine.book.PolyglotBook`.
"""

from __future__ import annotations

import pathlib
from typing import Callable, Iterable, Iterator, NamedTuple

from engine.book import Entry, PolyglotBook, ZermeloBook
from engine.books.build import replay
from engine.game import Game, Position

#: The score of each finished result for the first mover.
FIRST_MOVER_SCORE = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}


class PlayedGame(NamedTuple):
    """One game as a book maker reads it."""

    where: str
    """Where it comes from, for warnings (``"games.pgn: game 3"``)."""
    game: str
    """The name of the game played."""
    start: str | None
    """The start position's text (``None`` = the game's start position)."""
    moves: list[str]
    result: str
    """``1-0``, ``0-1``, ``1/2-1/2`` or anything else for an unfinished game."""


def game_moves(game: Game, rec: PlayedGame, plies: int | None) -> Iterator[tuple[Position, int, int]]:
    """``(pos, move, score)`` for each of the first ``plies`` moves (all: ``None``)
    of a finished record, before the move is played; ``score`` is the result (1, 0,
    -1) for the side that makes the move. Raises ``ValueError`` at a move that does
    not parse."""
    first_score = FIRST_MOVER_SCORE[rec.result]
    pos = game.new_position(rec.start)
    for text in rec.moves[:plies]:
        move = pos.parse_move(text)
        yield pos, move, first_score if pos.turn == 0 else -first_score
        pos.push(move)


def import_games(game: Game, out: str | pathlib.Path, played: Iterable[PlayedGame], *, plies: int,
                 min_games: int, min_score: float, warn: Callable[[str], None]) -> ZermeloBook:
    """Count wins, draws and losses of every move of the first ``plies`` plies of
    ``played`` for the side playing it, and write the moves played at least
    ``min_games`` times with a score of at least ``min_score`` (wins plus half the
    draws over games) to a book at ``out``, weighted ``2 W + D`` as Polyglot book
    makers do. Games of another game, unfinished or with a move that does not
    parse are skipped."""
    # (key, move) -> [text, games, wins, draws, losses]
    counts: dict[tuple[int, int], list] = {}
    texts: dict[int, str] = {}
    roots: list[str | None] = []
    used = skipped = 0
    for rec in played:
        if rec.game != game.name or rec.result not in FIRST_MOVER_SCORE:
            skipped += 1
            continue
        try:
            for pos, move, mover_score in game_moves(game, rec, plies):
                c = counts.setdefault((pos.key, move), [pos.move_text(move), 0, 0, 0, 0])
                texts.setdefault(pos.key, pos.to_text())
                c[1] += 1
                c[2 + (1 - mover_score)] += 1  # wins, draws, losses
        except ValueError as e:
            warn(f"{rec.where} skipped: {e}")
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


def follow(game: Game, root: str | None, plies: int,
           entries_of: Callable[[Position], list[Entry]]) -> dict[int, tuple[str, list[Entry]]]:
    """Walk from ``root`` for ``plies`` plies: ``entries_of(pos)`` gives a position's
    entries (weight 0 = a reply); kept moves are followed for both sides, replies
    only for the side the book does not play there. Returns key -> (text, entries)."""
    out: dict[int, tuple[str, list[Entry]]] = {}
    layer: dict[int, tuple[list[str], int]] = {replay(game, root, []).key: ([], 3)}
    for _ in range(plies):
        nxt: dict[int, tuple[list[str], int]] = {}
        for key, (line, sides) in layer.items():
            pos = replay(game, root, line)
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


def import_polyglot(game: Game, out: str | pathlib.Path, source: str | pathlib.Path, *, plies: int,
                    max_moves: int, keep_share: float) -> ZermeloBook:
    """Walk the Polyglot book ``source`` from the start to ``plies`` (``game`` is
    chess): at each position the moves weighing at least ``keep_share`` of the
    heaviest are kept with their Polyglot weights, the other moves among the
    ``max_moves`` heaviest are stored as replies of weight 0, and the tree is
    followed as :func:`follow` does."""
    poly = PolyglotBook(source)

    def entries_of(pos: Position) -> list[Entry]:
        found = sorted(poly.entries(pos)[0], key=lambda e: -e.weight)[:max_moves]
        if not found:
            return []
        top = found[0].weight
        return [e if e.weight >= keep_share * top else e._replace(weight=0) for e in found]

    try:
        walked = follow(game, None, plies, entries_of)
    finally:
        poly.close()
    book = ZermeloBook.create(out, game)
    book.add_root(None)
    for key, (text, entries) in walked.items():
        if entries:
            book.put(key, entries, text)
    return book
