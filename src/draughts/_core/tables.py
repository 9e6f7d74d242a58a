"""A ruleset compiled once into the bit tables the generator reads.

**Bit layout.** Each playable square gets a bit index such that every step the ruleset uses is a
constant shift, and a step off the board lands on a *ghost* bit that belongs to no square:

* dark squares only (the width ``w`` is even): index ``(y * S + x - p) // 2`` with ``p`` the
  parity of playable squares on row 0 and ``S`` odd. A diagonal step is ``(S ± 1) / 2``; an
  orthogonal step (two squares, to the next dark square) is ``1`` along a row and ``S`` along a
  column. ``S = w + 1`` (the Scan 10x10 layout generalised) leaves one ghost between a row's last
  square and the next row's first, enough for diagonal steps; with orthogonal steps a row-wise
  step from the last square would reach the next row, so ``S = w + 3`` puts a ghost at each end
  of every row;
* every square: index ``y * (w + 1) + x``, one ghost column; every step (``1``, ``w``, ``w + 1``,
  ``w + 2``) ends on the ghost column or off the board when it leaves the board.

The height only sets how many rows there are: a step off the top or bottom row leaves the board's
bits altogether.

A jump is two steps over a piece: the middle square must hold prey, so a jump can never pass a
ghost. **Directions** are the eight compass directions ``N NE E SE S SW W NW`` (White's view),
indexed 0-7, so ``(d + 4) % 8`` reverses ``d``; a direction shifts up (to higher bits, a left
shift) or down by its amount.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from draughts import _caches
from draughts._core.state import RuleState
from draughts.color import Color
from draughts.rules import (
    CapturedRemoval,
    CaptureFacts,
    CapturePromotion,
    Directions,
    KingLanding,
    KingRange,
    Ruleset,
)
from draughts.rules.geometry import BoardSquares

_T = TypeVar("_T")

N, NE, E, SE, S, SW, W, NW = range(8)
VECTORS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
"""Unit vector ``(dx, dy)`` of each direction, seen from White."""
_DIAGONALS = (NE, SE, SW, NW)


def reverse(direction: int) -> int:
    """The opposite direction."""
    return (direction + 4) % 8


def _directions(flags: Directions, color: Color) -> tuple[int, ...]:
    """The compass directions of ``flags`` for a piece of ``color`` (forward = towards the opponent)."""
    white = color is Color.WHITE
    groups = (
        (Directions.DIAGONAL_FORWARD, (NE, NW) if white else (SE, SW)),
        (Directions.DIAGONAL_BACKWARD, (SE, SW) if white else (NE, NW)),
        (Directions.ORTHOGONAL_FORWARD, (N,) if white else (S,)),
        (Directions.ORTHOGONAL_SIDEWAYS, (E, W)),
        (Directions.ORTHOGONAL_BACKWARD, (S,) if white else (N,)),
    )
    return tuple(sorted(d for flag, directions in groups if flag in flags for d in directions))


Step = tuple[int, int, bool]
"""``(direction, amount, up)``: a direction and its shift (a left shift by ``amount`` when ``up``)."""


def shifts_of(steps: tuple[Step, ...]) -> tuple[tuple[int, bool], ...]:
    """The whole-board shifts of ``steps``, ``(amount, up)``: what code moving every piece at once reads."""
    return tuple((amount, up) for _, amount, up in steps)


@attrs.frozen(eq=False)
class Tables:
    """A ruleset compiled for the generator. Build with :func:`compile_rules` (cached per ruleset)."""

    rules: Ruleset
    board: int
    """Bits of all playable squares."""
    bit_of_square: tuple[int, ...] = attrs.field(repr=False)
    """Bit index of each square number (index 0 unused)."""
    square_of_bit: tuple[int, ...] = attrs.field(repr=False)
    """Square number of each bit index, 0 for ghost bits."""
    amount: tuple[int, ...]
    """Shift of one step in each direction (0 where the board has no such step)."""
    up: tuple[bool, ...]
    """Whether a step in each direction is a left shift."""
    rays: tuple[tuple[int, ...], ...] = attrs.field(repr=False)
    """``rays[d][bit]``: mask of the squares along direction ``d`` from ``bit`` (excluded)."""
    crown_row: tuple[int, int]
    """Bits of the crowning row of each colour."""
    start_men: tuple[int, int]
    """Bits of the men of each colour in the start position."""
    man_moves: tuple[tuple[Step, ...], tuple[Step, ...]]
    man_captures: tuple[tuple[Step, ...], tuple[Step, ...]]
    king_moves: tuple[tuple[Step, ...], tuple[Step, ...]]
    king_captures: tuple[tuple[Step, ...], tuple[Step, ...]]
    turns: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    """``turns[color][d]``: directions a flying king may take from a landing square after a jump in
    ``d`` (its other capture directions; the reverse only if captured pieces leave at once and the
    ruleset allows a 180° turn)."""
    crowned_turns: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    """``crowned_turns[color][d]``: directions of a man crowned by a jump in ``d`` that goes on as a king."""

    flying: bool
    landing: KingLanding
    men_capture_kings: bool
    capture_promotion: CapturePromotion
    immediate_removal: bool
    capture_mandatory: bool
    king_move_limit: int
    """0 for no limit."""
    state: RuleState = attrs.field(repr=False)
    """The rule state nodes carry (its layout and update: :mod:`draughts._core.state`)."""
    crowning_wins: bool

    capture_key: Callable[[CaptureFacts], Any] | None = attrs.field(repr=False)
    """The precedence key of a capture (None: free choice)."""
    needs_order: bool
    """Whether the key compares the capture order."""
    single_jump_preference: int
    """Among single jumps by men: +1 prefer taking kings, -1 prefer taking men, 0 no preference."""
    jump_goes_on: tuple[int, int]
    """Per colour, the landing squares from which a man's capture may go on as a man."""
    jump_needs_search: tuple[int, int]
    """Per colour, landing squares where only the search can tell (a man crowned goes on as a king)."""
    memo: dict[Callable[[Tables], Any], Any] = attrs.field(factory=dict, repr=False)
    """What :meth:`derived` made of these tables, by the function that made it."""

    def derived(self, build: Callable[[Tables], _T]) -> _T:
        """What ``build`` makes of these tables, made once and kept as long as the tables are
        (the generator's closures, the board's move-count resets): keyed by ``build`` itself."""
        memo = self.memo
        try:
            made: _T = memo[build]
        except KeyError:
            made = memo[build] = build(self)
        return made


