"""Check the fixtures of the native core's tests (tests/data/native/*.json) against the library.

The Rust crate (native/core) knows no variant: these files give it every ruleset as its rule
dimensions, and what the Python generator (the specification the core was written against) said
about positions of each. **They were recorded at commit 687cb68 by the Python generator**
(``draughts._core.movegen``, ``capture``, ``resolver``, ``state``), just before it was deleted, and
cannot be recorded again: the library now runs the native core, and fixtures it wrote would check
the core against itself. A new case needs an independent source (the naive oracle, tests/naive.py,
or a published count). What they hold:

* ``rulesets.json``: every named variant, the transforms ``-nfc``, ``-losing``, ``-breakthrough``
  of a few, dctl's Thai start, and custom rulesets that exercise every rule dimension (immediate
  removal with a 180° turn, landing directly behind, short kings crowned mid-capture, orthogonal
  men on a board of every square, 12x12 with a king-move limit, 14x14, boards wider than 128
  bits), the floods' and the hand-worked cases' rulesets; per ruleset its fields, the facts the
  tables derive from its precedence, and the bit layout (``bit_of_square``, board, crowning rows,
  start);
* ``perft.json``: the published perft counts of tests/data/perft*.json as (ruleset, node, depth,
  convention, count), the node in the bit layout, so that the Rust side needs no FEN; then the
  Python generator's perft from the start of every ruleset (``"source": "python"``);
* ``floods.json``: positions whose capture paths flood (lattices on 12x12 and 14x14, the Frisian
  flood of issue 23), with how often the search called the abort hook (its bounded work);
* ``positions.json``: random positions per ruleset (random playouts from the start, random
  placements with kings and king-move counts), then the rule-book examples and the family's
  hand-worked cases, with Python's exact answers: ``legal`` in both conventions (start, end,
  captured in order, path, promotes, xor masks), ``moves`` in both conventions (xor masks, in
  order), ``count1``, ``count2``, ``captures``, ``can_capture``, and a small perft; or the error
  the search raised.

Bitboards are written as hex strings. This tool rebuilds what does not depend on the recording
(every ruleset's spec and layout, the published counts and their nodes, the floods' and cases'
positions) and asks the library every recorded answer, through ``draughts._core`` (the native
core). Run from the repository root, with the test dependencies installed (tests/family.py):
``PYTHONPATH=src python tools/native_fixtures.py --check`` (a minute or two; ``--deep`` also runs
the published counts past 40 M leaves). It prints each difference and exits with status 1 if
there is any. tests/core/test_native.py imports it for the rulesets, the random nodes and the
answers.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any, ClassVar

import attrs

import draughts
from draughts._core.generator import MoveGenerator, abort_when, build_move_generator
from draughts._core.native import native_spec
from draughts._core.tables import compile_rules
from draughts._core.types import Node
from draughts.errors import CaptureSearchLimitError
from draughts.rules import (
    CapturedRemoval,
    CaptureFacts,
    CapturePromotion,
    Criterion,
    Directions,
    KingLanding,
    KingRange,
    KingsEarliest,
    MostKings,
    MostPieces,
    MostValue,
    Ruleset,
    WithKing,
    variants,
)
from draughts.rules.geometry import BoardSquares, Numbering

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "native"
"""Where the fixtures are (read only)."""
DATA = ROOT / "tests" / "data"


# Not named FewestPieces: CONTRIBUTING.md defines that one, and rule files name criteria by class.
@attrs.frozen
class FixtureFewestPieces(Criterion):
    """A user-defined criterion (no built-in one of the native core): capture the fewest pieces.
    The Rust tests implement it as an external precedence (what the bindings do for any
    criterion the core does not know)."""

    label: ClassVar[str] = "fewest pieces"

    def key(self, capture: CaptureFacts) -> int:
        return -capture.pieces


def _criterion(criterion: Any) -> dict[str, Any]:
    if isinstance(criterion, FixtureFewestPieces):
        return {"kind": "External", "label": criterion.label}
    if isinstance(criterion, MostValue):
        return {"kind": "MostValue", "man": criterion.man, "king": criterion.king}
    for kind in (MostPieces, WithKing, MostKings, KingsEarliest):
        if type(criterion) is kind:
            return {"kind": kind.__name__}
    raise ValueError(f"no native form for criterion {criterion!r}")


def spec(rules: Ruleset) -> dict[str, Any]:
    """The rule dimensions of ``rules`` as the native ``RulesSpec`` holds them, with its name and bit layout.

    The dimensions are :func:`~draughts._core.native.native_spec`'s, the library's one reading of a
    ruleset, in the form the Rust tests read: the board as ``board_size`` (its width) and
    ``board_height``, each criterion named (a user-defined one as ``External``, which the Rust tests
    implement themselves), the weights as a list.
    """
    t = compile_rules(rules)
    native = native_spec(rules)
    width, height = native.pop("board_size")
    weights = native["value_weights"]
    return {
        "name": rules.name,
        "board_size": width,
        "board_height": height,
        **native,
        "precedence": [_criterion(c) for c in rules.precedence],
        "value_weights": list(weights) if weights is not None else None,
        "bit_of_square": list(t.bit_of_square[1:]),
        "board": hex(t.board),
        "crown_rows": [hex(t.crown_row[0]), hex(t.crown_row[1])],
        "start_men": [hex(t.start_men[0]), hex(t.start_men[1])],
    }


INTERNATIONAL = variants.INTERNATIONAL
CUSTOM: tuple[Ruleset, ...] = (
    attrs.evolve(
        INTERNATIONAL,
        name="custom-immediate-reversal",
        title="International, pieces lifted at once, 180° turns",
        captured_removal=CapturedRemoval.IMMEDIATE,
        capture_reversal=True,
        pdn_gametype=None,
    ),
    attrs.evolve(
        INTERNATIONAL,
        name="custom-immediate-no-reversal",
        title="International, pieces lifted at once, no 180° turn",
        captured_removal=CapturedRemoval.IMMEDIATE,
        capture_reversal=False,
        pdn_gametype=None,
    ),
    attrs.evolve(
        INTERNATIONAL,
        name="custom-behind",
        title="International, kings land directly behind",
        king_landing=KingLanding.DIRECTLY_BEHIND,
        pdn_gametype=None,
    ),
    attrs.evolve(
        variants.RUSSIAN,
        name="custom-short-only-at-end",
        title="Russian with short kings, crowned only at the end",
        king_range=KingRange.SHORT,
        capture_promotion=CapturePromotion.ONLY_AT_END,
        pdn_gametype=None,
    ),
    attrs.evolve(
        variants.RUSSIAN,
        name="custom-short-as-king",
        title="Russian with short kings (a crowned man goes on as a short king)",
        king_range=KingRange.SHORT,
        precedence=(MostValue(1, 3), WithKing()),
        pdn_gametype=None,
    ),
    Ruleset(
        name="custom-orthogonal-all",
        title="Orthogonal and diagonal men on every square of 10x10",
        board_size=10,
        board_squares=BoardSquares.ALL,
        rows_per_side=2,
        men_start_row=2,
        men_move=Directions.ORTHOGONAL_FORWARD | Directions.DIAGONAL_FORWARD,
        men_capture=Directions.ORTHOGONAL_FORWARD | Directions.ORTHOGONAL_SIDEWAYS | Directions.DIAGONAL_FORWARD,
        king_range=KingRange.SHORT,
        kings_move=Directions.ALL,
        kings_capture=Directions.ALL,
        precedence=(MostKings(), MostPieces()),
        capture_promotion=CapturePromotion.CONTINUES_AS_KING,
        numbering=Numbering.BOTTOM_LEFT,
    ),
    attrs.evolve(
        variants.CANADIAN,
        name="custom-12-limit",
        title="Canadian with a king-move limit of 2 and Frisian precedence",
        king_move_limit=2,
        precedence=(MostValue(100, 199), WithKing()),
        pdn_gametype=None,
    ),
    attrs.evolve(
        INTERNATIONAL,
        name="custom-14",
        title="International rules on 14x14",
        board_size=14,
        rows_per_side=5,
        pdn_gametype=None,
    ),
    attrs.evolve(
        INTERNATIONAL,
        name="custom-18",
        title="International rules on 18x18 (a 256-bit layout)",
        board_size=18,
        rows_per_side=6,
        pdn_gametype=None,
    ),
    attrs.evolve(
        variants.TURKISH,
        name="custom-turkish-26",
        title="Turkish rules on 26x26 (702 bits)",
        board_size=26,
        rows_per_side=2,
        capture_separator=":",
        pdn_gametype=None,
    ),
    attrs.evolve(
        variants.FRISIAN,
        name="custom-frisian-immediate",
        title="Frisian with pieces lifted at once and 180° turns",
        captured_removal=CapturedRemoval.IMMEDIATE,
        capture_reversal=True,
        pdn_gametype=None,
    ),
    attrs.evolve(
        INTERNATIONAL,
        name="custom-kings-earliest",
        title="International with kings met earliest after most pieces, black first, inverted board",
        precedence=(MostPieces(), KingsEarliest()),
        first_to_move=draughts.BLACK,
        bottom_left_playable=False,
        numbering=Numbering.TOP_RIGHT,
        pdn_gametype=None,
    ),
    attrs.evolve(
        INTERNATIONAL,
        name="custom-external-fewest",
        title="International where a user-defined criterion prefers the fewest pieces, then kings earliest",
        precedence=(FixtureFewestPieces(), KingsEarliest()),
        pdn_gametype=None,
    ),
    attrs.evolve(
        variants.RUSSIAN,
        name="custom-external-fewest-short",
        title="Russian with short kings and the user-defined fewest-pieces criterion",
        king_range=KingRange.SHORT,
        precedence=(FixtureFewestPieces(),),
        pdn_gametype=None,
    ),
    attrs.evolve(
        variants.KILLER,
        name="custom-killer-nfc-value",
        title="Killer with optional capture and a value precedence",
        capture_mandatory=False,
        precedence=(MostValue(2, 5),),
        pdn_gametype=None,
    ),
    attrs.evolve(
        variants.ITALIAN,
        name="custom-men-spare-kings-frisian",
        title="Frisian-like captures where men may not take kings",
        men_capture=Directions.ALL,
        kings_capture=Directions.ALL,
        king_range=KingRange.FLYING,
        men_capture_kings=False,
        pdn_gametype=None,
    ),
)
"""Rulesets of no variant that together exercise every rule dimension."""

TRANSFORMED = (
    "russian-nfc",
    "international-nfc",
    "frisian-nfc",
    "turkish-nfc",
    "italian-losing",
    "russian-breakthrough",
    "frisian-breakthrough",
    "american-nfc",
)


LATER = ("spantsiretti", "srilankan")
"""Named variants added after the fixtures were first written (issue 41): listed after the others,
so that every earlier ruleset keeps its random seed (its index) and its positions."""

RECTANGULAR: tuple[Ruleset, ...] = (
    # dctl's published rectangles (International rules, (height - 2) // 2 rows of men).
    attrs.evolve(INTERNATIONAL, name="intl-10x8", board_size=(10, 8), rows_per_side=3, pdn_gametype=None),
    attrs.evolve(
        INTERNATIONAL,
        name="ktar-10x11",
        board_size=(10, 11),
        rows_per_side=4,
        bottom_left_playable=False,
        pdn_gametype=None,
    ),
    attrs.evolve(
        INTERNATIONAL,
        name="ktar-10x12",
        board_size=(10, 12),
        rows_per_side=5,
        bottom_left_playable=False,
        pdn_gametype=None,
    ),
    attrs.evolve(INTERNATIONAL, name="intl-12x10", board_size=(12, 10), rows_per_side=4, pdn_gametype=None),
    attrs.evolve(
        INTERNATIONAL,
        name="ktar-8x10",
        board_size=(8, 10),
        rows_per_side=4,
        bottom_left_playable=False,
        pdn_gametype=None,
    ),
    # Orthogonal captures on a rectangle (stride width + 3), and an odd width of every square.
    attrs.evolve(
        variants.FRISIAN, name="custom-frisian-10x11", board_size=(10, 11), rows_per_side=4, pdn_gametype=None
    ),
    attrs.evolve(
        variants.TURKISH,
        name="custom-turkish-7x9",
        board_size=(7, 9),
        rows_per_side=2,
        pdn_gametype=None,
    ),
)
"""Rulesets on rectangular boards (issue 41)."""

_PUBLISHED_RECTANGLES = {"Spantsiretti": "intl-10x8", "Ktar 10x12": "ktar-10x12"}
"""perft-family.json's other_boards_international_rules entries on rectangles, by their fen's start."""


def rulesets() -> list[Ruleset]:
    found = [draughts.get_variant(name) for name in draughts.VARIANTS if name not in LATER]
    found += [draughts.get_variant(name) for name in TRANSFORMED]
    found.append(attrs.evolve(draughts.get_variant("thai"), name="thai-12", rows_per_side=3))
    found += CUSTOM
    found += [draughts.get_variant(name) for name in LATER]
    found += RECTANGULAR
    return found


def hexes(*values: int) -> list[str]:
    return [hex(v) for v in values]


def node_json(node: tuple[int, int, int, int, int]) -> list[Any]:
    own, opp, kings, color, state = node
    return [hex(own), hex(opp), hex(kings), color, hex(state)]


# --- perft cases ---

DATA_NAMES = {"american": "english"}


def perft_cases(known: dict[str, Ruleset]) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    published = json.loads((DATA / "perft.json").read_text())["variants"]
    for name in variants.FEDERATION_VARIANTS:
        series = published[DATA_NAMES.get(name, name)]
        node = _node(draughts.Position.initial(name))
        for convention in ("dedup", "keep"):
            for depth, count in series.get(convention, {}).items():
                # tests/oracle/test_reference.py checks depths to 9 (8 in International)
                checked = int(depth) <= (8 if name == "international" else 9)
                cases.append(_case(name, node, int(depth), convention == "keep", count, "perft.json", checked))
    family = json.loads((DATA / "perft-family.json").read_text())
    for variant, entries in family.items():
        if variant not in draughts.VARIANTS:
            continue
        for entry in entries:
            count, depth = entry.get("count"), entry.get("depth")
            convention = str(entry.get("convention")).lower()
            fen, source = str(entry.get("fen")), str(entry.get("source"))
            if count is None or "(real thai start)" in fen:
                continue
            if variant == "turkish" and "kish" not in source:
                continue
            rules = draughts.get_variant(variant)
            name = variant
            if variant == "thai" and fen.startswith("W:W21,"):
                rules, name = known["thai-12"], "thai-12"
            if fen.startswith(("W:", "B:")):
                position = draughts.Position.from_fen(rules, fen.split(" ")[0])
            else:
                position = draughts.Position.initial(rules)
            paths = "kept" in convention or "counts actions" in convention or "move paths" in convention
            # tests/oracle/test_family.py checks the counts to 5,000,000 (kish's deeper Turkish
            # counts hold repeated actions: perft-turkish.json has the merged ones)
            checked = count <= 5_000_000
            cases.append(_case(name, _node(position), depth, paths, count, "perft-family.json", checked))
    cases += _rectangle_cases(known, family)
    turkish = json.loads((DATA / "perft-turkish.json").read_text())
    node = _node(draughts.Position.initial("turkish"))
    for convention, paths in (("paths", True), ("identities", False)):
        for depth, count in turkish["counts"][convention].items():
            cases.append(_case("turkish", node, int(depth), paths, count, "perft-turkish.json", True))
    return cases


def _rectangle_cases(known: dict[str, Ruleset], family: dict[str, Any]) -> list[dict[str, Any]]:
    """dctl's published International-rules counts on rectangles (duplicates dropped); the Python
    tests check them to depth 9 (tests/rules/test_rectangular.py, the slow part)."""
    series: list[tuple[str, int, int]] = []
    for entry in family["other_boards_international_rules"]:
        name = next((name for start, name in _PUBLISHED_RECTANGLES.items() if entry["fen"].startswith(start)), None)
        if name is not None and entry.get("count") is not None:
            series.append((name, entry["depth"], entry["count"]))
    for name, entries in json.loads((DATA / "perft-rectangular.json").read_text()).items():
        if not name.startswith("_"):
            series += [(name, entry["depth"], entry["count"]) for entry in entries]
    cases = []
    for name, depth, count in series:
        node = _node(draughts.Position.initial(known[name]))
        cases.append(
            _case(name, node, depth, False, count, "dctl (perft-family.json, perft-rectangular.json)", depth <= 9)
        )
    return cases


def _node(position: draughts.Position) -> tuple[int, int, int, int, int]:
    """The generator's node of ``position``, in the bit layout."""
    return position.node


