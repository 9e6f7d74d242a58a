"""Adjudication by the engines' scores: resign when both agree one side is lost, draw when both stay level."""

from __future__ import annotations

import io
import math
import shlex
import sys
from pathlib import Path

import pytest

from draughts import Board
from draughts.cli import main
from draughts.color import BLACK, WHITE
from draughts.lab.runner import Opening
from draughts.match import Adjudication, EngineSpec, GameTask, play_task
from draughts.pdn import read_games

HUB = f"hub:{shlex.join([sys.executable, '-m', 'draughts', 'hub'])}"
LOPSIDED = "W:W28,31,32,33,34,35,36,37,38,39,40:B1,2,3"  # White: eleven men against three


def test_resign_needs_both_engines_to_agree_for_n_moves_each() -> None:
    rule = Adjudication(resign_moves=2, resign_score=300)
    board = Board()
    assert rule.verdict(board, {WHITE: [350.0, 400.0], BLACK: [-310.0, -500.0]}) == (
        WHITE,
        "adjudicated: resign by scores (300 for 2 moves each)",
    )
    assert rule.verdict(board, {WHITE: [350.0, 400.0], BLACK: [-310.0, -200.0]}) is None  # the loser disagrees
    assert rule.verdict(board, {WHITE: [100.0, 400.0], BLACK: [-310.0, -500.0]}) is None  # not for 2 moves
    assert rule.verdict(board, {WHITE: [400.0], BLACK: [-500.0]}) is None  # too few moves
    assert rule.verdict(board, {WHITE: [None, 400.0], BLACK: [-500.0, -500.0]}) is None  # no score: no verdict
    assert rule.verdict(board, {WHITE: [-math.inf, -math.inf], BLACK: [math.inf, 900.0]})[0] is BLACK  # type: ignore[index]


def test_draw_by_scores_from_a_ply_on() -> None:
    rule = Adjudication(draw_ply=4, draw_moves=2, draw_score=20)
    board = Board()
    level = {WHITE: [10.0, -5.0], BLACK: [0.0, 20.0]}
    assert rule.verdict(board, level) is None  # ply 0: too early
    for text in ("32-28", "19-23", "28x19", "14x23"):
        board.push_text(text)
    assert rule.verdict(board, level) == (None, "adjudicated: draw by scores (within 20 for 2 moves each)")
    assert rule.verdict(board, {WHITE: [10.0, -25.0], BLACK: [0.0, 20.0]}) is None
    assert Adjudication().verdict(board, level) is None  # off by default


def test_a_lost_position_is_resigned_by_the_scores_of_a_hub_and_a_builtin_engine() -> None:
    task = GameTask(
        0,
        EngineSpec(HUB, {"level": "beginner"}),
        EngineSpec("level:beginner"),
        "international",
        Opening(fen=LOPSIDED),
        adjudication=Adjudication(resign_moves=2, resign_score=500),
    )
    game = play_task(task)
    assert game["termination"] == "adjudicated: resign by scores (500 for 2 moves each)"
    assert game["winner"] == "white"
    assert game["plies"] == 4  # two moves each, the first moment both agree


def test_a_dxp_side_gives_no_score_so_no_score_adjudication() -> None:
    rule = Adjudication(resign_moves=1, resign_score=1, draw_moves=1, draw_score=10_000)
    assert rule.verdict(Board(), {WHITE: [None], BLACK: [0.0]}) is None


def test_match_command_with_draw_adjudication(tmp_path: Path) -> None:
    argv = ["match", "level:beginner", "level:beginner", "--games", "2", "--workers", "1", "--draw", "0", "3", "10000"]
    assert main([*argv, "--pdn", str(tmp_path / "m.pdn")], io.StringIO()) == 0
    games = list(read_games(tmp_path / "m.pdn"))
    assert [g.headers["Termination"] for g in games] == [
        "adjudicated: draw by scores (within 10000 for 3 moves each)"
    ] * 2
    assert [len(g.mainline_moves()) for g in games] == [6, 6]


def test_bad_adjudication_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "level:beginner", "level:beginner", "--resign", "0", "300"]
    assert main(argv, io.StringIO()) != 0
    assert "--resign [0, 300]" in capsys.readouterr().err
