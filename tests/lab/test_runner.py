"""The lab's seeded games: one worker and two give the same figures; pairings play both colours;
results stream to a file and a run resumes from it."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from draughts.board import Board
from draughts.errors import DraughtsError
from draughts.lab import GameRecord, RulesetMetrics, game_seed, lab_tasks, play_game, run_games, run_lab


def _json(figures: dict[str, RulesetMetrics]) -> str:
    return json.dumps({k: v.to_dict() for k, v in figures.items()}, sort_keys=True)


def test_one_and_two_workers_give_identical_json() -> None:
    alone = run_lab(["russian", "italian"], 6, seed=3, max_plies=80)
    with ProcessPoolExecutor(2) as pool:
        pair = run_lab(["russian", "italian"], 6, seed=3, max_plies=80, executor=pool)
    assert _json(alone) == _json(pair)


def test_metrics_are_consistent() -> None:
    figures = run_lab(["russian"], 5, seed=1, max_plies=60)["russian"]
    assert figures.games == 5
    assert (
        0 <= figures.first_player_score.low <= figures.first_player_score.value <= figures.first_player_score.high <= 1
    )
    assert 0 < figures.plies_mean.value <= 60
    assert figures.branching_factor.value >= 1
    assert 0 <= figures.capture_share.value <= 1
    assert 0 <= figures.decision_share.value <= 1
    assert sum(figures.endings.values()) == 5
    assert figures.drama is None  # random players do not evaluate


def test_record_matches_a_replay() -> None:
    """The record's counts are those of its game: legal moves, captures, and where it ended."""
    record = play_game("russian", 3, 5, 70)
    board = Board("russian")
    # Replaying with the same seeds gives the same record (the game is a function of its seed).
    assert play_game("russian", 3, 5, 70) == record
    assert record.legal[0] == len(board.legal_moves())
    assert len(record.taken) == record.plies <= 70
    assert len(record.legal) in (record.plies, record.plies + 1)
    assert record.captures == sum(t > 0 for t in record.taken)
    assert GameRecord.from_dict(json.loads(json.dumps(record.to_dict()))) == record


def test_seed_depends_on_ruleset_and_index() -> None:
    assert game_seed(1, "russian", 0) != game_seed(1, "russian", 1) != game_seed(1, "italian", 1)
    assert game_seed(1, "russian", 0, 0) != game_seed(1, "russian", 0, 1)


def test_pairing_plays_both_colours_and_engine_evaluates() -> None:
    figures = run_lab(["russian"], 4, players=["depth:2", "random"], seed=2, max_plies=120)["russian"]
    tasks = lab_tasks(["russian"], 4, players=["depth:2", "random"], seed=2, max_plies=120)
    records = run_games(tasks)
    assert [r.players for r in records] == [("depth:2", "random"), ("random", "depth:2")] * 2
    assert all(any(e is not None for e in r.evals) for r in records)
    assert figures.player_scores["depth:2"].value > figures.player_scores["random"].value
    assert figures.lead_change_rate is not None
    assert figures.drama is not None


def test_openings_are_played_in_turn_with_both_colours() -> None:
    tasks = lab_tasks(["russian"], 4, openings=["c3-d4", "W:Wa1,c3:Bh8,f6"], max_plies=10)
    assert [t.opening_index for t in tasks] == [0, 0, 1, 1]
    records = run_games(tasks)
    assert records[0].legal[0] == len(Board("russian").legal_moves()) or records[0].legal[0] > 0
    with pytest.raises(DraughtsError, match="opening 1"):
        lab_tasks(["russian"], 2, openings=["a1-b2"])


