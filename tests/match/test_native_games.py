"""Match games between built-in players are played by the native loop (issue 38 §3): the same
moves, result and PDN as the Python loop, which keeps every game with a clock, a book, a Hub or
DXP engine, tablebases or adjudication."""

from __future__ import annotations

import pytest

from draughts.engine import Limit
from draughts.lab.runner import Opening
from draughts.match.runner import (
    Adjudication,
    EngineSpec,
    GameTask,
    TimeControl,
    _native,
    _play_python,
    _start,
    play_task,
)


@pytest.mark.parametrize("ruleset", ["russian", "international", "american", "frisian"])
def test_native_match_games_equal_the_python_loops(ruleset: str) -> None:
    for index in range(3):
        task = GameTask(index, EngineSpec("depth:2"), EngineSpec("level:beginner"), ruleset, max_plies=160)
        assert _native(task)
        native = play_task(task)
        assert native == _play_python(task, _start(task))
        assert native["plies"] > 0


def test_the_match_limit_and_an_opening_are_kept_natively() -> None:
    task = GameTask(
        1, EngineSpec("level:strong"), EngineSpec("random"), "russian", Opening(("c3-d4", "f6-g5")), Limit(depth=2), 90
    )
    assert _native(task)
    assert play_task(task) == _play_python(task, _start(task))


def test_clocks_adjudication_and_parameters_stay_in_python() -> None:
    plain = GameTask(0, EngineSpec("depth:1"), EngineSpec("random"), "russian")
    assert _native(plain)
    assert not _native(GameTask(0, EngineSpec("depth:1"), EngineSpec("random"), "russian", clock=TimeControl(60)))
    adjudicated = GameTask(0, EngineSpec("depth:1"), EngineSpec("random"), "russian", adjudication=Adjudication(3))
    assert not _native(adjudicated)
    assert not _native(GameTask(0, EngineSpec("depth:1"), EngineSpec("hub:scan hub"), "russian"))
