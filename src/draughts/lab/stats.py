"""Estimates with 95% intervals for the lab's metrics: Wilson for shares of games, normal for means,
the delta method for pooled ratios (games are the independent units, not positions)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

__all__ = ["POSITIVE", "SHARE", "Z95", "Estimate", "mean_interval", "ratio_interval", "two_proportion_p", "wilson"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""
SHARE = (0.0, 1.0)
"""The bounds of a share."""
POSITIVE = (0.0, math.inf)
"""The bounds of a count, a length or a ratio of counts (never below 0)."""


@attrs.frozen
class Estimate:
    """A measured value with its 95% interval.

    Attributes:
        value: The point estimate.
        low: The interval's lower end.
        high: The interval's upper end.
        n: How many independent units (games) it rests on.
    """

    value: float
    low: float
    high: float
    n: int

    def to_dict(self) -> dict[str, float | int]:
        """The estimate as JSON-able numbers."""
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}


def wilson(successes: int, n: int, z: float = Z95) -> Estimate:
    """The share ``successes / n`` with its Wilson score interval.

    ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``: unlike the normal interval it stays
    inside [0, 1] and is not empty at ``p = 0`` or ``p = 1``.
    """
    if n <= 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends, not 1e-19 of rounding
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Estimate(p, low, high, n)


def mean_interval(values: Sequence[float], z: float = Z95, *, bounds: tuple[float, float] | None = None) -> Estimate:
    """The mean of ``values`` with its normal interval ``mean ± z·s/sqrt(n)`` (``s`` the sample
    standard deviation), clipped to ``bounds`` if given; a single value has a zero-width interval."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(values) / n
    spread = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = z * spread / math.sqrt(n)
    low, high = mean - half, mean + half
    if bounds is not None:
        low, high = max(bounds[0], low), min(bounds[1], high)
    return Estimate(mean, low, high, n)


def ratio_interval(
    numerators: Sequence[float],
    denominators: Sequence[float],
    z: float = Z95,
    *,
    bounds: tuple[float, float] | None = None,
) -> Estimate:
    """The pooled ratio ``R = Σyᵢ / Σxᵢ`` over games ``i`` with its delta-method interval.

    The positions of one game are not independent, so the variance is taken over games:
    ``Var(R) ≈ n/(n-1) · Σ(yᵢ - R·xᵢ)² / (Σxᵢ)²`` (the cluster-robust ratio estimator),
    clipped to ``bounds`` if given (a share stays in [0, 1]).
    """
    n = len(numerators)
    total = math.fsum(denominators)
    if n == 0 or total == 0:
        return Estimate(math.nan, math.nan, math.nan, n)
    ratio = math.fsum(numerators) / total
    if n == 1:
        return Estimate(ratio, ratio, ratio, 1)
    residuals = math.fsum((y - ratio * x) ** 2 for y, x in zip(numerators, denominators, strict=True))
    half = z * math.sqrt(n / (n - 1) * residuals) / total
    low, high = ratio - half, ratio + half
    if bounds is not None:
        low, high = max(bounds[0], low), min(bounds[1], high)
    return Estimate(ratio, low, high, n)


def two_proportion_p(successes_a: int, n_a: int, successes_b: int, n_b: int) -> float:
    """The two-sided p-value of the pooled two-proportion z-test of ``a`` against ``b``.

    ``z = (p_a - p_b) / sqrt(p(1-p)(1/n_a + 1/n_b))`` with ``p`` the pooled share; 1.0 when
    either sample is empty or the pooled share is 0 or 1 (no evidence of a difference).
    """
    if n_a == 0 or n_b == 0:
        return 1.0
    pooled = (successes_a + successes_b) / (n_a + n_b)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if spread == 0:
        return 1.0
    z = (successes_a / n_a - successes_b / n_b) / spread
    return math.erfc(abs(z) / math.sqrt(2))
