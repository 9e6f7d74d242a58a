"""The declarative ruleset: every rule of a draughts variant as one typed field.

A :class:`Ruleset` holds data only. The move generator, the capture-priority resolver, FEN,
notation and everything else read these fields; no code outside this module and
:mod:`draughts.rules.variants` asks which variant it is playing. A new variant is a new ruleset::

    >>> import attrs, draughts
    >>> frisian64 = attrs.evolve(draughts.get_variant("frisian"), name="frisian-64", title="Frisian on 8x8",
    ...                          board_size=8, rows_per_side=3, pdn_gametype=None)
    >>> frisian64.flying_kings, frisian64.squares, frisian64.men_per_side
    (True, 32, 12)

Each field carries a human ``label`` in its attrs metadata (``attrs.fields(Ruleset).x.metadata``)
so comparison tables and documentation are generated from the fields, never written twice.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, NamedTuple

import attrs

from draughts._text import excerpt
from draughts.color import Color
from draughts.errors import InvalidRulesetError, InvalidSquareError
from draughts.rules import geometry as board
from draughts.rules.geometry import LARGEST_BOARD, BoardSquares, Geometry, Numbering, SquareNames, geometry

__all__ = [
    "SEPARATORS",
    "CaptureFacts",
    "CapturePromotion",
    "CapturedRemoval",
    "Criterion",
    "Directions",
    "DrawRules",
    "EndgameRule",
    "KingLanding",
    "KingRange",
    "KingsEarliest",
    "Material",
    "MostKings",
    "MostPieces",
    "MostValue",
    "MoveCountRule",
    "Precedence",
    "ResultNotation",
    "Ruleset",
    "WithKing",
]


class KingRange(enum.Enum):
    """How far a king moves and captures."""

    SHORT = "short"
    """One square; a capture jumps an adjacent piece and lands directly behind it."""
    FLYING = "flying"
    """Any distance along a free diagonal; a capture may land on any free square beyond the piece
    (but must land where the capture continues, if it can)."""


class CapturePromotion(enum.Enum):
    """What happens when a man reaches its crowning row in the middle of a capture."""

    ENDS_MOVE = "ends the move"
    """The capture stops on the crowning row and the man is crowned (Italian, English, Spanish,
    Czech; where men capture only forward it could not go on anyway)."""
    CONTINUES_AS_KING = "continues as a king"
    """The man is crowned at once and, if it can, must go on capturing as a king (Russian)."""
    ONLY_AT_END = "crowned only if the capture ends there"
    """The man goes on capturing as a man if it can and is crowned only if the whole capture ends
    on the crowning row (International FMJD 4.15, Brazilian CBD 13)."""


class CapturedRemoval(enum.Enum):
    """When captured pieces leave the board."""

    END_OF_MOVE = "at the end of the move"
    """The official rule of every federation ("Turkish strike"): captured pieces stay until the
    capture is complete, block the way and cannot be jumped twice."""
    IMMEDIATE = "at once"
    """Each captured piece is lifted as it is jumped, as some casual rule pages describe, so its
    square is free for the rest of the capture."""


class Directions(enum.Flag):
    """Directions a piece moves or captures in, seen from its owner (forward = towards the
    opponent). Combine them with ``|``: ``Directions.DIAGONAL_FORWARD | Directions.ORTHOGONAL_SIDEWAYS``.

    On a board of dark squares only, an orthogonal step goes to the next dark square along the row
    or column, two squares away (Frisian captures: over ``n ± 1`` to ``n ± 2`` along a row of the
    numbering, over ``n ± 10`` to ``n ± 20`` along a column of the 10x10 board); on a board that
    uses every square it goes to the neighbouring square.
    """

    DIAGONAL_FORWARD = enum.auto()
    """The two diagonal steps towards the opponent."""
    DIAGONAL_BACKWARD = enum.auto()
    """The two diagonal steps towards the own side."""
    ORTHOGONAL_FORWARD = enum.auto()
    """Straight ahead along the column."""
    ORTHOGONAL_SIDEWAYS = enum.auto()
    """Left and right along the row."""
    ORTHOGONAL_BACKWARD = enum.auto()
    """Straight back along the column."""

    DIAGONAL = DIAGONAL_FORWARD | DIAGONAL_BACKWARD
    ORTHOGONAL = ORTHOGONAL_FORWARD | ORTHOGONAL_SIDEWAYS | ORTHOGONAL_BACKWARD
    ALL = DIAGONAL | ORTHOGONAL

    def describe(self) -> str:
        """The directions in words (``"diagonal"``, ``"diagonal forward, orthogonal sideways"``)."""
        for whole, text in (
            (Directions.ALL, "all eight"),
            (Directions.DIAGONAL, "diagonal"),
            (Directions.ORTHOGONAL, "orthogonal"),
        ):
            if self == whole:
                return text
        return (
            ", ".join(str(part.name).lower().replace("_", " ") for part in _DIRECTION_PARTS if part in self) or "none"
        )


_DIRECTION_PARTS = (
    Directions.DIAGONAL_FORWARD,
    Directions.DIAGONAL_BACKWARD,
    Directions.ORTHOGONAL_FORWARD,
    Directions.ORTHOGONAL_SIDEWAYS,
    Directions.ORTHOGONAL_BACKWARD,
)


class KingLanding(enum.Enum):
    """Where a flying king may stop after jumping a piece."""

    ANYWHERE = "anywhere beyond the captured piece"
    """Any free square beyond it (but where the capture continues, if it can from some): FMJD 4.12."""
    DIRECTLY_BEHIND = "directly behind the captured piece"
    """Only the square right behind each captured piece (Thai draughts)."""
    BEHIND_LAST_KING = "directly behind a king taken last"
    """Anywhere, except that a capture whose last captured piece is a king ends directly behind
    that king (Killer draughts)."""


class CaptureFacts(NamedTuple):
    """What a precedence criterion may compare about one capture: ``pieces`` captured, ``kings``
    among them, ``with_king`` (whether the capturing piece was a king when the move began) and
    ``order`` (for each captured piece in capture order, whether it was a king; filled only when a
    criterion of the ruleset sets ``needs_order``, otherwise empty)."""

    pieces: int
    kings: int
    with_king: bool
    order: tuple[bool, ...] = ()


@attrs.frozen
class Criterion:
    """One criterion of the capture-priority rule: a key on :class:`CaptureFacts`, larger preferred.

    A ruleset lists its criteria in order of importance; only the captures with the best tuple of
    keys are legal. A new criterion is a new subclass with :meth:`key` and ``label``.
    """

    label: ClassVar[str] = ""
    needs_order: ClassVar[bool] = False
    """Whether :meth:`key` reads :attr:`CaptureFacts.order`."""

    def key(self, capture: CaptureFacts) -> Any:
        """The value this criterion gives ``capture`` (larger is preferred)."""
        raise NotImplementedError

    def weights(self) -> tuple[int, int] | None:
        """``(man, king)`` when :meth:`key` is the total of these over the pieces captured (a man
        worth ``man``, a king ``king``, none below 0), else None.

        The capture search reads it off a ruleset's first criterion: a capture that cannot reach
        the best total already found can never be legal, so the search stops following it (exact,
        and it makes floods of captures short). A subclass that changes :meth:`key` says so here
        too; the search checks the two against each other and ignores weights that disagree.
        """
        return None

    @property
    def value(self) -> str:
        """The criterion in words (as tables show it)."""
        return self.label

    def __str__(self) -> str:
        return self.value


@attrs.frozen
class MostPieces(Criterion):
    """Capture the largest number of pieces (a king counts one)."""

    label: ClassVar[str] = "most pieces"

    def key(self, capture: CaptureFacts) -> int:
        return capture.pieces

    def weights(self) -> tuple[int, int]:
        return (1, 1)


@attrs.frozen
class WithKing(Criterion):
    """Capture with a king rather than with a man (alone: the Czech rule "a king must capture if
    one can"; after a value criterion: Frisian's "a king capturer wins ties")."""

    label: ClassVar[str] = "with a king"

    def key(self, capture: CaptureFacts) -> bool:
        return capture.with_king


@attrs.frozen
class MostKings(Criterion):
    """Capture the largest number of kings."""

    label: ClassVar[str] = "most kings"

    def key(self, capture: CaptureFacts) -> int:
        return capture.kings

    def weights(self) -> tuple[int, int]:
        return (0, 1)


@attrs.frozen
class KingsEarliest(Criterion):
    """Capture the sequence that meets a king earliest: the king/man pattern of the captured pieces
    in capture order is compared lexicographically, king before man (FID 6.9)."""

    label: ClassVar[str] = "kings met earliest"
    needs_order: ClassVar[bool] = True

    def key(self, capture: CaptureFacts) -> tuple[bool, ...]:
        return capture.order


def _weight(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidRulesetError(f"{attribute.name} {excerpt(value)} must be a positive whole number")


@attrs.frozen
class MostValue(Criterion):
    """Capture the largest total value, a man worth ``man`` and a king ``king``.

    Frisian (official rules 2011, art. 11): a king is worth more than a man and less than two;
    n kings are worth less than 2n men and more than 2n-1 men, which ``man=100, king=199`` states
    exactly for any capture of fewer than 100 kings.
    """

    man: int = attrs.field(default=1, validator=_weight)
    king: int = attrs.field(default=2, validator=_weight)

    @property
    def value(self) -> str:
        return f"most value (man {self.man}, king {self.king})"

    def key(self, capture: CaptureFacts) -> int:
        return (capture.pieces - capture.kings) * self.man + capture.kings * self.king

    def weights(self) -> tuple[int, int]:
        return (self.man, self.king)


class Precedence:
    """The usual criteria, by name: ``precedence=(Precedence.MOST_PIECES, Precedence.MOST_KINGS)``."""

    MOST_PIECES: ClassVar[Criterion] = MostPieces()
    WITH_KING: ClassVar[Criterion] = WithKing()
    MOST_KINGS: ClassVar[Criterion] = MostKings()
    KINGS_EARLIEST: ClassVar[Criterion] = KingsEarliest()


def _bool(instance: object, attribute: attrs.Attribute[bool], value: bool) -> None:
    if not isinstance(value, bool):
        raise InvalidRulesetError(f"{attribute.name} {excerpt(value)} must be True or False")


class ResultNotation(enum.Enum):
    """How results are written in PDN (PDN 3.0 result types)."""

    DEFAULT = "1-0 / 1/2-1/2 / 0-1"
    """``1-0``, ``0-1``, ``1/2-1/2``."""
    INTERNATIONAL = "2-0 / 1-1 / 0-2"
    """``2-0``, ``0-2``, ``1-1`` (International and Canadian draughts)."""


Material = tuple[int, int]
"""One side's material as ``(kings, men)``."""


def _tuple_of(value: Any, field: str, expected: str, item: Callable[[Any], Any]) -> tuple[Any, ...]:
    """``value`` as a tuple whose items ``item`` checks (and may convert): it returns the item, or
    None for a bad one. Errors name the field and quote the bad value."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise InvalidRulesetError(f"{field} {excerpt(value)} must be a sequence of {expected}")
    out = []
    for element in value:
        checked = item(element)
        if checked is None:
            raise InvalidRulesetError(f"{field}: {excerpt(element)} is not {expected}")
        out.append(checked)
    return tuple(out)


def _instance(kind: type) -> Callable[[Any], Any]:
    return lambda value: value if isinstance(value, kind) else None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _material(value: Any) -> Material | None:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        return None
    items = tuple(value)
    if len(items) != 2 or _count(items[0]) is None or _count(items[1]) is None:
        return None
    return items[0], items[1]


def _materials(value: Any) -> tuple[Material, ...]:
    return _tuple_of(value, "material", "a (kings, men) pair of counts", _material)


def _counts(value: Any) -> tuple[int, ...]:
    return _tuple_of(value, "total_pieces", "a count of pieces", _count)


def _text(instance: object, attribute: attrs.Attribute[str], value: object) -> None:
    if not isinstance(value, str):
        raise InvalidRulesetError(f"{attribute.name} {excerpt(value)} must be text")


def _non_negative(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    if _count(value) is None:
        raise InvalidRulesetError(f"{attribute.name} {excerpt(value)} must be a number from 0 up")


def _positive(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidRulesetError(f"{attribute.name} {excerpt(value)} must be a positive number")


@attrs.frozen
class MoveCountRule:
    """A draw after ``moves`` moves by each player in which none of the resetting events happened.

    Counted in plies (``2 * moves``), from the last move that captured, moved a man or crowned
    one, as the flags say.

    Attributes:
        moves: Moves by each player.
        reset_by_man_move: A man's move starts the count again.
        reset_by_capture: A capture starts the count again.
        reset_by_promotion: A crowning starts the count again.
        claim: The draw must be claimed (:meth:`~draughts.Board.can_claim_draw`), it does not end
            the game by itself.
        article: The rule text this encodes.
    """

    moves: int = attrs.field(validator=_positive)
    reset_by_man_move: bool = attrs.field(default=True, validator=_bool)
    reset_by_capture: bool = attrs.field(default=True, validator=_bool)
    reset_by_promotion: bool = attrs.field(default=False, validator=_bool)
    claim: bool = attrs.field(default=False, validator=_bool)
    article: str = attrs.field(default="", validator=_text)

    def describe(self) -> str:
        """The rule in words."""
        events = [
            text
            for flag, text in (
                (self.reset_by_man_move, "no man moved"),
                (self.reset_by_capture, "no capture"),
                (self.reset_by_promotion, "no crowning"),
            )
            if flag
        ]
        claim = " (on claim)" if self.claim else ""
        return f"{self.moves} moves each with {' and '.join(events) or 'anything'}{claim}"


@attrs.frozen
class EndgameRule:
    """A draw when a material balance has lasted ``moves`` moves by each player without a win.

    The count starts when the balance arises (the capture or crowning that creates it) and is
    counted in plies (``2 * moves``); 0 draws as soon as the balance arises. Conditions left empty
    match anything.

    Attributes:
        moves: Moves by each player the balance may last (0: none).
        strong: Material of the stronger side, each ``(kings, men)``.
        weak: Material of the weaker side, each ``(kings, men)``.
        strong_min_kings: The stronger side has at least this many kings (and any men).
        total_pieces: Numbers of pieces on the board the rule applies to.
        both_have_kings: The rule applies only while both sides have a king.
        weak_king_on_main_diagonal: The weaker side's lone king stands on the long diagonal.
        no_shot: The rule applies only while the side to move can neither capture nor is bound to
            be captured after its move (some move leaves the opponent no capture): Frisian art. 21.
        article: The rule text this encodes.
    """

    moves: int = attrs.field(validator=_non_negative)
    strong: tuple[Material, ...] = attrs.field(default=(), converter=_materials)
    weak: tuple[Material, ...] = attrs.field(default=(), converter=_materials)
    strong_min_kings: int = attrs.field(default=0, validator=_non_negative)
    total_pieces: tuple[int, ...] = attrs.field(default=(), converter=_counts)
    both_have_kings: bool = attrs.field(default=False, validator=_bool)
    weak_king_on_main_diagonal: bool = attrs.field(default=False, validator=_bool)
    no_shot: bool = attrs.field(default=False, validator=_bool)
    article: str = attrs.field(default="", validator=_text)

    def describe(self) -> str:
        """The rule in words."""

        def material(items: tuple[Material, ...]) -> str:
            return " or ".join(_material_text(kings, men) for kings, men in items)

        parts = []
        strong = material(self.strong)
        if self.strong_min_kings:
            strong = f"{self.strong_min_kings} or more kings"
        if strong or self.weak:
            parts.append(f"{strong or 'anything'} against {material(self.weak) or 'anything'}")
        if self.weak_king_on_main_diagonal:
            parts.append("the lone king on the long diagonal")
        if self.total_pieces:
            parts.append(f"{' or '.join(map(str, self.total_pieces))} pieces")
        if self.both_have_kings:
            parts.append("both sides with kings")
        if self.no_shot:
            parts.append("no capture for or against the side to move")
        when = f"after {self.moves} moves each" if self.moves else "at once"
        return f"{', '.join(parts)}: drawn {when}"


def _material_text(kings: int, men: int) -> str:
    items = []
    if kings:
        items.append(f"{kings} kings" if kings > 1 else "a king")
    if men:
        items.append(f"{men} men" if men > 1 else "a man")
    return " + ".join(items) or "nothing"


def _move_counts(value: Any) -> tuple[MoveCountRule, ...]:
    return _tuple_of(value, "move_counts", "a MoveCountRule", _instance(MoveCountRule))


def _endgames(value: Any) -> tuple[EndgameRule, ...]:
    return _tuple_of(value, "endgames", "an EndgameRule", _instance(EndgameRule))


def _repetitions(instance: object, attribute: attrs.Attribute[int | None], value: int | None) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 2):
        raise InvalidRulesetError(f"repetitions {excerpt(value)} must be None or a number from 2 up")


_THREE: int | None = 3


@attrs.frozen
class DrawRules:
    """The rules that end a game in a draw (agreement aside). Win and loss need no data: a player
    with no legal move (no pieces, or all blocked) loses in every variant.

    Attributes:
        repetitions: The same position with the same side to move for this many times draws
            (None: no repetition rule).
        repetition_claim: The repetition draw must be claimed.
        move_counts: Move-count rules (king-only moves, no progress).
        endgames: Endgame rules on material balances.
        notes: Choices made where the sources are unclear.
    """

    repetitions: int | None = attrs.field(default=_THREE, validator=_repetitions)
    repetition_claim: bool = attrs.field(default=False, validator=_bool)
    move_counts: tuple[MoveCountRule, ...] = attrs.field(default=(), converter=_move_counts)
    endgames: tuple[EndgameRule, ...] = attrs.field(default=(), converter=_endgames)
    notes: str = attrs.field(default="", eq=False, validator=_text)

    def describe(self) -> list[str]:
        """Each rule in words."""
        lines = []
        if self.repetitions:
            claim = " (on claim)" if self.repetition_claim else ""
            lines.append(f"the same position {self.repetitions} times{claim}")
        lines.extend(rule.describe() for rule in self.move_counts)
        lines.extend(rule.describe() for rule in self.endgames)
        return lines


def _precedence_tuple(value: Any) -> tuple[Criterion, ...]:
    return _tuple_of(value, "precedence", "a precedence Criterion", _instance(Criterion))


def _text_tuple(value: Any) -> tuple[str, ...]:
    return _tuple_of(value, "sources", "text", _instance(str))


def _label(text: str, **extra: Any) -> dict[str, Any]:
    return {"label": text, **extra}


def _check_precedence(
    instance: Ruleset, attribute: attrs.Attribute[tuple[Criterion, ...]], value: tuple[Criterion, ...]
) -> None:
    if len(set(value)) != len(value):
        raise InvalidRulesetError(f"precedence {excerpt(value)} lists a criterion twice")


def _directions(instance: Ruleset, attribute: attrs.Attribute[Directions], value: object) -> None:
    if not isinstance(value, Directions):
        raise InvalidRulesetError(f"{attribute.name} {excerpt(value)} must be Directions (e.g. Directions.DIAGONAL)")
    if not value:
        raise InvalidRulesetError(f"{attribute.name} names no direction")


LARGEST_KING_MOVE_LIMIT = 2**40 - 1  # the native rule state counts a side's king moves in 40 bits


def _check_limit(instance: Ruleset, attribute: attrs.Attribute[int | None], value: object) -> None:
    if value is not None and not (type(value) is int and 1 <= value <= LARGEST_KING_MOVE_LIMIT):
        raise InvalidRulesetError(f"{attribute.name} {excerpt(value)} must be None or 1 to {LARGEST_KING_MOVE_LIMIT:,}")


SEPARATORS = ("-", "x", ":")
"""The characters a ruleset may write between the squares of a move: the ones the move-text reader
(:func:`~draughts.notation.parse_move`) and the PDN reader split moves on (PDN 3.0 writes ``-``
and ``x``, Russian PDN ``:``). Any other character would be written in text that cannot be read
back, so the constructor refuses it."""

_FILES = "abcdefghijklmnopqrstuvwxyz"[:LARGEST_BOARD]
"""The file letters of algebraic square names, ``a`` on the left; a board of n files uses n of them."""


def _check_separator(instance: Ruleset, attribute: attrs.Attribute[str], value: str) -> None:
    if not isinstance(value, str) or value not in SEPARATORS:
        choices = ", ".join(repr(separator) for separator in SEPARATORS)
        raise InvalidRulesetError(
            f"{attribute.name} {excerpt(value)} must be one of {choices}: the separators move text is read with"
        )


def _check_separators(rules: Ruleset) -> None:
    """The two separators differ and neither is a file letter of the board's algebraic names."""
    if rules.move_separator == rules.capture_separator:
        raise InvalidRulesetError(
            f"move_separator and capture_separator are both {rules.move_separator!r}; they must differ"
        )
    if rules.square_names is not SquareNames.ALGEBRAIC:
        return  # numbers hold no letters (the PDN reader turns only algebraic moves: 1x13 stays numbers)
    files = _FILES[: rules.width]
    for name, separator in (("move_separator", rules.move_separator), ("capture_separator", rules.capture_separator)):
        if separator in files:
            raise InvalidRulesetError(
                f"{name} {separator!r} is also a file letter of the {rules.shape} "
                f"board's algebraic names (a-{files[-1]}), so its move text could not be read back; use ':' or '-'"
            )


def _enum(kind: type) -> Any:
    """Validator that a field holds an instance of ``kind`` (an enum or a rules class)."""

    def check(instance: Ruleset, attribute: attrs.Attribute[Any], value: Any) -> None:
        if not isinstance(value, kind):
            raise InvalidRulesetError(f"{attribute.name} {excerpt(value)} must be a {kind.__name__}")

    return check


@attrs.frozen(cache_hash=True)
class Ruleset:
    """The complete rules of one draughts variant, as data.

    Rulesets are frozen and hashable: derive new ones with :func:`attrs.evolve`, and use them as
    dictionary keys (compiled tables are cached per ruleset). The constructor validates the fields
    and raises :class:`~draughts.InvalidRulesetError` for impossible combinations.

    Attributes:
        name: Short identifier (``"russian"``); :func:`~draughts.get_variant` finds named variants by it.
        title: Human name (``"Russian draughts"``).
        board_size: Squares per side of a square board (an even number; 8, 10, 12 ...), or
            ``(width, height)`` for a rectangle (``(10, 8)``, Spantsiretti's 80-square board). A
            square pair is stored as its side. Read ``width`` and ``height`` in code.
        board_squares: Played on the dark squares only, or on every square (Turkish).
        bottom_left_playable: Whether each player's near-left corner is a playing square (False for
            the inverted Italian and Spanish boards; PDN's invert flag is its negation). Always
            True on a board of every square.
        rows_per_side: Rows of men each side sets up (3 on 8x8, 4 in International).
        men_start_row: The row, counted from each player's side, of the first row of men (2 in
            Turkish draughts, whose back row starts empty).
        first_to_move: The side that makes the first move (Black in English checkers).
        men_move: The directions of a man's quiet step.
        men_capture: The directions a man captures in (``Directions.DIAGONAL`` where men capture
            backward).
        men_capture_kings: Whether men may capture kings (False in Italian).
        king_range: Short kings (one square) or flying kings (any distance).
        kings_move: The directions of a king's quiet move.
        kings_capture: The directions a king captures in.
        king_landing: Where a flying king stops after each captured piece.
        capture_promotion: What a man reaching the crowning row in the middle of a capture does.
        capture_mandatory: Whether a player who can capture must capture. Once begun, a capture is
            always completed.
        precedence: The capture-priority criteria in order of importance; empty = free choice
            among captures.
        captured_removal: When captured pieces leave the board (official rule: at the end of the move).
        capture_reversal: Whether a flying king may turn back 180° between two jumps (possible only
            where captured pieces leave at once; the Turkish rules forbid it).
        king_move_limit: At most this many quiet moves in a row with the same king while its side
            still has men (Frisian: 3); None for no limit; at most 2**40 - 1. Positions carry the count.
        no_move_wins: A player with no legal move wins instead of losing (losing draughts).
        crowning_wins: Crowning a man wins the game (breakthrough).
        numbering: Where square 1 is, seen from White.
        square_names: Whether players write square numbers or algebraic names.
        move_separator: Separator of a quiet move in notation (``-``): one of
            :data:`~draughts.rules.ruleset.SEPARATORS`.
        capture_separator: Separator of a capture in notation (``x``, or ``:`` in Russian): one of
            :data:`~draughts.rules.ruleset.SEPARATORS`, not the move separator, and not a file letter of algebraic names
            (``x`` is the 24th file, so algebraic boards of 24 or 26 files capture with ``:``).
        draw_rules: Repetition, move-count and endgame draw rules.
        result_notation: How PDN writes results in this variant.
        pdn_gametype: PDN 3.0 GameType number, or None for a variant PDN does not know.
        sources: The rule texts this ruleset encodes (not part of equality).
    """

    name: str = attrs.field(metadata=_label("Name"))
    title: str = attrs.field(metadata=_label("Variant"))
    board_size: int | tuple[int, int] = attrs.field(
        default=8, converter=board.stored_size, validator=board.check_size, metadata=_label("Board size")
    )
    board_squares: BoardSquares = attrs.field(
        default=BoardSquares.DARK, validator=_enum(BoardSquares), metadata=_label("Played on")
    )
    bottom_left_playable: bool = attrs.field(
        default=True, validator=_bool, metadata=_label("Near-left corner is a playing square")
    )
    rows_per_side: int = attrs.field(default=3, validator=_positive, metadata=_label("Rows of men per side"))
    men_start_row: int = attrs.field(default=1, validator=_positive, metadata=_label("Men start from row"))
    first_to_move: Color = attrs.field(default=Color.WHITE, validator=_enum(Color), metadata=_label("Who starts"))
    men_move: Directions = attrs.field(
        default=Directions.DIAGONAL_FORWARD, validator=_directions, metadata=_label("Men move")
    )
    men_capture: Directions = attrs.field(
        default=Directions.DIAGONAL_FORWARD, validator=_directions, metadata=_label("Men capture")
    )
    men_capture_kings: bool = attrs.field(default=True, validator=_bool, metadata=_label("Men may capture kings"))
    king_range: KingRange = attrs.field(
        default=KingRange.SHORT, validator=_enum(KingRange), metadata=_label("Kings move")
    )
    kings_move: Directions = attrs.field(
        default=Directions.DIAGONAL, validator=_directions, metadata=_label("Kings move along")
    )
    kings_capture: Directions = attrs.field(
        default=Directions.DIAGONAL, validator=_directions, metadata=_label("Kings capture along")
    )
    king_landing: KingLanding = attrs.field(
        default=KingLanding.ANYWHERE, validator=_enum(KingLanding), metadata=_label("A flying king stops")
    )
    capture_promotion: CapturePromotion = attrs.field(
        default=CapturePromotion.ENDS_MOVE,
        validator=_enum(CapturePromotion),
        metadata=_label("Reaching the crowning row during a capture"),
    )
    capture_mandatory: bool = attrs.field(default=True, validator=_bool, metadata=_label("Capture is mandatory"))
    precedence: tuple[Criterion, ...] = attrs.field(
        default=(), converter=_precedence_tuple, validator=_check_precedence, metadata=_label("Capture precedence")
    )
    captured_removal: CapturedRemoval = attrs.field(
        default=CapturedRemoval.END_OF_MOVE,
        validator=_enum(CapturedRemoval),
        metadata=_label("Captured pieces are removed"),
    )
    capture_reversal: bool = attrs.field(default=True, validator=_bool, metadata=_label("A capture may turn back 180°"))
    king_move_limit: int | None = attrs.field(
        default=None, validator=_check_limit, metadata=_label("Quiet moves in a row by one king")
    )
    no_move_wins: bool = attrs.field(default=False, validator=_bool, metadata=_label("A player with no move wins"))
    crowning_wins: bool = attrs.field(default=False, validator=_bool, metadata=_label("Crowning a man wins"))
    numbering: Numbering = attrs.field(
        default=Numbering.TOP_LEFT, validator=_enum(Numbering), metadata=_label("Square 1 (seen from White)")
    )
    square_names: SquareNames = attrs.field(
        default=SquareNames.NUMERIC, validator=_enum(SquareNames), metadata=_label("Squares written as")
    )
    move_separator: str = attrs.field(default="-", validator=_check_separator, metadata=_label("Move separator"))
    capture_separator: str = attrs.field(default="x", validator=_check_separator, metadata=_label("Capture separator"))
    draw_rules: DrawRules = attrs.field(default=DrawRules(), validator=_enum(DrawRules), metadata=_label("Draws"))
    result_notation: ResultNotation = attrs.field(
        default=ResultNotation.DEFAULT, validator=_enum(ResultNotation), metadata=_label("Results written as")
    )
    pdn_gametype: int | None = attrs.field(
        default=None, validator=attrs.validators.optional(_non_negative), metadata=_label("PDN GameType")
    )
    sources: tuple[str, ...] = attrs.field(
        default=(), converter=_text_tuple, eq=False, repr=False, metadata=_label("Sources")
    )

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip() or any(c.isspace() for c in self.name):
            raise InvalidRulesetError(f"name {excerpt(self.name)} must be a non-empty word without spaces")
        if not isinstance(self.title, str):
            raise InvalidRulesetError(f"title {excerpt(self.title)} must be text")
        if 2 * (self.men_start_row - 1 + self.rows_per_side) >= self.height:
            raise InvalidRulesetError(
                f"rows_per_side {self.rows_per_side} from row {self.men_start_row} leaves no empty row between "
                f"the sides on a {self.shape} board"
            )
        if self.board_squares is BoardSquares.ALL and not self.bottom_left_playable:
            raise InvalidRulesetError("bottom_left_playable must be True on a board of every square")
        if self.king_landing is not KingLanding.ANYWHERE and self.king_range is not KingRange.FLYING:
            raise InvalidRulesetError(
                f"king_landing {self.king_landing.name} needs flying kings (a short king always lands directly behind)"
            )
        _check_separators(self)

    # --- derived facts (no behaviour beyond reading the fields) ---

    @property
    def flying_kings(self) -> bool:
        """Whether kings fly (move and capture at any distance)."""
        return self.king_range is KingRange.FLYING

    @property
    def men_capture_backward(self) -> bool:
        """Whether men capture diagonally backward (read from :attr:`men_capture`)."""
        return Directions.DIAGONAL_BACKWARD in self.men_capture

    @property
    def width(self) -> int:
        """Files of the board (squares along a rank)."""
        return self.board_size if isinstance(self.board_size, int) else self.board_size[0]

    @property
    def height(self) -> int:
        """Ranks of the board (the distance between the two sides' back rows, plus one)."""
        return self.board_size if isinstance(self.board_size, int) else self.board_size[1]

    @property
    def shape(self) -> str:
        """``"10x8"``: width by height."""
        return f"{self.width}x{self.height}"

    @property
    def geometry(self) -> Geometry:
        """The board's squares, numbering and names."""
        return geometry(
            self.board_size, self.bottom_left_playable, self.numbering, self.square_names, self.board_squares
        )

    @property
    def squares(self) -> int:
        """Number of playable squares (32 on 8x8, 50 on 10x10, 64 on a Turkish board)."""
        return self.geometry.squares

    @property
    def men_per_side(self) -> int:
        """Men each side starts with (a row of a dark-squares board holds half its files)."""
        per_row = self.width if self.board_squares is BoardSquares.ALL else self.width // 2
        return self.rows_per_side * per_row

    @property
    def pdn_gametype_tag(self) -> str | None:
        """The full PDN GameType value (``"20,W,10,10,N2,0"``), or None without a GameType number."""
        if self.pdn_gametype is None:
            return None
        algebraic = self.square_names is SquareNames.ALGEBRAIC
        corner = 0 if algebraic else self.geometry.pdn_corner(self.first_to_move is Color.WHITE)
        return (
            f"{self.pdn_gametype},{self.first_to_move.letter},{self.width},{self.height},"
            f"{'A' if algebraic else 'N'}{corner},{0 if self.bottom_left_playable else 1}"
        )

    def square_name(self, square: int) -> str:
        """The text a player writes for ``square``: ``"32"``, or ``"c3"`` in algebraic variants."""
        return self.geometry.name(square)

    def parse_square(self, text: str | int) -> int:
        """The square number for a number or an algebraic name (both accepted in every variant)."""
        try:
            return self.geometry.parse(text)
        except InvalidSquareError as error:
            raise InvalidSquareError(f"{error} in {self.name}") from None
