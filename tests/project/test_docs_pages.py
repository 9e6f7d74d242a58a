"""Every docs page's examples run through Python's own doctest, error messages included (issue 23 §11).

Sphinx's doctest builder ignores exception details by default, so a page could show a stale error
message and still pass the docs build; docs/conf.py now checks them, and this test runs each page
as ``python -m doctest`` would (with ``draughts`` imported, the pages' ``testsetup`` code run first
and ``testcleanup`` last, as the builder's global setup and groups do), so the default test run
sees what a user who copies an example sees.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import draughts

DOCS = Path(__file__).resolve().parents[2] / "docs"
FLAGS = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1  # docs/conf.py's doctest_default_flags
# Pages whose examples take tens of seconds (a Dask LocalCluster, deep perft): CI's slow run.
SLOW = {"performance.rst", "perft.rst"}

_DIRECTIVE = re.compile(r"^\.\. (testsetup|testcleanup)::.*\n((?:[ \t]*\n|   .*\n)+)", re.MULTILINE)


def _blocks(text: str, kind: str) -> str:
    """The code of every ``.. testsetup::`` (or ``testcleanup``) block of a page, dedented."""
    blocks = [match.group(2) for match in _DIRECTIVE.finditer(text) if match.group(1) == kind]
    return "\n".join("\n".join(line[3:] for line in block.splitlines()) for block in blocks)


def _pages() -> list[object]:
    return [
        pytest.param(page, marks=pytest.mark.slow) if page.name in SLOW else page for page in sorted(DOCS.glob("*.rst"))
    ]


@pytest.mark.parametrize("page", _pages(), ids=lambda page: page.name)
def test_page_examples_show_what_python_prints(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    namespace: dict[str, object] = {"draughts": draughts}
    exec(_blocks(text, "testsetup"), namespace)  # the docs' own set-up code
    try:
        parser = doctest.DocTestParser()
        test = parser.get_doctest(text, namespace, page.name, str(page), 0)
        runner = doctest.DocTestRunner(optionflags=FLAGS)
        output: list[str] = []
        runner.run(test, out=output.append)
    finally:
        exec(_blocks(text, "testcleanup"), namespace)
    assert runner.failures == 0, "".join(output)


def test_a_stale_error_message_fails() -> None:
    """The check is real: an example whose message differs from the raised one fails."""
    stale = '>>> draughts.get_variant("chess")\nTraceback (most recent call last):\n  ...\n'
    stale += "draughts.errors.UnknownVariantError: unknown variant 'chess'; known names: ...\n"
    test = doctest.DocTestParser().get_doctest(stale, {"draughts": draughts}, "stale", None, 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test, out=lambda text: None)
    assert runner.failures == 1
