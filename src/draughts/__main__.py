"""``python -m draughts``: list the variants and run a perft on each start position."""

from __future__ import annotations

import argparse
import sys
import time

from draughts.errors import DraughtsError
from draughts.perft import perft
from draughts.position import Position
from draughts.variants import VARIANTS, get_variant, no_forced_capture


def main(argv: list[str] | None = None) -> int:
    """Print every variant's main rules and its perft from the start position."""
    parser = argparse.ArgumentParser(prog="python -m draughts", description=__doc__)
    parser.add_argument("--depth", type=int, default=6, help="perft depth (default 6)")
    parser.add_argument("variants", nargs="*", help="variant names (default: all eight)")
    args = parser.parse_args(argv)
    try:
        if args.variants:
            rulesets = [get_variant(name) for name in args.variants]
        else:
            rulesets = [*VARIANTS.values(), no_forced_capture(VARIANTS["american"])]
        if args.depth < 0:
            raise DraughtsError(f"depth {args.depth} must not be negative")
    except DraughtsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    header = f"{'variant':<16}{'board':<7}{'kings':<8}{'men take back':<15}{'precedence':<60}perft({args.depth})"
    print(header)
    print("-" * (len(header) + 10))
    for rules in rulesets:
        started = time.perf_counter()
        count = perft(Position.initial(rules), args.depth)
        seconds = time.perf_counter() - started
        board = f"{rules.board_size}x{rules.board_size}"
        precedence = ", ".join(c.value for c in rules.precedence) or "free choice"
        if not rules.capture_mandatory:
            precedence += " (capture optional)"
        print(
            f"{rules.name:<16}{board:<7}{rules.king_range.value:<8}"
            f"{'yes' if rules.men_capture_backward else 'no':<15}{precedence:<60}{count:>10,}  ({seconds:.2f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
