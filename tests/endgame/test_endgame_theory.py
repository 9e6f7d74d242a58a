"""Endgame tables against published values and known theory.

* Kingsrow's International database driver (github.com/eygilbert/egdb_intl, ``example/main.cpp``)
  checks ``egdb_lookup()`` on 164 positions with their known values; ``tests/data/egdb_intl_examples.json``
  holds them (the bitboards as given, and the FEN they mean). Every one with at most the pieces
  built here must agree.
* Russian: three kings against a lone king win in nearly every position where the lone king is
  off the main road (a1-h8) and the strong side is to move, never needing more than Petrov's
  triangle's 13 moves (25 plies); a lone king that holds the main road alone draws in most.
* International: a lone king on the long diagonal (46-5) draws against three kings in most positions.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from draughts import Color, Position
from draughts.endgame import Material, Tablebase
from draughts.endgame.table import fen_of
from draughts.endgame.tablebase import masks_of, material_of

DATA = Path(__file__).parents[1] / "data" / "egdb_intl_examples.json"


def kingsrow_positions(pieces: int) -> list[dict[str, object]]:
    data = json.loads(DATA.read_text())
    return [item for item in data["positions"] if int(item["pieces"]) <= pieces]


def test_kingsrow_layout_read_back() -> None:
    """The FENs in the data file are the bitboards read with the driver's layout."""
    for item in json.loads(DATA.read_text())["positions"]:
        masks = {}
        for name in ("black", "white", "king"):
            mask = int(str(item[name]), 16)
            assert not mask & (1 << 10 | 1 << 21 | 1 << 32 | 1 << 43)  # the ghost bits
            masks[name] = {bit - bit // 11 + 1 for bit in range(54) if mask >> bit & 1}
        position = Position.from_fen("international", str(item["fen"]))
        assert set(position.squares(Color.BLACK)) == masks["black"]
        assert set(position.squares(Color.WHITE)) == masks["white"]
        assert {s for s in position.pieces() if position.pieces()[s].king} == masks["king"]
        assert position.turn is (Color.BLACK if item["color"] == "black" else Color.WHITE)


def _check_kingsrow(tmp_path: Path, pieces: int) -> int:
    tb = Tablebase("international", tmp_path)
    items = kingsrow_positions(pieces)
    positions = [Position.from_fen("international", str(item["fen"])) for item in items]
    tb.build({material_of(tb.rules, *masks_of(position)[:3]) for position in positions})
    for item, position in zip(items, positions, strict=True):
        assert tb.probe(position).result == item["value"], item
    return len(items)


def test_kingsrow_examples_two_pieces(tmp_path: Path) -> None:
    assert _check_kingsrow(tmp_path, 2) == 6


@pytest.mark.slow
def test_kingsrow_examples_three_pieces(tmp_path: Path) -> None:
    assert _check_kingsrow(tmp_path, 3) == 18


Census = Counter[tuple[str, str]]


def _lone_king_census(variant: str, tmp_path: Path) -> tuple[Census, int, list[str], Census]:
    """Three kings (the first player's, to move) against a lone king, by where the lone king
    stands: off the long diagonal, holding it alone, or sharing it with a strong king; the
    results, then the results within the rules."""
    tb = Tablebase(variant, tmp_path)
    tb.build("KKKvK")
    rules, geometry = tb.rules, tb.rules.geometry
    strong = rules.first_to_move

    def on_diagonal(square: int) -> bool:
        x, y = geometry.coords[square]
        return x == y if geometry.bottom_left_playable else x + y == geometry.size - 1

    census: Census = Counter()
    within: Census = Counter()
    longest, exceptions = 0, []
    for white, black, kings in tb.table("KKKvK").indexer.placements_of():
        position = Position.from_fen(rules, fen_of(rules, white, black, kings, int(strong)))
        verdict = tb.probe(position)
        weak = position.squares(strong.opponent)[0]
        if not on_diagonal(weak):
            place = "off"
            if verdict.result == "win":
                longest = max(longest, verdict.plies or 0)
        elif not any(on_diagonal(square) for square in position.squares(strong)):
            place = "holds"
            if verdict.result == "win" and not position.has_capture() and (verdict.plies or 0) > 5:
                exceptions.append(position.fen())
        else:
            place = "shared"
        census[(place, verdict.result)] += 1
        within[(place, str(verdict.within_rules))] += 1
    return census, longest, exceptions, within


@pytest.mark.slow
def test_russian_three_kings_against_one(tmp_path: Path) -> None:
    census, longest, exceptions, within = _lone_king_census("russian", tmp_path)
    off = census[("off", "win")] / (census[("off", "win")] + census[("off", "draw")])
    holds = census[("holds", "draw")] / (census[("holds", "draw")] + census[("holds", "win")])
    assert off > 0.99  # nearly every position off the main road is won
    assert longest == 25  # Petrov's triangle: 13 moves
    assert holds > 0.5  # the main road held alone draws in most positions
    assert census[("off", "loss")] == census[("holds", "loss")] == 0
    assert exceptions  # tactics: wins with the main road held
    assert dict(census) == {
        ("off", "win"): 106984,
        ("off", "draw"): 896,
        ("holds", "draw"): 10704,
        ("holds", "win"): 5488,
        ("shared", "win"): 19768,
    }
    # Within the rules (7.2.4: 15 moves from the balance; 7.2.7: 5 moves once the lone king
    # stands on the main road, counted from the balance as Board counts it): a lone king that
    # reaches the main road after the strong side's 5th move draws at once, so the long wins
    # off the road become draws; every win of the main road held alone is short enough.
    assert dict(within) == {
        ("off", "win"): 68464,
        ("off", "draw"): 39416,
        ("holds", "draw"): 10704,
        ("holds", "win"): 5488,
        ("shared", "win"): 19768,
    }


@pytest.mark.slow
def test_international_lone_king_on_long_diagonal(tmp_path: Path) -> None:
    census, _, _, within = _lone_king_census("international", tmp_path)
    holds = census[("holds", "draw")] / (census[("holds", "draw")] + census[("holds", "win")])
    assert holds > 0.5  # the long diagonal held alone draws in most positions
    off = census[("off", "draw")] / (census[("off", "win")] + census[("off", "draw")])
    assert off < holds  # off the diagonal the lone king draws less often
    assert dict(census) == {
        ("off", "win"): 372836,
        ("off", "draw"): 364124,
        ("holds", "draw"): 70632,
        ("holds", "win"): 28168,
        ("shared", "win"): 85440,
    }
    assert within == census  # the longest win, 15 plies, is well inside the 16-move rule
    # Kingsrow's two positions of a king against three kings, read through KKKvK's mirror.
    tb = Tablebase("international", tmp_path)
    lone = Material.parse("KvKKK")
    items = [
        item
        for item in kingsrow_positions(4)
        if material_of(tb.rules, *masks_of(Position.from_fen("international", str(item["fen"])))[:3]) == lone
    ]
    assert len(items) == 2
    for item in items:
        assert tb.probe(Position.from_fen("international", str(item["fen"]))).result == item["value"]


def test_material_of_kingsrow_positions() -> None:
    rules = Tablebase("international", "/nonexistent").rules
    position = Position.from_fen(rules, "B:W28:BK26")
    assert material_of(rules, *masks_of(position)[:3]) == Material.parse("MvK")


HIGH_MTC = Path(__file__).parents[1] / "data" / "egdb_intl_high_mtc.json"


@pytest.mark.slow
def test_kingsrow_high_mtc_positions_are_decided(tmp_path: Path) -> None:
    """Kingsrow's high moves-to-conversion positions of at most 4 pieces (``egdb_test/10x10
    HighMtc.txt``; its MTC database holds only won and lost positions): each is decided here. (Who
    wins it does not say: the parity of its count says who makes the conversion, a capture or a
    man move, which may be the loser's man.)"""
    items = [item for item in json.loads(HIGH_MTC.read_text())["positions"] if item["pieces"] <= 4]
    assert len(items) == 8
    tb = Tablebase("international", tmp_path)
    positions = [Position.from_fen("international", str(item["fen"])) for item in items]
    tb.build({material_of(tb.rules, *masks_of(position)[:3]) for position in positions})
    for item, position in zip(items, positions, strict=True):
        verdict = tb.probe(position)
        assert verdict.result in ("win", "loss"), item
