"""The native node of a position (issue 37, per-move goals): a position holds its node natively
(``draughts._native.Node``), which lists the legal moves once and makes the position after a listed
move from the move's place in the list; ``LegalMoves`` is a native collection over it.

These tests hold the native path to the definitions it replaces: the moves the generator lists in
full (``Rules.legal_moves``, the public form of every move, sorted), the position a FEN gives, the
errors of before, and they count the Python-level calls a ply makes (work counted, not timed).
"""

from __future__ import annotations

import pickle
import random
import sys
from collections.abc import Callable, Collection
from types import FrameType

import pytest

import draughts
from draughts import Board, IllegalMoveError, InvalidMoveError, LegalMoves, Move, Position


def _python_calls(work: Callable[[], object]) -> list[str]:
    """The Python functions ``work`` calls (its own frame left out), by name."""
    names: list[str] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            names.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    # A Move seen for the first time is made once per ruleset (trusted_move and what it runs).
    return [name for name in names if name not in ("<lambda>", "trusted_move", "_fill")]


def _midgame(variant: str, plies: int = 12) -> Position:
    position = Position.initial(variant)
    rng = random.Random(variant)
    for _ in range(plies):
        position = position.play(rng.choice(position.legal_moves()))
    return position


def test_a_ply_of_positions_runs_no_python_function() -> None:
    """``moves = position.legal_moves(); position = position.play(choice)`` runs no Python function:
    ``legal_moves`` and ``play`` are native methods of the position's base
    (``draughts._native.PositionBase``), and the listing, the collection and the next position are
    made natively (before: the property and ``play`` ran in Python; before that, seven functions)."""
    position = _midgame("international")
    moves: list[tuple[Move, ...]] = []
    calls = _python_calls(lambda: moves.append(position.legal_moves()))
    assert calls == []
    assert isinstance(position.legal_moves, LegalMoves)
    after: list[Position] = []
    calls = _python_calls(lambda: after.append(position.play(moves[0][0])))
    assert calls == []
    assert type(after[0]) is Position
    assert after[0] == Position.from_fen("international", after[0].fen())


def test_a_ply_of_a_board_runs_no_python_function() -> None:
    """``list(board.legal_moves)`` and ``board.push(choice)`` run no Python function: both are
    native methods of the board's base (``draughts._native.BoardBase``), the view reads the last
    position's node natively (before: the property, and ``push`` with its own steps; before that,
    the view's ``__len__``, ``__iter__`` and two listings of the moves besides)."""
    board = Board("international")
    for _ in range(6):
        board.push(board.legal_moves[0])
    listed: list[list[Move]] = []
    assert _python_calls(lambda: listed.append(list(board.legal_moves))) == []
    assert _python_calls(lambda: board.push(listed[0][-1])) == []
    assert board.move_stack[-1] is listed[0][-1]
    assert board.position == Position.from_fen("international", board.fen())


@pytest.mark.parametrize("variant", sorted(draughts.VARIANTS))
def test_the_native_listing_is_the_generators_full_listing(variant: str) -> None:
    """Through random games of every named variant: a position's moves and masks (quiet positions
    take a shorter native path: no public form of each move, no sort of it) are those of the
    generator's full listing, move for move and in order; playing each gives the position the
    masks give."""
    rng = random.Random(variant)
    quiet_seen = captures_seen = 0
    for _ in range(3):
        position = Position.initial(variant)
        for _ in range(100):
            moves, masks = position.moves_with_masks()
            full_moves, full_masks = position.generator.legal(*position.node, False)
            assert moves == full_moves
            assert [m.path for m in moves] == [m.path for m in full_moves]
            assert [m.promotes for m in moves] == [m.promotes for m in full_moves]
            assert masks == full_masks
            if not moves:
                break
            if any(move.captured for move in moves):
                captures_seen += 1
            else:
                quiet_seen += 1
            index = rng.randrange(len(moves))
            after = position.play(moves[index])
            assert after == position.child(masks[index]) == position.child_at(index)
            position = after
    assert quiet_seen > 10
    if variant not in ("breakthrough",):
        assert captures_seen > 0


def test_play_finds_a_move_by_identity_then_by_equality_and_refuses_others() -> None:
    position = _midgame("russian")
    before = position.fen()
    for index, move in enumerate(position.legal_moves()):
        equal = Move(move.start, move.end, move.captured, move.path, move.promotes)
        assert equal is not move
        assert position.move_index(move) == position.move_index(equal) == index
        assert position.play(equal) == position.play(move) == position.child_at(index)
    assert position.move_index(Move(1, 5)) == -1
    assert position.move_index("22-18") == -1
    with pytest.raises(IllegalMoveError, match="not legal"):
        position.play(Move(1, 5))
    with pytest.raises(InvalidMoveError, match="is not a Move"):
        position.play("22-18")  # type: ignore[arg-type]
    with pytest.raises(IndexError):
        position.child_at(len(position.legal_moves()))
    assert position.fen() == before  # a failed call leaves the position as it was


