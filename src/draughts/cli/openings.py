"""``draughts openings VARIANT [NAME] [--format text|json]``: a variant's ballots, or one ballot's openings.

:mod:`draughts.cli` registers the subcommand with one call to :func:`add_parser`.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any, TextIO

from draughts._text import plural
from draughts.rules import Ruleset

__all__ = ["add_parser"]


def add_parser(commands: Any, ruleset: Callable[[str], Ruleset], variant_help: str) -> None:
    """Add ``openings`` to the ``draughts`` command's subparsers; ``ruleset`` reads ``VARIANT``."""
    sub = commands.add_parser(
        "openings", help="opening ballots and tables: a variant's ballots, or the openings of one"
    )
    sub.add_argument("variant", metavar="VARIANT", help=variant_help)
    sub.add_argument("name", metavar="NAME", nargs="?", help="a ballot of the variant (without: list them)")
    sub.add_argument("--format", choices=("text", "json"), default="text")
    sub.set_defaults(run=lambda args, out: _run(args, out, ruleset))


def _run(args: argparse.Namespace, out: TextIO, ruleset: Callable[[str], Ruleset]) -> int:
    from draughts import openings

    rules = ruleset(args.variant)
    if args.name is None:
        infos = [openings.ballot_info(rules, name) for name in openings.ballots(rules)]
        if args.format == "json":
            print(json.dumps([info.summary() for info in infos], indent=2), file=out)
        elif not infos:
            print(f"no ballots for {rules.name}", file=out)
        else:
            width = max(len(info.name) for info in infos)
            for info in infos:
                print(f"{info.name:<{width}}  {len(info.openings):>5}  {info.title}", file=out)
        return 0
    info = openings.ballot_info(rules, args.name)
    if args.format == "json":
        print(json.dumps({**info.summary(), "openings": [o.to_dict() for o in info.openings]}, indent=2), file=out)
        return 0
    print(f"{info.title} ({rules.name}, {plural(len(info.openings), 'opening')})", file=out)
    print(f"source: {info.source}", file=out)
    for opening in info.openings:
        parts = [opening.name, " ".join(opening.moves) or "(no moves)"]
        if opening.start_fen:
            parts.append(f"from {opening.start_fen}")
        if opening.setup:
            parts.append(f"set up {opening.setup}")
        if opening.title:
            parts.append(f"({opening.title})")
        print("  ".join(parts), file=out)
    return 0
