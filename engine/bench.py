"""Fixed-depth bench: a node-count signature of the search, and its speed.

Each position is searched to the same depth by a fresh :class:`Searcher` with a
fixed table size, so the node total depends only on the code: the same build
gives the same count on every run and machine.

The speed is the search's alone, as a ``go`` runs it on a table in use: what
comes before each search is set-up, timed apart (:attr:`Bench.setup_seconds`):
the position and its network, the fresh searcher and its table, and the first
touch of the table's memory (the system's page faults, several milliseconds a
position, which a table in play paid long before); before the first position, one
untimed search of depth 1 warms what a process does once (first calls, caches).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from engine.game import Game
from engine.search import Searcher
from engine.timeman import Limits

#: Table size for the bench; fixed because replacement changes the node count.
BENCH_HASH_MB = 16


@dataclass(frozen=True)
class Bench:
    """The node total, the seconds spent searching, and the seconds of set-up."""

    nodes: int
    search_seconds: float
    setup_seconds: float

    @property
    def nps(self) -> int:
        return int(self.nodes / max(self.search_seconds, 1e-9))


def bench(game: Game, texts: Iterable[str | None], depth: int, network=None) -> Bench:
    """Search every position (``None`` or no texts at all: the start position) to ``depth``,
    evaluated by ``network`` (an :class:`engine.nnue.Network`) or, when ``None``, the
    hand-written evaluation."""
    texts = list(texts) or [None]
    nodes, seconds, setup = 0, 0.0, 0.0
    for i, text in enumerate(texts):
        start = time.perf_counter()
        pos = game.new_position(text)
        if network is not None:
            pos.nn_attach(network)
        if i == 0:
            Searcher(1).search(game, pos, Limits(depth=1))
        searcher = Searcher(BENCH_HASH_MB)
        searcher.tt.prefault()
        searching = time.perf_counter()
        result = searcher.search(game, pos, Limits(depth=depth))
        done = time.perf_counter()
        setup += searching - start
        seconds += done - searching
        nodes += result.nodes
    return Bench(nodes, seconds, setup)


def run_bench(game: Game, texts: Iterable[str | None], depth: int, network=None) -> tuple[int, float]:
    """:func:`bench`'s node total and the seconds spent searching."""
    result = bench(game, texts, depth, network)
    return result.nodes, result.search_seconds
