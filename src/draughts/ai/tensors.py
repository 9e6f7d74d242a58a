"""Positions as tensors and moves as actions, for every ruleset, from the board's geometry alone.

An :class:`Encoding` (one per ruleset, from :func:`encoding`) fixes two things:

* **the observation**: a ``float32`` array of shape ``(height, width, planes)`` seen from one side
  (by default the side to move): the board is turned 180° for Black, so "forward" is always up.
  :attr:`Encoding.planes` names the planes; :meth:`Encoding.observation` fills them;
* **the actions**: integers ``0 .. num_actions - 1``, each one straight *segment* of a move, seen
  from the side to move: a start square, one of eight directions and a distance. A quiet move is
  one segment; a capture is one segment per jump (start to the first landing square, then from
  landing to landing). An agent names a move by its first segment; when several legal moves begin
  with that segment, the same player goes on with the next one, until one legal move is left.
  Most moves, multi-captures included, thus take one action.

Directions and distances come from ``ruleset.geometry.coords`` only: the direction of a segment is
the sign of ``(dx, dy)`` between its two squares (eight compass directions, orthogonal ones
included), the distance the number of playable squares it advances along that line. Squares are
indexed in the moving side's reading order: index 0 is its near-left playable square, then along
its first rank, then rank by rank away from it. So::

    action = (square_index * 8 + direction) * max_distance + (distance - 1)

with directions :data:`DIRECTIONS` (``N`` = forward for the side to move). Nothing here reads
bitboards or assumes which squares are playable.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from draughts import _caches
from draughts._text import excerpt
from draughts.board import Board
from draughts.color import Color
from draughts.errors import AmbiguousMoveError, DraughtsError, IllegalMoveError, InvalidActionError, InvalidMoveError
from draughts.move import Move
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.rules.names import get_variant

__all__ = [
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "Choice",
    "Encoding",
    "Entry",
    "InvalidActionError",
    "action_mask",
    "decode",
    "encode",
    "encoding",
    "observation",
]

DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
"""The eight directions ``(dx, dy)`` in the moving side's frame, in action order: forward first, then
clockwise (``dx`` towards the mover's right, ``dy`` away from the mover)."""

DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
"""Names of :data:`DIRECTIONS` (``N`` is forward for the side to move)."""

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]
Entry = tuple[tuple[int, ...], Move]
"""A legal move with the actions of its segments."""


class Choice:
    """A move being chosen: the legal moves still possible and how many of their segments are fixed.

    Between moves every legal move is possible and no segment is fixed. An action fixes the next
    segment; segments that all the remaining moves share are then fixed too, so each later action is
    a real choice, taken where the remaining moves part. The move is chosen when one is left.

    Attributes:
        entries: The legal moves still possible, with their segment actions.
        depth: Segments fixed so far.
    """

    __slots__ = ("depth", "entries")

    def __init__(self, entries: list[Entry], depth: int) -> None:
        self.entries = entries
        self.depth = depth

    @property
    def complete(self) -> bool:
        """Whether one move is left (or none: a position without legal moves)."""
        return len(self.entries) <= 1 and self.depth > 0

    @property
    def move(self) -> Move | None:
        """The chosen move, once :attr:`complete`."""
        return self.entries[0][1] if self.complete and self.entries else None

    def actions(self) -> list[int]:
        """The legal actions now (sorted; none once complete)."""
        if self.complete:
            return []
        depth = self.depth
        return sorted({actions[depth] for actions, _ in self.entries})

    def after(self, action: int) -> Choice | None:
        """The choice after ``action`` (None if it is not legal now)."""
        depth = self.depth
        entries = [entry for entry in self.entries if entry[0][depth] == action]
        if not entries:
            return None
        depth += 1
        while len(entries) > 1:
            ahead = {actions[depth] if len(actions) > depth else -1 for actions, _ in entries}
            if -1 in ahead:
                # A move whose path is the beginning of another's: cannot arise, since a capture
                # goes on while it can; refuse rather than guess.
                raise DraughtsError(f"the path of {entries[0][1]!r} is the beginning of another legal move's")
            if len(ahead) > 1:
                break
            depth += 1
        return Choice(entries, depth)

    def actions_for(self, move: Move, position: Position) -> tuple[int, ...]:
        """The actions, from here, that choose the legal ``move``."""
        mine = next((actions for actions, legal in self.entries if legal == move), None)
        if mine is None or not isinstance(move, Move):
            raise IllegalMoveError(
                f"{excerpt(move)} is not a legal move here in {position.fen()} ({position.ruleset.name})"
            )
        taken = []
        choice: Choice | None = self
        while choice is not None and not choice.complete:
            action = mine[choice.depth]
            taken.append(action)
            choice = choice.after(action)
        return tuple(taken)


