"""Shared test set-up: the reference data copied into tests/data, and the hypothesis profile."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings

DATA = Path(__file__).parent / "data"

# Generated positions can be slow to build on a loaded machine; that is not a failure, so neither
# the health check nor hypothesis's per-example deadline (wall-clock time: a run beside other
# work once failed tests/rules/test_rulesfile.py's round trip with DeadlineExceeded) applies. Under
# CI the examples are derandomized (a fixed seed per test), so a run is reproducible; locally every
# run explores new examples.
settings.register_profile(
    "polydraughts",
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    deadline=None,
    derandomize=bool(os.environ.get("CI")),
)
settings.load_profile("polydraughts")


def load_json(name: str) -> Any:
    """A JSON file from tests/data."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))
