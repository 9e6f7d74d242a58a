"""Every game the library writes reads back to the same game: every ruleset, any length.

The property: ``parse_game(write_game(game), ruleset=game.ruleset)`` gives the game back, and
without ``ruleset=`` the text either gives the same ruleset back or fails with an error that says to
pass ``ruleset=``; it never reads under other rules. Before the hardening issue's item 7 an evolved
ruleset wrote its base variant's GameType (and read back under the base rules), and a game of
10,000 moves wrote a move number the reader rejected.
"""

from __future__ import annotations

from datetime import timedelta

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
import strategies
from draughts import BLACK, WHITE, Directions, DrawRules, Position, Precedence, Ruleset, pdn
from draughts.pdn import PDNUnknownVariantError

NAMED = tuple(draughts.VARIANTS.values())
HOUSE = tuple(draughts.get_variant(f"{name}-nfc") for name in ("american", "italian", "russian", "international"))
GAMETYPES = st.sampled_from([None, 20, 21, 23, 25, 26, 27, 40])
"""GameType numbers for evolved rulesets: named variants' numbers and numbers no named variant has."""
NAMES = st.sampled_from(["custom", "pool", "russian", "american-nfc", "frisian", "10x10"])


@st.composite
def tweaked(draw: st.DrawFn) -> Ruleset:
    """A named variant or house rule with one rule changed, keeping its name and GameType."""
    base = draw(st.sampled_from(NAMED + HOUSE))
    change = draw(
        st.sampled_from(
            [
                {"draw_rules": DrawRules(repetitions=None)},
                {"first_to_move": BLACK if base.first_to_move is WHITE else WHITE},
                {"precedence": ()},
                {"precedence": (Precedence.MOST_PIECES,)},
                {"men_capture": Directions.DIAGONAL_FORWARD if base.men_capture_backward else Directions.DIAGONAL},
                {"capture_mandatory": not base.capture_mandatory},
            ]
        )
    )
    return attrs.evolve(base, **change)


@st.composite
def evolved(draw: st.DrawFn) -> Ruleset:
    """Any user-defined ruleset, named anyhow, with or without a GameType number."""
    rules = draw(strategies.custom_rulesets())
    return attrs.evolve(rules, name=draw(NAMES), pdn_gametype=draw(GAMETYPES))


RULESETS = st.one_of(st.sampled_from(NAMED), st.sampled_from(HOUSE), tweaked(), evolved())


def random_game(data: st.DataObject, rules: Ruleset, plies: int) -> pdn.Game:
    start = data.draw(st.one_of(st.just(Position.initial(rules)), strategies.positions(rules)))
    board = draughts.Board.from_position(start)
    for _ in range(data.draw(st.integers(0, plies))):
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(legal[data.draw(st.integers(0, len(legal) - 1))])
    return pdn.Game.from_board(board, {"Event": "random"}, result=data.draw(st.sampled_from(["*", "1-0", "0-1"])))


def assert_reads_back(game: pdn.Game) -> str:
    rules = game.ruleset
    text = pdn.write_game(game)
    again = pdn.parse_game(text, rules)
    assert again.ruleset == rules
    assert again.position == game.position
    assert again.mainline_moves() == game.mainline_moves()
    assert again.result == game.result
    assert again.headers == game.export_headers()
    assert pdn.write_game(again) == text
    named = draughts.VARIANTS.get(rules.name)
    if named == rules or rules in HOUSE:
        alone = pdn.parse_game(text)
        assert alone.ruleset == rules
        assert alone.mainline_moves() == game.mainline_moves()
        return text
    try:
        alone = pdn.parse_game(text)
    except PDNUnknownVariantError as error:
        message = str(error)
    else:
        message = ""
        assert alone.ruleset == rules  # an evolved ruleset equal to a named one; never other rules, silently
        assert alone.mainline_moves() == game.mainline_moves()
    assert not message or "ruleset=" in message
    return text


@settings(max_examples=80, deadline=timedelta(seconds=20), suppress_health_check=[HealthCheck.too_slow])
@given(RULESETS, st.data())
def test_every_written_game_reads_back(rules: Ruleset, data: st.DataObject) -> None:
    assert_reads_back(random_game(data, rules, 40))


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(RULESETS, st.data())
def test_every_written_game_reads_back_long(rules: Ruleset, data: st.DataObject) -> None:
    assert_reads_back(random_game(data, rules, 120))


def test_named_variants_and_house_rules_read_back_without_variant() -> None:
    for rules in NAMED + HOUSE:
        board = draughts.Board(rules)
        for _ in range(6):
            board.push(next(iter(board.legal_moves)))
        text = pdn.write_game(pdn.Game.from_board(board))
        assert pdn.parse_game(text).ruleset == rules


# --- games of more than 10,000 plies ---------------------------------------------------------------

# Two kings each shuttle between two squares: legal for ever once the draw rules are off.
SHUTTLES = {
    "american": "B:WK29:BK4",
    "brazilian": "W:WKa1:BKh2",
    "czech": "W:WKa1:BKh2",
    "international": "W:WK46:BK1",
    "italian": "W:WK29:BK4",
    "russian": "W:WKa1:BKh2",
    "spanish": "W:WK29:BK4",
}


def shuttle_game(name: str, plies: int) -> pdn.Game:
    rules = attrs.evolve(draughts.get_variant(name), draw_rules=DrawRules(repetitions=None))
    start = Position.from_fen(rules, SHUTTLES[name])
    board = draughts.Board.from_position(start)
    last: dict[draughts.Color, draughts.Move] = {}
    for _ in range(plies):
        legal = list(board.legal_moves)
        previous = last.get(board.turn)
        back = [move for move in legal if previous and (move.start, move.end) == (previous.end, previous.start)]
        move = back[0] if back else legal[0]
        assert not move.captured
        last[board.turn] = move
        board.push(move)
    assert board.outcome() is None
    return pdn.Game.from_board(board)


def test_a_game_of_10001_moves_reads_back() -> None:
    game = shuttle_game("american", 20_002)
    text = assert_reads_back(game)
    assert "10000. " in text  # was: unexpected text '10000.'
    assert "10001. " in text
    assert len(game.mainline_moves()) == 20_002


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SHUTTLES))
def test_long_games_read_back_in_every_board(name: str) -> None:
    game = shuttle_game(name, 24_001)
    assert_reads_back(game)
