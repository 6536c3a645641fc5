"""SPSA (Spall's simultaneous perturbation stochastic approximation) over game pairs.

The form fishtest and OpenBench use to tune engines' numbers. Each parameter has
bounds and the perturbation ``c_end`` and learning rate ``r_end`` it ends the run
with; over a run of ``N`` iterations, iteration ``k`` (0-based) uses

    c_k = c / (k + 1) ** 0.101          with c = c_end * N ** 0.101
    a_k = a / (A + k + 1) ** 0.602      with a = r_end * c_end**2 * (A + N) ** 0.602, A = N / 10

draws a vector ``delta`` of ±1 (from the run's seed and ``k`` alone, so a resumed
run draws the same), plays one game pair (each side once with each colour) between
``theta + c_k * delta`` and ``theta - c_k * delta`` (rounded, within the bounds),
and moves ``theta`` by ``a_k / c_k * result * delta`` (clipped to the bounds), where
``result`` is the first side's wins minus losses over the pair.

Iterations are played in batches (as many pairs at once as there are workers),
each of a batch perturbing the ``theta`` the batch started from; their updates are
then applied in iteration order. After every batch the state (``theta`` and the
iterations done) is written atomically and one line per iteration is appended to
the progress CSV, so a run stopped anywhere resumes by the same command.
"""

from __future__ import annotations

import csv
import json
import pathlib
import random
from dataclasses import asdict, dataclass
from typing import Callable

from engine.tuning import write_atomic

ALPHA = 0.602
GAMMA = 0.101
#: The stability constant ``A`` as a share of the run's iterations.
A_SHARE = 0.1


@dataclass(frozen=True)
class Param:
    """One tuned number: its name, where it starts, its bounds and its end-of-run steps."""

    name: str
    start: float
    lo: float
    hi: float
    c_end: float
    r_end: float


@dataclass(frozen=True)
class Trial:
    """Iteration ``k``'s pair: the perturbation and the two sides' values (rounded)."""

    k: int
    delta: tuple[int, ...]
    plus: tuple[int, ...]
    minus: tuple[int, ...]


def gains(param: Param, k: int, iterations: int) -> tuple[float, float]:
    """``(a_k, c_k)`` of ``param`` at iteration ``k`` of a run of ``iterations``."""
    big_a = A_SHARE * iterations
    c = param.c_end * iterations ** GAMMA
    a = param.r_end * param.c_end ** 2 * (big_a + iterations) ** ALPHA
    return a / (big_a + k + 1) ** ALPHA, c / (k + 1) ** GAMMA


def perturbation(seed: int, k: int, n: int) -> tuple[int, ...]:
    """The ±1 vector of iteration ``k``: a function of the seed and ``k`` only."""
    rng = random.Random(f"spsa {seed} {k}")
    return tuple(rng.choice((-1, 1)) for _ in range(n))


def _clip(value: float, param: Param) -> float:
    return min(max(value, param.lo), param.hi)


def trial(params: list[Param], theta: list[float], k: int, iterations: int, seed: int) -> Trial:
    """The pair of iteration ``k`` around ``theta``."""
    delta = perturbation(seed, k, len(params))
    cs = [gains(p, k, iterations)[1] for p in params]
    plus = tuple(round(_clip(t + c * d, p)) for p, t, c, d in zip(params, theta, cs, delta))
    minus = tuple(round(_clip(t - c * d, p)) for p, t, c, d in zip(params, theta, cs, delta))
    return Trial(k, delta, plus, minus)


def update(params: list[Param], theta: list[float], t: Trial, result: float, iterations: int) -> list[float]:
    """``theta`` after the pair ``t`` scored ``result`` (wins minus losses of ``t.plus``)."""
    out = []
    for p, value, d in zip(params, theta, t.delta):
        a_k, c_k = gains(p, t.k, iterations)
        out.append(_clip(value + a_k / c_k * result * d, p))
    return out


@dataclass
class State:
    """A run: its parameters, length and seed, the iterations done and where ``theta`` is."""

    params: list[Param]
    iterations: int
    seed: int
    done: int
    theta: list[float]
    settings: dict

    def save(self, path: str | pathlib.Path) -> None:
        write_atomic(path, json.dumps(asdict(self), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | pathlib.Path) -> "State":
        try:
            body = json.loads(pathlib.Path(path).read_text())
            return cls(params=[Param(**p) for p in body["params"]], iterations=int(body["iterations"]),
                       seed=int(body["seed"]), done=int(body["done"]), theta=[float(v) for v in body["theta"]],
                       settings=dict(body["settings"]))
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{path}: not an SPSA state ({e})") from None


def start(path: str | pathlib.Path, params: list[Param], iterations: int, seed: int, settings: dict) -> State:
    """The run's state: read from ``path`` when it exists (refused unless it is a run of
    the same parameters, seed and settings; its length may grow), else a new one."""
    path = pathlib.Path(path)
    if not path.exists():
        return State(params, iterations, seed, 0, [p.start for p in params], settings)
    state = State.load(path)
    if state.params != params or state.seed != seed or state.settings != settings:
        raise ValueError(f"{path}: a run of other parameters, seed or settings; remove it to start afresh")
    if iterations != state.iterations:
        raise ValueError(f"{path}: a run of {state.iterations} iterations, not {iterations}")
    return state


def _header(params: list[Param]) -> list[str]:
    return ["iteration", "result"] + [p.name for p in params]


def _trim_csv(path: pathlib.Path, params: list[Param], done: int) -> None:
    """Keep the header and the first ``done`` iterations' lines (a run stopped after
    writing lines but before its state may have left more)."""
    rows = []
    if path.exists():
        with path.open(newline="") as f:
            rows = list(csv.reader(f))
    if not rows or rows[0] != _header(params):
        if rows and done:
            raise ValueError(f"{path}: not this run's progress file")
        rows = [_header(params)]
    kept = rows[:1] + [row for row in rows[1:] if row and int(row[0]) <= done]
    write_atomic(path, "".join(",".join(row) + "\n" for row in kept))


def run(state: State, state_path: str | pathlib.Path, csv_path: str | pathlib.Path,
        play: Callable[[list[Trial]], list[float]], batch: int,
        on_batch: Callable[[State], None] | None = None) -> State:
    """Play ``state``'s remaining iterations, ``batch`` at a time through ``play``
    (the pairs' results, in order), saving the state and the CSV after each batch."""
    csv_path = pathlib.Path(csv_path)
    _trim_csv(csv_path, state.params, state.done)
    while state.done < state.iterations:
        trials = [trial(state.params, state.theta, k, state.iterations, state.seed)
                  for k in range(state.done, min(state.done + batch, state.iterations))]
        results = play(trials)
        lines = []
        for t, result in zip(trials, results):
            state.theta = update(state.params, state.theta, t, result, state.iterations)
            lines.append(",".join([str(t.k + 1), f"{result:g}"] + [f"{v:.4f}" for v in state.theta]) + "\n")
        state.done += len(trials)
        state.save(state_path)
        with csv_path.open("a") as f:
            f.writelines(lines)
        if on_batch is not None:
            on_batch(state)
    return state
