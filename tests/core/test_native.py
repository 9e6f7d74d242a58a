"""The native core's binding (``draughts._native``, native/python) against the Python generator.

Until the switch-over the library runs the Python generator (``draughts._core``); the native
core must give exactly its answers: the legal list in both duplicate conventions (start, end,
captured squares in capture order, path, promotion, xor masks, in the same order), the moves as
xor masks, the node after each move, captures, ``can_capture``, the move counts and small perft,
for every named ruleset and transform, the rulesets of ``tools/native_fixtures.py`` that exercise
every rule dimension (boards to 26x26), hypothesis-generated rulesets anywhere in the rule space,
and user-defined precedence criteria (a Python callback). Then the published perft counts
through the binding, and a fuzz of its entry points: only ``DraughtsError`` (or ``TypeError``
for an argument that is not an int) ever comes out.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import threading
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import draughts
from draughts._core import build_move_generator
from draughts._core.native import native_precedence, native_rules, native_spec
from draughts.errors import CaptureSearchLimitError, DraughtsError, InvalidRulesetError
from draughts.perft import _count
from draughts.rules import CaptureFacts, Criterion, MostPieces, Ruleset
from strategies import family_rulesets, positions

_native = pytest.importorskip("draughts._native", reason="the native extension is not built")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import native_fixtures  # noqa: E402  (tools/: the rulesets and random nodes the Rust tests use too)

Node = tuple[int, int, int, int, int]


def python_answers(rules: Ruleset, node: Node, depth: int) -> dict[str, Any]:
    """What the Python generator says about ``node`` (the call that raises: its error class)."""
    gen = build_move_generator(rules)
    own, opp, kings, color, _ = node
    out: dict[str, Any] = {}

    def legal(paths: bool) -> list[Any]:
        moves, compacts = gen.legal(*node, paths)
        return [
            (m.start, m.end, tuple(m.captured), tuple(m.path), m.promotes, tuple(c))
            for m, c in zip(moves, compacts, strict=True)
        ]

    calls: list[tuple[str, Callable[[], Any]]] = [
        ("legal", lambda: legal(False)),
        ("legal_paths", lambda: legal(True)),
        ("moves", lambda: [tuple(c) for c in gen.moves(*node)]),
        ("moves_paths", lambda: [tuple(c) for c in gen.paths(*node)]),
        ("children", lambda: [tuple(gen.play(*node, c)) for c in gen.paths(*node)]),
        ("captures", lambda: [tuple(c) for c in gen.captures(own, opp, kings, color)]),
        ("can_capture", lambda: gen.can_capture(own, opp, kings, color)),
        ("count", lambda: [gen.count1(*node, False), gen.count1(*node, True), gen.count2(*node, False)]),
        ("perft", lambda: [_count(gen, *node, depth, False), _count(gen, *node, depth, True)] if depth else []),
    ]
    return _answers(calls, out)


def native_answers(rules: Ruleset, node: Node, depth: int) -> dict[str, Any]:
    """The same answers from the binding."""
    native = native_rules(rules)
    calls: list[tuple[str, Callable[[], Any]]] = [
        ("legal", lambda: native.legal(*node, False)),
        ("legal_paths", lambda: native.legal(*node, True)),
        ("moves", lambda: native.moves(*node)),
        ("moves_paths", lambda: native.moves(*node, True)),
        ("children", lambda: [native.play(*node, *c) for c in native.moves(*node, True)]),
        ("captures", lambda: native.captures(*node)),
        ("can_capture", lambda: native.can_capture(*node)),
        ("count", lambda: [native.count1(*node, False), native.count1(*node, True), native.count2(*node, False)]),
        ("perft", lambda: [native.perft(node, depth, False), native.perft(node, depth, True)] if depth else []),
    ]
    return _answers(calls, {})


def _answers(calls: list[tuple[str, Callable[[], Any]]], out: dict[str, Any]) -> dict[str, Any]:
    for label, call in calls:
        try:
            out[label] = call()
        except CaptureSearchLimitError as error:
            out[label] = ("CaptureSearchLimitError", str(error))
    return out


def assert_same(rules: Ruleset, node: Node, depth: int = 0) -> None:
    expected = python_answers(rules, node, depth)
    found = native_answers(rules, node, depth)
    for label, value in expected.items():
        assert found[label] == value, f"{rules.name} {label} differ at node {node}"


def sample_nodes(rules: Ruleset, seed: int, playouts: int, placements: int) -> list[Node]:
    """Nodes of random playouts from the start and random placements (kings, king-move counts)."""
    rng = random.Random(seed)
    gen = build_move_generator(rules)
    t = gen.tables
    first = 0 if rules.first_to_move is draughts.WHITE else 1
    start = (t.start_men[first], t.start_men[1 - first], 0, first, 0)
    nodes = native_fixtures.playout_nodes(gen, rng, start, playouts)
    nodes += native_fixtures.placement_nodes(rules, gen, rng, placements, dense=rng.random() < 0.5)
    return [tuple(node) for node in nodes]  # type: ignore[misc]


ALL_RULESETS = native_fixtures.rulesets()
"""Every named variant, the transforms, dctl's Thai start and the custom rulesets that exercise
every rule dimension (tools/native_fixtures.py, the Rust tests' rulesets)."""


@pytest.mark.parametrize("rules", ALL_RULESETS, ids=lambda rules: rules.name)
def test_the_binding_agrees_with_the_python_generator(rules: Ruleset) -> None:
    """Legal lists (both conventions), moves, children, captures, counts and perft 2 agree on
    random playout and placement nodes (with kings and king-move counts) of every ruleset."""
    huge = rules.squares > 150
    nodes = sample_nodes(rules, zlib.crc32(rules.name.encode()), 2 if huge else 8, 0 if huge else 8)
    for index, node in enumerate(nodes):
        assert_same(rules, node, depth=0 if huge or index % 3 else 2)


@pytest.mark.parametrize("name", ["international", "russian", "frisian", "turkish", "canadian", "american"])
def test_the_spec_and_layout_are_the_python_tables(name: str) -> None:
    """The binding's square <-> bit maps, board, crowning rows and start are the Python tables'."""
    rules = draughts.get_variant(name)
    t = build_move_generator(rules).tables
    native = native_rules(rules)
    assert native.bit_of_square[1:] == list(t.bit_of_square[1:])
    assert native.board == t.board
    assert native.crown_rows == tuple(t.crown_row)
    assert native.start() == draughts.Position.initial(rules).node
    assert native.king_move_limit == (rules.king_move_limit or 0)
    assert native_rules(rules) is native  # compiled once per ruleset


def test_rule_state_helpers_agree_with_the_python_state() -> None:
    """Frisian's king-move counts: the state value, its decoding and the canonical state."""
    rules = draughts.get_variant("frisian")
    state = build_move_generator(rules).tables.state
    native = native_rules(rules)
    square = 23
    bit = build_move_generator(rules).tables.bit_of_square[square]
    for color in (0, 1):
        for count in range(1, state.limit + 1):
            value = native.state_value(color, square, count)
            assert value == state.value(color, bit, count)
            assert native.king_moves(value, color) == (square, count)
    with pytest.raises(draughts.InvalidPositionError, match="king-move count"):
        native.state_value(0, square, state.limit + 1)


@settings(max_examples=60)
@given(st.data())
def test_random_rulesets_of_the_family_agree(data: st.DataObject) -> None:
    """Any point of the rule space (hypothesis) and random positions of it, with a random
    king-move count where the rules keep one."""
    rules = data.draw(family_rulesets())
    position = data.draw(positions(rules))
    own, opp, kings, color, state = position.node
    t = build_move_generator(rules).tables
    own_kings = [i for i in range(own.bit_length()) if (own & kings) >> i & 1]
    if t.state.keeps and own_kings:
        king = data.draw(st.sampled_from(own_kings))
        state = t.state.value(color, king, data.draw(st.integers(1, t.state.limit)))
    assert_same(rules, (own, opp, kings, color, state), depth=data.draw(st.integers(0, 2)))


class FewestTakenNativeCheck(Criterion):
    """A user-defined criterion: the capture taking the fewest pieces."""

    label = "fewest taken"

    def key(self, capture: CaptureFacts) -> int:
        return -capture.pieces


class MostPiecesThenLastIsKingNativeCheck(MostPieces):
    """A subclass of a built-in criterion with its own key (so not the built-in one)."""

    needs_order = True

    def key(self, capture: CaptureFacts) -> Any:
        return (capture.pieces, capture.order[-1:] == (True,))


CUSTOM_PRECEDENCE = [
    attrs.evolve(draughts.get_variant("international"), name="fewest", precedence=(FewestTakenNativeCheck(),)),
    attrs.evolve(
        draughts.get_variant("brazilian"), name="last-king", precedence=(MostPiecesThenLastIsKingNativeCheck(),)
    ),
    attrs.evolve(
        draughts.get_variant("frisian"), name="frisian-fewest", precedence=(FewestTakenNativeCheck(), MostPieces())
    ),
]


@pytest.mark.parametrize("rules", CUSTOM_PRECEDENCE, ids=lambda rules: rules.name)
def test_user_defined_criteria_run_as_python_callbacks(rules: Ruleset) -> None:
    """A criterion the core does not know goes over as a Python callback, with today's semantics."""
    assert native_precedence(rules) is None
    for node in sample_nodes(rules, 7, 10, 25):
        assert_same(rules, node, depth=2)


def test_a_user_defined_criterion_is_honoured() -> None:
    """Fewest taken reverses International's majority rule: 1x2 captures, not the double."""
    free = attrs.evolve(draughts.get_variant("international"), precedence=())
    position = draughts.Position.from_fen(free, "W:W28:B11,22,23")  # a capture of one piece or of two
    node = position.node
    fewest = CUSTOM_PRECEDENCE[0]
    taken = {len(m[2]) for m in native_rules(fewest).legal(*node)}
    most = {len(m[2]) for m in native_rules(draughts.get_variant("international")).legal(*node)}
    every = {len(m[2]) for m in native_rules(free).legal(*node)}
    assert len(every) > 1
    assert taken == {min(every)}
    assert most == {max(every)}


def test_a_failing_criterion_raises_its_own_error() -> None:
    """A Python error inside the callback comes out of the native call as it was raised."""

    class BrokenNativeCheck(Criterion):
        label = "broken"

        def key(self, capture: CaptureFacts) -> int:
            if capture.pieces > 1:  # (the tables try single captures when they are built)
                raise ZeroDivisionError("no key")
            return 0

    rules = attrs.evolve(draughts.get_variant("international"), name="broken", precedence=(BrokenNativeCheck(),))
    position = draughts.Position.from_fen(rules, "W:W28:B11,22,23")
    native = native_rules(rules)
    with pytest.raises(ZeroDivisionError, match="no key"):
        native.legal(*position.node)
    assert native.legal(*native.start())  # the next call is unaffected


def _published() -> list[dict[str, Any]]:
    known = {rules.name: rules for rules in ALL_RULESETS}
    cases = native_fixtures.perft_cases(known)
    return [case for case in cases if case["checked_by_python"] and case["count"] <= 40_000_000]


@pytest.mark.parametrize("case", _published(), ids=lambda c: f"{c['ruleset']}-{c['depth']}-{c['paths']}")
def test_published_perft_through_the_binding(case: dict[str, Any]) -> None:
    """Every published count the library asserts (tests/data/perft*.json; kish's deeper Turkish
    counts hold repeated actions) up to 40 M leaves, each about a second at most."""
    known = {rules.name: rules for rules in ALL_RULESETS}
    own, opp, kings, color, state = case["node"]
    node = (int(own, 16), int(opp, 16), int(kings, 16), color, int(state, 16))
    assert native_rules(known[case["ruleset"]]).perft(node, case["depth"], case["paths"]) == case["count"]


@pytest.mark.timeout(60)
def test_perft_releases_the_gil_and_stops_on_ctrl_c() -> None:
    """A perft too deep to finish: another thread runs meanwhile (the GIL is released) and its
    SIGINT stops it with KeyboardInterrupt (the abort hook runs Python's signal handlers)."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    native = native_rules(draughts.get_variant("international"))
    started = threading.Event()
    interrupt = threading.Thread(target=lambda: (started.wait(), os.kill(os.getpid(), signal.SIGINT)))
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        interrupt.start()
        started.set()
        with pytest.raises(KeyboardInterrupt):
            native.perft(native.start(), 30)
    finally:
        interrupt.join()
        signal.signal(signal.SIGINT, previous)
    assert native.perft(native.start(), 3) == 658


def test_the_capture_search_bound_holds_natively() -> None:
    """The Frisian flood of issue 23: the same CaptureSearchLimitError (and message) as Python."""
    flood = json.loads((ROOT / "tests" / "data" / "frisian_two_kings_19_taken.json").read_text())
    position = draughts.Position.from_fen(flood["variant"], flood["fen"])
    node = position.node
    with pytest.raises(CaptureSearchLimitError) as python:
        build_move_generator(position.ruleset).legal(*node, True)
    with pytest.raises(CaptureSearchLimitError) as native:
        native_rules(position.ruleset).legal(*node, True)
    assert str(native.value) == str(python.value)


# --- fuzz: only DraughtsError (or TypeError for a non-int argument) comes out ---

FUZZ_COUNTS = {"specs": 0, "refused": 0, "calls": 0, "errors": 0}


def _mutated_spec(data: st.DataObject) -> dict[str, Any]:
    spec = native_spec(data.draw(st.sampled_from(ALL_RULESETS[:30])))
    for _ in range(data.draw(st.integers(0, 2))):
        key = data.draw(st.sampled_from(sorted(spec)))
        spec[key] = data.draw(
            st.one_of(
                st.integers(-(2**70), 2**70),
                st.integers(0, 40),
                st.booleans(),
                st.none(),
                st.text(max_size=12),
                st.sampled_from(["TOP_LEFT", "ONLY_AT_END", "DIRECTLY_BEHIND", "BEHIND_LAST_KING"]),
                st.lists(
                    st.tuples(
                        st.sampled_from(["MostPieces", "MostValue", "Nope"]), st.integers(0, 3), st.integers(0, 3)
                    ),
                    max_size=3,
                ),
            )
        )
    if data.draw(st.integers(0, 7)) == 0:
        spec.pop(data.draw(st.sampled_from(sorted(spec))))
    return spec


def _fuzz_call(call: Callable[[], Any]) -> None:
    FUZZ_COUNTS["calls"] += 1
    try:
        call()
    except (DraughtsError, TypeError):
        FUZZ_COUNTS["errors"] += 1


@settings(max_examples=300)
@given(st.data())
def test_fuzz_the_native_entry_points(data: st.DataObject) -> None:
    """Random specs (valid and not), random limbs (overlapping sides, ghost and out-of-layout bits,
    negative and huge ints), random masks to play: never a panic, a crash or another exception."""
    spec = _mutated_spec(data)
    FUZZ_COUNTS["specs"] += 1
    try:
        native = _native.Rules(spec)
    except (InvalidRulesetError, TypeError):
        FUZZ_COUNTS["refused"] += 1
        return
    width = native.width
    bits = st.one_of(
        st.integers(0, 2**width - 1),
        st.integers(0, native.board),
        st.just(native.board),
        st.integers(-(2**8), 2 ** (width + 70)),
    )
    node = (data.draw(bits), data.draw(bits), data.draw(bits), data.draw(st.integers(-2, 3)), data.draw(bits))
    if data.draw(st.booleans()):  # a node the rules accept, so that the search runs
        own, opp, kings, color, _ = native.start()
        node = (own, opp & ~data.draw(bits) if node[1] >= 0 else opp, kings, color, 0)
    for paths in (False, True):
        _fuzz_call(lambda paths=paths: native.legal(*node, paths))
        _fuzz_call(lambda paths=paths: native.moves(*node, paths))
        _fuzz_call(lambda paths=paths: native.count1(*node, paths))
        _fuzz_call(lambda paths=paths: native.count2(*node, paths))
        _fuzz_call(lambda paths=paths: native.perft(node, data.draw(st.integers(0, 2)), paths))
    _fuzz_call(lambda: native.captures(*node))
    _fuzz_call(lambda: native.can_capture(*node))
    _fuzz_call(lambda: native.check(*node))
    _fuzz_call(lambda: native.play(*node, data.draw(bits), data.draw(bits), data.draw(bits)))
    anything = st.one_of(st.integers(-(2**130), 2**130), st.integers(-2, 300))
    _fuzz_call(lambda: native.canonical(node[0], node[1], node[2], data.draw(anything)))
    _fuzz_call(lambda: native.state_value(data.draw(anything), data.draw(anything), data.draw(anything)))
    _fuzz_call(lambda: native.king_moves(data.draw(anything), data.draw(anything)))
    out_of_range = st.one_of(st.integers(-(2**130), -1), st.integers(2**32, 2**130))  # (no deep perft)
    _fuzz_call(lambda: native.perft(node, data.draw(out_of_range)))
    _fuzz_call(lambda: native.perft(node[:3], 1))  # type: ignore[arg-type]
    _fuzz_call(lambda: native.legal("own", *node[1:]))  # type: ignore[arg-type]


def test_a_panic_in_the_core_reaches_python_as_a_draughts_error() -> None:
    """A panic inside a native call is caught at the boundary: a DraughtsError naming it as a bug,
    not PyO3's PanicException (which is no DraughtsError), and the module goes on working."""
    with pytest.raises(DraughtsError, match=r"internal error in the native core.*probe"):
        _native._panic_probe()
    native = native_rules(draughts.get_variant("russian"))
    assert native.perft(native.start(), 3) == 302
