"""Match statistics checked against their definitions and by simulation: a 95%
interval must cover the true Elo about 95% of the time, and the SPRT must keep
its error rates."""

from __future__ import annotations

import math
import pathlib
import sys

import numpy as np
import pytest

from protocol.match.runner import main
from protocol.match.stats import (Sprt, elo, expected_score, los, pair_bucket, pentanomial,
                                  trinomial)


def test_elo_is_the_logistic_model():
    # 75% is three wins per loss: 400 log10(3) Elo.
    assert elo(0.75) == pytest.approx(400 * math.log10(3))
    assert elo(0.5) == pytest.approx(0.0)
    for d in (-300, -35, 0, 12.5, 240):
        assert elo(expected_score(d)) == pytest.approx(d)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf


def test_los():
    assert los(10, 10) == pytest.approx(0.5)
    assert los(0, 0) == 0.5
    # Normal approximation of the sign test: (W - L) / sqrt(W + L) = 2 gives Phi(2).
    assert los(12, 4) == pytest.approx(0.9772498680518208)
    assert los(4, 12) == pytest.approx(1 - 0.9772498680518208)


def test_pair_buckets():
    assert [pair_bucket(a, b) for a, b in ((0, 0), (0, 0.5), (1, 0), (0.5, 0.5), (1, 0.5), (1, 1))] \
        == [0, 1, 2, 2, 3, 4]


def _coverage(draw_counts, true_score, estimate, runs=1500, seed=7):
    rng = np.random.default_rng(seed)
    true = elo(true_score)
    hit = 0
    for counts in draw_counts(rng, runs):
        est = estimate(list(map(int, counts)))
        hit += abs(est.elo - true) <= est.error
    return hit / runs


def test_trinomial_interval_covers_95_percent():
    p = [0.40, 0.32, 0.28]  # W D L
    true_score = p[0] + p[1] / 2
    cov = _coverage(lambda rng, n: rng.multinomial(600, p, size=n), true_score,
                    lambda c: trinomial(*c))
    assert 0.93 <= cov <= 0.97


def test_pentanomial_interval_covers_95_percent():
    p = [0.05, 0.20, 0.45, 0.22, 0.08]  # LL LD DD+WL WD WW
    true_score = sum(pi * v for pi, v in zip(p, [0, 0.25, 0.5, 0.75, 1]))
    cov = _coverage(lambda rng, n: rng.multinomial(300, p, size=n), true_score, pentanomial)
    assert 0.93 <= cov <= 0.97