def _case(name: str, node: Any, depth: int, paths: bool, count: int, source: str, checked: bool) -> dict[str, Any]:
    """One published count; ``checked``: the Python test suite asserts it (the others are
    published counts the library does not claim, or too deep to run)."""
    return {
        "ruleset": name,
        "node": node_json(node),
        "depth": depth,
        "paths": paths,
        "count": count,
        "source": source,
        "checked_by_python": checked,
    }


# --- random positions ---


def _compact(compact: tuple[int, int, int]) -> str:
    return ",".join(f"{v:x}" for v in compact)


def _legal(gen: MoveGenerator, node: Node, paths: bool) -> list[str]:
    moves, compacts = gen.legal(*node, paths)
    out = []
    for move, compact in zip(moves, compacts, strict=True):
        captured = ",".join(str(s) for s in move.captured)
        path = ",".join(str(s) for s in move.path)
        out.append(f"{move.start}-{move.end}|{captured}|{path}|{int(move.promotes)}|{_compact(compact)}")
    return out


def answers(
    gen: MoveGenerator, node: tuple[int, int, int, int, int], perft_depth: int, count2: bool = True
) -> dict[str, Any]:
    """Everything the generator says about ``node``, in the fixtures' form and order; where a call
    raises the capture-search limit, the answers before it, the call (``error_at``) and the square."""
    own, opp, kings, color, _ = node
    perft = gen.native.perft
    out: dict[str, Any] = {"node": node_json(node)}
    calls: list[tuple[str, Any]] = [
        ("legal", lambda: _legal(gen, node, False)),
        ("legal_paths", lambda: _legal(gen, node, True)),
        ("moves", lambda: [_compact(c) for c in gen.moves(*node)]),
        ("moves_paths", lambda: [_compact(c) for c in gen.paths(*node)]),
        ("captures", lambda: [_compact(c) for c in gen.captures(own, opp, kings, color)]),
        ("can_capture", lambda: gen.can_capture(own, opp, kings, color)),
        ("count1", lambda: [gen.count1(*node, False), gen.count1(*node, True)]),
    ]
    if count2:
        calls.append(("count2", lambda: [gen.count2(*node, False), gen.count2(*node, True)]))
    if perft_depth:
        calls.append(("perft", lambda: [perft_depth, perft(node, perft_depth, False), perft(node, perft_depth, True)]))
    for label, call in calls:
        try:
            out[label] = call()
        except CaptureSearchLimitError as error:
            out["error_at"] = label
            out["square"] = _square_of(str(error))
            break
    # Smaller files: the "paths" answers only where they differ.
    if out.get("legal_paths") == out.get("legal"):
        out.pop("legal_paths", None)
    if out.get("moves_paths") == out.get("moves"):
        out.pop("moves_paths", None)
    return out


