"""A deliberately naive second move generator, written from the rule texts, for the tests.

It shares nothing with the library's generator: the board is a mailbox dictionary
``{(x, y): (color, is_king)}`` (``x`` = file, 0 = a at White's left, up to the ruleset's width;
``y`` = rank, 0 = White's back row, up to its height: square and rectangular boards alike),
pieces walk the board one step at a time, and every capture sequence is found by plain recursion
over the real landing squares. Only the ruleset's fields are read; the library is used
for nothing but converting coordinates to square numbers (``geometry.square_at``/``coords``), for
the precedence criteria's own ``key`` (they are rule data) and for reading a
:class:`draughts.Position` (``pieces()``, ``turn``).

The rules implemented (FMJD International rules art. 3-4, RUS64 5-6, FID Regolamento, WCDF laws,
CBD, FEDA and ČFD rules as each ruleset's ``sources`` cite them; the family rules:
Frisian 2011 art. 7-17, Killer, Thai, Turkish, Pool, Antidraughts, Breakthrough; PDN 3.0
restriction 9 for paths):

* Steps. A piece's directions are read from its owner's side (forward = towards the opponent, +y
  for White, -y for Black). A diagonal step is (±1, ±1). An orthogonal step goes to the next
  playable square along the row or column: the neighbour on a board of every square, two squares
  away on a board of dark squares. Men step once in ``men_move`` and jump in ``men_capture``;
  kings move in ``kings_move`` and capture in ``kings_capture``, one step (short) or any number of
  free steps (flying).
* Quiet moves: one step to a free square (men, short kings), or any number of free steps (flying
  kings). A man reaching its crowning row (the far row) is crowned.
* Captures: a man or short king jumps an adjacent opposing piece onto the free square right behind
  it; a flying king jumps the first piece along a line at any distance and lands on a free square
  beyond it: any of them (``ANYWHERE``), only the one right behind (``DIRECTLY_BEHIND``), or any,
  except that a capture whose last captured piece is a king ends right behind it
  (``BEHIND_LAST_KING``, only the final landing is restricted). If the capture can continue from
  some landing squares, the king must land on one of those. Men never jump kings when
  ``men_capture_kings`` is False.
* A started capture goes on while any capture is possible from where the piece stands. Captured
  pieces stay until the move ends (they block, and cannot be jumped twice), or with ``IMMEDIATE``
  removal leave the board as they are jumped. The capturing piece's start square counts as empty.
  Without ``capture_reversal`` a jump may not go in the exact opposite direction of the previous
  jump.
* A man reaching its crowning row during a capture ends the move there (``ENDS_MOVE``), is crowned
  and goes on capturing as a king if it can (``CONTINUES_AS_KING``), or goes on as a man and is
  crowned only if the capture ends on the row (``ONLY_AT_END``).
* Captures are compulsory unless ``capture_mandatory`` is False (then quiet moves stay legal beside
  the best captures). Among captures only those with the best precedence key are legal: the tuple
  of the ruleset's criteria, each applied to ``CaptureFacts(pieces, kings, with_king, order)``.
* King-move limit (``king_move_limit``): per side, the square of the king that made the last run
  of quiet moves and the run's length. A quiet move of the same king lengthens the run, a quiet
  move of another king starts a new run at 1, a man move or any capture ends it. A side without
  men is exempt (its run is cleared), and so is a side whose tracked king is gone. A quiet move of
  the tracked king is illegal once the run has reached the limit (it may still capture).
* Game end: a side with no legal move loses, or wins with ``no_move_wins``. With
  ``crowning_wins`` a position where a king stands is over (its owner has won) and has no moves.
* A move's identity is (start, end, set of captured squares); a *path* is what PDN 3.0
  restriction 9 writes: start, then for each captured piece but the last the square where the
  direction changes or, going straight on, the square immediately behind that piece, then the end.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from draughts import CapturedRemoval, CapturePromotion, Color, KingRange, Position, Ruleset
from draughts.rules import CaptureFacts, Directions, KingLanding
from draughts.rules.geometry import BoardSquares

Coord = tuple[int, int]
Board = dict[Coord, tuple[Color, bool]]
Identity = tuple[int, int, frozenset[int]]

WHITE, BLACK = Color.WHITE, Color.BLACK


def vectors(rules: Ruleset, directions: Directions, color: Color) -> tuple[Coord, ...]:
    """The (dx, dy) steps of ``directions`` for a piece of ``color`` on ``rules``' board."""
    f = 1 if color is WHITE else -1
    s = 1 if rules.board_squares is BoardSquares.ALL else 2
    out: list[Coord] = []
    if Directions.DIAGONAL_FORWARD in directions:
        out += [(-1, f), (1, f)]
    if Directions.DIAGONAL_BACKWARD in directions:
        out += [(-1, -f), (1, -f)]
    if Directions.ORTHOGONAL_FORWARD in directions:
        out.append((0, s * f))
    if Directions.ORTHOGONAL_SIDEWAYS in directions:
        out += [(-s, 0), (s, 0)]
    if Directions.ORTHOGONAL_BACKWARD in directions:
        out.append((0, -s * f))
    return tuple(out)


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
    landings: tuple[int, ...] = field(default=(), compare=False)
    """Where the piece landed after each jump (not part of equality: two paths that differ only in
    where a king stopped before going straight on are one restriction-9 path)."""

    @property
    def identity(self) -> Identity:
        return self.start, self.end, frozenset(self.captured)

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)


