"""Print perft of every variant's start position, depth by depth, as one table."""

from __future__ import annotations

import argparse
import time

import draughts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=6, help="deepest depth to count (default 6)")
    args = parser.parse_args(argv)
    depths = range(1, args.depth + 1)

    # The seven federation variants and the American no-forced-capture house rule.
    rulesets = [*draughts.VARIANTS.values(), draughts.get_variant("american-nfc")]

    rows: list[tuple[str, list[int], float]] = []
    for rules in rulesets:
        start = draughts.Position.initial(rules)
        began = time.perf_counter()
        counts = [draughts.perft(start, depth) for depth in depths]
        rows.append((rules.name, counts, time.perf_counter() - began))

    width = max(len(f"{count:,}") for _, counts, _ in rows for count in counts) + 2
    header = f"{'variant':<14}" + "".join(f"{f'd{depth}':>{width}}" for depth in depths) + f"{'seconds':>10}"
    print(header)
    print("-" * len(header))
    for name, counts, seconds in rows:
        print(f"{name:<14}" + "".join(f"{count:>{width},}" for count in counts) + f"{seconds:>10.2f}")


if __name__ == "__main__":
    main()
