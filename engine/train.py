"""Training the evaluation network on self-play data (``zermelo train``).

The float model is the network of :mod:`engine.nnue`, version 1::

    raw = concat(clamp(ft(x_stm), 0, 1), clamp(ft(x_other), 0, 1)) · w + b
    eval = raw · scale

with ``ft(x) = bias + Σ weight[i]`` over the active inputs ``i``. Its loss is the
mean squared error between ``sigmoid(eval / K)`` and the target
``λ · result01 + (1 − λ) · sigmoid(score / K)``, with ``K`` the network's ``scale``
(so ``eval / K`` is ``raw``): the search score and the game's result are blended
as NNUE trainers blend them. Adam (Kingma and Ba) updates every weight.

Two implementations of the same arithmetic, the same initial weights and the
same batches: ``numpy`` (always there; one-hot batches against the feature
weights with BLAS) and ``torch`` (PyTorch on the CPU, the optional extra
``zermelo[train]``: an ``EmbeddingBag`` sums the active rows and its gradient
touches only them). ``scripts/train_speed.py`` times them on the same data.
Nothing in play imports this module.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from engine.nnue_data import Dataset

#: Feature weights and biases are kept within this (as bullet clips its weights), so that
#: an accumulator of 32 active inputs and the bias stays far inside int16 once × QA (255).
WEIGHT_CLIP = 1.98


@dataclass(frozen=True)
class TrainConfig:
    acc: int = 256
    epochs: int = 10
    lr: float = 1e-3
    wdl: float = 0.5
    """λ: the result's share of the target (the search score's is 1 − λ)."""
    scale: int = 400
    """``K``: the network's output unit in the game's evaluation units (the file's scale)."""
    batch: int = 4096
    seed: int = 1
    val_split: float = 0.05
    trainer: str = "numpy"


@dataclass
class Weights:
    """The float network: ``ft_weight`` (inputs, acc), ``ft_bias`` (acc,),
    ``out_weight`` (2 acc,), ``out_bias``."""

    ft_weight: np.ndarray
    ft_bias: np.ndarray
    out_weight: np.ndarray
    out_bias: float

    @classmethod
    def initial(cls, inputs: int, acc: int, rng: np.random.Generator) -> Weights:
        # Uniform in ±1/sqrt(fan-in), as PyTorch's Linear and EmbeddingBag-based NNUE trainers start.
        ft = rng.uniform(-1, 1, (inputs, acc)) / math.sqrt(inputs)
        out = rng.uniform(-1, 1, 2 * acc) / math.sqrt(2 * acc)
        return cls(ft.astype(np.float32), np.full(acc, 0.0, dtype=np.float32), out.astype(np.float32), 0.0)

    def evaluate(self, stm: list[int], other: list[int], scale: int) -> float:
        """The float model's evaluation of one position, in the game's units."""
        h = [np.clip(self.ft_bias + self.ft_weight[list(view)].sum(axis=0), 0, 1) for view in (stm, other)]
        return float((np.concatenate(h) @ self.out_weight + self.out_bias) * scale)


@dataclass
class History:
    """Mean training loss of each epoch and the validation loss after it (index 0:
    the validation loss before training)."""

    train: list[float] = field(default_factory=list)
    val: list[float] = field(default_factory=list)


def targets(data: Dataset, wdl: float, scale: int) -> np.ndarray:
    score = 1 / (1 + np.exp(-data.score.astype(np.float64) / scale))
    return (wdl * (data.result.astype(np.float64) + 1) / 2 + (1 - wdl) * score).astype(np.float32)


def fit_scale(data: Dataset, lo: int = 10, hi: int = 5000) -> int:
    """The ``K`` in ``[lo, hi]`` by which ``sigmoid(score / K)`` best predicts the game's
    result (least squared error, over every position), as Texel tuning fits its K:
    the game's score unit, which a new game does not otherwise state. A coarse
    geometric grid, then a fine one between the best point's neighbours."""
    if not len(data):
        raise ValueError("no positions to fit the scale to")
    score = data.score.astype(np.float64)
    result = (data.result.astype(np.float64) + 1) / 2

    def error(k: float) -> float:
        # tanh form of the sigmoid: no overflow for the largest scores.
        return float(np.mean((0.5 + 0.5 * np.tanh(score / (2 * k)) - result) ** 2))

    coarse = [float(k) for k in np.geomspace(lo, hi, 60)]
    i = min(range(len(coarse)), key=lambda j: error(coarse[j]))
    fine = [float(k) for k in np.geomspace(coarse[max(0, i - 1)], coarse[min(len(coarse) - 1, i + 1)], 40)]
    best: float = min(fine, key=error)
    return round(best)


def split(n: int, val_split: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Training and validation rows (at least one of each when there are two)."""
    order = rng.permutation(n)
    val = min(n - 1, max(1 if val_split > 0 and n > 1 else 0, round(n * val_split)))
    return order[val:], order[:val]


def _one_hot(data: Dataset, rows: np.ndarray, which: str) -> np.ndarray:
    flat, offsets = (data.stm, data.stm_offsets) if which == "stm" else (data.other, data.other_offsets)
    counts = offsets[rows + 1] - offsets[rows]
    within = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    x = np.zeros((len(rows), data.header.inputs), dtype=np.float32)
    x[np.repeat(np.arange(len(rows)), counts), flat[np.repeat(offsets[rows], counts) + within]] = 1
    return x


class _Adam:
    def __init__(self, shapes: list[tuple[int, ...]], lr: float, b1: float = 0.9, b2: float = 0.999,
                 eps: float = 1e-8):
        self.lr, self.b1, self.b2, self.eps, self.t = lr, b1, b2, eps, 0
        self.m = [np.zeros(s, dtype=np.float32) for s in shapes]
        self.v = [np.zeros(s, dtype=np.float32) for s in shapes]

    def step(self, params: list[np.ndarray], grads: list[np.ndarray]) -> None:
        self.t += 1
        c1, c2 = 1 - self.b1 ** self.t, 1 - self.b2 ** self.t
        for p, g, m, v in zip(params, grads, self.m, self.v):
            m *= self.b1
            m += (1 - self.b1) * g
            v *= self.b2
            v += (1 - self.b2) * g * g
            p -= (self.lr / c1) * m / (np.sqrt(v / c2) + self.eps)


class NumpyModel:
    def __init__(self, w: Weights, lr: float):
        self.params = [w.ft_weight.copy(), w.ft_bias.copy(), w.out_weight.copy(), np.array([w.out_bias], np.float32)]
        self.adam = _Adam([p.shape for p in self.params], lr)

    def _forward(self, xs: np.ndarray, xo: np.ndarray):
        ft, fb, ow, ob = self.params
        a_s, a_o = xs @ ft + fb, xo @ ft + fb
        h = np.concatenate([np.clip(a_s, 0, 1), np.clip(a_o, 0, 1)], axis=1)
        raw = h @ ow + ob[0]
        return a_s, a_o, h, 1 / (1 + np.exp(-raw))

    def loss(self, xs: np.ndarray, xo: np.ndarray, t: np.ndarray) -> float:
        return float(np.mean((self._forward(xs, xo)[3] - t) ** 2))

    def step(self, xs: np.ndarray, xo: np.ndarray, t: np.ndarray) -> float:
        ft, fb, ow, ob = self.params
        a_s, a_o, h, p = self._forward(xs, xo)
        g = 2 * (p - t) * p * (1 - p) / len(t)
        acc = ft.shape[1]
        dh = np.outer(g, ow)
        d_s = dh[:, :acc] * ((a_s > 0) & (a_s < 1))
        d_o = dh[:, acc:] * ((a_o > 0) & (a_o < 1))
        grads = [xs.T @ d_s + xo.T @ d_o, d_s.sum(0) + d_o.sum(0), h.T @ g, np.array([g.sum()], np.float32)]
        self.adam.step(self.params, [x.astype(np.float32) for x in grads])
        np.clip(ft, -WEIGHT_CLIP, WEIGHT_CLIP, out=ft)
        np.clip(fb, -WEIGHT_CLIP, WEIGHT_CLIP, out=fb)
        return float(np.mean((p - t) ** 2))

    def weights(self) -> Weights:
        ft, fb, ow, ob = self.params
        return Weights(ft.copy(), fb.copy(), ow.copy(), float(ob[0]))


def _numpy_epoch(model: NumpyModel, data: Dataset, t: np.ndarray, batches: list[np.ndarray],
                 tick: Callable[[int, float], None]) -> float:
    total = 0.0
    for i, rows in enumerate(batches):
        loss = model.step(_one_hot(data, rows, "stm"), _one_hot(data, rows, "other"), t[rows])
        total += loss * len(rows)
        tick(i + 1, loss)
    return total / sum(len(b) for b in batches)


def _numpy_loss(model: NumpyModel, data: Dataset, t: np.ndarray, rows: np.ndarray, batch: int) -> float:
    total = 0.0
    for start in range(0, len(rows), batch):
        part = rows[start:start + batch]
        total += model.loss(_one_hot(data, part, "stm"), _one_hot(data, part, "other"), t[part]) * len(part)
    return total / max(1, len(rows))


class TorchModel:
    def __init__(self, w: Weights, lr: float):
        import torch

        self.torch = torch
        acc = w.ft_weight.shape[1]
        self.ft = torch.nn.EmbeddingBag(w.ft_weight.shape[0], acc, mode="sum")
        with torch.no_grad():
            self.ft.weight.copy_(torch.from_numpy(w.ft_weight))
        self.fb = torch.nn.Parameter(torch.from_numpy(w.ft_bias.copy()))
        self.ow = torch.nn.Parameter(torch.from_numpy(w.out_weight.copy()))
        self.ob = torch.nn.Parameter(torch.tensor([w.out_bias], dtype=torch.float32))
        self.opt = torch.optim.Adam([self.ft.weight, self.fb, self.ow, self.ob], lr=lr)

    def _bags(self, data: Dataset, rows: np.ndarray, which: str):
        flat, offsets = (data.stm, data.stm_offsets) if which == "stm" else (data.other, data.other_offsets)
        counts = offsets[rows + 1] - offsets[rows]
        starts = np.cumsum(counts) - counts
        within = np.arange(counts.sum()) - np.repeat(starts, counts)
        index = flat[np.repeat(offsets[rows], counts) + within].astype(np.int64)
        return self.torch.from_numpy(index), self.torch.from_numpy(starts.astype(np.int64))

    def _predict(self, data: Dataset, rows: np.ndarray):
        torch = self.torch
        h = torch.cat([torch.clamp(self.ft(*self._bags(data, rows, side)) + self.fb, 0, 1)
                       for side in ("stm", "other")], dim=1)
        return torch.sigmoid(h @ self.ow + self.ob)

    def step(self, data: Dataset, rows: np.ndarray, t: np.ndarray) -> float:
        torch = self.torch
        self.opt.zero_grad()
        loss = torch.mean((self._predict(data, rows) - torch.from_numpy(t[rows])) ** 2)
        loss.backward()
        self.opt.step()
        with torch.no_grad():
            self.ft.weight.clamp_(-WEIGHT_CLIP, WEIGHT_CLIP)
            self.fb.clamp_(-WEIGHT_CLIP, WEIGHT_CLIP)
        return float(loss.detach())

    def loss(self, data: Dataset, rows: np.ndarray, t: np.ndarray) -> float:
        with self.torch.no_grad():
            return float(self.torch.mean((self._predict(data, rows) - self.torch.from_numpy(t[rows])) ** 2))

    def weights(self) -> Weights:
        return Weights(self.ft.weight.detach().numpy().copy(), self.fb.detach().numpy().copy(),
                       self.ow.detach().numpy().copy(), float(self.ob.detach()[0]))


def torch_available() -> bool:
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


def train(data: Dataset, config: TrainConfig, *,
          progress: Callable[[int, int, int, float], None] | None = None) -> tuple[Weights, History]:
    """Train a network on ``data``; ``progress(epoch, batch, batches, loss)`` hears each
    batch. Returns the float weights and the loss history. The same data, config and
    seed give the same weights with one implementation on one machine."""
    if len(data) < 2:
        raise ValueError(f"{len(data)} positions: too few to train on")
    if config.trainer not in ("numpy", "torch"):
        raise ValueError(f"unknown trainer {config.trainer!r}; expected numpy or torch")
    rng = np.random.default_rng(config.seed)
    train_rows, val_rows = split(len(data), config.val_split, rng)
    t = targets(data, config.wdl, config.scale)
    start = Weights.initial(data.header.inputs, config.acc, rng)
    history = History()
    tick = progress or (lambda epoch, batch, batches, loss: None)
    if config.trainer == "torch":
        import torch

        torch.manual_seed(config.seed)
        model: NumpyModel | TorchModel = TorchModel(start, config.lr)
    else:
        model = NumpyModel(start, config.lr)
    check = val_rows if len(val_rows) else train_rows

    def evaluate() -> float:
        if isinstance(model, TorchModel):
            return model.loss(data, check, t)
        return _numpy_loss(model, data, t, check, config.batch)

    history.val.append(evaluate())
    for epoch in range(1, config.epochs + 1):
        order = train_rows[rng.permutation(len(train_rows))]
        batches = [order[i:i + config.batch] for i in range(0, len(order), config.batch)]

        def on_batch(i: int, loss: float, epoch: int = epoch, count: int = len(batches)) -> None:
            tick(epoch, i, count, loss)

        if isinstance(model, TorchModel):
            total = 0.0
            for i, rows in enumerate(batches):
                loss = model.step(data, rows, t)
                total += loss * len(rows)
                on_batch(i + 1, loss)
            history.train.append(total / len(order))
        else:
            history.train.append(_numpy_epoch(model, data, t, batches, on_batch))
        history.val.append(evaluate())
    return model.weights(), history