def _approx_llr(sprt, penta):
    # fastchess's quadratic approximation, valid near equal strength.
    n = sum(penta)
    vals = [0, 0.25, 0.5, 0.75, 1]
    mean = sum(v * c for v, c in zip(vals, penta)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(vals, penta)) / n
    s0, s1 = expected_score(sprt.elo0), expected_score(sprt.elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


@pytest.mark.parametrize("penta", [[10, 30, 50, 35, 12], [40, 160, 300, 150, 45], [5, 80, 200, 90, 3]])
def test_gsprt_matches_the_approximation_near_equal_strength(penta):
    sprt = Sprt(0, 5)
    assert sprt.llr_pentanomial(penta) == pytest.approx(_approx_llr(sprt, penta), rel=0.02, abs=0.01)


def test_gsprt_is_not_fooled_by_a_few_won_pairs():
    # Bernoulli bound: each won pair is at most ln(s1/s0) of evidence per game.
    sprt = Sprt(0, 10)
    assert 0 < sprt.llr_pentanomial([0, 0, 0, 0, 1]) < 2 * math.log(expected_score(10) / 0.5)
    assert sprt.decision(sprt.llr_pentanomial([0, 0, 0, 0, 3])) is None


def test_bounds():
    s = Sprt(0, 10, 0.05, 0.05)
    assert s.lower == pytest.approx(-2.944438979) and s.upper == pytest.approx(2.944438979)
    with pytest.raises(ValueError):
        Sprt.parse(["elo0=5", "elo1=0"])
    assert Sprt.parse(["elo1=20", "alpha=0.1"]) == Sprt(0, 20, 0.1, 0.05)


def _sprt_run(rng, sprt, p, max_pairs=3000, every=4):
    counts = np.zeros(5, dtype=int)
    draws = rng.choice(5, size=max_pairs, p=p)
    for i in range(0, max_pairs, every):
        for b in draws[i:i + every]:
            counts[b] += 1
        decision = sprt.decision(sprt.llr_pentanomial(counts.tolist()))
        if decision:
            return decision
    return None


def _penta_for_elo(d):
    # Pairs from independent games with a 30% draw rate and the given expected score.
    s = expected_score(d)
    w, dr = s - 0.15, 0.30
    g = np.array([1 - w - dr, dr, w])  # L D W per game
    p = np.zeros(5)
    for i in range(3):
        for j in range(3):
            p[i + j] += g[i] * g[j]
    return p


@pytest.mark.parametrize("true_elo,expect,max_error", [(0, "H0", 0.1), (40, "H1", 0.1)])
def test_sprt_error_rates(true_elo, expect, max_error):
    sprt = Sprt(0, 40, 0.1, 0.1)
    rng = np.random.default_rng(11)
    runs = 120
    outcomes = [_sprt_run(rng, sprt, _penta_for_elo(true_elo)) for _ in range(runs)]
    wrong = sum(o != expect for o in outcomes)
    # alpha = beta = 0.1; allow sampling noise of about two standard deviations.
    assert wrong / runs <= max_error + 2 * math.sqrt(max_error * (1 - max_error) / runs)


def test_no_error_bar_without_a_spread_to_estimate_it_from():
    # One pair, or pairs that all scored the same, give no variance estimate: the
    # error is unknown, never zero.
    for est in (pentanomial([0, 0, 1, 0, 0]), pentanomial([0, 0, 0, 1, 0]), pentanomial([0, 0, 9, 0, 0]),
                trinomial(0, 1, 0), trinomial(0, 6, 0)):
        assert math.isnan(est.error), est
        assert str(est).endswith("± ?") and "± 0" not in str(est)
    assert str(pentanomial([0, 0, 0, 1, 0])) == "+190.8 ± ?"
    # Two pairs that differ do give an interval.
    two = pentanomial([0, 0, 1, 1, 0])
    assert math.isfinite(two.error) and two.error > 0 and "± ?" not in str(two)


def test_a_one_pair_match_prints_no_zero_error_bar(capsys):
    fake = pathlib.Path(__file__).parent / "fake_engines" / "hasher.py"
    code = main(["--game", "tictactoe", "--games", "2", "--nodes", "1",
                 "--engine", f"cmd='{sys.executable} {fake} 1' name=a",
                 "--engine", f"cmd='{sys.executable} {fake} 2' name=b"])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "± 0" not in text and "± ?" in text
    assert "over 1 pairs" in text and "too few pairs for an error bar" in text


def test_a_clean_sweep_gives_a_finite_bound_never_inf():
    # Every game won: no finite estimate; the 95% interval's lower end is exact,
    # s >= 0.025^(1/N) (4 of 4: -72.1 Elo, 20 of 20: +277.4).
    for est, text in ((trinomial(4, 0, 0), ">= -72.1"), (trinomial(20, 0, 0), ">= +277.4"),
                      (trinomial(0, 0, 3), "<= +153.5"), (pentanomial([0, 0, 0, 0, 2]), ">= -290.5")):
        assert str(est) == text and "inf" not in str(est), est
        assert "no finite Elo" in est.unknown_error("games")
    assert trinomial(4, 0, 0).low == pytest.approx(elo(0.025 ** 0.25))
    # The bound holds: a player scoring just below it sweeps 20 games at most 2.5% of the time.
    s = expected_score(trinomial(20, 0, 0).low)
    assert s ** 20 == pytest.approx(0.025)
    # An interval that reaches a score of 100% shows its finite end too.
    est = trinomial(9, 0, 1)
    assert str(est).startswith("+381.7 ± inf (>= +") and "100%" in est.unknown_error("games")


def test_forfeits_stand_beside_the_score(tmp_path, capsys):
    fakes = pathlib.Path(__file__).parent / "fake_engines"
    random_engine = pathlib.Path(__file__).parents[1] / "scripts" / "random_engine.py"
    records = str(tmp_path / "nim.rec")
    common = ["--game", "nim", "--depth", "1", "--records", records,
              "--engine", f"cmd='{sys.executable} {random_engine}' name=good"]
    code = main([*common, "--games", "4", "--engine", f"cmd='{sys.executable} {fakes / 'illegal.py'}' name=cheat"])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "good: +4 =0 -0 (forfeits +4 -0), 100.0%, Elo >= -72.1" in text
    assert "of these by forfeit: wins 4 (cheat: illegal move 4), losses 0; played out: +0 =0 -0" in text
    assert "(all 4 games won: no finite Elo, shown is the lower end of its 95% interval)" in text
    assert "inf" not in text
    # Forfeits read back by --resume are counted by cause as well.
    code = main([*common, "--games", "6", "--resume",
                 "--engine", f"cmd='{sys.executable} {fakes / 'crasher.py'}' name=cheat"])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "wins 6 (cheat: illegal move 4, crash 2), losses 0" in text
