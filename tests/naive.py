"""A deliberately naive second move generator, written from the rule texts, for the tests.

It shares nothing with :mod:`draughts.movegen`: the board is a mailbox dictionary
``{(x, y): (color, is_king)}`` (``x`` = file, 0 = a at White's left; ``y`` = rank, 0 = White's back
row), pieces walk the board one coordinate step at a time, and every capture sequence is found by
plain recursion over the real landing squares. Only the ruleset's fields are read; the library is
used for nothing but converting coordinates to square numbers (``geometry.square_at``/``coords``)
and for reading a :class:`draughts.Position` (``pieces()``, ``turn``).

The rules implemented (FMJD International rules art. 3-4, RUS64 5-6, FID Regolamento, WCDF laws,
CBD, FEDA and ČFD rules as each ruleset's ``sources`` cite them; PDN 3.0 restriction 9 for paths):

* a man steps one square diagonally forward; a short king one square in any diagonal direction; a
  flying king any number of free squares along a diagonal;
* a man jumps an adjacent opposing piece onto the free square directly behind it, forward only or
  also backward (``men_capture_backward``), and never a king when ``men_capture_kings`` is False;
  a short king does the same in all four directions; a flying king jumps the first piece on a
  diagonal at any distance and may land on any free square beyond it, but if the capture can go on
  from some of those squares it must land on one of them;
* a started capture goes on while any capture is possible from where the piece stands;
* captured pieces stay on the board until the move ends (they block, and cannot be jumped twice),
  or with ``CapturedRemoval.IMMEDIATE`` leave the board as they are jumped; the capturing piece's
  start square counts as empty during the move;
* a man reaching its crowning row during a capture ends the move there (``ENDS_MOVE``), is crowned
  and must go on capturing as a king if it can (``CONTINUES_AS_KING``), or goes on as a man and is
  crowned only if the capture ends on the row (``ONLY_AT_END``);
* captures are compulsory unless ``capture_mandatory`` is False (then quiet moves stay legal beside
  the best captures); among captures only those with the best precedence key are legal, the key
  being the ruleset's criteria in order (most pieces; with a king; most kings; kings met earliest);
* a move's identity is (start, end, set of captured squares); a *path* is what PDN 3.0
  restriction 9 writes: start, then for each captured piece but the last the square where the
  direction changes or, going straight on, the square immediately behind that piece, then the end.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from draughts import CapturedRemoval, CapturePromotion, Color, KingRange, Position, Precedence, Ruleset

Coord = tuple[int, int]
Board = dict[Coord, tuple[Color, bool]]
Identity = tuple[int, int, frozenset[int]]

#: The four diagonal steps (dx, dy), seen from White.
DIRECTIONS: tuple[Coord, ...] = ((-1, 1), (1, 1), (-1, -1), (1, -1))


@dataclass(frozen=True)
class NaiveMove:
    """One legal move or capture path, in the variant's square numbers."""

    start: int
    end: int
    captured: tuple[int, ...]
    """Captured squares in the order they are jumped."""
    path: tuple[int, ...]
    """PDN restriction-9 path: start, the turning/straight-on squares, end."""
    promotes: bool
    with_king: bool
    """Whether the moving piece was a king when the move began."""
    captured_kings: tuple[bool, ...]
    """For each captured piece, in capture order, whether it was a king."""

    @property
    def identity(self) -> Identity:
        return self.start, self.end, frozenset(self.captured)

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)


@dataclass(frozen=True)
class _Step:
    """One real jump of a capture: its direction, the piece jumped and where the piece landed."""

    direction: Coord
    victim: Coord
    landing: Coord


def board_of(position: Position) -> Board:
    """The mailbox board of a library position."""
    coords = position.ruleset.geometry.coords
    return {coords[square]: (piece.color, piece.king) for square, piece in position.pieces().items()}


