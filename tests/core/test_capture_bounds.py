"""The capture search's bounded work: a limit on the states one search expands (issue 23 §20) and
an abort hook read inside long searches, which the engine's clock uses (issue 23 §16)."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

import draughts
from draughts import BLACK, WHITE, CaptureSearchLimitError, DraughtsError, Piece, Position
from draughts._core.generator import abort_when
from draughts.engine import Engine, Limit
from draughts.rules import CapturedRemoval, CapturePromotion
from draughts.rules.geometry import BoardSquares
from native_search import CHECK_EVERY, MAX_STATES, counting_hook_calls

FLOOD = json.loads((Path(__file__).resolve().parents[1] / "data" / "frisian_two_kings_19_taken.json").read_text())
"""Issue 23 §19: two flying kings that can each take all 19 pieces (46 legal moves)."""

# Issue 23 §20: a valid custom ruleset whose captures grow without bound in this position (281 s and
# 8.8 GB before the search counted its work).
UNBOUNDED_FEN = (
    "W:W46,47,56,57,58,61,68,70,71,73,74,75,76,78,81,84,88,89,90,91,92,93,94,95,96,98,100"
    ":B3,7,9,10,11,12,13,15,16,17,19,22,23,25,27,28,30,35,36,38,41,42,43,44,48,49,50"
)


def flood() -> Position:
    """A new position of :data:`FLOOD` (a position keeps its legal moves once listed)."""
    return Position.from_fen(FLOOD["variant"], FLOOD["fen"])


def unbounded() -> Position:
    rules = attrs.evolve(
        draughts.get_variant("frisian"),
        name="frisian-every-square",
        board_squares=BoardSquares.ALL,
        rows_per_side=3,
        captured_removal=CapturedRemoval.IMMEDIATE,
        capture_promotion=CapturePromotion.CONTINUES_AS_KING,
    )
    return Position.from_fen(rules, UNBOUNDED_FEN)


def test_a_search_past_its_bound_raises_a_draughts_error_and_changes_nothing() -> None:
    """The native core's real bound (MAX_STATES, a Rust constant): the search stops at the first
    check past it, after MAX_STATES // CHECK_EVERY calls of the abort hook (well under a second
    natively), not after the unbounded run."""
    position = unbounded()
    fen = position.fen()
    calls: list[int] = []
    with abort_when(lambda: calls.append(1)), pytest.raises(CaptureSearchLimitError) as raised:
        position.legal_moves()
    assert f"more than {MAX_STATES:,} states" in str(raised.value)
    assert isinstance(raised.value, DraughtsError)
    assert len(calls) == MAX_STATES // CHECK_EVERY  # the work done: exactly the bound's worth
    assert position.fen() == fen
    with pytest.raises(CaptureSearchLimitError):  # nothing half-built was kept
        draughts.perft(position, 1)


def test_the_hardest_known_searches_stay_within_the_bound() -> None:
    """The Frisian position of issue 23 §19 (two kings, 19 pieces taken) expanded about 365,000
    states before the value bound, so the bound must leave room for twice that; its search now
    takes a fraction of the bound (counted in calls of the abort hook)."""
    assert MAX_STATES >= 2 * 365_000
    calls, moves = counting_hook_calls(flood().legal_moves)
    assert len(moves) == 46
    assert calls * CHECK_EVERY < MAX_STATES // 2


class _Abandoned(Exception):
    pass


def test_the_abort_hook_is_called_inside_a_long_search_and_its_exception_ends_it() -> None:
    calls = []

    def hook() -> None:
        calls.append(1)
        if len(calls) == 2:
            raise _Abandoned

    position = unbounded()
    with abort_when(hook), pytest.raises(_Abandoned):
        position.legal_moves()
    assert len(calls) == 2
    hooked, moves = counting_hook_calls(flood().legal_moves)  # a long search that calls a hook
    assert hooked > 0
    assert len(moves) == 46
    assert len(flood().legal_moves()) == 46  # the blocks' hooks were their own: none is left
    assert len(calls) == 2


def test_nested_abort_hooks_restore_the_outer_one() -> None:
    outer: list[int] = []
    inner: list[int] = []
    with abort_when(lambda: outer.append(1)):
        with abort_when(lambda: inner.append(1)):
            flood().legal_moves()
        assert outer == []
        assert inner
        flood().legal_moves()
    assert len(outer) == len(inner)


def test_a_short_search_never_reaches_the_hook() -> None:
    def hook() -> None:
        raise AssertionError("called")

    with abort_when(hook):
        assert draughts.perft(Position.initial("frisian"), 4) > 0


def lattice_facing(size: int) -> Position:
    """Black to move (quiet moves only), and after each move a white man facing a lattice of black
    men, whose capture paths flood: every reply is one long generation."""
    rules = attrs.evolve(
        draughts.get_variant("russian"),
        name=f"russian-{size}",
        board_size=size,
        rows_per_side=size // 2 - 1,
        square_names=draughts.SquareNames.NUMERIC,
    )
    geo = rules.geometry
    pieces = {geo.square_at(0, 0): Piece(WHITE)}
    for x in range(1, size, 2):
        for y in range(1, size - 1, 2):
            pieces[geo.square_at(x, y)] = Piece(BLACK)
    return Position.from_pieces(rules, pieces, BLACK)


class _Clock:
    """A clock that moves on 0.3 s at each reading: the engine's time runs out after two readings."""

    def __init__(self) -> None:
        self.now = 0.0
        self.readings = 0

    def perf_counter(self) -> float:
        self.readings += 1
        self.now += 0.3
        return self.now


def test_the_engine_reads_its_clock_inside_a_long_generation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23 §16: with the time up, the search stops at the next check inside a capture search,
    not only every few hundred nodes (before: 256 nodes, each a flood of capture paths). Counted,
    not timed: the native search polls the engine's stop flag and clock inside the generation (and
    every 256 nodes), so the fake clock that runs out after two readings stops it after a few nodes."""
    import draughts.engine.root

    position = lattice_facing(14)
    clock = _Clock()
    monkeypatch.setattr(draughts.engine.root, "time", clock)
    result = Engine(seed=1).search(position, Limit(time=0.5))
    assert result.move in position.legal_moves
    assert result.nodes < 32  # each node a flood: stopped inside the generation, not 256 nodes later
    assert 0 < clock.readings < 16


def test_the_frisian_flood_of_issue_23_keeps_its_exact_moves_within_a_work_bound() -> None:
    """Issue 23 §19: two flying kings that can each take all 19 pieces. What makes it slow is the
    search itself: about 340,000 distinct (square, pieces taken) states of the two kings and 180,000
    complete captures, of which precedence keeps 46. The moves must stay exactly those listed
    before the search read the jumps from tables. Since the search stops following captures that
    cannot reach the best value (issue 23 §19), the work stays under 50 checks (204,800 states'
    worth; it was 88 checks without that bound, 32 with it, in the Python search and natively)."""
    checks, legal = counting_hook_calls(flood().legal_moves)
    moves = [[m.start, m.end, list(m.captured), list(m.path)] for m in legal]
    assert moves == FLOOD["moves"]
    assert 0 < checks < 50
