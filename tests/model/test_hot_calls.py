"""The per-move path's hand-written calls (issue 37, ``native/python/src/hot.rs``):
``position.legal_moves`` read and called, ``position.play`` and ``board.push``.

``Position.legal_moves`` read gives the position's :class:`~draughts.LegalMoves`; called as a method,
``position.legal_moves()``, it gives the moves tuple directly, without making the view (CPython calls
the attribute with the position, as it calls a method). ``play`` and ``push`` are method descriptors
of the Python classes themselves. These tests hold them to the behaviour of the members they
replace: the same values, the same errors, keyword arguments, and no allocation where none is
needed (counted with :mod:`tracemalloc`, not timed).
"""

from __future__ import annotations

import gc
import inspect
import random
import tracemalloc

import pytest

from draughts import Board, IllegalMoveError, InvalidMoveError, LegalMoves, Move, Position


def _midgame(variant: str, plies: int = 10) -> Position:
    position = Position.initial(variant)
    rng = random.Random(f"hot {variant}")
    for _ in range(plies):
        position = position.play(rng.choice(position.legal_moves()))
    return position


def test_calling_legal_moves_allocates_nothing_once_the_moves_are_listed() -> None:
    """``position.legal_moves()`` on a position whose moves are listed allocates no memory (before:
    a ``LegalMoves`` view was made, called and freed on every call)."""
    position = _midgame("international")
    moves = position.legal_moves()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        again = position.legal_moves()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert again is moves
    assert peak == before


@pytest.mark.parametrize("variant", ["international", "russian", "frisian"])
def test_legal_moves_read_and_called_agree(variant: str) -> None:
    position = _midgame(variant)
    view = position.legal_moves
    assert isinstance(view, LegalMoves)
    assert view._owner is position
    assert position.legal_moves() is view()
    assert type(position.legal_moves()) is tuple
    # Through the class, as a method: the attribute called with the position.
    assert Position.legal_moves(position) is view()  # type: ignore[operator]
    assert Position.__dict__["legal_moves"].__get__(position, Position)() is view()


def test_legal_moves_refuses_arguments_and_assignment() -> None:
    position = Position.initial("russian")
    before = position.fen()
    with pytest.raises(TypeError, match=r"takes no arguments \(1 given\)"):
        position.legal_moves(1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"takes no arguments"):
        position.legal_moves(key=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="needs a Position"):
        Position.legal_moves("22-18")  # type: ignore[operator]
    with pytest.raises(TypeError, match="needs a Position"):
        Position.__dict__["legal_moves"].__get__("22-18", str)
    with pytest.raises(AttributeError, match="not writable"):
        object.__setattr__(position, "legal_moves", ())
    with pytest.raises(AttributeError):
        position.legal_moves = ()  # type: ignore[misc]
    assert position.fen() == before


def test_legal_moves_is_documented_as_an_attribute() -> None:
    """The API reference documents ``legal_moves`` as it did the getter: a data descriptor with a
    docstring (not a method)."""
    attribute = Position.__dict__["legal_moves"]
    assert Position.legal_moves is attribute
    assert inspect.isdatadescriptor(attribute)
    assert not inspect.ismethoddescriptor(attribute)
    assert "legal moves" in (attribute.__doc__ or "")


def test_play_and_push_are_methods_of_the_classes_themselves() -> None:
    """``play`` and ``push`` are method descriptors of ``Position`` and ``Board`` (CPython
    specialises a call only when the instance's class is the method's own: before, they were the
    native bases' methods), with the signatures and documentation of before."""
    for cls, name in ((Position, "play"), (Board, "push")):
        method = cls.__dict__[name]
        assert method.__objclass__ is cls
        assert str(inspect.signature(method)) == "(self, /, move)"  # as PyO3 wrote it
        assert "move" in (method.__doc__ or "")


def test_play_and_push_take_their_move_by_position_or_keyword() -> None:
    position = _midgame("russian")
    move = position.legal_moves()[0]
    assert position.play(move=move) == position.play(move)
    board = Board.from_position(position)
    board.push(move=move)
    assert board.position == position.play(move)
    for call in (position.play, board.push):
        with pytest.raises(TypeError, match="exactly one argument"):
            call()  # type: ignore[call-arg]
        with pytest.raises(TypeError, match="exactly one argument"):
            call(move, move)  # type: ignore[call-arg]
        with pytest.raises(TypeError, match="unexpected keyword argument 'mv'"):
            call(mv=move)  # type: ignore[call-arg]


def test_play_and_push_refuse_what_they_refused() -> None:
    """The errors of before, and a failed call leaves the position or board as it was."""
    position = _midgame("russian")
    board = Board.from_position(position)
    for call in (position.play, board.push):
        with pytest.raises(IllegalMoveError, match="not legal"):
            call(Move(1, 5))
        with pytest.raises(InvalidMoveError, match="is not a Move"):
            call("22-18")  # type: ignore[arg-type]
    assert board.position == position
    assert board.move_stack == []
    with pytest.raises(TypeError):
        Position.play("22-18", position.legal_moves()[0])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Board.push(position, position.legal_moves()[0])  # type: ignore[arg-type]


def test_subclasses_take_the_fast_members_too() -> None:
    """Subclasses of Position and Board read, call and play through the same members (CPython's
    generic call path): a position made by ``play`` keeps its class."""

    class MyPosition(Position):
        pass

    class MyBoard(Board):
        pass

    position = MyPosition.initial("international")
    board = MyBoard("international")
    for _ in range(4):
        assert isinstance(position.legal_moves, LegalMoves)
        move = position.legal_moves()[-1]
        position = position.play(move)
        board.push(list(board.legal_moves)[-1])
        assert type(position) is MyPosition
    assert board.position == position
    assert len(board.move_stack) == 4


@pytest.mark.parametrize("variant", ["international", "russian"])
def test_listed_moves_are_left_out_of_the_cyclic_collector(variant: str) -> None:
    """The ``Move`` objects the per-ruleset cache makes (quiet moves, single jumps, captures of
    the full listing; natively, slot by slot, as the public constructor would), and the tuples
    and frozenset they hold, are not tracked by the cyclic garbage collector: they can be part of
    no cycle and live as long as the cache, and tracked they were traversed by every collection
    of a long run (before: all tracked)."""
    rng = random.Random(f"untracked {variant}")
    kinds = set()
    for _ in range(3):
        position = Position.initial(variant)
        for _ in range(120):
            moves = position.legal_moves()
            if not moves:
                break
            for move in moves:
                kinds.add(len(move.captured))
                # Made natively, slot by slot: the Move the public constructor makes.
                public = Move(move.start, move.end, move.captured, move.path, move.promotes)
                assert (move._key, move._hash, repr(move)) == (public._key, public._hash, repr(public))
                assert move == public
                assert type(move) is Move
                for part in (move, move.path, move.captured, move._key, move._key[2]):
                    assert not gc.is_tracked(part), (move, part)
            position = position.play(rng.choice(moves))
    assert {0, 1} <= kinds  # quiet moves and single jumps
    assert max(kinds) > 1  # and longer captures
    assert gc.is_tracked(Move(31, 26))  # a move made by the user is a plain object
