"""Batches of native games (issue 38 §3's speed): a batch gives each game the record the Python
loop gives, across rulesets, players, openings and every kind of end; a lab run makes one native
call per batch, not one per game; Ctrl-C stops a batch."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

import pytest

import draughts.lab.native as native
from draughts.lab.runner import (
    BATCH,
    GameTask,
    Opening,
    RandomOpenings,
    lab_tasks,
    play_task_python,
    play_tasks,
    run_games,
)
from interrupt import assert_stops_on_ctrl_c
from native_players import PAIRS, RULESETS


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_batch_gives_each_game_the_python_loops_record(ruleset: str) -> None:
    """Games of every player pair, both colours, from the start and from openings, played in one
    batch (the engines' tables reused from game to game): each record equals the Python loop's."""
    opening = RandomOpenings(2, 1, seed=5).openings(ruleset)[0]
    tasks = [
        GameTask(ruleset, index, 11, 120, players, start, None if start is None else 0)
        for players in PAIRS
        for index, start in ((0, None), (1, None), (2, opening), (3, opening))
    ]
    records = native.play_tasks_native(tasks)
    assert records == [play_task_python(task) for task in tasks]
    assert all(record.plies > 0 for record in records)


def test_a_batch_ends_by_every_kind_of_end_and_mixes_rulesets() -> None:
    endgames = [
        ("russian", "W:WK1:BK32", ("random", "random")),
        ("international", "W:WK1:BK50", ("random", "random")),
        ("frisian", "W:WK1,K3:BK50", ("depth:2", "depth:3")),
        ("thai", "W:WK1,K3:BK32", ("depth:2", "depth:3")),
        ("american", "W:WK1,K3:BK32,K30", ("depth:2", "depth:3")),
    ]
    tasks = [
        GameTask(ruleset, index, 1, 300, players, Opening(fen=fen), 0)
        for index in range(4)
        for ruleset, fen, players in endgames
    ]
    records = play_tasks(tasks)
    assert records == [play_task_python(task) for task in tasks]
    assert len({record.ending for record in records}) >= 4


def counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of games of each native batch call, as the lab makes them."""
    from draughts._native import play_games as real

    calls: list[int] = []

    def play_games(rules: Any, games: Any, repetitions: bool) -> Any:
        calls.append(len(games))
        return real(rules, games, repetitions)

    monkeypatch.setattr(native, "play_games", play_games)
    return calls


def test_an_in_process_run_plays_its_games_in_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """70 games: three native calls (32, 32, 6), not 70; the same records as one at a time."""
    calls = counting(monkeypatch)
    tasks = lab_tasks(["russian"], 70, players=["depth:1", "random"], max_plies=60)
    records = run_games(tasks)
    assert calls == [BATCH, BATCH, 70 - 2 * BATCH]
    assert records == [play_task_python(task) for task in tasks]


class Inline(Executor):
    """An executor that runs each job at once and counts them."""

    def __init__(self) -> None:
        self.jobs = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.jobs += 1
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def test_an_executor_gets_batches_of_games_but_enough_jobs_to_share() -> None:
    tasks = lab_tasks(["russian"], 200, players=["random"], max_plies=30)
    executor = Inline()
    records = run_games(tasks, executor=executor)
    assert executor.jobs == 67  # batches of 200 // 64 = 3 games
    assert records == run_games(tasks)
    few = Inline()
    run_games(tasks[:20], executor=few)
    assert few.jobs == 20  # a short run keeps one game a job, for the workers to share


@pytest.mark.timeout(60)
def test_a_batch_stops_on_ctrl_c() -> None:
    tasks = [GameTask("international", index, 1, 300, ("depth:64", "depth:64")) for index in range(4)]
    assert_stops_on_ctrl_c(lambda: native.play_tasks_native(tasks))


def test_random_openings_play_each_position_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """100 openings of 4 plies: every move played once per position it leads to (the tree has
    fewer positions than the lines drawn pass through), the lines as each was drawn."""
    from draughts.board import Board

    pushes = []
    real = Board.push

    def push(self: Board, move: Any) -> None:
        pushes.append(move)
        real(self, move)

    monkeypatch.setattr(Board, "push", push)
    openings = RandomOpenings(4, 100, seed=2).openings("russian")
    assert len(openings) == 100
    assert len(pushes) < 4 * 100  # each line of 4 plies replayed would be 400 at least
    monkeypatch.setattr(Board, "push", real)
    for opening in openings:  # each a legal line
        board = Board("russian")
        for text in opening.moves:
            board.push_text(text)


def test_the_branching_curves_are_the_per_position_means() -> None:
    from draughts.lab.metrics import measure

    records = run_games(lab_tasks(["russian"], 12, players=["random"], max_plies=80))
    figures = measure(records).to_dict()
    longest = max(len(r.legal) for r in records)
    games = [sum(len(r.legal) > i for r in records) for i in range(longest)]
    assert list(figures["curve_games"]) == games
    assert list(figures["branching_curve"]) == [
        sum(r.legal[i] for r in records if len(r.legal) > i) / k for i, k in enumerate(games)
    ]
    assert list(figures["decision_curve"]) == [
        sum(r.legal[i] > 1 for r in records if len(r.legal) > i) / k for i, k in enumerate(games)
    ]
