"""Fixed-depth bench: a node-count signature of the search, and its speed.

Each position is searched to the same depth by a fresh :class:`Searcher` with a
fixed table size, so the node total depends only on the code: the same build
gives the same count on every run and machine.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from engine.game import Game
from engine.search import Searcher
from engine.timeman import Limits

#: Table size for the bench; fixed because replacement changes the node count.
BENCH_HASH_MB = 16


def run_bench(game: Game, texts: Iterable[str | None], depth: int, network=None) -> tuple[int, float]:
    """Search every position (``None`` or no texts at all: the start position) to ``depth``,
    evaluated by ``network`` (an :class:`engine.nnue.Network`) or, when ``None``, the
    hand-written evaluation.

    Returns the total node count and the seconds spent searching.
    """
    texts = list(texts) or [None]
    nodes, seconds = 0, 0.0
    for text in texts:
        pos = game.new_position(text)
        if network is not None:
            pos.nn_attach(network)
        searcher = Searcher(BENCH_HASH_MB)
        start = time.perf_counter()
        result = searcher.search(game, pos, Limits(depth=depth))
        seconds += time.perf_counter() - start
        nodes += result.nodes
    return nodes, seconds
