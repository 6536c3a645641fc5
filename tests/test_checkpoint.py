"""The search's look at its control adapts to the cost of a node."""

from types import SimpleNamespace

import pytest

from engine import driver
from engine.control import Control
from engine.driver import CHECK_EVERY, SearchAborted, checkpoint


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(driver.time, "perf_counter", fake)
    return fake


def worker() -> SimpleNamespace:
    return SimpleNamespace(nodes=0, node_limit=10**9, next_check=0, control=Control())


def look(w: SimpleNamespace, clock: FakeClock, seconds: float) -> int:
    """Search until the next look, ``seconds`` after the last; the interval it sets."""
    w.nodes = w.next_check
    clock.now += seconds
    checkpoint(w, 0)
    return w.next_check - w.nodes


def test_slow_nodes_are_looked_at_every_node(clock: FakeClock) -> None:
    w = worker()
    intervals = [look(w, clock, 0.0001) for _ in range(10)]
    assert intervals[-1] == CHECK_EVERY  # fast nodes: the usual interval
    # A game whose nodes take 10 ms each (a slow evaluation in the pure build).
    slow = []
    interval = CHECK_EVERY
    for _ in range(10):
        interval = look(w, clock, 0.01 * interval)
        slow.append(interval)
    assert slow[-1] == 1
    assert slow == sorted(slow, reverse=True)


def test_the_node_limit_is_exact_whatever_the_interval(clock: FakeClock) -> None:
    w = worker()
    w.node_limit = 1000
    for _ in range(100):
        w.nodes = w.next_check
        clock.now += 0.0001
        if w.nodes > w.node_limit:
            with pytest.raises(SearchAborted):
                checkpoint(w, 0)
            break
        checkpoint(w, 0)
        assert w.next_check <= w.node_limit + 1
    assert w.nodes == w.node_limit  # the node past the limit is not counted


def test_a_stop_is_seen_at_the_next_look(clock: FakeClock) -> None:
    w = worker()
    look(w, clock, 0.0001)
    w.control.stop()
    with pytest.raises(SearchAborted):
        look(w, clock, 0.0001)
