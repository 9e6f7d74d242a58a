"""The evaluation's weights and the per-ruleset tables they compile into (the evaluation itself
runs natively: ``draughts._native.Evaluation``, ``native/core/src/evaluation.rs``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

import attrs

from draughts import _caches
from draughts._core.native import native_rules
from draughts._native import Evaluation, layout
from draughts.errors import InvalidWeightsError
from draughts.position import Position
from draughts.rules import Ruleset

Shifts = tuple[tuple[int, bool], ...]
"""Whole-board shifts: ``(amount, up)``, ``up`` for a left shift."""
Steps = tuple[tuple[int, int, bool], ...]
"""Steps: ``(direction, amount, up)``."""


class Tables(NamedTuple):
    """What the evaluation's tables are compiled from: the native generator's layout and steps."""

    board: int
    square_of_bit: list[int]
    bit_of_square: list[int]
    man_moves: tuple[Steps, Steps]
    king_moves: tuple[Steps, Steps]
    man_captures: tuple[Steps, Steps]
    king_captures: tuple[Steps, Steps]
    rays: list[list[int]]
    """Per direction (0-7), per bit: the squares along it."""
    flying: bool


@functools.lru_cache(maxsize=_caches.EVALUATIONS)
def _tables(ruleset: Ruleset) -> Tables:
    """The layout and steps of ``ruleset``, from the native core."""
    rules = native_rules(ruleset)
    steps = layout(rules)
    return Tables(
        rules.board,
        rules.square_of_bit,
        rules.bit_of_square,
        steps["man_moves"],
        steps["king_moves"],
        steps["man_captures"],
        steps["king_captures"],
        steps["rays"],
        steps["flying"],
    )


def shifts_of(steps: Steps) -> Shifts:
    """The whole-board shifts of ``steps``, ``(amount, up)``."""
    return tuple((amount, up) for _, amount, up in steps)


__all__ = ["MATERIAL_ONLY", "Evaluator", "Weights", "evaluate", "king_value"]

# --- evaluation ---------------------------------------------------------------------------------


def king_value(ruleset: Ruleset) -> int:
    """What a king is worth in hundredths of a man under ``ruleset`` (a man is 100).

    250 for a short king; ``250 + 15 * board_size`` for a flying king (370 on 8x8, 400 on 10x10);
    30 more where men may not capture kings.
    """
    value = 250
    if ruleset.flying_kings:
        value += 15 * max(ruleset.width, ruleset.height)
    if not ruleset.men_capture_kings:
        value += 30
    return value


_SQUARES = (
    (31, 31, 37, 23, 25),
    (13, 21, 17, 11, 13),
    (3, 11, -6, -5, 0),
    (7, 6, -1, -4, 2),
    (6, 4, 5, 6, 12),
    (1, 6, 5, 8, 10),
    (2, 4, 5, 6, 6),
    (-1, 2, 4, 6, 6),
    (0, 3, 8, 7, 10),
)
"""The default :attr:`Weights.squares <draughts.engine.Weights.squares>`: fitted by least squares,
with the contact and balance terms, to the static evaluation of py-draughts' TurboEngine on about
15,000 quiet International positions of equal material taken from recorded games; the table is
read by rows to the crowning row and columns from the side, so it applies to every board."""


def _is_integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _rows_of_ints(value: Any) -> tuple[tuple[int, ...], ...]:
    """``Weights.squares`` as a tuple of tuples, refusing anything but rows of integers."""
    rows = value if isinstance(value, (tuple, list)) else None
    if rows is None or not all(isinstance(row, (tuple, list)) and all(map(_is_integer, row)) for row in rows):
        raise InvalidWeightsError(f"Weights.squares {value!r:.80} must be rows of integers (hundredths of a man)")
    return tuple(tuple(row) for row in rows)


def _integer(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """An attrs validator: the weight is an integer (None too where the field allows it)."""
    if not (_is_integer(value) or (value is None and attribute.name == "king")):
        allowed = "an integer or None" if attribute.name == "king" else "an integer"
        raise InvalidWeightsError(f"Weights.{attribute.name} {value!r:.80} must be {allowed} (hundredths of a man)")


def _weight(default: int | None) -> Any:
    """An integer weight's field (one line a weight in :class:`Weights`)."""
    return attrs.field(default=default, validator=_integer)


