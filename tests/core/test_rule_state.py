"""Rule state that positions carry (Frisian's limit on consecutive king moves) and the win
conditions beyond "no move loses" (losing draughts, breakthrough)."""

from __future__ import annotations

import attrs
import pytest

import draughts
from draughts import BLACK, WHITE, Board, Piece, Position, Termination
from draughts.engine import Engine, Limit
from draughts.rules.ruleset import LARGEST_KING_MOVE_LIMIT


def brute_perft(position: Position, depth: int) -> int:
    """perft through the public objects only: play every move, count at the bottom."""
    if depth == 0:
        return 1
    return sum(brute_perft(position.play(move), depth - 1) for move in position.legal_moves)


# --- Frisian: at most three quiet moves in a row with the same king (FRI-2011 art. 17) -----------


def king_moves(board: Board, steps: list[str]) -> None:
    for text in steps:
        board.push_text(text)


SHUTTLE = ["3-8", "1-6", "8-3", "6-1", "3-8", "1-6"]  # each king steps out and back, three times for White


def test_the_fourth_quiet_move_of_one_king_is_illegal() -> None:
    board = Board("frisian", fen="W:WK3,19:BK1,40")
    king_moves(board, SHUTTLE)
    assert board.position.king_moves(WHITE) == (8, 3)
    assert [str(move) for move in board.legal_moves] == ["19-13", "19-14"]  # only the man may move
    with pytest.raises(draughts.IllegalMoveError):
        board.push_text("8-3")
    board.push_text("19-14")  # another piece moves: the ban is lifted
    assert board.position.king_moves(WHITE) is None


def test_a_side_with_only_kings_is_exempt_and_another_king_counts_afresh() -> None:
    board = Board("frisian", fen="W:WK3,K37:BK1,40")
    king_moves(board, SHUTTLE)
    assert board.position.king_moves(WHITE) is None  # White has no men: no count is kept
    assert any(move.start == 8 for move in board.legal_moves)
    board = Board("frisian", fen="W:WK3,K37,19:BK1,40")
    king_moves(board, [*SHUTTLE[:4], "37-31"])
    assert board.position.king_moves(WHITE) == (31, 1)


def test_a_capture_with_the_restricted_king_stays_legal() -> None:
    position = Position.from_pieces(
        "frisian",
        {8: Piece(WHITE, True), 19: Piece(WHITE), 1: Piece(BLACK, True), 12: Piece(BLACK), 40: Piece(BLACK)},
        WHITE,
        king_moves={WHITE: (8, 3)},
    )
    assert [str(move) for move in position.legal_moves] == ["8x17", "8x21", "8x26"]


def test_the_count_is_part_of_the_position() -> None:
    pieces = {47: Piece(WHITE, True), 31: Piece(WHITE), 5: Piece(BLACK)}
    fresh = Position.from_pieces("frisian", pieces, WHITE)
    counted = Position.from_pieces("frisian", pieces, WHITE, king_moves={WHITE: (47, 3)})
    assert fresh != counted
    assert len({fresh, counted}) == 2
    assert fresh.legal_moves.count() != counted.legal_moves.count()
    # A count that cannot matter (no king there, or no men) is dropped: equal positions stay equal.
    assert Position.from_pieces("frisian", pieces, WHITE, king_moves={WHITE: (46, 2)}) == fresh


def test_fen_carries_the_count_in_lidraughts_form() -> None:
    position = Position.from_pieces(
        "frisian",
        {47: Piece(WHITE, True), 31: Piece(WHITE), 4: Piece(BLACK, True), 5: Piece(BLACK)},
        WHITE,
        king_moves={WHITE: (47, 2), BLACK: (4, 1)},
    )
    fen = position.fen()
    assert fen.endswith(":+104+247")  # Black's count and king first, as lidraughts writes it
    assert Position.from_fen("frisian", fen) == position
    assert Position.from_fen("frisian", "W:WK47,31:BK4,5:H0:F1:+0+0") == Position.from_fen("frisian", "W:WK47,31:BK4,5")
    with pytest.raises(draughts.InvalidFenError, match="king-move"):
        Position.from_fen("frisian", "W:WK47,31:BK4,5:+9")


def test_perft_follows_the_count() -> None:
    pieces = {3: Piece(WHITE, True), 19: Piece(WHITE), 1: Piece(BLACK, True), 40: Piece(BLACK)}
    counted = Position.from_pieces("frisian", pieces, WHITE, king_moves={WHITE: (3, 2)})
    fresh = Position.from_pieces("frisian", pieces, WHITE)
    for depth in (1, 2, 3, 4):
        assert draughts.perft(counted, depth) == brute_perft(counted, depth)
        assert draughts.perft(fresh, depth) == brute_perft(fresh, depth)
    assert [draughts.perft(counted, depth) for depth in (1, 2, 3)] == [11, 86, 104]
    assert [draughts.perft(fresh, depth) for depth in (1, 2, 3)] == [11, 86, 387]


# --- losing draughts and breakthrough ------------------------------------------------------------


