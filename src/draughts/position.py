"""The immutable position: pieces, side to move, rule state, FEN and legal moves."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from draughts._core import MoveGenerator, Tables, build_move_generator
from draughts._core.rulestate import FEN_TAG
from draughts._core.types import Compact, Node
from draughts._native import Node as NativeNode
from draughts._native import PositionBase, fast_method, legal_moves_attribute
from draughts._text import excerpt
from draughts.color import Color
from draughts.diagram import text_diagram
from draughts.errors import (
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidSquareError,
)
from draughts.legal import LegalMoves
from draughts.move import Move
from draughts.rules import Ruleset
from draughts.rules.names import get_variant
from draughts.svg import board as svg_board

__all__ = ["Piece", "Position"]


def _check_color(instance: object, attribute: attrs.Attribute[Color], value: object) -> None:
    if not isinstance(value, Color):
        raise InvalidPositionError(f"Piece color {excerpt(value)} must be draughts.WHITE or draughts.BLACK")


def _check_king(instance: object, attribute: attrs.Attribute[bool], value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidPositionError(f"Piece king {excerpt(value)} must be True or False")


@attrs.frozen
class Piece:
    """A piece: its colour and whether it is a king."""

    color: Color = attrs.field(validator=_check_color)
    king: bool = attrs.field(default=False, validator=_check_king)

    @property
    def symbol(self) -> str:
        """``w``/``b`` for men, ``W``/``B`` for kings (as text diagrams draw them)."""
        letter = self.color.letter
        return letter if self.king else letter.lower()


def _squares(tables: Tables, mask: int) -> list[int]:
    squares = []
    while mask:
        low = mask & -mask
        squares.append(tables.square_of_bit[low.bit_length() - 1])
        mask ^= low
    return sorted(squares)


@attrs.frozen(repr=False, init=False, eq=False, weakref_slot=False)
class Position(PositionBase):
    """A draughts position: where the pieces stand, who is to move, and any rule state, under one ruleset.

    Immutable and hashable: :meth:`play` returns a new position. Build positions with
    :meth:`initial`, :meth:`from_fen` or :meth:`from_pieces` (the constructor is not public).
    Positions are equal when their ruleset, pieces, side to move and rule state are (the count
    of consecutive king moves, where the ruleset limits them).

    >>> import draughts
    >>> pos = draughts.Position.initial("russian")
    >>> pos.legal_moves.count(), pos.turn
    (7, <Color.WHITE: 0>)

    **The low-level contract.** The library's own fast paths (a board's draw counters and
    repetition test, perft, the engine, PDN replay, notation, endgame tablebases, the AI tensors)
    read a position as the move generator does, through a few documented members instead of its
    private attributes (``tests/project/test_repository.py`` checks that no module reaches into
    another's private names):

    * :attr:`node`: the generator's node ``(own, opp, kings, color, state)``, the side to move's
      pieces first; :attr:`bitboards`: ``(white, black, kings)``, in :attr:`tables`' bit layout;
    * :attr:`generator` and :attr:`tables`: the ruleset's move generator and its compiled tables;
    * :meth:`moves_with_masks`: the legal moves and the xor masks each is played with;
      :meth:`child`: the position after the move with given masks; :meth:`children`: each move
      and the position after it; :meth:`capture_paths`: each capture path as a move of its own;
    * :meth:`from_bitboards`: a position from bitboards the library built itself;
    * :attr:`native_node`: the node as the native core holds it (what the board's draw counters
      read), :meth:`move_index` and :meth:`child_at`: a legal move's place and the position after
      the move at a place; :meth:`play_listed`: a board's push in one call.

    They check nothing (their input comes from the library, on the hot paths), and a native core
    that replaces the Python generator keeps their meaning.
    """

    # The three parts live in the native base (``draughts._native.PositionBase``), which makes
    # ``legal_moves`` and ``play`` native methods: a ply runs no Python frame. The class adds no
    # slot of its own (not ``__weakref__`` either: one more word per position, never used).
    if TYPE_CHECKING:
        ruleset: Ruleset
        """The rules of the position."""
        _key: NativeNode
        """The node as an object of its own (``draughts._native.Node``), made on first request. The
        position's object itself holds the node natively (the typed bitboards, side to move and
        rule state) and once asked its legal moves (the ``draughts.Move`` objects the core keeps per
        ruleset, with their masks): playing a listed move makes the next node from the move's place
        in the list, so no int crosses the boundary per move; :attr:`node` is its ints."""
        _gen: MoveGenerator
        """The generator of the ruleset (looked up once, handed on to the positions after each move)."""

        @property
        def legal_moves(self) -> LegalMoves:
            """The legal moves (native: ``PositionBase.legal_moves``)."""

        def play(self, move: Move) -> Position:
            """The position after ``move`` (native: ``PositionBase.play``)."""

        def play_listed(self, move: object) -> tuple[Position, Move, Compact, NativeNode] | None:
            """A board's push in one call (native: ``PositionBase.play_listed``)."""

        def child_at(self, index: int) -> Position:
            """The position after the legal move at ``index`` (native: ``PositionBase.child_at``)."""

        # The node's own readings, native (the node lives in the position's object).
        _color: int

        def _ints(self) -> Node: ...
        def _legal(self) -> tuple[Move, ...]: ...
        def _with_masks(self) -> tuple[tuple[Move, ...], tuple[Compact, ...]]: ...
        def _index(self, move: object) -> int: ...
        def _after_masks(self, cls: type[Position], masks: Compact) -> Position: ...
        def _same_node(self, other: Position) -> bool: ...
        def _node_hash(self) -> int: ...

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError("Position() is not public: use Position.initial(...), .from_fen(...) or .from_pieces(...)")

    @classmethod
    def from_bitboards(
        cls,
        ruleset: Ruleset,
        white: int,
        black: int,
        kings: int,
        turn: Color,
        state: int = 0,
        generator: MoveGenerator | None = None,
    ) -> Position:
        """Low-level: a position from bitboards in :attr:`tables`' bit layout and a rule state,
        which the library built itself (already valid: only the native node's own check runs,
        :class:`InvalidPositionError` for sides that overlap or pieces off the board; ``generator``,
        the ruleset's, saves its look-up). The public constructors end here after their checks."""
        gen = build_move_generator(ruleset) if generator is None else generator
        return _position(cls, ruleset, _node(gen, white, black, kings, turn, state), gen)

    @classmethod
    def _checked(cls, rules: Ruleset, white: int, black: int, kings: int, turn: Color, state: int = 0) -> Position:
        """A position from user input, validated (what the public constructors end in)."""
        tables = build_move_generator(rules).tables
        if not isinstance(turn, Color):
            raise InvalidPositionError(f"turn {excerpt(turn)} must be draughts.WHITE or draughts.BLACK")
        for color, mask in ((Color.WHITE, white), (Color.BLACK, black)):
            men_on_crown = mask & ~kings & tables.crown_row[color]
            if men_on_crown:
                raise InvalidPositionError(
                    f"{color} men on their own crowning row: {_squares(tables, men_on_crown)} (they would be kings)"
                )
            if mask.bit_count() > rules.men_per_side:
                raise InvalidPositionError(
                    f"{color} has {mask.bit_count()} pieces; {rules.name} starts with {rules.men_per_side}"
                )
        if rules.crowning_wins and kings & white and kings & black:
            raise InvalidPositionError(f"both sides have a king, but in {rules.name} the first king ends the game")
        return cls.from_bitboards(rules, white, black, kings, turn, tables.state.canonical(white, black, kings, state))

    @property
    def generator(self) -> MoveGenerator:
        """Low-level: the move generator of the ruleset (the one this position's moves come from)."""
        return self._gen

    @property
    def tables(self) -> Tables:
        """Low-level: the ruleset's compiled tables (its bit layout; :meth:`Tables.derived
        <draughts._core.tables.Tables.derived>` for what a module makes once per ruleset)."""
        return self._gen.tables

    @property
    def node(self) -> Node:
        """Low-level: the generator's node, ``(own, opp, kings, color, state)``, the side to move's
        pieces first (as the generator takes it)."""
        return self._ints()

    @property
    def native_node(self) -> NativeNode:
        """Low-level: the node as the native core holds it (``draughts._native.Node``), for the
        library's native calls that take it as is (a board's draw counters)."""
        return self._key

    @property
    def bitboards(self) -> tuple[int, int, int]:
        """Low-level: ``(white, black, kings)``, the bitboards in :attr:`tables`' bit layout."""
        node = self._ints()
        return (node[0], node[1], node[2]) if node[3] == 0 else (node[1], node[0], node[2])

    @property
    def turn(self) -> Color:
        """The side to move."""
        return _TURNS[self._color]

    @property
    def _white(self) -> int:
        node = self._ints()
        return node[node[3]]  # own first when White (color 0) moves, else second

    @property
    def _black(self) -> int:
        node = self._ints()
        return node[1 - node[3]]

    @property
    def _kings(self) -> int:
        return self._ints()[2]

    @property
    def _state(self) -> int:
        return self._ints()[4]

    # --- construction ---

    @classmethod
    def initial(cls, ruleset: Ruleset | str) -> Position:
        """The start position of ``ruleset`` (a ruleset or a variant name)."""
        rules = get_variant(ruleset)
        gen = build_move_generator(rules)
        return _position(cls, rules, gen.tables.derived(_initial_node), gen)

    @classmethod
    def empty(cls, ruleset: Ruleset | str, turn: Color | None = None) -> Position:
        """An empty board with ``turn`` (default: the ruleset's first player) to move."""
        rules = get_variant(ruleset)
        return cls._checked(rules, 0, 0, 0, rules.first_to_move if turn is None else turn)

    @classmethod
    def from_pieces(
        cls,
        ruleset: Ruleset | str,
        pieces: Mapping[int, Piece] | Mapping[str, Piece] | Mapping[int | str, Piece],
        turn: Color | None = None,
        *,
        king_moves: Mapping[Color, tuple[int | str, int]] | None = None,
    ) -> Position:
        """A position from ``{square: Piece}`` (squares as numbers or names).

        >>> import draughts
        >>> from draughts import Piece, WHITE, BLACK
        >>> draughts.Position.from_pieces("international", {28: Piece(WHITE), 19: Piece(BLACK, king=True)}).fen()
        'W:W28:BK19'

        Args:
            ruleset: The rules (or a variant name).
            pieces: The pieces by square.
            turn: The side to move (default: the ruleset's first player).
            king_moves: Where the ruleset limits consecutive king moves: per side, the square of the
                king that made them and how many (see :meth:`king_moves`).
        """
        rules = get_variant(ruleset)
        tables = build_move_generator(rules).tables
        masks = {Color.WHITE: 0, Color.BLACK: 0}
        kings = 0
        if not isinstance(pieces, Mapping):
            raise TypeError(f"pieces must be a mapping of squares to Piece, not {excerpt(pieces)}")
        for key, piece in pieces.items():
            bit = 1 << tables.bit_of_square[rules.parse_square(key)]
            if not isinstance(piece, Piece):
                raise InvalidPositionError(f"{excerpt(piece)} on square {excerpt(key)} is not a Piece")
            masks[piece.color] |= bit
            if piece.king:
                kings |= bit
        state = 0
        for color, square, count in _king_move_entries(king_moves):
            state |= tables.state.from_square(rules, int(color), square, count)
        return cls._checked(
            rules, masks[Color.WHITE], masks[Color.BLACK], kings, rules.first_to_move if turn is None else turn, state
        )

    @classmethod
    def from_fen(cls, ruleset: Ruleset | str, fen: str) -> Position:
        """Read a PDN 3.0 FEN: ``"W:W31-50:B1-20"``, ``"B:W18,K10:BK1,2"``, ``"W:Wa1,c1,Kd2:Bf6"``.

        Accepted beyond the strict grammar: ranges of kings (``K1-3``), a side with no pieces
        (``"W:W:B1"`` or the side left out), spaces, a trailing dot, lowercase letters, the
        lidraughts ``:H<n>:F<n>`` clocks (read by :class:`~draughts.Board`, ignored here), and, where
        the ruleset limits consecutive king moves, lidraughts' ``:+<count><square>+<count><square>``
        field (Black's count first).

        Raises:
            InvalidFenError: the text does not parse or describes an impossible position; the
                message quotes the FEN and the bad part.
        """
        rules = get_variant(ruleset)
        if not isinstance(fen, str):
            raise InvalidFenError(f"FEN {excerpt(fen)} is not text")
        try:
            return cls._parse_fen(rules, fen)
        except InvalidFenError:
            raise
        except (InvalidPositionError, InvalidSquareError) as error:
            raise InvalidFenError(f"FEN {excerpt(fen)}: {error}") from None

    @classmethod
    def _parse_fen(cls, rules: Ruleset, fen: str) -> Position:
        text = re.sub(r"\s+", "", fen).strip('"').rstrip(".")
        fields = text.split(":")
        turn_text = fields[0].upper()
        if turn_text not in ("W", "B"):
            raise InvalidFenError(
                f"FEN {excerpt(fen)} must start with the side to move, 'W' or 'B', not {excerpt(fields[0])}"
            )
        tables = build_move_generator(rules).tables
        masks: dict[str, int] = {}
        kings = 0
        state = 0
        for field in fields[1:]:
            if not field:
                continue
            tag = field[0].upper()
            if tag in ("H", "F") and field[1:].isdigit():
                continue  # lidraughts halfmove clock / fullmove number
            if tag == FEN_TAG and tables.state.keeps:
                state = tables.state.read_fen_field(rules, fen, field)
                continue
            if tag not in ("W", "B"):
                raise InvalidFenError(f"FEN {excerpt(fen)}: field {excerpt(field)} must start with 'W' or 'B'")
            if tag in masks:
                raise InvalidFenError(f"FEN {excerpt(fen)} lists the {'white' if tag == 'W' else 'black'} pieces twice")
            mask = 0
            for item in field[1:].split(","):
                if not item:
                    continue
                # "K" marks a king; a lowercase "k" does too, unless it begins a square name
                # (file k exists on boards of 11 files or more: "k1" is then a man on k1).
                king = item[0] == "K" or (item[0] == "k" and not _is_square(rules, item))
                for square in _fen_squares(rules, fen, item[1:] if king else item):
                    bit = 1 << tables.bit_of_square[square]
                    if mask & bit or any(other & bit for other in masks.values()):
                        raise InvalidFenError(f"FEN {excerpt(fen)} names square {rules.square_name(square)} twice")
                    mask |= bit
                    if king:
                        kings |= bit
            masks[tag] = mask
        turn = Color.WHITE if turn_text == "W" else Color.BLACK
        return cls._checked(rules, masks.get("W", 0), masks.get("B", 0), kings, turn, state)

    # --- reading the position ---

    def piece_at(self, square: int | str) -> Piece | None:
        """The piece on ``square`` (number or name), or None."""
        bit = 1 << self.tables.bit_of_square[self.ruleset.parse_square(square)]
        if self._white & bit:
            return Piece(Color.WHITE, bool(self._kings & bit))
        if self._black & bit:
            return Piece(Color.BLACK, bool(self._kings & bit))
        return None

    def is_king_at(self, square: int | str) -> bool:
        """Whether a king stands on ``square`` (number or name, as :meth:`piece_at` takes it)."""
        return bool(self._kings >> self.tables.bit_of_square[self.ruleset.parse_square(square)] & 1)

    def pieces(self) -> dict[int, Piece]:
        """``{square: Piece}`` for every piece, by square number."""
        result = {}
        for color, mask in ((Color.WHITE, self._white), (Color.BLACK, self._black)):
            for square in _squares(self.tables, mask):
                bit = 1 << self.tables.bit_of_square[square]
                result[square] = Piece(color, bool(self._kings & bit))
        return dict(sorted(result.items()))

    def squares(self, color: Color, *, kings: bool | None = None) -> list[int]:
        """Sorted squares of ``color``'s pieces: all of them, only kings, or only men."""
        mask = self._white if color is Color.WHITE else self._black
        if kings is True:
            mask &= self._kings
        elif kings is False:
            mask &= ~self._kings
        return _squares(self.tables, mask)

    def material(self, color: Color) -> tuple[int, int]:
        """``(kings, men)`` of ``color``."""
        mask = self._white if color is Color.WHITE else self._black
        kings = (mask & self._kings).bit_count()
        return kings, mask.bit_count() - kings

    def king_moves(self, color: Color) -> tuple[int, int] | None:
        """Where the ruleset limits consecutive king moves (:attr:`~draughts.Ruleset.king_move_limit`):
        the square of ``color``'s king that made the last quiet moves in a row and how many, or None."""
        return self.tables.state.king_moves(self._state, int(color))

    def fen(self, *, numeric: bool = False) -> str:
        """The PDN 3.0 FEN, squares written as the variant writes them (numbers with ``numeric``).

        Squares come in increasing number order, kings with a ``K`` prefix; ranges are not used.
        Where the ruleset limits consecutive king moves and a count is running, lidraughts'
        ``:+<count><square>+<count><square>`` field follows (Black's first).
        """
        name = str if numeric else self.ruleset.square_name
        parts = [self.turn.letter]
        pieces = self.pieces()
        for color in (Color.WHITE, Color.BLACK):
            items = [
                ("K" if piece.king else "") + name(square) for square, piece in pieces.items() if piece.color is color
            ]
            parts.append(color.letter + ",".join(items))
        if self._state:
            parts.append(self.tables.state.fen_field(self._state))
        return ":".join(parts)

    def __repr__(self) -> str:
        return f"Position.from_fen({self.ruleset.name!r}, {self.fen()!r})"

    def __str__(self) -> str:
        return text_diagram(self)

    def _repr_svg_(self) -> str:
        return svg_board(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Position:
            return NotImplemented
        assert isinstance(other, Position)
        return self._same_node(other) and (
            self.ruleset is other.ruleset or self.ruleset == other.ruleset  # the same object, mostly
        )

    def __hash__(self) -> int:
        # The ruleset is left out: equal positions still hash alike, and most tables hold one ruleset.
        return self._node_hash()

    def key(self) -> int:
        """The stable 64-bit Zobrist key (pieces by square number, side to move, rule state), the one
        game databases and opening books index positions by: defined in :mod:`draughts.keys`."""
        from draughts.keys import position_key

        return position_key(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Position.from_bitboards, (self.ruleset, self._white, self._black, self._kings, self.turn, self._state))

    # --- moves ---

    def moves_with_masks(self) -> tuple[tuple[Move, ...], tuple[Compact, ...]]:
        """Low-level: the legal moves in order, and the xor masks each is played with (listed once
        per position)."""
        return self._with_masks()

    def _legal_moves(self) -> tuple[Move, ...]:
        """The legal moves as a tuple (listed once, by the native node)."""
        return self._legal()

    def _all_entries(self, *, paths: bool) -> list[tuple[Move, tuple[int, int, int]]]:
        """Each legal move (each capture path with ``paths``) with its xor masks, in move order.

        Where several capture paths make one move (same start, end and captured set), the move
        carries the path that comes first in square-number order, whatever order the generator
        found them in.
        """
        moves, compacts = self._gen.legal(*self._ints(), paths)
        return list(zip(moves, compacts, strict=True))

    def capture_paths(self) -> tuple[Move, ...]:
        """Low-level: each capture path as a move of its own (moves equal by identity may repeat), in
        move order."""
        return tuple(entry[0] for entry in self._all_entries(paths=True))

    def children(self, *, paths: bool = False) -> list[tuple[Move, Position]]:
        """Low-level: each legal move (each capture path with ``paths``) and the position after it,
        in move order."""
        return [(move, self.child(compact)) for move, compact in self._all_entries(paths=paths)]

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` (matched by identity: start, end, captured set) is legal here."""
        return move in self._legal_moves()

    def has_capture(self) -> bool:
        """Whether the side to move has a legal capture."""
        return any(move.captured for move in self._legal_moves())

    def is_over(self) -> bool:
        """Whether the game has ended here by the rules of play (no legal move, or a won breakthrough);
        draw rules need the game's history: see :meth:`Board.outcome <draughts.Board.outcome>`."""
        return not self._legal_moves()

    def winner(self) -> Color | None:
        """Who has won, if the position ends the game by the rules of play (not by a draw rule).

        In a position without a legal move the side to move loses, or wins where the ruleset says
        so (:attr:`~draughts.Ruleset.no_move_wins`); where crowning wins, the side with a king has won.
        """
        rules = self.ruleset
        if rules.crowning_wins and self._kings:
            return Color.WHITE if self._kings & self._white else Color.BLACK
        if self._legal_moves():
            return None
        return self.turn if rules.no_move_wins else self.turn.opponent

    def _refuse(self, move: object) -> None:
        """Raise the error ``play`` gives for ``move``, which is not a legal move here (the native
        ``play`` calls it)."""
        if not isinstance(move, Move):
            raise InvalidMoveError(f"{excerpt(move)} is not a Move")
        raise IllegalMoveError(f"{move!r} is not legal in {self.fen()} ({self.ruleset.name})")

    def move_index(self, move: object) -> int:
        """Low-level: where ``move`` is in the legal moves (by identity, else equality), or -1."""
        return self._index(move)

    def child(self, masks: Compact) -> Position:
        """Low-level: the position after the move whose xor masks are ``masks`` (one of
        :meth:`moves_with_masks`' second list: checked to fit the position, not for legality)."""
        return self._after_masks(Position, masks)

    def mirror(self) -> Position:
        """The same position with colours swapped and the board turned 180° (side to move swapped)."""
        geo = self.ruleset.geometry
        pieces = {
            geo.rotate(square): Piece(piece.color.opponent, piece.king) for square, piece in self.pieces().items()
        }
        king_moves = {}
        for color in (Color.WHITE, Color.BLACK):
            moves = self.king_moves(color)
            if moves is not None:
                king_moves[color.opponent] = (geo.rotate(moves[0]), moves[1])
        return Position.from_pieces(self.ruleset, pieces, self.turn.opponent, king_moves=king_moves)


def _king_move_entries(king_moves: object) -> list[tuple[Color, Any, Any]]:
    """``from_pieces``' ``king_moves`` as (color, square, count), its shape checked (the values by the caller)."""
    if king_moves is None:
        return []
    entries = []
    for color, entry in king_moves.items() if isinstance(king_moves, Mapping) else [(None, None)]:
        if not isinstance(color, Color) or not isinstance(entry, (tuple, list)) or len(entry) != 2:
            raise InvalidPositionError(
                f"king_moves {excerpt(king_moves)} must map a Color to a (square, count) pair, e.g. {{WHITE: (21, 2)}}"
            )
        entries.append((color, entry[0], entry[1]))
    return entries


def _is_square(rules: Ruleset, text: str) -> bool:
    try:
        rules.parse_square(text)
    except InvalidSquareError:
        return False
    return True


def _fen_squares(rules: Ruleset, fen: str, item: str) -> Iterable[int]:
    if not item:
        raise InvalidFenError(f"FEN {excerpt(fen)} has a 'K' with no square")
    if "-" in item:
        low, _, high = item.partition("-")
        if not (low.isdigit() and high.isdigit()):
            raise InvalidFenError(f"FEN {excerpt(fen)}: range {excerpt(item)} must be two square numbers like '31-50'")
        first, last = rules.parse_square(low), rules.parse_square(high)
        if first > last:
            raise InvalidFenError(f"FEN {excerpt(fen)}: range {excerpt(item)} runs backwards")
        return range(first, last + 1)
    return (rules.parse_square(item),)


_TURNS = (Color.WHITE, Color.BLACK)


def _node(gen: MoveGenerator, white: int, black: int, kings: int, turn: Color, state: int) -> NativeNode:
    """The native node of a position (checked by the node: sides that overlap, pieces off the board)."""
    if turn is Color.WHITE:
        return NativeNode(gen.native, white, black, kings, 0, state)
    return NativeNode(gen.native, black, white, kings, 1, state)


def _initial_node(tables: Tables) -> NativeNode:
    """The node of the tables' ruleset's start position, made once per ruleset (``Position.initial``:
    the cache holds the node, not a position, which would hold the tables that hold the cache)."""
    rules = tables.rules
    white, black = tables.start_men[Color.WHITE], tables.start_men[Color.BLACK]
    return _node(build_move_generator(rules), white, black, 0, rules.first_to_move, 0)


def _position(cls: type[Position], rules: Ruleset, node: NativeNode, gen: MoveGenerator) -> Position:
    """A position the library built itself (already valid): no checks (see ``Position.from_bitboards``)."""
    position: Position = cls._assemble(rules, node, gen)
    return position


# The native members of the per-move path, listed in the class's own namespace as well: the API
# reference and help() document them with the class. ``legal_moves`` and ``play`` are made for this
# class itself (``native/python/src/hot.rs``): read, ``legal_moves`` is the position's LegalMoves;
# called, ``position.legal_moves()`` gives the tuple without making the view; and a method of the
# class itself takes CPython's specialised call (one of the native base does not).
for _native_member in ("play_listed", "child_at"):
    setattr(Position, _native_member, PositionBase.__dict__[_native_member])
_fast_members = {
    "legal_moves": legal_moves_attribute(PositionBase.__dict__["legal_moves"].__doc__),
    "play": fast_method(Position, "play"),
}
for _native_member, _fast in _fast_members.items():
    setattr(Position, _native_member, _fast)
