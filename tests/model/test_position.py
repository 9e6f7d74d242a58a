"""Positions: start positions, FEN in and out, validation, playing moves, immutability."""

from __future__ import annotations

import pickle

import attrs
import pytest

import draughts
from draughts import BLACK, WHITE, Piece, Position


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        (
            "international",
            "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
            "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
        ),
        ("american", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
        ("italian", "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
        ("spanish", "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32"),
        ("russian", "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6"),
    ],
)
def test_initial_positions(variant: str, fen: str) -> None:
    position = Position.initial(variant)
    assert position.fen() == fen
    assert Position.from_fen(variant, fen) == position


def test_russian_numeric_fen() -> None:
    position = Position.initial("russian")
    assert position.fen(numeric=True) == "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    assert Position.from_fen("russian", "W:W21-32:B1-12") == position


@pytest.mark.parametrize(
    "fen",
    [
        "W:W31-50:B1-20",
        "W:B1-20:W31-50",
        "w:w31-50:b1-20",
        "W:W31-50:B1-20:H0:F1",
        " W : W31-50 : B1-20 . ",
        '"W:W31-50:B1-20"',
        "W:W31-40,41-50:B1-5,6-20",
    ],
)
def test_fen_tolerances(fen: str) -> None:
    assert Position.from_fen("international", fen) == Position.initial("international")


def test_fen_kings_empty_sides_and_ranges() -> None:
    position = Position.from_fen("international", "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29")
    assert position.turn is BLACK
    assert position.squares(WHITE, kings=True) == [10, 15]
    assert position.squares(BLACK, kings=False) == [12, 16, 20]
    assert position.fen() == "B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29"  # increasing square order
    only_black = Position.from_fen("international", "W:W:BK1-3")
    assert only_black.fen() == "W:W:BK1,K2,K3"
    assert Position.from_fen("international", "W:BK1,K2,K3") == only_black
    assert only_black.legal_moves() == ()
    assert Position.from_fen("russian", "W:Wa1,c1,Kd2:Bf6").piece_at("d2") == Piece(WHITE, king=True)


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("", "must start with the side to move"),
        ("X:W31:B1", "'X'"),
        ("W:W31:Q1", "'Q1'"),
        ("W:W31:B51", "'51'"),
        ("W:W31:W32", "white pieces twice"),
        ("W:W31,31:B1", "twice"),
        ("W:W31:B31", "twice"),
        ("W:W5:B40", "crowning row"),
        ("W:W31:B48", "crowning row"),
        ("W:W21-41:B1", "21 pieces"),
        ("W:W40-31:B1", "backwards"),
        ("W:Wa1-c3:B1", "range"),
        ("W:WK:B1", "'K' with no square"),
    ],
)
def test_bad_fens(fen: str, message: str) -> None:
    with pytest.raises(draughts.InvalidFenError, match=message) as info:
        Position.from_fen("international", fen)
    assert repr(fen) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_bad_fen_square_for_algebraic_board() -> None:
    with pytest.raises(draughts.InvalidFenError, match="'b1'"):
        Position.from_fen("russian", "W:Wb1:Bh8")


def test_positions_are_immutable_values() -> None:
    position = Position.initial("brazilian")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        position.turn = BLACK  # type: ignore[misc]
    assert position == Position.initial("brazilian")
    assert hash(position) == hash(Position.initial("brazilian"))
    assert position != Position.initial("russian")  # same squares, another ruleset
    assert pickle.loads(pickle.dumps(position)) == position
    assert eval(repr(position), {"Position": Position}) == position


def test_play_returns_a_new_position() -> None:
    position = Position.initial("international")
    move = next(m for m in position.legal_moves() if (m.start, m.end) == (32, 28))
    child = position.play(move)
    assert child.turn is BLACK
    assert child.fen().startswith("B:W28,31,33,")
    assert position == Position.initial("international")  # unchanged


def test_illegal_and_foreign_moves_raise_and_change_nothing() -> None:
    position = Position.initial("international")
    before = position.fen()
    with pytest.raises(draughts.IllegalMoveError, match="start=32, end=26"):
        position.play(draughts.Move(32, 26))
    with pytest.raises(draughts.InvalidMoveError):
        position.play("32-28")  # type: ignore[arg-type]
    assert position.fen() == before
    assert not position.is_legal(draughts.Move(32, 26))
    assert position.is_legal(draughts.Move(32, 28))


def test_capture_play_removes_pieces_and_crowns() -> None:
    position = Position.from_fen("international", "W:W15:B9,10")
    (move,) = position.legal_moves()
    assert (move.start, move.end, move.captured, move.promotes) == (15, 13, (10, 9), False)
    assert position.play(move).fen() == "B:W13:B"
    crowning = Position.from_fen("international", "W:W12:B7")
    (move,) = crowning.legal_moves()
    assert move.promotes
    assert crowning.play(move).fen() == "B:WK1:B"


def test_russian_man_crowned_mid_capture_continues_as_king() -> None:
    rules = draughts.get_variant("russian")
    position = Position.from_fen(rules, "W:Wb6:Bc7,e7")
    moves = position.legal_moves()
    # b6xd8 crowns the man, which must go on as a flying king over e7 and may stop on f6, g5 or h4.
    assert sorted(rules.square_name(m.end) for m in moves) == ["f6", "g5", "h4"]
    for move in moves:
        assert move.promotes
        assert [rules.square_name(s) for s in move.path][:2] == ["b6", "d8"]
        assert position.play(move).piece_at(move.end) == Piece(WHITE, king=True)
    # Brazilian (crowned only if the capture ends there): it goes on as a man, backwards, uncrowned.
    brazilian = Position.from_fen("brazilian", "W:Wb6:Bc7,e7")
    (move,) = brazilian.legal_moves()
    assert [rules.square_name(s) for s in move.path] == ["b6", "d8", "f6"]
    assert not move.promotes
    # Czech (the move ends on the crowning row): b6xd8, crowned, e7 stays.
    czech = Position.from_fen("czech", "W:Wb6:Bc7,e7")
    (move,) = czech.legal_moves()
    assert [rules.square_name(s) for s in move.path] == ["b6", "d8"]
    assert move.promotes


def test_from_pieces_and_piece_at() -> None:
    position = Position.from_pieces("italian", {"23": Piece(WHITE, True), 19: Piece(BLACK)}, WHITE)
    assert position.piece_at(23) == Piece(WHITE, king=True)
    assert position.piece_at(19) == Piece(BLACK)
    assert position.piece_at(1) is None
    assert position.pieces() == {19: Piece(BLACK), 23: Piece(WHITE, True)}
    assert Piece(BLACK, True).symbol == "B"
    assert Piece(WHITE).symbol == "w"


def test_positions_are_built_from_squares_not_bit_layouts() -> None:
    rules = draughts.get_variant("american")
    with pytest.raises(TypeError, match="from_fen"):
        Position(rules, 1 << 5, 0, 0, WHITE)
    with pytest.raises(draughts.InvalidPositionError, match="turn"):
        Position.from_pieces(rules, {1: Piece(WHITE)}, "W")  # type: ignore[arg-type]
    with pytest.raises(draughts.InvalidPositionError, match="crowning row"):
        Position.from_pieces(rules, {1: Piece(WHITE)}, WHITE)


def test_mirror_swaps_colours() -> None:
    position = Position.from_fen("international", "W:W28,K10:B19")
    mirrored = position.mirror()
    assert mirrored.fen() == "B:W32:B23,K41"
    assert mirrored.mirror() == position
