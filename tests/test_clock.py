"""One clock per go: what the root oracles spend is elapsed time, and the search after
them still gets its share.

The clock is stamped when the go line arrives and built once (one time manager per
go); the oracles get a share of the soft budget, and the soft limit does not stop
the search after them before it has had half the soft budget itself. Before, the
time spent before the search was added to the move overhead, which the time manager
reserves for every later move of its horizon: a few seconds of a solver left the
search a millisecond.
"""

from __future__ import annotations

import threading
import time

import pytest

import games
from engine import timeman
from engine.clock import Clock
from engine.engine import Engine
from engine.timeman import Limits, TimeManager
from tests.test_multiplayer_engine import ThreePlayerTakeAway as ThreePlayers
from tests.test_protocol import Pipe, bestmove, start

#: Reversi, Black to move with 27 empties: no solver finishes it within a move at 60 s.
REVERSI = "-XXX----XXX--O----OXOO-OOOXOXOOXOOOOOOX---XOOOX---OXX-O---O-X-XO X"


def _field(line: str, name: str) -> int:
    words = line.split()
    return int(words[words.index(name) + 1])


def test_a_slow_root_solver_leaves_the_search_half_its_soft_budget():
    pipe = Pipe()
    try:
        start(pipe, "reversi")
        pipe.send("setoption name EndgameEmpties value 24", f"position fen {REVERSI}")
        pipe.ready()
        pipe.send("go wtime 60000 btime 60000")
        lines = pipe.until("bestmove", timeout=60)
        assert bestmove(lines) != "(none)"
        if any(line.startswith("info string exact:") for line in lines):
            return  # the solver answered exactly: nothing was starved
        searched = [line for line in lines if line.startswith("info depth") and " bound" not in line]
        soft = TimeManager(Limits(time=(60_000, 60_000)), turn=0).soft_ms
        assert soft is not None
        # The first iteration ends at once after the oracle: the info lines' times
        # (from the go line) show how long the search ran after it.
        ran = _field(searched[-1], "time") - _field(searched[0], "time")
        assert ran >= soft / 2, (ran, soft, searched[0], searched[-1])
        assert _field(searched[-1], "depth") >= 10, searched[-1]
    finally:
        pipe.close()


class SlowOracle:
    """An oracle that spends 40 % of the share the clock gives oracles, then passes."""

    exact = True

    def __init__(self) -> None:
        self.returned: float | None = None

    def __call__(self, game, pos, limits, context):
        share = context.control.deadline - time.perf_counter()
        time.sleep(0.4 * share)
        self.returned = time.perf_counter()
        return None


def _go(engine: Engine, limits: Limits) -> tuple[str | None, float]:
    done, out = threading.Event(), {}

    def on_bestmove(best, ponder):
        out["best"], out["at"] = best, time.perf_counter()
        done.set()

    engine.go(limits, lambda info, pv: None, on_bestmove, started=time.perf_counter())
    assert done.wait(30)
    return out["best"], out["at"]


def test_an_oracle_that_spends_its_share_leaves_the_search_half_its_soft_budget():
    engine = Engine(games)
    engine.set_option("UCI_Variant", "chess")
    engine.set_position(None, [])
    oracle = SlowOracle()
    engine.oracles.insert(0, oracle)
    limits = Limits(time=(20_000, 20_000))
    best, at = _go(engine, limits)
    soft = TimeManager(limits, turn=0).soft_ms
    assert best is not None and oracle.returned is not None and soft is not None
    assert (at - oracle.returned) * 1000 >= soft / 2


class Registry:
    """The game registry with one three-player game added."""

    def names(self):
        return [*games.names(), "takeaway"]

    def canonical(self, name):
        return "takeaway" if name.lower() == "takeaway" else games.canonical(name)

    def game_class(self, name):
        return ThreePlayers if self.canonical(name) == "takeaway" else games.game_class(name)

    def load(self, name, **params):
        return ThreePlayers() if self.canonical(name) == "takeaway" else games.load(name, **params)


@pytest.mark.parametrize("variant, options", [("chess", {}), ("chess", {"Skill Level": "3"}),
                                              ("takeaway", {}), ("takeaway", {"Skill Level": "3"})])
def test_one_time_manager_per_go(monkeypatch, variant, options):
    made = []
    init = TimeManager.__init__

    def counted(self, *args, **kwargs):
        made.append(args)
        init(self, *args, **kwargs)

    monkeypatch.setattr(timeman.TimeManager, "__init__", counted)
    engine = Engine(Registry())
    engine.set_option("UCI_Variant", variant)
    for name, value in options.items():
        engine.set_option(name, value)
    engine.set_position(None, [])
    best, _ = _go(engine, Limits(time=(1_000, 1_000)))
    assert best is not None
    assert len(made) == 1, made


def test_the_oracles_share_then_the_hard_deadline():
    clock = Clock(Limits(time=(60_000, 60_000)), turn=0, started=1000.0)
    tm = clock.tm
    assert tm is not None and tm.soft_ms is not None and tm.hard_ms is not None and tm.oracle_ms is not None
    assert 0.4 * tm.soft_ms <= tm.oracle_ms <= 0.5 * tm.soft_ms
    assert clock.control.deadline == 1000.0 + tm.oracle_ms / 1000
    clock.begin_search()
    assert clock.control.deadline == clock.hard_deadline == 1000.0 + tm.hard_ms / 1000


def test_a_ponder_go_is_timed_from_its_ponderhit():
    clock = Clock(Limits(time=(60_000, 60_000), ponder=True), turn=1)
    control = clock.control
    assert control.deadline == clock.hard_deadline == float("inf")
    assert not clock.stop_iterating(9, 10_000.0)
    hit = control.ponderhit()
    tm = clock.tm
    assert tm is not None and tm.oracle_ms is not None and tm.hard_ms is not None
    assert control.deadline == hit + tm.oracle_ms / 1000
    clock.begin_search()
    assert control.deadline == clock.hard_deadline == hit + tm.hard_ms / 1000


def test_the_search_after_the_oracles_is_not_cut_by_the_soft_limit():
    limits = Limits(time=(60_000, 60_000))
    tm = TimeManager(limits, turn=0)
    assert tm.soft_ms is not None and tm.oracle_ms is not None
    # A stable best move at 0.7 of the soft budget: stop, unless the search itself
    # has run less than half of it (the oracles took the rest).
    elapsed = 0.75 * tm.soft_ms
    assert tm.stop_iterating(elapsed, 9)
    assert not tm.stop_iterating(elapsed, 9, searched_ms=elapsed - tm.oracle_ms)
    assert tm.stop_iterating(tm.soft_ms + tm.oracle_ms, 9, searched_ms=tm.soft_ms)
