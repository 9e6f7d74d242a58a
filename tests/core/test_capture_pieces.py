"""The capture search's pieces one at a time (issue 24 §1): each is built once per ruleset and
side and runs on a search's own state (``_Run``), so it can be run alone."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import draughts
from draughts._core import capture
from draughts._core.tables import Tables


def _bits(tables: Tables, rules: draughts.Ruleset, names: list[str]) -> int:
    mask = 0
    for name in names:
        mask |= 1 << tables.bit_of_square[rules.parse_square(name)]
    return mask


def _run(tables: Tables, position: draughts.Position, pruned: bool) -> tuple[capture._Side, capture._Run, int]:
    own, opp, kings, color, _ = position.node
    side = capture._side(tables, color)
    if pruned and tables.flying and not tables.immediate_removal:  # the table piece without the value bound
        side = side._replace(fly_pruned=capture._remembered_fly(capture._flying_from_tables(tables, color)))
    man_prey = opp if tables.men_capture_kings else opp & ~kings
    return side, capture._Run(side, opp, opp & kings, man_prey, True, 0, pruned), own | opp


def test_the_short_piece_alone_follows_a_man_through_two_jumps() -> None:
    """Russian: the man on c3 takes d4 and f6 and lands on g7; from a square with no jump the
    piece says so after one state."""
    rules = draughts.get_variant("russian")
    position = draughts.Position.from_fen(rules, "W:Wc3:Bd4,f6,h2")
    tables = position.tables
    side, run, pieces = _run(tables, position, False)
    start = _bits(tables, rules, ["c3"])
    capture._begin(run, start, pieces, tables.board)
    assert side.short(run, start, 0, False, False, (), ())
    assert [(raw[0], raw[1], raw[2]) for raw in run.found] == [
        (start, _bits(tables, rules, ["g7"]), _bits(tables, rules, ["d4", "f6"]))
    ]
    assert run.found[0][5] == (_bits(tables, rules, ["e5"]), _bits(tables, rules, ["g7"]))
    states = run.states
    assert not side.short(run, _bits(tables, rules, ["a1"]), 0, False, False, (), ())
    assert run.states == states + 1


@pytest.mark.parametrize("variant", ["international", "frisian", "russian", "killer"])
def test_the_flying_pieces_agree_on_random_positions(variant: str) -> None:
    """The ray-scanning piece (every path) and the pruned piece (tables where captured pieces stay,
    with its memory of states) find the same moves (start, end, pieces taken) for each king."""
    rng = random.Random(7)
    rules = draughts.get_variant(variant)
    geometry = rules.geometry
    squares = list(range(1, geometry.squares + 1))
    compared = 0
    for _ in range(60):
        chosen = rng.sample(squares, 14)
        white = ",".join(f"K{s}" for s in chosen[:2])
        black = ",".join((f"K{s}" if rng.random() < 0.3 else str(s)) for s in chosen[2:])
        try:
            position = draughts.Position.from_fen(rules, f"W:W{white}:B{black}")
        except draughts.DraughtsError:
            continue
        tables = position.tables
        own, _, kings, _, _ = position.node
        found = []
        for pruned in (False, True):
            side, run, pieces = _run(tables, position, pruned)
            for start in (own & kings & -(own & kings), own & kings & ~(own & kings & -(own & kings))):
                capture._begin(run, start, pieces, tables.board)
                run.fly(run, start, 0, side.king_dirs, False, (), ())
            found.append({(raw[0], raw[1], raw[2]) for raw in run.found})
        assert found[0] == found[1]
        compared += bool(found[0])
    assert compared > 10


def test_no_function_of_the_capture_search_is_long() -> None:
    """Issue 24 §1: the search in pieces a reader can hold in their head (none over 150 lines)."""
    tree = ast.parse(Path(capture.__file__).read_text())
    lengths = {
        node.name: node.end_lineno - node.lineno + 1
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.end_lineno is not None
    }
    assert max(lengths.values()) <= 150, lengths
