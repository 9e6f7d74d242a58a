"""Comparing variants: their rules side by side, and their legal moves on one position.

Both comparisons are generated from the rulesets, so they are right for any ruleset, named or
user-defined, and never restate a rule in prose:

* :func:`rules_table` -- one row per rule dimension, one column per variant. Each row is a
  :class:`~draughts.Ruleset` field: its label is the field's ``metadata["label"]``, each cell is
  the value written by the formatter for the field's *type* (yes/no for a flag, the enum's own
  text, precedence criteria in words, the draw rules' ``describe()`` ...). A new field appears in
  the table without editing this module.
* :func:`moves_table` -- the legal moves of one position under several variants of one board
  size, side by side, with the moves that are not legal in all of them marked.

>>> from draughts.compare import rules_table
>>> table = rules_table(["italian", "american"], differences_only=True)
>>> table.row("men_capture_kings").cells
('no', 'yes')
>>> table.row("first_to_move").cells
('white', 'black')

Same diagram, different numbers
-------------------------------
A FEN names squares by number, and the numbers of one diagram differ between variants: the
Italian and Spanish boards are inverted (each player's near-left corner is a light square) and
Spanish counts from White's near-right corner. :func:`moves_table` therefore reads the FEN in
*one* variant's numbering -- ``fen_variant``, by default the first variant compared -- turns every
square into its board coordinates (:attr:`Geometry.coords <draughts.rules.geometry.Geometry.coords>`)
and places the pieces on the same coordinates in every other variant
(:meth:`Geometry.square_at <draughts.rules.geometry.Geometry.square_at>`).

An inverted board has no playing square where a normal board has one, so the same physical
diagram cannot be set up on both. For those the diagram is **mirrored left to right** (file ``x``
becomes ``size - 1 - x``, ranks unchanged): each side keeps its home row and its direction of
play, and the mirror image of a legal game is a legal game, so the position is the one a player of
the inverted variant would set up from the printed diagram; the notes say which board is the
inverted one. A board of every square (Turkish) has each square of the others, so nothing is
mirrored against it; a diagram or move that needs a square the other board lacks is refused with
an error. Moves are then compared by where they go on the reference board (start, end and
captured squares mapped back to ``fen_variant``'s numbers), written as ``fen_variant`` writes
them in the first column and in each variant's own notation in its column.
"""

from __future__ import annotations

import enum
import functools
import os
import typing
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from draughts.board import Board
from draughts.color import Color
from draughts.compare.table import Row, Table
from draughts.errors import DraughtsError, InvalidFenError, InvalidPositionError
from draughts.move import Move
from draughts.notation import move_text
from draughts.position import Piece, Position
from draughts.rules import Criterion, Directions, DrawRules, Ruleset
from draughts.rules.geometry import BoardSquares, Numbering
from draughts.rules.names import get_variant

__all__ = [
    "IDENTITY_FIELDS",
    "MoveRow",
    "MovesComparison",
    "Row",
    "Table",
    "format_field",
    "moves_table",
    "rules_table",
]

VariantLike = Ruleset | str
"""A ruleset, or any name :func:`~draughts.get_variant` accepts (``"italian"``, ``"russian-nfc"``)."""

IDENTITY_FIELDS = ("name", "title", "sources")
"""Ruleset fields that name a variant or cite its sources rather than state a rule (not rows)."""


# --- the rules table --------------------------------------------------------------------------

Formatter = Callable[[Any, Ruleset], str]


def _yes_no(value: bool, rules: Ruleset) -> str:
    return "yes" if value else "no"


def _color(value: Color, rules: Ruleset) -> str:
    return str(value)


def _precedence(value: tuple[Criterion, ...], rules: Ruleset) -> str:
    if not value:
        return "free choice"
    return ", then ".join(criterion.value for criterion in value)


def _directions(value: Directions, rules: Ruleset) -> str:
    return value.describe()


def _draw_rules(value: DrawRules, rules: Ruleset) -> str:
    return "; ".join(value.describe()) or "none"


def _numbering(value: Numbering, rules: Ruleset) -> str:
    # The corner's name depends on which squares are playable, so say where 1 and the last square are.
    geometry = rules.geometry
    return f"{value.value} (1 = {geometry.algebraic(1)}, {geometry.squares} = {geometry.algebraic(geometry.squares)})"


