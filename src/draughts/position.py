"""The immutable position: bitboards, side to move, FEN, legal moves."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import attrs

from draughts._legal import legal_candidates
from draughts._tables import Tables, compile_rules
from draughts._text import excerpt
from draughts.color import Color
from draughts.errors import (
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidSquareError,
)
from draughts.legal import LegalMoves
from draughts.move import Move
from draughts.movegen import Candidate, make_move
from draughts.rules import Ruleset
from draughts.variants import get_variant


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


def _check_masks(rules: Ruleset, tables: Tables, white: int, black: int, kings: int, turn: object) -> None:
    if not isinstance(turn, Color):
        raise InvalidPositionError(f"turn {excerpt(turn)} must be draughts.WHITE or draughts.BLACK")
    for label, mask in (("white", white), ("black", black), ("kings", kings)):
        if isinstance(mask, bool) or not isinstance(mask, int) or mask < 0 or mask & ~tables.board:
            raise InvalidPositionError(f"{label} bitboard {excerpt(mask)} has bits outside the {rules.name} board")
    overlap = white & black
    if overlap:
        raise InvalidPositionError(f"squares {_squares(tables, overlap)} hold both a white and a black piece")
    if kings & ~(white | black):
        raise InvalidPositionError(f"kings on empty squares {_squares(tables, kings & ~(white | black))}")
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


def _squares(tables: Tables, mask: int) -> list[int]:
    squares = []
    while mask:
        low = mask & -mask
        squares.append(tables.square_of_bit[low.bit_length() - 1])
        mask ^= low
    return sorted(squares)


@attrs.frozen(repr=False)
class Position:
    """A draughts position: where the pieces stand and who is to move, under one ruleset.

    Immutable and hashable: :meth:`play` returns a new position. Build positions with
    :meth:`initial`, :meth:`from_fen` or :meth:`from_pieces`; the constructor takes bitboards in
    the internal bit layout (``ruleset.geometry.bits[square]``) and validates them.

    >>> import draughts
    >>> pos = draughts.Position.initial("russian")
    >>> len(pos.legal_moves()), pos.turn
    (7, <Color.WHITE: 0>)
    """

    ruleset: Ruleset
    white: int
    black: int
    kings: int
    turn: Color
    _legal: list[tuple[tuple[Move, ...], dict[Move, Candidate]]] = attrs.field(
        factory=list, init=False, eq=False, repr=False
    )

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.ruleset, Ruleset):
            raise InvalidPositionError(f"ruleset {excerpt(self.ruleset)} is not a Ruleset")
        _check_masks(self.ruleset, self._tables, self.white, self.black, self.kings, self.turn)

    @property
    def _tables(self) -> Tables:
        return compile_rules(self.ruleset)

    # --- construction ---

    @classmethod
    def initial(cls, ruleset: Ruleset | str) -> Position:
        """The start position of ``ruleset`` (a ruleset or a variant name)."""
        rules = get_variant(ruleset)
        tables = compile_rules(rules)
        return cls(rules, tables.start_men[Color.WHITE], tables.start_men[Color.BLACK], 0, rules.first_to_move)

    @classmethod
    def empty(cls, ruleset: Ruleset | str, turn: Color | None = None) -> Position:
        """An empty board with ``turn`` (default: the ruleset's first player) to move."""
        rules = get_variant(ruleset)
        return cls(rules, 0, 0, 0, rules.first_to_move if turn is None else turn)

    @classmethod
    def from_pieces(
        cls,
        ruleset: Ruleset | str,
        pieces: Mapping[int, Piece] | Mapping[str, Piece] | Mapping[int | str, Piece],
        turn: Color | None = None,
    ) -> Position:
        """A position from ``{square: Piece}`` (squares as numbers or names).

        >>> import draughts
        >>> from draughts import Piece, WHITE, BLACK
        >>> draughts.Position.from_pieces("international", {28: Piece(WHITE), 19: Piece(BLACK, king=True)}).fen()
        'W:W28:BK19'
        """
        rules = get_variant(ruleset)
        tables = compile_rules(rules)
        masks = {Color.WHITE: 0, Color.BLACK: 0}
        kings = 0
        for key, piece in pieces.items():
            bit = 1 << tables.bit_of_square[rules.parse_square(key)]
            if not isinstance(piece, Piece):
                raise InvalidPositionError(f"{excerpt(piece)} on square {excerpt(key)} is not a Piece")
            masks[piece.color] |= bit
            if piece.king:
                kings |= bit
        return cls(rules, masks[Color.WHITE], masks[Color.BLACK], kings, rules.first_to_move if turn is None else turn)

    @classmethod
    def from_fen(cls, ruleset: Ruleset | str, fen: str) -> Position:
        """Read a PDN 3.0 FEN: ``"W:W31-50:B1-20"``, ``"B:W18,K10:BK1,2"``, ``"W:Wa1,c1,Kd2:Bf6"``.

        Accepted beyond the strict grammar: ranges of kings (``K1-3``), a side with no pieces
        (``"W:W:B1"`` or the side left out), spaces, a trailing dot, lowercase letters, and the
        lidraughts ``:H<n>:F<n>`` suffixes (ignored).

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
        tables = compile_rules(rules)
        masks: dict[str, int] = {}
        kings = 0
        for field in fields[1:]:
            if not field:
                continue
            tag = field[0].upper()
            if tag in ("H", "F") and field[1:].isdigit():
                continue  # lidraughts halfmove clock / fullmove number
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
        return cls(rules, masks.get("W", 0), masks.get("B", 0), kings, turn)

    # --- reading the position ---

    def piece_at(self, square: int | str) -> Piece | None:
        """The piece on ``square`` (number or name), or None."""
        bit = 1 << self._tables.bit_of_square[self.ruleset.parse_square(square)]
        if self.white & bit:
            return Piece(Color.WHITE, bool(self.kings & bit))
        if self.black & bit:
            return Piece(Color.BLACK, bool(self.kings & bit))
        return None

    def is_king_at(self, square: int) -> bool:
        """Whether a king stands on ``square`` (a number, as moves give them)."""
        return bool(self.kings >> self._tables.bit_of_square[self.ruleset.geometry.check(square)] & 1)

    def pieces(self) -> dict[int, Piece]:
        """``{square: Piece}`` for every piece, by square number."""
        result = {}
        for color, mask in ((Color.WHITE, self.white), (Color.BLACK, self.black)):
            for square in _squares(self._tables, mask):
                bit = 1 << self._tables.bit_of_square[square]
                result[square] = Piece(color, bool(self.kings & bit))
        return dict(sorted(result.items()))

    def squares(self, color: Color, *, kings: bool | None = None) -> list[int]:
        """Sorted squares of ``color``'s pieces: all of them, only kings, or only men."""
        mask = self.white if color is Color.WHITE else self.black
        if kings is True:
            mask &= self.kings
        elif kings is False:
            mask &= ~self.kings
        return _squares(self._tables, mask)

    def fen(self, *, numeric: bool = False) -> str:
        """The PDN 3.0 FEN, squares written as the variant writes them (numbers with ``numeric``).

        Squares come in increasing number order, kings with a ``K`` prefix; ranges are not used.
        """
        name = str if numeric else self.ruleset.square_name
        parts = [self.turn.letter]
        for color in (Color.WHITE, Color.BLACK):
            items = [
                ("K" if piece.king else "") + name(square)
                for square, piece in self.pieces().items()
                if piece.color is color
            ]
            parts.append(color.letter + ",".join(items))
        return ":".join(parts)

    def __repr__(self) -> str:
        return f"Position.from_fen({self.ruleset.name!r}, {self.fen()!r})"

    def __str__(self) -> str:
        from draughts.diagram import text_diagram

        return text_diagram(self)

    def _repr_svg_(self) -> str:
        from draughts.svg import board

        return board(self)

    # --- moves ---

    def _own_opponents(self) -> tuple[int, int]:
        if self.turn is Color.WHITE:
            return self.white, self.black
        return self.black, self.white

    def _moves(self) -> tuple[tuple[Move, ...], dict[Move, Candidate]]:
        if not self._legal:
            own, opponents = self._own_opponents()
            candidates = legal_candidates(self._tables, self.turn, own, opponents, self.kings)
            square = self._tables.square_of_bit
            by_move = {}
            for candidate in candidates:
                move = Move._trusted(
                    square[candidate.start],
                    square[candidate.end],
                    tuple(square[bit] for bit in candidate.captured),
                    tuple(square[bit] for bit in candidate.path),
                    candidate.promotes,
                )
                by_move[move] = candidate
            ordered = tuple(sorted(by_move, key=lambda m: (m.start, m.end, m.path)))
            self._legal.append((ordered, by_move))
        return self._legal[0]

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves, after mandatory capture, precedence and de-duplication.

        A :class:`~draughts.LegalMoves` collection (``len``, ``in``, ``count()``, indexing), ordered by
        start square, end square and path; ``position.legal_moves()`` gives them as a tuple. Computed
        once per position.
        """
        return LegalMoves(self)

    def _legal_moves(self) -> tuple[Move, ...]:
        return self._moves()[0]

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` (matched by identity: start, end, captured set) is legal here."""
        return isinstance(move, Move) and move in self._moves()[1]

    def has_capture(self) -> bool:
        """Whether the side to move has a legal capture."""
        return any(move.captured for move in self._legal_moves())

    def play(self, move: Move) -> Position:
        """The position after ``move``; :class:`IllegalMoveError` if it is not legal here."""
        if not isinstance(move, Move):
            raise InvalidMoveError(f"{excerpt(move)} is not a Move")
        candidate = self._moves()[1].get(move)
        if candidate is None:
            raise IllegalMoveError(f"{excerpt(move)} is not legal in {self.fen()} ({self.ruleset.name})")
        own, opponents = self._own_opponents()
        own, opponents, kings = make_move(own, opponents, self.kings, candidate)
        white, black = (own, opponents) if self.turn is Color.WHITE else (opponents, own)
        return Position(self.ruleset, white, black, kings, self.turn.opponent)

    def mirror(self) -> Position:
        """The same position with colours swapped and the board turned 180° (side to move swapped)."""
        geo = self.ruleset.geometry
        pieces = {
            geo.rotate(square): Piece(piece.color.opponent, piece.king) for square, piece in self.pieces().items()
        }
        return Position.from_pieces(self.ruleset, pieces, self.turn.opponent)


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
