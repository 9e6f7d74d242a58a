"""A computer opponent for every ruleset: alpha-beta search and a generic evaluation.

>>> import draughts
>>> from draughts.engine import Engine, Limit
>>> board = draughts.Board("russian")
>>> result = Engine(seed=1).search(board, Limit(depth=3))
>>> result.move in board.legal_moves, result.depth
(True, 3)

Search
------
:meth:`Engine.search` is a negamax alpha-beta search on the move generator's own bitboard nodes
(copy-make on plain ints, never :class:`~draughts.Position` objects), with principal-variation
(null-window) re-searches, iterative deepening with an aspiration window, a transposition table
keyed by the exact node ``(own, opponent, kings, side to move, rule state)``, move ordering (the
table's move and the previous iteration's best first, then captures by size, two killer moves
per ply and the history heuristic), late-move reductions, forward pruning where a shallow search
beats beta by a margin, one ply more for a single legal move, and a quiescence search: where the
side to move has a capture the search goes on through it, where a man can crown with a quiet step
the crowning is tried against the evaluation, and where the opponent threatens a capture or a
crowning it looks one ply further, so no score is taken while a capture or a crowning hangs. It
stops at a :class:`Limit` of depth, nodes or time, whichever comes first, and answers with the
deepest iteration, counting the moves the last, unfinished one has already searched. Depth and node
limits are reproducible: with the same seed the same calls give the same results. A position
repeated on the search path or in the game history of a :class:`~draughts.Board` counts as a
draw (where the ruleset has a repetition rule); the move-count and endgame draw rules are left to
:meth:`~draughts.Board.outcome` and not searched.

Randomness
----------
The only random choice is among root moves whose scores are equal, or within the engine's
``margin`` of the best (a level's way to play weaker, more varied moves). It uses ``random.Random(seed)``,
owned by the engine, so an engine built with the same seed makes the same choices.

Evaluation
----------
:func:`evaluate` scores a position for the side to move in hundredths of a man, from the
ruleset's fields only (no variant names):

* **material**: 100 per man, and a king worth :func:`king_value`: 250 for a short king; a flying
  king ``250 + 15 * board_size`` (370 on 8x8, 400 on 10x10), since it controls whole diagonals;
  30 more where men cannot capture kings;
* **where men stand**: a bonus by rows to the crowning row and columns from the side, read from
  a table that fits every board (:attr:`Weights.squares`);
* **contact**: men facing an opposing piece; **balance**: men spread over both wings;
  **back-rank guard**: men on their own first row while the opponent has men to crown;
* **kings** on the squares they see most of;
* in the endgame, **advancement** (the race to crown), **runaways** (men no opposing piece can
  stop) and, with flying kings, a small lead against a king counting a quarter (it is usually a
  draw);
* where a player with no move wins (losing draughts) the whole score changes sign; where
  crowning wins (breakthrough) advancement and runaways count three times, always.

:class:`Weights` sets each term; pass your own evaluation to ``Engine(evaluate=...)``, a function
of a :class:`~draughts.Position` returning an ``int`` for the side to move.

Levels
------
:data:`LEVELS` names three strengths, ``beginner``, ``intermediate`` and ``strong``
(see ``docs/engine.rst`` for the match results that separate them).
"""

from __future__ import annotations

import functools
import random
import threading
import time
import types
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

import attrs

from draughts import _bridge, _caches
from draughts._core import build_move_generator
from draughts._core import evaluation as _core_evaluation
from draughts._core import search as _core_search
from draughts._core.capture import abort_when
from draughts._core.evaluation import BackPairs, Shifts
from draughts._core.tables import Tables, shifts_of
from draughts._core.types import Compact, Node
from draughts._text import excerpt
from draughts.board import Board
from draughts.color import Color
from draughts.errors import DraughtsError, InvalidLimitError, InvalidWeightsError, UnknownLevelError
from draughts.move import Move
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.score import Score

__all__ = [
    "LEVELS",
    "MATE",
    "AnalysisLine",
    "Engine",
    "InvalidLimitError",
    "InvalidWeightsError",
    "Level",
    "Limit",
    "SearchResult",
    "StopSignal",
    "UnknownLevelError",
    "Weights",
    "evaluate",
    "get_level",
    "king_value",
    "line_text",
]

MATE = _core_search.MATE
"""The score of a won game; a win in ``n`` plies scores ``MATE - n``."""

_MATE_BOUND = _core_search.MATE_BOUND
_INF = _core_search.INF
_MAX_DEPTH = _core_search.MAX_DEPTH


