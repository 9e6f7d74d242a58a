"""The lab's seeded games: one worker and two give the same figures; the metrics are pooled ratios."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor

import pytest

from draughts.errors import DraughtsError
from draughts.lab import game_seed, play_game, run_lab


def test_one_and_two_workers_give_identical_json() -> None:
    alone = run_lab(["russian", "italian"], 6, seed=3, max_plies=80)
    with ProcessPoolExecutor(2) as pool:
        pair = run_lab(["russian", "italian"], 6, seed=3, max_plies=80, executor=pool)
    assert json.dumps(alone, sort_keys=True) == json.dumps(pair, sort_keys=True)


def test_metrics_are_consistent() -> None:
    figures = run_lab(["russian"], 5, seed=1, max_plies=60)["russian"]
    assert 0 <= figures["first_player_score"] <= 1
    assert 0 < figures["plies_mean"] <= 60
    assert figures["branching_factor"] >= 1
    assert 0 <= figures["capture_share"] <= 1
    assert 0 <= figures["decision_share"] <= 1


def test_seed_depends_on_ruleset_and_index() -> None:
    assert game_seed(1, "russian", 0) != game_seed(1, "russian", 1) != game_seed(1, "italian", 1)
    assert play_game("russian", 2, 7, 40) == play_game("russian", 2, 7, 40)


def test_bad_arguments_are_draughts_errors() -> None:
    with pytest.raises(DraughtsError, match="0"):
        run_lab(["russian"], 0)
    with pytest.raises(DraughtsError):
        run_lab(["no-such-variant"], 1)


def test_cli_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    from draughts.cli import main

    argv = ["lab", "russian", "--games", "4", "--seed", "2", "--max-plies", "50", "--format", "json"]
    assert main([*argv, "--workers", "1"]) == 0
    one = capsys.readouterr().out
    assert main([*argv, "--workers", "2"]) == 0
    assert capsys.readouterr().out == one
    keys = {"first_player_score", "draw_rate", "plies_mean", "branching_factor", "capture_share", "decision_share"}
    assert keys <= set(json.loads(one)["russian"])
