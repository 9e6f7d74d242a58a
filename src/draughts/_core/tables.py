"""The Python view of a ruleset's compiled tables: its squares in the native core's bit layout,
the steps of men and kings as whole-board shifts, the crowning and start rows (what the engine's
evaluation, positions and the learning tensors read; the rules themselves are applied natively).

**Bit layout** (``native/core/src/tables.rs``; read from the native rules, not recomputed here).
Each playable square gets a bit index such that every step the ruleset uses is a constant shift,
and a step off the board lands on a *ghost* bit that belongs to no square:

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
from draughts._core.native import native_rules
from draughts._core.rulestate import RuleState
from draughts.color import Color
from draughts.rules import (
    CapturedRemoval,
    Directions,
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

    flying: bool
    men_capture_kings: bool
    immediate_removal: bool
    capture_mandatory: bool
    king_move_limit: int
    """0 for no limit."""
    state: RuleState = attrs.field(repr=False)
    """The rule state nodes carry, as text and squares (:mod:`draughts._core.rulestate`)."""
    crowning_wins: bool

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


def _uses_orthogonal(rules: Ruleset) -> bool:
    """Whether the board has orthogonal steps: every square is played, or a piece moves or
    captures orthogonally (on dark squares two squares along a row or column)."""
    if rules.board_squares is BoardSquares.ALL:
        return True
    return any(
        flags & Directions.ORTHOGONAL
        for flags in (rules.men_move, rules.men_capture, rules.kings_move, rules.kings_capture)
    )


def _shifts(rules: Ruleset, bits: list[int]) -> dict[int, int]:
    """The shift of one step in each direction the board has, read off the native layout: the
    difference of the bit indices of any two squares one step apart (the layout makes it the same
    for every pair)."""
    geo = rules.geometry
    scale = 1 if rules.board_squares is BoardSquares.ALL else 2
    directions = [d for d in range(8) if d in _DIAGONALS or _uses_orthogonal(rules)]
    square_at = {xy: square for square, xy in enumerate(geo.coords) if square}
    shifts = {}
    for d in directions:
        dx, dy = VECTORS[d]
        if d not in _DIAGONALS:
            dx, dy = dx * scale, dy * scale
        for (x, y), square in square_at.items():
            target = square_at.get((x + dx, y + dy))
            if target is not None:
                shifts[d] = bits[target] - bits[square]
                break
    return shifts


@functools.lru_cache(maxsize=_caches.RULESETS)
def compile_rules(rules: Ruleset) -> Tables:
    """The tables of ``rules``, computed once per ruleset (the :data:`~draughts._caches.RULESETS`
    used last are kept). The bit layout is the native core's (:func:`~draughts._core.native.native_rules`)."""
    native = native_rules(rules)
    geo = rules.geometry
    size = rules.height
    every = rules.board_squares is BoardSquares.ALL
    bits = list(native.bit_of_square)
    square_of_bit = list(native.square_of_bit)
    board = native.board
    shifts = _shifts(rules, bits)
    bit_at = {xy: bits[square] for square, xy in enumerate(geo.coords) if square}
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
                    mask |= 1 << bit_at[(x, y)]
                    x, y = x + step_x, y + step_y
                per_bit[bits[square]] = mask
        rays.append(tuple(per_bit))

    def steps(flags: Directions, color: Color) -> tuple[Step, ...]:
        return tuple((d, abs(shifts[d]), shifts[d] > 0) for d in _directions(flags, color))

    def row_bits(rows: range) -> int:
        found = 0
        for x, y in geo.coords[1:]:
            if y in rows:
                found |= 1 << bit_at[(x, y)]
        return found

    first = rules.men_start_row - 1
    last = first + rules.rows_per_side
    crown_row = (row_bits(range(size - 1, size)), row_bits(range(0, 1)))
    immediate = rules.captured_removal is CapturedRemoval.IMMEDIATE
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
        flying=rules.king_range is KingRange.FLYING,
        men_capture_kings=rules.men_capture_kings,
        immediate_removal=immediate,
        capture_mandatory=rules.capture_mandatory,
        king_move_limit=rules.king_move_limit or 0,
        state=RuleState(rules, geo.squares),
        crowning_wins=rules.crowning_wins,
    )