@dataclass(frozen=True)
class Run:
    """One side's king-move state: the king that made the last quiet moves in a row, and how many."""

    square: Coord | None = None
    count: int = 0


NO_RUN = Run()
Runs = tuple[Run, Run]
"""(White's run, Black's run)."""
NO_RUNS: Runs = (NO_RUN, NO_RUN)


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


def _side(color: Color) -> int:
    return 0 if color is WHITE else 1


class NaiveGenerator:
    """All moves of the side to move in one position, found the slow and obvious way."""

    def __init__(self, rules: Ruleset, board: Mapping[Coord, tuple[Color, bool]], turn: Color, runs: Runs = NO_RUNS):
        self.rules = rules
        self.board = dict(board)
        self.turn = turn
        self.runs = runs
        self.width, self.height = rules.width, rules.height  # files, ranks
        self.all_squares = rules.board_squares is BoardSquares.ALL
        self.parity = 0 if rules.bottom_left_playable else 1
        self.flying = rules.king_range is KingRange.FLYING
        for (x, y), (color, king) in self.board.items():
            assert self.playable(x, y), f"piece on unplayable square {(x, y)}"
            assert king or y != self.crown_row(color), f"{color} man on its crowning row at {(x, y)}"

    # --- board facts ---

    def playable(self, x: int, y: int) -> bool:
        if not (0 <= x < self.width and 0 <= y < self.height):
            return False
        return self.all_squares or (x + y) % 2 == self.parity

    def crown_row(self, color: Color) -> int:
        return self.height - 1 if color is WHITE else 0

    def square(self, coord: Coord) -> int:
        return self.rules.geometry.square_at(*coord)

    def has_men(self, color: Color) -> bool:
        return any(c is color and not k for c, k in self.board.values())

    def game_over(self) -> bool:
        """Whether the position is over before any move (a king stands where crowning wins)."""
        return self.rules.crowning_wins and any(king for _, king in self.board.values())

    # --- quiet moves ---

    def frozen_king(self) -> Coord | None:
        """The square of the king that may make no more quiet moves now (king-move limit)."""
        limit = self.rules.king_move_limit
        run = self.runs[_side(self.turn)]
        if limit is None or run.square is None or run.count < limit or not self.has_men(self.turn):
            return None
        return run.square

    def quiet_moves(self) -> list[NaiveMove]:
        moves = []
        frozen = self.frozen_king()
        for (x, y), (color, king) in sorted(self.board.items()):
            if color is not self.turn:
                continue
            if king:
                if (x, y) == frozen:
                    continue
                for dx, dy in vectors(self.rules, self.rules.kings_move, color):
                    tx, ty = x + dx, y + dy
                    while self.playable(tx, ty) and (tx, ty) not in self.board:
                        moves.append(self._quiet((x, y), (tx, ty), promotes=False, king=True))
                        if not self.flying:
                            break
                        tx, ty = tx + dx, ty + dy
            else:
                for dx, dy in vectors(self.rules, self.rules.men_move, color):
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
        self, at: Coord, start: Coord, captured: tuple[Coord, ...], as_king: bool, last: Coord | None = None
    ) -> list[tuple[Coord, Coord, list[Coord]]]:
        """Every ``(direction, victim, landing squares)`` open to the moving piece on ``at``.

        ``last`` is the direction of the previous jump (for the 180° rule). The landing squares are
        every free square beyond the victim the piece's range and the landing rule allow, before
        the "land where the capture continues" and "end behind a king" restrictions.
        """
        found = []
        x, y = at
        flying = as_king and self.flying
        directions = self.rules.kings_capture if as_king else self.rules.men_capture
        for dx, dy in vectors(self.rules, directions, self.turn):
            if last is not None and not self.rules.capture_reversal and (dx, dy) == (-last[0], -last[1]):
                continue
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
                if not flying or self.rules.king_landing is KingLanding.DIRECTLY_BEHIND:
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
        last = steps[-1].direction if steps else None
        options = self.jumps(at, start, captured, as_king, last)
        if not options:
            if steps:
                yield steps, crowned
            return
        flying = as_king and self.flying
        for direction, victim, landings in options:
            after = (*captured, victim)
            choices = landings
            if flying:
                # The king must land where the capture continues, if it can continue anywhere.
                continuing = [land for land in landings if self.jumps(land, start, after, True, direction)]
                if continuing:
                    choices = continuing
                elif self.rules.king_landing is KingLanding.BEHIND_LAST_KING and self.board[victim][1]:
                    choices = landings[:1]  # the capture ends here, after a king: right behind it
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

    def captures(self, *, every_landing: bool = False) -> list[NaiveMove]:
        """Every capture path (no precedence), one per distinct restriction-9 path, or with
        ``every_landing`` one per sequence of landing squares (a king that stops on any of several
        squares and goes straight on counts once per square)."""
        moves: dict[object, NaiveMove] = {}
        for start, (color, king) in sorted(self.board.items()):
            if color is not self.turn:
                continue
            for steps, crowned in self.sequences(start, start, (), king, False):
                move = self._capture(start, king, steps, crowned)
                moves.setdefault((move, move.landings) if every_landing else move, move)
        return list(moves.values())

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
            landings=tuple(self.square(step.landing) for step in steps),
        )

    # --- choosing ---

    def key(self, move: NaiveMove) -> tuple[object, ...]:
        """The precedence key of a capture: larger is preferred."""
        facts = CaptureFacts(len(move.captured), sum(move.captured_kings), move.with_king, move.captured_kings)
        return tuple(criterion.key(facts) for criterion in self.rules.precedence)

    def legal_paths(self, *, every_landing: bool = False) -> list[NaiveMove]:
        """The legal moves, every capture path separately (the perft "keep" convention), or every
        sequence of landing squares with ``every_landing`` (see :meth:`captures`)."""
        if self.game_over():
            return []
        captures = self.captures(every_landing=every_landing)
        if captures:
            best = max(self.key(move) for move in captures)  # type: ignore[type-var]
            captures = [move for move in captures if self.key(move) == best]
            if self.rules.capture_mandatory:
                return captures
        return [*self.quiet_moves(), *captures]


