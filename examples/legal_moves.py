"""One diagram in Russian and in Italian: how capture precedence changes the legal moves."""

from __future__ import annotations

import itertools

import draughts

# The same diagram written for each board. Italian boards are inverted (the near-left corner is
# a light square), so the Italian diagram is the mirror image of the Russian one, and its squares
# are numbered 1-32 from a8 (FID) where Russian names them algebraically.
DIAGRAMS = [
    (
        "most pieces first; Italian men never take kings",
        "W:Wc3,h2,Ke3:Bb4,h8,Kd4",
        "W:W23,25,K22:B1,20,K19",
    ),
    (
        "with equal counts, capture with a king",
        "W:Wa5,Kc5:Ba3,b6,f6",
        "W:W16,K15:B10,12,24",
    ),
]


def layout(position: draughts.Position) -> dict[tuple[int, int], str]:
    """``{(file, rank): symbol}`` seen from White, mirrored on an inverted board."""
    geometry = position.ruleset.geometry
    cells = {}
    for square, piece in position.pieces().items():
        x, y = geometry.coords[square]
        if not geometry.bottom_left_playable:
            x = geometry.size - 1 - x
        cells[(x, y)] = piece.symbol
    return cells


def describe(position: draughts.Position, move: draughts.Move) -> str:
    """A move in the variant's square names, with what it takes."""
    rules = position.ruleset
    squares = rules.capture_separator.join(rules.square_name(square) for square in move.path)
    taken = []
    for square in move.captured:
        piece = position.piece_at(square)
        kind = "king" if piece is not None and piece.king else "man"
        taken.append(f"{kind} on {rules.square_name(square)}")
    mover = position.piece_at(move.start)
    who = "king" if mover is not None and mover.king else "man"
    return f"{squares:<12} {who} takes {', '.join(taken) or 'nothing'}"


def side_by_side(left: str, right: str, gap: int = 6) -> str:
    """Two text blocks next to each other."""
    left_lines, right_lines = left.splitlines(), right.splitlines()
    width = max(len(line) for line in left_lines)
    pairs = itertools.zip_longest(left_lines, right_lines, fillvalue="")
    return "\n".join(f"{a:<{width + gap}}{b}".rstrip() for a, b in pairs)


def main() -> None:
    for title, russian_fen, italian_fen in DIAGRAMS:
        russian = draughts.Position.from_fen("russian", russian_fen)
        italian = draughts.Position.from_fen("italian", italian_fen)
        if layout(russian) != layout(italian):
            raise SystemExit(f"{russian_fen} and {italian_fen} are not the same diagram")
        print(f"== {title}")
        print(side_by_side(f"Russian  {russian_fen}\n{russian}", f"Italian  {italian_fen}\n{italian}"))
        for position in (russian, italian):
            rules = position.ruleset
            precedence = ", ".join(criterion.value for criterion in rules.precedence) or "free choice"
            print(f"{rules.title} (precedence: {precedence}; men capture kings: {rules.men_capture_kings}):")
            for move in position.legal_moves():
                print(f"    {describe(position, move)}")
        print()


if __name__ == "__main__":
    main()
