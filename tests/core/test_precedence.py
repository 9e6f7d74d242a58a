"""Capture precedence, applied by the native core's resolver: the criteria keys, the facts the
resolver hands them, and which captures stay legal in positions where the criteria disagree.

The Python resolver could be fed hand-made raw captures; the native one is seen through the
legal moves of positions built for each rule (found among random positions, checked by eye), and
through a user-defined criterion, which the core calls back with the facts of each capture."""

from __future__ import annotations

from typing import ClassVar

import attrs
import pytest

import draughts
from draughts import CaptureFacts, MostValue, Position, Precedence
from draughts._core.native import native_spec

MOST_PIECES_OR_KING_OR_KINGS = "W:WK4,38:B5,10,K19,K25,K32,33,34,K46"
"""International board: the king on 4 takes one man, the man on 38 takes a king or two men."""


def ruleset(*criteria: draughts.Criterion) -> draughts.Ruleset:
    return attrs.evolve(draughts.VARIANTS["international"], name="test", precedence=criteria)


def facts(position: Position, move: draughts.Move) -> CaptureFacts:
    """What the criteria compare about ``move``, read off the board before it."""
    pieces = position.pieces()
    order = tuple(pieces[square].king for square in move.captured)
    return CaptureFacts(len(move.captured), sum(order), pieces[move.start].king, order)


def chosen(rules: draughts.Ruleset, fen: str) -> list[CaptureFacts]:
    """The facts of the legal captures of ``fen`` under ``rules``, in move order."""
    position = Position.from_fen(rules, fen)
    return [facts(position, move) for move in position.legal_moves() if move.captured]


TWO_MEN = CaptureFacts(2, 0, False, (False, False))
ONE_KING = CaptureFacts(1, 1, False, (True,))
MAN_BY_KING = CaptureFacts(1, 0, True, (False,))


class _Recorder(draughts.Criterion):
    """A user-defined criterion (the core calls it back) that records the facts it is given."""

    label: ClassVar[str] = "recorder"
    seen: ClassVar[list[CaptureFacts]] = []

    def key(self, capture: CaptureFacts) -> int:
        self.seen.append(capture)
        return 0


class _OrderRecorder(_Recorder):
    label: ClassVar[str] = "order recorder"
    needs_order: ClassVar[bool] = True


@pytest.mark.parametrize(
    ("fen", "needs_order"),
    [
        (MOST_PIECES_OR_KING_OR_KINGS, True),
        (MOST_PIECES_OR_KING_OR_KINGS, False),
        ("W:WK14,21,29:B10,15,17", True),  # no king to meet: an order of men only
    ],
)
def test_the_resolver_hands_each_capture_its_facts(fen: str, needs_order: bool) -> None:
    """Pieces and kings taken, whether a king captures, and the kings in capture order only where
    a criterion reads it (else the order is left empty)."""
    rules = ruleset(_OrderRecorder() if needs_order else _Recorder())
    position = Position.from_fen(rules, fen)
    assert position.generator  # the rules compiled (their tables probe the key on made-up captures)
    _Recorder.seen.clear()
    moves = position.legal_moves()
    every = {facts(position, move) for move in moves}
    expected = every if needs_order else {capture._replace(order=()) for capture in every}
    assert len(moves) > 1
    assert set(_Recorder.seen) == expected


def test_free_choice_keeps_every_capture() -> None:
    assert sorted(chosen(ruleset(), MOST_PIECES_OR_KING_OR_KINGS)) == sorted([MAN_BY_KING, ONE_KING, TWO_MEN])


def test_most_pieces() -> None:
    assert chosen(ruleset(Precedence.MOST_PIECES), MOST_PIECES_OR_KING_OR_KINGS) == [TWO_MEN]


def test_with_king_alone_is_the_czech_rule() -> None:
    assert chosen(ruleset(Precedence.WITH_KING), MOST_PIECES_OR_KING_OR_KINGS) == [MAN_BY_KING]


def test_most_kings_before_most_pieces_when_listed_first() -> None:
    rules = ruleset(Precedence.MOST_KINGS, Precedence.MOST_PIECES)
    assert chosen(rules, MOST_PIECES_OR_KING_OR_KINGS) == [ONE_KING]
    assert chosen(ruleset(Precedence.MOST_PIECES, Precedence.MOST_KINGS), MOST_PIECES_OR_KING_OR_KINGS) == [TWO_MEN]


