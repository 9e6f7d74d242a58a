"""The native core's binding (``draughts._native``, native/python) against the Python generator
it replaced, as recorded, and against the naive oracle.

The Python generator is gone; what it answered is recorded in ``tests/data/native/`` (at commit
687cb68, by ``tools/native_fixtures.py``, which now checks the fixtures against the library). The
binding must give exactly those answers, through both of its paths (the public tuples of
``Rules.legal`` and the ``Move`` objects of ``legal_moves`` the library uses): the legal list in
both duplicate conventions (start, end, captured squares in capture order, path, promotion, xor
masks, in the same order), the moves as xor masks, captures, ``can_capture``, the move counts
and small perft, for every named ruleset and transform, the rulesets that exercise every rule
dimension (boards to 26x26), the floods, the rule-book examples and the hand-worked cases; the
node after each move is what its masks say and counts as recorded. Hypothesis-generated
rulesets anywhere in the rule space and user-defined precedence criteria (a Python callback) are
checked against the naive oracle (tests/naive.py). Then the published perft counts through the
binding, and a fuzz of its entry points: only ``DraughtsError`` (or ``TypeError`` for an
argument that is not an int) ever comes out.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import draughts
import naive
from draughts import BLACK, WHITE
from draughts._core import build_move_generator
from draughts._core.native import native_precedence, native_rules, native_spec
from draughts.errors import CaptureSearchLimitError, DraughtsError, InvalidRulesetError
from draughts.rules import CaptureFacts, Criterion, MostPieces, Ruleset
from interrupt import assert_stops_on_ctrl_c
from native_search import MAX_STATES
from strategies import PATHS_BUDGET, affordable, family_rulesets, positions

_native = pytest.importorskip("draughts._native", reason="the native extension is not built")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import native_fixtures  # noqa: E402  (tools/: the fixtures' rulesets, their answers, random nodes)

Node = tuple[int, int, int, int, int]
FIXTURES = ROOT / "tests" / "data" / "native"

ALL_RULESETS = native_fixtures.fixture_rulesets()
"""Every ruleset of the fixtures, in the order of rulesets.json: the named variants, the
transforms, dctl's Thai start, the custom rulesets that exercise every rule dimension, the floods'
and the hand-worked cases' (tools/native_fixtures.py, the Rust tests' rulesets)."""
KNOWN = {rules.name: rules for rules in ALL_RULESETS}
GROUPS = json.loads((FIXTURES / "positions.json").read_text())
"""The recorded positions, one group per ruleset (random positions, then the cases)."""


# --- the binding against the recorded Python generator ---


def _public_legal(native: Any, node: Node, paths: bool) -> list[str]:
    """``Rules.legal`` (public tuples) in the fixtures' text form."""
    out = []
    for start, end, captured, path, promotes, compact in native.legal(*node, paths):
        squares = ",".join(str(s) for s in captured)
        steps = ",".join(str(s) for s in path)
        out.append(f"{start}-{end}|{squares}|{steps}|{int(promotes)}|{native_fixtures._compact(compact)}")
    return out