def merge(paths: Iterable[NaiveMove]) -> list[NaiveMove]:
    """One move per identity (start, end, set of captured): the FMJD merge of equal captures."""
    first: dict[Identity, NaiveMove] = {}
    for move in paths:
        first.setdefault(move.identity, move)
    return list(first.values())


def legal_paths(rules: Ruleset, board: Board, turn: Color, runs: Runs = NO_RUNS) -> list[NaiveMove]:
    """The legal moves, one entry per capture path."""
    return NaiveGenerator(rules, board, turn, runs).legal_paths()


def legal_identities(rules: Ruleset, board: Board, turn: Color, runs: Runs = NO_RUNS) -> set[Identity]:
    """The legal moves as identities ``(start, end, frozenset(captured))``."""
    return {move.identity for move in legal_paths(rules, board, turn, runs)}


def position_paths(position: Position) -> list[NaiveMove]:
    """The legal paths of a library position (with no king-move history), by the naive rules."""
    return legal_paths(position.ruleset, board_of(position), position.turn)


def position_identities(position: Position) -> set[Identity]:
    """The legal identities of a library position (with no king-move history), by the naive rules."""
    return {move.identity for move in position_paths(position)}


def raw_captures(position: Position) -> list[NaiveMove]:
    """Every capture path of the side to move, before mandatory capture and precedence."""
    return NaiveGenerator(position.ruleset, board_of(position), position.turn).captures()


