"""The per-move path's shortcuts (issue 23 §2): each gives what the plain definition gives.

``push`` and ``play`` find their move with :func:`draughts._core.generator.move_index`, a board keeps
one live view of its legal moves, and the board's draw counters read whether a king moved off the
move's xor masks. These tests hold each shortcut to the definition it replaces.
"""

from __future__ import annotations

import copy
import gc
import pickle
import random
import weakref

import attrs
import pytest

import draughts
from draughts import Board, Move
from draughts._core.generator import move_index
from draughts.rules import MoveCountRule


def test_move_index_finds_a_move_by_identity_then_by_equality() -> None:
    moves = draughts.Position.initial("russian").legal_moves()
    for index, move in enumerate(moves):
        assert move_index(moves, move) == index
        equal = Move(move.start, move.end, move.captured, move.path, move.promotes)
        assert equal is not move
        assert move_index(moves, equal) == index
    assert move_index(moves, Move(1, 5)) == -1
    assert move_index(moves, "22-18") == -1
    assert move_index((), moves[0]) == -1


def test_a_board_keeps_one_live_view_of_its_legal_moves() -> None:
    board = Board("russian")
    view = board.legal_moves
    assert board.legal_moves is view
    first = list(view)
    board.push(first[0])
    assert board.legal_moves is view
    assert list(view) == list(board.position.legal_moves())
    assert len(view) == len(board.position.legal_moves())
    assert view() == board.position.legal_moves()
    copy = board.copy()
    assert copy.legal_moves is not view
    assert list(copy.legal_moves) == list(board.legal_moves)
    copy.pop()
    assert list(copy.legal_moves) == first
    assert list(view) != first


def test_a_board_and_its_view_make_no_reference_cycle() -> None:
    """A finished game's positions are freed with its board, not left to the cyclic collector."""
    board = Board("russian")
    view = board.legal_moves
    board.push(view[0])
    expected = board.position.legal_moves()
    gone = weakref.ref(board)
    gc.disable()
    try:
        del board
        assert gone() is None  # freed by its reference count alone
    finally:
        gc.enable()
    assert view() == expected  # a view kept by the caller still shows the game's last position


def _king_capture_home(variant: str, fen: str) -> Board:
    board = Board(variant, fen)
    (move,) = [move for move in board.legal_moves if move.start == move.end]
    assert move.captured  # a king's capture that ends on the square it started from
    return board


# A move-count rule that a man's move restarts but a capture does not: whether the piece that
# moved was a king decides the count even for a capture, and for one that ends where it began.
_MAN_ONLY = MoveCountRule(5, reset_by_man_move=True, reset_by_capture=False)


@pytest.mark.parametrize(
    ("variant", "fen"),
    [("international", "W:WK38,46:B8,11,27,29,5"), ("russian", "W:WKd2,a1:Bc7,f6,f4,c3,h8")],
)
def test_a_king_capture_ending_where_it_began_counts_as_a_king_move(variant: str, fen: str) -> None:
    base = draughts.get_variant(variant)
    rules = attrs.evolve(base, draw_rules=attrs.evolve(base.draw_rules, move_counts=(_MAN_ONLY,)))
    board = _king_capture_home(rules, fen)
    (home,) = [move for move in board.legal_moves if move.start == move.end]
    board.push(home)
    assert board.counters.move_counts == (1,)  # a king moved: not restarted, the capture does not restart it


def _expected_counts(rules: draughts.Ruleset, before: draughts.Position, move: Move, previous: tuple[int, ...]):
    king = before.is_king_at(move.start)
    counts = []
    for rule, plies in zip(rules.draw_rules.move_counts, previous, strict=True):
        reset = (
            (rule.reset_by_man_move and not king)
            or (rule.reset_by_capture and bool(move.captured))
            or (rule.reset_by_promotion and move.promotes)
        )
        counts.append(0 if reset else plies + 1)
    return tuple(counts)


@pytest.mark.parametrize("variant", ["international", "russian", "frisian", "italian", "american", "turkish"])
def test_draw_counters_follow_their_definition_over_random_games(variant: str) -> None:
    base = draughts.get_variant(variant)
    # Every reset combination at once, beside the variant's own rules.
    extra = tuple(
        MoveCountRule(40, reset_by_man_move=man, reset_by_capture=capture, reset_by_promotion=promotion)
        for man in (False, True)
        for capture in (False, True)
        for promotion in (False, True)
    )
    rules = attrs.evolve(
        base, draw_rules=attrs.evolve(base.draw_rules, move_counts=base.draw_rules.move_counts + extra)
    )
    rng = random.Random(23)
    kings_moved = 0
    for _ in range(12):
        board = Board(rules)
        for _ in range(200):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            before, previous = board.position, board.counters
            kings_moved += before.is_king_at(move.start)
            board.push(move)
            assert board.counters.move_counts == _expected_counts(rules, before, move, previous.move_counts)
            material = bool(move.captured) or move.promotes
            assert board.counters.since_material_change == (0 if material else previous.since_material_change + 1)
    assert kings_moved > 10  # the games reach kings, so both answers of the king test are checked


def test_a_position_is_its_native_base_three_parts_the_generators_node_among_them() -> None:
    """A position keeps the generator's node as one object (the one ``play`` hands back), so building
    one per ply sets few parts, not eight (each set was a descriptor call): fails with the eight
    fields of before (ruleset, the three bitboards, turn, state, generator, cache). Since issue 37's
    native node, the node keeps the legal moves itself; since the native position, the three parts
    (ruleset, node, generator) are the native base's, set when it is made, and the class adds no
    slot."""
    position = draughts.Position.initial("international")
    assert isinstance(position, draughts._native.PositionBase)
    assert draughts.Position.__slots__ == ()
    assert (position.ruleset, position._key, position._gen) == (
        draughts.get_variant("international"),
        position.native_node,
        position.generator,
    )


@pytest.mark.parametrize("variant", ["international", "russian", "frisian", "brazilian", "english", "turkish"])
def test_positions_read_off_the_node_agree_with_their_definition(variant: str) -> None:
    """Through random games: the turn, the pieces, FEN, equality, hash, pickling, copying and the
    king-move state read off the node agree with a position rebuilt from its FEN (or its pickle)."""
    rng = random.Random(variant)
    for _ in range(4):
        position = draughts.Position.initial(variant)
        for _ in range(120):
            moves = position.legal_moves()
            if not moves:
                break
            after = position.play(rng.choice(moves))
            assert after.turn is position.turn.opponent
            rebuilt = draughts.Position.from_fen(variant, after.fen())
            assert rebuilt == after
            assert hash(rebuilt) == hash(after)
            assert rebuilt.fen() == after.fen()
            assert pickle.loads(pickle.dumps(after)) == after
            assert copy.deepcopy(after) == after
            assert after.pieces() == rebuilt.pieces()
            assert [after.king_moves(color) for color in draughts.Color] == [
                rebuilt.king_moves(color) for color in draughts.Color
            ]
            assert after != position
            position = after
    with pytest.raises(TypeError):
        attrs.evolve(position, turn=position.turn.opponent)
