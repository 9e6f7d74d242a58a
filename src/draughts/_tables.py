"""Compile a ruleset once into the tables the move generator reads.

Everything the generator needs per square and direction is precomputed here, over the bit layout
of :mod:`draughts.geometry` (diagonal steps are constant shifts; ghost bits fall off the board).
Directions are numbered ``0 NW, 1 NE, 2 SW, 3 SE`` seen from White, so ``3 - d`` reverses ``d``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import attrs

from draughts.precedence import needs_order, raw_key_function
from draughts.rules import CapturedRemoval, CapturePromotion, KingRange, Precedence, Ruleset

NW, NE, SW, SE = 0, 1, 2, 3
ALL_DIRECTIONS = (NW, NE, SW, SE)
_STEPS = {NW: (-1, 1), NE: (1, 1), SW: (-1, -1), SE: (1, -1)}


def perpendicular(direction: int) -> tuple[int, int]:
    """The two directions at right angles to ``direction``."""
    return (NE, SW) if direction in (NW, SE) else (NW, SE)


@attrs.frozen
class Tables:
    """A ruleset compiled for the generator. Build with :func:`compile_rules` (cached)."""

    rules: Ruleset
    #: Signed bit shift of one step in each direction.
    shifts: tuple[int, int, int, int]
    #: Bits of all playable squares.
    board: int
    #: Bits of the crowning row of each colour (index = Color).
    crown_row: tuple[int, int]
    #: Bits of the rows each colour's men start on.
    start_men: tuple[int, int]
    #: Directions a man of each colour moves in.
    man_steps: tuple[tuple[int, ...], tuple[int, ...]]
    #: Directions a man of each colour captures in.
    man_jumps: tuple[tuple[int, ...], tuple[int, ...]]
    #: ``rays[bit][d]`` = bits along direction ``d`` from ``bit`` (excluding it), nearest first.
    rays: tuple[tuple[tuple[int, ...], ...], ...] = attrs.field(repr=False)
    #: Directions a flying king may turn to after a capture in direction ``d``.
    turns: tuple[tuple[int, ...], ...]
    #: Square number of each bit (0 for ghost bits) and bit of each square number.
    square_of_bit: tuple[int, ...] = attrs.field(repr=False)
    bit_of_square: tuple[int, ...] = attrs.field(repr=False)

    # Flags read in the hot path, copied from the ruleset for speed and brevity.
    flying: bool
    men_capture_kings: bool
    capture_promotion: CapturePromotion
    immediate_removal: bool
    capture_mandatory: bool

    # Bit-mask forms for the fast generator (single-bit ints, not indices).
    #: The two shift amounts of a diagonal step (``size // 2`` and ``size // 2 + 1``).
    step_a: int = 0
    step_b: int = 0
    #: Shift amount of each direction, and whether it goes up (a left shift, towards Black).
    step_of: tuple[int, int, int, int] = (0, 0, 0, 0)
    up_of: tuple[bool, bool, bool, bool] = (True, True, False, False)
    #: ``ray_masks[d][bit]`` = mask of the squares along direction ``d`` from ``bit`` (excluded).
    ray_masks: tuple[tuple[int, ...], ...] = attrs.field(default=(), repr=False)
    #: Whether a man of each colour captures up / down (the forward pair, the backward pair).
    man_jumps_up: tuple[bool, bool] = (True, False)
    man_jumps_down: tuple[bool, bool] = (False, True)
    #: Per colour, the landing squares from which a man's capture may go on as a man (all but
    #: the crowning row where crowning ends the move), and those where only the search can tell
    #: (the crowning row, where a man crowned mid-capture goes on as a king).
    jump_goes_on: tuple[int, int] = (-1, -1)
    jump_needs_search: tuple[int, int] = (0, 0)

    # The resolver, compiled: the precedence key of a raw capture (None = free choice), whether
    # the key reads the capture order, and whether, among single jumps by men, those taking a
    # king are preferred (the only criteria that can tell two single jumps by men apart).
    capture_key: Callable[[Any, int], object] | None = attrs.field(default=None, eq=False, repr=False)
    record_order: bool = False
    single_jumps_prefer_kings: bool = False
    #: Closures the generator builds from these tables once, on first use (the capture search).
    memo: dict[str, Any] = attrs.field(factory=dict, eq=False, repr=False)


def shift(bits: int, amount: int) -> int:
    """``bits`` moved by a signed shift (positive = towards Black's side)."""
    return bits << amount if amount > 0 else bits >> -amount


@functools.lru_cache(maxsize=32)
def compile_rules(rules: Ruleset) -> Tables:
    """The generator tables of ``rules``, computed once per ruleset."""
    geo = rules.geometry
    size = rules.board_size
    half = size // 2
    shifts = (half, half + 1, -(half + 1), -half)
    nbits = len(geo.square_of_bit)
    board = 0
    for bit in geo.bits[1:]:
        board |= 1 << bit

    def row_bits(rows: range) -> int:
        bits = 0
        for x, y in geo.coords[1:]:
            if y in rows:
                bits |= 1 << geo.bit_of(x, y)
        return bits

    rays: list[tuple[tuple[int, ...], ...]] = []
    for bit in range(nbits):
        square = geo.square_of_bit[bit]
        if not square:
            rays.append(((), (), (), ()))
            continue
        x0, y0 = geo.coords[square]
        per_direction = []
        for direction in ALL_DIRECTIONS:
            dx, dy = _STEPS[direction]
            x, y = x0 + dx, y0 + dy
            ray = []
            while 0 <= x < size and 0 <= y < size:
                ray.append(geo.bit_of(x, y))
                x, y = x + dx, y + dy
            per_direction.append(tuple(ray))
        rays.append(tuple(per_direction))

    immediate = rules.captured_removal is CapturedRemoval.IMMEDIATE
    turns = tuple((*perpendicular(d), 3 - d) if immediate else perpendicular(d) for d in ALL_DIRECTIONS)
    forward = ((NW, NE), (SW, SE))
    jumps = (ALL_DIRECTIONS, ALL_DIRECTIONS) if rules.men_capture_backward else forward
    rows = rules.rows_per_side
    crown_row = (row_bits(range(size - 1, size)), row_bits(range(0, 1)))
    ends = rules.capture_promotion is CapturePromotion.ENDS_MOVE
    as_king = rules.capture_promotion is CapturePromotion.CONTINUES_AS_KING
    ray_masks = tuple(
        tuple(sum(1 << bit for bit in per_bit[direction]) for per_bit in rays) for direction in ALL_DIRECTIONS
    )
    return Tables(
        rules=rules,
        shifts=shifts,
        board=board,
        crown_row=crown_row,
        start_men=(row_bits(range(0, rows)), row_bits(range(size - rows, size))),
        man_steps=forward,
        man_jumps=jumps,
        rays=tuple(rays),
        turns=turns,
        square_of_bit=geo.square_of_bit,
        bit_of_square=geo.bits,
        flying=rules.king_range is KingRange.FLYING,
        men_capture_kings=rules.men_capture_kings,
        capture_promotion=rules.capture_promotion,
        immediate_removal=immediate,
        capture_mandatory=rules.capture_mandatory,
        step_a=half,
        step_b=half + 1,
        step_of=(half, half + 1, half + 1, half),
        up_of=(True, True, False, False),
        ray_masks=ray_masks,
        man_jumps_up=(any(d in (NW, NE) for d in jumps[0]), any(d in (NW, NE) for d in jumps[1])),
        man_jumps_down=(any(d in (SW, SE) for d in jumps[0]), any(d in (SW, SE) for d in jumps[1])),
        jump_goes_on=(~crown_row[0], ~crown_row[1]) if ends else (-1, -1),
        jump_needs_search=crown_row if as_king else (0, 0),
        capture_key=raw_key_function(rules.precedence),
        record_order=needs_order(rules.precedence),
        single_jumps_prefer_kings=bool({Precedence.MOST_KINGS, Precedence.KINGS_EARLIEST} & set(rules.precedence)),
    )