def _plain(value: object, rules: Ruleset) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return _yes_no(value, rules)
    if isinstance(value, enum.Enum):
        return str(value.value)
    describe = getattr(value, "describe", None)
    if callable(describe):
        text = describe()
        return "; ".join(map(str, text)) if isinstance(text, list) else str(text)
    if isinstance(value, tuple):
        return ", ".join(_plain(item, rules) for item in value) or "none"
    return str(value)


_TYPE_FORMATTERS: dict[object, Formatter] = {
    bool: _yes_no,
    Color: _color,
    tuple[Criterion, ...]: _precedence,
    Directions: _directions,
    DrawRules: _draw_rules,
    Numbering: _numbering,
}
"""Cell formatter per field type; enums without an entry read as their value text."""

_VIEWS: dict[str, Formatter] = {
    # Two integer fields whose plain number says less than the ruleset's own derived text.
    "board_size": lambda value, rules: rules.shape,
    "pdn_gametype": lambda value, rules: rules.pdn_gametype_tag or "none",
    "king_move_limit": lambda value, rules: "no limit" if value is None else str(value),
}
"""Fields shown through a derived view of the ruleset rather than their bare value."""

_DERIVED: tuple[tuple[str, str, str], ...] = (
    # (after field, key = Ruleset property, label): rows computed from fields, not stored in them.
    ("rows_per_side", "men_per_side", "Men per side"),
)


@functools.cache
def _field_types() -> dict[str, object]:
    """The resolved type of each Ruleset field (the key of :data:`_TYPE_FORMATTERS`)."""
    return typing.get_type_hints(Ruleset)


def format_field(ruleset: Ruleset, name: str) -> str:
    """The cell text of ``ruleset``'s field (or derived property) ``name``, as tables show it.

    >>> import draughts
    >>> format_field(draughts.get_variant("american"), "precedence")
    'free choice'
    >>> format_field(draughts.get_variant("international"), "board_size")
    '10x10'
    """
    value = getattr(ruleset, name)
    view = _VIEWS.get(name)
    if view is not None:
        return view(value, ruleset)
    formatter = _TYPE_FORMATTERS.get(_field_types().get(name, type(value)), _plain)
    return formatter(value, ruleset)


def _rulesets(variants: Iterable[VariantLike] | VariantLike) -> list[Ruleset]:
    if isinstance(variants, (str, Ruleset)):
        variants = [variants]
    rulesets = [get_variant(variant) for variant in variants]
    if not rulesets:
        raise DraughtsError("no variants to compare; give one or more names or rulesets")
    return rulesets


def _rule_keys() -> list[tuple[str, str]]:
    """``(key, label)`` of every row, in field order, derived rows after their field."""
    keys = []
    for field in attrs.fields(Ruleset):
        if field.name in IDENTITY_FIELDS:
            continue
        keys.append((field.name, str(field.metadata.get("label", field.name))))
        keys.extend((key, label) for after, key, label in _DERIVED if after == field.name)
    return keys


def rules_table(
    variants: Iterable[VariantLike] | VariantLike,
    *,
    differences_only: bool = False,
    tablebases: str | os.PathLike[str] | None = None,
) -> Table:
    """The rules of ``variants`` side by side: a row per rule dimension, a column per variant.

    Rows follow the :class:`~draughts.Ruleset` fields (name, title and sources aside), labelled
    with each field's metadata label, plus rows derived from them ("Men per side").

    Args:
        variants: Rulesets or names (aliases, ``"russian-nfc"``, PDN GameTypes); user-defined
            rulesets work as well as named ones.
        differences_only: Keep only the rows where the variants differ (needs two or more).
        tablebases: A directory of endgame tables: add rows computed from the tables built there
            (the fewest kings that beat a lone king from 90% of positions and from all, the won
            share of reference materials; see
            :mod:`draughts.endgame`). None: rules only.

    Raises:
        UnknownVariantError: a name matches no variant.
        DraughtsError: no variants, or ``differences_only`` with fewer than two.
    """
    rulesets = _rulesets(variants)
    if differences_only and len(rulesets) < 2:
        raise DraughtsError(f"differences_only needs two or more variants, got {len(rulesets)}")
    rows = []
    for key, label in _rule_keys():
        row = Row(label, [format_field(rules, key) for rules in rulesets], key=key)
        if differences_only and not row.differs:
            continue
        rows.append(row)
    if tablebases is not None:
        from draughts.endgame.facts import fact_rows  # the tables are optional here

        for key, label, cells in fact_rows(rulesets, tablebases):
            row = Row(label, cells, key=key)
            if not differences_only or row.differs:
                rows.append(row)
    return Table(columns=[rules.name for rules in rulesets], rows=rows, corner="Rule")


