"""The mutable game: a move stack over immutable positions, with each variant's game-end rules."""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import attrs

from draughts import _caches, _slots, drawrules
from draughts._core import Tables, build_move_generator
from draughts._native import BoardBase, DrawCounter, DrawRules, fast_method
from draughts._text import excerpt, number
from draughts.color import Color
from draughts.errors import DrawClaimError, IllegalMoveError, InvalidMoveError
from draughts.legal import LegalMoves
from draughts.move import Move
from draughts.notation import move_text, parse_move
from draughts.position import Position
from draughts.results import result_for
from draughts.rules import Ruleset
from draughts.rules.names import get_variant
from draughts.svg import board as svg_board

__all__ = ["Board", "DrawCounters", "Outcome", "Termination"]


class Termination(enum.Enum):
    """Why a game ended."""

    NO_PIECES = "no pieces left"
    NO_MOVES = "no legal move"
    CROWNING = "a man crowned"
    REPETITION = "repetition"
    MOVE_COUNT = "move-count rule"
    ENDGAME = "endgame rule"


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
class DrawCounters:
    """What the draw rules count besides the positions themselves, after the last move.

    Attributes:
        move_counts: Plies since each of the ruleset's move-count rules
            (:attr:`DrawRules.move_counts <draughts.DrawRules.move_counts>`, in order) was last reset.
        since_material_change: Plies since the last capture or crowning; the endgame rules count
            from there. This is the ``H`` (halfmove clock) of a lidraughts FEN.
    """

    move_counts: tuple[int, ...] = ()
    since_material_change: int = 0

    @classmethod
    def _next(cls, move_counts: tuple[int, ...], since_material_change: int) -> DrawCounters:
        """Counters the board computed itself (every push): no checks. They are values, so equal
        counters are one object, kept from game to game (finding one is cheaper than building it)."""
        key = (move_counts, since_material_change)
        counters = _known_counters.get(key)
        if counters is None:
            counters = _new(cls)
            _set_move_counts(counters, move_counts)
            _set_since_material_change(counters, since_material_change)
            if len(_known_counters) >= _COUNTERS_KEPT:
                _known_counters.clear()
            _known_counters[key] = counters
        return counters


# Counters are built on every push: their slots are set directly (see draughts._slots).
_new = _slots.new
_set_move_counts, _set_since_material_change = _slots.setters(DrawCounters, "move_counts", "since_material_change")
_known_counters: dict[tuple[tuple[int, ...], int], DrawCounters] = {}
_COUNTERS_KEPT = _caches.DRAW_COUNTERS
"""Distinct draw counters kept for sharing; when full the table starts again empty."""


_CLOCK = re.compile(r":([HF])([0-9]+)", re.IGNORECASE)


def _clocks(fen: str) -> tuple[int | None, int | None]:
    """The lidraughts ``:H<n>`` (halfmove clock) and ``:F<n>`` (fullmove number) of a FEN, if given."""
    found: dict[str, int | None] = {"H": None, "F": None}
    for match in _CLOCK.finditer(fen if isinstance(fen, str) else ""):
        found[match.group(1).upper()] = number(match.group(2))
    return found["H"], found["F"]


def _counters_from_clock(rules: Ruleset, position: Position, halfmoves: int | None) -> DrawCounters:
    """The draw counts a FEN's halfmove clock restores: plies since the last capture or crowning,
    exactly the endgame count; each move-count rule's count as the native draw rules derive it
    from the clock (``DrawSpec::counts_from_clock``)."""
    if not halfmoves:
        return DrawCounters((0,) * len(rules.draw_rules.move_counts), 0)
    no_men = not (position.material(Color.WHITE)[1] or position.material(Color.BLACK)[1])
    counts = tuple(drawrules.compiled(position).counts_from_clock(halfmoves, no_men))
    return DrawCounters(counts, halfmoves)


class _BoardMoves(LegalMoves):
    """A board's live legal moves: those of its current position, read straight from the board's
    list of positions, which ``push`` and ``pop`` change in place (``list(board.legal_moves)`` asks
    for the length, then iterates: every ply, twice). Build it with :func:`_board_moves`.

    It holds that list, not the board: a board and its one view then make no reference cycle, so a
    finished game's positions are freed with its board, not left to the cyclic garbage collector.
    """

    __slots__ = ()

    def _moves(self) -> tuple[Move, ...]:
        return self()

    def _position(self) -> Position:
        return self._owner[-1]  # type: ignore[index,no-any-return]


