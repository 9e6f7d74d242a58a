"""The engine's fixed-depth searches, pinned: move, score and node count of a few searches.

A change meant to speed the search up (or to split it into named pieces) must search the same
tree: the same nodes in the same order give the same count, and the same cut-offs the same move
and score. The figures were computed by the code of main at 639ca71 (and agree with 9a228da^,
before Searcher.search was split into steps); the positions come from seeded random games
(random.Random(24), a fixed number of plies), with more than one legal move. They cover forced and
optional captures (russian-nfc's stand pat), flying and short kings, and a king-move limit's rule
state (Frisian: the generator's play, not the inline copy-make). The native search of issue 38 §1
(native/core/src/search.rs) reproduces every figure node for node: none changed. What did change is
outside these positions: a root with a single legal move is now searched a ply deeper (the forced
move costs no depth at the root, as in the tree), so such a root visits more nodes than before.
"""

from __future__ import annotations

import pytest

import draughts
from draughts.engine import Engine, Limit

SEARCHES = [
    ("russian", "W:Wd4,h4,a3,c3,b2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,c7,g7,b6,a5", 6, "20-16", 206, 14743),
    (
        "international",
        "W:W16,25,32,33,35,36,37,38,40,42,43,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,14,15,17,18,19,20,23",
        5,
        "46-41",
        4,
        3408,
    ),
    ("american", "B:W18,23,24,25,26,28,29,30,32:B1,4,5,6,8,10,11,12,16", 6, "5-9", 4, 4720),
    ("frisian", "W:W31,35,37,38,40,41,44,45,46,48,49:B1,2,4,5,6,7,8,9,11,12,15,16,19", 5, "40-34", -209, 6798),
    ("russian-nfc", "W:Wc7,a5,e3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,e7,g7,b6,c5,g5,c3", 5, "26x17x10", 129, 2964),
    ("italian", "W:W20,24,25,29,30,31,32:B1,3,4,7,8,9,14", 6, "25-21", 13, 7074),
    ("brazilian", "W:Wa7,h4,b2,a1,g1:Bd8,f8,e7,g7,d6,f6,b4", 5, "25-21", 49, 1545),
]


@pytest.mark.parametrize(("variant", "fen", "depth", "move", "score", "nodes"), SEARCHES, ids=[s[0] for s in SEARCHES])
def test_a_fixed_depth_search_visits_the_pinned_nodes(
    variant: str, fen: str, depth: int, move: str, score: int, nodes: int
) -> None:
    position = draughts.Position.from_fen(draughts.get_variant(variant), fen)
    result = Engine(seed=0).search(position, Limit(depth=depth))
    assert (str(result.move), result.value, result.nodes) == (move, score, nodes)
    assert result.depth == depth
    assert result.pv[0] == result.move