def recorded_answers(gen: MoveGenerator, recorded: dict[str, Any]) -> dict[str, Any]:
    """:func:`answers` to the questions a recorded position was asked (its perft depth, count2)."""
    node = node_of(recorded["node"])
    depth = recorded["perft"][0] if "perft" in recorded else 0
    asked_count2 = "count2" in recorded or recorded.get("error_at") == "count2"
    return answers(gen, node, depth, count2=asked_count2)


def node_of(entry: list[Any]) -> tuple[int, int, int, int, int]:
    """A node as the fixtures write it (hex strings) read back."""
    own, opp, kings, color, state = entry
    return (int(own, 16), int(opp, 16), int(kings, 16), int(color), int(state, 16))


def _hook_calls(call: Any) -> tuple[int, Any]:
    """How often ``call`` calls the abort hook (every CHECK_EVERY states of a search), and its result."""
    calls: list[int] = []
    with abort_when(lambda: calls.append(1)):
        result = call()
    return len(calls), result


def _lattice(base: str, size: int, king: bool, color: int) -> tuple[Ruleset, tuple[int, int, int, int, int]]:
    """A white piece in the corner and black men on every other square of every other row
    (tests/core/test_capture_floods.py), with ``color`` to move."""
    rules = attrs.evolve(
        draughts.get_variant(base),
        name=f"{base}-{size}",
        board_size=size,
        rows_per_side=size // 2 - 1,
        square_names=draughts.SquareNames.NUMERIC,
    )
    t = compile_rules(rules)
    geo = rules.geometry
    white = 1 << t.bit_of_square[geo.square_at(0, 0)]
    black = 0
    for x in range(1, size, 2):
        for y in range(1, size - 1, 2):
            black |= 1 << t.bit_of_square[geo.square_at(x, y)]
    kings = white if king else 0
    own, opp = (white, black) if color == 0 else (black, white)
    return rules, (own, opp, kings, color, 0)


