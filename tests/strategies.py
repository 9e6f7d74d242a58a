"""Hypothesis strategies: rulesets (named, house-rule, user-defined and anywhere in the family's rule
space) and legal random positions, also reached by play (with king-move history)."""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import attrs
from hypothesis import assume
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
from draughts._core.generator import abort_when
from draughts.errors import CaptureSearchLimitError
from draughts.rules import Criterion, KingLanding, KingsEarliest, MostKings, MostPieces, MostValue, WithKing
from draughts.rules.geometry import BoardSquares
from family import FAMILY

NAMED: tuple[Ruleset, ...] = tuple(draughts.VARIANTS[name] for name in draughts.rules.variants.FEDERATION_VARIANTS)
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
        squares = [sq for sq in squares if min(geo.coords[sq][1], geo.height - 1 - geo.coords[sq][1]) < 3]
    elif zone == 1:
        # Crowd the rows next to the crowning row of the side to move: promotions mid-capture.
        crown = geo.height - 1 if turn is WHITE else 0
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
        if y == (geo.height - 1 if color is WHITE else 0):
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
    crown = geo.height - 1 if turn is WHITE else 0
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


_FAMILY_FIELDS = frozenset(
    {
        "board_size",
        "board_squares",
        "men_move",
        "men_capture",
        "king_range",
        "kings_move",
        "kings_capture",
        "king_landing",
        "captured_removal",
        "capture_reversal",
        "precedence",
        "king_move_limit",
        "no_move_wins",
        "crowning_wins",
    }
)