def test_kings_met_earliest() -> None:
    """FID 6.9: with equal counts, the capture meeting a king first wins (K,m beats m,K)."""
    fen = "W:W23:B1,K8,18,24,K29,K35,39,44"  # the man on 23 takes a king and a man, either way round
    assert sorted(capture.order for capture in chosen(ruleset(Precedence.MOST_PIECES), fen)) == [
        (False, True),
        (True, False),
    ]
    rules = ruleset(Precedence.MOST_PIECES, Precedence.KINGS_EARLIEST)
    assert [capture.order for capture in chosen(rules, fen)] == [(True, False)]
    assert Precedence.KINGS_EARLIEST.key(CaptureFacts(2, 1, False, (True, False))) == (True, False)


@pytest.mark.parametrize(
    ("fen", "kept"),
    [
        ("W:W48:B4,34,K42,43", TWO_MEN),  # 1 king < 2 men
        ("W:W11,39,50:B4,5,8,17,18,K42,K43,K45", CaptureFacts(2, 2, False, (True, True))),  # 2 kings > 3 men
        ("W:WK14,21,29:B10,15,17", MAN_BY_KING),  # equal value: the king captures
    ],
)
def test_value_then_king_capturer_is_the_frisian_rule(fen: str, kept: CaptureFacts) -> None:
    """Frisian 2011 art. 11-12: a king is worth more than a man, less than two; a king capturer wins ties."""
    assert len(chosen(ruleset(), fen)) == 2  # two captures to choose from
    assert chosen(ruleset(MostValue(man=100, king=199), Precedence.WITH_KING), fen) == [kept]


@pytest.mark.parametrize(("kings", "men", "bigger"), [(1, 1, True), (1, 2, False), (3, 5, True), (3, 6, False)])
def test_frisian_value_bounds(kings: int, men: int, bigger: bool) -> None:
    """n kings are worth more than 2n-1 men and less than 2n men."""
    value = MostValue(man=100, king=199)
    assert (value.key(CaptureFacts(kings, kings, False)) > value.key(CaptureFacts(men, 0, False))) is bigger


def test_ties_all_stay() -> None:
    fen = "W:W28,31:BK5,7,9,12,14,15,22,26,30,K33,K37,K43"  # two captures of two pieces, one of one
    assert len(chosen(ruleset(), fen)) == 3
    assert sorted(chosen(ruleset(Precedence.MOST_PIECES), fen)) == sorted(
        [TWO_MEN, CaptureFacts(2, 2, False, (True, True))]
    )


def test_identity_ignores_capture_order_and_path() -> None:
    """Paths with one identity (start, end, captured set) are one move; perft's "keep" convention
    counts each path."""
    position = Position.from_fen("international", "W:WK16,50:B1,5,6,K7,8,K21,39")
    paths = [move for move, _ in draughts.divide(position, 1, paths=True)]
    moves = position.legal_moves()
    assert len(paths) > len(moves) == len({move.identity for move in paths})
    assert {move.identity for move in moves} == {move.identity for move in paths}
    assert len({(move.path, move.captured) for move in paths}) == len(paths)  # the paths differ


def test_single_jump_preference_is_derived_from_the_criteria() -> None:
    """Among single jumps by men only taking a king or a man can differ: read off the keys and
    handed to the native core with the rules."""
    assert native_spec(ruleset(Precedence.MOST_PIECES))["single_jump_preference"] == 0
    assert native_spec(ruleset(Precedence.MOST_PIECES, Precedence.MOST_KINGS))["single_jump_preference"] == 1
    assert native_spec(ruleset(MostValue(man=100, king=199)))["single_jump_preference"] == 1
    assert native_spec(ruleset(MostValue(man=3, king=1)))["single_jump_preference"] == -1


def test_criteria_are_validated() -> None:
    with pytest.raises(draughts.InvalidRulesetError, match="king"):
        MostValue(man=1, king=0)
    with pytest.raises(draughts.InvalidRulesetError, match="twice"):
        ruleset(Precedence.MOST_PIECES, Precedence.MOST_PIECES)
