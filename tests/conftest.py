"""Shared test fixtures: the reference data copied into tests/data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"


def load_json(name: str) -> Any:
    """A JSON file from tests/data."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))