def test_in_antidraughts_the_side_without_a_move_wins() -> None:
    board = Board("antidraughts", fen="W:W:B19")
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.winner is WHITE
    assert outcome.termination is Termination.NO_PIECES
    assert outcome.result == "2-0"
    assert "wins" in outcome.rule


def test_the_engine_gives_its_pieces_away_in_antidraughts() -> None:
    # White can give its last man away (32-28 offers it to 23) or keep it (32-27): it gives it.
    position = Position.from_fen("antidraughts", "W:W32:B23")
    result = Engine(seed=0).search(position, Limit(depth=4))
    assert result.move is not None
    assert result.mate_in is not None
    assert result.mate_in > 0


def test_in_breakthrough_the_first_king_wins() -> None:
    board = Board("breakthrough", fen="W:W7:B40")
    board.push_text("7-1")
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.termination) == (WHITE, Termination.CROWNING)
    assert board.legal_moves.count() == 0
    assert draughts.perft(board.position, 1) == 0
    result = Engine(seed=0).search(Position.from_fen("breakthrough", "W:W7:B40"), Limit(depth=3))
    assert result.mate_in == 1


def test_a_breakthrough_position_with_two_kings_cannot_arise() -> None:
    with pytest.raises(draughts.InvalidPositionError, match="first king"):
        Position.from_fen("breakthrough", "W:WK1:BK50")


@pytest.mark.parametrize("name", ["american-losing", "russian-nfc-losing", "italian-breakthrough"])
def test_the_transforms_make_any_ruleset_losing_or_breakthrough(name: str) -> None:
    rules = draughts.get_variant(name)
    assert rules.name == name
    base = draughts.get_variant(name.rsplit("-", 1)[0])
    assert draughts.perft(Position.initial(rules), 4) == draughts.perft(Position.initial(base), 4)


# --- limits beyond one digit and one byte (issue 23 item 24) -------------------------------------


def _frisian_with_limit(limit: int) -> draughts.Ruleset:
    return attrs.evolve(draughts.get_variant("frisian"), king_move_limit=limit)


def test_a_two_digit_count_reads_back_from_the_fen() -> None:
    rules = _frisian_with_limit(12)
    fen = "B:WK21,45:B6,K29:+929+1021"
    position = Position.from_fen(rules, fen)
    assert position.king_moves(WHITE) == (21, 10)
    assert position.king_moves(BLACK) == (29, 9)
    assert position.fen() == fen
    assert Position.from_fen(rules, "B:WK21,45:B6,K29:+929+1221").king_moves(WHITE) == (21, 12)
    with pytest.raises(draughts.InvalidFenError, match="king-move"):
        Position.from_fen(rules, "B:WK21,45:B6,K29:+929+1321")  # past the limit
    with pytest.raises(draughts.InvalidFenError, match="king-move count"):
        Position.from_fen(rules, "B:WK21,45:B6,K29:+929+" + "9" * 40 + "21")


@pytest.mark.parametrize("count", [255, 256, 259])
def test_counts_past_one_byte_are_kept_and_the_limit_bites(count: int) -> None:
    rules = _frisian_with_limit(260)
    pieces = {21: Piece(WHITE, True), 45: Piece(WHITE), 6: Piece(BLACK)}
    position = Position.from_pieces(rules, pieces, WHITE, king_moves={WHITE: (21, count)})
    assert position.king_moves(WHITE) == (21, count)
    assert Position.from_fen(rules, position.fen()) == position
    # One more quiet move of that king, and the opponent's reply: the count goes on from there.
    after = position.play(next(move for move in position.legal_moves if move.start == 21))
    after = after.play(after.legal_moves[0])
    square, made = after.king_moves(WHITE) or (0, 0)
    assert made == count + 1
    king_steps = [move for move in after.legal_moves if move.start == square]
    assert bool(king_steps) == (count + 1 < 260)


def test_a_huge_limit_holds_every_count() -> None:
    limit = LARGEST_KING_MOVE_LIMIT  # 40 bits in the native rule state
    rules = _frisian_with_limit(limit)
    pieces = {21: Piece(WHITE, True), 45: Piece(WHITE), 6: Piece(BLACK)}
    position = Position.from_pieces(rules, pieces, WHITE, king_moves={WHITE: (21, limit)})
    assert position.king_moves(WHITE) == (21, limit)
    assert Position.from_fen(rules, position.fen()) == position
    assert all(move.start != 21 for move in position.legal_moves)
    with pytest.raises(draughts.InvalidPositionError, match="king-move count"):
        Position.from_pieces(rules, pieces, WHITE, king_moves={WHITE: (21, limit + 1)})
    with pytest.raises(draughts.InvalidRulesetError, match="1,099,511,627,775"):
        _frisian_with_limit(limit + 1)


def test_boards_of_three_digit_squares_write_the_square_in_full() -> None:
    rules = attrs.evolve(_frisian_with_limit(12), name="frisian-16", board_size=16, rows_per_side=6)
    position = Position.from_fen(rules, "W:WK21,120:BK5,60:+1005+12021")
    assert position.king_moves(WHITE) == (21, 12)
    assert position.king_moves(BLACK) == (5, 1)
    assert position.fen().endswith(":+1005+12021")
    assert Position.from_fen(rules, position.fen()) == position