def _layout(rules: Ruleset) -> tuple[Callable[[int, int], int], dict[int, int]]:
    """The bit index of ``(x, y)`` and the shift of each direction the board has."""
    width = rules.width
    every = rules.board_squares is BoardSquares.ALL
    if every:
        stride = width + 1

        def bit(x: int, y: int) -> int:
            return y * stride + x

        return bit, {d: dy * stride + dx for d, (dx, dy) in enumerate(VECTORS)}
    orthogonal = any(
        flags & Directions.ORTHOGONAL
        for flags in (rules.men_move, rules.men_capture, rules.kings_move, rules.kings_capture)
    )
    stride = width + 3 if orthogonal else width + 1
    parity = 0 if rules.bottom_left_playable else 1

    def dark_bit(x: int, y: int) -> int:
        return (y * stride + x - parity) // 2

    shifts = {d: (dy * stride + dx) // 2 for d, (dx, dy) in enumerate(VECTORS) if d in _DIAGONALS}
    if orthogonal:  # two squares along a row or column
        shifts.update({d: dy * stride + dx for d, (dx, dy) in enumerate(VECTORS) if d not in _DIAGONALS})
    return dark_bit, shifts


def _key_function(rules: Ruleset) -> Callable[[CaptureFacts], Any] | None:
    """The precedence key of a capture: one criterion's value, or the tuple of several (None: free choice)."""
    keys = [criterion.key for criterion in rules.precedence]
    if not keys:
        return None
    if len(keys) == 1:
        return keys[0]
    return lambda facts: tuple([key(facts) for key in keys])


@functools.lru_cache(maxsize=_caches.RULESETS)
def compile_rules(rules: Ruleset) -> Tables:
    """The generator tables of ``rules``, computed once per ruleset (the :data:`~draughts._caches.RULESETS`
    used last are kept)."""
    geo = rules.geometry
    size = rules.height
    every = rules.board_squares is BoardSquares.ALL
    bit, shifts = _layout(rules)
    bits = [-1] + [bit(x, y) for x, y in geo.coords[1:]]
    square_of_bit = [0] * (max(bits) + 1)
    for square, index in enumerate(bits):
        if square:
            square_of_bit[index] = square
    board = 0
    for index in bits[1:]:
        board |= 1 << index
    scale = {d: 1 if every or d in _DIAGONALS else 2 for d in range(8)}

    rays: list[tuple[int, ...]] = []
    for d, (dx, dy) in enumerate(VECTORS):
        per_bit = [0] * len(square_of_bit)
        if d in shifts:
            step_x, step_y = dx * scale[d], dy * scale[d]
            for square in range(1, geo.squares + 1):
                x, y = geo.coords[square]
                mask = 0
                x, y = x + step_x, y + step_y
                while geo.is_playable(x, y):
                    mask |= 1 << bit(x, y)
                    x, y = x + step_x, y + step_y
                per_bit[bits[square]] = mask
        rays.append(tuple(per_bit))

    def steps(flags: Directions, color: Color) -> tuple[Step, ...]:
        return tuple((d, abs(shifts[d]), shifts[d] > 0) for d in _directions(flags, color))

    def row_bits(rows: range) -> int:
        found = 0
        for x, y in geo.coords[1:]:
            if y in rows:
                found |= 1 << bit(x, y)
        return found

    first = rules.men_start_row - 1
    last = first + rules.rows_per_side
    crown_row = (row_bits(range(size - 1, size)), row_bits(range(0, 1)))
    immediate = rules.captured_removal is CapturedRemoval.IMMEDIATE

    def turns_of(color: Color, after_crowning: bool) -> tuple[tuple[int, ...], ...]:
        capture = [d for d, _, _ in steps(rules.kings_capture, color)]
        out = []
        for d in range(8):
            back_allowed = immediate and rules.capture_reversal
            # Without immediate removal the way back is blocked by the piece just taken: not worth a look.
            options = [t for t in capture if (t != d or after_crowning) and (t != reverse(d) or back_allowed)]
            out.append(tuple(options))
        return tuple(out)

    ends = rules.capture_promotion is CapturePromotion.ENDS_MOVE
    as_king = rules.capture_promotion is CapturePromotion.CONTINUES_AS_KING
    key = _key_function(rules)
    preference = 0
    if key is not None:
        king_key = key(CaptureFacts(1, 1, False, (True,)))
        man_key = key(CaptureFacts(1, 0, False, (False,)))
        preference = (king_key > man_key) - (king_key < man_key)
    colors = (Color.WHITE, Color.BLACK)
    return Tables(
        rules=rules,
        board=board,
        bit_of_square=tuple(bits),
        square_of_bit=tuple(square_of_bit),
        amount=tuple(abs(shifts.get(d, 0)) for d in range(8)),
        up=tuple(shifts.get(d, 0) > 0 for d in range(8)),
        rays=tuple(rays),
        crown_row=crown_row,
        start_men=(row_bits(range(first, last)), row_bits(range(size - last, size - first))),
        man_moves=(steps(rules.men_move, Color.WHITE), steps(rules.men_move, Color.BLACK)),
        man_captures=(steps(rules.men_capture, Color.WHITE), steps(rules.men_capture, Color.BLACK)),
        king_moves=(steps(rules.kings_move, Color.WHITE), steps(rules.kings_move, Color.BLACK)),
        king_captures=(steps(rules.kings_capture, Color.WHITE), steps(rules.kings_capture, Color.BLACK)),
        turns=(turns_of(colors[0], False), turns_of(colors[1], False)),
        crowned_turns=(turns_of(colors[0], True), turns_of(colors[1], True)),
        flying=rules.king_range is KingRange.FLYING,
        landing=rules.king_landing,
        men_capture_kings=rules.men_capture_kings,
        capture_promotion=rules.capture_promotion,
        immediate_removal=immediate,
        capture_mandatory=rules.capture_mandatory,
        king_move_limit=rules.king_move_limit or 0,
        state=RuleState(rules.king_move_limit or 0, tuple(bits), tuple(square_of_bit)),
        crowning_wins=rules.crowning_wins,
        capture_key=key,
        needs_order=any(criterion.needs_order for criterion in rules.precedence),
        single_jump_preference=preference,
        jump_goes_on=(~crown_row[0], ~crown_row[1]) if ends else (-1, -1),
        jump_needs_search=crown_row if as_king else (0, 0),
    )
