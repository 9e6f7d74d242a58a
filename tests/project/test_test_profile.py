"""The tests' own set-up does not depend on the machine's load (issue 23 §17)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings


def test_hypothesis_examples_have_no_wall_clock_deadline() -> None:
    """A property test beside other work once failed with DeadlineExceeded (a 200 ms wall-clock limit)."""
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
