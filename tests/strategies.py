"""Hypothesis strategies: rulesets (named, house-rule and user-defined) and legal random positions."""

from __future__ import annotations

import attrs
from hypothesis import strategies as st

import draughts
from draughts import (
    BLACK,
    WHITE,
    CapturedRemoval,
    CapturePromotion,
    Directions,
    KingRange,
    Numbering,
    Piece,
    Position,
    Precedence,
    Ruleset,
    SquareNames,
)

NAMED: tuple[Ruleset, ...] = tuple(draughts.VARIANTS[name] for name in draughts.variants.FEDERATION_VARIANTS)
"""The seven federation variants."""

HOUSE_RULES: tuple[Ruleset, ...] = tuple(draughts.no_forced_capture(rules) for rules in NAMED)
"""Their no-forced-capture versions."""

STANDARD_ROWS = {8: 3, 10: 4, 12: 5}

named_rulesets = st.sampled_from(NAMED)
house_rulesets = st.sampled_from(HOUSE_RULES)


CRITERIA = [Precedence.MOST_PIECES, Precedence.WITH_KING, Precedence.MOST_KINGS, Precedence.KINGS_EARLIEST]


@st.composite
def precedences(draw: st.DrawFn) -> tuple[Precedence, ...]:
    """Any ordered subset of the precedence criteria (empty = free choice)."""
    order = draw(st.permutations(CRITERIA))
    return tuple(order[: draw(st.integers(0, len(order)))])


@st.composite
def custom_rulesets(draw: st.DrawFn) -> Ruleset:
    """A user-defined ruleset: a named variant with any of its rule fields changed."""
    base = draw(named_rulesets)
    size = draw(st.sampled_from(sorted(STANDARD_ROWS)))
    rows = draw(st.one_of(st.just(STANDARD_ROWS[size]), st.integers(1, size // 2 - 1)))
    return attrs.evolve(
        base,
        name="custom",
        title="User-defined variant",
        board_size=size,
        rows_per_side=rows,
        bottom_left_playable=draw(st.booleans()),
        first_to_move=draw(st.sampled_from([WHITE, BLACK])),
        men_capture=draw(st.sampled_from([Directions.DIAGONAL_FORWARD, Directions.DIAGONAL])),
        men_capture_kings=draw(st.booleans()),
        king_range=draw(st.sampled_from(KingRange)),
        capture_promotion=draw(st.sampled_from(CapturePromotion)),
        capture_mandatory=draw(st.booleans()),
        precedence=draw(precedences()),
        captured_removal=draw(st.sampled_from(CapturedRemoval)),
        numbering=draw(st.sampled_from(Numbering)),
        square_names=draw(st.sampled_from(SquareNames)),
        pdn_gametype=None,
    )


rulesets: st.SearchStrategy[Ruleset] = st.one_of(named_rulesets, house_rulesets, custom_rulesets())
"""Any ruleset: named, house rule or user-defined."""


@st.composite
def positions(draw: st.DrawFn, rules: Ruleset | st.SearchStrategy[Ruleset] = rulesets) -> Position:
    """A random legal position of ``rules`` (a ruleset or a strategy of rulesets).

    Biased towards dense boards with many kings, so that captures, multi-captures, flying-king
    landings and promotions mid-capture are common. No man stands on its own crowning row and
    neither side has more pieces than the ruleset's men per side.
    """
    if isinstance(rules, st.SearchStrategy):
        rules = draw(rules)
    geo = rules.geometry
    turn = draw(st.sampled_from([WHITE, BLACK]))
    squares = list(range(1, geo.squares + 1))
    zone = draw(st.integers(0, 5))
    if zone == 0:
        # Crowd the rows near both edges, where men are crowned (during captures too).
        squares = [sq for sq in squares if min(geo.coords[sq][1], geo.size - 1 - geo.coords[sq][1]) < 3]
    elif zone == 1:
        # Crowd the rows next to the crowning row of the side to move: promotions mid-capture.
        crown = geo.size - 1 if turn is WHITE else 0
        squares = [sq for sq in squares if abs(geo.coords[sq][1] - crown) < 4]
    most = min(2 * rules.men_per_side, len(squares))
    sparse = st.integers(1, min(8, most))  # long king moves, few pieces
    dense = st.integers(most // 3, most)  # many captures and multi-captures
    count = draw(sparse if draw(st.integers(0, 3)) == 0 else dense)
    chosen = draw(st.permutations(squares))[:count]
    king_level = draw(st.integers(0, 4))  # out of 4: share of pieces that are kings
    white_share = draw(st.integers(1, 3))  # out of 4: share of pieces that are white
    pieces: dict[int, Piece] = {}
    counts = {WHITE: 0, BLACK: 0}
    for square in chosen:
        color = WHITE if draw(st.integers(0, 3)) < white_share else BLACK
        if counts[color] >= rules.men_per_side:
            color = color.opponent
            if counts[color] >= rules.men_per_side:
                break
        king = draw(st.integers(0, 3)) < king_level
        _, y = geo.coords[square]
        if y == (geo.size - 1 if color is WHITE else 0):
            king = True  # a man on its own crowning row would already be a king
        if king and rules.crowning_wins and any(p.king and p.color is not color for p in pieces.values()):
            continue  # where the first king wins, both sides cannot have one
        pieces[square] = Piece(color, king)
        counts[color] += 1
    return Position.from_pieces(rules, pieces, turn)


# Per row, counted from the crowning row of the side to move: chances out of 10 of
# (a man of the side to move, an opposing piece); the rest of the row stays empty.
_PROMOTION_ROWS = {0: (0, 3), 1: (0, 6), 2: (5, 2), 3: (2, 4), 4: (2, 2)}


@st.composite
def promotion_positions(draw: st.DrawFn, rules: Ruleset | st.SearchStrategy[Ruleset] = rulesets) -> Position:
    """Positions where men of the side to move are about to reach their crowning row by capturing.

    Men stand two rows before the crowning row with opposing pieces in front of and around them,
    so men reach the crowning row in the middle of captures (and may go on from it).
    """
    if isinstance(rules, st.SearchStrategy):
        rules = draw(rules)
    geo = rules.geometry
    turn = draw(st.sampled_from([WHITE, BLACK]))
    crown = geo.size - 1 if turn is WHITE else 0
    pieces: dict[int, Piece] = {}
    counts = {WHITE: 0, BLACK: 0}
    for square in range(1, geo.squares + 1):
        own_chance, other_chance = _PROMOTION_ROWS.get(abs(geo.coords[square][1] - crown), (0, 0))
        if not own_chance and not other_chance:
            continue
        roll = draw(st.integers(0, 9))
        if roll < own_chance:
            color, king = turn, geo.coords[square][1] == crown
        elif roll < own_chance + other_chance:
            color, king = turn.opponent, draw(st.booleans())
        else:
            continue
        if counts[color] < rules.men_per_side:
            pieces[square] = Piece(color, king)
            counts[color] += 1
    return Position.from_pieces(rules, pieces, turn)