class NaiveGenerator:
    """All moves of the side to move in one position, found the slow and obvious way."""

    def __init__(self, rules: Ruleset, board: Board, turn: Color) -> None:
        self.rules = rules
        self.board = dict(board)
        self.turn = turn
        self.n = rules.board_size
        self.parity = 0 if rules.bottom_left_playable else 1
        for (x, y), (color, king) in self.board.items():
            assert self.playable(x, y), f"piece on unplayable square {(x, y)}"
            assert king or y != self.crown_row(color), f"{color} man on its crowning row at {(x, y)}"

    # --- board facts ---

    def playable(self, x: int, y: int) -> bool:
        return 0 <= x < self.n and 0 <= y < self.n and (x + y) % 2 == self.parity

    def crown_row(self, color: Color) -> int:
        return self.n - 1 if color is Color.WHITE else 0

    def forward(self, color: Color) -> int:
        return 1 if color is Color.WHITE else -1

    def square(self, coord: Coord) -> int:
        return self.rules.geometry.square_at(*coord)

    # --- quiet moves ---

    def quiet_moves(self) -> list[NaiveMove]:
        moves = []
        for (x, y), (color, king) in sorted(self.board.items()):
            if color is not self.turn:
                continue
            if king:
                for dx, dy in DIRECTIONS:
                    tx, ty = x + dx, y + dy
                    while self.playable(tx, ty) and (tx, ty) not in self.board:
                        moves.append(self._quiet((x, y), (tx, ty), promotes=False, king=True))
                        if self.rules.king_range is KingRange.SHORT:
                            break
                        tx, ty = tx + dx, ty + dy
            else:
                dy = self.forward(color)
                for dx in (-1, 1):
                    tx, ty = x + dx, y + dy
                    if self.playable(tx, ty) and (tx, ty) not in self.board:
                        moves.append(self._quiet((x, y), (tx, ty), promotes=ty == self.crown_row(color), king=False))
        return moves

    def _quiet(self, start: Coord, end: Coord, *, promotes: bool, king: bool) -> NaiveMove:
        a, b = self.square(start), self.square(end)
        return NaiveMove(a, b, (), (a, b), promotes, king, ())

    # --- captures ---

    def is_empty(self, coord: Coord, start: Coord, captured: tuple[Coord, ...]) -> bool:
        """Whether ``coord`` is free for the moving piece during its capture."""
        if coord == start or coord not in self.board:
            return True
        return self.rules.captured_removal is CapturedRemoval.IMMEDIATE and coord in captured

    def can_take(self, coord: Coord, start: Coord, captured: tuple[Coord, ...], as_king: bool) -> bool:
        """Whether the piece on ``coord`` may be jumped now by the moving piece."""
        if self.is_empty(coord, start, captured) or coord in captured:
            return False
        color, king = self.board[coord]
        if color is self.turn:
            return False
        return not (king and not as_king and not self.rules.men_capture_kings)

    def jumps(
        self, at: Coord, start: Coord, captured: tuple[Coord, ...], as_king: bool
    ) -> list[tuple[Coord, Coord, list[Coord]]]:
        """Every ``(direction, victim, landing squares)`` open to the moving piece on ``at``."""
        found = []
        x, y = at
        flying = as_king and self.rules.king_range is KingRange.FLYING
        if as_king or self.rules.men_capture_backward:
            directions = DIRECTIONS
        else:
            directions = tuple(d for d in DIRECTIONS if d[1] == self.forward(self.turn))
        for dx, dy in directions:
            vx, vy = x + dx, y + dy
            if flying:
                while self.playable(vx, vy) and self.is_empty((vx, vy), start, captured):
                    vx, vy = vx + dx, vy + dy
            if not self.playable(vx, vy) or not self.can_take((vx, vy), start, captured, as_king):
                continue
            after = (*captured, (vx, vy))
            landings = []
            lx, ly = vx + dx, vy + dy
            while self.playable(lx, ly) and self.is_empty((lx, ly), start, after):
                landings.append((lx, ly))
                if not flying:
                    break
                lx, ly = lx + dx, ly + dy
            if landings:
                found.append(((dx, dy), (vx, vy), landings))
        return found

    def sequences(
        self, at: Coord, start: Coord, steps: tuple[_Step, ...], as_king: bool, crowned: bool
    ) -> Iterator[tuple[tuple[_Step, ...], bool]]:
        """Every complete capture from ``at`` after ``steps``: ``(steps, crowned during the move)``."""
        captured = tuple(step.victim for step in steps)
        options = self.jumps(at, start, captured, as_king)
        if not options:
            if steps:
                yield steps, crowned
            return
        flying = as_king and self.rules.king_range is KingRange.FLYING
        for direction, victim, landings in options:
            after = (*captured, victim)
            choices = landings
            if flying:
                # The king must land where the capture continues, if it can continue anywhere.
                continuing = [land for land in landings if self.jumps(land, start, after, True)]
                choices = continuing or landings
            for land in choices:
                now = (*steps, _Step(direction, victim, land))
                if not as_king and land[1] == self.crown_row(self.turn):
                    rule = self.rules.capture_promotion
                    if rule is CapturePromotion.ENDS_MOVE:
                        yield now, True
                        continue
                    if rule is CapturePromotion.CONTINUES_AS_KING:
                        yield from self.sequences(land, start, now, True, True)
                        continue
                yield from self.sequences(land, start, now, as_king, crowned)

    def captures(self) -> list[NaiveMove]:
        """Every capture path (no precedence), one per distinct restriction-9 path."""
        moves: dict[NaiveMove, None] = {}
        for start, (color, king) in sorted(self.board.items()):
            if color is not self.turn:
                continue
            for steps, crowned in self.sequences(start, start, (), king, False):
                moves[self._capture(start, king, steps, crowned)] = None
        return list(moves)

    def _capture(self, start: Coord, king: bool, steps: tuple[_Step, ...], crowned: bool) -> NaiveMove:
        path = [self.square(start)]
        for index, step in enumerate(steps):
            if index + 1 < len(steps) and steps[index + 1].direction == step.direction:
                # Straight on: PDN names the square immediately behind the captured piece.
                dx, dy = step.direction
                path.append(self.square((step.victim[0] + dx, step.victim[1] + dy)))
            else:
                path.append(self.square(step.landing))
        end = steps[-1].landing
        promotes = not king and (crowned or end[1] == self.crown_row(self.turn))
        return NaiveMove(
            start=self.square(start),
            end=self.square(end),
            captured=tuple(self.square(step.victim) for step in steps),
            path=tuple(path),
            promotes=promotes,
            with_king=king,
            captured_kings=tuple(self.board[step.victim][1] for step in steps),
        )

    # --- choosing ---

    def key(self, move: NaiveMove) -> tuple[object, ...]:
        """The precedence key of a capture: larger is preferred."""
        parts: list[object] = []
        for criterion in self.rules.precedence:
            if criterion is Precedence.MOST_PIECES:
                parts.append(len(move.captured))
            elif criterion is Precedence.WITH_KING:
                parts.append(move.with_king)
            elif criterion is Precedence.MOST_KINGS:
                parts.append(sum(move.captured_kings))
            elif criterion is Precedence.KINGS_EARLIEST:
                parts.append(move.captured_kings)
            else:  # pragma: no cover - a new criterion the oracle does not know
                raise AssertionError(f"unknown precedence criterion {criterion}")
        return tuple(parts)

    def legal_paths(self) -> list[NaiveMove]:
        """The legal moves, every capture path separately (the perft "keep" convention)."""
        captures = self.captures()
        if captures:
            best = max(self.key(move) for move in captures)  # type: ignore[type-var]
            captures = [move for move in captures if self.key(move) == best]
            if self.rules.capture_mandatory:
                return captures
        return [*self.quiet_moves(), *captures]


