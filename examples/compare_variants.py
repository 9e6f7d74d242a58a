"""Compare two variants: the rules where they differ, then their legal moves on one diagram.

Usage: ``python examples/compare_variants.py [VARIANT_A VARIANT_B]`` (default: italian american).
"""

from __future__ import annotations

import sys

import draughts
from draughts.compare import moves_table, rules_table

# One 8x8 diagram, in American (= Russian) square numbers: a white man on d4 (18) with a black
# king on c5 (14) and a black man on e5 (15) ahead of it and a black man on c3 (22) behind it; a
# white king on h4 (20) facing a black man on g5 (16). Italian men may not take the king, and the
# Italian rules then make the king capture; American allows a free choice; a Russian man may also
# capture backward and a Russian flying king must take three.
FEN = "W:W18,K20:BK14,15,16,22"
FEN_VARIANT = "american"


def main(argv: list[str]) -> None:
    names = argv[1:3] if len(argv) >= 3 else ["italian", "american"]
    try:
        first, second = (draughts.get_variant(name) for name in names)
    except draughts.DraughtsError as error:
        raise SystemExit(f"error: {error}") from None
    print(f"Rules where {first.title} and {second.title} differ:\n")
    print(rules_table([first, second], differences_only=True).to_text())
    print()
    if first.board_size != second.board_size:
        print(f"(no moves comparison: {first.name} and {second.name} are played on different boards)")
        return
    variants = [first, second]
    fen, fen_variant = FEN, draughts.get_variant(FEN_VARIANT)
    if fen_variant.board_size != first.board_size:  # another size: compare on the start position
        fen, fen_variant = draughts.Position.initial(first).fen(), first
    print(moves_table(fen, variants, fen_variant=fen_variant).to_text())


if __name__ == "__main__":
    main(sys.argv)
