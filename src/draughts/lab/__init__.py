"""The variant laboratory (issue 26): what rules do to the game, measured from seeded self-play.

Games are independent jobs whose seed derives from ``(seed, ruleset, game index)``, so a run
gives the same figures whatever executor and number of workers play them.
"""

from draughts.lab.runner import GameRecord, game_seed, play_game, run_lab, summarize

__all__ = ["GameRecord", "game_seed", "play_game", "run_lab", "summarize"]
