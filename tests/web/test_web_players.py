"""The web board's computer is a player like every command's (issue 39 §2): made by
:func:`~draughts.players.factory.make_player` from its text, asked with :meth:`Player.choose`, its
search stopped by the job's signal. The work functions are called in this process, as a worker would."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

import draughts
from draughts.board import Board
from draughts.players import Clock, EnginePlayer
from draughts.players.base import Choice
from draughts.web import tasks
from draughts.web.sessions import GameSession

FEN = "W:Wd4,h4,c3,b2:Bf6,h6"
"""Russian, White to move: d4-e5 wins in 5 plies (the API test's position)."""


@pytest.fixture
def choices(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, Choice]]:
    """Every move an engine player chooses in this test: its name, the FEN it moved from, its choice."""
    seen: list[tuple[str, str, Choice]] = []
    choose = EnginePlayer.choose

    def spy(self: EnginePlayer, board: Board, clock: Clock | None = None) -> Choice:
        fen = board.fen()
        choice = choose(self, board, clock)
        seen.append((self.name, fen, choice))
        return choice

    monkeypatch.setattr(EnginePlayer, "choose", spy)
    return seen


def _stop(monkeypatch: pytest.MonkeyPatch, set_: bool) -> None:
    flag = threading.Event()
    if set_:
        flag.set()
    stop: Callable[[], threading.Event] = lambda: flag  # noqa: E731
    monkeypatch.setattr(tasks, "stop_requested", stop)


def test_the_engine_move_is_the_level_players_choice(choices: list[tuple[str, str, Choice]]) -> None:
    body = tasks.engine_move(draughts.get_variant("russian"), FEN, "strong", 5.0)
    ((name, fen, (move, score)),) = choices
    assert (name, fen) == ("level:strong", FEN)
    assert (body["move"]["start"], body["move"]["end"]) == (move.start, move.end) == (18, 15)
    assert score is not None
    assert body["mate_in"] == 5
    assert body["pv"].startswith("d4-e5 f6:d4")  # the board shows the player's search whole


def test_a_games_computer_move_is_the_players_choice(choices: list[tuple[str, str, Choice]]) -> None:
    session = GameSession("g", draughts.get_variant("russian"), FEN)
    state, info, _ = tasks.game_engine(session.snapshot(), "beginner", 1.0, (False, None))
    ((name, fen, (move, _)),) = choices
    assert (name, fen) == ("level:beginner", FEN)
    assert info["move"]["text"] == state["history"][0]["text"]
    assert (info["move"]["start"], info["move"]["end"]) == (move.start, move.end)


def test_a_finished_game_asks_the_player_and_answers_no_move(choices: list[tuple[str, str, Choice]]) -> None:
    body = tasks.engine_move(draughts.get_variant("russian"), "B:Wd4:B", "beginner", 1.0)
    assert body["move"] is None
    assert (body["depth"], body["nodes"]) == (0, 0)
    assert choices == []  # the player found no move: it raised, and no choice was made


def test_the_jobs_stop_signal_ends_the_players_search(monkeypatch: pytest.MonkeyPatch) -> None:
    _stop(monkeypatch, set_=False)
    free = tasks.engine_move(draughts.get_variant("russian"), FEN, "strong", 5.0)
    _stop(monkeypatch, set_=True)
    stopped = tasks.engine_move(draughts.get_variant("russian"), FEN, "strong", 5.0)
    assert free["depth"] > 1
    assert stopped["depth"] <= 1  # a search asked to stop before it starts answers from its first ply
    assert stopped["nodes"] < free["nodes"]
    assert stopped["move"] is not None
