"""The mutable game: a move stack over immutable positions, with each variant's game-end rules."""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterator

import attrs

from draughts._text import excerpt
from draughts.color import Color
from draughts.errors import IllegalMoveError, InvalidMoveError
from draughts.move import Move
from draughts.notation import move_text, parse_move
from draughts.position import Position
from draughts.rules import EndgameRule, ResultNotation, Ruleset
from draughts.variants import get_variant


class Termination(enum.Enum):
    """Why a game ended."""

    NO_PIECES = "no pieces left"
    NO_MOVES = "no legal move"
    REPETITION = "repetition"
    MOVE_COUNT = "move-count rule"
    ENDGAME = "endgame rule"


_SCORES = {
    ResultNotation.DEFAULT: ("1-0", "0-1", "1/2-1/2"),
    ResultNotation.INTERNATIONAL: ("2-0", "0-2", "1-1"),
}


def result_text(rules: Ruleset, winner: Color | None) -> str:
    """The PDN result for ``winner`` (None: a draw) in the ruleset's result notation.

    The first score is the first player's, as PDN files write it: ``1-0`` is a White win in
    most variants but a Black win in American checkers, where Black starts.
    """
    win, loss, draw = _SCORES[rules.result_notation]
    if winner is None:
        return draw
    return win if winner is rules.first_to_move else loss


@attrs.frozen
class Outcome:
    """How a game ended.

    Attributes:
        termination: The reason.
        winner: The winning side, or None for a draw.
        rule: The rule that applied, in words with its article where the ruleset gives one.
        result: The PDN result in the variant's notation (``"2-0"``, ``"1/2-1/2"`` ...).
    """

    termination: Termination
    winner: Color | None
    rule: str
    result: str


@attrs.frozen
class _Counters:
    """Per-ply state the draw rules need, besides the positions themselves."""

    move_counts: tuple[int, ...]
    """Plies since each move-count rule was last reset."""
    since_material_change: int
    """Plies since the last capture or crowning (endgame rules count from there)."""


