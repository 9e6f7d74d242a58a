"""Color: a side, with two conversions of their own (issue 24 §7: ``WHITE == 0`` but truthy)."""

from __future__ import annotations

import warnings

import draughts
from draughts import BLACK, WHITE, Color


def test_truth_asks_is_it_white_as_in_python_chess() -> None:
    board = draughts.Board("international")
    assert board.turn is WHITE
    assert bool(board.turn)
    board.push(board.legal_moves[0])
    assert board.turn is BLACK
    assert not board.turn


def test_the_int_value_is_the_side_index() -> None:
    assert (int(WHITE), int(BLACK)) == (0, 1)
    assert ("w", "b")[WHITE] == "w"
    assert ("w", "b")[BLACK] == "b"
    assert Color(0) is WHITE
    assert Color(1) is BLACK
    assert WHITE == 0
    assert BLACK == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert {0: "white", 1: "black"}[WHITE] == "white"


def test_sides_are_compared_by_identity_and_name_themselves() -> None:
    assert WHITE.opponent is BLACK
    assert BLACK.opponent is WHITE
    assert (str(WHITE), WHITE.letter, str(BLACK), BLACK.letter) == ("white", "W", "black", "B")
