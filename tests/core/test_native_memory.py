"""Memory stays flat in long runs through the native core (issue 37 §3).

Each test does some work once to warm up (the interpreter's arenas, the rules' tables, caches),
measures, does several times that work again and measures once more. Two measures, no
third-party module: the C heap in use (glibc's ``mallinfo2``: the bytes ``malloc`` has handed
out and not had back, which is where the native core allocates; a leak shows there even when it
fills holes that earlier tests left in pages already resident, which the resident set cannot see;
the resident set after ``malloc_trim`` where the C library has no ``mallinfo2``), and the
interpreter's allocated blocks
(``sys.getallocatedblocks``: Python objects a binding keeps by a missed reference count, which
the resident set cannot see when they fill holes of arenas already resident). Each test counts
its calls, so that the bounds mean something, and :func:`test_the_measures_see_leaks` shows both
measures catching a leak of the size they bound. The work: random games (legal lists, play,
counts, perft), the capture search stopped by its bound (``CaptureSearchLimitError``) over and
over, errors raised through the boundary (bad nodes, a user criterion's own exception).
``-m slow`` runs longer versions.
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

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
"""C heap growth allowed after warm-up (allocator noise: none was seen on random games); a
native leak of 100 bytes a call over the 30,000 or more calls of each test of random games
exceeds it."""

LIBC = ctypes.CDLL(None)
"""The process's C library: ``mallinfo2`` (glibc 2.33 and later) or ``malloc_trim``."""


class _MallInfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (every field a ``size_t``)."""

    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def heap_in_use() -> int:
    """Bytes ``malloc`` has handed out and not had back (chunks in use plus mapped blocks), or
    the resident set after ``malloc_trim`` where there is no ``mallinfo2``."""
    if hasattr(LIBC, "mallinfo2"):
        LIBC.mallinfo2.restype = _MallInfo2
        info = LIBC.mallinfo2()
        return int(info.uordblks + info.hblkhd)
    if hasattr(LIBC, "malloc_trim"):
        LIBC.malloc_trim(0)
    pages = int(STATM.read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def native_of(rules: Ruleset) -> Any:
    """The compiled native rules of ``rules`` (the one line to change when the bindings move)."""
    from draughts._core.native import native_rules

    return native_rules(rules)


class Usage(NamedTuple):
    """What one measure reads."""

    heap: int  # C heap bytes in use (see heap_in_use)
    blocks: int  # the interpreter's allocated blocks


def usage() -> Usage:
    """The C heap in use after a full collection, and the interpreter's blocks."""
    gc.collect()
    return Usage(heap_in_use(), sys.getallocatedblocks())


class Growth(NamedTuple):
    """How much the second run of some work grew memory, over how many calls."""

    heap: int
    blocks: int
    calls: int

    def check(self, what: str) -> None:
        """Flat: heap growth under BOUND, fewer leftover blocks than one in ten calls (and a
        hundred of noise: a collection's timing, a cache entry)."""
        text = f"{what}: grew {self.heap / MIB:.1f} MiB and {self.blocks:,} blocks over {self.calls:,} calls"
        assert self.heap < BOUND, text
        assert self.blocks < self.calls / 10 + 100, text


def growth(work: Callable[[int], int], warm: int, runs: int) -> Growth:
    """``work(warm)`` to warm up, then ``work(runs)``: what the second grew, and its calls."""
    work(warm)
    before = usage()
    calls = work(runs)
    after = usage()
    return Growth(after.heap - before.heap, after.blocks - before.blocks, calls)


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


def test_the_measures_see_leaks() -> None:
    """The checks themselves: 40,000 Python objects kept (one per call) fail the blocks bound,
    and 40,000 C allocations of 200 bytes never freed (8 MB of native heap) the heap bound."""
    kept: list[object] = []

    def python_leak(n: int) -> int:
        kept.extend(object() for _ in range(n))
        return n

    malloc = LIBC.malloc
    malloc.restype = ctypes.c_void_p
    native: list[int | None] = []

    def native_leak(n: int) -> int:
        for _ in range(n):
            address = malloc(200)
            ctypes.memset(address, 1, 200)  # touched, so resident too (where the resident set is read)
            native.append(address)
        return n

    python = growth(python_leak, 1_000, 40_000)
    assert python.blocks >= 40_000 > python.calls / 10 + 100
    c = growth(native_leak, 1_000, 40_000)
    assert c.heap > BOUND, f"grew only {c.heap / MIB:.1f} MiB"
    for address in native:
        LIBC.free(ctypes.c_void_p(address))


@pytest.mark.parametrize("name", ["international", "frisian", "turkish", "canadian"])
def test_random_games_keep_memory_flat(name: str) -> None:
    """Hundreds of random games (legal lists in both conventions, play, perft 2, count2): the
    C heap grows by less than BOUND after the warm-up."""
    grown = growth(random_games(draughts.get_variant(name), 1), 40, 240)
    assert grown.calls > 30_000
    grown.check(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["international", "russian"])
def test_many_random_games_keep_memory_flat(name: str) -> None:
    """The same over 4,000 games (over 400,000 calls: Russian games are the shorter)."""
    grown = growth(random_games(draughts.get_variant(name), 2), 200, 4_000)
    assert grown.calls > 400_000
    grown.check(name)


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

    growth(search, 1, runs).check("bounded searches")


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

    growth(fail, 2_000, runs).check("failing calls")
