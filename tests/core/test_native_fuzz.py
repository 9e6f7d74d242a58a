"""A hypothesis fuzz of the native core through its binding ``draughts._native`` (issue 37 §3).

Random FEN text (valid, mutated and junk) through :meth:`Position.from_fen` and on into the core;
random rulesets anywhere in the rule space, with user-defined precedence criteria that behave,
raise their own error or return garbage keys; random nodes (ints in and out of the layout,
negative, huge); random move sequences with the list, count, child and perft invariants checked;
and precedence callbacks at the binding that answer garbage. What may come out:

* a :class:`~draughts.errors.DraughtsError` (a refused FEN, ruleset, node or move, the capture
  search's bound, a callback's bad answer, a criterion's keys that do not compare);
* the error a user-defined criterion raises itself, as it raised it (as the Python generator
  always did: ``test_native.py::test_a_failing_criterion_raises_its_own_error``);

never a panic, a ``SystemError``, a ``PanicException`` or any other exception. The default run
is short; ``-m slow`` runs the long one (``FUZZ_EXAMPLES`` examples per test, default 20,000) and
``-s`` prints the counts.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
from draughts.errors import DraughtsError, InvalidRulesetError
from draughts.rules import CaptureFacts, Criterion, MostPieces, Ruleset
from strategies import family_rulesets, positions

_native = pytest.importorskip("draughts._native", reason="the native extension is not built")

Node = tuple[int, int, int, int, int]

COUNTS: Counter[str] = Counter()
"""What the fuzz ran and what came out (printed at the end of the module with ``-s``)."""


def native_of(rules: Ruleset) -> Any:
    """The compiled native rules of ``rules`` (the one line to change when the bindings move)."""
    from draughts._core.native import native_rules

    return native_rules(rules)


@pytest.fixture(scope="module", autouse=True)
def _print_counts() -> Iterator[None]:
    yield
    print("\nnative fuzz counts:", dict(sorted(COUNTS.items())))


class CriterionFailed(Exception):
    """What the raising criterion raises (not a DraughtsError: it must come out as it is)."""


class RaisingFuzzCriterion(Criterion):
    """A user-defined criterion that fails on captures of two or more pieces."""

    label = "raises"

    def key(self, capture: CaptureFacts) -> int:
        if capture.pieces > 1:
            raise CriterionFailed(f"no key for {capture}")
        return 0


@attrs.frozen
class GarbageFuzzCriterion(Criterion):
    """A user-defined criterion whose keys are garbage of one kind (``kind``)."""

    kind: str = "nan"
    label = "garbage"

    def key(self, capture: CaptureFacts) -> Any:
        if self.kind == "nan":  # keys that compare false even to themselves
            return float("nan")
        if self.kind == "huge":
            return (-1) ** capture.pieces * 10**400 + capture.kings
        if self.kind == "tuples":
            return (capture.order, capture.with_king, -capture.pieces)
        return None if capture.kings else "x"  # "mixed": keys that do not compare


class FewestFuzzCriterion(Criterion):
    """A well-behaved user-defined criterion: the fewest pieces taken."""

    label = "fewest"

    def key(self, capture: CaptureFacts) -> int:
        return -capture.pieces


USER_CRITERIA: list[Criterion] = [
    RaisingFuzzCriterion(),
    FewestFuzzCriterion(),
    *(GarbageFuzzCriterion(kind) for kind in ("nan", "huge", "tuples", "mixed")),
]


def own_errors(rules: Ruleset) -> tuple[type[BaseException], ...]:
    """The exceptions a call may raise under ``rules``: DraughtsError and its criteria's own."""
    allowed: list[type[BaseException]] = [DraughtsError]
    for criterion in rules.precedence:
        if isinstance(criterion, RaisingFuzzCriterion):
            allowed.append(CriterionFailed)
    return tuple(allowed)


def attempt(label: str, allowed: tuple[type[BaseException], ...], call: Callable[[], Any]) -> Any:
    """``call()``, or None when it raises one of ``allowed`` (counted); anything else fails."""
    COUNTS[f"calls {label}"] += 1
    try:
        return call()
    except allowed as error:
        COUNTS[f"raised {type(error).__name__}"] += 1
        return None


