"""Render a position to an SVG file and print the file's path.

Usage: ``python examples/render_svg.py [OUTPUT.svg]`` (default: a new temporary file). The picture
shows an Italian position after two moves, with the last move, an arrow for the capture now
forced and the square numbers, drawn the way Italian players see their inverted board.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import draughts
import draughts.svg


def main(argv: list[str]) -> Path:
    board = draughts.Board("italian")
    for text in ("22-18", "11-14"):  # after 11-14 White must capture 18x11
        board.push_text(text)
    forced = board.legal_moves
    svg = draughts.svg.board(board, square_numbers=True, arrows=forced, highlight=[move.start for move in forced])
    if len(argv) > 1:
        path = Path(argv[1])
        path.write_text(svg, encoding="utf-8")
    else:
        with tempfile.NamedTemporaryFile("w", suffix=".svg", prefix="polydraughts-", delete=False) as handle:
            handle.write(svg)
            path = Path(handle.name)
    print(path)
    return path


if __name__ == "__main__":
    main(sys.argv)