# --- the moves comparison ---------------------------------------------------------------------

Identity = tuple[int, int, frozenset[int]]


@attrs.frozen
class MoveRow:
    """One move of a :class:`MovesComparison`, as it stands in each variant.

    Attributes:
        common: The move as the reference variant (``fen_variant``) writes it, in its square
            numbers or names and separators: ``22-18``, ``18x9``, ``d4:b6`` (the whole path when
            start and end alone would be ambiguous).
        identity: ``(start, end, captured squares)`` in the reference numbering.
        moves: Per variant, the legal move in that variant's own numbering, or None.
        texts: Per variant, the move as that variant writes it, or ``""`` where it is not legal.
    """

    common: str
    identity: Identity
    moves: tuple[Move | None, ...]
    texts: tuple[str, ...]

    @property
    def legal_everywhere(self) -> bool:
        """Whether the move is legal in every variant compared."""
        return all(move is not None for move in self.moves)


@attrs.frozen
class MovesComparison:
    """The legal moves of one diagram under several variants (see :func:`moves_table`).

    Attributes:
        fen: The FEN as given.
        reference: The ruleset whose numbering the FEN (and the common column) is written in.
        variants: The rulesets compared, in column order.
        positions: The diagram set up in each variant (in its own numbering).
        mirrored: Per variant, whether the diagram was mirrored left to right (inverted board).
        rows: Every move legal in at least one variant, in reference-numbering order.
    """

    fen: str
    reference: Ruleset
    variants: tuple[Ruleset, ...]
    positions: tuple[Position, ...]
    mirrored: tuple[bool, ...]
    rows: tuple[MoveRow, ...]

    @property
    def differences(self) -> tuple[MoveRow, ...]:
        """The moves that are not legal in every variant."""
        return tuple(row for row in self.rows if not row.legal_everywhere)

    def index(self, ruleset: VariantLike) -> int:
        """The column of ``ruleset`` (a ruleset or a name of one of the compared variants).

        Raises:
            KeyError: not compared here.
        """
        if isinstance(ruleset, Ruleset):
            if ruleset in self.variants:
                return self.variants.index(ruleset)
            raise KeyError(ruleset.name)
        for index, rules in enumerate(self.variants):
            if rules.name == ruleset:
                return index
        target = get_variant(ruleset)
        if target in self.variants:
            return self.variants.index(target)
        raise KeyError(ruleset)

    def moves(self, ruleset: VariantLike) -> tuple[str, ...]:
        """The legal moves of ``ruleset`` as it writes them, in row order."""
        index = self.index(ruleset)
        return tuple(row.texts[index] for row in self.rows if row.moves[index] is not None)

    def common(self, ruleset: VariantLike) -> tuple[str, ...]:
        """The legal moves of ``ruleset`` in the common (reference) notation, in row order."""
        index = self.index(ruleset)
        return tuple(row.common for row in self.rows if row.moves[index] is not None)

    def table(self) -> Table:
        """The comparison as a :class:`Table`: a row per move, a column per variant, then "Legal in"."""
        names = [rules.name for rules in self.variants]
        rows = []
        for row in self.rows:
            where = [name for name, move in zip(names, row.moves, strict=True) if move is not None]
            legal_in = "all" if row.legal_everywhere else ", ".join(where)
            rows.append(Row(row.common, [*row.texts, legal_in], key=row.common, marked=not row.legal_everywhere))
        turn = self.positions[0].turn if self.positions else self.reference.first_to_move
        notes = ["* not legal in every variant"] if self.differences else []
        notes.extend(self._mirror_notes())
        notes.extend(self._start_notes())
        return Table(
            columns=[*names, "Legal in"],
            rows=rows,
            corner=f"Move ({self.reference.name} squares)",
            title=f"Legal moves, {turn} to move: {self.fen} (squares numbered as in {self.reference.name})",
            notes=notes,
        )

    def _mirror_notes(self) -> list[str]:
        """Per mirrored variant: which of the two boards is the inverted one, and what was mirrored."""
        notes = []
        reference = self.reference
        for rules, mirrored in zip(self.variants, self.mirrored, strict=True):
            if not mirrored:
                continue
            inverted = rules if not rules.bottom_left_playable else reference
            normal = reference if inverted is rules else rules
            notes.append(
                f"{inverted.name} plays on an inverted board (its near-left corner is a light square, "
                f"{normal.name}'s a playing square): the {reference.name} diagram is set up mirrored left to "
                f"right in {rules.name}"
            )
        return notes

    def _start_notes(self) -> list[str]:
        """Per variant whose start position is this diagram with the other side to move."""
        notes = []
        for rules, position in zip(self.variants, self.positions, strict=True):
            start = Position.initial(rules)
            if start.turn is not position.turn and start.pieces() == position.pieces():
                notes.append(
                    f"{rules.name}: this is its start diagram, but there {start.turn} moves first; "
                    f"the moves shown are {position.turn}'s"
                )
        return notes

    def to_text(self, *, width: int | None = None, line_width: int = 120) -> str:
        """The comparison as aligned plain text (see :meth:`Table.to_text`)."""
        return self.table().to_text(width=width, line_width=line_width)

    def to_markdown(self) -> str:
        """The comparison as a Markdown table."""
        return self.table().to_markdown()

    def to_html(self) -> str:
        """The comparison as an HTML table."""
        return self.table().to_html()

    def _repr_html_(self) -> str:
        return self.to_html()

    def __str__(self) -> str:
        return self.to_text()


