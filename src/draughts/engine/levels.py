"""Named playing strengths."""

from __future__ import annotations

import types
from collections.abc import Mapping

import attrs

from draughts._text import excerpt
from draughts.engine.engine import Engine
from draughts.engine.limits import Limit
from draughts.engine.weights import MATERIAL_ONLY, Weights
from draughts.errors import UnknownLevelError

__all__ = ["LEVELS", "Level", "get_level"]

# --- levels -------------------------------------------------------------------------------------


@attrs.frozen
class Level:
    """A named playing strength: a search limit, a randomness margin and evaluation weights.

    Attributes:
        name: The level's name.
        limit: How far it searches.
        margin: Root moves within this many hundredths of a man of the best are chosen at random.
        weights: The evaluation it uses.
        description: In words.
    """

    name: str
    limit: Limit
    margin: int
    weights: Weights
    description: str = ""

    def engine(self, seed: int | None = 0) -> Engine:
        """An :class:`~draughts.engine.Engine` playing at this level."""
        return Engine(seed=seed, weights=self.weights, margin=self.margin, limit=self.limit)


LEVELS: Mapping[str, Level] = types.MappingProxyType(
    {
        "beginner": Level(
            "beginner",
            Limit(depth=1),
            margin=60,
            weights=MATERIAL_ONLY,
            description="one ply plus captures, material only, picks among moves up to 0.6 men worse",
        ),
        "intermediate": Level(
            "intermediate",
            Limit(depth=3, nodes=20_000),
            margin=10,
            weights=Weights(),
            description="three plies plus captures, full evaluation, small randomness",
        ),
        "strong": Level(
            "strong",
            Limit(depth=7, nodes=40_000),
            margin=0,
            weights=Weights(),
            description="up to seven plies (40,000 nodes) plus captures, full evaluation",
        ),
    }
)
"""The named levels, weakest first."""


def get_level(name: str) -> Level:
    """The level called ``name`` (case-insensitive).

    Raises:
        draughts.errors.UnknownLevelError: no level has that name; the message lists them.
    """
    level = LEVELS.get(name.strip().lower()) if isinstance(name, str) else None
    if level is None:
        raise UnknownLevelError(f"unknown level {excerpt(name)}; levels: {', '.join(LEVELS)}")
    return level