class Board:
    """A game in progress: the current position, the moves that led to it, and its end.

    Modelled on python-chess: :meth:`push` / :meth:`pop` / :meth:`peek`, :attr:`move_stack`,
    :attr:`legal_moves` (an immutable snapshot, safe to iterate while pushing), :meth:`outcome`.

    >>> import draughts
    >>> board = draughts.Board("russian")
    >>> board.push_text("c3-d4")
    Move(start=22, end=18)
    >>> board.push_text("f6-g5"); board.push_text("d4-e5")
    Move(start=11, end=16)
    Move(start=18, end=15)
    >>> [board.move_text(m) for m in board.legal_moves]
    ['d6:f4']
    >>> board.pop()
    Move(start=18, end=15)
    >>> len(board.move_stack), board.turn
    (2, <Color.WHITE: 0>)
    """

    def __init__(self, variant: Ruleset | str = "international", fen: str | None = None) -> None:
        rules = get_variant(variant)
        root = Position.initial(rules) if fen is None else Position.from_fen(rules, fen)
        self._positions: list[Position] = [root]
        self._moves: list[Move] = []
        self._counters: list[_Counters] = [_Counters((0,) * len(rules.draw_rules.move_counts), 0)]

    @classmethod
    def from_position(cls, position: Position) -> Board:
        """A board starting from ``position``."""
        board = cls(position.ruleset)
        board._positions = [position]
        return board

    # --- state ---

    @property
    def ruleset(self) -> Ruleset:
        """The rules the game is played under."""
        return self._positions[0].ruleset

    @property
    def position(self) -> Position:
        """The current position (immutable)."""
        return self._positions[-1]

    @property
    def turn(self) -> Color:
        """The side to move."""
        return self.position.turn

    @property
    def move_stack(self) -> list[Move]:
        """The moves played from the root position (a copy)."""
        return list(self._moves)

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves in the current position: a snapshot, unaffected by later pushes."""
        return self.position.legal_moves()

    def root(self) -> Position:
        """The position the game started from."""
        return self._positions[0]

    def positions(self) -> list[Position]:
        """Every position of the game, root first (a copy)."""
        return list(self._positions)

    def fen(self, *, numeric: bool = False) -> str:
        """The FEN of the current position."""
        return self.position.fen(numeric=numeric)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal now."""
        return self.position.is_legal(move)

    def copy(self, *, stack: bool = True) -> Board:
        """An independent copy; with ``stack=False`` the copy starts from the current position."""
        board = Board.__new__(Board)
        if stack:
            board._positions = list(self._positions)
            board._moves = list(self._moves)
            board._counters = list(self._counters)
        else:
            board._positions = [self.position]
            board._moves = []
            board._counters = [_Counters((0,) * len(self.ruleset.draw_rules.move_counts), 0)]
        return board

    # --- playing ---

    def push(self, move: Move) -> None:
        """Play ``move``. An illegal or stale move raises and leaves the board as it was.

        Raises:
            IllegalMoveError: the move is not legal in the current position.
            InvalidMoveError: ``move`` is not a :class:`~draughts.Move`.
        """
        before = self.position
        if not isinstance(move, Move):
            raise InvalidMoveError(f"{excerpt(move)} is not a Move; use push_text for move text")
        legal = before.legal_moves()
        if move not in legal:
            raise IllegalMoveError(f"{excerpt(move)} is not legal in {before.fen()} ({before.ruleset.name})")
        move = legal[legal.index(move)]
        after = before.play(move)
        counters = self._next_counters(before, move)
        self._positions.append(after)
        self._moves.append(move)
        self._counters.append(counters)

    def push_text(self, text: str) -> Move:
        """Play the move written as ``text`` (see :mod:`draughts.notation`) and return it."""
        move = parse_move(self.position, text)
        self.push(move)
        return move

    def move_text(self, move: Move, *, long: bool | None = None) -> str:
        """``move`` (legal now) as the variant writes it."""
        return move_text(self.position, move, long=long)

    def history_text(self) -> list[str]:
        """Every move played so far, as the variant writes it (each in the position it was played in)."""
        return [move_text(position, move) for position, move in zip(self._positions, self._moves, strict=False)]

    def pop(self) -> Move:
        """Take back the last move and return it.

        Raises:
            IndexError: no move to take back.
        """
        if not self._moves:
            raise IndexError("pop from a board with no moves")
        self._positions.pop()
        self._counters.pop()
        return self._moves.pop()

    def peek(self) -> Move:
        """The last move played.

        Raises:
            IndexError: no move has been played.
        """
        if not self._moves:
            raise IndexError("peek at a board with no moves")
        return self._moves[-1]

    def _next_counters(self, before: Position, move: Move) -> _Counters:
        piece = before.piece_at(move.start)
        man_moved = piece is not None and not piece.king
        captured = bool(move.captured)
        previous = self._counters[-1]
        counts = []
        for rule, plies in zip(self.ruleset.draw_rules.move_counts, previous.move_counts, strict=True):
            reset = (
                (rule.reset_by_man_move and man_moved)
                or (rule.reset_by_capture and captured)
                or (rule.reset_by_promotion and move.promotes)
            )
            counts.append(0 if reset else plies + 1)
        material_changed = captured or move.promotes
        return _Counters(tuple(counts), 0 if material_changed else previous.since_material_change + 1)

    # --- game end ---

    def repetitions(self) -> int:
        """How many times the current position (with the same side to move) has occurred."""
        return Counter(self._positions)[self.position]

    def _draw(self, *, claims: bool) -> Outcome | None:
        """The first draw rule that applies (claim-based ones only with ``claims``)."""
        draws = self.ruleset.draw_rules
        if draws.repetitions and draws.repetition_claim == claims and self.repetitions() >= draws.repetitions:
            return Outcome(
                Termination.REPETITION,
                None,
                f"the same position {draws.repetitions} times",
                result_text(self.ruleset, None),
            )
        counters = self._counters[-1]
        if not claims:
            for endgame in draws.endgames:
                if counters.since_material_change >= 2 * endgame.moves and _endgame_applies(endgame, self.position):
                    text = endgame.article or endgame.describe()
                    return Outcome(Termination.ENDGAME, None, text, result_text(self.ruleset, None))
        for rule, plies in zip(draws.move_counts, counters.move_counts, strict=True):
            if rule.claim == claims and plies >= 2 * rule.moves:
                text = rule.article or rule.describe()
                return Outcome(Termination.MOVE_COUNT, None, text, result_text(self.ruleset, None))
        return None

    def outcome(self) -> Outcome | None:
        """How the game has ended, or None while it goes on.

        A player to move with no legal move loses (no pieces, or all blocked). Otherwise the
        ruleset's automatic draw rules are checked; claim-based ones (American) are not applied
        here: see :meth:`can_claim_draw`.
        """
        position = self.position
        if not position.legal_moves():
            winner = position.turn.opponent
            has_pieces = position.white if position.turn is Color.WHITE else position.black
            termination = Termination.NO_MOVES if has_pieces else Termination.NO_PIECES
            rule = f"{position.turn} has {termination.value}"
            return Outcome(termination, winner, rule, result_text(self.ruleset, winner))
        return self._draw(claims=False)

    def is_game_over(self) -> bool:
        """Whether :meth:`outcome` is not None."""
        return self.outcome() is not None

    def can_claim_draw(self) -> bool:
        """Whether the side to move may claim a draw under a claim-based rule (repetition, 40 moves)."""
        return self._draw(claims=True) is not None

    def claim_draw(self) -> Outcome:
        """The draw a claim gives now.

        Raises:
            IllegalMoveError: no claim-based draw rule is met.
        """
        outcome = self._draw(claims=True)
        if outcome is None:
            raise IllegalMoveError(f"no draw can be claimed in {self.fen()} ({self.ruleset.name})")
        return outcome

    def result(self) -> str:
        """The PDN result so far: the outcome's, or ``*`` while the game goes on."""
        outcome = self.outcome()
        return "*" if outcome is None else outcome.result

    # --- display ---

    def __iter__(self) -> Iterator[Move]:
        return iter(list(self._moves))

    def __len__(self) -> int:
        return len(self._moves)

    def __repr__(self) -> str:
        return f"Board({self.ruleset.name!r}, fen={self.fen()!r})"

    def __str__(self) -> str:
        return str(self.position)

    def _repr_svg_(self) -> str:
        from draughts.svg import board

        return board(self)


