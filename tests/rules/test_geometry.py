"""Board geometry: numbering schemes, square names, the inverted boards, any even size."""

from __future__ import annotations

import attrs
import pytest

import draughts
from draughts import BoardSquares, Directions
from draughts.rules.geometry import Numbering, SquareNames, geometry


@pytest.mark.parametrize(
    ("variant", "square", "name", "xy"),
    [
        ("international", 1, "1", (1, 9)),  # 1 = b10
        ("international", 5, "5", (9, 9)),  # 5 = j10
        ("international", 46, "46", (0, 0)),  # 46 = a1
        ("international", 50, "50", (8, 0)),  # 50 = i1
        ("american", 1, "1", (1, 7)),  # 1 = b8
        ("american", 29, "29", (0, 0)),  # 29 = a1
        ("american", 32, "32", (6, 0)),  # 32 = g1
        ("italian", 1, "1", (0, 7)),  # 1 = a8
        ("italian", 32, "32", (7, 0)),  # 32 = h1
        ("spanish", 1, "1", (7, 0)),  # 1 = h1
        ("spanish", 4, "4", (1, 0)),  # 4 = b1
        ("spanish", 32, "32", (0, 7)),  # 32 = a8
        ("russian", 1, "b8", (1, 7)),
        ("russian", 29, "a1", (0, 0)),
        ("russian", 32, "g1", (6, 0)),
        ("czech", 22, "c3", (2, 2)),
    ],
)
def test_numbering_and_names(variant: str, square: int, name: str, xy: tuple[int, int]) -> None:
    rules = draughts.get_variant(variant)
    assert rules.square_name(square) == name
    assert rules.geometry.coords[square] == xy
    assert rules.parse_square(name) == square
    assert rules.parse_square(str(square)) == square
    assert rules.geometry.square_at(*xy) == square


def test_numbers_and_names_accepted_everywhere() -> None:
    assert draughts.get_variant("russian").parse_square(29) == 29
    assert draughts.get_variant("russian").parse_square(" A1 ") == 29
    assert draughts.get_variant("american").parse_square("a1") == 29
    assert draughts.get_variant("international").parse_square("06") == 6


@pytest.mark.parametrize(
    ("variant", "bad"),
    [
        ("american", "33"),
        ("american", "0"),
        ("italian", "a1"),
        ("russian", "i9"),
        ("russian", "a2"),
        ("american", "x1"),
        ("american", ""),
        ("american", True),
    ],
)
def test_bad_squares(variant: str, bad: object) -> None:
    rules = draughts.get_variant(variant)
    with pytest.raises(draughts.InvalidSquareError, match=repr(bad).replace("(", r"\(")):
        rules.parse_square(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [4, 6, 8, 10, 12, 14])
@pytest.mark.parametrize("numbering", list(Numbering))
@pytest.mark.parametrize("bottom_left", [True, False])
def test_any_even_board(size: int, numbering: Numbering, bottom_left: bool) -> None:
    geo = geometry(size, bottom_left, numbering, SquareNames.ALGEBRAIC)
    assert geo.squares == size * size // 2
    for square in range(1, geo.squares + 1):
        x, y = geo.coords[square]
        assert geo.is_playable(x, y)
        assert geo.square_at(x, y) == square
        assert geo.parse(geo.name(square)) == square
        assert geo.rotate(geo.rotate(square)) == square
    assert geo.is_playable(0, 0) == bottom_left
    assert len(set(geo.coords[1:])) == geo.squares


@pytest.mark.parametrize("numbering", list(Numbering))
def test_boards_of_every_square(numbering: Numbering) -> None:
    geo = geometry(8, True, numbering, SquareNames.ALGEBRAIC, BoardSquares.ALL)
    assert geo.squares == 64
    assert {geo.coords[square] for square in range(1, 65)} == {(x, y) for x in range(8) for y in range(8)}
    assert sorted(geo.names[1:]) == sorted(f"{file}{rank}" for file in "abcdefgh" for rank in range(1, 9))
    if numbering is Numbering.BOTTOM_LEFT:  # Turkish boards, as pydraughts numbers them: a1 = 1, h8 = 64
        assert (geo.algebraic(1), geo.algebraic(9), geo.algebraic(64)) == ("a1", "a2", "h8")


@pytest.mark.parametrize(
    "rules",
    [
        draughts.get_variant("international"),
        draughts.get_variant("italian"),
        attrs.evolve(
            draughts.get_variant("international"),
            name="frisian-like",
            men_capture=Directions.ALL,
            kings_capture=Directions.ALL,
        ),
        attrs.evolve(
            draughts.get_variant("russian"),
            name="turkish-like",
            board_squares=BoardSquares.ALL,
            men_move=Directions.ORTHOGONAL_FORWARD | Directions.ORTHOGONAL_SIDEWAYS,
            men_capture=Directions.ORTHOGONAL_FORWARD | Directions.ORTHOGONAL_SIDEWAYS,
            kings_move=Directions.ORTHOGONAL,
            kings_capture=Directions.ALL,
            men_start_row=2,
            rows_per_side=2,
        ),
        attrs.evolve(
            draughts.get_variant("international"),
            name="big",
            board_size=14,
            rows_per_side=5,
            bottom_left_playable=False,
            kings_capture=Directions.ALL,
        ),
    ],
    ids=lambda rules: rules.name,
)
def test_every_step_is_a_constant_shift_and_leaving_the_board_lands_on_a_ghost(rules: draughts.Ruleset) -> None:
    """The generator's bit layout: a step in any direction the board has is one shift; a step off the
    board (through either side edge too, which is where a naive layout wraps to the next row) lands
    on a bit that is no square."""
    from draughts._core import compile_rules
    from draughts._core.tables import VECTORS

    tables = compile_rules(rules)
    geo = rules.geometry
    every = rules.board_squares is BoardSquares.ALL
    for d, (dx, dy) in enumerate(VECTORS):
        amount, up = tables.amount[d], tables.up[d]
        if not amount:
            continue
        scale = 1 if every or dx * dy else 2  # on dark squares an orthogonal step skips a light square
        for square in range(1, geo.squares + 1):
            x, y = geo.coords[square]
            bit = tables.bit_of_square[square]
            target = bit + amount if up else bit - amount
            there = (x + dx * scale, y + dy * scale)
            if geo.is_playable(*there):
                assert tables.square_of_bit[target] == geo.square_at(*there)
            else:
                assert not 0 <= target < len(tables.square_of_bit) or tables.square_of_bit[target] == 0, (
                    rules.name,
                    d,
                    square,
                )


def test_pdn_corner_reads_from_the_starting_side() -> None:
    assert draughts.get_variant("american").geometry.pdn_corner(first_to_move_is_white=False) == 1  # N1
    assert draughts.get_variant("international").geometry.pdn_corner(first_to_move_is_white=True) == 2  # N2
    assert draughts.get_variant("spanish").geometry.pdn_corner(first_to_move_is_white=True) == 1  # N1
