"""The docs keep up with the code (issue 40 §8): the index introduces as many variants as the
catalogue holds, and the command-line page covers every command ``draughts`` has."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from draughts.cli import _parser
from draughts.rules.variants import VARIANTS

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_index_counts_the_variants_of_the_catalogue() -> None:
    intro = (DOCS / "index.rst").read_text(encoding="utf-8").split("\n\n")[1]
    counts = [int(n) for n in re.findall(r"\b(\d+) named draughts", intro)]
    assert counts == [len(VARIANTS)], intro
    for rules in VARIANTS.values():  # and names each of them
        first = rules.title.split()[0].split("/")[0]
        assert first in intro or rules.name.title() in intro, rules.name


def test_the_cli_page_covers_every_command() -> None:
    page = (DOCS / "cli.rst").read_text(encoding="utf-8")
    table = page[page.index("Every command") :]
    commands = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    for name in commands:
        assert f"``{name}``" in table, name
        assert f"$ draughts {name}" in page, name  # and shows it in use