@attrs.frozen
class Weights:
    """The terms of the built-in evaluation, in hundredths of a man.

    Every weight is an integer (``king`` may be None, ``squares`` is rows of integers); anything
    else raises ``InvalidWeightsError`` (a :class:`~draughts.DraughtsError`), quoting it.

    Attributes:
        man: A man.
        king: A king; None derives it from the ruleset (:func:`king_value`).
        squares: A man's bonus by where it stands: ``squares[r][c]`` for a man ``r + 1`` rows
            before its crowning row and ``c`` columns from the nearer side of the board (a board
            with more rows or columns than the table reads its last row or column).
        advancement: Scale of a bonus for every row a man has advanced, growing with its square
            to ``advancement * board_size`` on the row before crowning.
        endgame_advancement: The same bonus, added in the endgame (a third of the pieces left or
            fewer), when the race to crown decides; where crowning wins the game it counts
            always, three times.
        back_rank: Per man on its own first row, while the opponent still has men to crown.
        centre: Per man on the central squares (the middle half of the rows and columns).
        file: Per column a man stands from the nearer side of the board.
        contact: Per man facing an opposing piece on a square it could move to.
        support: Per man whose squares behind it are held by its own pieces (or are off the board).
        mobility: Per quiet step available (men's moves, and kings' one-square steps).
        balance: Per man more on one wing than on the other (a lopsided formation).
        king_position: A king's bonus on the squares it sees most of (the long diagonals).
        runaway: In the endgame, a man whose way to the crowning row no opposing piece can bar.
        main_road: With flying kings, three kings or more, one on the board's main road (its one
            longest diagonal), against a lone king off it: the known win (Petrov's triangle on
            8x8), which then counts in full rather than a quarter, with this bonus; a lone king on
            the road holds the draw (RUS64 7.2.7). 0 turns the knowledge off.
    """

    man: int = _weight(100)
    king: int | None = _weight(None)
    squares: tuple[tuple[int, ...], ...] = attrs.field(default=_SQUARES, converter=_rows_of_ints)
    advancement: int = _weight(0)
    endgame_advancement: int = _weight(4)
    back_rank: int = _weight(4)
    centre: int = _weight(0)
    file: int = _weight(0)
    contact: int = _weight(9)
    support: int = _weight(0)
    mobility: int = _weight(0)
    balance: int = _weight(2)
    king_position: int = _weight(12)
    runaway: int = _weight(60)
    main_road: int = _weight(100)


MATERIAL_ONLY = Weights(
    squares=(),
    endgame_advancement=0,
    back_rank=0,
    file=0,
    contact=0,
    support=0,
    balance=0,
    king_position=0,
    runaway=0,
    main_road=0,
)
"""Weights that count material only."""


Evaluator = Callable[[int, int, int, int], int]
"""``f(own, opp, kings, color)``: a generator node's score for its side to move."""


