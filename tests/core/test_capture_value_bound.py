"""The capture search's value bound (issue 23 §19): under a precedence whose first criterion is a
total value (most pieces, most value, most kings), the pruned search stops following a capture
that cannot reach the best value found. It must keep exactly the legal moves, and it makes the
Frisian flood of issue 23 short."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import draughts
from draughts import CaptureSearchLimitError, Position
from draughts._core import capture
from draughts.rules import Criterion, MostKings, MostPieces, MostValue, WithKing
from strategies import criteria, positions

FLOOD = json.loads((Path(__file__).resolve().parents[1] / "data" / "frisian_two_kings_19_taken.json").read_text())


def _searched(position: Position) -> capture._Run:
    """The pruned search of the side to move, run piece by piece as the generator runs it."""
    tables = position.tables
    own, opp, kings, color, _ = position.node
    side = capture._side(tables, color)
    run = capture._Run(side, opp, opp & kings, opp, True, 0, True)
    pieces = own | opp
    rest = own & kings
    while rest:
        start = rest & -rest
        rest ^= start
        capture._begin(run, start, pieces, tables.board)
        run.fly(run, start, 0, side.king_dirs, False, (), ())
    return run


def test_the_frisian_flood_expands_a_fraction_of_its_states() -> None:
    """Two kings that can each take all 19 pieces: without the bound the pruned search expanded
    360,122 states and found 180,771 complete captures (147 of them taking all 19); with it, about
    22,000 states and 440,000 entries of the bound's memory (about 130,000 states' worth of work)."""
    position = Position.from_fen(FLOOD["variant"], FLOOD["fen"])
    run = _searched(position)
    assert 0 < run.states < 60_000
    assert run.work() < 250_000
    assert sum(raw[2].bit_count() == 19 for raw in run.found) == 147  # every capture of all 19 is still found
    assert [[m.start, m.end, list(m.captured), list(m.path)] for m in position.legal_moves()] == FLOOD["moves"]


def test_the_bound_reads_only_value_criteria_whose_weights_agree_with_their_key() -> None:
    frisian = draughts.get_variant("frisian")

    class Fewest(MostPieces):
        """Changes the key, not the weights: the search must not trust them."""

        def key(self, capture: draughts.CaptureFacts) -> int:
            return -capture.pieces

    def weights(*precedence: Criterion) -> tuple[int, int] | None:
        rules = attrs.evolve(frisian, name="t", precedence=precedence)
        return capture._value_weights(Position.initial(rules).tables)

    assert weights(*frisian.precedence) == (100, 199)
    assert weights(MostPieces()) == (1, 1)
    assert weights(MostKings(), MostPieces()) == (0, 1)
    assert weights(WithKing(), MostValue(man=1, king=2)) is None  # the first criterion decides
    assert weights() is None
    assert weights(Fewest()) is None


def _moves(position: Position) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]:
    return [(m.start, m.end, m.captured, m.path) for m in position.legal_moves()]


_VALUE_RULES = st.builds(
    lambda base, precedence, removal: attrs.evolve(
        draughts.get_variant(base), name="custom", precedence=precedence, captured_removal=removal
    ),
    st.sampled_from(["frisian", "international", "brazilian", "russian", "killer"]),
    criteria().filter(lambda found: bool(found) and found[0].weights() is not None),
    st.sampled_from(draughts.CapturedRemoval),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(positions(st.one_of(st.sampled_from([draughts.get_variant("frisian")]), _VALUE_RULES)))
def test_the_bounded_search_keeps_exactly_the_moves_of_the_unbounded_one(position: Position) -> None:
    """Forced into the pruned, bounded search (a budget of one path before it restarts pruned),
    the legal moves are those of the search that neither prunes nor bounds, path for path."""
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(capture, "MAX_STATES", 200_000)
            patch.setattr(capture, "EXPLOSION", 10**9)
            expected = _moves(Position.from_fen(position.ruleset, position.fen()))
            patch.setattr(capture, "EXPLOSION", 1)
            bounded = _moves(Position.from_fen(position.ruleset, position.fen()))
    except CaptureSearchLimitError:
        assume(False)
        return
    assert bounded == expected
