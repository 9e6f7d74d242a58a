"""The capture search's value bound (issue 23 §19): under a precedence whose first criterion is a
total value (most pieces, most value, most kings), the pruned search stops following a capture
that cannot reach the best value found. It must keep exactly the legal moves, and it makes the
Frisian flood of issue 23 short."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import attrs
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import draughts
from draughts import CaptureSearchLimitError, Position
from draughts._core.generator import abort_when
from draughts._core.native import value_weights
from draughts.rules import Criterion, MostKings, MostPieces, MostValue, WithKing
from native_search import CHECK_EVERY, EXPLOSION, counting_hook_calls, first_paths, raw_paths

T = TypeVar("T")

FLOOD = json.loads((Path(__file__).resolve().parents[1] / "data" / "frisian_two_kings_19_taken.json").read_text())


def test_the_frisian_flood_expands_a_fraction_of_its_states() -> None:
    """Two kings that can each take all 19 pieces: without the bound the pruned search expanded
    360,122 states and found 180,771 complete captures (147 of them taking all 19); with it, about
    22,000 states and 440,000 entries of the bound's memory (about 130,000 states' worth of work).
    Counted natively as calls of the abort hook (one per CHECK_EVERY states' worth): under
    250,000 states' worth, and the moves exactly those recorded, all 19 pieces taken by each."""
    position = Position.from_fen(FLOOD["variant"], FLOOD["fen"])
    checks, moves = counting_hook_calls(position.legal_moves)
    assert 0 < checks * CHECK_EVERY < 250_000
    assert {len(move.captured) for move in moves} == {19}
    assert [[m.start, m.end, list(m.captured), list(m.path)] for m in moves] == FLOOD["moves"]


def test_the_bound_reads_only_value_criteria_whose_weights_agree_with_their_key() -> None:
    frisian = draughts.get_variant("frisian")

    class Fewest(MostPieces):
        """Changes the key, not the weights: the search must not trust them."""

        def key(self, capture: draughts.CaptureFacts) -> int:
            return -capture.pieces

    def weights(*precedence: Criterion) -> tuple[int, int] | None:
        rules = attrs.evolve(frisian, name="t", precedence=precedence)
        return value_weights(rules)

    assert weights(*frisian.precedence) == (100, 199)
    assert weights(MostPieces()) == (1, 1)
    assert weights(MostKings(), MostPieces()) == (0, 1)
    assert weights(WithKing(), MostValue(man=1, king=2)) is None  # the first criterion decides
    assert weights() is None
    assert weights(Fewest()) is None


class _Costly(Exception):
    """The every-path listing of a drawn position runs too long to be worth comparing."""


def _affordable(call: Callable[[], T]) -> T:
    """``call``, abandoned (assume) past 64 checks of its capture search (about 260,000 states)."""
    checks = 0

    def hook() -> None:
        nonlocal checks
        checks += 1
        if checks > 64:
            raise _Costly

    try:
        with abort_when(hook):
            return call()
    except (_Costly, CaptureSearchLimitError):
        assume(False)
        raise


_FLOOD_PIECES = FLOOD["fen"].split(":B")[1].split(",")


@st.composite
def _floods(draw: st.DrawFn) -> Position:
    """The Frisian flood with some of its 19 pieces gone and some crowned or uncrowned, under
    Frisian rules with another value precedence, removal or turn-back rule: positions whose
    capture paths flood, so that the search runs pruned (and bounded under a value criterion
    where the captured pieces stay), as only a flood makes it do natively."""
    value = MostValue(man=draw(st.integers(1, 5)), king=draw(st.integers(1, 12)))
    first = draw(st.sampled_from([MostPieces(), MostKings(), value]))  # a total value: the bound applies
    rest = [c for c in (MostPieces(), WithKing(), MostKings(), value) if type(c) is not type(first)]
    precedence = (first, *draw(st.permutations(rest))[: draw(st.integers(0, len(rest)))])
    rules = attrs.evolve(
        draughts.get_variant("frisian"),
        name="custom",
        precedence=precedence,
        captured_removal=draw(st.sampled_from(draughts.CapturedRemoval)),
        capture_reversal=draw(st.booleans()),
    )
    kept = draw(st.lists(st.sampled_from(_FLOOD_PIECES), min_size=12, max_size=19, unique=True))
    flipped = draw(st.sets(st.sampled_from([piece for piece in kept if piece != "K48"])))  # 48: Black's crowning row
    black = [(piece[1:] if piece[0] == "K" else f"K{piece}") if piece in flipped else piece for piece in kept]
    return Position.from_fen(rules, f"W:WK9,K50:B{','.join(black)}")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(_floods())
def test_the_bounded_search_keeps_exactly_the_moves_of_the_unbounded_one(position: Position) -> None:
    """The pruned search (forced by a flood: more paths than EXPLOSION before precedence), bounded
    by the value where the captured pieces stay, lists exactly the moves of the search that neither
    prunes nor bounds (the every-path listing, perft's "keep" convention), each with its first path
    in square order; and perft 1 counts them.

    (The Python search could be forced to prune on any position by patching EXPLOSION; the native
    constant cannot be patched, so the positions are floods.)"""
    assume(_affordable(lambda: raw_paths(position)) > EXPLOSION)
    expected = _affordable(lambda: first_paths(position))
    moves = position.legal_moves()
    assert {(m.start, m.end, frozenset(m.captured)): (m.path, m.captured) for m in moves} == expected
    assert len(moves) == len(expected)
    assert draughts.perft(position, 1) == len(expected)