@st.composite
def fuzz_rulesets(draw: st.DrawFn) -> Ruleset:
    """A ruleset anywhere in the rule space, its precedence sometimes holding user criteria."""
    rules = draw(family_rulesets())
    if draw(st.integers(0, 2)) == 0:
        users = draw(st.lists(st.sampled_from(USER_CRITERIA), min_size=1, max_size=2, unique=True))
        builtin = list(rules.precedence[: draw(st.integers(0, 2))])
        order = draw(st.permutations(users + [c for c in builtin if type(c) not in map(type, users)]))
        rules = attrs.evolve(rules, precedence=tuple(order))
    return rules


def check_node(native: Any, node: Node, allowed: tuple[type[BaseException], ...], rng: random.Random) -> Node | None:
    """The invariants of one valid node; returns a random child (None at the end or on an error)."""
    legal = attempt("legal", allowed, lambda: native.legal(*node, True))
    if legal is None:
        return None
    dedup = native.legal(*node, False)
    assert native.count1(*node, True) == len(legal) == len(native.moves(*node, True))
    assert native.count1(*node, False) == len(dedup) <= len(legal)
    children = []
    for start, end, captured, path, _, compact in legal:
        assert path[0] == start
        assert path[-1] == end
        child = native.play(*node, *compact)
        native.check(*child)
        assert child[3] == 1 - node[3]
        assert bin(child[0]).count("1") == bin(node[1]).count("1") - len(captured)
        children.append(child)
    if len(legal) <= 30:
        total = attempt("perft", allowed, lambda: native.perft(node, 2, True))
        if total is not None:
            assert total == sum(native.count1(*child, True) for child in children)
            COUNTS["perft checks"] += 1
    return rng.choice(children) if children else None


def play_random_game(rules: Ruleset, node: Node, seed: int, plies: int) -> None:
    """A random game from ``node`` with every node's invariants checked."""
    allowed = own_errors(rules)
    native = attempt("compile", allowed, lambda: native_of(rules))
    if native is None:
        return
    rng = random.Random(seed)
    current: Node | None = node
    for _ in range(plies):
        if current is None:
            return
        COUNTS["nodes"] += 1
        current = check_node(native, current, allowed, rng)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_rulesets_positions_and_games(data: st.DataObject) -> None:
    """Any ruleset (user criteria too), a random position of it, a random game: invariants hold,
    only DraughtsError or a criterion's own error comes out."""
    run_ruleset_game(data)


def run_ruleset_game(data: st.DataObject) -> None:
    rules = data.draw(fuzz_rulesets())
    try:
        position = data.draw(positions(rules))
    except own_errors(rules):  # building a position may run the criteria
        COUNTS["positions refused"] += 1
        return
    play_random_game(rules, position.node, data.draw(st.integers(0, 2**32)), data.draw(st.integers(1, 12)))


VARIANTS = ["international", "russian", "frisian", "turkish", "canadian", "american", "brazilian", "italian"]

FEN_ALPHABET = 'WBKwbk:,-x.0123456789 "?[]HG'


