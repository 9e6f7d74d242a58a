"""Move separators are validated against the notation: what a ruleset writes, it reads back.

Issue 23 §25: ``attrs.evolve(american, move_separator=",", capture_separator=".")`` wrote
``9,13``, which neither ``parse_move`` nor the PDN reader could read (also ``K``, ``W``, ``/``),
and a 26x26 algebraic board's file ``x`` clashed with the capture separator ``x``. The Ruleset
now accepts only the separators the readers split on, never a file letter of its algebraic names,
and the property below checks that every ruleset it accepts round-trips move text and PDN.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
import strategies
from draughts import InvalidRulesetError, Ruleset, SquareNames, get_variant, pdn
from draughts.notation import move_text, parse_move
from draughts.rules import SEPARATORS

HOSTILE = (",", ".", "K", "W", "/", "a", "b", "X", "×", "+", "*", "#", "!", "?", ";", "o")
"""Separators that would be written into text the readers cannot split (or split wrongly)."""


@pytest.mark.parametrize(
    ("move_separator", "capture_separator"), [(",", "."), ("K", "x"), ("-", "W"), ("/", ":"), ("-", "X")]
)
def test_separators_the_readers_cannot_split_are_refused(move_separator: str, capture_separator: str) -> None:
    with pytest.raises(InvalidRulesetError, match="must be one of '-', 'x', ':'"):
        attrs.evolve(
            get_variant("american"),
            name="a2",
            title="t",
            move_separator=move_separator,
            capture_separator=capture_separator,
            pdn_gametype=None,
        )


def test_a_separator_may_not_be_a_file_letter() -> None:
    big = attrs.evolve(get_variant("russian"), name="big", board_size=26, rows_per_side=6, pdn_gametype=None)
    assert big.capture_separator == ":"  # Russian captures with ':' and so fits 26 files
    with pytest.raises(InvalidRulesetError, match=r"capture_separator 'x' is also a file letter .*a-z"):
        attrs.evolve(big, capture_separator="x")
    with pytest.raises(InvalidRulesetError, match=r"capture_separator 'x' is also a file letter .*a-x"):
        attrs.evolve(big, board_size=24, capture_separator="x")
    numeric = attrs.evolve(big, square_names=SquareNames.NUMERIC, capture_separator="x")  # no letters in numbers
    assert numeric.capture_separator == "x"
    assert attrs.evolve(big, board_size=22, capture_separator="x").capture_separator == "x"  # files a-v


@st.composite
def separated_rulesets(draw: st.DrawFn) -> Ruleset:
    """A user-defined ruleset with separators and board sizes drawn past what the readers know."""
    base = draw(strategies.custom_rulesets())
    size = draw(st.sampled_from([base.board_size, 24, 26]))
    rows = base.rows_per_side if size == base.board_size else draw(st.integers(1, 4))
    characters = st.sampled_from(SEPARATORS) | st.sampled_from(HOSTILE)
    fields = {
        "name": "separated",
        "board_size": size,
        "rows_per_side": rows,
        "move_separator": draw(characters),
        "capture_separator": draw(characters),
    }
    try:
        return attrs.evolve(base, **fields)
    except InvalidRulesetError as error:
        refusal = str(error)
    # Refused only for a separator the readers do not split on, two equal ones, or a file letter.
    unreadable = {fields["move_separator"], fields["capture_separator"]} - set(SEPARATORS)
    same = fields["move_separator"] == fields["capture_separator"]
    assert unreadable or same or "file letter" in refusal, f"{fields} refused: {refusal}"
    return draw(st.nothing())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(separated_rulesets(), st.data())
def test_every_accepted_ruleset_round_trips_move_text_and_pdn(rules: Ruleset, data: st.DataObject) -> None:
    board = draughts.Board(rules)
    for _ in range(data.draw(st.integers(0, 12), label="plies")):
        position = board.position
        legal = list(position.legal_moves())
        if not legal:
            break
        for move in legal:
            for long in (False, True):
                assert parse_move(position, move_text(position, move, long=long)) == move
        board.push(legal[data.draw(st.integers(0, len(legal) - 1), label="move")])
    game = pdn.Game.from_board(board, {"Event": "separators"})
    again = pdn.parse_game(pdn.write_game(game), rules)
    assert again.mainline_moves() == game.mainline_moves()
    assert again.position == game.position
