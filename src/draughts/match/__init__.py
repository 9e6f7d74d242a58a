"""Matches between engines: :func:`run_match` (parallel games, forfeits, resume), Elo with its 95%
interval and an SPRT (``draughts.match.elo``).

>>> from draughts.match import elo_estimate
>>> print(elo_estimate(12, 6, 2))
+190.8 Elo (95%: +54.7 .. +327.0, 20 games)
"""

from __future__ import annotations

from draughts.match.elo import SPRT, EloEstimate, elo_estimate, elo_of, score_of
from draughts.match.runner import Adjudication, EngineSpec, GameTask, MatchResult, play_task, run_match

__all__ = [
    "SPRT",
    "Adjudication",
    "EloEstimate",
    "EngineSpec",
    "GameTask",
    "MatchResult",
    "elo_estimate",
    "elo_of",
    "play_task",
    "run_match",
    "score_of",
]