def _trimmed(entry: dict[str, Any]) -> dict[str, Any]:
    """A flood's answers without its every-path lists (thousands of paths), only their lengths."""
    order = ["legal", "legal_paths", "moves", "moves_paths"]
    stop = order.index(entry["error_at"]) if entry.get("error_at") in order else len(order)
    for label, base in (("legal_paths", "legal"), ("moves_paths", "moves")):
        if order.index(label) < stop:
            entry[f"{label}_count"] = len(entry.pop(label, entry.get(base, [])))
    return entry


def _same_rules(a: Ruleset, b: Ruleset) -> bool:
    """Whether two rulesets have the same rule dimensions (their names aside)."""
    return {k: v for k, v in spec(a).items() if k != "name"} == {k: v for k, v in spec(b).items() if k != "name"}


def rule_cases(known: list[Ruleset]) -> tuple[list[Ruleset], dict[str, list[tuple[int, int, int, int, int]]]]:
    """The rule-book examples (tests/data/rule-examples.json) and the hand-worked cases of the
    family (tests/family.py, positions after their moves played): the rulesets no other fixture
    has (named ``case-<variant>-<n>`` in order of appearance) and the nodes per ruleset name.
    Needs the test dependencies (tests/conftest.py imports hypothesis); without them, the
    examples only."""
    extra: list[Ruleset] = []
    groups: dict[str, list[tuple[int, int, int, int, int]]] = {}

    def named(rules: Ruleset) -> str:
        for other in [*known, *extra]:
            if _same_rules(rules, other):
                return other.name
        renamed = attrs.evolve(rules, name=f"case-{rules.name}-{len(extra)}")
        extra.append(renamed)
        return renamed.name

    def add(rules: Ruleset, position: draughts.Position) -> None:
        groups.setdefault(named(rules), []).append(_node(position))

    examples = json.loads((DATA / "rule-examples.json").read_text())["variants"]
    for variant, entries in examples.items():
        rules = draughts.get_variant(variant)
        for example in entries:
            add(rules, draughts.Position.from_fen(rules, str(example["fen"])))
    try:
        sys.path.insert(0, str(ROOT / "tests"))
        from family import CASES, parse_move  # type: ignore[import-not-found]
    except ImportError as error:
        print(f"no hand-worked cases ({error})", file=sys.stderr)
        return extra, groups
    for case in CASES:
        position = draughts.Position.from_fen(case.rules, case.fen)
        for text in case.played:
            path, captured = parse_move(case.rules, text)
            (move,) = [
                m for m, _ in draughts.divide(position, 1, paths=True) if m.path == path and set(m.captured) == captured
            ]
            position = position.play(move)
        add(case.rules, position)
    return extra, groups


