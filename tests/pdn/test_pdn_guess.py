"""Games whose rules no tag names (issue 23 §8): International first, then the PDN variants their moves fit."""

from __future__ import annotations

import warnings

import pytest

from conftest import DATA
from draughts import PDNError, pdn
from draughts.pdn import PDNIllegalMoveError

GAMES = DATA / "games"


def test_a_russian_game_without_gametype_is_read_as_russian_and_says_so() -> None:
    games = list(pdn.read_games(GAMES / "russian" / "games-checkers-russian-test.pdn"))
    assert [game.ruleset.name for game in games] == ["russian"] * 3
    assert all(game.guessed for game in games)
    assert all("read as russian" in game.warnings[-1] and "ruleset=" in game.warnings[-1] for game in games)
    # the same games as with the variant given
    given = list(pdn.read_games(GAMES / "russian" / "games-checkers-russian-test.pdn", "russian"))
    assert [game.mainline_moves() for game in games] == [game.mainline_moves() for game in given]
    assert not any(game.guessed for game in given)


ENGLISH_SKIPS = (  # three games of the English collection no variant reads to their end (issue 40 §11)
    ("skipped game 6 (White 'M Tinsley'", "move '32-28' is not legal", "its moves go furthest as american"),
    ("skipped game 9 (White 'MF Tinsley'", "unexpected text '8-11Redoversteppedthetimecontrol", "ruleset="),
    ("skipped game 12 (White 'Chinook'", "unexpected text '26-22Whiteoversteppedthetimecontrol", "ruleset="),
)


@pytest.mark.parametrize(
    ("folder", "expected", "skips"),
    [
        ("english", "american", ENGLISH_SKIPS),
        ("italian", "italian", ()),
        ("frisian", "frisian", ()),
        ("turkish", "turkish", ()),
    ],
)
def test_each_untagged_collection_reads_under_its_own_variant(
    folder: str, expected: str, skips: tuple[tuple[str, ...], ...]
) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        names = {
            game.ruleset.name
            for path in sorted((GAMES / folder).glob("*.pdn"))
            for game in pdn.read_games(path, errors="skip")
            if game.mainline_moves()
        }
    assert names == {expected}
    skipped = [str(warning.message) for warning in caught if issubclass(warning.category, pdn.PDNWarning)]
    assert len(skipped) == len(skips), skipped
    for message, parts in zip(skipped, skips, strict=True):
        for part in parts:
            assert part in message, (part, message)


def test_an_international_game_is_not_guessed() -> None:
    game = pdn.parse_game("1. 32-28 19-23 *")
    assert (game.ruleset.name, game.guessed) == ("international", False)


def test_a_tag_or_variant_argument_is_never_second_guessed() -> None:
    with pytest.raises(PDNIllegalMoveError) as caught:
        pdn.parse_game('[GameType "20"] 1. c3-d4 *')
    assert "ruleset=" not in str(caught.value).split("legal moves:")[1]
    with pytest.raises(PDNError, match="international"):
        pdn.parse_game("1. c3-d4 *", "international")


def test_a_game_no_variant_reads_names_the_default_and_the_guesses_and_hints_at_variant() -> None:
    with pytest.raises(PDNIllegalMoveError) as caught:
        pdn.parse_game("1. 33-28 33-28 *")  # squares above 32: a 10x10 board
    message = str(caught.value)
    assert "(international)" in message
    assert "reads neither as international (the default) nor as frisian" in message
    assert message.endswith("pass its rules as ruleset= (draughts pdn --variant NAME)")
    assert caught.value.ply == 2
