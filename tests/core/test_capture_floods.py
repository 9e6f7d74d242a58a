"""Positions whose capture paths flood: a piece facing a lattice of enemy pieces on a big board.

Listing the distinct moves does not need every path: past a few thousand paths the search starts
again, pruning routes that reach a state (square, pieces taken, kind of piece) already met, whose
completions are all known. These tests check that the pruned answer is the exact answer: the same
moves, each with the path that comes first in square order, as the full enumeration gives.
"""

from __future__ import annotations

import attrs
import pytest

import draughts
from draughts import BLACK, WHITE, Piece, Position
from native_search import EXPLOSION, every_path, first_paths, raw_paths


def lattice(base: str, size: int, king: bool) -> Position:
    """A white piece in the corner and black men on every other square of every other row."""
    rules = attrs.evolve(
        draughts.get_variant(base),
        name=f"{base}-{size}",
        board_size=size,
        rows_per_side=size // 2 - 1,
        square_names=draughts.SquareNames.NUMERIC,
    )
    geo = rules.geometry
    pieces = {geo.square_at(0, 0): Piece(WHITE, king)}
    for x in range(1, size, 2):
        for y in range(1, size - 1, 2):
            pieces[geo.square_at(x, y)] = Piece(BLACK)
    return Position.from_pieces(rules, pieces, WHITE)


@pytest.mark.parametrize(("base", "size", "king"), [("russian", 12, False), ("brazilian", 12, True)])
def test_pruned_moves_are_the_moves_of_every_path(base: str, size: int, king: bool) -> None:
    """The moves listed one per move (the search pruned: more paths than EXPLOSION) are the moves of
    the listing of every path (the perft "keep" convention, which never prunes), each with its first
    path in square order, precedence applied the same way."""
    position = lattice(base, size, king)
    assert raw_paths(position) > EXPLOSION  # the flood that makes the search prune
    paths = every_path(position)
    best = first_paths(position)
    if position.ruleset.precedence == (draughts.Precedence.MOST_PIECES,):  # Brazilian: the longest captures
        assert {len(identity[2]) for identity in best} == {max(len(identity[2]) for identity in best)}
    moves = position.legal_moves()
    assert {(m.start, m.end, frozenset(m.captured)) for m in moves} == set(best)
    for move in moves:
        assert (move.path, move.captured) == best[(move.start, move.end, frozenset(move.captured))]
    assert draughts.perft(position, 1) == len(best)
    assert draughts.perft(position, 1, paths=True) == len(paths)  # "keep" still counts every path


@pytest.mark.parametrize(
    "size",
    [
        12,  # the default run: the flood is there (more paths than the search enumerates), in a fraction of a second
        pytest.param(14, marks=pytest.mark.slow),  # a deeper flood: about 20 s natively on 2 busy cores (issue 40 §11)
    ],
)
def test_the_engine_answers_in_a_flood(size: int) -> None:
    from draughts.engine import Engine, Limit

    position = lattice("russian", size, False)
    if size == 12:
        assert raw_paths(position) > EXPLOSION  # a real flood: the search prunes
    result = Engine(seed=1).search(position, Limit(depth=1))
    assert result.move in position.legal_moves


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        ("frisian", "W:WK27,K34:B8,17,18,23,24,29,33,36,37,38,40,43"),
        ("turkish", "W:WK11,K29:BK3,K6,12,13,15,19,23,25,32,35,42,44,45,46,52,55"),
    ],
)
def test_two_pieces_flooding_over_the_same_pieces_keep_their_own_moves(variant: str, fen: str) -> None:
    """Found by the oracle comparison: two kings that can take the same pieces and end on the same
    square. A state met in one king's search is no state of the other's (the start differs)."""
    position = Position.from_fen(variant, fen)
    listed = {move.identity for move in position.legal_moves}
    assert listed == {move.identity for move, _ in draughts.divide(position, 1, paths=True)}
    assert draughts.perft(position, 1) == len(listed)
