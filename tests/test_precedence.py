"""The capture-priority resolver on its own, with hand-made candidates (no generator involved)."""

from __future__ import annotations

import attrs

import draughts
from draughts import Precedence
from draughts.movegen import Candidate
from draughts.precedence import best_captures, deduplicate, identity, precedence_key, resolve

KINGS = 1 << 10 | 1 << 11  # bits 10 and 11 hold kings


def capture(start: int, end: int, captured: tuple[int, ...], *, king: bool = False) -> Candidate:
    return Candidate(start, end, captured, (start, *captured[1:], end), False, king)


QUIET = Candidate(1, 2, (), (1, 2), False, False)
FOUR_MEN = capture(0, 9, (3, 4, 5, 6))
THREE_BY_KING = capture(0, 9, (3, 4, 5), king=True)
TWO_KINGS = capture(0, 8, (10, 11))
KING_FIRST = capture(0, 7, (10, 3))
KING_SECOND = capture(0, 7, (3, 11))


def test_free_choice_keeps_every_capture() -> None:
    assert best_captures((), [FOUR_MEN, TWO_KINGS], KINGS) == [FOUR_MEN, TWO_KINGS]


def test_most_pieces() -> None:
    assert best_captures((Precedence.MOST_PIECES,), [TWO_KINGS, FOUR_MEN, THREE_BY_KING], KINGS) == [FOUR_MEN]


def test_with_king_alone_is_the_czech_rule() -> None:
    chosen = best_captures((Precedence.WITH_KING,), [FOUR_MEN, THREE_BY_KING, TWO_KINGS], KINGS)
    assert chosen == [THREE_BY_KING]


def test_most_kings_before_most_pieces_when_listed_first() -> None:
    chosen = best_captures((Precedence.MOST_KINGS, Precedence.MOST_PIECES), [FOUR_MEN, TWO_KINGS, KING_FIRST], KINGS)
    assert chosen == [TWO_KINGS]


def test_kings_met_earliest() -> None:
    """FID 6.9: with equal counts, the capture meeting a king first wins (K,m beats m,K)."""
    chosen = best_captures((Precedence.MOST_PIECES, Precedence.KINGS_EARLIEST), [KING_SECOND, KING_FIRST], KINGS)
    assert chosen == [KING_FIRST]
    assert precedence_key((Precedence.KINGS_EARLIEST,), KING_FIRST, KINGS) == ((1, 0),)
    assert precedence_key((Precedence.KINGS_EARLIEST,), KING_SECOND, KINGS) == ((0, 1),)


def test_ties_all_stay() -> None:
    twin = capture(0, 9, (6, 5, 4, 3))
    assert best_captures((Precedence.MOST_PIECES,), [FOUR_MEN, twin, TWO_KINGS], KINGS) == [FOUR_MEN, twin]


def test_identity_ignores_capture_order_and_path() -> None:
    reversed_order = capture(0, 9, (6, 5, 4, 3))
    assert identity(reversed_order) == identity(FOUR_MEN)
    assert deduplicate([FOUR_MEN, reversed_order, TWO_KINGS]) == [FOUR_MEN, TWO_KINGS]


def test_resolve_mandatory_and_optional_capture() -> None:
    american = draughts.VARIANTS["american"]
    assert resolve(american, [QUIET], [FOUR_MEN, TWO_KINGS], KINGS) == [FOUR_MEN, TWO_KINGS]
    assert resolve(american, [QUIET], [], KINGS) == [QUIET]
    house = draughts.no_forced_capture(american)
    assert resolve(house, [QUIET], [FOUR_MEN, TWO_KINGS], KINGS) == [QUIET, FOUR_MEN, TWO_KINGS]
    # The house rule keeps the base precedence among captures.
    brazilian_house = draughts.no_forced_capture(draughts.VARIANTS["brazilian"])
    assert resolve(brazilian_house, [QUIET], [FOUR_MEN, TWO_KINGS], KINGS) == [QUIET, FOUR_MEN]


def test_resolve_paths_keeps_duplicates() -> None:
    rules = attrs.evolve(draughts.VARIANTS["russian"], precedence=())
    twin = capture(0, 9, (6, 5, 4, 3))
    assert resolve(rules, [], [FOUR_MEN, twin], KINGS) == [FOUR_MEN]
    assert resolve(rules, [], [FOUR_MEN, twin], KINGS, paths=True) == [FOUR_MEN, twin]
