"""Lab and match games played natively between native players (issue 38 §3).

A game between two players the native core can play (``random``, ``depth:N``, ``nodes:N``,
``time:S``, ``level:NAME``) is one call of ``draughts._native.play_game``: the loop, the move
generation, the draw rules and the engine's root and recursion run without the GIL, and the call
returns what the lab records of each ply and how the game ended. It is the loop of
:func:`draughts.lab.runner.play_task_python` move for move, with the same players: the random
mover draws from :class:`draughts._native.Rng`, as :class:`~draughts.players.RandomPlayer` does,
and the engine runs the root :meth:`Engine.search <draughts.engine.Engine.search>` runs
(``native/core/src/root.rs``) with its tie-breaks from the same generator; so a seeded game is
the same game on both paths (``tests/lab/test_lab_native.py`` compares them). Other players (Hub
engines, DXP followers, books, your own) are played by the Python loop.

A lab plays its games in batches (:func:`play_tasks_native`): one call of
``draughts._native.play_games`` plays a batch of games in turn, its engines' tables reused from
game to game, and gives each game back as a few lists of numbers, which become the records
directly. A batch makes each player's native seat once and each opening's start once, so a game
costs the lab little beyond its search (issue 38 §3: the per-game Python work and the tables
allocated afresh were most of a depth-2 game's time).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from draughts._core.native import native_rules
from draughts._native import Evaluation, play_game, play_games
from draughts.board import Board, Outcome, draw_outcome
from draughts.color import Color
from draughts.engine.limits import Limit
from draughts.engine.root import evaluation_of
from draughts.engine.score import Score
from draughts.errors import PlayerSpecError
from draughts.lab.metrics import CAP, GameRecord
from draughts.lab.tasks import GameTask, Opening, ending_words, game_seed, play_order, start_board, task_record
from draughts.players.spec import ENGINE_KINDS, parse_player
from draughts.position import Position
from draughts.rules import Ruleset

__all__ = [
    "NATIVE_KINDS",
    "NativeGame",
    "is_native",
    "native_seat",
    "play_native",
    "play_tasks_native",
    "search_value",
]

NATIVE_KINDS = frozenset({"random", *ENGINE_KINDS})
"""The kinds of player the native game loop plays."""

_Seat = tuple[int, tuple[int | None, int | None, float | None, int, Evaluation, int] | None]


def is_native(players: Sequence[str]) -> bool:
    """Whether every player of ``players`` is one the native loop plays."""
    return all(_native_kind(text) for text in players)


@lru_cache(maxsize=256)
def _native_kind(text: str) -> bool:
    try:
        return parse_player(text).kind in NATIVE_KINDS
    except PlayerSpecError:
        return False


def native_seat(text: str, ruleset: Ruleset, seed: int, limit: Limit | None = None) -> _Seat:
    """The native loop's seat of player ``text`` seeded with ``seed``, its engine's limit's parts
    replaced by those ``limit`` sets (as :func:`~draughts.players.factory.make_player` makes the
    Python player).

    Raises:
        ~draughts.errors.PlayerSpecError: the player is not one the native loop plays.
    """
    spec = parse_player(text)
    if spec.kind == "random":
        return (seed, None)
    if spec.kind not in ENGINE_KINDS:
        raise PlayerSpecError(f"player {spec.text!r} is not played natively")
    engine = spec.engine(seed, limit)
    limit = engine.limit
    evaluation = evaluation_of(ruleset, engine.weights)
    return (seed, (limit.depth, limit.nodes, limit.time, engine.margin, evaluation, engine.hash_size))


class NativeGame:
    """One game played by the native loop from ``board`` (not changed): its plies, the legal-move
    counts the loop read, and its outcome (None at the ply cap).

    Attributes:
        moves: Each ply's move index among the legal moves (public order).
        taken: Pieces each ply captured.
        promotes: Whether each ply crowned a man.
        ends: Each ply's end square.
        scores: Each ply's engine score (the engine's integer form, for the mover), None for a random move.
        legal: The legal-move counts.
        outcome: How the game ended, None at the ply cap.
        last: The last position.
    """

    def __init__(self, board: Board, seats: tuple[_Seat, _Seat], first: Color, max_plies: int) -> None:
        rules = board.ruleset
        history = [p.node for p in board.positions()[:-1]]
        plies, self.legal, (kind, index), last = play_game(
            native_rules(rules),
            board.position.node,
            history,
            board.draw_counter(),
            seats,
            int(first),
            max_plies,
            rules.draw_rules.repetitions is not None,
        )
        self.moves = [p[0] for p in plies]
        self.taken = [p[1] for p in plies]
        self.promotes = [p[2] for p in plies]
        self.ends = [p[3] for p in plies]
        self.scores = [p[4] for p in plies]
        own, opp, kings, color, state = last
        white, black = (own, opp) if color == 0 else (opp, own)
        self.last = Position.from_bitboards(rules, white, black, kings, Color(color), state)
        self.outcome = _outcome(rules, self.last, kind, index)


def _outcome(rules: Ruleset, last: Position, kind: str, index: int) -> Outcome | None:
    """The outcome the native loop's end ``(kind, index)`` is, as :meth:`Board.outcome` says it."""
    if kind == "cap":
        return None
    if kind == "no move":
        return Board.from_position(last).outcome()
    return draw_outcome(rules, kind, index)