@functools.lru_cache(maxsize=_caches.EVALUATIONS)
def _evaluation(ruleset: Ruleset, weights: Weights) -> Evaluation:
    """The built-in evaluation of ``ruleset`` with ``weights`` (built once, cached; run natively).

    Every term that is a sum over squares (material, where men stand, the back-rank guard, kings'
    squares) becomes one value per square and colour; the other terms get the masks and shifts
    the native evaluation (``native/core/src/evaluation.rs``) reads.
    """
    tables = _tables(ruleset)
    w = weights
    men, kings, regions = _square_values(ruleset, w)
    fronts, back_shifts = _man_neighbours(tables)
    endgame_scale = w.endgame_advancement * (3 if ruleset.crowning_wins else 1)
    rows_ahead = max(ruleset.height - 2, 1)
    late_rows = tuple(
        tuple(
            (regions.rows[color][row], bonus)
            for row in range(1, ruleset.height - 1)
            if (bonus := endgame_scale * row * (row + 2) // rows_ahead)
        )
        for color in (0, 1)
    )
    compiled = {
        "men": (men[0], men[1]),
        "kings": kings,
        "man_steps": (shifts_of(tables.man_moves[0]), shifts_of(tables.man_moves[1])),
        "king_steps": (shifts_of(tables.king_moves[0]), shifts_of(tables.king_moves[1])),
        "fronts": fronts,
        "back_pairs": back_shifts,
        "home": (regions.rows[0][0], regions.rows[1][0]),
        "left": regions.left,
        "right": regions.right,
        "late_rows": late_rows,
        "zone_of": _runaway_zones(tables),
        "men_total": 2 * ruleset.men_per_side,
        "sign": -1 if ruleset.no_move_wins else 1,
        "flying": tables.flying,
        "crowning_wins": ruleset.crowning_wins,
        "mobility": w.mobility,
        "contact": w.contact,
        "support": w.support,
        "back_rank": w.back_rank,
        "balance": w.balance,
        "runaway": w.runaway * (3 if ruleset.crowning_wins else 1),
        "main_road": _main_road(tables) if tables.flying else 0,
        "road": w.main_road,
    }
    return Evaluation(native_rules(ruleset), compiled)


class _Regions(NamedTuple):
    rows: tuple[tuple[int, ...], tuple[int, ...]]
    """Per colour, the bits of each row counted from its own first row."""
    left: int
    """The left wing (the columns left of the middle)."""
    right: int
    """The right wing."""


def _square_values(ruleset: Ruleset, w: Weights) -> tuple[tuple[list[int], list[int]], list[int], _Regions]:
    """Per colour and bit, what a man there is worth; per bit, what a king is worth; the board's rows and wings.

    A man's value is every term that depends only on its square: :attr:`Weights.man`, the
    advancement that counts in every phase, the file and centre bonuses, the square table, and the
    back-rank guard on its own first row. A king's is its value and the long-diagonal bonus.
    """
    tables = _tables(ruleset)
    geo = ruleset.geometry
    size, files = ruleset.height, ruleset.width  # rows count towards crowning, files across
    nbits = len(tables.square_of_bit)
    king = king_value(ruleset) if w.king is None else w.king
    always = w.advancement + (w.endgame_advancement * 3 if ruleset.crowning_wins else 0)
    rows_ahead = max(size - 2, 1)
    low, high = size // 4, size - 1 - size // 4
    left_file, right_file = files // 4, files - 1 - files // 4
    rows = ([0] * size, [0] * size)
    left = right = 0
    men = ([0] * nbits, [0] * nbits)
    reach = _king_reach(tables)
    most = max(reach) or 1
    king_values = [0] * nbits
    for square in range(1, geo.squares + 1):
        x, y = geo.coords[square]
        index = tables.bit_of_square[square]
        rows[0][y] |= 1 << index
        rows[1][size - 1 - y] |= 1 << index
        if 2 * x < files - 1:
            left |= 1 << index
        elif 2 * x > files - 1:
            right |= 1 << index
        central = left_file <= x <= right_file and low <= y <= high
        for color, row in ((0, y), (1, size - 1 - y)):
            ahead = min(row, size - 2)
            value = w.man + always * ahead * (ahead + 2) // rows_ahead + w.file * min(x, files - 1 - x)
            before = size - 1 - row  # rows to the crowning row
            if before > 0 and w.squares:
                cells = w.squares[min(before, len(w.squares)) - 1]
                if cells:
                    value += cells[min(x, files - 1 - x, len(cells) - 1)]
            men[color][index] = value + (w.centre if central else 0) + (w.back_rank if row == 0 else 0)
        king_values[index] = king + w.king_position * reach[index] // most
    return men, king_values, _Regions((tuple(rows[0]), tuple(rows[1])), left, right)


def _king_reach(tables: Tables) -> list[int]:
    """Per bit, how many squares a king there sees (a short king: how many directions it can step in)."""
    directions = [d for d, _, _ in tables.king_moves[0]] or [d for d, _, _ in tables.king_captures[0]]
    reach = [0] * len(tables.square_of_bit)
    for square in range(1, len(tables.bit_of_square)):
        index = tables.bit_of_square[square]
        rays = [tables.rays[d][index] for d in directions]
        reach[index] = sum(ray.bit_count() if tables.flying else int(ray != 0) for ray in rays)
    return reach


def _main_road(tables: Tables) -> int:
    """The mask of the board's main road: its longest diagonal, where no other is as long (else 0).

    A line is a square with every square along a king's direction from it and every square from
    which it lies along that direction; 8x8 has one longest (a1-h8, RUS64's "main road"), 10x10
    one (46-5); a board with two lines of the longest length has no main road.
    """
    directions = {d for d, _, _ in tables.king_moves[0]} | {d for d, _, _ in tables.king_captures[0]}
    indices = [tables.bit_of_square[square] for square in range(1, len(tables.bit_of_square))]
    lines = set()
    for index in indices:
        for d in directions:
            behind = sum(1 << other for other in indices if tables.rays[d][other] >> index & 1)
            lines.add((1 << index) | tables.rays[d][index] | behind)
    longest = max((line.bit_count() for line in lines), default=0)
    roads = [line for line in lines if line.bit_count() == longest]
    return roads[0] if len(roads) == 1 else 0


def _man_neighbours(tables: Tables) -> tuple[tuple[Shifts, Shifts], tuple[Shifts, Shifts]]:
    """Per colour, the shifts that bring a man's front squares onto its own bit (contact), and the
    shifts that bring its back squares there (support; the native evaluation counts a back square
    off the board as held).

    A man's front squares are where it moves to; its back squares, those of the opposite
    directions that it cannot move in.
    """
    fronts = []
    backs = []
    for color in (0, 1):
        moves = tables.man_moves[color]
        directions = {d for d, _, _ in moves}
        fronts.append(tuple((a, not up) for _, a, up in moves))
        backs.append(tuple((a, up) for d, a, up in moves if (d + 4) % 8 not in directions))
    return (fronts[0], fronts[1]), (backs[0], backs[1])


def _runaway_zones(tables: Tables) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per colour and bit, where an opposing piece would stop a man there on its way to crown.

    That is the squares the man can still reach and those from which an opposing man could step
    or jump into them.
    """
    board = tables.board
    zones: list[tuple[int, ...]] = []
    for color in (0, 1):
        steps = shifts_of(tables.man_moves[color])
        into = shifts_of(tables.man_moves[1 - color]) + shifts_of(tables.man_captures[1 - color])
        zone = [0] * len(tables.square_of_bit)
        for square in range(1, len(tables.bit_of_square)):
            index = tables.bit_of_square[square]
            reached = 0
            front = 1 << index
            while front:
                nxt = 0
                for a, up in steps:
                    nxt |= (front << a if up else front >> a) & board
                front = nxt & ~reached
                reached |= front
            stops = reached
            for a, up in into:  # an opposing step from s lands in ``reached``: s = reached shifted back
                stops |= (reached >> a if up else reached << a) & board
            zone[index] = stops
        zones.append(tuple(zone))
    return zones[0], zones[1]


def evaluate(position: Position, weights: Weights | None = None) -> int:
    """The built-in evaluation of ``position`` for the side to move, in hundredths of a man.

    It does not search: a position with a pending capture is scored as it stands.

    >>> import draughts
    >>> from draughts.engine import evaluate
    >>> evaluate(draughts.Position.initial("international"))
    0
    >>> evaluate(draughts.Position.from_fen("international", "W:WK46:B5"), MATERIAL_ONLY)  # a king against a man
    300
    """
    own, opp, kings, color, _ = position.node
    return _evaluation(position.ruleset, Weights() if weights is None else weights).evaluate(own, opp, kings, color)
