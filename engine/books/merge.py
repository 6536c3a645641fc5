"""Books of one game merged into one."""

from __future__ import annotations

import pathlib

from engine.book import Entry, ZermeloBook, sql_key
from engine.game import Game


def merge(out: str | pathlib.Path, inputs: list[str], game: Game) -> ZermeloBook:
    """Merge the books ``inputs`` of ``game`` into ``out``: weights and game counts
    add up, the deeper score wins; returns ``out`` open for writing."""
    books = [ZermeloBook(p) for p in inputs]
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
