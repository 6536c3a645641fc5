"""Time allocation: budgets stay inside the clock and follow the time control."""

from __future__ import annotations

import pytest

from engine.timeman import Limits, TimeManager


@pytest.mark.parametrize("clock", [1, 50, 300, 1_000, 10_000, 60_000, 3_600_000])
@pytest.mark.parametrize("inc", [0, 100, 2_000])
@pytest.mark.parametrize("mtg", [None, 1, 5, 40])
def test_budgets_never_exceed_the_clock(clock, inc, mtg):
    overhead = 30
    tm = TimeManager(Limits(time=(clock, 5), inc=(inc, 0), movestogo=mtg), turn=0, overhead_ms=overhead)
    assert 1 <= tm.soft_ms <= tm.hard_ms
    assert tm.hard_ms <= max(1, clock - overhead)


def test_side_to_move_clock_is_used():
    fast = TimeManager(Limits(time=(1_000, 100_000)), turn=0)
    slow = TimeManager(Limits(time=(1_000, 100_000)), turn=1)
    assert fast.hard_ms < slow.soft_ms


def test_more_time_and_increment_give_more():
    base = TimeManager(Limits(time=(10_000, 10_000)), turn=0)
    more = TimeManager(Limits(time=(20_000, 10_000)), turn=0)
    inc = TimeManager(Limits(time=(10_000, 10_000), inc=(500, 0)), turn=0)
    assert base.soft_ms < more.soft_ms and base.soft_ms < inc.soft_ms


def test_movestogo_spends_more_near_the_control():
    many = TimeManager(Limits(time=(60_000, 0), movestogo=30), turn=0)
    last = TimeManager(Limits(time=(60_000, 0), movestogo=1), turn=0)
    assert many.soft_ms < last.soft_ms <= last.hard_ms < 60_000


def test_movetime_is_exact_and_combines_with_the_clock():
    tm = TimeManager(Limits(movetime=1_000), turn=0, overhead_ms=20)
    assert tm.soft_ms == tm.hard_ms == 980 and tm.exact
    assert not tm.stop_iterating(900, stable_iterations=10)
    assert tm.stop_iterating(980, stable_iterations=0)
    # A short clock wins over a long movetime, and the reverse.
    short_clock = TimeManager(Limits(time=(500, 500), movetime=10_000), turn=0)
    assert short_clock.hard_ms < 500 and not short_clock.exact
    short_move = TimeManager(Limits(time=(600_000, 0), movetime=200), turn=0, overhead_ms=0)
    assert short_move.hard_ms == 200


@pytest.mark.parametrize("limits", [Limits(), Limits(infinite=True, time=(1000, 1000)),
                                    Limits(ponder=True, time=(1000, 1000)), Limits(depth=5),
                                    Limits(time=(None, 1000))])
def test_untimed_searches(limits):
    tm = TimeManager(limits, turn=0)
    assert not tm.timed and tm.soft_ms is None and tm.hard_ms is None
    assert not tm.stop_iterating(10**9, 0)


def test_soft_limit_tracks_stability():
    tm = TimeManager(Limits(time=(60_000, 60_000)), turn=0)
    t = tm.soft_ms * 1.0
    assert not tm.stop_iterating(t * 0.75, stable_iterations=0)
    assert tm.stop_iterating(t * 0.75, stable_iterations=8)
    assert tm.stop_iterating(tm.hard_ms * 0.9, stable_iterations=0)


def test_an_iteration_that_cannot_finish_is_not_started():
    tm = TimeManager(Limits(time=(60_000, 60_000)), turn=0)
    early = tm.soft_ms * 0.5
    assert not tm.stop_iterating(early, 0, last_iteration_ms=early / 4)
    assert tm.stop_iterating(early, 0, last_iteration_ms=tm.hard_ms / 2)


def test_low_clock_spends_less_than_the_increment():
    # With a clock of a few increments, the budget leaves part of each increment
    # on the clock, so that the reserve grows back.
    for clock in (150, 300, 600):
        tm = TimeManager(Limits(time=(clock, clock), inc=(100, 100)), turn=0, overhead_ms=10)
        assert tm.soft_ms < 100 and tm.hard_ms < clock / 2
    assert TimeManager(Limits(time=(5_000, 0), inc=(100, 0)), turn=0).soft_ms > 100


@pytest.mark.parametrize("clock", [100, 2_000, 20_000, 120_000])
@pytest.mark.parametrize("mtg", [1, 2, 3, 5, 16, 40])
def test_movestogo_budget_is_near_the_even_share_and_keeps_a_reserve(clock, mtg):
    overhead = 10
    tm = TimeManager(Limits(time=(clock, clock), movestogo=mtg), turn=0, overhead_ms=overhead)
    share = clock / mtg
    assert tm.soft_ms <= share and tm.hard_ms <= 2 * share
    # Near the even share of what the overheads leave (half the clock at most).
    assert tm.soft_ms >= min(0.9 * (clock - (mtg + 1) * overhead) / mtg, 0.49 * (clock - overhead)) - 1
    # What this move may spend leaves every later move of the control its overhead.
    assert clock - tm.hard_ms >= min(clock / 2, (mtg - 1) * overhead)
