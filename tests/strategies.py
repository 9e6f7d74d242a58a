"""Hypothesis strategies: rulesets (named, house-rule, user-defined and anywhere in the family's rule
space) and legal random positions, also reached by play (with king-move history)."""

from __future__ import annotations

import dataclasses
import functools
import operator
from dataclasses import dataclass

import attrs
from hypothesis import strategies as st

import draughts
import naive
from draughts import (
    BLACK,
    WHITE,
    CapturedRemoval,
    CapturePromotion,
    Color,
    Directions,
    KingRange,
    Numbering,
    Piece,
    Position,
    Precedence,
    Ruleset,
    SquareNames,
)
from draughts.geometry import BoardSquares
from draughts.rules import Criterion, KingLanding, KingsEarliest, MostKings, MostPieces, MostValue, WithKing
from family import FAMILY

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


# --- the whole rule space of the family ---

_PARTS = (
    Directions.DIAGONAL_FORWARD,
    Directions.DIAGONAL_BACKWARD,
    Directions.ORTHOGONAL_FORWARD,
    Directions.ORTHOGONAL_SIDEWAYS,
    Directions.ORTHOGONAL_BACKWARD,
)
_USUAL_DIRECTIONS = (
    Directions.DIAGONAL_FORWARD,
    Directions.DIAGONAL,
    Directions.ORTHOGONAL,
    Directions.ALL,
    Directions.ORTHOGONAL_FORWARD | Directions.ORTHOGONAL_SIDEWAYS,
    Directions.DIAGONAL_FORWARD | Directions.ORTHOGONAL_FORWARD | Directions.ORTHOGONAL_SIDEWAYS,
)

directions: st.SearchStrategy[Directions] = st.one_of(
    st.sampled_from(_USUAL_DIRECTIONS),
    st.lists(st.sampled_from(_PARTS), min_size=1, unique=True).map(lambda parts: functools.reduce(operator.or_, parts)),
)
"""Any non-empty set of directions, often one that a real variant uses."""


@st.composite
def criteria(draw: st.DrawFn) -> tuple[Criterion, ...]:
    """Any ordered subset of the precedence criteria, value weights included (empty = free choice)."""
    value = MostValue(man=draw(st.integers(1, 5)), king=draw(st.integers(1, 12)))
    pool = [MostPieces(), WithKing(), MostKings(), KingsEarliest(), value]
    order = draw(st.permutations(pool))
    return tuple(order[: draw(st.integers(0, len(order)))])