def test_positions_made_natively_are_positions() -> None:
    """The position ``play`` makes natively is a full ``Position``: its class, ruleset and generator
    are its parent's, it equals and hashes as the same position read from its FEN, pickles, and
    stays immutable."""
    start = Position.initial("frisian")
    after = start.play(start.legal_moves()[0])
    assert type(after) is Position
    assert after.ruleset is start.ruleset
    assert after.generator is start.generator
    rebuilt = Position.from_fen("frisian", after.fen())
    assert rebuilt == after
    assert hash(rebuilt) == hash(after)
    assert rebuilt.native_node == after.native_node
    assert hash(rebuilt.native_node) == hash(after.native_node)
    assert rebuilt.node == after.node
    assert pickle.loads(pickle.dumps(after)) == after
    assert after != start
    assert after.native_node != start.native_node
    with pytest.raises(AttributeError):
        after.ruleset = start.ruleset  # type: ignore[misc]


def test_legal_moves_is_a_native_collection_over_the_node() -> None:
    position = _midgame("international")
    view = position.legal_moves
    moves = position.legal_moves()
    assert isinstance(view, LegalMoves)
    assert isinstance(view, Collection)
    assert view() is moves  # listed once per position
    assert len(view) == view.count() == len(moves)
    assert bool(view)
    assert list(view) == list(moves)
    assert moves[0] in view
    assert Move(1, 5) not in view
    assert view[0] is moves[0]
    assert view[-1] is moves[-1]
    assert view[1:3] == moves[1:3]
    assert view == moves
    assert view == list(moves)
    assert view == position.legal_moves
    assert repr(view).startswith(f"<LegalMoves ({len(moves)}): ")
    with pytest.raises(TypeError):
        hash(view)
    with pytest.raises(IndexError):
        view[len(moves)]


def test_a_node_refuses_what_does_not_fit_its_rules() -> None:
    """The native node checks what it is built from, with the library's errors (a failed call
    changes nothing)."""
    rules = Position.initial("russian").generator.native
    with pytest.raises(draughts.InvalidPositionError):
        draughts._native.Node(rules, 1, 1, 0, 0, 0)  # both sides on one square
    with pytest.raises(TypeError):
        draughts._native.Node(rules, "1", 0, 0, 0, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        rules.moves(1, 2, 0)  # type: ignore[call-arg]


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_boards_and_positions_on_native_bases_pickle_with_every_protocol(protocol: int) -> None:
    """A board (a class on a native base since the native push) and a position pickle and copy as
    before, with every protocol: 0 and 1 cannot make an instance of such a class by themselves."""
    board = Board("russian")
    for _ in range(5):
        board.push(board.legal_moves[-1])
    again = pickle.loads(pickle.dumps(board, protocol))
    assert again == board
    assert type(again) is Board
    assert list(again.legal_moves) == list(board.legal_moves)
    assert again.counters == board.counters
    assert again.move_stack == board.move_stack
    position = board.position
    assert pickle.loads(pickle.dumps(position, protocol)) == position


@pytest.mark.parametrize("variant", sorted(draughts.VARIANTS))
def test_a_boards_push_counts_each_move_by_what_it_did(variant: str) -> None:
    """The native push tells the draw counter what each move did from the move's masks (a capture,
    a man crowned, a man moved) with no Python call: through random games of every named variant
    the counts follow the move's own ``captured`` and ``promotes`` and the piece that stood on its
    start square, each rule's count restarting exactly when one of its events happened."""
    rules = draughts.get_variant(variant)
    move_rules = rules.draw_rules.move_counts
    rng = random.Random(f"push {variant}")
    events_seen: set[str] = set()
    for _ in range(4):
        board = Board(rules)
        for _ in range(120):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            before = board.counters
            man = not board.position.is_king_at(move.start)
            board.push(move)
            material = bool(move.captured) or move.promotes
            happened = {"capture": bool(move.captured), "crowning": move.promotes, "man": man}
            events_seen.update(name for name, did in happened.items() if did)
            after = board.counters
            assert after.since_material_change == (0 if material else before.since_material_change + 1)
            for rule, count, was in zip(move_rules, after.move_counts, before.move_counts, strict=True):
                resets = (
                    (rule.reset_by_capture and bool(move.captured))
                    or (rule.reset_by_promotion and move.promotes)
                    or (rule.reset_by_man_move and man)
                )
                assert count == (0 if resets else was + 1)
    assert "man" in events_seen
    if variant != "breakthrough":
        assert "capture" in events_seen
