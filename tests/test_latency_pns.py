"""A stop during ``go mate`` (the proof-number search) ends it at once.

The prover looks at the stop before every child it generates, never walks a whole
proof or disproof outside that look, and leaves its tables to be freed in the
background; a search that begins already stopped answers without an iteration.
The counts here are of work done after the stop, never of time.
"""

from __future__ import annotations

import threading

import chess
import pytest

import games
from engine.pns import ProofSearch, find_mate
from tests.test_protocol import pipe, start  # noqa: F401 (pipe is a fixture)

pytestmark = pytest.mark.both_builds


class Counting:
    """A position that counts the moves played on it, and says to stop after ``limit``."""

    def __init__(self, pos, limit: int) -> None:
        self._pos = pos
        self.limit = limit
        self.pushes = 0
        self.after_stop = 0

    def __getattr__(self, name):
        return getattr(self._pos, name)

    def push(self, move) -> None:
        self.pushes += 1
        if self.pushes > self.limit:
            self.after_stop += 1
        self._pos.push(move)

    def stopped(self) -> bool:
        return self.pushes >= self.limit


@pytest.mark.parametrize("limit", [1, 7, 40, 300, 1000, 3000, 6000])
def test_the_prover_plays_no_move_after_the_stop(limit):
    # A stop at any point: in a node's children, between nodes, or once a depth's
    # disproof is complete (when its size was measured, a walk over the whole
    # disproof, unstopped). Chess has no mate in 3 from the start: every depth is disproved.
    game = games.load("chess")
    pos = Counting(game.new_position(), limit)
    result = find_mate(game, pos, 3, should_stop=pos.stopped)
    assert result.found is None
    assert pos.after_stop == 0
    assert pos.to_text() == game.new_position().to_text()


def test_a_closed_search_frees_its_tables_after_it_returns():
    game = games.load("nim", heaps=(3, 4, 5))
    search = ProofSearch(game, 0)
    freed = threading.Event()

    class Sentinel:
        def __del__(self) -> None:
            freed.set()

    # Emptied last entry first: the sentinel goes after 300,000 others.
    search.tt[-1] = (Sentinel(), 0)
    search.tt.update((k, (1, 1)) for k in range(300_000))
    search.close()
    assert not freed.is_set() and search.tt == {} and search.kids == {}
    assert freed.wait(60)


def test_stop_during_go_mate_answers_without_a_search_iteration(pipe):  # noqa: F811
    # The stop ends the prover; the search that would follow it begins stopped and
    # must answer from its root moves, not search depth after depth first.
    start(pipe, "chess")
    pipe.send("go mate 4")
    pipe.quiet(0.5)
    pipe.send("stop")
    lines = pipe.until("bestmove")
    depths = [int(line.split()[2]) for line in lines if line.startswith("info depth")]
    assert all(d == 0 for d in depths), lines
    best = lines[-1].split()[1]
    assert best in {m.uci() for m in chess.Board().legal_moves}
    pipe.ready()
