"""Board geometry: numbering schemes, square names, the inverted boards, any even size."""

from __future__ import annotations

import pytest

import draughts
from draughts.geometry import Numbering, SquareNames, geometry


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
    seen = set()
    for square in range(1, geo.squares + 1):
        x, y = geo.coords[square]
        assert geo.is_playable(x, y)
        assert geo.square_of_bit[geo.bits[square]] == square
        assert geo.parse(geo.name(square)) == square
        assert geo.rotate(geo.rotate(square)) == square
        seen.add(geo.bits[square])
    assert len(seen) == geo.squares
    assert geo.is_playable(0, 0) == bottom_left


def test_one_diagonal_step_is_a_constant_shift() -> None:
    """The bit layout puts every north-west step at +n/2 and north-east step at +n/2+1."""
    for size in (8, 10, 12):
        for bottom_left in (True, False):
            geo = geometry(size, bottom_left)
            for square in range(1, geo.squares + 1):
                x, y = geo.coords[square]
                for dx, shift in ((-1, size // 2), (1, size // 2 + 1)):
                    if geo.is_playable(x + dx, y + 1):
                        assert geo.bit_of(x + dx, y + 1) - geo.bits[square] == shift
                    elif y + 1 < size:
                        ghost = geo.bits[square] + shift
                        assert ghost >= len(geo.square_of_bit) or geo.square_of_bit[ghost] == 0


def test_pdn_corner_reads_from_the_starting_side() -> None:
    assert draughts.get_variant("american").geometry.pdn_corner(first_to_move_is_white=False) == 1  # N1
    assert draughts.get_variant("international").geometry.pdn_corner(first_to_move_is_white=True) == 2  # N2
    assert draughts.get_variant("spanish").geometry.pdn_corner(first_to_move_is_white=True) == 1  # N1