def legal_paths(rules: Ruleset, board: Board, turn: Color) -> list[NaiveMove]:
    """The legal moves, one entry per capture path."""
    return NaiveGenerator(rules, board, turn).legal_paths()


def legal_identities(rules: Ruleset, board: Board, turn: Color) -> set[Identity]:
    """The legal moves as identities ``(start, end, frozenset(captured))``."""
    return {move.identity for move in legal_paths(rules, board, turn)}


def position_paths(position: Position) -> list[NaiveMove]:
    """The legal paths of a library position, by the naive rules."""
    return legal_paths(position.ruleset, board_of(position), position.turn)


def position_identities(position: Position) -> set[Identity]:
    """The legal identities of a library position, by the naive rules."""
    return {move.identity for move in position_paths(position)}


def raw_captures(position: Position) -> list[NaiveMove]:
    """Every capture path of the side to move, before mandatory capture and precedence."""
    return NaiveGenerator(position.ruleset, board_of(position), position.turn).captures()


def quiet_moves(position: Position) -> list[NaiveMove]:
    """Every quiet move of the side to move."""
    return NaiveGenerator(position.ruleset, board_of(position), position.turn).quiet_moves()


def can_continue(position: Position, start: int, captured: tuple[int, ...], at: int, *, as_king: bool) -> bool:
    """Whether the piece that left ``start`` and took ``captured`` could capture again from ``at``."""
    generator = NaiveGenerator(position.ruleset, board_of(position), position.turn)
    coords = position.ruleset.geometry.coords
    taken = tuple(coords[square] for square in captured)
    return bool(generator.jumps(coords[at], coords[start], taken, as_king))


def apply(rules: Ruleset, board: Board, turn: Color, move: NaiveMove) -> Board:
    """The board after ``move`` by ``turn``."""
    coords = rules.geometry.coords
    after = dict(board)
    color, king = after.pop(coords[move.start])
    assert color is turn
    for square in move.captured:
        del after[coords[square]]
    after[coords[move.end]] = (color, king or move.promotes)
    return after