def binding_answers(native: Any, recorded: dict[str, Any]) -> dict[str, Any]:
    """The recorded questions asked of the ``Rules`` object's own methods, answered in the
    fixtures' form (:func:`native_fixtures.answers` asks the library's ``MoveGenerator``)."""
    node = native_fixtures.node_of(recorded["node"])
    own, opp, kings, color, _ = node
    depth = recorded["perft"][0] if "perft" in recorded else 0
    text = native_fixtures._compact
    calls: list[tuple[str, Callable[[], Any]]] = [
        ("legal", lambda: _public_legal(native, node, False)),
        ("legal_paths", lambda: _public_legal(native, node, True)),
        ("moves", lambda: [text(c) for c in native.moves(*node)]),
        ("moves_paths", lambda: [text(c) for c in native.moves(*node, True)]),
        ("captures", lambda: [text(c) for c in native.captures(own, opp, kings, color)]),
        ("can_capture", lambda: native.can_capture(own, opp, kings, color)),
        ("count1", lambda: [native.count1(*node, False), native.count1(*node, True)]),
    ]
    if "count2" in recorded or recorded.get("error_at") == "count2":
        calls.append(("count2", lambda: [native.count2(*node, False), native.count2(*node, True)]))
    if depth:
        calls.append(("perft", lambda: [depth, native.perft(node, depth, False), native.perft(node, depth, True)]))
    out: dict[str, Any] = {"node": recorded["node"]}
    for label, call in calls:
        try:
            out[label] = call()
        except CaptureSearchLimitError as error:
            out["error_at"] = label
            out["square"] = native_fixtures._square_of(str(error))
            break
    if out.get("legal_paths") == out.get("legal"):
        out.pop("legal_paths", None)
    if out.get("moves_paths") == out.get("moves"):
        out.pop("moves_paths", None)
    return out


def assert_children(rules: Ruleset, recorded: dict[str, Any]) -> None:
    """The node after each move (every path) is what its xor masks say, sides swapped, by both
    play entry points; one ply further, the counts sum to the recorded count2."""
    if "error_at" in recorded:
        return
    node = native_fixtures.node_of(recorded["node"])
    own, opp, kings, color, _ = node
    gen = build_move_generator(rules)
    native = gen.native
    for moved, captured, crowned in native.moves(*node, True):
        child = native.play(*node, moved, captured, crowned)
        assert tuple(gen.play(*node, (moved, captured, crowned))) == child
        assert child[:4] == (opp ^ captured, own ^ moved, kings ^ crowned, 1 - color)
    if "count2" in recorded:
        counted = [
            sum(native.count1(*native.play(*node, *c), paths) for c in native.moves(*node, paths))
            for paths in (False, True)
        ]
        assert counted == recorded["count2"]


def _group_params() -> list[Any]:
    """One parameter per recorded group; the random placements on boards over 300 squares (dense
    26x26 captures searched to the bound, two minutes of the two generators' time) run with the
    slow tests: the Rust tests and ``tools/native_fixtures.py --check`` check them in every run."""
    params = []
    for index, group in enumerate(GROUPS):
        name, entries = group["ruleset"], group["positions"]
        if KNOWN[name].squares > 300:  # the playouts come first: 12 on such boards
            params.append(pytest.param(name, entries[:12], id=f"{name}-{index}-playouts"))
            params.append(pytest.param(name, entries[12:], id=f"{name}-{index}-placements", marks=pytest.mark.slow))
        else:
            params.append(pytest.param(name, entries, id=f"{name}-{index}"))
    return params


@pytest.mark.parametrize(("name", "entries"), _group_params())
def test_the_binding_answers_as_the_python_generator_recorded(name: str, entries: list[dict[str, Any]]) -> None:
    """Every recorded position of one ruleset: the library's generator and the ``Rules`` object's
    own methods give Python's answers exactly, and the children are right."""
    rules = KNOWN[name]
    gen = build_move_generator(rules)
    for index, recorded in enumerate(entries):
        assert native_fixtures.recorded_answers(gen, recorded) == recorded, f"{rules.name} #{index}"
        assert binding_answers(gen.native, recorded) == recorded, f"{rules.name} #{index} (Rules methods)"
        assert_children(rules, recorded)


@pytest.mark.parametrize("index", range(5), ids=lambda index: f"flood-{index}")
def test_floods_answer_as_recorded_with_the_same_work(index: int) -> None:
    """The floods: the same answers (every-path lists by their lengths) and the same number of
    calls of the abort hook as the Python search made (its work, state for state)."""
    recorded = json.loads((FIXTURES / "floods.json").read_text())[index]
    rules, node = native_fixtures.flood_cases()[index]
    assert native_fixtures.flood_answers(rules, node) == recorded


