"""Memory stays flat in long runs through the native core (issue 37 §3).

Each test does some work once to warm up (the interpreter's arenas, the rules' tables, caches),
measures the resident set (``/proc/self/statm``, no third-party module), does several times that
work again and measures once more: the growth must stay under a bound far below what a leak of a
few bytes per call would add over the calls made (each test counts them, so that the bound means
something). Random games (legal lists, play, counts, perft), the capture search stopped by its
bound (``CaptureSearchLimitError``) over and over, and errors raised through the boundary (bad
nodes, a user criterion's own exception). ``-m slow`` runs longer versions.
"""

from __future__ import annotations

import gc
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

import draughts
from draughts.errors import CaptureSearchLimitError, DraughtsError
from draughts.rules import CaptureFacts, Criterion, Ruleset

pytest.importorskip("draughts._native", reason="the native extension is not built")

STATM = Path("/proc/self/statm")
pytestmark = pytest.mark.skipif(not STATM.exists(), reason="needs /proc/self/statm (Linux)")

ROOT = Path(__file__).resolve().parents[2]
MIB = 1 << 20
BOUND = 3 * MIB
"""Growth allowed after warm-up (arena and allocator noise: none was seen on random games); a leak
of 100 bytes a call over the 30,000 or more calls each test of random games makes exceeds it."""


def native_of(rules: Ruleset) -> Any:
    """The compiled native rules of ``rules`` (the one line to change when the bindings move)."""
    from draughts._core.native import native_rules

    return native_rules(rules)


def rss() -> int:
    """The resident set of this process in bytes, after a full collection."""
    gc.collect()
    pages = int(STATM.read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def growth(work: Callable[[int], int], warm: int, runs: int) -> tuple[int, int]:
    """``work(warm)`` to warm up, then ``work(runs)``: (bytes grown over the second, calls made in it)."""
    work(warm)
    before = rss()
    calls = work(runs)
    return rss() - before, calls


def random_games(rules: Ruleset, seed: int) -> Callable[[int], int]:
    """Work: ``n`` random games of ``rules`` through the native core (a new seed each time)."""
    native = native_of(rules)
    rng = random.Random(seed)

    def play(n: int) -> int:
        calls = 0
        for _ in range(n):
            node = native.start()
            for ply in range(150):
                moves = native.legal(*node, ply % 2 == 0)
                calls += 1
                if not moves:
                    break
                if ply % 10 == 0:
                    native.perft(node, 2)
                    native.count2(*node)
                    calls += 2
                node = native.play(*node, *rng.choice(moves)[5])
                calls += 1
        return calls

    return play


def test_the_measure_sees_a_leak() -> None:
    """The check itself: work that keeps 200 bytes per call over 40,000 calls fails the bound."""
    kept: list[bytes] = []

    def leak(n: int) -> int:
        kept.extend(os.urandom(200) for _ in range(n))
        return n

    grown, _ = growth(leak, 1_000, 40_000)
    assert grown > BOUND, f"grew only {grown / MIB:.1f} MiB"


@pytest.mark.parametrize("name", ["international", "frisian", "turkish", "canadian"])
def test_random_games_keep_memory_flat(name: str) -> None:
    """Hundreds of random games (legal lists in both conventions, play, perft 2, count2): the
    resident set grows by less than BOUND after the warm-up."""
    grown, calls = growth(random_games(draughts.get_variant(name), 1), 40, 240)
    assert calls > 30_000
    assert grown < BOUND, f"{name}: grew {grown / MIB:.1f} MiB over {calls:,} calls"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["international", "russian"])
def test_many_random_games_keep_memory_flat(name: str) -> None:
    """The same over 4,000 games (about a million calls)."""
    grown, calls = growth(random_games(draughts.get_variant(name), 2), 200, 4_000)
    assert calls > 500_000
    assert grown < BOUND, f"{name}: grew {grown / MIB:.1f} MiB over {calls:,} calls"


@pytest.mark.parametrize("runs", [4, pytest.param(60, marks=pytest.mark.slow)])
def test_the_capture_search_bound_keeps_memory_flat(runs: int) -> None:
    """The Frisian flood of issue 23 over and over: each search expands its million states,
    stops at the bound with CaptureSearchLimitError and frees what it built."""
    flood = json.loads((ROOT / "tests" / "data" / "frisian_two_kings_19_taken.json").read_text())
    position = draughts.Position.from_fen(flood["variant"], flood["fen"])
    native = native_of(position.ruleset)

    def search(n: int) -> int:
        for _ in range(n):
            with pytest.raises(CaptureSearchLimitError):
                native.legal(*position.node, True)
        return n

    grown, calls = growth(search, 1, runs)
    assert calls == runs
    assert grown < BOUND, f"grew {grown / MIB:.1f} MiB over {calls} bounded searches"


class FailingMemoryCriterion(Criterion):
    """A user-defined criterion that raises (its exception crosses the boundary every call)."""

    label = "fails"

    def key(self, capture: CaptureFacts) -> int:
        if capture.pieces > 1:
            raise LookupError("no key")
        return 0


@pytest.mark.parametrize("runs", [10_000, pytest.param(200_000, marks=pytest.mark.slow)])
def test_errors_through_the_boundary_keep_memory_flat(runs: int) -> None:
    """Refused nodes and moves, and a criterion's own exception, tens of thousands of times."""
    international = draughts.get_variant("international")
    failing = attrs.evolve(international, name="fails", precedence=(FailingMemoryCriterion(),))
    position = draughts.Position.from_fen(international, "W:W28:B11,22,23")
    native, broken = native_of(international), native_of(failing)
    own, opp, kings, color, state = native.start()

    def fail(n: int) -> int:
        for _ in range(n):
            with pytest.raises(DraughtsError):
                native.legal(own, own, kings, color, state)  # both sides on one square
            with pytest.raises(DraughtsError):
                native.play(own, opp, kings, color, state, opp, 0, 0)  # moves the other side
            with pytest.raises(LookupError):
                broken.legal(*position.node)
        return 3 * n

    grown, calls = growth(fail, 2_000, runs)
    assert grown < BOUND, f"grew {grown / MIB:.1f} MiB over {calls:,} failing calls"
