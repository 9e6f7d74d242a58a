"""Moves print in their ruleset's notation wherever the ruleset is known (issue 23 §9)."""

from __future__ import annotations

import pytest

import draughts
from draughts.compare import moves_table
from draughts.notation import move_text


def test_legal_moves_repr_in_the_variants_notation() -> None:
    board = draughts.Board("russian")
    assert repr(board.legal_moves).startswith("<LegalMoves (7): a3-b4, c3-b4, c3-d4,")
    assert repr(draughts.Position.initial("russian").legal_moves) == repr(board.legal_moves)
    international = repr(draughts.Board().legal_moves)
    assert international == "<LegalMoves (9): 31-26, 31-27, 32-27, 32-28, 33-28, 33-29, 34-29, 34-30, 35-30>"
    board.push_text("c3-d4")
    assert "b6-a5" in repr(board.legal_moves)  # live: the board's current position


def test_legal_moves_repr_writes_the_long_form_where_needed() -> None:
    position = draughts.Position.from_fen("russian", "W:WKd2:Bc5,e5,c3,e3")
    assert repr(position.legal_moves) == "<LegalMoves (3): d2:d2, d2:c1, d2:e1>"


def test_compare_rows_in_the_reference_notation() -> None:
    """The common column writes a move as the reference variant does: d2:d2 in Russian, not 26x26."""
    result = moves_table("W:WKd2:Bc5,e5,c3,e3", ["russian", "brazilian"])
    assert [row.common for row in result.rows] == ["d2:d2", "d2:c1", "d2:e1"]
    assert result.moves("russian") == ("d2:d2", "d2:c1", "d2:e1")
    table = result.table()
    assert table.row("d2:d2").cells[0] == "d2:d2"
    numeric = moves_table("W:W18,K20:BK14,15,16,22", ["american", "russian"])
    assert numeric.common("russian")[0] == "18x9"  # American writes numbers with x


def test_an_illegal_move_is_named_in_the_variants_squares() -> None:
    with pytest.raises(draughts.IllegalMoveError, match=r"^c3-d6 \(Move\(start=22, end=10\)\) is not legal"):
        move_text(draughts.Position.initial("russian"), draughts.Move(22, 10))
    with pytest.raises(draughts.IllegalMoveError, match=r"^Move\(start=99, end=10\) is not legal"):
        move_text(draughts.Position.initial("russian"), draughts.Move(99, 10))


def test_boards_of_every_square_are_not_mirrored_and_missing_squares_are_refused() -> None:
    """Turkish (every square) against Italian: same coordinates; squares Italian lacks give clean errors."""
    result = moves_table("W:Wc2:Bd3", ["turkish", "italian"])
    assert result.mirrored == (False, False)
    assert result.moves("italian") == ("26x19",)
    with pytest.raises(draughts.InvalidFenError, match="d4 is not one of its playing squares"):
        moves_table("W:Wd4:Be5", ["turkish", "italian"])
    with pytest.raises(draughts.DraughtsError, match="goes over squares italian does not play on"):
        moves_table("W:W22:B18", ["italian", "turkish"])