def flood_cases() -> list[tuple[Ruleset, tuple[int, int, int, int, int]]]:
    """The positions whose capture paths flood (the pruned search, its value bound, the work
    bound), with their rulesets, in the order of floods.json."""
    made: list[tuple[Ruleset, tuple[int, int, int, int, int]]] = [
        _lattice("russian", 12, False, 0),
        _lattice("brazilian", 12, True, 0),
        _lattice("international", 12, True, 0),
        _lattice("russian", 14, False, 1),
    ]
    flood = json.loads((DATA / "frisian_two_kings_19_taken.json").read_text())
    position = draughts.Position.from_fen(flood["variant"], flood["fen"])
    made.append((position.ruleset, _node(position)))
    return made


def flood_answers(rules: Ruleset, node: tuple[int, int, int, int, int]) -> dict[str, Any]:
    """A flood's entry of floods.json: the answers (every-path lists as their lengths) and how
    often the search called the abort hook."""
    gen = build_move_generator(rules)
    entry = _trimmed(answers(gen, node, 0, count2=rules.board_size < 14))
    entry["ruleset"] = rules.name
    entry["hook_calls"] = {
        "legal": _hook_calls(lambda: gen.legal(*node, False))[0],
        "moves": _hook_calls(lambda: gen.moves(*node))[0],
        "count1": _hook_calls(lambda: gen.count1(*node, False))[0],
    }
    return entry


