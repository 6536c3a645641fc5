"""Match statistics: Elo with a 95% error bar, LOS, and the SPRT.

Scores are those of the first engine. Two views of the same games:

- *trinomial*: every game is an independent win/draw/loss;
- *pentanomial*: the two games of an opening pair (one with each colour) form
  one sample scoring 0, 0.5, 1, 1.5 or 2, counted as ``[LL, LD, DD+WL, WD, WW]``.
  Pairing cancels most of the opening's bias, so its error bar is the honest one
  for paired matches (fishtest and fastchess report it).

Elo is the logistic model: ``elo = -400 log10(1/s - 1)`` for a score fraction
``s``. The error bar is the normal approximation: ``s ± 1.96 σ/√N`` with ``σ`` the
sample standard deviation of one sample, mapped through the Elo formula; the
printed ``±`` is half the width of that interval. With fewer than two samples, or
samples that all scored the same, there is no spread to estimate ``σ`` from: the
error is unknown (``± ?``), not zero. A clean sweep (every sample scored the
most, or the least) has no finite Elo: what it shows is the end of the exact 95%
interval, ``s >= 0.025^(1/N)`` (Clopper–Pearson, which holds for any samples in
[0, 1]: each scores the most with probability at most ``s``), printed ``>= -72.0``
for 4 games won of 4. An interval reaching past a score of 0 or 1 shows its finite
end beside the estimate. LOS (likelihood of
superiority) is ``Φ((W - L)/√(W + L))``.

The SPRT is the generalised SPRT (GSPRT) of fishtest with the logistic Elo
model, on the pentanomial counts: with ``s0``, ``s1`` the expected scores at
``elo0``, ``elo1``, the log-likelihood ratio is ``N Σ p̂ᵢ ln(q1ᵢ/q0ᵢ)`` where
``p̂`` is the observed distribution (empty cells set to 1e-3, as fishtest
regularises) and ``q0``, ``q1`` its maximum-likelihood neighbours with mean
``s0`` and ``s1`` (``qᵢ = p̂ᵢ / (1 + λ(aᵢ - s))``, λ by bisection). Near equal
strength this is fastchess's ``N (s1 - s0)(2 s̄ - s0 - s1) / (2 σ²)``; unlike that
quadratic form it stays sane for lopsided results (one won pair is no proof).
The LLR is compared with the Wald bounds ``ln(β/(1-α))`` (accept H0) and
``ln((1-β)/α)`` (accept H1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054
#: One tail of a 95% interval.
TAIL95 = 0.025


def elo(score: float) -> float:
    """Elo difference for an expected score fraction in (0, 1); ±inf at the ends."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def expected_score(elo_diff: float) -> float:
    """Expected score fraction of a player ``elo_diff`` stronger (logistic model)."""
    return 1.0 / (1.0 + 10.0 ** (-elo_diff / 400.0))


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: probability that the true Elo difference is > 0."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def _mean_var(values: list[float], counts: list[int]) -> tuple[int, float, float]:
    n = sum(counts)
    if n == 0:
        return 0, 0.5, 0.0
    mean = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, counts)) / n
    return n, mean, var


_TRI = [1.0, 0.5, 0.0]               # W, D, L
_PENTA = [0.0, 0.25, 0.5, 0.75, 1.0]  # LL, LD, DD+WL, WD, WW (pair score / 2)


@dataclass(frozen=True)
class EloEstimate:
    """Score fraction, Elo, and the half-width of its 95% interval (``inf`` if
    unbounded, ``nan`` if unknown: too few samples, or no spread among them), with the
    interval's ends in Elo (``low``, ``high``; for a sweep, the exact bound)."""

    samples: int
    score: float
    elo: float
    error: float
    low: float = math.nan
    high: float = math.nan

    def __str__(self) -> str:
        if self.samples == 0:
            return "n/a"
        if math.isinf(self.elo):
            return f">= {self.low + 0.0:+.1f}" if self.elo > 0 else f"<= {self.high + 0.0:+.1f}"
        err = "?" if math.isnan(self.error) else "inf" if math.isinf(self.error) else f"{self.error:.1f}"
        text = f"{self.elo + 0.0:+.1f} ± {err}"
        if math.isinf(self.error):
            text += f" (>= {self.low + 0.0:+.1f})" if math.isinf(self.high) else f" (<= {self.high + 0.0:+.1f})"
        return text

    def unknown_error(self, unit: str) -> str | None:
        """Why the Elo has no finite estimate or error bar, in words (``unit``: games or
        pairs), or ``None``."""
        if math.isinf(self.elo) and self.samples:
            side = "won" if self.elo > 0 else "lost"
            return (f"all {self.samples} {unit} {side}: no finite Elo, shown is the "
                    f"{'lower' if self.elo > 0 else 'upper'} end of its 95% interval")
        if math.isinf(self.error):
            return "the 95% interval reaches a score of " + ("100%" if math.isinf(self.high) else "0%")
        if not math.isnan(self.error):
            return None
        if self.samples < 2:
            return f"too few {unit} for an error bar"
        return f"all {unit} scored the same: no error bar"