def quiet_moves(position: Position) -> list[NaiveMove]:
    """Every quiet move of the side to move (no king-move history)."""
    return NaiveGenerator(position.ruleset, board_of(position), position.turn).quiet_moves()


def can_continue(
    position: Position, start: int, captured: tuple[int, ...], at: int, *, as_king: bool, last: Coord | None = None
) -> bool:
    """Whether the piece that left ``start`` and took ``captured`` could capture again from ``at``
    (``last``: the direction of its last jump, for the 180° rule; None ignores that rule)."""
    generator = NaiveGenerator(position.ruleset, board_of(position), position.turn)
    coords = position.ruleset.geometry.coords
    taken = tuple(coords[square] for square in captured)
    return bool(generator.jumps(coords[at], coords[start], taken, as_king, last))


def apply(rules: Ruleset, board: Mapping[Coord, tuple[Color, bool]], turn: Color, move: NaiveMove) -> Board:
    """The board after ``move`` by ``turn``."""
    coords = rules.geometry.coords
    after = dict(board)
    color, king = after.pop(coords[move.start])
    assert color is turn
    for square in move.captured:
        del after[coords[square]]
    after[coords[move.end]] = (color, king or move.promotes)
    return after


# --- whole positions: board, side to move and king-move state ---


@dataclass(frozen=True, eq=False)
class State:
    """A naive position: the board, the side to move and each side's king-move run."""

    rules: Ruleset
    board: Mapping[Coord, tuple[Color, bool]]
    turn: Color
    runs: Runs = NO_RUNS
    _key: tuple[object, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "board", dict(self.board))
        object.__setattr__(self, "_key", (self.rules, tuple(sorted(self.board.items())), self.turn, self.runs))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def generator(self) -> NaiveGenerator:
        return NaiveGenerator(self.rules, self.board, self.turn, self.runs)

    def pieces(self) -> dict[int, tuple[Color, bool]]:
        """``{square number: (color, is_king)}``."""
        geo = self.rules.geometry
        return {geo.square_at(*coord): piece for coord, piece in self.board.items()}

    def run(self, color: Color) -> tuple[int | None, int]:
        """``color``'s king-move run as ``(square number or None, count)``."""
        run = self.runs[_side(color)]
        return (None if run.square is None else self.rules.geometry.square_at(*run.square)), run.count


def start_board(rules: Ruleset) -> Board:
    """The start position's board, from ``board_size``, ``board_squares``, ``men_start_row`` and
    ``rows_per_side`` (rows counted from each player's own side, 1 = the back row)."""
    width, height = rules.width, rules.height
    generator = NaiveGenerator(rules, {}, rules.first_to_move)
    first, last = rules.men_start_row, rules.men_start_row + rules.rows_per_side - 1
    board: Board = {}
    for y in range(height):
        for x in range(width):
            if generator.playable(x, y):
                if first <= y + 1 <= last:
                    board[(x, y)] = (WHITE, False)
                elif first <= height - y <= last:
                    board[(x, y)] = (BLACK, False)
    return board


def initial(rules: Ruleset) -> State:
    """The start position."""
    return State(rules, start_board(rules), rules.first_to_move)