@st.composite
def family_rulesets(draw: st.DrawFn) -> Ruleset:
    """A ruleset anywhere in the rule space: every field varied, boards 6x6 to 12x12 of dark squares
    or of every square, only combinations the Ruleset accepts."""
    size = draw(st.sampled_from([6, 8, 10, 12]))
    squares = draw(st.sampled_from(BoardSquares))
    start_row = draw(st.integers(1, size // 2 - 1))
    flying = draw(st.booleans())
    return Ruleset(
        name="family",
        title="Random family ruleset",
        board_size=size,
        board_squares=squares,
        bottom_left_playable=True if squares is BoardSquares.ALL else draw(st.booleans()),
        rows_per_side=draw(st.integers(1, size // 2 - start_row)),
        men_start_row=start_row,
        first_to_move=draw(st.sampled_from([WHITE, BLACK])),
        men_move=draw(directions),
        men_capture=draw(directions),
        men_capture_kings=draw(st.booleans()),
        king_range=KingRange.FLYING if flying else KingRange.SHORT,
        kings_move=draw(directions),
        kings_capture=draw(directions),
        king_landing=draw(st.sampled_from(KingLanding)) if flying else KingLanding.ANYWHERE,
        capture_promotion=draw(st.sampled_from(CapturePromotion)),
        capture_mandatory=draw(st.booleans()),
        precedence=draw(criteria()),
        captured_removal=draw(st.sampled_from(CapturedRemoval)),
        capture_reversal=draw(st.booleans()),
        king_move_limit=draw(st.one_of(st.none(), st.integers(1, 4))),
        no_move_wins=draw(st.booleans()),
        crowning_wins=draw(st.integers(0, 4)) == 0,
        numbering=draw(st.sampled_from(Numbering)),
        square_names=draw(st.sampled_from(SquareNames)),
    )


family_named = st.sampled_from(FAMILY)
"""The family variants as tests/family.py builds them."""

any_rulesets: st.SearchStrategy[Ruleset] = st.one_of(named_rulesets, house_rulesets, family_named, family_rulesets())
"""Any ruleset at all: named, house rule, family variant or random point of the rule space."""


@dataclass(frozen=True)
class Line:
    """A position reached by play: a start position and the moves played from it.

    The moves were chosen among the oracle's legal moves, so a library that lacks one of them
    fails on replaying it. ``start`` maps square numbers to ``(color, is_king)``.
    """

    rules: Ruleset
    start: dict[int, tuple[Color, bool]]
    turn: Color
    played: tuple[naive.NaiveMove, ...]
    runs: dict[Color, tuple[int, int]] = dataclasses.field(default_factory=dict)
    """King-move runs at the start, ``{color: (square, count)}``."""

    def start_state(self) -> naive.State:
        coords = self.rules.geometry.coords
        runs = [naive.NO_RUN, naive.NO_RUN]
        for color, (square, count) in self.runs.items():
            runs[0 if color is WHITE else 1] = naive.Run(coords[square], count)
        board = {coords[square]: piece for square, piece in self.start.items()}
        return naive.State(self.rules, board, self.turn, (runs[0], runs[1]))

    def states(self) -> list[naive.State]:
        """The oracle's state at the start and after each played move."""
        out = [self.start_state()]
        for move in self.played:
            out.append(naive.play(out[-1], move))
        return out

    def start_position(self) -> Position:
        pieces = {square: Piece(color, king) for square, (color, king) in self.start.items()}
        return Position.from_pieces(self.rules, pieces, self.turn, king_moves=self.runs or None)

    def __repr__(self) -> str:
        white = ",".join(f"{'K' if k else ''}{s}" for s, (c, k) in sorted(self.start.items()) if c is WHITE)
        black = ",".join(f"{'K' if k else ''}{s}" for s, (c, k) in sorted(self.start.items()) if c is BLACK)
        moves = " ".join("x".join(map(str, m.path)) if m.captured else "-".join(map(str, m.path)) for m in self.played)
        runs = f" king runs {self.runs}" if self.runs else ""
        return f"Line({self.turn.letter}:W{white}:B{black}{runs} then {moves or 'nothing'} in {self.rules!r})"


_MOST_PIECES = 24
"""At most this many pieces in a random family position: flying kings capturing in eight
directions with pieces lifted at once make dense boards explode combinatorially."""


@st.composite
def family_starts(draw: st.DrawFn, rules: Ruleset) -> tuple[dict[int, tuple[Color, bool]], Color]:
    """A random legal start: no man on its own crowning row, no side above its men per side, and
    where crowning wins, kings only for the side that just moved (a king means the game is over)."""
    geo = rules.geometry
    turn = draw(st.sampled_from([WHITE, BLACK]))
    squares = list(range(1, geo.squares + 1))
    if draw(st.integers(0, 3)) == 0:
        # Crowd the rows near the crowning rows: promotions during captures.
        squares = [sq for sq in squares if min(geo.coords[sq][1], geo.size - 1 - geo.coords[sq][1]) < 3]
    most = min(2 * rules.men_per_side, len(squares), _MOST_PIECES)
    count = draw(st.integers(1, most))
    chosen = draw(st.permutations(squares))[:count]
    king_level = draw(st.integers(0, 4))
    if rules.crowning_wins and draw(st.integers(0, 3)):
        king_level = 0
    white_share = draw(st.integers(1, 3))
    pieces: dict[int, tuple[Color, bool]] = {}
    counts = {WHITE: 0, BLACK: 0}
    for square in chosen:
        color = WHITE if draw(st.integers(0, 3)) < white_share else BLACK
        if counts[color] >= rules.men_per_side:
            color = color.opponent
            if counts[color] >= rules.men_per_side:
                break
        king = draw(st.integers(0, 3)) < king_level
        on_crown = geo.coords[square][1] == (geo.size - 1 if color is WHITE else 0)
        if rules.crowning_wins and color is turn and (king or on_crown):
            continue  # the side to move cannot have crowned: the game would be over already
        pieces[square] = (color, king or on_crown)
        counts[color] += 1
    return pieces, turn


@st.composite
def king_line_starts(draw: st.DrawFn, rules: Ruleset) -> tuple[dict[int, tuple[Color, bool]], Color]:
    """A start built around one king of the side to move: along each of its lines opposing pieces
    (and a few own ones) at random distances, so that long captures, turns (180° ones too),
    landing choices and crownings on the way are common."""
    geo = rules.geometry
    turn = draw(st.sampled_from([WHITE, BLACK]))
    playable = naive.NaiveGenerator(rules, {}, turn).playable
    middle = [
        sq
        for sq in range(1, geo.squares + 1)
        if all(geo.size // 4 <= c < geo.size - geo.size // 4 for c in geo.coords[sq])
    ]
    centre = draw(st.sampled_from(middle) if draw(st.booleans()) else st.integers(1, geo.squares))
    pieces: dict[int, tuple[Color, bool]] = {centre: (turn, True)}
    counts = {turn: 1, turn.opponent: 0}
    cx, cy = geo.coords[centre]
    for dx, dy in naive.vectors(rules, Directions.ALL, turn):
        t = 0  # steps from the king along this line
        while draw(st.integers(0, 4)) < 3:
            # a few free squares, a piece (usually an opposing one), then at least one free square
            t += draw(st.integers(1, 3)) if t == 0 else draw(st.integers(2, 3))
            x, y = cx + t * dx, cy + t * dy
            if not playable(x, y) or len(pieces) >= _MOST_PIECES:
                break
            color = turn if draw(st.integers(0, 5)) == 0 else turn.opponent
            if counts[color] < rules.men_per_side:
                on_crown = y == (geo.size - 1 if color is WHITE else 0)
                king = on_crown or draw(st.integers(0, 3)) == 0
                if not (rules.crowning_wins and king):
                    pieces[geo.square_at(x, y)] = (color, king)
                    counts[color] += 1
    if rules.crowning_wins:
        del pieces[centre]  # no king may stand where crowning wins: the men around it remain
    return pieces, turn


@st.composite
def dense_starts(draw: st.DrawFn, rules: Ruleset) -> tuple[dict[int, tuple[Color, bool]], Color]:
    """One to three kings of the side to move among many opposing pieces (a fifth to a half of the
    squares): long captures, and several pieces able to take the same pieces."""
    geo = rules.geometry
    turn = draw(st.sampled_from([WHITE, BLACK]))
    order = draw(st.permutations(range(1, geo.squares + 1)))
    kings = 0 if rules.crowning_wins else draw(st.integers(1, 3))
    pieces: dict[int, tuple[Color, bool]] = dict.fromkeys(order[:kings], (turn, True))
    density = draw(st.integers(2, 5))  # out of 10
    opponents = 0
    for square in order[kings:]:
        if opponents >= rules.men_per_side or draw(st.integers(0, 9)) >= density:
            continue
        on_crown = geo.coords[square][1] == (geo.size - 1 if turn.opponent is WHITE else 0)
        king = on_crown or draw(st.integers(0, 3)) == 0
        if rules.crowning_wins and king:
            continue
        pieces[square] = (turn.opponent, king)
        opponents += 1
    return pieces, turn


@st.composite
def lines(draw: st.DrawFn, rules: Ruleset | st.SearchStrategy[Ruleset] = any_rulesets, most: int = 10) -> Line:
    """A random start and up to ``most`` moves played from it, the oracle choosing among the legal
    moves and often preferring quiet king moves (so that king-move runs build up)."""
    if isinstance(rules, st.SearchStrategy):
        rules = draw(rules)
    runs: dict[Color, tuple[int, int]] = {}
    kind = draw(st.integers(0, 2))
    if kind == 0:
        state = naive.initial(rules)
        start = state.pieces()
        turn = state.turn
    else:
        start, turn = draw(family_starts(rules) if kind == 1 else king_line_starts(rules))
        limit = rules.king_move_limit
        for color in (WHITE, BLACK):
            kings = [sq for sq, (c, k) in start.items() if c is color and k]
            has_men = any(c is color and not k for c, k in start.values())
            if limit is not None and kings and has_men and draw(st.booleans()):
                runs[color] = (draw(st.sampled_from(kings)), draw(st.integers(1, limit)))
        state = Line(rules, start, turn, (), runs).start_state()
    played: list[naive.NaiveMove] = []
    kings_first = draw(st.booleans())
    for _ in range(draw(st.integers(0, most))):
        moves = naive.moves(state, paths=True)
        if not moves:
            break
        quiet_kings = [move for move in moves if move.with_king and not move.captured]
        pool = quiet_kings if kings_first and quiet_kings else moves
        move = pool[draw(st.integers(0, len(pool) - 1))]
        played.append(move)
        state = naive.play(state, move)
    return Line(rules, start, turn, tuple(played), runs)
