"""The variant laboratory (issue 26): what rules do to the game, measured from seeded self-play.

Games are independent jobs whose seeds derive from ``(seed, ruleset, game index)``, so a run
gives the same figures whatever executor and number of workers play them. :func:`run_lab` plays
and measures; its result per ruleset is a :class:`RulesetMetrics` (attrs, frozen), every metric
with its formula in :mod:`draughts.lab.metrics` and its 95% interval (:mod:`draughts.lab.stats`).
"""

from draughts.lab.metrics import GameRecord, RulesetMetrics, measure
from draughts.lab.runner import (
    GameTask,
    Opening,
    game_seed,
    lab_tasks,
    play_game,
    play_task,
    run_games,
    run_lab,
    summarize,
)
from draughts.lab.stats import Estimate

__all__ = [
    "Estimate",
    "GameRecord",
    "GameTask",
    "Opening",
    "RulesetMetrics",
    "game_seed",
    "lab_tasks",
    "measure",
    "play_game",
    "play_task",
    "run_games",
    "run_lab",
    "summarize",
]
