"""The capture-priority resolver on its own: the criteria keys, and the resolver that the generator
runs, fed hand-made raw captures (no capture search involved)."""

from __future__ import annotations

import attrs
import pytest

import draughts
from draughts import CaptureFacts, MostValue, Precedence
from draughts._core import compile_rules
from draughts._core.resolver import best, deduplicate, facts

KINGS = 1 << 10 | 1 << 11  # bits 10 and 11 hold kings
B = [1 << index for index in range(16)]


def capture(start: int, end: int, captured: tuple[int, ...]) -> tuple[int, int, int, bool, tuple[int, ...], tuple[()]]:
    """A raw capture by the piece on bit ``start``, recorded with its capture order."""
    mask = 0
    for index in captured:
        mask |= B[index]
    return (B[start], B[end], mask, False, tuple(B[index] for index in captured), ())


FOUR_MEN = capture(0, 9, (3, 4, 5, 6))
THREE_BY_KING = capture(10, 9, (3, 4, 5))  # the capturer on bit 10 is a king
TWO_KINGS = capture(0, 8, (10, 11))
KING_FIRST = capture(0, 7, (10, 3))
KING_SECOND = capture(0, 7, (3, 11))


def ruleset(*criteria: draughts.Criterion) -> draughts.Ruleset:
    return attrs.evolve(draughts.VARIANTS["russian"], name="test", precedence=criteria)


def chosen(rules: draughts.Ruleset, raws: list[object]) -> list[object]:
    return best(compile_rules(rules), raws, KINGS, True)  # type: ignore[arg-type]


def test_facts() -> None:
    assert facts(THREE_BY_KING, KINGS, True, True) == CaptureFacts(3, 0, True, (False, False, False))  # type: ignore[arg-type]
    assert facts(KING_FIRST, KINGS, True, True) == CaptureFacts(2, 1, False, (True, False))  # type: ignore[arg-type]
    # Without a recorded order the search met no king: an order of men only.
    assert facts(FOUR_MEN, KINGS, True, False).order == (False,) * 4  # type: ignore[arg-type]
    # Where no criterion reads the order, it is left empty.
    assert facts(KING_FIRST, KINGS, False, True).order == ()  # type: ignore[arg-type]


def test_free_choice_keeps_every_capture() -> None:
    assert chosen(ruleset(), [FOUR_MEN, TWO_KINGS]) == [FOUR_MEN, TWO_KINGS]


def test_most_pieces() -> None:
    assert chosen(ruleset(Precedence.MOST_PIECES), [TWO_KINGS, FOUR_MEN, THREE_BY_KING]) == [FOUR_MEN]


def test_with_king_alone_is_the_czech_rule() -> None:
    assert chosen(ruleset(Precedence.WITH_KING), [FOUR_MEN, THREE_BY_KING, TWO_KINGS]) == [THREE_BY_KING]


def test_most_kings_before_most_pieces_when_listed_first() -> None:
    rules = ruleset(Precedence.MOST_KINGS, Precedence.MOST_PIECES)
    assert chosen(rules, [FOUR_MEN, TWO_KINGS, KING_FIRST]) == [TWO_KINGS]


def test_kings_met_earliest() -> None:
    """FID 6.9: with equal counts, the capture meeting a king first wins (K,m beats m,K)."""
    rules = ruleset(Precedence.MOST_PIECES, Precedence.KINGS_EARLIEST)
    assert chosen(rules, [KING_SECOND, KING_FIRST]) == [KING_FIRST]
    assert Precedence.KINGS_EARLIEST.key(CaptureFacts(2, 1, False, (True, False))) == (True, False)


def test_value_then_king_capturer_is_the_frisian_rule() -> None:
    """Frisian 2011 art. 11-12: a king is worth more than a man, less than two; a king capturer wins ties."""
    rules = ruleset(MostValue(man=100, king=199), Precedence.WITH_KING)
    two_men = capture(0, 9, (3, 4))
    one_king = capture(0, 8, (10,))
    assert chosen(rules, [one_king, two_men]) == [two_men]  # 1 king < 2 men
    three_men = capture(0, 9, (3, 4, 5))
    two_kings = capture(0, 8, (10, 11))
    assert chosen(rules, [three_men, two_kings]) == [two_kings]  # 2 kings > 3 men
    man_by_king = capture(10, 9, (3,))
    man_by_man = capture(0, 9, (4,))
    assert chosen(rules, [man_by_man, man_by_king]) == [man_by_king]


@pytest.mark.parametrize(("kings", "men", "bigger"), [(1, 1, True), (1, 2, False), (3, 5, True), (3, 6, False)])
def test_frisian_value_bounds(kings: int, men: int, bigger: bool) -> None:
    """n kings are worth more than 2n-1 men and less than 2n men."""
    value = MostValue(man=100, king=199)
    assert (value.key(CaptureFacts(kings, kings, False)) > value.key(CaptureFacts(men, 0, False))) is bigger


def test_ties_all_stay() -> None:
    twin = capture(0, 9, (6, 5, 4, 3))
    assert chosen(ruleset(Precedence.MOST_PIECES), [FOUR_MEN, twin, TWO_KINGS]) == [FOUR_MEN, twin]


def test_identity_ignores_capture_order_and_path() -> None:
    reversed_order = capture(0, 9, (6, 5, 4, 3))
    assert deduplicate([FOUR_MEN, reversed_order, TWO_KINGS]) == [FOUR_MEN, TWO_KINGS]  # type: ignore[list-item]


def test_single_jump_preference_is_derived_from_the_criteria() -> None:
    """Among single jumps by men only taking a king or a man can differ: the tables read it off the keys."""
    assert compile_rules(ruleset(Precedence.MOST_PIECES)).single_jump_preference == 0
    assert compile_rules(ruleset(Precedence.MOST_PIECES, Precedence.MOST_KINGS)).single_jump_preference == 1
    assert compile_rules(ruleset(MostValue(man=100, king=199))).single_jump_preference == 1
    assert compile_rules(ruleset(MostValue(man=3, king=1))).single_jump_preference == -1


def test_criteria_are_validated() -> None:
    with pytest.raises(draughts.InvalidRulesetError, match="king"):
        MostValue(man=1, king=0)
    with pytest.raises(draughts.InvalidRulesetError, match="twice"):
        ruleset(Precedence.MOST_PIECES, Precedence.MOST_PIECES)