def play_native(
    board: Board,
    players: tuple[str, str],
    seeds: tuple[int, int],
    max_plies: int,
    *,
    first: Color | None = None,
    limit: Limit | None = None,
) -> NativeGame:
    """Play ``players`` from ``board`` natively, at most ``max_plies`` plies: the first plays
    colour ``first`` (default: the ruleset's first to move), each engine's limit overridden by
    ``limit``'s parts where given.

    Raises:
        ~draughts.errors.PlayerSpecError: a player the native loop does not play.
    """
    rules = board.ruleset
    seats = (native_seat(players[0], rules, seeds[0], limit), native_seat(players[1], rules, seeds[1], limit))
    return NativeGame(board, seats, rules.first_to_move if first is None else first, max_plies)


def search_value(score: int | None) -> int | None:
    """A native score as the Python loop records it (``Score.from_search(score).to_search()``)."""
    return None if score is None else Score.from_search(score).to_search()


class _Batch:
    """What the games of one ruleset in a batch share: the ruleset, its native rules, each
    player's seat (all but its seed) and each opening's start."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.native = native_rules(rules)
        self.repetitions = rules.draw_rules.repetitions is not None
        self.seats: dict[str, Any] = {}
        self.starts: dict[tuple[int | None, Opening | None], tuple[Any, list[Any], Any, Color, set[int]]] = {}

    def seat(self, text: str, seed: int) -> _Seat:
        """Player ``text``'s native seat seeded with ``seed`` (its engine made once a batch)."""
        if text not in self.seats:
            self.seats[text] = native_seat(text, self.rules, 0)[1]
        return (seed, self.seats[text])

    def start(self, task: GameTask) -> tuple[Any, list[Any], Any, Color, set[int]]:
        """Where ``task``'s game starts: the node, the nodes before it, the draw counter, the side
        to move and the squares pieces stand on."""
        key = (task.opening_index, task.opening)
        if key not in self.starts:
            board = start_board(task)
            position = board.position
            squares = {*position.squares(Color.WHITE), *position.squares(Color.BLACK)}
            history = [p.node for p in board.positions()[:-1]]
            self.starts[key] = (position.node, history, board.draw_counter(), board.turn, squares)
        return self.starts[key]


def play_tasks_native(tasks: Sequence[GameTask]) -> list[GameRecord]:
    """The records of ``tasks`` (each between players the native loop plays), each the record
    :func:`~draughts.lab.runner.play_task_native` gives, played in one native call per ruleset.

    Raises:
        ~draughts.errors.PlayerSpecError: a player the native loop does not play.
    """
    batches: dict[str, _Batch] = {}
    groups: dict[str, list[int]] = {}
    jobs: dict[str, list[Any]] = {}
    for number, task in enumerate(tasks):
        key = task.ruleset if task.rules is None else f"{task.ruleset}\0{id(task.rules)}"
        if key not in batches:
            batches[key] = _Batch(task.resolved())
            groups[key], jobs[key] = [], []
        batch = batches[key]
        node, history, counter, _, _ = batch.start(task)
        order = play_order(task)
        seats = tuple(batch.seat(order[slot], game_seed(task.seed, task.ruleset, task.index, slot)) for slot in (0, 1))
        groups[key].append(number)
        jobs[key].append((node, history, counter, seats, int(batch.rules.first_to_move), task.max_plies))
    records: list[Any] = [None] * len(tasks)
    for key, batch in batches.items():
        played = play_games(batch.native, jobs[key], batch.repetitions)
        for number, game in zip(groups[key], played, strict=True):
            records[number] = _record(tasks[number], batch, game)
    return records


def _record(task: GameTask, batch: _Batch, game: Any) -> GameRecord:
    """The record of ``task``'s game as ``play_games`` gave it back."""
    moves, taken, legal, ends, evals, crowning, (kind, index), last = game
    rules = batch.rules
    _, _, _, _, squares = batch.start(task)
    winner = None
    ending = CAP
    if kind != "cap":
        own, opp, kings, color, state = last
        white, black = (own, opp) if color == 0 else (opp, own)
        board = Board.from_position(Position.from_bitboards(rules, white, black, kings, Color(color), state))
        outcome = board.outcome() if kind == "no move" else draw_outcome(rules, kind, index)
        if outcome is not None:
            winner = None if outcome.winner is None else int(outcome.winner is not rules.first_to_move)
            ending = ending_words(outcome, board)
    coverage = len(squares.union(ends))
    return task_record(task, rules, moves, taken, legal, evals, crowning, coverage, winner, ending)
