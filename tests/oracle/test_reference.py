"""The generator against every published number: start-position perft and the rule-book examples."""

from __future__ import annotations

import re

import pytest

import draughts
from conftest import load_json

PERFT = load_json("perft.json")["variants"]
EXAMPLES = load_json("rule-examples.json")["variants"]

# perft.json calls American checkers "english".
DATA_NAMES = {"american": "english"}
FAST_DEPTH = {"international": 6}  # default run: depth 7 on 8x8, 6 on 10x10
SLOW_DEPTH = {"international": 8}  # slow run: depth 9 on 8x8, 8 on 10x10 (past the first keep/dedup split)


def _cases(depth_of: dict[str, int], default: int, *, deeper_than_fast: bool) -> list[tuple[str, str, int, int]]:
    cases = []
    for name in draughts.rules.variants.FEDERATION_VARIANTS:
        series = PERFT[DATA_NAMES.get(name, name)]
        minimum = FAST_DEPTH.get(name, 7) + 1 if deeper_than_fast else 1
        for convention in ("dedup", "keep"):
            for depth_text, count in series[convention].items():
                depth = int(depth_text)
                if minimum <= depth <= depth_of.get(name, default):
                    cases.append((name, convention, depth, count))
    return cases


@pytest.mark.parametrize(("variant", "convention", "depth", "expected"), _cases(FAST_DEPTH, 7, deeper_than_fast=False))
def test_start_position_perft(variant: str, convention: str, depth: int, expected: int) -> None:
    position = draughts.Position.initial(variant)
    assert draughts.perft(position, depth, paths=convention == "keep") == expected


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "convention", "depth", "expected"), _cases(SLOW_DEPTH, 9, deeper_than_fast=True))
def test_start_position_perft_deep(variant: str, convention: str, depth: int, expected: int) -> None:
    position = draughts.Position.initial(variant)
    assert draughts.perft(position, depth, paths=convention == "keep") == expected


def test_keep_and_dedup_split_where_published() -> None:
    """Russian depth 8 is the first depth where the conventions differ (929905 vs 929899): the
    generator must find exactly the six duplicate capture paths, no more, no fewer, and none before."""
    start = draughts.Position.initial("russian")
    assert draughts.perft(start, 7, paths=True) == draughts.perft(start, 7) == PERFT["russian"]["dedup"]["7"]
    keep = draughts.perft(start, 8, paths=True)
    dedup = draughts.perft(start, 8)
    assert (keep, dedup) == (PERFT["russian"]["keep"]["8"], PERFT["russian"]["dedup"]["8"])
    assert keep - dedup == 6


NFC = PERFT["no_forced_capture"]["unpublished_selfcomputed"]


@pytest.mark.parametrize(
    ("base", "depth", "expected"),
    [
        (base, int(depth), count)
        for key, series in NFC.items()
        for base in [key.removesuffix("_base").replace("english", "american")]
        for depth, count in series.items()
        if int(depth) <= 6
    ],
)
def test_no_forced_capture_seed_counts(base: str, depth: int, expected: int) -> None:
    rules = draughts.no_forced_capture(draughts.get_variant(base))
    assert draughts.perft(draughts.Position.initial(rules), depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize("base", ["american", "russian"])
def test_no_forced_capture_seed_counts_deep(base: str) -> None:
    series = NFC[f"{'english' if base == 'american' else base}_base"]
    rules = draughts.get_variant(f"{base}-nfc")
    assert draughts.perft(draughts.Position.initial(rules), 7) == series["7"]


def _example_cases() -> list[tuple[str, dict[str, object]]]:
    return [(variant, example) for variant, examples in EXAMPLES.items() for example in examples]


def _squares(rules: draughts.Ruleset, text: str) -> tuple[int, ...]:
    return tuple(rules.parse_square(part) for part in re.split(r"[-x:]", text))


@pytest.mark.parametrize(("variant", "example"), _example_cases(), ids=[f"{v}:{e['fen']}" for v, e in _example_cases()])
def test_rule_book_example(variant: str, example: dict[str, object]) -> None:
    """Each official example gives exactly its listed moves, in both conventions.

    The reference writes some moves in full (every landing and turning square) and some short
    (start and end only); a short reference move is matched on start and end.
    """
    rules = draughts.get_variant(variant)
    position = draughts.Position.from_fen(rules, str(example["fen"]))
    expected = sorted(_squares(rules, str(move)) for move in example["moves"])  # type: ignore[attr-defined]
    paths = [move for move, _ in draughts.divide(position, 1, paths=True)]
    written = set(expected)
    got = sorted(move.path if move.path in written else (move.start, move.end) for move in paths)
    assert got == expected
    assert len(paths) == example["count"]
    assert len(position.legal_moves()) == example.get("count_dedup", example["count"])