@pytest.mark.parametrize("recorded", json.loads((FIXTURES / "rulesets.json").read_text()), ids=lambda r: r["name"])
def test_the_spec_and_layout_are_the_recorded_tables(recorded: dict[str, Any]) -> None:
    """The spec the library makes of each ruleset is the recorded one, and the binding's square <->
    bit maps, board, crowning rows and start are the recorded Python tables'."""
    rules = KNOWN[recorded["name"]]
    assert native_fixtures.spec(rules) == recorded
    native = native_rules(rules)
    assert native.bit_of_square[1:] == recorded["bit_of_square"]
    assert native.board == int(recorded["board"], 16)
    assert native.crown_rows == tuple(int(row, 16) for row in recorded["crown_rows"])
    first = recorded["first_to_move"]
    white, black = (int(men, 16) for men in recorded["start_men"])
    assert native.start() == ((white, black, 0, 0, 0) if first == 0 else (black, white, 0, 1, 0))
    assert native.king_move_limit == recorded["king_move_limit"]
    assert native_rules(rules) is native  # compiled once per ruleset


@pytest.mark.parametrize(
    ("variant", "change"),
    [
        ("international", {"value_weights": (1, 5)}),  # most pieces: the weights are (1, 1)
        ("italian", {"single_jump_preference": -1}),  # its criteria prefer taking a king: +1
        ("russian", {"value_weights": (1, 1)}),  # free choice implies no value bound
    ],
)
def test_a_spec_whose_precedence_facts_do_not_follow_from_its_criteria_is_refused(
    variant: str, change: dict[str, Any]
) -> None:
    """The core trusts the value bound and the single-jump preference a spec gives: for built-in
    criteria (or free choice) a hand-written spec that contradicts them is refused, naming both
    (accepted before, and its lists and counts could disagree)."""
    spec = native_spec(draughts.get_variant(variant))
    assert _native.Rules(spec, None).start() == native_rules(draughts.get_variant(variant)).start()
    with pytest.raises(InvalidRulesetError, match="do not follow from the precedence") as refused:
        _native.Rules({**spec, **change}, None)
    assert str(next(iter(change.values()))) in str(refused.value)


def test_a_spec_with_an_external_precedence_keeps_its_facts() -> None:
    """An external precedence (a Python callback) alone knows its key: its facts are not checked."""
    spec = {**native_spec(draughts.get_variant("international")), "precedence": []}
    spec["value_weights"], spec["single_jump_preference"] = None, 1
    assert _native.Rules(spec, lambda facts: [True] * len(facts)).start()


def test_both_spec_readers_name_the_bad_field_of_their_dictionary() -> None:
    """One reader (``convert.rs``'s ``dict_field``) serves the rules' spec and the draw rules' spec,
    each error naming its dictionary, the field and the value."""
    spec = native_spec(draughts.get_variant("russian"))
    with pytest.raises(InvalidRulesetError, match='native spec field "men_move": missing'):
        _native.Rules({key: value for key, value in spec.items() if key != "men_move"}, None)
    with pytest.raises(InvalidRulesetError, match='native spec field "rows_per_side": x does not fit'):
        _native.Rules({**spec, "rows_per_side": "x"}, None)
    draws = {"repetitions": 3, "repetition_claim": False, "move_counts": [], "endgames": [], "main_diagonal": 0}
    with pytest.raises(InvalidRulesetError, match='draw rules field "bits": missing'):
        _native.DrawRules(draws)
    with pytest.raises(InvalidRulesetError, match='draw rules field "bits": -1 does not fit'):
        _native.DrawRules({**draws, "bits": -1})


