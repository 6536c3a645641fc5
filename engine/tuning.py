"""Texel tuning of a game's hand-written evaluation weights against game results.

A game offers its weights through its contract (``Game.eval_weights``: one vector
of names, values and bounds, which the evaluation reads in one place) and the
features of data records (``Game.eval_features``: each record's evaluation as
``base + X @ w``, linear in the weights ``w``). The records are ``zermelo datagen``'s
quiet self-play positions with their games' results (:mod:`engine.nnue_data`).

Texel's method: the scale ``K`` by which ``sigmoid(eval / K)`` best predicts the
results is fitted first, for the weights in play (:func:`engine.train.fit_scale`),
then held; the weights then minimise the mean squared error between
``sigmoid((base + X @ w) / K)`` and the result (1, ½, 0), by Adam on the whole
set at each step (a loss is one matrix product), each weight kept in its bounds.
The tuned weights are rounded to integers, and the loss of the rounded ones is
what is reported.

The run's state (weights, Adam's moments, step, K) is saved atomically every few
steps beside the output, so the same command resumes where it stopped.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from engine.nnue_data import Dataset
from engine.train import fit_scale


@dataclass(frozen=True)
class EvalWeights:
    """A game's tunable evaluation weights: one vector, each with its bounds."""

    names: tuple[str, ...]
    values: tuple[int, ...]
    lower: tuple[int, ...]
    upper: tuple[int, ...]
    defaults: tuple[int, ...]


def write_atomic(path: str | pathlib.Path, text: str) -> None:
    """Replace ``path`` by ``text`` whole or not at all."""
    path = pathlib.Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def save_weights(path: str | pathlib.Path, game: str, names: tuple[str, ...], values: Any, info: dict[str, Any]) -> None:
    """A weights file: JSON with the game, the weights by name, and how they were made."""
    body = {"game": game, "weights": {n: int(v) for n, v in zip(names, values)}, **info}
    write_atomic(path, json.dumps(body, indent=1) + "\n")


def load_weights(path: str | pathlib.Path, game: str, weights: EvalWeights) -> list[int]:
    """The weight vector of a weights file for ``game``: the weights it names, the
    defaults for the others. Raises ``ValueError`` (one line) for a file that cannot
    be read, of another game, naming an unknown weight or one out of bounds."""
    try:
        body = json.loads(pathlib.Path(path).read_text())
        given = body["weights"]
        if not isinstance(given, dict):
            raise TypeError("weights is not an object")
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path}: not a weights file ({e})") from None
    if body.get("game") != game:
        raise ValueError(f"{path}: weights of {body.get('game')!r}, not {game!r}")
    unknown = sorted(set(given) - set(weights.names))
    if unknown:
        raise ValueError(f"{path}: unknown weights {', '.join(unknown)}")
    values = []
    for name, default, lo, hi in zip(weights.names, weights.defaults, weights.lower, weights.upper):
        v = given.get(name, default)
        if not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"{path}: weight {name} = {v!r} is not an integer in [{lo}, {hi}]")
        values.append(v)
    return values


def loss(base: np.ndarray, x: np.ndarray, target: np.ndarray, k: float, w: np.ndarray) -> float:
    """Mean squared error between ``sigmoid((base + x @ w) / k)`` and ``target``."""
    p = 0.5 + 0.5 * np.tanh((base + x @ w) / (2 * k))
    return float(np.mean((p - target) ** 2))


@dataclass
class State:
    """A tuning run's state, saved between steps."""

    step: int
    k: int
    w: list[float]
    m: list[float]
    v: list[float]
    loss_before: float
    positions: int


def _load_state(path: pathlib.Path, names: tuple[str, ...], positions: int) -> State | None:
    if not path.exists():
        return None
    body = json.loads(path.read_text())
    if body.get("names") != list(names) or body.get("positions") != positions:
        raise ValueError(f"{path}: a run over other weights or data; remove it to start afresh")
    return State(**{f.name: body[f.name] for f in dataclasses.fields(State)})


def texel(base: np.ndarray, x: np.ndarray, data: Dataset, weights: EvalWeights, *, steps: int,
          lr: float, state_path: str | pathlib.Path, save_every: int = 50,
          progress: Callable[[State, float], None] | None = None) -> tuple[State, list[int]]:
    """Tune ``weights`` over the records of ``data`` (features ``base``, ``x``) for
    ``steps`` Adam steps in all (a resumed run counts those done), the state saved to
    ``state_path``. Returns the final state and the rounded weights."""
    state_path = pathlib.Path(state_path)
    target = (data.result.astype(np.float64) + 1) / 2
    lower, upper = np.asarray(weights.lower, float), np.asarray(weights.upper, float)
    state = _load_state(state_path, weights.names, len(data))
    if state is None:
        w0 = np.asarray(weights.values, float)
        k = fit_scale(dataclasses.replace(data, score=base + x @ w0))
        zeros = [0.0] * len(w0)
        state = State(0, k, list(w0), zeros, list(zeros), loss(base, x, target, k, w0), len(data))
    w, m, v = (np.asarray(a, float) for a in (state.w, state.m, state.v))
    k, n = state.k, len(data)
    beta1, beta2, eps = 0.9, 0.999, 1e-8

    def save() -> None:
        state.w, state.m, state.v = list(w), list(m), list(v)
        body = {"names": list(weights.names), **dataclasses.asdict(state)}
        write_atomic(state_path, json.dumps(body) + "\n")

    while state.step < steps:
        p = 0.5 + 0.5 * np.tanh((base + x @ w) / (2 * k))
        grad = x.T @ (2 * (p - target) * p * (1 - p) / k) / n
        state.step += 1
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad * grad
        w = np.clip(w - lr * (m / (1 - beta1 ** state.step)) / (np.sqrt(v / (1 - beta2 ** state.step)) + eps),
                    lower, upper)
        if state.step % save_every == 0 or state.step == steps:
            save()
            if progress is not None:
                progress(state, loss(base, x, target, k, w))
    rounded = [int(round(c)) for c in w]
    return state, rounded
