"""Random openings (issue 28 §2: "games from an opening ballot or random openings")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import draughts
import draughts.pdn
from draughts import DraughtsError
from draughts.cli import main
from draughts.lab.runner import RandomOpenings, resolve_openings


def test_random_openings_are_distinct_legal_lines_of_the_asked_length_and_seeded() -> None:
    openings = RandomOpenings(plies=4, count=10, seed=5).openings("international")
    assert len(openings) == 10
    assert len({opening.moves for opening in openings}) == 10
    for opening in openings:
        board = draughts.Board("international")
        for text in opening.moves:
            board.push_text(text)  # each move legal where it is played
        assert len(opening.moves) == 4
        assert board.legal_moves()
    assert openings == RandomOpenings(4, 10, 5).openings("international")
    assert openings != RandomOpenings(4, 10, 6).openings("international")
    assert resolve_openings("international", RandomOpenings(4, 10, 5)) == openings


def test_a_small_tree_gives_the_lines_it_has() -> None:
    # Russian draughts has 7 first moves: 20 asked, 7 distinct one-ply lines exist.
    assert len(RandomOpenings(plies=1, count=20).openings("russian")) == 7


def test_bad_counts_are_refused() -> None:
    with pytest.raises(DraughtsError, match="from 1"):
        RandomOpenings(0, 3).openings("russian")


def test_the_lab_and_the_match_take_random_openings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["lab", "russian", "--games", "4", "--max-plies", "30", "--format", "json", "--random-openings", "3"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["russian"]["games"] == 4
    assert main([*argv, "--ballot", "fmjd-64"]) == 2
    assert "exclude each other" in capsys.readouterr().err
    pdn = tmp_path / "games.pdn"
    match = ["match", "level:beginner", "level:beginner", "--variant", "russian", "--games", "2", "--depth", "1"]
    assert main([*match, "--max-plies", "20", "--random-openings", "2", "--seed", "3", "--pdn", str(pdn)]) == 0
    games = list(draughts.pdn.read_games(pdn))
    assert len(games) == 2
    (opening,) = RandomOpenings(2, 1, 3).openings("russian")
    board = draughts.Board("russian")
    expected = [board.push_text(text) for text in opening.moves]
    assert [game.mainline_moves()[:2] for game in games] == [expected, expected]  # one opening, both colours
