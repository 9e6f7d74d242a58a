"""Turkish draughts with one piece each (issue 41 §2, jocly issue #51): the two readings of the sources.

The federation (TUDAF) draws the game as soon as each side has a single piece, king or man: that is
``turkish``. pydraughts draws only one king against one king and Wikipedia has a king beat a lone
man: that is :data:`~draughts.rules.variants.TURKISH_ONE_KING_EACH`, ready to put in a ruleset.
Each test plays the capture that leaves the lone pieces, so the rule sees the balance arise.
"""

from __future__ import annotations

import attrs
import pytest

from draughts import BLACK, WHITE, Board, EndgameRule, Ruleset, ruleset_from_text
from draughts.board import Termination
from draughts.rules.variants import TURKISH, TURKISH_ONE_KING_EACH

KINGS_ONLY = attrs.evolve(TURKISH, name="turkish-kings", draw_rules=TURKISH_ONE_KING_EACH)

KING_TAKES = "a1xa5"
"""White's king on a1 takes the black piece on a4 and stops on a5."""


def _after_the_capture(ruleset: Ruleset | str, black: str) -> Board:
    board = Board(ruleset, f"W:WKa1:B{black}")
    board.push_text(KING_TAKES)
    return board


@pytest.mark.parametrize("left", ["h7", "Kh7"], ids=["king-v-man", "king-v-king"])
def test_one_piece_each_is_a_draw_at_once_under_the_federations_rules(left: str) -> None:
    board = _after_the_capture("turkish", f"a4,{left}")
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.result) == (Termination.ENDGAME, "1/2-1/2")
    assert "one piece each" in outcome.rule


def test_a_man_against_a_man_is_a_draw_too_under_the_federations_rules() -> None:
    board = Board("turkish", "W:Wa2,b3:Bb5")
    board.push_text("b3-b4")
    board.push_text("b5xb3")  # Black's man takes White's: a man against a man
    assert (board.position.material(WHITE), board.position.material(BLACK)) == ((0, 1), (0, 1))
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.ENDGAME


def test_a_king_against_a_man_is_played_on_when_only_one_king_each_draws() -> None:
    board = _after_the_capture(KINGS_ONLY, "a4,h7")
    assert board.outcome() is None
    assert board.legal_moves  # Black's man moves on
    drawn = _after_the_capture(KINGS_ONLY, "a4,Kh7")
    outcome = drawn.outcome()
    assert outcome is not None
    assert "one king each" in outcome.rule


def test_the_two_readings_differ_only_in_the_lone_piece_rule() -> None:
    assert TURKISH.draw_rules.repetitions == TURKISH_ONE_KING_EACH.repetitions == 3
    assert TURKISH.draw_rules.move_counts == TURKISH_ONE_KING_EACH.move_counts
    assert [rule.describe() for rule in TURKISH.draw_rules.endgames] == [
        "a king or a man against a king or a man: drawn at once"
    ]
    assert [rule.describe() for rule in TURKISH_ONE_KING_EACH.endgames] == ["a king against a king: drawn at once"]


def test_a_rule_file_gives_the_other_reading_as_the_docs_write_it() -> None:
    """docs/variants.rst: ``base = "turkish"`` with one endgame table of one king each."""
    text = (
        'base = "turkish"\nname = "turkish-kings"\ntitle = "Turkish, one king each drawn"\n'
        "[[draw_rules.endgames]]\nmoves = 0\nstrong = [[1, 0]]\nweak = [[1, 0]]\n"
    )
    from_file = ruleset_from_text(text)
    assert from_file.draw_rules.endgames == (EndgameRule(0, strong=((1, 0),), weak=((1, 0),)),)
    assert _after_the_capture(from_file, "a4,h7").outcome() is None
    assert _after_the_capture(from_file, "a4,Kh7").outcome() is not None
