"""Played games' results added to a book, and the re-weighting that follows."""

from __future__ import annotations

import math
import pathlib
from typing import Callable, Iterable, NamedTuple

from engine.book import Entry, ZermeloBook
from engine.books.importer import FIRST_MOVER_SCORE, PlayedGame, game_moves
from engine.game import Game

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


def wilson_upper(points: float, n: int, z: float = LEARN_Z) -> float:
    """The upper Wilson score bound of ``points`` out of ``n`` games."""
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
    top = max(learned, key=learned.__getitem__)
    out = []
    for e in entries:
        s = learned.get(e.move)
        if s is None:
            out.append(e)
        elif e.move != top and wilson_upper(e.wins + e.draws / 2, e.games) < best:
            out.append(e._replace(weight=0))
        else:
            out.append(e._replace(weight=max(1, round(100 * s / best))))
    return out


def learn(path: str | pathlib.Path, game: Game, played: Iterable[PlayedGame], *, plies: int | None = None,
          min_games: int = 2, warn: Callable[[str], None]) -> LearnReport:
    """Add ``played`` to the book of ``game`` at ``path`` and re-weight what they touched.

    Each game is replayed from its start (the first ``plies`` plies, all by
    default); wherever the played move is an entry of the book's position, the
    game's result from the mover's view is added to the entry's
    games/wins/draws/losses. Every position with a grown entry is then
    re-weighted by :func:`learned_weights`. Games of another game, unfinished
    ones and those with a move that does not parse are skipped with a warning,
    so a game adds all its counts or none. Learning the same games twice
    counts them twice.
    """
    book = ZermeloBook.create(path, game)
    try:
        # (key, move) -> [games, wins, draws, losses]
        added: dict[tuple[int, int], list[int]] = {}
        book_moves: dict[int, dict[int, str]] = {}
        used = skipped = 0
        for rec in played:
            if rec.game != game.name:
                warn(f"{rec.where} skipped: a {rec.game} game, the book is for {game.name}")
                skipped += 1
                continue
            if rec.result not in FIRST_MOVER_SCORE:
                warn(f"{rec.where} skipped: unfinished ({rec.result})")
                skipped += 1
                continue
            hits = []
            try:
                for pos, move, score in game_moves(game, rec, plies):
                    if pos.key not in book_moves:
                        book_moves[pos.key] = {e.move: e.text for e in book.rows(pos.key)}
                    if book_moves[pos.key].get(move) == pos.move_text(move):
                        hits.append((pos.key, move, score))
            except ValueError as e:
                warn(f"{rec.where} skipped: {e}")
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
            for row in book.rows(key):
                g, w, d, lost = grown.get(row.move, (0, 0, 0, 0))
                entries.append(row._replace(games=row.games + g, wins=row.wins + w, draws=row.draws + d,
                                            losses=row.losses + lost))
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
