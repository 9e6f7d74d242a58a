"""Elo with its 95% interval, and the SPRT."""

from __future__ import annotations

import math

import pytest

from draughts.errors import DraughtsError
from draughts.match.elo import SPRT, elo_estimate, elo_of, score_of


def test_elo_of_known_scores() -> None:
    assert elo_of(0.5) == 0.0
    assert elo_of(0.75) == pytest.approx(190.85, abs=0.01)  # -400 log10(1/3)
    assert score_of(elo_of(0.64)) == pytest.approx(0.64)


def test_interval_contains_the_estimate_and_shrinks_with_games() -> None:
    small = elo_estimate(6, 8, 6)
    big = elo_estimate(60, 80, 60)
    assert small.elo == big.elo == 0.0
    assert small.low < big.low < 0 < big.high < small.high
    # 20 games, all draws but one win: score 0.525, sd of mean = sqrt(var/n)
    one = elo_estimate(1, 19, 0)
    var = (1 * (1 - 0.525) ** 2 + 19 * 0.025**2) / 20
    slope = 400 / (math.log(10) * 0.525 * 0.475)  # d elo / d score at 0.525
    assert one.high == pytest.approx(elo_of(0.525) + 1.959964 * math.sqrt(var / 20) * slope, abs=1e-3)
    assert one.high - one.elo == pytest.approx(one.elo - one.low)
    assert "95%" in str(one)


def test_near_perfect_scores_have_finite_ends_and_perfect_ones_a_bound() -> None:
    near = elo_estimate(19, 0, 1)
    assert math.isfinite(near.low)
    assert math.isfinite(near.high)
    assert near.low < near.elo < near.high
    perfect = elo_estimate(20, 0, 0)
    assert perfect.elo == math.inf
    assert score_of(perfect.low) ** 20 == pytest.approx(0.025)  # twenty straight wins: 2.5% at that strength
    assert str(perfect).startswith(f"at least +{perfect.low:.1f} Elo (95% lower bound")
    assert "inf" not in str(perfect)
    zero = elo_estimate(0, 0, 20)
    assert zero.high == -perfect.low
    assert str(zero).startswith(f"at most {zero.high:+.1f} Elo (95% upper bound")
    assert "inf" not in str(zero)
    drawn = elo_estimate(0, 20, 0)  # no spread: the exact bound of the share of decisive games
    assert drawn.elo == 0
    assert drawn.low == -drawn.high
    q = 2 * (score_of(drawn.high) - 0.5)  # every decisive game a win at the top end
    assert (1 - q) ** 20 == pytest.approx(0.025)
    assert str(elo_estimate(0, 4, 0)) == "+0.0 Elo (95%: -242.1 .. +242.1, 4 games)"
    assert elo_estimate(0, 40, 0).high < drawn.high  # more draws, a narrower interval


def test_bad_counts_raise() -> None:
    with pytest.raises(DraughtsError, match="no games"):
        elo_estimate(0, 0, 0)
    with pytest.raises(DraughtsError, match="negative"):
        elo_estimate(-1, 0, 3)


def test_sprt_decides_both_ways() -> None:
    test = SPRT(0, 50)
    assert test.decision(3, 2, 3) is None
    assert test.decision(300, 100, 100) == "H1"
    assert test.decision(100, 100, 300) == "H0"
    lower, upper = test.bounds()
    assert lower == pytest.approx(math.log(0.05 / 0.95))
    assert upper == -lower