def test_rule_state_helpers_read_the_recorded_states() -> None:
    """King-move counts: every recorded state decodes to a king of its side and a count within the
    limit, and is rebuilt from those; the state value round-trips; past the limit is refused."""
    decoded = 0
    for group in GROUPS:
        rules = KNOWN[group["ruleset"]]
        native = native_rules(rules)
        squares = build_move_generator(rules).tables.square_of_bit
        for recorded in group["positions"]:
            own, opp, kings, color, state = native_fixtures.node_of(recorded["node"])
            if not state:
                continue
            rebuilt = 0
            for side, pieces in ((color, own), (1 - color, opp)):
                found = native.king_moves(state, side)
                if found is not None:
                    square, count = found
                    assert 1 <= count <= native.king_move_limit
                    king_squares = [
                        squares[bit] for bit in range((pieces & kings).bit_length()) if (pieces & kings) >> bit & 1
                    ]
                    assert square in king_squares
                    rebuilt |= native.state_value(side, square, count)
                    decoded += 1
            assert rebuilt == state
    assert decoded > 50
    native = native_rules(draughts.get_variant("frisian"))
    for side in (0, 1):
        for count in range(1, 4):
            assert native.king_moves(native.state_value(side, 23, count), side) == (23, count)
    with pytest.raises(draughts.InvalidPositionError, match="king-move count"):
        native.state_value(0, 23, 4)


# --- the binding against the naive oracle ---


def oracle_state(rules: Ruleset, node: Node) -> naive.State:
    """The naive state of a node (pieces, side to move, king-move runs)."""
    own, opp, kings, color, state = node
    native = native_rules(rules)
    squares = build_move_generator(rules).tables.square_of_bit
    geo = rules.geometry
    board = {}
    for mask, side in ((own, color), (opp, 1 - color)):
        for bit in range(mask.bit_length()):
            if mask >> bit & 1:
                board[geo.coords[squares[bit]]] = (WHITE if side == 0 else BLACK, bool(kings >> bit & 1))
    runs = [naive.NO_RUN, naive.NO_RUN]
    for side in (0, 1):
        found = native.king_moves(state, side) if state else None
        if found is not None:
            runs[side] = naive.Run(geo.coords[found[0]], found[1])
    return naive.State(rules, board, WHITE if color == 0 else BLACK, (runs[0], runs[1]))


def assert_agrees_with_the_oracle(rules: Ruleset, node: Node, depth: int) -> None:
    """The binding's legal moves (identities, every path with its captures in order and promotion),
    counts and perft to ``depth`` against the naive oracle's."""
    native = native_rules(rules)
    state = oracle_state(rules, node)
    every = naive.moves(state, paths=True)
    merged = naive.moves(state)
    listed = native.legal(*node, False)
    assert {(m[0], m[1], frozenset(m[2])) for m in listed} == {m.identity for m in merged}
    assert len(listed) == len(merged)
    paths = Counter((m[3], m[2], m[4]) for m in native.legal(*node, True))
    assert paths == Counter((m.path, m.captured, m.promotes) for m in every)
    assert [native.count1(*node, False), native.count1(*node, True)] == [len(merged), len(every)]
    if depth:
        assert native.perft(node, depth, False) == naive.perft(state, depth)
        assert native.perft(node, depth, True) == naive.perft(state, depth, paths=True)