def _coord(rules: Ruleset, text: str) -> Coord:
    text = text.strip().lower()
    if text.isdigit():
        return rules.geometry.coords[int(text)]
    x, y = ord(text[0]) - ord("a"), int(text[1:]) - 1
    assert NaiveGenerator(rules, {}, WHITE).playable(x, y), f"{text} is not playable"
    return x, y


def from_fen(rules: Ruleset, fen: str, runs: Mapping[Color, tuple[int, int]] | None = None) -> State:
    """A state from a plain PDN FEN (``"W:W31-50,K3:Bd4,e5"``), with optional king-move runs
    ``{color: (square, count)}``. Written here so that the oracle's own tests need no library parser."""
    turn_text, *fields = fen.strip().rstrip(".").split(":")
    board: Board = {}
    for part in fields:
        color = WHITE if part[0].upper() == "W" else BLACK
        for item in filter(None, (token.strip() for token in part[1:].split(","))):
            king = item[0].upper() == "K"
            item = item[1:] if king else item
            if "-" in item:
                low, high = (int(end) for end in item.split("-"))
                squares = [rules.geometry.coords[square] for square in range(low, high + 1)]
            else:
                squares = [_coord(rules, item)]
            for coord in squares:
                board[coord] = (color, king)
    turn = WHITE if turn_text.strip().upper() == "W" else BLACK
    run_list = [NO_RUN, NO_RUN]
    for color, (square, count) in (runs or {}).items():
        run_list[_side(color)] = Run(rules.geometry.coords[square], count)
    return State(rules, board, turn, (run_list[0], run_list[1]))


def state_of(position: Position, runs: Runs = NO_RUNS) -> State:
    """The naive state of a library position (its king-move runs given separately)."""
    return State(position.ruleset, board_of(position), position.turn, runs)


def moves(state: State, *, paths: bool = False, landings: bool = False) -> list[NaiveMove]:
    """The legal moves of ``state``: one per identity; every capture path with ``paths``; every
    sequence of landing squares with ``landings`` (kish's count: a king stopping on any of several
    squares before going straight on counts once per square)."""
    found = state.generator().legal_paths(every_landing=landings)
    return found if paths or landings else merge(found)


def play(state: State, move: NaiveMove) -> State:
    """The state after ``move`` (assumed legal), with the king-move runs brought up to date."""
    rules = state.rules
    board = apply(rules, state.board, state.turn, move)
    if rules.king_move_limit is None:
        return State(rules, board, state.turn.opponent)
    runs = list(state.runs)
    side = _side(state.turn)
    coords = rules.geometry.coords
    start, end = coords[move.start], coords[move.end]
    if move.with_king and not move.captured:
        previous = runs[side]
        runs[side] = Run(end, previous.count + 1 if previous.square == start else 1)
    else:
        runs[side] = NO_RUN
    for color in (WHITE, BLACK):
        run = runs[_side(color)]
        has_men = any(c is color and not k for c, k in board.values())
        if run.square is not None and (not has_men or board.get(run.square) != (color, True)):
            runs[_side(color)] = NO_RUN  # exempt without men; the tracked king was taken
    return State(rules, board, state.turn.opponent, (runs[0], runs[1]))


def is_over(state: State) -> bool:
    """Whether the game is over in ``state`` (draw rules aside)."""
    return not moves(state, paths=True)


def winner(state: State) -> Color | None:
    """The winner if the game is over in ``state`` (draw rules aside), else None."""
    rules = state.rules
    if rules.crowning_wins:
        owners = {color for color, king in state.board.values() if king}
        assert len(owners) < 2, "both sides have kings in a game that crowning wins"
        if owners:
            return owners.pop()
    if moves(state, paths=True):
        return None
    return state.turn if rules.no_move_wins else state.turn.opponent


def perft(state: State, depth: int, *, paths: bool = False, landings: bool = False) -> int:
    """Move sequences of length ``depth`` from ``state`` (counting moves as :func:`moves` does)."""
    if depth == 0:
        return 1
    found = moves(state, paths=paths, landings=landings)
    if depth == 1:
        return len(found)
    return sum(perft(play(state, move), depth - 1, paths=paths, landings=landings) for move in found)