def _square_map(reference: Ruleset, rules: Ruleset) -> tuple[list[int], bool]:
    """``to[ref_square]`` = the square of ``rules`` on the same (or mirrored) coordinates, 0 for none.

    Only two boards of dark squares coloured the other way round are mirrored; a board of every
    square has each square of the other, so its diagram keeps its coordinates (0 marks a square of
    the reference that ``rules`` does not play on).
    """
    ref, geo = reference.geometry, rules.geometry
    dark = ref.board_squares is not BoardSquares.ALL and geo.board_squares is not BoardSquares.ALL
    mirrored = dark and ref.parity != geo.parity
    mapping = [0]
    for x, y in ref.coords[1:]:
        file = ref.width - 1 - x if mirrored else x
        mapping.append(geo.square_at(file, y) if geo.is_playable(file, y) else 0)
    return mapping, mirrored


def _setup(rules: Ruleset, position: Position, to_rules: list[int], fen_text: str) -> Position:
    """The reference ``position``'s diagram on ``rules``'s board (squares mapped by ``to_rules``)."""
    placed: dict[int, Piece] = {}
    for square, piece in position.pieces().items():
        if not to_rules[square]:
            name = position.ruleset.square_name(square)
            raise InvalidFenError(
                f"FEN {fen_text!r} cannot be set up in {rules.name}: {name} is not one of its playing squares"
            )
        placed[to_rules[square]] = piece
    try:
        return Position.from_pieces(rules, placed, position.turn)
    except InvalidPositionError as error:
        raise InvalidFenError(f"FEN {fen_text!r} cannot be set up in {rules.name}: {error}") from None


def _reference_position(source: str | Position | Board, fen_variant: VariantLike | None, first: Ruleset) -> Position:
    if isinstance(source, Board):
        source = source.position
    if isinstance(source, Position):
        if fen_variant is not None and get_variant(fen_variant) != source.ruleset:
            raise DraughtsError(
                f"fen_variant {get_variant(fen_variant).name!r} contradicts the position's ruleset "
                f"{source.ruleset.name!r}"
            )
        return source
    reference = first if fen_variant is None else get_variant(fen_variant)
    return Position.from_fen(reference, source)


