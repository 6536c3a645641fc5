"""Measured search: the experiments of ``zermelo lab``, run by the real algorithms.

Every count here is a count of visits reported by the searches themselves
(:mod:`engine.trace` listeners on :mod:`engine.textbook` and on the engine's
:class:`engine.search.Searcher`), never a formula; the formulas are printed
beside them to be compared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from engine.game import Game, Position
from engine.search import Searcher
from engine.textbook import Textbook, players_of
from engine.timeman import Limits
from engine.trace import Counter


@dataclass
class Count:
    """One search's result and its visits."""

    value: int
    nodes: int
    leaves: int


def textbook_count(pos: Position, algorithm: str, depth: int, order: str = "none", seed: int = 0) -> Count:
    book = Textbook(pos, None, order, seed)
    value = book.search(algorithm, depth)
    return Count(value, book.nodes, book.leaves)


def iterative_count(pos: Position, depth: int, reorder: bool = True) -> tuple[Count, list[int]]:
    """Alpha-beta by iterative deepening: the total and each iteration's nodes."""
    book = Textbook(pos)
    per_iteration = book.iterative(depth, reorder)
    return Count(book.value, book.nodes, book.leaves), per_iteration


def engine_count(game: Game, pos: Position, depth: int) -> tuple[Count, list[int], list[int]]:
    """The engine's search to ``depth``: value, visits, and the nodes of each
    iteration, as counted by the search and as reported after each one."""
    if players_of(pos) > 2:
        raise ValueError(f"the engine's two-player search: {game.name} has {players_of(pos)} players")
    searcher = Searcher(16)
    counter = Counter()
    searcher.trace = counter
    reported: dict[int, int] = {}

    def on_info(info) -> None:
        if info.bound is None:
            reported[info.depth] = info.nodes

    result = searcher.search(game, pos, Limits(depth=depth), on_info=on_info)
    totals = [reported[d] for d in sorted(reported) if d >= 1]
    per_iteration = [b - a for a, b in zip([0] + totals, totals)]
    return Count(result.score, counter.nodes, counter.leaves), per_iteration, totals


#: The rows of :func:`alphabeta_table`. "one bound" is the older textbooks' alpha-beta
#: (each node gets only its parent's bound): the difference to the row above it is
#: what deep cut-offs save.
ROWS = ("minimax", "alpha-beta, random order", "alpha-beta, static order", "alpha-beta one bound, static order",
        "alpha-beta, perfect order", "alpha-beta one bound, perfect order", "PVS, static order",
        "alpha-beta, iterative deepening + TT move", "engine search")


def alphabeta_table(game: Game, position_at: Callable[[int], Position], depths: list[int],
                    seed: int = 0, rows: tuple[str, ...] = ROWS) -> dict[str, list[Count]]:
    """For each depth, each row's count on ``position_at(depth)`` (a fresh position)."""
    out: dict[str, list[Count]] = {name: [] for name in rows}
    for d in depths:
        for name in rows:
            pos = position_at(d)
            if name == "minimax":
                c = textbook_count(pos, "minimax", d)
            elif name.startswith("alpha-beta, iterative"):
                c, _ = iterative_count(pos, d, True)
            elif name.startswith("alpha-beta"):
                order = name.split(", ")[-1].split()[0]
                algorithm = "alphabeta1" if "one bound" in name else "alphabeta"
                c = textbook_count(pos, algorithm, d, order, seed)
            elif name.startswith("PVS"):
                c = textbook_count(pos, "pvs", d, "static")
            else:
                c, _, _ = engine_count(game, pos, d)
            out[name].append(c)
    return out


@dataclass
class SideBySide:
    """One position searched two ways, for :func:`horizon`."""

    name: str
    value: int
    line: list[int]
    nodes: int


def principal_line(book_pos: Position, algorithm: str, depth: int) -> tuple[int, list[int], int]:
    """(value, principal line, nodes) of a textbook search, the line read from its recorded tree."""
    from engine.trace import Recorder, best_line

    recorder = Recorder(book_pos)
    book = Textbook(book_pos, recorder)
    value = book.search(algorithm, depth)
    return value, [n.move for n in best_line(recorder.root)[1:]], book.nodes


def horizon(game: Game, pos: Position, depth: int) -> list[SideBySide]:
    """A fixed-depth alpha-beta without quiescence against the engine's search, both to ``depth``:
    the first stops dead at the horizon, the second resolves captures there."""
    value, line, nodes = principal_line(pos, "alphabeta", depth)
    out = [SideBySide(f"alpha-beta, depth {depth}, no quiescence", value, line, nodes)]
    searcher = Searcher(16)
    result = searcher.search(game, pos, Limits(depth=depth))
    out.append(SideBySide(f"engine search, depth {depth} (quiescence)", result.score, result.pv, result.nodes))
    return out