def perft_counts(state: State, depth: int, *, paths: bool = False, landings: bool = False) -> list[int]:
    """``[perft(state, 1), ..., perft(state, depth)]`` in one walk of the tree.

    A state met again by another order of moves (a transposition) is counted once and its counts
    reused: what follows a state depends on nothing but the state (board, side to move, king-move
    runs), which :func:`_state_key` writes out in full. This only saves time on deep published
    counts; every distinct state still has its moves found the naive way.
    """
    seen: dict[tuple[object, int], list[int]] = {}

    def walk(node: State, remaining: int) -> list[int]:
        key = (_state_key(node), remaining)
        if key in seen:
            return seen[key]
        found = moves(node, paths=paths, landings=landings)
        counts = [len(found)] + [0] * (remaining - 1)
        if remaining > 1:
            for move in found:
                for ply, count in enumerate(walk(play(node, move), remaining - 1), start=1):
                    counts[ply] += count
        seen[key] = counts
        return counts

    return walk(state, depth) if depth else []


CONVENTIONS = ("identities", "paths", "landings")
"""The three ways of counting a capture (see :func:`moves`): one per identity, one per
restriction-9 path, one per sequence of landing squares (kish)."""


def children(state: State) -> list[tuple[State, dict[str, int]]]:
    """Each distinct state one legal move away, with how many moves lead to it in each convention."""
    by_child: dict[State, dict[str, set[object]]] = {}
    for move in moves(state, landings=True):
        counted = by_child.setdefault(play(state, move), {name: set() for name in CONVENTIONS})
        counted["identities"].add(move.identity)
        counted["paths"].add(move)
        counted["landings"].add((move, move.landings))
    return [(child, {name: len(seen) for name, seen in counted.items()}) for child, counted in by_child.items()]


def perft_conventions(
    state: State, depth: int, cache: dict[tuple[object, int], dict[str, list[int]]] | None = None
) -> dict[str, list[int]]:
    """``perft_counts`` in all three conventions at once (one walk, transpositions counted once):
    ``{convention: [perft 1, ..., perft depth]}``. The tree below a state is the same in every
    convention; only how many moves lead to each child differs. Calls that pass the same
    ``cache`` (states of one ruleset) share what they have counted."""
    seen: dict[tuple[object, int], dict[str, list[int]]] = {} if cache is None else cache

    def walk(node: State, remaining: int) -> dict[str, list[int]]:
        key = (_state_key(node), remaining)
        if key in seen:
            return seen[key]
        if remaining == 1:  # the last ply is counted, not played
            found = moves(node, landings=True)
            counts = {"identities": [len(merge(found))], "paths": [len(set(found))], "landings": [len(found)]}
            seen[key] = counts
            return counts
        counts = {name: [0] * remaining for name in CONVENTIONS}
        for child, multiplicity in children(node):
            below = walk(child, remaining - 1)
            for name in CONVENTIONS:
                counts[name][0] += multiplicity[name]
                for ply, count in enumerate(below[name], start=1):
                    counts[name][ply] += multiplicity[name] * count
        seen[key] = counts
        return counts

    return walk(state, depth) if depth else {name: [] for name in CONVENTIONS}


_PIECE_CODES = {(WHITE, False): "w", (WHITE, True): "W", (BLACK, False): "b", (BLACK, True): "B"}


def _state_key(state: State) -> tuple[object, ...]:
    """Everything a state's future depends on, compactly: one character per board cell, the side
    to move and both king-move runs (the ruleset is the same throughout one walk)."""
    width = state.rules.width
    cells = ["."] * (width * state.rules.height)
    for (x, y), piece in state.board.items():
        cells[y * width + x] = _PIECE_CODES[piece]
    return "".join(cells), state.turn, state.runs


def divide(state: State, depth: int, *, paths: bool = False) -> list[tuple[NaiveMove, int]]:
    """perft split by root move."""
    return [(move, perft(play(state, move), depth - 1, paths=paths)) for move in moves(state, paths=paths)]