def _endgame_applies(rule: EndgameRule, position: Position) -> bool:
    white = _material(position, Color.WHITE)
    black = _material(position, Color.BLACK)
    if rule.total_pieces and sum(white) + sum(black) not in rule.total_pieces:
        return False
    if rule.both_have_kings and not (white[0] and black[0]):
        return False
    if not (rule.strong or rule.weak or rule.strong_min_kings):
        return True
    for strong, weak, weak_color in ((white, black, Color.BLACK), (black, white, Color.WHITE)):
        if rule.strong and strong not in rule.strong:
            continue
        if strong[0] < rule.strong_min_kings:
            continue
        if rule.weak and weak not in rule.weak:
            continue
        if rule.weak_king_on_main_diagonal and not _lone_king_on_main_diagonal(position, weak_color):
            continue
        return True
    return False


def _material(position: Position, color: Color) -> tuple[int, int]:
    return len(position.squares(color, kings=True)), len(position.squares(color, kings=False))


def _lone_king_on_main_diagonal(position: Position, color: Color) -> bool:
    kings = position.squares(color, kings=True)
    if len(kings) != 1:
        return False
    geometry = position.ruleset.geometry
    x, y = geometry.coords[kings[0]]
    # The long diagonal joins the two playable corners.
    return x == y if geometry.bottom_left_playable else x + y == geometry.size - 1