@st.composite
def fen_texts(draw: st.DrawFn, rules: Ruleset) -> str:
    """FEN text: the FEN of a random position, mutated, or junk from the FEN alphabet."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.text(FEN_ALPHABET, max_size=60))
    position = draw(positions(rules))
    fen = position.fen(numeric=draw(st.booleans()))
    if kind == 1:
        return fen
    chars = list(fen)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(chars)))
        choice = draw(st.integers(0, 2))
        if choice == 0 and chars:
            del chars[min(at, len(chars) - 1)]
        elif choice == 1:
            chars.insert(at, draw(st.sampled_from(FEN_ALPHABET)))
        else:
            chars.insert(at, str(draw(st.integers(0, 10**6))))
    return "".join(chars)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_fens(data: st.DataObject) -> None:
    """FEN text of any kind: refused with a DraughtsError, or a position the core accepts and plays."""
    run_fen(data)


def run_fen(data: st.DataObject) -> None:
    rules = draughts.get_variant(data.draw(st.sampled_from(VARIANTS)))
    text = data.draw(fen_texts(rules))
    position = attempt("from_fen", (DraughtsError,), lambda: draughts.Position.from_fen(rules, text))
    if position is None:
        return
    native_of(rules).check(*position.node)  # what the Python side accepts, the core accepts
    play_random_game(rules, position.node, data.draw(st.integers(0, 2**32)), 6)


def bitboards(native: Any) -> st.SearchStrategy[int]:
    """Ints for a bitboard argument: within the layout, within the board, beyond, negative, huge."""
    width = native.width
    return st.one_of(
        st.integers(0, native.board).map(lambda bits: bits & native.board),
        st.integers(0, 2**width - 1),
        st.integers(-(2**width), 2 ** (width + 80)),
        st.sampled_from([0, native.board, -1, 2**width, 2**800]),
    )


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_random_nodes(data: st.DataObject) -> None:
    """Nodes of random ints (valid ones play on): every entry point answers or raises a DraughtsError."""
    run_node(data)


def run_node(data: st.DataObject) -> None:
    rules = draughts.get_variant(data.draw(st.sampled_from(VARIANTS)))
    native = native_of(rules)
    bits = bitboards(native)
    own, opp, kings = data.draw(bits), data.draw(bits), data.draw(bits)
    if data.draw(st.booleans()):  # a node the core accepts, mostly
        own &= native.board
        opp &= native.board & ~own
        kings &= own | opp
    odd = data.draw(st.integers(0, 3)) == 0  # one node in four: any colour and rule state
    color = data.draw(st.integers(-3, 300) if odd else st.integers(0, 1))
    state = data.draw(st.integers(-(2**8), 2**140) if odd else st.just(0))
    node = (own, opp, kings, color, state)
    allowed = (DraughtsError,)
    valid = attempt("check", allowed, lambda: native.check(*node) is None)
    for name in ("legal", "moves", "count1", "count2", "captures", "can_capture"):
        outcome = attempt(name, allowed, lambda name=name: getattr(native, name)(*node))
        assert valid or outcome is None, f"{name} answered on a node check refused"
    attempt("perft", allowed, lambda: native.perft(node, data.draw(st.integers(0, 2))))
    attempt("play", allowed, lambda: native.play(*node, data.draw(bits), data.draw(bits), data.draw(bits)))
    attempt("canonical", allowed, lambda: native.canonical(own, opp, kings, state))
    attempt("state_value", allowed, lambda: native.state_value(color, data.draw(bits), data.draw(bits)))
    if valid:
        COUNTS["valid random nodes"] += 1
        play_random_game(rules, node, data.draw(st.integers(0, 2**32)), 4)


# --- precedence callbacks at the binding that answer garbage ---

GARBAGE_ANSWERS: list[Any] = [None, 5, "ab", [1, 0], [True, None], {"a": 1}, iter([True, True]), [True], [False, False]]


def flood_of_two() -> tuple[dict[str, Any], Node]:
    """International's spec with free choice and a node with two captures (one piece or two)."""
    from draughts._core.native import native_spec

    free = attrs.evolve(draughts.get_variant("international"), precedence=())
    return native_spec(free), draughts.Position.from_fen(free, "W:W28:B11,22,23").node


@pytest.mark.parametrize(
    "answer",
    GARBAGE_ANSWERS,
    ids=lambda answer: type(answer).__name__ if isinstance(answer, type(iter([]))) else repr(answer),
)
def test_a_callback_answering_garbage_raises_a_draughts_error(answer: Any) -> None:
    """A precedence callback that answers anything but one bool per capture, at least one true:
    a DraughtsError naming the answer (a TypeError escaped for non-sequences before), and the
    rules go on working."""
    spec, node = flood_of_two()
    native = _native.Rules(spec, lambda facts: answer)
    with pytest.raises(DraughtsError, match="precedence callback gave"):
        native.legal(*node)
    with pytest.raises(DraughtsError, match="precedence callback gave"):
        native.perft(node, 1)
    assert len(native.legal(*native.start())) == 9


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_random_callback_answers(data: st.DataObject) -> None:
    """Callbacks answering random values (right or wrong): a DraughtsError or a consistent answer."""
    run_callback(data)