@st.composite
def family_rulesets(draw: st.DrawFn, **fixed: st.SearchStrategy[Any]) -> Ruleset:
    """A ruleset anywhere in the rule space: every field varied, boards 6x6 to 12x12 of dark squares
    or of every square, only combinations the Ruleset accepts.

    Keyword arguments narrow one rule dimension to a strategy of its own (``capture_reversal=
    st.just(False)``), the others staying random; a ``king_landing`` other than ANYWHERE needs
    ``king_range=st.just(KingRange.FLYING)``.
    """
    unknown = set(fixed) - _FAMILY_FIELDS
    assert not unknown, f"family_rulesets cannot fix {unknown}"

    def pick(name: str, default: st.SearchStrategy[Any]) -> Any:
        return draw(fixed.get(name, default))

    size = pick("board_size", st.sampled_from([6, 8, 10, 12]))
    squares = pick("board_squares", st.sampled_from(BoardSquares))
    start_row = draw(st.integers(1, size // 2 - 1))
    king_range = pick("king_range", st.sampled_from(KingRange))
    flying = king_range is KingRange.FLYING
    return Ruleset(
        name="family",
        title="Random family ruleset",
        board_size=size,
        board_squares=squares,
        bottom_left_playable=True if squares is BoardSquares.ALL else draw(st.booleans()),
        rows_per_side=draw(st.integers(1, size // 2 - start_row)),
        men_start_row=start_row,
        first_to_move=draw(st.sampled_from([WHITE, BLACK])),
        men_move=pick("men_move", directions),
        men_capture=pick("men_capture", directions),
        men_capture_kings=draw(st.booleans()),
        king_range=king_range,
        kings_move=pick("kings_move", directions),
        kings_capture=pick("kings_capture", directions),
        king_landing=pick("king_landing", st.sampled_from(KingLanding)) if flying else KingLanding.ANYWHERE,
        capture_promotion=draw(st.sampled_from(CapturePromotion)),
        capture_mandatory=draw(st.booleans()),
        precedence=pick("precedence", criteria()),
        captured_removal=pick("captured_removal", st.sampled_from(CapturedRemoval)),
        capture_reversal=pick("capture_reversal", st.booleans()),
        king_move_limit=pick("king_move_limit", st.one_of(st.none(), st.integers(1, 4))),
        no_move_wins=pick("no_move_wins", st.booleans()),
        crowning_wins=pick("crowning_wins", st.integers(0, 4).map(lambda roll: roll == 0)),
        numbering=draw(st.sampled_from(Numbering)),
        square_names=draw(st.sampled_from(SquareNames)),
    )


family_named = st.sampled_from(FAMILY)
"""The family variants as tests/family.py builds them."""

any_rulesets: st.SearchStrategy[Ruleset] = st.one_of(named_rulesets, house_rulesets, family_named, family_rulesets())
"""Any ruleset at all: named, house rule, family variant or random point of the rule space."""


PATHS_BUDGET = 3_000
"""Most capture paths a compared position may have in the default run. The oracle lists every path
in plain Python (6,114 take it about two seconds), and flying kings capturing in eight directions
among a score of pieces can have 700,000; larger positions are left to the slow run."""

SLOW_PATHS_BUDGET = 30_000
"""The same bound for the slow run."""


def position_of(state: naive.State) -> Position:
    """The library position of an oracle state (king-move runs included)."""
    pieces = {square: Piece(color, king) for square, (color, king) in state.pieces().items()}
    runs = {color: (square, count) for color in (WHITE, BLACK) for square, count in [state.run(color)] if square}
    return Position.from_pieces(state.rules, pieces, state.turn, king_moves=runs or None)


class _TooCostly(Exception):
    """Raised by :func:`affordable`'s abort hook: the count's capture search ran too long."""


AFFORDABLE_CHECKS = 32
"""Checkpoints (each ``CHECK_EVERY`` = 4,096 states of the native capture search,
native/core/src/capture.rs) a count may pass in :func:`affordable` before the position is judged
too costly: about 130,000 states, where the library's own bound (a million states) would raise
:class:`~draughts.CaptureSearchLimitError` on dense random positions of custom rules."""


def affordable(position: Position, budget: int | None, depth: int = 1) -> bool:
    """Whether ``position`` has at most ``budget`` capture paths ``depth`` plies deep (legal moves
    counted the paths way, by the library's fast count; None: no bound). A count whose capture
    search runs past :data:`AFFORDABLE_CHECKS` checkpoints, or past the library's bound, is not
    affordable."""
    if budget is None:
        return True
    checks = 0

    def give_up_when_costly() -> None:
        nonlocal checks
        checks += 1
        if checks > AFFORDABLE_CHECKS:
            raise _TooCostly

    try:
        with abort_when(give_up_when_costly):
            return draughts.perft(position, depth, paths=True) <= budget
    except (_TooCostly, CaptureSearchLimitError):
        return False


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
        squares = [sq for sq in squares if min(geo.coords[sq][1], geo.height - 1 - geo.coords[sq][1]) < 3]
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
        on_crown = geo.coords[square][1] == (geo.height - 1 if color is WHITE else 0)
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
                on_crown = y == (geo.height - 1 if color is WHITE else 0)
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
    squares): long captures, and several pieces able to take the same pieces. Flying kings
    capturing in eight directions among a score of pieces can have hundreds of thousands of
    capture paths: the tests bound them (:data:`PATHS_BUDGET`)."""
    geo = rules.geometry
    turn = draw(st.sampled_from([WHITE, BLACK]))
    order = draw(st.permutations(range(1, geo.squares + 1)))
    kings = 0 if rules.crowning_wins else draw(st.integers(1, 3))
    pieces: dict[int, tuple[Color, bool]] = dict.fromkeys(order[:kings], (turn, True))
    density = draw(st.integers(2, 5))  # out of 10
    opponents = 0
    for square in order[kings:]:
        if opponents >= rules.men_per_side:
            break
        if draw(st.integers(0, 9)) >= density:
            continue
        on_crown = geo.coords[square][1] == (geo.height - 1 if turn.opponent is WHITE else 0)
        king = on_crown or draw(st.integers(0, 3)) == 0
        if rules.crowning_wins and king:
            continue
        pieces[square] = (turn.opponent, king)
        opponents += 1
    return pieces, turn


@st.composite
def endgame_starts(draw: st.DrawFn, rules: Ruleset) -> tuple[dict[int, tuple[Color, bool]], Color]:
    """A start with two to seven pieces, men often one or two steps from crowning: games end within
    a few moves (a side taken off or blocked, or a man crowned), so the win conditions are met."""
    geo = rules.geometry
    turn = draw(st.sampled_from([WHITE, BLACK]))
    pieces: dict[int, tuple[Color, bool]] = {}
    for square in draw(st.permutations(range(1, geo.squares + 1)))[: draw(st.integers(2, 7))]:
        color = turn if draw(st.booleans()) else turn.opponent
        if sum(c is color for c, _ in pieces.values()) >= rules.men_per_side:
            continue
        y = geo.coords[square][1]
        on_crown = y == (geo.height - 1 if color is WHITE else 0)
        king = on_crown or draw(st.integers(0, 3)) == 0
        if rules.crowning_wins and king:
            continue  # the game would be over already
        pieces[square] = (color, king)
    return pieces, turn


@st.composite
def kings_and_men_starts(draw: st.DrawFn, rules: Ruleset) -> tuple[dict[int, tuple[Color, bool]], Color]:
    """Each side has one to three kings and one to four men on a roomy board: quiet king moves are
    many, and the king-move limit applies (a side without men would be exempt)."""
    geo = rules.geometry
    turn = draw(st.sampled_from([WHITE, BLACK]))
    order = iter(draw(st.permutations(range(1, geo.squares + 1))))
    pieces: dict[int, tuple[Color, bool]] = {}
    for color in (WHITE, BLACK):
        kings = 0 if rules.crowning_wins else draw(st.integers(1, min(3, rules.men_per_side - 1)))
        men = draw(st.integers(1, min(4, rules.men_per_side - kings)))
        while kings or men:
            square = next(order)
            on_crown = geo.coords[square][1] == (geo.height - 1 if color is WHITE else 0)
            if kings:
                pieces[square], kings = (color, True), kings - 1
            elif not on_crown:
                pieces[square], men = (color, False), men - 1
    return pieces, turn


def _piece(rules: Ruleset, square: int, color: Color, king: bool) -> tuple[Color, bool] | None:
    """``(color, king)`` for a piece on ``square``: a man on its own crowning row is a king, and
    where crowning wins there are no kings (None: leave the square empty)."""
    y = rules.geometry.coords[square][1]
    king = king or y == (rules.height - 1 if color is WHITE else 0)
    return None if king and rules.crowning_wins else (color, king)


@st.composite
def crowded_starts(draw: st.DrawFn, rules: Ruleset) -> tuple[dict[int, tuple[Color, bool]], Color]:
    """A crowded patch of at most 6x6 squares (a third to two thirds full, a third of the pieces
    kings) on an otherwise empty board: captures with several ways to go, of different lengths and
    values, and flying kings with several landing squares."""
    geo = rules.geometry
    turn = draw(st.sampled_from([WHITE, BLACK]))
    width = min(6, geo.size)
    left, bottom = draw(st.integers(0, geo.size - width)), draw(st.integers(0, geo.size - width))
    patch = [
        sq
        for sq in range(1, geo.squares + 1)
        if all(0 <= c - o < width for c, o in zip(geo.coords[sq], (left, bottom), strict=True))
    ]
    density = draw(st.integers(3, 6))  # out of 9
    pieces: dict[int, tuple[Color, bool]] = {}
    counts = {WHITE: 0, BLACK: 0}
    for square in patch:
        if draw(st.integers(0, 8)) >= density:
            continue
        color = turn if draw(st.integers(0, 2)) == 0 else turn.opponent
        piece = _piece(rules, square, color, draw(st.integers(0, 2)) == 0)
        if piece is not None and counts[color] < rules.men_per_side:
            pieces[square] = piece
            counts[color] += 1
    return pieces, turn


@st.composite
def reversal_starts(draw: st.DrawFn, rules: Ruleset) -> tuple[dict[int, tuple[Color, bool]], Color]:
    """A king of the side to move with an opposing piece on each side of one of its capture lines
    and free squares beyond both, plus a few pieces anywhere: a capture that turns back 180° over
    its own start square is open where pieces leave the board at once."""
    if rules.crowning_wins:
        return draw(king_line_starts(rules))
    geo = rules.geometry
    turn = draw(st.sampled_from([WHITE, BLACK]))
    playable = naive.NaiveGenerator(rules, {}, turn).playable
    steps = naive.vectors(rules, rules.kings_capture, turn)
    pairs = [step for step in steps if (-step[0], -step[1]) in steps]
    if not pairs:
        return draw(king_line_starts(rules))
    dx, dy = draw(st.sampled_from(pairs))
    near, far = draw(st.integers(1, 3)), draw(st.integers(1, 3))  # the pieces' distances from the king

    def fits(square: int) -> bool:
        x, y = geo.coords[square]
        return playable(x + (near + 1) * dx, y + (near + 1) * dy) and playable(x - (far + 1) * dx, y - (far + 1) * dy)

    centres = [square for square in range(1, geo.squares + 1) if fits(square)]
    if not centres:
        return draw(king_line_starts(rules))
    centre = draw(st.sampled_from(centres))
    cx, cy = geo.coords[centre]
    pieces: dict[int, tuple[Color, bool]] = {centre: (turn, True)}
    for t in (near, -far):
        square = geo.square_at(cx + t * dx, cy + t * dy)
        piece = _piece(rules, square, turn.opponent, draw(st.integers(0, 3)) == 0)
        if piece is not None:
            pieces[square] = piece
    for square in draw(st.lists(st.integers(1, geo.squares), max_size=6)):
        color = turn if draw(st.integers(0, 3)) == 0 else turn.opponent
        piece = _piece(rules, square, color, draw(st.integers(0, 3)) == 0)
        if (
            piece is not None
            and square not in pieces
            and sum(c is color for c, _ in pieces.values()) < rules.men_per_side
        ):
            pieces[square] = piece
    return pieces, turn


StartStrategy = Callable[[Ruleset], st.SearchStrategy[tuple[dict[int, tuple[Color, bool]], Color]]]


@st.composite
def lines(
    draw: st.DrawFn,
    rules: Ruleset | st.SearchStrategy[Ruleset] = any_rulesets,
    most: int = 10,
    starts: StartStrategy | None = None,
    budget: int | None = PATHS_BUDGET,
) -> Line:
    """A random start and up to ``most`` moves played from it, the oracle choosing among the legal
    moves and often preferring quiet king moves (so that king-move runs build up).

    The start is the initial position, a random one or one built around a king, or one drawn from
    ``starts(rules)`` if given. Lines through a position with more than ``budget`` legal paths are
    rejected (see :data:`PATHS_BUDGET`).
    """
    if isinstance(rules, st.SearchStrategy):
        rules = draw(rules)
    runs: dict[Color, tuple[int, int]] = {}
    kind = 3 if starts is not None else draw(st.integers(0, 2))
    if kind == 0:
        state = naive.initial(rules)
        start = state.pieces()
        turn = state.turn
    else:
        if starts is not None:
            start, turn = draw(starts(rules))
        else:
            start, turn = draw(family_starts(rules) if kind == 1 else king_line_starts(rules))
        limit = rules.king_move_limit
        for color in (WHITE, BLACK):
            kings = [sq for sq, (c, k) in start.items() if c is color and k]
            has_men = any(c is color and not k for c, k in start.values())
            if limit is not None and kings and has_men and draw(st.integers(0, 2)) < 2:
                # a run at its limit first (the simplest example freezes a king), shorter ones too
                runs[color] = (draw(st.sampled_from(kings)), draw(st.sampled_from(range(limit, 0, -1))))
        state = Line(rules, start, turn, (), runs).start_state()
    played: list[naive.NaiveMove] = []
    kings_first = draw(st.booleans())
    assume(affordable(position_of(state), budget))
    for _ in range(draw(st.integers(0, most))):
        moves = naive.moves(state, paths=True)
        if not moves:
            break
        quiet_kings = [move for move in moves if move.with_king and not move.captured]
        pool = quiet_kings if kings_first and quiet_kings else moves
        move = pool[draw(st.integers(0, len(pool) - 1))]
        played.append(move)
        state = naive.play(state, move)
        assume(affordable(position_of(state), budget))
    return Line(rules, start, turn, tuple(played), runs)
