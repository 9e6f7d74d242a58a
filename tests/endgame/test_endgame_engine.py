"""The engine and the tablebases: perfect play from table positions at the root, exact scores at
table nodes inside the search."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from draughts import Board, Color, Move, Piece, Position
from draughts.endgame import Tablebase, Verdict
from draughts.engine import MATE, Engine, Limit


def test_engine_converts_a_won_position_in_its_distance(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    tb.build("KvK")
    fen = tb.stats("KvK")["black"]["longest_win_fen"]
    board = Board.from_fen("american", fen)
    engine = Engine(seed=3, tablebase=tb)
    first = engine.search(board, Limit(depth=1))
    assert first.score == MATE - 11
    assert first.mate_in == 11
    while board.outcome() is None:
        board.push(engine.search(board, Limit(depth=1)).move)  # type: ignore[arg-type]
    assert len(board.move_stack) == 11
    assert board.outcome().winner is Position.from_fen("american", fen).turn  # type: ignore[union-attr]


def test_engine_keeps_a_draw_and_searches_outside_the_tables(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    tb.build("KvK")
    engine = Engine(tablebase=tb)
    drawn = Position.from_fen("american", "B:WK1:BK32")
    result = engine.search(drawn, Limit(depth=2))
    assert result.score == 0
    assert tb.probe(drawn.play(result.move)).result == "draw"  # type: ignore[arg-type]
    outside = Position.from_fen("american", "B:WK1,K5:BK32")  # KKvK is not built: a search
    assert engine.search(outside, Limit(depth=2)).nodes > 0


def _capture_roots(count: int) -> list[Position]:
    """American KKvKK positions whose side to move must capture: every move leaves the material
    for KKvK or its mirror KvKK, so the root's exact value is the best of its children's."""
    rng = random.Random(5)
    roots: list[Position] = []
    while len(roots) < count:
        squares = rng.sample(range(1, 33), 4)
        pieces = {square: Piece(Color.BLACK if n < 2 else Color.WHITE, True) for n, square in enumerate(squares)}
        position = Position.from_pieces("american", pieces, rng.choice([Color.BLACK, Color.WHITE]))
        moves = position.legal_moves()
        if moves and all(len(position.play(move).pieces()) == 3 for move in moves):
            roots.append(position)
    return roots


def _best_of(children: dict[Move, Verdict]) -> tuple[int, Callable[[Verdict], bool]]:
    """The exact score of a node from its children's verdicts, and which children keep it."""
    lost = [child.plies or 0 for child in children.values() if child.result == "loss"]
    if lost:
        return MATE - 1 - min(lost), lambda child: child.result == "loss" and child.plies == min(lost)
    if any(child.result == "draw" for child in children.values()):
        return 0, lambda child: child.result == "draw"
    longest = max(child.plies or 0 for child in children.values())
    return -(MATE - 1 - longest), lambda child: child.plies == longest


def test_search_scores_interior_table_nodes_exactly(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    tb.build("KKvK")  # not KvKK: the side with one king is read from the mirror
    assert not tb.has("KvKK")
    engine, plain = Engine(tablebase=tb), Engine()
    roots = _capture_roots(25)
    assert {root.turn for root in roots} == {Color.BLACK, Color.WHITE}
    for root in roots:
        children = {move: tb.probe(root.play(move)) for move in root.legal_moves()}
        exact, keeps = _best_of(children)
        for depth in (1, 3):
            result = engine.search(root, Limit(depth=depth))
            assert result.score == exact, root.fen()
            assert keeps(children[result.move]), root.fen()  # type: ignore[index]
        if exact:
            assert plain.search(root, Limit(depth=1)).score != exact  # without tables: no mate in sight


def test_search_never_throws_a_won_table_position(tmp_path: Path) -> None:
    # A man and a king against two kings, Black to capture: some captures lead into draws or losses.
    tb = Tablebase("american", tmp_path)
    tb.build(["KKvK", "MKvK"])
    engine = Engine(tablebase=tb)
    rng = random.Random(9)
    checked = 0
    while checked < 15:
        squares = rng.sample(range(5, 29), 4)  # no man on a crowning row
        pieces = {
            squares[0]: Piece(Color.BLACK, False),
            squares[1]: Piece(Color.BLACK, True),
            squares[2]: Piece(Color.WHITE, True),
            squares[3]: Piece(Color.WHITE, True),
        }
        root = Position.from_pieces("american", pieces, Color.BLACK)
        moves = root.legal_moves()
        if not moves or not moves[0].captured or any(len(root.play(m).pieces()) != 3 for m in moves):
            continue
        values = {move: tb.probe(root.play(move)) for move in moves}
        if not any(value.result == "loss" for value in values.values()):
            continue
        checked += 1
        result = engine.search(root, Limit(depth=2))
        assert values[result.move].result == "loss", root.fen()  # type: ignore[index]
        fastest = min(value.plies or 0 for value in values.values() if value.result == "loss")
        assert result.score == MATE - 1 - fastest