def run_callback(data: st.DataObject) -> None:
    spec, node = flood_of_two()
    answer = data.draw(
        st.one_of(
            st.lists(st.booleans(), max_size=4),
            st.lists(st.one_of(st.booleans(), st.integers(), st.none()), max_size=3),
            st.none(),
            st.integers(),
            st.text(max_size=3),
            st.tuples(st.booleans(), st.booleans()),
        )
    )
    native = _native.Rules(spec, lambda facts: answer)
    legal = attempt("callback legal", (DraughtsError,), lambda: native.legal(*node))
    if legal is not None:
        assert isinstance(answer, (list, tuple))
        assert len(answer) == 2
        assert any(answer)
        assert len(legal) == sum(1 for flag in answer if flag)


def test_criteria_that_fail_or_answer_garbage_through_the_rules() -> None:
    """Each user criterion on the position with two captures: the well-behaved one decides, the
    raising one raises its own error, keys that do not compare an InvalidRulesetError (the bare
    TypeError of comparing them before), NaN and huge keys some legal choice."""
    position = draughts.Position.from_fen("international", "W:W28:B11,22,23")
    outcomes = {}
    for criterion in USER_CRITERIA:
        rules = attrs.evolve(position.ruleset, name="fuzz", precedence=(criterion, MostPieces()))
        try:
            outcomes[criterion.label, getattr(criterion, "kind", "")] = len(native_of(rules).legal(*position.node))
        except Exception as error:  # the class is what is compared
            outcomes[criterion.label, getattr(criterion, "kind", "")] = type(error).__name__
    assert outcomes == {
        ("raises", ""): "CriterionFailed",
        ("fewest", ""): 1,
        ("garbage", "nan"): 1,  # the precedence keeps the first capture it sees (key tuples)
        ("garbage", "huge"): 1,
        ("garbage", "tuples"): 1,
        ("garbage", "mixed"): "InvalidRulesetError",
    }


@attrs.frozen
class TextForMoreFuzzCriterion(Criterion):
    """Keys that compare for single jumps (0) but not once a capture takes more ("x" against 0)."""

    label = "text"

    def key(self, capture: CaptureFacts) -> Any:
        return "x" if capture.pieces > 1 else 0


@pytest.mark.parametrize("alone", [True, False], ids=["alone", "first-of-two"])
def test_keys_that_do_not_compare_are_a_ruleset_error_quoting_the_criterion(alone: bool) -> None:
    """No capture can be the best of keys that do not compare: an InvalidRulesetError naming the
    criterion and quoting the keys (the bare TypeError of comparing them escaped before), whether
    the criterion is the whole precedence or the first of two. Keys of a single jump over a king
    and over a man (None, "x") are compared when the rules are compiled; others (0, "x") when the
    captures are chosen, and the rules stay usable where no choice is needed."""
    position = draughts.Position.from_fen("international", "W:W28:B11,22,23")
    for criterion, quoted in ((GarbageFuzzCriterion("mixed"), "None"), (TextForMoreFuzzCriterion(), "0")):
        precedence = (criterion,) if alone else (criterion, MostPieces())
        rules = attrs.evolve(position.ruleset, name=f"incomparable-{alone}", precedence=precedence)
        with pytest.raises(InvalidRulesetError, match="gave keys that do not compare") as raised:
            native_of(rules).legal(*position.node)
        assert f"criterion {criterion!r}" in str(raised.value)
        assert "'x'" in str(raised.value)
        assert quoted in str(raised.value)
    assert len(native_of(rules).legal(*native_of(rules).start())) == 9


# --- the long run ---

LONG = int(os.environ.get("FUZZ_EXAMPLES", "20000"))


@pytest.mark.slow
@pytest.mark.parametrize("body", [run_ruleset_game, run_fen, run_node, run_callback], ids=lambda f: f.__name__)
def test_long_fuzz(body: Callable[[st.DataObject], None]) -> None:
    """The fuzz above, ``FUZZ_EXAMPLES`` examples each (the counts go in the issue's note)."""

    @settings(max_examples=LONG, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        COUNTS[f"examples {body.__name__}"] += 1
        body(data)

    run()