def _positive_or_none(kind: type) -> Any:
    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value is None:
            return
        # ``not value > 0`` also refuses NaN, which compares false with everything and would never stop.
        if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int) or not value > 0:
            raise InvalidLimitError(f"{attribute.name} {excerpt(value)} must be a positive number or None")

    return check


class StopSignal(Protocol):
    """What :meth:`Engine.search` accepts as ``stop``: anything with ``is_set()``, like ``threading.Event``."""

    def is_set(self) -> bool:
        """Whether the search should stop."""
        ...  # pragma: no cover


@attrs.frozen
class Limit:
    """When a search stops: after ``depth`` plies, ``nodes`` nodes or ``time`` seconds.

    Whichever comes first ends the search; with none of them the search goes to depth 64 (or until
    :meth:`Engine.stop`). Depth and node limits give reproducible results; time limits depend on the
    machine.

    Attributes:
        depth: Full-width plies of the deepest iteration (captures are followed beyond it).
        nodes: Most nodes (positions visited, quiescence included) the search may visit.
        time: Seconds of thinking (wall-clock). The search uses them all and stops just before
            they are up (a twentieth early, at most 0.02 s), answering with the deepest iteration
            and the moves its unfinished successor has already searched; a single legal move is
            answered at once.
    """

    depth: int | None = attrs.field(default=None, validator=_positive_or_none(int))
    nodes: int | None = attrs.field(default=None, validator=_positive_or_none(int))
    time: float | None = attrs.field(default=None, validator=_positive_or_none(float))


@attrs.frozen
class SearchResult:
    """The answer of a search.

    Attributes:
        move: The chosen move (a legal move of the searched position), or None when the game is
            over (no legal move, or a finished :class:`~draughts.Board`).
        score: The score of ``move`` for the side to move, in hundredths of a man; ``MATE - n``
            for a forced win in ``n`` plies, ``-(MATE - n)`` for a forced loss.
        pv: The principal variation, starting with ``move``.
        depth: The depth of the last completed iteration (0 if none completed).
        nodes: Nodes visited.
    """

    move: Move | None
    score: int
    pv: tuple[Move, ...]
    depth: int
    nodes: int

    @property
    def mate_in(self) -> int | None:
        """Plies to a forced end of the game: positive when the side to move wins, negative when it loses."""
        if self.score >= _MATE_BOUND:
            return MATE - self.score
        if self.score <= -_MATE_BOUND:
            return -(MATE + self.score)
        return None


@attrs.frozen
class AnalysisLine:
    """One line of :meth:`Engine.analyse`: a first move, its score and what the engine expects after it.

    Attributes:
        move: The line's first move.
        score: Its :class:`~draughts.score.Score` for the side to move (exact from a tablebase).
        pv: The principal variation, starting with ``move``.
        depth: The depth of the iteration that scored it (0 for a tablebase's answer).
        nodes: Nodes the whole analysis visited (the same for every line of one call).
        multipv: The line's rank, 1 for the best.
    """

    move: Move
    score: Score
    pv: tuple[Move, ...]
    depth: int
    nodes: int
    multipv: int = 1


# --- evaluation ---------------------------------------------------------------------------------


def king_value(ruleset: Ruleset) -> int:
    """What a king is worth in hundredths of a man under ``ruleset`` (a man is 100).

    250 for a short king; ``250 + 15 * board_size`` for a flying king (370 on 8x8, 400 on 10x10);
    30 more where men may not capture kings.
    """
    value = 250
    if ruleset.flying_kings:
        value += 15 * ruleset.board_size
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
"""The default :attr:`Weights.squares`: fitted by least squares, with the contact and balance
terms, to the static evaluation of py-draughts' TurboEngine on about 15,000 quiet International
positions of equal material taken from recorded games; the table is read by rows to the crowning
row and columns from the side, so it applies to every board."""


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
    """

    man: int = attrs.field(default=100, validator=_integer)
    king: int | None = attrs.field(default=None, validator=_integer)
    squares: tuple[tuple[int, ...], ...] = attrs.field(default=_SQUARES, converter=_rows_of_ints)
    advancement: int = attrs.field(default=0, validator=_integer)
    endgame_advancement: int = attrs.field(default=4, validator=_integer)
    back_rank: int = attrs.field(default=4, validator=_integer)
    centre: int = attrs.field(default=0, validator=_integer)
    file: int = attrs.field(default=0, validator=_integer)
    contact: int = attrs.field(default=9, validator=_integer)
    support: int = attrs.field(default=0, validator=_integer)
    mobility: int = attrs.field(default=0, validator=_integer)
    balance: int = attrs.field(default=2, validator=_integer)
    king_position: int = attrs.field(default=12, validator=_integer)
    runaway: int = attrs.field(default=60, validator=_integer)


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
)
"""Weights that count material only."""


Evaluator = _core_evaluation.Evaluator
"""``f(own, opp, kings, color)``: a generator node's score for its side to move."""

