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
