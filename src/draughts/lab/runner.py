"""Seeded random self-play games as independent jobs, and the pooled per-ruleset metrics."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from concurrent.futures import Executor

import attrs

from draughts.board import Board
from draughts.errors import DraughtsError
from draughts.variants import get_variant


@attrs.frozen
class GameRecord:
    """What one game left to measure.

    Attributes:
        index: The game's index in its ruleset's run.
        plies: Plies played (a capped game counts at the cap).
        score: The first player's score (win 1, draw 0.5, loss 0).
        ending: How it ended: the outcome's rule in words, or ``"ply cap"``.
        moves_total: Legal moves summed over every position whose side to move has a move.
        positions: Positions whose side to move has a move.
        decisions: Those positions with more than one legal move.
        captures: Plies that were captures.
    """

    index: int
    plies: int
    score: float
    ending: str
    moves_total: int
    positions: int
    decisions: int
    captures: int


def game_seed(seed: int, ruleset: str, index: int) -> int:
    """The seed of one game, from the run's seed, the ruleset's name and the game's index.

    A hash, not a shared generator, so that a game's moves do not depend on which worker plays
    it or in what order.
    """
    digest = hashlib.sha256(f"{seed}/{ruleset}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def play_game(ruleset: str, index: int, seed: int, max_plies: int) -> GameRecord:
    """Play one game between two random players (uniform among the legal moves, one per FMJD identity)."""
    board = Board(get_variant(ruleset))
    first = board.turn
    choose = random.Random(game_seed(seed, ruleset, index))
    moves_total = positions = decisions = captures = 0
    score, ending = 0.5, "ply cap"
    while board.ply() < max_plies:
        outcome = board.outcome()
        if outcome is not None:
            score = 0.5 if outcome.winner is None else float(outcome.winner is first)
            ending = outcome.rule
            break
        moves = list(board.legal_moves())
        moves_total += len(moves)
        positions += 1
        decisions += len(moves) > 1
        move = moves[choose.randrange(len(moves))]
        captures += bool(move.captured)
        board.push(move)
    return GameRecord(index, board.ply(), score, ending, moves_total, positions, decisions, captures)


def _job(args: tuple[str, int, int, int]) -> GameRecord:
    return play_game(*args)


def summarize(records: Sequence[GameRecord]) -> dict[str, float]:
    """The contract's pooled metrics of one ruleset's games."""
    if not records:
        raise DraughtsError("no games to summarize: play at least one game")
    games = len(records)
    positions = sum(r.positions for r in records) or 1
    plies = sum(r.plies for r in records) or 1
    return {
        "games": games,
        "first_player_score": sum(r.score for r in records) / games,
        "draw_rate": sum(r.score == 0.5 for r in records) / games,
        "plies_mean": sum(r.plies for r in records) / games,
        "branching_factor": sum(r.moves_total for r in records) / positions,
        "capture_share": sum(r.captures for r in records) / plies,
        "decision_share": sum(r.decisions for r in records) / positions,
    }


def run_lab(
    rulesets: Sequence[str], games: int, *, seed: int = 0, max_plies: int = 300, executor: Executor | None = None
) -> dict[str, dict[str, float]]:
    """Play ``games`` random games per ruleset (over ``executor`` if given) and summarize each ruleset."""
    if games < 1:
        raise DraughtsError(f"games {games!r} must be at least 1")
    for name in rulesets:
        get_variant(name)
    jobs = [(name, index, seed, max_plies) for name in rulesets for index in range(games)]
    results = list(executor.map(_job, jobs) if executor is not None else map(_job, jobs))
    return {
        name: summarize(
            sorted((r for (n, *_), r in zip(jobs, results, strict=True) if n == name), key=lambda r: r.index)
        )
        for name in rulesets
    }