_CHUNK_BITS = 12
"""The widest chunk of bits the evaluation's look-up tables take (4,096 entries; 10 past 64 bits,
to keep big boards' tables small): fewer, wider chunks are fewer operations per leaf."""


@functools.lru_cache(maxsize=_caches.EVALUATIONS)
def _evaluation(ruleset: Ruleset, weights: Weights) -> _core_evaluation.Evaluation:
    """The built-in evaluation of ``ruleset`` with ``weights`` (built once, cached).

    Every term that is a sum over squares (material, where men stand, the back-rank guard, kings'
    squares) becomes one value per square, summed by table look-ups over chunks of the bitboards;
    the other terms get the masks and shifts :class:`~draughts._core.evaluation.Evaluation` needs.
    """
    tables = build_move_generator(ruleset).tables
    w = weights
    men, kings, regions = _square_values(ruleset, w)
    nbits = len(tables.square_of_bit)
    count = -(-nbits // (_CHUNK_BITS if nbits <= 64 else 10))
    width = -(-nbits // count)
    shared: dict[int, int] = {}  # equal entries share one int object (the tables hold many)
    men_tables = (_chunked(men[0], count, width, shared), _chunked(men[1], count, width, shared))
    shifts = [chunk * width for chunk in range(count)]
    fronts, back_pairs = _man_neighbours(tables)
    endgame_scale = w.endgame_advancement * (3 if ruleset.crowning_wins else 1)
    rows_ahead = max(ruleset.board_size - 2, 1)
    late_rows = tuple(
        tuple(
            (regions.rows[color][row], bonus)
            for row in range(1, ruleset.board_size - 1)
            if (bonus := endgame_scale * row * (row + 2) // rows_ahead)
        )
        for color in (0, 1)
    )
    return _core_evaluation.Evaluation(
        men_chunks=(
            tuple(zip(shifts, men_tables[0], men_tables[1], strict=True)),
            tuple(zip(shifts, men_tables[1], men_tables[0], strict=True)),
        ),
        king_chunks=tuple(zip(shifts, _chunked(kings, count, width, shared), strict=True)),
        chunk_mask=(1 << width) - 1,
        board=tables.board,
        man_steps=(shifts_of(tables.man_moves[0]), shifts_of(tables.man_moves[1])),
        king_steps=(shifts_of(tables.king_moves[0]), shifts_of(tables.king_moves[1])),
        fronts=fronts,
        back_pairs=back_pairs,
        home=(regions.rows[0][0], regions.rows[1][0]),
        left=regions.left,
        right=regions.right,
        late_rows=late_rows,
        zone_of=_runaway_zones(tables),
        men_total=2 * ruleset.men_per_side,
        sign=-1 if ruleset.no_move_wins else 1,
        flying=tables.flying,
        crowning_wins=ruleset.crowning_wins,
        mobility=w.mobility,
        contact=w.contact,
        support=w.support,
        back_rank=w.back_rank,
        balance=w.balance,
        runaway=w.runaway * (3 if ruleset.crowning_wins else 1),
    )


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
    tables = build_move_generator(ruleset).tables
    geo = ruleset.geometry
    size = ruleset.board_size
    nbits = len(tables.square_of_bit)
    king = king_value(ruleset) if w.king is None else w.king
    always = w.advancement + (w.endgame_advancement * 3 if ruleset.crowning_wins else 0)
    rows_ahead = max(size - 2, 1)
    low, high = size // 4, size - 1 - size // 4
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
        if 2 * x < size - 1:
            left |= 1 << index
        elif 2 * x > size - 1:
            right |= 1 << index
        central = low <= x <= high and low <= y <= high
        for color, row in ((0, y), (1, size - 1 - y)):
            ahead = min(row, size - 2)
            value = w.man + always * ahead * (ahead + 2) // rows_ahead + w.file * min(x, size - 1 - x)
            before = size - 1 - row  # rows to the crowning row
            if before > 0 and w.squares:
                cells = w.squares[min(before, len(w.squares)) - 1]
                if cells:
                    value += cells[min(x, size - 1 - x, len(cells) - 1)]
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


def _chunked(values: list[int], count: int, width: int, shared: dict[int, int]) -> tuple[tuple[int, ...], ...]:
    """Per chunk of ``width`` bits, the table of the sum of ``values`` over each pattern of its bits."""
    out = []
    for chunk in range(count):
        base = chunk * width
        table = [0] * (1 << width)
        for v in range(1, 1 << width):
            low_bit = v & -v
            index = base + low_bit.bit_length() - 1
            total = table[v ^ low_bit] + (values[index] if index < len(values) else 0)
            table[v] = shared.setdefault(total, total)
        out.append(tuple(table))
    return tuple(out)


def _man_neighbours(tables: Tables) -> tuple[tuple[Shifts, Shifts], tuple[BackPairs, BackPairs]]:
    """Per colour, the shifts that bring a man's front squares onto its own bit (contact), and the
    shifts that bring its back squares there, each with the mask of men whose back square is off
    the board, which counts as held (support).

    A man's front squares are where it moves to; its back squares, those of the opposite
    directions that it cannot move in.
    """
    board = tables.board
    fronts = []
    back_pairs = []
    for color in (0, 1):
        moves = tables.man_moves[color]
        directions = {d for d, _, _ in moves}
        fronts.append(tuple((a, not up) for _, a, up in moves))
        backs = [(a, up) for d, a, up in moves if (d + 4) % 8 not in directions]
        back_pairs.append(tuple(((a, up), ~(board << a if up else board >> a)) for a, up in backs))
    return (fronts[0], fronts[1]), (back_pairs[0], back_pairs[1])


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
    own, opp, kings, color, _ = _bridge.node(position)
    return _evaluation(position.ruleset, Weights() if weights is None else weights).evaluate(own, opp, kings, color)


# --- search -------------------------------------------------------------------------------------
#
# The search works on the generator's nodes and xor-mask moves (``draughts._core``), never on
# Position and Move objects per node. A node is ``(own, opp, kings, color, state)``; a move's key
# is its xor masks. tests/engine/test_engine.py checks the search's moves and children against
# Position.legal_moves and Position.play.


@attrs.define(eq=False)
class Engine:
    """A searching opponent for any ruleset.

    Args:
        seed: Seed of the engine's ``random.Random``, used only to choose among equally good moves.
        evaluate: Your evaluation, ``f(position) -> int`` for the side to move (replaces the
            built-in one and its weights).
        weights: Weights of the built-in evaluation.
        margin: Root moves scoring within ``margin`` of the best count as equally good (0 = only
            equal scores); levels use it to play weaker, varied moves.
        limit: The default limit of :meth:`search`.
        hash_size: Most transposition-table entries kept (when full, the quarter written first goes).
        tablebase: A :class:`draughts.endgame.Tablebase` of the ruleset: a root position inside
            a built table is answered from it, with no search (the fastest win from a won
            position, so a win is converted in at most its distance; a drawing move from a drawn
            one; the longest defence from a lost one), and inside the search every node whose
            material is built scores its exact value (a win or loss in ``n`` plies as a mate in
            ``n``, a draw 0). None: search only.

    >>> import draughts
    >>> from draughts.engine import Engine, Limit, line_text
    >>> pos = draughts.Position.from_fen("russian", "W:Wd4,h4,c3,b2:Bf6,h6")
    >>> result = Engine().search(pos, Limit(depth=4))
    >>> line_text(pos, result.pv)
    'd4-e5 f6:d4 c3:e5 h6-g5 h4:f6'
    >>> result.mate_in  # plies until Black has no piece left
    5
    """

    seed: int | None = 0
    evaluate: Callable[[Position], int] | None = None
    weights: Weights = attrs.field(factory=Weights)
    margin: int = 0
    limit: Limit = attrs.field(factory=lambda: Limit(depth=6))
    hash_size: int = 500_000
    tablebase: Any = None
    _random: random.Random = attrs.field(init=False)
    _tables: dict[Ruleset, dict[Node, tuple[int, int, int, Compact | None]]] = attrs.field(init=False, factory=dict)
    _stop_event: threading.Event = attrs.field(init=False, factory=threading.Event)

    def __attrs_post_init__(self) -> None:
        self._random = random.Random(self.seed)
        if isinstance(self.margin, bool) or not isinstance(self.margin, int) or self.margin < 0:
            raise InvalidLimitError(f"margin {excerpt(self.margin)} must be a non-negative number")

    def clear(self) -> None:
        """Forget the transposition tables (a new game) and reseed the random choices."""
        self._tables.clear()
        self._random = random.Random(self.seed)

    def _table_of(self, rules: Ruleset) -> dict[Node, tuple[int, int, int, Compact | None]]:
        """The transposition table of ``rules``: the same bitboards score differently under other rules.

        Tables of the rulesets searched last are kept (:data:`draughts._caches.ENGINE_TABLES`).
        """
        table = self._tables.pop(rules, None)
        if table is None:
            table = {}
            while len(self._tables) >= _caches.ENGINE_TABLES:
                del self._tables[next(iter(self._tables))]
        self._tables[rules] = table  # most recent last
        return table

    def stop(self) -> None:
        """Ask a running :meth:`search` (in another thread) to stop soon and return its best move."""
        self._stop_event.set()

    def search(
        self, game: Board | Position, limit: Limit | None = None, *, stop: StopSignal | None = None
    ) -> SearchResult:
        """Search ``game`` (a board, whose history counts for repetitions, or a position).

        A finished game (:meth:`~draughts.Board.outcome` is not None) or a position without a legal
        move gives a result with ``move=None``, the score of the end (0 for a draw) and no nodes.

        Args:
            game: What to search.
            limit: When to stop (default: the engine's ``limit``).
            stop: A flag another thread may set to end the search early, such as a
                ``threading.Event`` (default: the one :meth:`stop` sets, cleared when the search starts).
        """
        limit = self.limit if limit is None else limit
        if not isinstance(limit, Limit):
            raise TypeError(f"search limit {limit!r:.80} must be a draughts.engine.Limit, e.g. Limit(depth=6)")
        if isinstance(game, Board):
            position = game.position
            outcome = game.outcome()
            if outcome is not None:
                score = 0 if outcome.winner is None else (MATE if outcome.winner is position.turn else -MATE)
                return SearchResult(None, score, (), 0, 0)
            history = [_bridge.node(p) for p in game.positions()[:-1]]
        elif isinstance(game, Position):
            position = game
            history = []
        else:
            raise TypeError(f"cannot search {game!r}: pass a Board or a Position")
        if self.tablebase is not None and not position.is_over():
            known = _from_tablebase(self.tablebase, position, self._random)
            if known is not None:
                return known
        if stop is None:
            stop = self._stop_event
            stop.clear()
        run = _RootSearch(self, position, limit, history, stop)
        return run.run()

    def analyse(
        self, game: Board | Position, limit: Limit | None = None, *, multipv: int = 1, stop: StopSignal | None = None
    ) -> list[AnalysisLine]:
        """The best ``multipv`` lines of ``game``: distinct first moves, best first, each scored exactly.

        Like :meth:`search`, but every one of the best ``multipv`` root moves is searched with an open
        window (not only the best), so their scores are exact and comparable; the others are
        bounds and left out. A position inside the engine's tablebase is answered from it: every
        legal move with its exact :class:`~draughts.score.Score` (a win or loss in N plies, or a
        draw). A finished game gives no lines.

        >>> import draughts
        >>> lines = Engine().analyse(draughts.Board("russian"), Limit(depth=3), multipv=3)
        >>> len({line.move for line in lines}), lines[0].score >= lines[1].score >= lines[2].score
        (3, True)

        Args:
            game: What to analyse (a board's history counts for repetitions).
            limit: When to stop (default: the engine's ``limit``); the lines are those of the last
                iteration that scored them all.
            multipv: How many lines (fewer when there are fewer legal moves).
            stop: As for :meth:`search`.

        Raises:
            InvalidLimitError: ``multipv`` is not a positive whole number.
        """
        if isinstance(multipv, bool) or not isinstance(multipv, int) or multipv < 1:
            raise InvalidLimitError(f"multipv {excerpt(multipv)} must be a positive whole number")
        limit = self.limit if limit is None else limit
        if not isinstance(limit, Limit):
            raise TypeError(f"analysis limit {limit!r:.80} must be a draughts.engine.Limit, e.g. Limit(depth=6)")
        board = game if isinstance(game, Board) else Board.from_position(game) if isinstance(game, Position) else None
        if board is None:
            raise TypeError(f"cannot analyse {game!r}: pass a Board or a Position")
        position = board.position
        if board.outcome() is not None or not position.legal_moves():
            return []
        if self.tablebase is not None:
            known = _lines_from_tablebase(self.tablebase, position, multipv)
            if known is not None:
                return known
        if stop is None:
            stop = self._stop_event
            stop.clear()
        history = [_bridge.node(p) for p in board.positions()[:-1]]
        run = _RootSearch(self, position, limit, history, stop, multipv)
        best = run.run()
        return run.lines(best, multipv)


def _from_tablebase(tablebase: Any, position: Position, choose: random.Random) -> SearchResult | None:
    """The tablebase's answer for ``position`` (None outside its built tables or rules)."""
    try:
        verdict = tablebase.probe(position)
        moves = tablebase.best_moves(position)
    except DraughtsError:
        return None
    if not moves:
        return None
    plies = verdict.plies or 0
    score = MATE - plies if verdict.result == "win" else -(MATE - plies) if verdict.result == "loss" else 0
    move = choose.choice(moves)
    return SearchResult(move, score, (move,), 0, 0)


def _lines_from_tablebase(tablebase: Any, position: Position, multipv: int) -> list[AnalysisLine] | None:
    """Every legal move of ``position`` scored exactly by the tablebase (None outside its tables)."""
    scored = []
    try:
        for move in position.legal_moves():
            child = position.play(move)
            if child.is_over():
                score = Score.win(1)
            else:
                verdict = tablebase.probe(child)
                score = -Score.from_verdict(verdict.result, verdict.plies)
                if score.plies is not None:
                    score = Score(0, score.plies + (1 if score.plies > 0 else -1), True)
            scored.append((score, move))
    except DraughtsError:
        return None
    scored.sort(key=lambda item: (item[0], -item[1].start, -item[1].end), reverse=True)
    return [AnalysisLine(move, score, (move,), 0, 0, rank) for rank, (score, move) in enumerate(scored[:multipv], 1)]


def _node_probe(tablebase: Any, rules: Ruleset) -> tuple[Callable[[int, int, int, int, int], int | None] | None, int]:
    """The search's probe of ``tablebase`` and the most pieces it knows (``(None, 0)``: none)."""
    probe = None if tablebase is None else tablebase.node_probe(rules)
    return (None, 0) if probe is None else (probe, probe.pieces)


def line_text(position: Position, moves: Sequence[Move], *, long: bool | None = None, numeric: bool = False) -> str:
    """``moves`` played in turn from ``position``, as the variant writes them, separated by spaces.

    Raises:
        IllegalMoveError: a move is not legal in turn.
    """
    from draughts.notation import move_text

    texts = []
    for move in moves:
        texts.append(move_text(position, move, long=long, numeric=numeric))
        position = position.play(move)
    return " ".join(texts)


@attrs.define
class _Iteration:
    """The root scores of one iteration of the deepening (of the moves searched so far)."""

    depth: int
    scores: dict[Compact, int] = attrs.field(factory=dict)
    pvs: dict[Compact, tuple[Compact, ...]] = attrs.field(factory=dict)


_ASPIRATION = 40
"""Half-width of the window the first root move is searched with from depth 4 on, around the
previous iteration's score (a score outside it is searched again with an open window)."""
_NO_PV = _core_search.NO_PV


class _RootSearch:
    """One call of :meth:`Engine.search`: the limits, the root and iterative deepening.

    The recursion below the root is :class:`draughts._core.search.Searcher`, on the generator's
    nodes and xor-mask moves; this class owns what it shares with it (the table, the game's
    positions, the principal variations, the clock and the stop flag).
    """

    def __init__(
        self, engine: Engine, position: Position, limit: Limit, history: list[Node], stop: StopSignal, multipv: int = 1
    ) -> None:
        self.engine = engine
        self.multipv = multipv
        self.completed: _Iteration | None = None
        """The last completed iteration (:meth:`Engine.analyse` reads its lines)."""
        self.root = position
        self.rules = rules = position.ruleset
        self.limit = limit
        self.started = time.perf_counter()
        self.deadline = None
        if limit.time is not None:
            # Stop a little early: the answer is built after the stop, and the clock is read
            # only every few hundred nodes.
            self.deadline = self.started + limit.time - min(0.02, 0.05 * limit.time)
        self.stop_event = stop
        self.max_nodes = limit.nodes if limit.nodes is not None else 1 << 62
        self.nodes = 0
        seen: dict[Node, int] = {}
        for key in history:
            seen[key] = seen.get(key, 0) + 1
        self.seen = seen
        self.pv: list[tuple[Compact, ...]] = [_NO_PV] * (_MAX_DEPTH + 256)
        if engine.evaluate is not None:
            custom = engine.evaluate

            def leaf(own: int, opp: int, kings: int, color: int) -> int:
                white, black = (own, opp) if color == 0 else (opp, own)
                return int(custom(_bridge.make(rules, white, black, kings, Color(color), 0)))

            self.leaf: Evaluator = leaf
        else:
            self.leaf = _evaluation(rules, engine.weights).evaluate
        self.table = engine._table_of(rules)
        self.searcher = _core_search.Searcher(
            build_move_generator(rules),
            self.leaf,
            self.table,
            engine.hash_size,
            seen,
            self.pv,
            stop.is_set,
            time.perf_counter,  # read here, so that a caller may replace this module's clock
            self.deadline,
            self.max_nodes,
            *_node_probe(engine.tablebase, rules),
        )

    # --- the root ---

    def run(self) -> SearchResult:
        root = self.root
        key = _bridge.node(root)
        moves, compacts = _bridge.moves(root)
        legal = dict(zip(compacts, moves, strict=True))
        # The root's moves are generated once, in public order: a second generation in the
        # searcher's order would double the cost of a root whose captures take seconds (issue 23 §19).
        order = list(compacts)
        if not order:  # the game is over by the rules of play
            own, _, kings, _, _ = key
            return SearchResult(None, self.searcher.terminal(own, kings, 0), (), 0, 0)
        self.seen[key] = self.seen.get(key, 0) + 1
        entry = self.table.get(key)
        if entry is not None and entry[3] in legal:
            order.remove(entry[3])
            order.insert(0, entry[3])
        max_depth = min(self.limit.depth or _MAX_DEPTH, _MAX_DEPTH)
        done: _Iteration | None = None
        current = _Iteration(0)
        for depth in range(1, max_depth + 1):
            if done is not None:
                previous = done.scores
                order.sort(key=lambda k: -previous[k])
            current = _Iteration(depth)
            try:
                # The clock is also read inside long capture searches, not only between nodes.
                with abort_when(self.searcher.interrupt):
                    self._root_iteration(key, order, current, None if done is None else max(done.scores.values()))
            except _core_search.Stopped:
                break
            done = current
            best = max(done.scores.values())
            if abs(best) >= _MATE_BOUND and MATE - abs(best) <= depth:
                break  # the game's end is within the horizon: deeper searches cannot change it
            if len(order) == 1 and self.limit.time is not None:
                break  # a forced move: no time to spend on it
            if self.stop_event.is_set():
                break
        self.nodes = self.searcher.nodes
        self.completed = done
        if current is not done and current.scores:
            # The unfinished iteration searched the previous best move first: its scores so far
            # are deeper, and a move it found better than that one is better.
            completed = done.depth if done is not None else 0
            done = current
        else:
            completed = done.depth if done is not None else 0
        if done is None:
            # Not even the first move of the first iteration: take the first move's evaluation.
            done = _Iteration(0)
            first = order[0]
            done.scores[first] = -self.leaf(*self.searcher.child(*key, first)[:4])
        best = max(done.scores.values())
        margin = self.engine.margin
        good = [move_key for move_key, score in done.scores.items() if score >= best - margin]
        good.sort(key=lambda k: (legal[k].start, legal[k].end, legal[k].path))
        chosen = good[0] if len(good) == 1 else self.engine._random.choice(good)
        move = legal[chosen]
        pv = self._pv_moves(move, done.pvs.get(chosen, _NO_PV))
        return SearchResult(move, done.scores[chosen], pv, completed, self.nodes)

    def _root_iteration(self, key: Node, order: list[Compact], iteration: _Iteration, previous: int | None) -> None:
        """Score the root moves in ``order``: exactly where within the margin of the best, else a bound."""
        margin = self.engine.margin
        depth = iteration.depth
        scores = iteration.scores
        pvs = iteration.pvs
        pvt = self.pv
        after = depth - 1
        search = self.searcher.search if after > 0 else None
        quiesce = self.searcher.quiesce

        def score_of(node: Node, alpha: int, beta: int) -> int:
            pvt[1] = _NO_PV
            if search is not None:
                return -search(*node, after, -beta, -alpha, 1)
            return -quiesce(*node, -beta, -alpha, 1, _core_search.THREATS)

        best = -_INF
        kept: list[int] = []  # the best ``multipv`` scores so far, in descending order
        for index, move in enumerate(order):
            node = self.searcher.child(*key, move)
            if index == 0:
                low, high = -_INF, _INF
                if previous is not None and depth >= 4 and abs(previous) < _MATE_BOUND:
                    low, high = previous - _ASPIRATION, previous + _ASPIRATION
                score = score_of(node, low, high)
                if not low < score < high:
                    score = score_of(node, -_INF, _INF)
            elif self.multipv > 1 and len(kept) < self.multipv:  # fewer than ``multipv`` lines: score it exactly
                score = score_of(node, -_INF, _INF)
            else:
                # A move scoring above this may be chosen (or is among the best ``multipv``): score it exactly.
                floor = (best if self.multipv == 1 else kept[-1]) - margin - 1
                score = score_of(node, floor, floor + 1)
                if score > floor:
                    score = score_of(node, floor, _INF)
            scores[move] = score
            pvs[move] = pvt[1]
            if score > best:
                best = score
            if self.multipv > 1:
                kept.append(score)  # the first move is one of them
                kept.sort(reverse=True)
                del kept[self.multipv :]
        best_key = max(scores, key=lambda k: scores[k])
        table = self.table
        if len(table) >= self.engine.hash_size:
            _core_search.make_room(table)
        table[key] = (depth, best, _core_search.EXACT, best_key)

    def lines(self, best: SearchResult, multipv: int) -> list[AnalysisLine]:
        """The best ``multipv`` lines of the last iteration that scored them all exactly (after :meth:`run`)."""
        done = self.completed
        root = self.root
        if done is None or best.move is None:
            if best.move is None:
                return []
            return [AnalysisLine(best.move, Score.from_search(best.score), best.pv, best.depth, best.nodes)]
        moves, compacts = _bridge.moves(root)
        legal = dict(zip(compacts, moves, strict=True))
        ranked = sorted(done.scores, key=lambda k: (-done.scores[k], legal[k].start, legal[k].end, legal[k].path))
        out = []
        for rank, key in enumerate(ranked[:multipv], 1):
            move = legal[key]
            pv = self._pv_moves(move, done.pvs.get(key, _NO_PV))
            out.append(AnalysisLine(move, Score.from_search(done.scores[key]), pv, done.depth, self.nodes, rank))
        return out

    def _pv_moves(self, first: Move, rest: Sequence[Compact]) -> tuple[Move, ...]:
        moves = [first]
        position = self.root.play(first)
        for move_key in rest:
            candidates, compacts = _bridge.moves(position)
            if move_key not in compacts:
                break
            move = candidates[compacts.index(move_key)]
            moves.append(move)
            position = position.play(move)
        return tuple(moves)


# --- levels -------------------------------------------------------------------------------------


@attrs.frozen
class Level:
    """A named playing strength: a search limit, a randomness margin and evaluation weights.

    Attributes:
        name: The level's name.
        limit: How far it searches.
        margin: Root moves within this many hundredths of a man of the best are chosen at random.
        weights: The evaluation it uses.
        description: In words.
    """

    name: str
    limit: Limit
    margin: int
    weights: Weights
    description: str = ""

    def engine(self, seed: int | None = 0) -> Engine:
        """An :class:`Engine` playing at this level."""
        return Engine(seed=seed, weights=self.weights, margin=self.margin, limit=self.limit)


LEVELS: Mapping[str, Level] = types.MappingProxyType(
    {
        "beginner": Level(
            "beginner",
            Limit(depth=1),
            margin=60,
            weights=MATERIAL_ONLY,
            description="one ply plus captures, material only, picks among moves up to 0.6 men worse",
        ),
        "intermediate": Level(
            "intermediate",
            Limit(depth=3, nodes=20_000),
            margin=10,
            weights=Weights(),
            description="three plies plus captures, full evaluation, small randomness",
        ),
        "strong": Level(
            "strong",
            Limit(depth=7, nodes=40_000),
            margin=0,
            weights=Weights(),
            description="up to seven plies (40,000 nodes) plus captures, full evaluation",
        ),
    }
)
"""The named levels, weakest first."""


def get_level(name: str) -> Level:
    """The level called ``name`` (case-insensitive).

    Raises:
        UnknownLevelError: no level has that name; the message lists them.
    """
    level = LEVELS.get(name.strip().lower()) if isinstance(name, str) else None
    if level is None:
        raise UnknownLevelError(f"unknown level {excerpt(name)}; levels: {', '.join(LEVELS)}")
    return level