def _common_text(reference: Ruleset, path: Sequence[int], captures: bool) -> str:
    """The move written as ``reference`` writes it (its separators and square names)."""
    separator = reference.capture_separator if captures else reference.move_separator
    return separator.join(reference.square_name(square) for square in path)


def moves_table(
    fen: str | Position | Board,
    variants: Iterable[VariantLike] | VariantLike,
    *,
    fen_variant: VariantLike | None = None,
) -> MovesComparison:
    """The legal moves of one diagram in each of ``variants``, side by side.

    The FEN is read in the numbering of ``fen_variant`` (default: the first of ``variants``);
    a :class:`~draughts.Position` or :class:`~draughts.Board` may be given instead, read in its
    own ruleset. The pieces then go on the same board coordinates in every variant, mirrored left
    to right on a board of the other square colour (Italian and Spanish boards against the
    others), as the module docstring explains. Moves are matched by where they start, end and
    what they capture on that common board.

    >>> from draughts.compare import moves_table
    >>> comparison = moves_table("W:W22:B18", ["american", "italian"], fen_variant="american")
    >>> comparison.moves("american"), comparison.moves("italian")
    (('22x15',), ('23x14',))

    Args:
        fen: The position: a FEN (numbers, or algebraic names where the numbering variant
            accepts them), a Position or a Board.
        variants: Rulesets or names, all of one board size.
        fen_variant: The variant whose numbering the FEN is written in.

    Raises:
        DraughtsError: variants of different board sizes, or ``fen_variant`` of another size.
        InvalidFenError: the FEN does not parse, or its diagram is impossible in one variant.
    """
    rulesets = _rulesets(variants)
    position = _reference_position(fen, fen_variant, rulesets[0])
    reference = position.ruleset
    other_sizes = [rules for rules in rulesets if rules.shape != reference.shape]
    if other_sizes:
        listed = ", ".join(f"{rules.name} is {rules.shape}" for rules in other_sizes)
        raise DraughtsError(
            f"cannot compare moves across board sizes: the position is on {reference.shape} "
            f"({reference.name}) but {listed}"
        )
    fen_text = fen if isinstance(fen, str) else position.fen()
    positions: list[Position] = []
    mirrors: list[bool] = []
    by_variant: list[dict[Identity, tuple[Move, str, tuple[int, ...]]]] = []
    for rules in rulesets:
        to_rules, mirrored = _square_map(reference, rules)
        back = {square: ref_square for ref_square, square in enumerate(to_rules) if square}
        here = _setup(rules, position, to_rules, fen_text)
        moves = {}
        for move in here.legal_moves():
            if not all(square in back for square in (*move.path, *move.captured)):
                raise DraughtsError(
                    f"cannot compare moves of {rules.name} in {reference.name}'s numbering: "
                    f"{move_text(here, move)} goes over squares {reference.name} does not play on "
                    f"(give a variant that plays on every square first, or as fen_variant)"
                )
            identity = (back[move.start], back[move.end], frozenset(back[square] for square in move.captured))
            moves[identity] = (move, move_text(here, move), tuple(back[square] for square in move.path))
        positions.append(here)
        mirrors.append(mirrored)
        by_variant.append(moves)
    identities = sorted(
        {identity for moves in by_variant for identity in moves},
        key=lambda identity: (identity[0], identity[1], sorted(identity[2])),
    )
    rows = []
    for identity in identities:
        start, end, captured = identity
        ambiguous = any(other[:2] == (start, end) and other != identity for other in identities)
        path = next(moves[identity][2] for moves in by_variant if identity in moves)
        common = _common_text(reference, path if ambiguous else (start, end), bool(captured))
        found = [moves.get(identity) for moves in by_variant]
        rows.append(
            MoveRow(
                common=common,
                identity=identity,
                moves=tuple(item[0] if item else None for item in found),
                texts=tuple(item[1] if item else "" for item in found),
            )
        )
    return MovesComparison(
        fen=fen_text,
        reference=reference,
        variants=tuple(rulesets),
        positions=tuple(positions),
        mirrored=tuple(mirrors),
        rows=tuple(rows),
    )