def _estimate(values: list[float], counts: list[int]) -> EloEstimate:
    n, mean, var = _mean_var(values, counts)
    if n == 0:
        return EloEstimate(0, 0.5, 0.0, math.inf)
    top, bottom = max(values), min(values)
    if mean in (top, bottom):
        # A sweep: P(every sample scores the most) <= s^N for samples in [0, 1].
        edge = TAIL95 ** (1.0 / n)
        if mean == top:
            return EloEstimate(n, mean, math.inf, math.nan, elo(edge), math.inf)
        return EloEstimate(n, mean, -math.inf, math.nan, -math.inf, elo(1.0 - edge))
    if n < 2 or var == 0.0:
        # A sample variance of zero says nothing about the spread of the next games.
        return EloEstimate(n, mean, elo(mean), math.nan)
    half = Z95 * math.sqrt(var / n)
    lo, hi = elo(mean - half), elo(mean + half)
    return EloEstimate(n, mean, elo(mean), (hi - lo) / 2.0, lo, hi)


def trinomial(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo estimate treating every game as independent."""
    return _estimate(_TRI, [wins, draws, losses])


def pentanomial(penta: list[int]) -> EloEstimate:
    """Elo estimate from pair counts ``[LL, LD, DD+WL, WD, WW]``."""
    return _estimate(_PENTA, list(penta))


def pair_bucket(first: float, second: float) -> int:
    """Index into the pentanomial counts of a pair's two game scores (each 0, 0.5 or 1)."""
    return int(round(2 * (first + second)))


def _mle(values: list[float], p: list[float], s: float) -> list[float]:
    """The distribution on ``values`` with mean ``s`` closest to ``p`` in likelihood."""
    d = [a - s for a in values]
    # sum p d / (1 + lam d) falls monotonically in lam on the interval where all q > 0.
    lo, hi = -1.0 / max(d), -1.0 / min(d)
    for _ in range(64):
        lam = (lo + hi) / 2
        if sum(pi * di / (1 + lam * di) for pi, di in zip(p, d)) > 0:
            lo = lam
        else:
            hi = lam
    lam = (lo + hi) / 2
    return [pi / (1 + lam * di) for pi, di in zip(p, d)]


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: ``elo = elo0`` against H1: ``elo = elo1``."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, values: list[float], counts: list[int]) -> float:
        """GSPRT log-likelihood ratio of H1 against H0 for per-sample ``values`` seen ``counts`` times."""
        if sum(counts) == 0:
            return 0.0
        reg = [c if c > 0 else 1e-3 for c in counts]
        n = sum(reg)
        p = [c / n for c in reg]
        q0 = _mle(values, p, expected_score(self.elo0))
        q1 = _mle(values, p, expected_score(self.elo1))
        return n * sum(pi * math.log(b / a) for pi, a, b in zip(p, q0, q1))

    def llr_pentanomial(self, penta: list[int]) -> float:
        return self.llr(_PENTA, list(penta))

    def decision(self, llr: float) -> str | None:
        """``"H1"`` (elo1 accepted), ``"H0"`` (elo0 accepted) or ``None`` (continue)."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    @classmethod
    def parse(cls, words: list[str]) -> "Sprt":
        """From ``elo0=0 elo1=10 alpha=0.05 beta=0.05`` words (any subset)."""
        kw = {}
        for word in words:
            key, sep, value = word.partition("=")
            if not sep or key not in ("elo0", "elo1", "alpha", "beta"):
                raise ValueError(f"bad --sprt word {word!r}; expected elo0=, elo1=, alpha=, beta=")
            kw[key] = float(value)
        sprt = cls(**kw)
        if not (0 < sprt.alpha < 1 and 0 < sprt.beta < 1 and sprt.elo1 > sprt.elo0):
            raise ValueError("--sprt needs 0 < alpha, beta < 1 and elo1 > elo0")
        return sprt