class Encoding:
    """The observation planes and the action space of one ruleset (build it with :func:`encoding`).

    >>> import draughts
    >>> from draughts.ai import encoding
    >>> enc = encoding("american")
    >>> enc.observation_shape, enc.action_shape, enc.num_actions
    ((8, 8, 9), (32, 8, 7), 1792)
    >>> pos = draughts.Position.initial("american")
    >>> [enc.action_text(pos, a) for a in enc.first_actions(pos)][:3]
    ['12 NE 1', '11 NE 1', '11 NW 1']

    Attributes:
        ruleset: The rules encoded.
        width: Files of the board.
        height: Ranks of the board (equal to ``width`` on a square board).
        squares: Playable squares.
        max_distance: The longest line of playable squares from any square in any direction.
        num_actions: ``squares * 8 * max_distance``.
        action_shape: ``(squares, 8, max_distance)``: ``np.unravel_index(action, action_shape)``
            gives (square index, direction, distance - 1).
        planes: The name of each observation plane, in order.
        observation_shape: ``(height, width, len(planes))``.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        geo = ruleset.geometry
        n, h = geo.width, geo.height
        self.ruleset = ruleset
        self.width, self.height = n, h
        self.squares = geo.squares
        coords = [geo.coords[square] for square in range(1, geo.squares + 1)]
        cell_square = {cell: square for square, cell in enumerate(coords, 1)}

        def frame(turn: int, x: int, y: int) -> tuple[int, int]:
            return (x, y) if turn == Color.WHITE else (n - 1 - x, h - 1 - y)

        cells = sorted(cell_square, key=lambda cell: (cell[1], cell[0]))
        if sorted(frame(Color.BLACK, *cell) for cell in cells) != sorted(cells):
            raise DraughtsError(
                f"the tensor encoding cannot serve {ruleset.name!r}: the playable squares of its {geo.shape} "
                "board are not symmetric under a 180° turn (each side sees the board from its own end)"
            )
        index_of_cell = {cell: i for i, cell in enumerate(cells)}
        # Per side: the square index of each square (0 unused) and its flat cell in the (size, size) image,
        # row 0 being the far row of that side.
        self._index: tuple[list[int], list[int]] = ([-1], [-1])
        self._grid: tuple[list[int], list[int]] = ([-1], [-1])
        # Per side: the first plane's flat index of each bit of the positions' bitboards (filled at first use).
        self._bit_cells: tuple[list[int], list[int]] = ([], [])
        for turn in (Color.WHITE, Color.BLACK):
            for x, y in coords:
                fx, fy = frame(turn, x, y)
                self._index[turn].append(index_of_cell[(fx, fy)])
                self._grid[turn].append((h - 1 - fy) * n + fx)
        rays: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for fx, fy in cells:
            for d, (dx, dy) in enumerate(DIRECTIONS):
                line = []
                for k in range(1, max(n, h)):
                    cell = (fx + k * dx, fy + k * dy)
                    if cell in index_of_cell:
                        line.append(cell)
                rays[(index_of_cell[(fx, fy)], d)] = line
        self.max_distance = max(len(line) for line in rays.values())
        self.num_actions = len(cells) * 8 * self.max_distance
        self.action_shape = (len(cells), 8, self.max_distance)
        # Per side: _segment[turn][a][b] = the action from square a to square b (-1: not on a line),
        # and _ends[turn][action] = (a, b) or None.
        size = geo.squares + 1
        self._segment: tuple[list[list[int]], list[list[int]]] = (
            [[-1] * size for _ in range(size)],
            [[-1] * size for _ in range(size)],
        )
        self._ends: tuple[list[tuple[int, int] | None], list[tuple[int, int] | None]] = (
            [None] * self.num_actions,
            [None] * self.num_actions,
        )
        for turn in (Color.WHITE, Color.BLACK):
            for (start_index, d), line in rays.items():
                start = cell_square[frame(turn, *cells[start_index])]
                for distance, cell in enumerate(line, 1):
                    end = cell_square[frame(turn, *cell)]
                    action = (start_index * 8 + d) * self.max_distance + distance - 1
                    self._segment[turn][start][end] = action
                    self._ends[turn][action] = (start, end)
        self.planes = _plane_names(ruleset)
        self.observation_shape = (h, n, len(self.planes))
        self._entries_cache: tuple[Position, list[Entry]] | None = None

    @property
    def size(self) -> int:
        """Squares per side of a square board (what code written for square boards reads).

        Raises:
            DraughtsError: the board is a rectangle (read ``width`` and ``height``).
        """
        if self.width != self.height:
            raise DraughtsError(f"the {self.width}x{self.height} board of {self.ruleset.name!r} is not square")
        return self.width

    def __repr__(self) -> str:
        return f"encoding({self.ruleset.name!r})"

    # --- actions ---

    def segment(self, turn: Color, start: int, end: int) -> int:
        """The action for a straight segment from ``start`` to ``end`` (square numbers) played by ``turn``.

        Raises:
            InvalidActionError: the squares are not on one straight line of the board.
        """
        self.ruleset.geometry.check(start)
        self.ruleset.geometry.check(end)
        action = self._segment[turn][start][end]
        if action < 0:
            raise InvalidActionError(f"squares {start} and {end} are not on one line of the {self.ruleset.name} board")
        return action

    def squares_of(self, turn: Color, action: int) -> tuple[int, int] | None:
        """The ``(start, end)`` squares of ``action`` played by ``turn``, or None when the segment
        would leave the board."""
        return self._ends[turn][self._check(action)]

    def action_text(self, position: Position, action: int) -> str:
        """``action`` in words for the side to move of ``position``: ``"<start> <direction> <distance>"``."""
        action = self._check(action)
        index, d, k = np.unravel_index(action, self.action_shape)
        ends = self._ends[position.turn][action]
        start = self.ruleset.square_name(ends[0]) if ends else f"#{index}"
        return f"{start} {DIRECTION_NAMES[d]} {k + 1}"

    def _check(self, action: object) -> int:
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise InvalidActionError(f"action {excerpt(action)} is not an integer")
        value = int(action)
        if not 0 <= value < self.num_actions:
            raise InvalidActionError(
                f"action {excerpt(action)} is outside the {self.ruleset.name} action space 0..{self.num_actions - 1}"
            )
        return value

    def path_actions(self, turn: Color, move: Move) -> tuple[int, ...]:
        """One action per segment of ``move.path``: every jump of a capture (no legality check)."""
        table = self._segment[turn]
        path = move.path
        actions = []
        for a, b in itertools.pairwise(path):
            action = table[a][b]
            if action < 0:
                raise InvalidMoveError(f"{move!r}: path squares {a} and {b} are not on one line")
            actions.append(action)
        return tuple(actions)

    def entries(self, position: Position) -> list[Entry]:
        """Every legal move of ``position`` with its segment actions (cached for the last position)."""
        cached = self._entries_cache
        if cached is not None and cached[0] is position:
            return cached[1]
        if position.ruleset is not self.ruleset and position.ruleset != self.ruleset:
            raise DraughtsError(f"a {position.ruleset.name} position given to the {self.ruleset.name} encoding")
        table = self._segment[position.turn]
        found: list[Entry] = []
        for move in position.legal_moves():
            path = move.path
            if len(path) == 2:  # most moves: one segment
                action = table[path[0]][path[1]]
                if action < 0:
                    raise InvalidMoveError(f"{move!r}: path squares {path[0]} and {path[1]} are not on one line")
                found.append(((action,), move))
            else:
                found.append((self.path_actions(position.turn, move), move))
        self._entries_cache = (position, found)
        return found

    def choose(self, position: Position, actions: Sequence[int]) -> Choice:
        """Where ``actions`` lead from the start of a move in ``position``: the legal moves that remain
        and the segments they fix.

        Raises:
            InvalidActionError: an action is not an integer of the action space.
            IllegalMoveError: an action is not legal where it is taken (the move was complete, or
                no remaining move has that segment there).
        """
        choice = Choice(self.entries(position), 0)
        for i, action in enumerate(actions):
            value = self._check(action)
            if choice.complete:
                raise IllegalMoveError(
                    f"actions {excerpt(list(actions))}: the move {choice.move!r} is chosen after {i} of them"
                )
            following = choice.after(value)
            if following is None:
                after = f" after actions {excerpt(list(actions[:i]))}" if i else ""
                raise IllegalMoveError(
                    f"action {value} ({self.action_text(position, value)}){after} is not legal in "
                    f"{position.fen()} ({self.ruleset.name})"
                )
            choice = following
        return choice

    def next_actions(self, position: Position, pending: Sequence[int] = ()) -> list[int]:
        """The legal actions after the actions ``pending`` of an unfinished choice (sorted).

        ``pending`` is empty at the start of a move (the answer is then :meth:`first_actions`).
        """
        return self.choose(position, pending).actions()

    def first_actions(self, position: Position) -> list[int]:
        """The legal actions at the start of a move: the distinct first segments of the legal moves."""
        return self.next_actions(position)

    def mask(self, position: Position, pending: Sequence[int] = ()) -> BoolArray:
        """The boolean legal-action mask (length :attr:`num_actions`) after ``pending``."""
        mask = np.zeros(self.num_actions, dtype=np.bool_)
        mask[self.next_actions(position, pending)] = True
        return mask

    def encode(self, position: Position, move: Move) -> tuple[int, ...]:
        """The actions that choose the legal ``move`` in ``position``: its first segment, then its
        segment at each point where other legal moves still sharing its path part from it.

        Raises:
            IllegalMoveError: ``move`` is not legal in ``position``.
        """
        return Choice(self.entries(position), 0).actions_for(move, position)

    def decode(self, position: Position, actions: Sequence[int] | int) -> Move:
        """The legal move of ``position`` that ``actions`` (one action or several) choose: the
        inverse of :meth:`encode`.

        Raises:
            InvalidActionError: an action is not an integer of the action space.
            IllegalMoveError: an action is not legal where it is taken, or comes after the move is chosen.
            AmbiguousMoveError: the actions leave several legal moves (the choice is unfinished).
        """
        sequence = [actions] if isinstance(actions, (int, np.integer)) else list(actions)
        choice = self.choose(position, sequence)
        if not choice.complete:
            raise AmbiguousMoveError(
                f"actions {excerpt(sequence)} begin {len(choice.entries)} legal moves of {position.fen()}: "
                + ", ".join(repr(move) for _, move in choice.entries)
            )
        return choice.entries[0][1]

    # --- observations ---

    def observation(
        self,
        game: Position | Board,
        *,
        pending: Sequence[int] = (),
        perspective: Color | None = None,
    ) -> FloatArray:
        """The observation tensor of ``game`` (a position, or a board with its draw counts).

        Args:
            game: A :class:`~draughts.Position` (draw counts taken as zero), or a
                :class:`~draughts.Board` (its current position, draw counts and repetitions).
            pending: The actions of an unfinished choice (see :meth:`next_actions`).
            perspective: The side whose view it is (default: the side to move).
        """
        if isinstance(game, Board):
            position = game.position
            counts, since, repetitions = game.counters.move_counts, game.counters.since_material_change, 0
            if self.ruleset.draw_rules.repetitions:
                repetitions = game.repetitions()
        elif isinstance(game, Position):
            position, counts, since, repetitions = game, (), 0, 1
        else:
            raise TypeError(f"observation needs a Position or a Board, not {excerpt(game)}")
        if position.ruleset is not self.ruleset and position.ruleset != self.ruleset:
            raise DraughtsError(f"a {position.ruleset.name} position given to the {self.ruleset.name} encoding")
        choice = self.choose(position, pending) if pending else None
        if choice is not None and choice.complete:
            raise IllegalMoveError(f"actions {excerpt(list(pending))} complete a move of {position.fen()}")
        pending_move = choice.entries[0][1] if choice is not None else None
        depth = choice.depth if choice is not None else 0
        return self._observation(position, perspective, pending_move, depth, counts, since, repetitions)

    def _observation(
        self,
        position: Position,
        perspective: Color | None,
        pending_move: Move | None,
        pending_length: int,
        counts: Sequence[int],
        since_material_change: int,
        repetitions: int,
    ) -> FloatArray:
        """Fill the planes in the order of :func:`_plane_names` (keep the two in step).

        Board planes are set through one list of flat indices (``cell * planes + plane``), constant
        planes through one row of values, so that the cost is a few numpy calls whatever the position.
        """
        side = position.turn if perspective is None else perspective
        depth = len(self.planes)
        grid = self._grid[side]
        cells = self._bit_cells[side] or self._fill_bit_cells(position)[side]
        hits: list[int] = []
        white, black, kings = position.bitboards
        own, opponent = (white, black) if side is Color.WHITE else (black, white)
        for plane, mask in enumerate((own & ~kings, own & kings, opponent & ~kings, opponent & kings)):
            while mask:  # straight from the bitboards: each piece's flat index in this plane
                low = mask & -mask
                mask ^= low
                hits.append(cells[low.bit_length() - 1] + plane)
        # A capture being chosen segment by segment: where it started, where the piece stands, what it took.
        if pending_move is not None:
            path = pending_move.path
            hits.append(grid[path[0]] * depth + 4)
            hits.append(grid[path[pending_length]] * depth + 5)
            taken = self._captured_along(position.turn, pending_move, pending_length)
            hits.extend(grid[square] * depth + 6 for square in taken)
        # Rule state the position carries: where the ruleset limits consecutive king moves, the king
        # that made them, valued count / limit (own side's plane first).
        limit = self.ruleset.king_move_limit
        counted: list[tuple[int, float]] = []
        if limit:
            for plane, color in ((_FIXED_PLANES, side), (_FIXED_PLANES + 1, side.opponent)):
                made = position.king_moves(color)
                if made is not None:
                    counted.append((grid[made[0]] * depth + plane, made[1] / limit))
        # Planes that are the same everywhere: each draw rule's progress, 1.0 when it ends the game
        # (or allows a claim).
        constants: list[float] = [0.0, 0.0] if limit else []
        draws = self.ruleset.draw_rules
        if draws.repetitions:
            constants.append(min(1.0, (max(repetitions, 1) - 1) / (draws.repetitions - 1)))
        for i, rule in enumerate(draws.move_counts):
            plies = counts[i] if i < len(counts) else 0
            constants.append(_progress(plies, rule.moves))
        constants.extend(_progress(since_material_change, endgame.moves) for endgame in draws.endgames)
        planes = np.empty((self.height * self.width, depth), dtype=np.float32)
        planes[:] = [0.0] * _FIXED_PLANES + constants
        flat = planes.reshape(-1)
        flat[hits] = 1.0
        for index, value in counted:
            flat[index] = value
        return planes.reshape(self.height, self.width, depth)

    def _fill_bit_cells(self, position: Position) -> tuple[list[int], list[int]]:
        square_of_bit = position.tables.square_of_bit
        depth = len(self.planes)
        for side in (Color.WHITE, Color.BLACK):
            grid = self._grid[side]
            self._bit_cells[side][:] = [grid[square] * depth if square else -1 for square in square_of_bit]
        return self._bit_cells

    def _captured_along(self, turn: Color, move: Move, segments: int) -> list[int]:
        """The pieces ``move`` captures on its first ``segments`` segments.

        A piece lies on a segment when the action from the segment's start to it has the same
        square index and direction (same ``action // max_distance``) and a shorter distance.
        """
        table = self._segment[turn]
        per_line = self.max_distance
        taken = []
        for a, b in zip(move.path[:segments], move.path[1 : segments + 1], strict=True):
            span = table[a][b]
            for square in move.captured:
                on = table[a][square]
                if 0 <= on < span and on // per_line == span // per_line:
                    taken.append(square)
        return taken


_FIXED_PLANES = 7
"""Planes every ruleset has: four of pieces, three of a capture being chosen."""


def _plane_names(ruleset: Ruleset) -> tuple[str, ...]:
    """The observation planes of ``ruleset``, in order (:meth:`Encoding._observation` fills them)."""
    names = [
        "own men",
        "own kings",
        "opponent men",
        "opponent kings",
        "capture in progress: start",
        "capture in progress: current square",
        "capture in progress: captured",
    ]
    if ruleset.king_move_limit:
        names.append(f"own king's quiet moves in a row (1.0 = {ruleset.king_move_limit})")
        names.append(f"opponent king's quiet moves in a row (1.0 = {ruleset.king_move_limit})")
    draws = ruleset.draw_rules
    if draws.repetitions:
        names.append(f"repetitions (1.0 = {draws.repetitions} times)")
    names.extend(f"move-count rule: {rule.describe()}" for rule in draws.move_counts)
    names.extend(f"endgame rule: {rule.describe()}" for rule in draws.endgames)
    return tuple(names)


@functools.lru_cache(maxsize=_caches.ENCODINGS)
def _encoding(ruleset: Ruleset) -> Encoding:
    return Encoding(ruleset)


def encoding(ruleset: Ruleset | str) -> Encoding:
    """The (cached) :class:`Encoding` of a ruleset or variant name."""
    return _encoding(get_variant(ruleset))


def observation(game: Position | Board, *, pending: Sequence[int] = (), perspective: Color | None = None) -> FloatArray:
    """The observation tensor of a position or board (see :meth:`Encoding.observation`)."""
    return encoding(_ruleset_of(game)).observation(game, pending=pending, perspective=perspective)


def action_mask(position: Position, pending: Sequence[int] = ()) -> BoolArray:
    """The boolean legal-action mask of ``position`` (see :meth:`Encoding.mask`)."""
    return encoding(_ruleset_of(position)).mask(position, pending)


def encode(position: Position, move: Move) -> tuple[int, ...]:
    """The actions that choose ``move`` in ``position`` (see :meth:`Encoding.encode`)."""
    return encoding(_ruleset_of(position)).encode(position, move)


def decode(position: Position, actions: Iterable[int] | int) -> Move:
    """The legal move that ``actions`` choose in ``position`` (see :meth:`Encoding.decode`)."""
    sequence = actions if isinstance(actions, (int, np.integer)) else list(actions)
    return encoding(_ruleset_of(position)).decode(position, sequence)


def _ruleset_of(game: object) -> Ruleset:
    if isinstance(game, (Position, Board)):
        return game.ruleset
    raise TypeError(f"expected a Position or a Board, not {excerpt(game)}")


def _progress(plies: int, moves: int) -> float:
    """How far ``plies`` is into a limit of ``moves`` moves each, capped at 1.0.

    A limit of zero moves (Frisian art. 21: one king each is drawn at once) is already reached.
    """
    return 1.0 if moves == 0 else min(1.0, plies / (2 * moves))