def _board_moves(positions: list[Position]) -> _BoardMoves:
    """The live view of the board whose positions are ``positions`` (the list is its source: the
    native collection reads the last position's moves from it, with no call through Python). The
    board's native base makes it once, with the board."""
    return _BoardMoves(positions, positions)  # type: ignore[arg-type]


class Board(BoardBase):
    """A game in progress: the current position, the moves that led to it, and its end.

    Modelled on python-chess: :meth:`push` / :meth:`pop` / :meth:`peek`, :attr:`move_stack`,
    :attr:`legal_moves` (a live collection of the current position's moves), :meth:`outcome`,
    :meth:`ply` and :attr:`fullmove_number`. Two boards are equal when they hold the same game:
    ruleset, starting point (position, counts, move number) and moves.

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
    >>> len(board.move_stack), board.turn, board.ply(), board.fullmove_number
    (2, <Color.WHITE: 0>, 2, 2)

    Args:
        variant: The ruleset, or a variant name.
        fen: The starting position (default: the variant's). The lidraughts ``:H<n>:F<n>``
            suffixes, when present, restore the draw counts and the move number.
    """

    # The game's lists, its draw counter and its view live in the native base
    # (``draughts._native.BoardBase``), which makes ``legal_moves`` and ``push`` native: a ply runs
    # no Python frame. The lists and the view are made with the board (``_reset`` changes the lists
    # in place); the rest of the board's state is in the instance's dict.
    if TYPE_CHECKING:
        _positions: list[Position]
        _moves: list[Move]
        _draws: DrawCounter
        _counts_men: bool

        @property
        def legal_moves(self) -> LegalMoves:
            """The legal moves of the current position (native: ``BoardBase.legal_moves``)."""

        def push(self, move: Move) -> None:
            """Play ``move`` (native: ``BoardBase.push``)."""

        def _set_draws(self, counter: DrawCounter, counts_men: bool) -> None:
            """Sets ``_draws`` and ``_counts_men`` (native)."""

    def __init__(self, ruleset: Ruleset | str = "international", fen: str | None = None) -> None:
        rules = get_variant(ruleset)
        if fen is None:
            start = _start_of(rules)
            self._reset(Position.initial(rules), None, None, start)
        else:
            root = Position.from_fen(rules, fen)
            halfmoves, fullmove = _clocks(fen)
            self._reset(root, _counters_from_clock(rules, root, halfmoves), fullmove)

    def _reset(
        self, root: Position, counters: DrawCounters | None, fullmove: int | None, start: _Start | None = None
    ) -> None:
        if start is None:
            start = _start_of(root.ruleset)
        if counters is None:
            counters = start.counters
        self._positions[:] = [root]
        self._moves.clear()
        self._root_counters = counters
        draws = start.draw_rules.counter(root.native_node, counters.move_counts, counters.since_material_change)
        self._set_draws(draws, start.counts_men)
        self._root_fullmove = max(fullmove or 1, 1)

    @classmethod
    def from_fen(cls, ruleset: Ruleset | str, fen: str) -> Board:
        """A board starting from ``fen`` (``:H<n>:F<n>`` clock fields are read when present)."""
        return cls(ruleset, fen)

    @classmethod
    def from_position(cls, position: Position) -> Board:
        """A board starting from ``position``."""
        if not isinstance(position, Position):
            raise TypeError(f"Board.from_position needs a Position, not {excerpt(position)}")
        board = cls.__new__(cls)
        board._reset(position, None, None)
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
        return self._positions[-1].turn

    @property
    def move_stack(self) -> list[Move]:
        """The moves played from the root position (a copy)."""
        return list(self._moves)

    def _legal_moves(self) -> tuple[Move, ...]:
        return self._positions[-1].moves_with_masks()[0]

    def draw_counter(self) -> DrawCounter:
        """Low-level: a copy of the game's draw counts as the native core keeps them (what the
        native game loop of :mod:`draughts.lab.native` starts from)."""
        return self._draws.copy()

    @property
    def counters(self) -> DrawCounters:
        """The draw rules' counts after the last move (see :class:`DrawCounters`)."""
        key = self._draws.counts()
        return _known_counters.get(key) or DrawCounters._next(*key)

    def ply(self) -> int:
        """Plies played since the start of the game, counting those before a FEN's move number."""
        first = self.ruleset.first_to_move
        before_root = 2 * (self._root_fullmove - 1) + (0 if self._positions[0].turn is first else 1)
        return before_root + len(self._moves)

    @property
    def fullmove_number(self) -> int:
        """The number of the current move: 1 at the start, up by one after the second player's move."""
        return 1 + self.ply() // 2

    def root(self) -> Position:
        """The position the game started from."""
        return self._positions[0]

    def positions(self) -> list[Position]:
        """Every position of the game, root first (a copy)."""
        return list(self._positions)

    def fen(self, *, numeric: bool = False, clocks: bool = False) -> str:
        """The FEN of the current position; with ``clocks``, followed by lidraughts' ``:H<n>:F<n>``
        (plies since the last capture or crowning, and the move number), which :class:`Board`
        reads back."""
        text = self.position.fen(numeric=numeric)
        if clocks:
            text += f":H{self.counters.since_material_change}:F{self.fullmove_number}"
        return text

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal now."""
        return move in self._legal_moves()

    def copy(self, *, stack: bool = True) -> Board:
        """An independent copy; with ``stack=False`` the copy starts from the current position,
        keeping its draw counts and move number (only the repetition history is dropped)."""
        board = Board.__new__(Board)
        if stack:
            board._positions[:] = self._positions
            board._moves[:] = self._moves
            board._root_counters = self._root_counters
            board._set_draws(self._draws.copy(), self._counts_men)
            board._root_fullmove = self._root_fullmove
        else:
            board._reset(self.position, self.counters, self.fullmove_number)
        return board

    def __copy__(self) -> Board:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        return self.copy()  # positions and moves are immutable values: sharing them is safe

    def __reduce__(self) -> tuple[object, ...]:
        # Explicit, so that every pickle protocol works (0 and 1 cannot make an instance of a class
        # with a native base by themselves): an empty board of the class, then __setstate__.
        return (_new_board, (type(self),), self.__getstate__())

    def __getstate__(self) -> dict[str, object]:
        # The draw counter and the view are native, rebuilt from the moves on unpickling.
        return {**self.__dict__, "_positions": self._positions, "_moves": self._moves}

    def __setstate__(self, state: dict[str, object]) -> None:
        state = dict(state)
        positions, moves = state.pop("_positions"), state.pop("_moves")
        self.__dict__.update(state)
        assert isinstance(positions, list)
        assert isinstance(moves, list)
        self._reset(positions[0], self._root_counters, self._root_fullmove)
        for move in moves:
            self.push(move)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self._positions[0] == other._positions[0]
            and self._root_counters == other._root_counters
            and self._root_fullmove == other._root_fullmove
            and self._moves == other._moves
        )

    __hash__ = None  # type: ignore[assignment]  # a board changes

    # --- playing ---

    def _illegal(self, position: Position, move: object) -> Exception:
        if not isinstance(move, Move):
            return InvalidMoveError(f"{excerpt(move)} is not a Move; use push_text for move text")
        message = f"{move!r} is not legal in {position.fen()} ({position.ruleset.name})"
        near = [m for m in position.moves_with_masks()[0] if m.start == move.start and m.end == move.end]
        if near:
            message += "; legal from there to there: " + ", ".join(map(repr, near))
        return IllegalMoveError(message)

    def parse_text(self, text: str) -> Move:
        """The legal move ``text`` denotes now (see :mod:`draughts.notation`), without playing it."""
        return parse_move(self.position, text)

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
        self._draws.pop()
        return self._moves.pop()

    def peek(self) -> Move:
        """The last move played.

        Raises:
            IndexError: no move has been played.
        """
        if not self._moves:
            raise IndexError("peek at a board with no moves")
        return self._moves[-1]

    # --- game end ---

    def repetitions(self) -> int:
        """How many times the current position (with the same side to move) has occurred."""
        return self._draws.repetitions()

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the current position has occurred at least ``count`` times."""
        return self.repetitions() >= count

    def _draw(self, *, claims: bool) -> Outcome | None:
        """The first draw rule that applies (claim-based ones only with ``claims``)."""
        found = self._draws.draw(claims, self._shot_in_the_air)
        return None if found is None else draw_outcome(self.ruleset, *found)

    def _shot_in_the_air(self) -> bool:
        return drawrules.shot_in_the_air(self.position)

    def outcome(self) -> Outcome | None:
        """How the game has ended, or None while it goes on.

        By the rules of play first: a player to move with no legal move (no pieces, or all
        blocked) loses, or wins where the ruleset says so (losing draughts); where crowning wins
        (breakthrough), the first king ends the game. Then the ruleset's automatic draw rules;
        claim-based ones (American) are not applied here: see :meth:`can_claim_draw`.
        """
        position = self.position
        winner = position.winner()
        if winner is not None:
            if self.ruleset.crowning_wins and position.material(winner)[0]:
                termination = Termination.CROWNING
                rule = f"{winner} crowned a man and wins"
            else:
                stuck = position.turn
                termination = Termination.NO_MOVES if sum(position.material(stuck)) else Termination.NO_PIECES
                rule = f"{stuck} has {termination.value}" + (" and wins" if winner is stuck else "")
            return Outcome(termination, winner, rule, result_for(self.ruleset, winner))
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
            DrawClaimError: no claim-based draw rule is met (an :class:`~draughts.IllegalMoveError`).
        """
        outcome = self._draw(claims=True)
        if outcome is None:
            raise DrawClaimError(f"no draw can be claimed in {self.fen()} ({self.ruleset.name})")
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
        return svg_board(self)


def draw_outcome(ruleset: Ruleset, kind: str, index: int) -> Outcome:
    """The draw a native draw counter names (``("repetition", 0)``, ``("move_count", i)`` or
    ``("endgame", i)``, as :meth:`DrawCounter.draw` and the native game loop say it)."""
    draws = ruleset.draw_rules
    if kind == "repetition":
        termination, text = Termination.REPETITION, f"the same position {draws.repetitions} times"
    else:
        rule = draws.endgames[index] if kind == "endgame" else draws.move_counts[index]
        termination = Termination.ENDGAME if kind == "endgame" else Termination.MOVE_COUNT
        text = rule.article or rule.describe()
    return Outcome(termination, None, text, result_for(ruleset, None))


def _new_board(cls: type[Board]) -> Board:
    """An empty board of class ``cls`` (what unpickling fills in with ``__setstate__``)."""
    return cls.__new__(cls)


@attrs.frozen
class _Start:
    """What every board of one ruleset starts with, made once per ruleset (a game's start runs
    once per game: a program that plays many short games pays it each time). It holds no position
    (a position holds the tables whose cache holds this, a cycle the collector cannot see).

    Attributes:
        counters: The draw counts at a game's start (none running).
        draw_rules: The ruleset's draw rules compiled (:func:`draughts.drawrules.compiled`), the
            maker of each game's counter (:mod:`draughts.drawrules`: every position's counts,
            kept natively, pushed and popped with the moves).
        counts_men: Whether a draw rule's count is restarted by a man's move (then ``push`` tells
            a man's move from a king's).
    """

    counters: DrawCounters
    draw_rules: DrawRules
    counts_men: bool


def _start_of(rules: Ruleset) -> _Start:
    """The start of every board of ``rules`` (made once per ruleset)."""
    return build_move_generator(rules).tables.derived(_make_start)


def _make_start(tables: Tables) -> _Start:
    rules = tables.rules
    move_counts = rules.draw_rules.move_counts
    counters = DrawCounters((0,) * len(move_counts), 0)
    counts_men = any(rule.reset_by_man_move for rule in move_counts)
    return _Start(counters, drawrules.compiled(Position.initial(rules)), counts_men)


# The native members of the per-move path, listed in the class's own namespace as well: the API
# reference and help() document them with the class. ``push`` is made for this class itself
# (``native/python/src/hot.rs``): a method of the class itself takes CPython's specialised call.
for _native_member, _fast in (("legal_moves", BoardBase.__dict__["legal_moves"]), ("push", fast_method(Board, "push"))):
    setattr(Board, _native_member, _fast)