def fixture_rulesets() -> list[Ruleset]:
    """Every ruleset of rulesets.json, in its order: :func:`rulesets`, the floods' (the Frisian
    flood's is Frisian itself) and the hand-worked cases' of no other fixture."""
    found = rulesets()
    names = {rules.name for rules in found}
    for rules, _ in flood_cases():
        if rules.name not in names:
            found.append(rules)
            names.add(rules.name)
    return found + rule_cases(found)[0]


def _square_of(text: str) -> int:
    return int(text.split("square ")[1].split(" ")[0])


def playout_nodes(gen: MoveGenerator, rng: random.Random, start: Node, count: int) -> list[Node]:
    """Nodes met along random playouts from ``start`` (about one ply in three, restarting after
    150 plies or at a game's end)."""
    nodes: list[Node] = []
    node = start
    plies = 0
    while len(nodes) < count:
        moves = gen.moves(*node)
        if not moves or plies > 150:
            node, plies = start, 0
            continue
        own, opp, kings, color, state = node
        node = gen.play(own, opp, kings, color, state, rng.choice(moves))
        plies += 1
        if rng.random() < 0.35:
            nodes.append(node)
    return nodes


def placement_nodes(rules: Ruleset, gen: MoveGenerator, rng: random.Random, count: int, dense: bool) -> list[Node]:
    """Random placements of men and kings (a man on its crowning row made a king), either side to
    move, with a random king-move count where the rules keep one."""
    t = gen.tables
    squares = list(range(1, rules.squares + 1))
    bits = t.bit_of_square
    nodes: list[Node] = []
    while len(nodes) < count:
        n = rules.squares
        pieces = rng.randint(2, max(3, n // (2 if dense else 4)))
        chosen = rng.sample(squares, min(pieces, n))
        white = black = kings = 0
        for square in chosen:
            bit = 1 << bits[square]
            is_white = rng.random() < 0.5
            is_king = rng.random() < (0.35 if dense else 0.2)
            crown = t.crown_row[0 if is_white else 1]
            if not is_king and bit & crown:
                is_king = True
            if is_white:
                white |= bit
            else:
                black |= bit
            if is_king:
                kings |= bit
        color = rng.randint(0, 1)
        own, opp = (white, black) if color == 0 else (black, white)
        state = 0
        if t.state.keeps:
            for side, mask in ((0, white), (1, black)):
                side_kings = mask & kings
                if side_kings and rng.random() < 0.7:
                    king = rng.choice([i for i in range(side_kings.bit_length()) if side_kings >> i & 1])
                    count_ = rng.randint(1, t.state.limit)
                    state |= gen.native.state_value(side, t.square_of_bit[king], count_)
        nodes.append((own, opp, kings, color, state))
    return nodes


# --- the check ---


def _differences(label: str, want: Any, got: Any) -> list[str]:
    if want == got:
        return []
    text = f"{label}:\n  recorded {want!r}\n  library  {got!r}"
    return [text if len(text) < 1500 else text[:1500] + " ..."]


def check_rulesets(all_rules: list[Ruleset]) -> list[str]:
    """rulesets.json: the same rulesets, each with the spec and layout the library gives it."""
    recorded = json.loads((OUT / "rulesets.json").read_text())
    found = _differences("ruleset names", [entry["name"] for entry in recorded], [rules.name for rules in all_rules])
    for entry, rules in zip(recorded, all_rules, strict=False):
        found += _differences(f"spec of {rules.name}", entry, spec(rules))
    return found


def check_perft(known: dict[str, Ruleset], deep: bool) -> list[str]:
    """perft.json: the published counts and their nodes as the data files give them today, and
    every count the library claims (to 40 M leaves, or all with ``deep``) as it counts it; the
    others (``checked_by_python`` false: kish's deeper Turkish counts hold repeated actions) are
    published counts the library does not claim."""
    recorded = json.loads((OUT / "perft.json").read_text())
    published = [case for case in recorded if case["source"] != "python"]
    found = _differences("published perft cases", published, perft_cases(known))
    for case in recorded:
        if not case["checked_by_python"] or (case["count"] > 40_000_000 and not deep):
            continue
        rules = known[case["ruleset"]]
        if case["source"] == "python":
            gen = build_move_generator(rules)
            t = gen.tables
            first = 0 if rules.first_to_move is draughts.WHITE else 1
            start = (t.start_men[first], t.start_men[1 - first], 0, first, 0)
            found += _differences(f"start of {rules.name}", case["node"], node_json(start))
        node = node_of(case["node"])
        count = build_move_generator(rules).native.perft(node, case["depth"], case["paths"])
        found += _differences(f"perft {rules.name} {case['depth']} paths={case['paths']}", case["count"], count)
    return found


def check_positions(known: dict[str, Ruleset]) -> tuple[list[str], int]:
    """positions.json: every recorded answer; the cases' nodes as rule_cases makes them today."""
    recorded = json.loads((OUT / "positions.json").read_text())
    _, cases = rule_cases(list(known.values()))
    case_groups = recorded[len(recorded) - len(cases) :]  # the cases come last, in rule_cases' order
    found = _differences("case rulesets", [group["ruleset"] for group in case_groups], list(cases))
    for group, nodes in zip(case_groups, cases.values(), strict=False):
        recorded_nodes = [entry["node"] for entry in group["positions"]]
        found += _differences(f"case nodes of {group['ruleset']}", recorded_nodes, [node_json(n) for n in nodes])
    checked = 0
    for group in recorded:
        name = group["ruleset"]
        gen = build_move_generator(known[name])
        for index, entry in enumerate(group["positions"]):
            found += _differences(f"{name} #{index}", entry, recorded_answers(gen, entry))
            checked += 1
    return found, checked


def check_floods() -> list[str]:
    """floods.json: every flood's answers and its work (calls of the abort hook)."""
    recorded = json.loads((OUT / "floods.json").read_text())
    made = flood_cases()
    found = _differences("flood count", len(recorded), len(made))
    for entry, (rules, node) in zip(recorded, made, strict=False):
        found += _differences(f"flood {rules.name}", entry, flood_answers(rules, node))
    return found


def main() -> int:
    if "--check" not in sys.argv:
        print(__doc__, file=sys.stderr)
        print("usage: PYTHONPATH=src python tools/native_fixtures.py --check [--deep]", file=sys.stderr)
        return 2
    all_rules = fixture_rulesets()
    known = {rules.name: rules for rules in all_rules}
    found = check_rulesets(all_rules)
    found += check_perft(known, "--deep" in sys.argv)
    position_differences, checked = check_positions(known)
    found += position_differences + check_floods()
    for text in found:
        print(text)
    print(f"{len(all_rules)} rulesets, {checked} positions: {len(found)} differences", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
