"""The ballots where games start: ``draughts lab --ballot``, ``draughts match --ballot`` and their
Python entry points take a ballot's name and play its openings in turn, each with both colours."""

from __future__ import annotations

import io
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from draughts import openings
from draughts.cli import main
from draughts.engine import Limit
from draughts.errors import UnknownBallotError
from draughts.lab.runner import GameTask, play_task, resolve_openings
from draughts.match import EngineSpec, run_match
from draughts.pdn import read_games


def test_the_lab_resolves_a_ballot_into_its_openings() -> None:
    deck = resolve_openings("american", "acf-3-move")
    assert len(deck) == 156
    assert deck[0].moves == ("9-13", "21-17", "5-9")
    assert deck[0].name == "1"
    eleven = resolve_openings("italian", "11-man")
    assert eleven[0].fen == openings.ballot("italian", "11-man")[0].start_fen  # the 11-man start, two men off
    with pytest.raises(UnknownBallotError, match="'acf-3-move' for russian"):
        resolve_openings("russian", "acf-3-move")


def test_a_lab_game_starts_where_the_ballot_says() -> None:
    opening = resolve_openings("russian", "fmjd-64")[10]  # 1-XI: six plies, White to move
    record = play_task(GameTask("russian", 0, 0, 2, opening=opening, opening_index=10))
    assert record.opening == 10
    assert record.plies == 2  # the opening's plies are not the players'
    # the first position the players saw is the opening's: its legal-move count is recorded
    assert record.legal[0] == len(openings.ballot("russian", "fmjd-64")[10].position().legal_moves())


def test_draughts_lab_ballot_plays_each_opening_with_both_colours() -> None:
    out = io.StringIO()
    args = ["lab", "american", "--games", "4", "--ballot", "acf-3-move", "--max-plies", "6", "--format", "json"]
    assert main(args, out=out) == 0
    assert json.loads(out.getvalue())["american"]["games"] == 4


def test_draughts_match_ballot_writes_the_openings_into_the_pdn(tmp_path: Path) -> None:
    pdn = tmp_path / "match.pdn"
    out = io.StringIO()
    args = ["match", "level:beginner", "level:beginner", "--variant", "italian", "--ballot", "11-man"]
    args += ["--games", "2", "--depth", "1", "--max-plies", "4", "--workers", "1", "--pdn", str(pdn)]
    assert main(args, out=out) == 0
    games = list(read_games(str(pdn), ruleset="italian"))
    start = openings.ballot("italian", "11-man")[0]
    assert len(games) == 2
    assert [g.headers.get("FEN") for g in games] == [start.start_fen, start.start_fen]
    # both colours: one opening
    assert all([str(m) for m in g.mainline_moves()[:2]] == list(start.moves) for g in games)


def test_run_match_takes_a_ballot_by_name() -> None:
    with ThreadPoolExecutor(1) as pool:
        match = run_match(
            EngineSpec("level:beginner"),
            EngineSpec("level:beginner"),
            games=4,
            ruleset="american",
            openings="acf-3-move",
            limit=Limit(depth=1),
            max_plies=5,
            executor=pool,
        )
    movetexts = [game["pdn"].split("\n\n", 1)[1] for game in match.games]
    assert [text.split()[1:4] for text in movetexts[:2]] == [["9-13", "21-17", "2."]] * 2  # deck #1 twice
    assert movetexts[2].split()[1:3] == ["9-13", "21-17"]  # deck #2: 9-13 21-17 6-9
    assert movetexts[2].split()[4] == "6-9"


def test_a_lab_run_borrows_a_ballot_for_a_house_rule() -> None:
    out = io.StringIO()
    args = ["lab", "russian", "russian-nfc", "--games", "2", "--ballot", "russian/idf-150", "--max-plies", "4"]
    assert main([*args, "--format", "json"], out=out) == 0
    figures = json.loads(out.getvalue())
    assert figures["russian"]["games"] == figures["russian-nfc"]["games"] == 2
