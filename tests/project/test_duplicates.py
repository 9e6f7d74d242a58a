"""At most twelve pairs of places in ``src/`` share six lines or more, each one explained (issue 39 §4).

The pairs are those the ``duplicates`` command of the developers' tool library finds (the same
lines, or lines of the same shape with other names; it reads the files as text in about a
second). It is not a Python package: where it is not installed the test says so and is skipped.
A new pair fails the test until the code is shared or the pair is added to :data:`EXPLAINED`
with its reason (docs/architecture.rst, "Repeated code, on purpose", groups the reasons).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
TOOL = shutil.which("duplicates")
MAX_PAIRS = 12
"""Issue 39 §4: at most twelve pairs (there were 28, then 21)."""

EXPLAINED = {
    frozenset({"draughts/engine/search.py"}): (
        "search and quiesce, one method per case so the inner loops test no flag; the per-node search "
        "is moving to the native core (issue 38 §1)"
    ),
    frozenset({"draughts/endgame/index.py"}): (
        "the indexer's two colours unrolled in the hot ranking closure; the index is moving to the native "
        "core (issue 38 §2)"
    ),
    frozenset({"draughts/cli/__init__.py", "draughts/engine/weights.py"}): (
        "keyword arguments copied by name (the play command's options, the evaluation's weights): the "
        "same shape, no shared logic"
    ),
    frozenset({"draughts/engine/levels.py"}): "the three levels written out as data",
    frozenset({"draughts/rules/variants.py"}): "the variants written out as data, article by article",
    frozenset({"draughts/rules/ruleset.py"}): "the capture criteria, one small declarative class each",
    frozenset({"draughts/lab/runner.py"}): (
        "run_lab's keyword parameters are lab_tasks's, which it calls: one call for the whole run"
    ),
    frozenset({"draughts/ai/envs.py"}): (
        "the single-agent environment's keyword parameters are those of the two-agent one it wraps"
    ),
}
"""The pairs left, by the files they are in (one file: a pair inside it), and why each is kept."""

_ROW = re.compile(r"^D[0-9]+ (\S+?):[0-9]+-[0-9]+ ~ (\S+?):[0-9]+-[0-9]+")


def duplicate_pairs(src: Path = SRC) -> list[frozenset[str]]:
    """The files of each pair the ``duplicates`` command finds in ``src`` (a whole, finished scan).

    Raises:
        AssertionError: the scan says it was incomplete (its rows would undercount).
    """
    assert TOOL is not None
    run = subprocess.run(
        [TOOL, "--repo", str(src), "--most", "200", "--seconds", "120"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    lines = run.stdout.splitlines()
    assert not [line for line in lines if line.startswith("incomplete:")], run.stdout + run.stderr
    assert lines, f"the duplicates command printed nothing: {run.stderr}"
    pairs = [frozenset(match.groups()) for match in map(_ROW.match, lines) if match]
    total = re.match(r"([0-9]+) pairs? of places", lines[0])
    assert total is not None or lines[0].startswith("no duplicates"), lines[0]
    assert len(pairs) == (int(total.group(1)) if total else 0), run.stdout
    return pairs


@pytest.mark.skipif(TOOL is None, reason="the duplicates command (the developers' tool library) is not installed")
def test_at_most_twelve_duplicate_pairs_in_src_each_explained() -> None:
    pairs = duplicate_pairs()
    unexplained = sorted(" ~ ".join(sorted(pair)) for pair in pairs if pair not in EXPLAINED)
    assert unexplained == [], "share the code, or say in EXPLAINED why the pair stays"
    assert len(pairs) <= MAX_PAIRS, sorted(" ~ ".join(sorted(pair)) for pair in pairs)


@pytest.mark.skipif(TOOL is None, reason="the duplicates command (the developers' tool library) is not installed")
def test_the_scan_finds_a_pair_it_is_shown(tmp_path: Path) -> None:
    """The parsing above sees the rows: two files sharing eight lines make one pair."""
    body = "".join(f"    total = total + total // {index + 2} * {index}\n" for index in range(8))
    for name in ("one", "two"):
        (tmp_path / f"{name}.py").write_text(f"def {name}(total):\n{body}    return total\n", encoding="utf-8")
    assert duplicate_pairs(tmp_path) == [frozenset({"one.py", "two.py"})]
