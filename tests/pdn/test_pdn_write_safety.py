"""Writing PDN never loses a file, and text no file can hold is refused (issue 23 §22)."""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

import pytest

from draughts import DraughtsError, Move, pdn
from draughts.pdn import PDNTextError

GOOD = pdn.parse_game('[White "A"] [GameType "20"] 1. 32-28 19-23 2-0')


def test_write_game_refuses_a_lone_surrogate_in_a_tag() -> None:
    with pytest.raises(PDNTextError, match=r"the tag Event .* lone surrogate \(U\+D800\) at character 1"):
        pdn.write_game(pdn.Game("international", {"Event": "\ud800"}))
    assert issubclass(PDNTextError, DraughtsError)


@pytest.mark.parametrize(
    "change",
    [
        {"comments": {0: ["ok \udfff"]}},
        {"variations": {1: ["33-29 \ud83d"]}},
        {"preamble": ["\udc80"]},
        {"result": "1-0\ud800"},
    ],
    ids=["comment", "variation", "preamble", "result"],
)
def test_write_game_refuses_a_lone_surrogate_anywhere(change: dict[str, object]) -> None:
    game = pdn.Game(GOOD.ruleset, dict(GOOD.headers), GOOD.start, list(GOOD.moves), GOOD.result)
    for name, value in change.items():
        setattr(game, name, value)
    with pytest.raises(PDNTextError, match="lone surrogate"):
        pdn.write_game(game)


def test_a_tag_name_is_written_with_its_odd_characters_replaced() -> None:
    assert '[Bad_Name "x"]' in pdn.write_game(pdn.Game("international", {"Bad\ud800Name": "x"}))


def test_a_good_pair_of_surrogates_is_just_a_character() -> None:
    game = pdn.Game("international", {"Event": "\U0001f600"})
    assert "\U0001f600" in pdn.write_game(game)


def test_write_games_over_an_existing_file_keeps_it_when_a_game_fails(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    pdn.write_games([GOOD, GOOD, GOOD], path)
    before = path.read_bytes()
    bad = pdn.Game("international", {"Event": "\ud800"})
    with pytest.raises(PDNTextError):
        pdn.write_games([GOOD, bad], path)
    assert path.read_bytes() == before  # was: truncated from 170 to 57 bytes
    illegal = pdn.Game("international", {}, moves=[Move(1, 99)])
    with pytest.raises(DraughtsError):
        pdn.write_games([GOOD, illegal], path)
    assert path.read_bytes() == before
    assert sorted(item.name for item in tmp_path.iterdir()) == ["games.pdn"]  # no temporary file left


def test_write_games_replaces_the_file_keeping_its_permissions_and_links(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    path.write_text("old\n", encoding="utf-8")
    os.chmod(path, 0o640)
    link = tmp_path / "link.pdn"
    link.symlink_to(path)
    assert pdn.write_games([GOOD], link) == 1
    assert link.is_symlink()
    assert [game.moves for game in pdn.read_games(path)] == [GOOD.moves]
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_write_games_to_a_new_file_and_a_stream(tmp_path: Path) -> None:
    path = tmp_path / "new.pdn"
    assert pdn.write_games([GOOD, GOOD], path) == 2
    assert len(list(pdn.read_games(path))) == 2
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask
    stream = io.StringIO()
    with pytest.raises(PDNTextError):
        pdn.write_games([GOOD, pdn.Game("international", {"Event": "\ud800"})], stream)
    assert stream.getvalue() == pdn.write_game(GOOD)  # the failing game is not half written


def test_reading_refuses_a_lone_surrogate_as_that_games_error_and_skip_goes_on() -> None:
    text = '[Event "\ud800"]\n1. 32-28 *\n\n[Event "ok"]\n1. 33-28 *\n\n[Event "c"]\n1. 31-27 {bad \udfff} *\n'
    with pytest.raises(PDNTextError, match="lone surrogate") as caught:
        pdn.parse_game(text)
    assert "\ud800" not in str(caught.value)  # the message quotes it escaped
    with pytest.warns(pdn.PDNWarning):
        games = list(pdn.parse_games(text, errors="skip"))
    assert [game.headers["Event"] for game in games] == ["ok"]
