"""The capture search's pieces (issue 24 §1), now the native core's (``native/core/src/capture.rs``):
the short piece following a man's jumps, the flying piece in both of its forms (ray scanning for
every path, tables with a memory of states when one path per move is enough), and a search in
functions short enough to read.

The Python search could be run one piece at a time on its own state; the native one is seen
through the moves it lists, so these tests check what each piece guaranteed from outside."""

from __future__ import annotations

import random
import re

import pytest

import draughts
import naive
from native_search import CAPTURE_RS, first_paths


def test_the_short_piece_follows_a_man_through_two_jumps() -> None:
    """Russian: the man on c3 takes d4 and f6 and lands on g7, its path through e5; the man on h2
    far from any black piece and the black man on h2's side add nothing."""
    rules = draughts.get_variant("russian")
    position = draughts.Position.from_fen(rules, "W:Wc3:Bd4,f6,h2")
    square = rules.parse_square
    (move,) = position.legal_moves()
    assert (move.start, move.end) == (square("c3"), square("g7"))
    assert move.captured == (square("d4"), square("f6"))
    assert move.path == (square("c3"), square("e5"), square("g7"))


@pytest.mark.parametrize("variant", ["international", "frisian", "russian", "killer"])
def test_the_flying_pieces_agree_on_random_positions(variant: str) -> None:
    """Two kings among a dozen pieces, random squares: the moves listed (one per move, the search
    free to prune) are those of the every-path listing (the ray-scanning search, never pruned),
    each with its first path, and those of the naive oracle (start, end, pieces taken)."""
    rng = random.Random(7)
    rules = draughts.get_variant(variant)
    squares = list(range(1, rules.geometry.squares + 1))
    compared = 0
    for _ in range(60):
        chosen = rng.sample(squares, 14)
        white = ",".join(f"K{s}" for s in chosen[:2])
        black = ",".join((f"K{s}" if rng.random() < 0.3 else str(s)) for s in chosen[2:])
        try:
            position = draughts.Position.from_fen(rules, f"W:W{white}:B{black}")
        except draughts.DraughtsError:
            continue
        listed = {(m.start, m.end, frozenset(m.captured)): (m.path, m.captured) for m in position.legal_moves()}
        assert listed == first_paths(position)
        assert set(listed) == naive.position_identities(position)
        compared += any(m.captured for m in position.legal_moves())
    assert compared > 10


def _function_lengths(source: str) -> dict[str, int]:
    """Each Rust ``fn``'s length in lines: from its signature to the ``}`` at its indentation."""
    lines = source.splitlines()
    lengths = {}
    for index, line in enumerate(lines):
        found = re.match(r"^( *)(?:pub(?:\([a-z]+\))? )?fn ([a-z_0-9]+)", line)
        if not found or line.rstrip().endswith(";"):
            continue
        closing = found.group(1) + "}"
        end = next(i for i in range(index, len(lines)) if lines[i].rstrip() == closing)
        lengths[found.group(2)] = end - index + 1
    return lengths


def test_no_function_of_the_capture_search_is_long() -> None:
    """Issue 24 §1: the search in pieces a reader can hold in their head (none over 150 lines)."""
    lengths = _function_lengths(CAPTURE_RS.read_text())
    assert {"short_jumps", "fly", "search"} <= set(lengths)
    assert max(lengths.values()) <= 150, lengths
