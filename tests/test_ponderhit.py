"""After ``ponderhit`` the budget is the root mover's own clock, timed from the ponderhit.

The ponderhit may be seen at whatever node the search has reached: the budget
must still come from the side to move at the root, never from the node's side
to move.
"""

from __future__ import annotations

import time

import pytest

import games
from engine.clock import Clock
from engine.control import Control
from engine.search import Searcher
from engine.timeman import Limits, TimeManager
from tests.test_protocol import Pipe, bestmove, start

#: White has two minutes, Black (to move) one second.
WTIME, BTIME = 120_000, 1_000


class HitAtParity(Control):
    """A control that records the ponderhit when the search first looks at it at a
    node of the chosen ply parity (the search walks ``pos`` itself, so its side to
    move is the node's: at odd plies it is White)."""

    __slots__ = ("pos", "parity", "_stopped")

    def __init__(self, pos, parity):
        self.pos, self.parity = pos, parity
        super().__init__()

    @property
    def stopped(self):
        if self.ponderhit_at is None and (self.pos.turn == 0) == self.parity:
            self.ponderhit()
        return self._stopped

    @stopped.setter
    def stopped(self, value):
        self._stopped = value


@pytest.mark.parametrize("parity", [0, 1])
def test_ponderhit_at_any_node_budgets_the_root_mover(parity):
    game = games.load("chess")
    pos = game.new_position(None)
    pos.push(pos.parse_move("e2e4"))  # Black to move
    searcher = Searcher(4)
    control = HitAtParity(pos, parity)
    limits = Limits(time=(WTIME, BTIME), ponder=True, nodes=30_000)
    clock = Clock(limits, pos.turn, 10, control=control)
    result = searcher.search(game, pos, limits, clock=clock)
    assert control.ponderhit_at is not None
    assert result.best in pos.legal_moves()
    own = TimeManager(Limits(time=(WTIME, BTIME)), turn=1, overhead_ms=10)
    assert clock.tm is not None and clock.tm.hard_ms == own.hard_ms < BTIME
    # Timed from the ponderhit, whichever node saw it.
    assert clock.hard_deadline == control.ponderhit_at + own.hard_ms / 1000 == control.deadline


@pytest.mark.parametrize("movestogo", [None, 16])
def test_ponderhit_answers_within_the_movers_own_clock(movestogo):
    # Over real pipes, several times: which node the checkpoint fires at varies.
    pipe = Pipe()
    try:
        start(pipe, "chess")
        pipe.send("setoption name Ponder value true")
        mtg = f" movestogo {movestogo}" if movestogo else ""
        for _ in range(4):
            pipe.send("position startpos moves e2e4", f"go ponder wtime {WTIME} btime {BTIME}{mtg}")
            time.sleep(0.3)
            hit = time.monotonic()
            pipe.send("ponderhit")
            lines = pipe.until("bestmove", timeout=30)
            # Generous for a loaded machine; the own budget is far less than a second,
            # the opponent's clock would give seconds.
            assert time.monotonic() - hit < 1.0, lines[-1]
            assert bestmove(lines) != "(none)"
            pipe.ready()
    finally:
        pipe.close()
        if pipe.proc.poll() is None:
            pipe.proc.kill()
