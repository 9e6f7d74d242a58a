"""A lab's games as data: where a game starts (:class:`Opening`), one game to play
(:class:`GameTask`), its seeds, its start board, the order its players move in, and its ending in
words. Both ways of playing a task (the Python loop in :mod:`draughts.lab.runner` and the native
batches in :mod:`draughts.lab.native`) read these, so they live below both.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import attrs

from draughts import drawrules
from draughts.board import Board, Outcome
from draughts.lab.metrics import GameRecord
from draughts.rules import EndgameRule, MoveCountRule, Ruleset
from draughts.rules.names import get_variant

__all__ = ["GameTask", "Opening", "ending_words", "game_seed", "play_order", "start_board", "task_record"]


@attrs.frozen
class GameTask:
    """One game: the ruleset, its index, the run's seed, the ply cap, the two players (first named
    first), and the opening with its index (None: the start position)."""

    ruleset: str
    index: int
    seed: int
    max_plies: int
    players: tuple[str, str] = ("random", "random")
    opening: Opening | None = None
    opening_index: int | None = None
    rules: Ruleset | None = None
    """The ruleset itself where its name is not enough (read from a rule file, or built in code);
    None: ``ruleset`` names it."""

    def resolved(self) -> Ruleset:
        """The ruleset the game is played under."""
        return get_variant(self.ruleset) if self.rules is None else self.rules


@attrs.frozen
class Opening:
    """Where a game starts: moves played from the start position, or a FEN, or both (moves after it).

    Attributes:
        moves: Moves in the ruleset's notation, played first (not counted as the players' plies).
        fen: A position to start from instead of the start position.
        name: What the ballot calls it.
    """

    moves: tuple[str, ...] = ()
    fen: str | None = None
    name: str = ""


def game_seed(seed: int, ruleset: str, index: int, slot: int | None = None) -> int:
    """The seed of one game (or of its player ``slot`` 0 or 1), from the run's seed, the ruleset's
    name and the game's index.

    A hash, not a shared generator, so that a game's moves do not depend on which worker plays
    it or in what order.
    """
    text = f"{seed}/{ruleset}/{index}" if slot is None else f"{seed}/{ruleset}/{index}/{slot}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def start_board(task: GameTask) -> Board:
    """The board ``task``'s game starts from: its opening's FEN, then its moves played (each checked)."""
    opening = task.opening
    rules = task.resolved()
    if opening is None:
        return Board(rules)
    board = Board(rules, opening.fen) if opening.fen else Board(rules)
    for text in opening.moves:
        board.push_text(text)
    return board


def play_order(task: GameTask) -> tuple[str, str]:
    """The players in the order they move: the first named first in even games."""
    return task.players if task.index % 2 == 0 else (task.players[1], task.players[0])


def ending_words(outcome: Outcome, board: Board) -> str:
    """How the game on ``board`` ended, in plain words: a draw rule as ``draw: <the rule in words> (<article>)``.

    :attr:`Outcome.rule <draughts.board.Outcome.rule>` gives a draw rule by its article alone where
    the ruleset has one (``RUS64 7.2.8``), which tells a reader of a lab's table nothing unless
    they have the rule book open (issue 40 §7); the words are the rule's ``describe()``, as
    ``draughts compare`` writes them, the article (its code, before any ``:``) after them.
    """
    if outcome.winner is not None:
        return outcome.rule
    draws = board.ruleset.draw_rules
    rules: list[EndgameRule | MoveCountRule] = [e for e in draws.endgames if drawrules.applies(e, board.position)]
    for rule in [*rules, *draws.move_counts]:
        if rule.article and rule.article == outcome.rule:
            return f"draw: {rule.describe()} ({rule.article.partition(': ')[0]})"
    return f"draw: {outcome.rule}"


def task_record(
    task: GameTask,
    rules: Ruleset,
    moves: Sequence[int],
    taken: Sequence[int],
    legal: Sequence[int],
    evals: Sequence[int | None],
    crowning: int | None,
    coverage: int,
    winner: int | None,
    ending: str,
) -> GameRecord:
    """The record of ``task``'s game from what a loop gathered ply by ply (the Python loop and the
    native batches build their records here, so the two cannot drift apart)."""
    return GameRecord(
        ruleset=task.ruleset,
        index=task.index,
        players=play_order(task),
        opening=task.opening_index,
        plies=len(moves),
        winner=winner,
        ending=ending,
        legal=tuple(legal),
        taken=tuple(taken),
        crowning=crowning,
        evals=tuple(evals),
        coverage=coverage,
        squares=rules.geometry.squares,
        moves=tuple(moves),
    )
