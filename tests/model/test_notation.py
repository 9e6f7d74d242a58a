"""Move notation: writing short/long forms per PDN 3.0, and lenient reading."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import draughts
from draughts import Position
from draughts.notation import matching_moves, move_text, parse_move
from strategies import positions, rulesets


def test_pdn_ambiguity_example_is_written_long() -> None:
    """PDN 3.0 restriction 8: same from/to, different captured pieces -> long form."""
    position = Position.from_fen("international", "W:WK47:B14,19,29,31,42")
    assert sorted(move_text(position, m) for m in position.legal_moves()) == ["47x38x20x9x36", "47x38x24x13x36"]
    with pytest.raises(draughts.AmbiguousMoveError, match="47x38x24x13x36") as info:
        parse_move(position, "47x36")
    assert "47x38x20x9x36" in str(info.value)
    assert parse_move(position, "47x38x24x13x36").captured == (42, 29, 19, 31)
    # Naming a square only one of the two passes over is enough to decide; 24 is on both ways.
    assert parse_move(position, "47x20x36") == parse_move(position, "47x38x20x9x36")
    with pytest.raises(draughts.AmbiguousMoveError):
        parse_move(position, "47x24x36")


@pytest.mark.parametrize(
    ("variant", "fen", "text"),
    [
        ("international", "W:W31-50:B1-20", "32-28"),
        ("american", "B:W21-32:B1-12", "11-15"),
        ("russian", "W:W21-32:B1-12", "c3-d4"),
        ("russian", "W:Wc3:Bd4", "c3:e5"),
        ("czech", "W:Wc3:Bd4", "c3xe5"),
        ("italian", "W:W30:B27", "30x23"),
        ("spanish", "W:W1-12:B21-32", "9-13"),
    ],
)
def test_short_forms(variant: str, fen: str, text: str) -> None:
    position = Position.from_fen(variant, fen)
    move = parse_move(position, text)
    assert move_text(position, move) == text


@pytest.mark.parametrize("text", ["32-28", "32x28", "32 - 28", "32-28!", "32-28?!", "32X28", " 32:28 "])
def test_lenient_separators_and_marks(text: str) -> None:
    position = Position.initial("international")
    assert parse_move(position, text) == draughts.Move(32, 28)


def test_padded_squares_and_plain_move_written_as_capture() -> None:
    position = Position.from_fen("international", "B:W31-50:B1-5,7-10")
    assert parse_move(position, "01x06") == draughts.Move(1, 6)
    assert parse_move(position, "1x 6") == draughts.Move(1, 6)
    assert parse_move(position, "10- 15") == draughts.Move(10, 15)


def test_algebraic_variants_accept_numbers_glued_and_russian_short_forms() -> None:
    position = Position.initial("russian")
    move = parse_move(position, "c3-d4")
    assert parse_move(position, "22-18") == move
    assert parse_move(position, "c3d4") == move
    assert parse_move(position, "cd4") == move
    with pytest.raises(draughts.InvalidMoveError, match="'c3'"):
        parse_move(position, "c3")  # a square is not a move
    assert move_text(position, move, numeric=True) == "22-18"


def test_russian_short_notation_ambiguity() -> None:
    position = Position.from_fen("russian", "W:Wc3,Kc5,e3:Bh8")
    assert parse_move(position, "ed4") == draughts.Move(23, 18)
    with pytest.raises(draughts.AmbiguousMoveError, match="c5-d4, c3-d4"):
        parse_move(position, "cd4")  # c3-d4 or the king's c5-d4


def test_hub_style_captures_in_any_order() -> None:
    position = Position.from_fen("international", "W:WK38:B18,19,32,33")
    by_path = parse_move(position, "38x27x13x24x38")
    assert parse_move(position, "38x38x19x33x32x18") == by_path
    assert parse_move(position, "38x38x32x18x19x33") == by_path


def test_errors_name_the_input() -> None:
    position = Position.initial("international")
    with pytest.raises(draughts.InvalidMoveError, match="'32-99'"):
        parse_move(position, "32-99")
    with pytest.raises(draughts.InvalidMoveError, match="'hello'"):
        parse_move(position, "hello")
    with pytest.raises(draughts.InvalidMoveError, match="'32-27x'"):
        parse_move(position, "32-27x")
    with pytest.raises(draughts.IllegalMoveError, match="legal moves: 31-26, 31-27, 32-27, 32-28, "):
        parse_move(position, "32-26")
    with pytest.raises(draughts.IllegalMoveError):
        move_text(position, draughts.Move(32, 26))


@settings(deadline=None, max_examples=150)
@given(data=st.data())
def test_format_then_parse_round_trip(data: st.DataObject) -> None:
    """parse(format(m)) == m for every legal move, short and long forms, in every kind of ruleset."""
    rules = data.draw(rulesets)
    position = data.draw(positions(rules))
    for move in position.legal_moves():
        for long in (None, True):
            text = move_text(position, move, long=long)
            assert parse_move(position, text) == move
            assert parse_move(position, text).identity == move.identity
        assert parse_move(position, move_text(position, move, numeric=True)) == move
        if len(matching_moves(position, move_text(position, move, long=False))) > 1:
            assert move_text(position, move) == move_text(position, move, long=True)