def sample_nodes(rules: Ruleset, seed: int, playouts: int, placements: int) -> list[Node]:
    """Nodes of random playouts from the start and random placements (kings, king-move counts)."""
    rng = random.Random(seed)
    gen = build_move_generator(rules)
    start = gen.native.start()
    nodes = native_fixtures.playout_nodes(gen, rng, start, playouts)
    nodes += native_fixtures.placement_nodes(rules, gen, rng, placements, dense=rng.random() < 0.5)
    return [tuple(node) for node in nodes]  # type: ignore[misc]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_random_rulesets_of_the_family_agree_with_the_oracle(data: st.DataObject) -> None:
    """Any point of the rule space (hypothesis) and random positions of it, with a random
    king-move count where the rules keep one."""
    rules = data.draw(family_rulesets())
    position = data.draw(positions(rules))
    assume(affordable(position, PATHS_BUDGET))
    own, opp, kings, color, state = position.node
    native = native_rules(rules)
    squares = build_move_generator(rules).tables.square_of_bit
    own_kings = [bit for bit in range(own.bit_length()) if (own & kings) >> bit & 1]
    if native.king_move_limit and own_kings:
        king = squares[data.draw(st.sampled_from(own_kings))]
        state = native.state_value(color, king, data.draw(st.integers(1, native.king_move_limit)))
    depth = data.draw(st.integers(0, 2))
    if depth == 2 and not affordable(position, PATHS_BUDGET, depth=2):
        # The oracle's work two plies deep held to its bound at the root: a dense position of
        # flying kings can have a few thousand moves with as many replies each (hours in the oracle).
        depth = 1
    assert_agrees_with_the_oracle(rules, (own, opp, kings, color, state), depth=depth)


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
    """A criterion the core does not know goes over as a Python callback, with the oracle's
    semantics (the best tuple of the criteria's keys)."""
    assert native_precedence(rules) is None
    for index, node in enumerate(sample_nodes(rules, 7, 10, 25)):
        assert_agrees_with_the_oracle(rules, node, depth=2 if index % 4 == 0 else 1)


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


PERFT = json.loads((FIXTURES / "perft.json").read_text())
PUBLISHED = [c for c in PERFT if c["source"] != "python" and c["checked_by_python"] and c["count"] <= 40_000_000]


@pytest.mark.parametrize("case", PUBLISHED, ids=lambda c: f"{c['ruleset']}-{c['depth']}-{c['paths']}")
def test_published_perft_through_the_binding(case: dict[str, Any]) -> None:
    """Every published count the library asserts (tests/data/perft*.json; kish's deeper Turkish
    counts hold repeated actions) up to 40 M leaves, each about a second at most."""
    node = native_fixtures.node_of(case["node"])
    assert native_rules(KNOWN[case["ruleset"]]).perft(node, case["depth"], case["paths"]) == case["count"]


def test_the_published_cases_are_the_data_files() -> None:
    """perft.json's published counts and nodes are what tests/data/perft*.json and the library's
    start positions give today."""
    assert [c for c in PERFT if c["source"] != "python"] == native_fixtures.perft_cases(KNOWN)


def test_perft_from_every_start_as_the_python_generator_counted() -> None:
    """The Python generator's perft from the start of every fixture ruleset, both conventions, to
    the first depth past 100,000 leaves."""
    cases = [c for c in PERFT if c["source"] == "python"]
    assert len({c["ruleset"] for c in cases}) == len(ALL_RULESETS)
    for case in cases:
        native = native_rules(KNOWN[case["ruleset"]])
        assert native_fixtures.node_of(case["node"]) == native.start()
        assert native.perft(native.start(), case["depth"], case["paths"]) == case["count"], case


@pytest.mark.timeout(60)
def test_perft_releases_the_gil_and_stops_on_ctrl_c() -> None:
    """A perft too deep to finish: another thread runs meanwhile (the GIL is released) and its
    SIGINT stops it with KeyboardInterrupt (the abort hook runs Python's signal handlers)."""
    native = native_rules(draughts.get_variant("international"))
    assert_stops_on_ctrl_c(lambda: native.perft(native.start(), 30), after=0)
    assert native.perft(native.start(), 3) == 658


def test_the_capture_search_bound_holds_natively() -> None:
    """The Frisian flood of issue 23, every path asked for: the CaptureSearchLimitError the Python
    search raised, on the recorded square, with its message."""
    recorded = json.loads((FIXTURES / "floods.json").read_text())[4]
    assert recorded["error_at"] == "legal_paths"
    rules, node = native_fixtures.flood_cases()[4]
    with pytest.raises(CaptureSearchLimitError) as raised:
        native_rules(rules).legal(*node, True)
    assert str(raised.value) == (
        f"the capture search of the piece on square {recorded['square']} expanded more than {MAX_STATES:,} states: "
        "the ruleset allows captures too many to enumerate in this position"
    )


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