def test_results_stream_and_resume(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    whole = run_lab(["russian"], 4, seed=9, max_plies=40)
    run_lab(["russian"], 2, seed=9, max_plies=40, results=path)
    lines = path.read_text().splitlines()
    assert len(lines) == 2
    path.write_text("\n".join(lines) + "\n" + lines[1][:30])  # an interrupted write
    seen: list[tuple[int, int]] = []
    resumed = run_lab(["russian"], 4, seed=9, max_plies=40, results=path, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (2, 4)  # the two stored games were not played again
    assert seen[-1] == (4, 4)
    assert _json(resumed) == _json(whole)
    other = run_lab(["russian"], 2, seed=10, max_plies=40, results=path)  # another seed: nothing reused
    assert other["russian"].games == 2


def test_bad_arguments_are_draughts_errors() -> None:
    with pytest.raises(DraughtsError, match="0"):
        run_lab(["russian"], 0)
    with pytest.raises(DraughtsError):
        run_lab(["no-such-variant"], 1)
    with pytest.raises(DraughtsError, match="wizard"):
        run_lab(["russian"], 1, players=["wizard"])


def test_cli_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    from draughts.cli import main

    argv = ["lab", "russian", "--games", "4", "--seed", "2", "--max-plies", "50", "--format", "json"]
    assert main([*argv, "--workers", "1"]) == 0
    one = capsys.readouterr().out
    assert main([*argv, "--workers", "2"]) == 0
    assert capsys.readouterr().out == one
    keys = {"first_player_score", "draw_rate", "plies_mean", "branching_factor", "capture_share", "decision_share"}
    figures = json.loads(one)["russian"]
    assert keys <= set(figures)
    assert all(isinstance(figures[k], float) for k in keys)


def test_cli_text_and_players(capsys: pytest.CaptureFixture[str]) -> None:
    from draughts.cli import main

    assert (
        main(["lab", "italian", "--games", "2", "--players", "beginner", "--opponent", "random", "--max-plies", "30"])
        == 0
    )
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["metric", "italian"]  # the table, one column
    line = next(line for line in out.splitlines() if line.split()[0] == "first_player_score")
    assert "[" in line  # the estimate with its interval
    assert main(["lab", "italian", "--games", "1", "--players", "depth:0"]) == 2
    assert "depth:0" in capsys.readouterr().err


def test_intervals_stay_within_what_a_metric_can_be() -> None:
    """Few games make wide normal intervals; they are clipped where the metric cannot go (a share
    in [0, 1], a length, count or drama never below 0)."""
    figures = run_lab(["italian-nfc", "american"], 2, players=["depth:1"], seed=2026, max_plies=200)
    for metrics in figures.values():
        for name in ("plies_mean", "branching_factor", "pieces_per_capture", "lead_changes", "drama"):
            estimate = getattr(metrics, name)
            assert estimate is None or estimate.low >= 0, (name, estimate)
        for name in ("capture_share", "decision_share", "lead_change_rate", "drama_share", "decisiveness"):
            estimate = getattr(metrics, name)
            assert estimate is None or 0 <= estimate.low <= estimate.high <= 1, (name, estimate)


POOL = """name = "pool"
title = "American pool checkers"
base = "brazilian"
first_to_move = "black"
precedence = []
"""


def test_lab_takes_a_rule_file_on_the_command_line(tmp_path: Path) -> None:
    # Issue 40 §4: `draughts lab my.toml` said "unknown variant 'my.toml'".
    import io

    from draughts.cli import main

    path = tmp_path / "my.toml"
    path.write_text(POOL, encoding="utf-8")
    out = io.StringIO()
    assert main(["lab", str(path), "brazilian", "--games", "4", "--max-plies", "40", "--format", "json"], out) == 0
    figures = json.loads(out.getvalue())
    assert sorted(figures) == ["brazilian", "pool"]  # labelled by the file's ruleset name
    assert figures["pool"]["games"] == 4


def test_a_ruleset_object_is_keyed_by_its_name_not_its_repr(tmp_path: Path) -> None:
    # Issue 40 §4: run_lab with a Ruleset keyed its result by a 1,500-character repr.
    import attrs

    from draughts.rules.names import get_variant

    pool = attrs.evolve(get_variant("brazilian"), name="pool", title="Pool")
    russian = get_variant("russian")
    figures = run_lab([pool, russian, "shashki"], 2, seed=5, max_plies=30)
    assert list(figures) == ["pool", "russian", "shashki"]
    assert figures["pool"].ruleset == "pool"
    # A catalogue ruleset given as an object plays the very games its name does.
    assert _json({"r": run_lab([russian], 2, seed=5, max_plies=30)["russian"]}) == _json(
        {"r": run_lab(["russian"], 2, seed=5, max_plies=30)["russian"]}
    )
    with ProcessPoolExecutor(2) as executor:  # the ruleset travels to the workers with its games
        assert _json(run_lab([pool], 2, seed=5, max_plies=30, executor=executor)) == _json(
            run_lab([pool], 2, seed=5, max_plies=30)
        )
    with pytest.raises(DraughtsError, match="two rulesets of the run are labelled 'pool'"):
        run_lab([pool, attrs.evolve(pool, title="Other")], 2)
