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
    assert first.value == MATE - 11
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
    assert result.value == 0
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
            assert result.value == exact, root.fen()
            assert keeps(children[result.move]), root.fen()  # type: ignore[index]
        if exact:
            assert plain.search(root, Limit(depth=1)).value != exact  # without tables: no mate in sight


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
        assert result.value == MATE - 1 - fastest


def test_moves_and_scores_outside_the_command_line_speak_the_variant(tmp_path: Path) -> None:
    # Issue 40 §5: in Russian, best_moves, engine lines and str(Move) printed "25-21", "22x15x8"
    # where the variant writes "b2-a3"; Engine.search(...).score was a raw int (mates as 999993)
    # while analyse gave a Score; Tablebase.probe refused a Board.
    from draughts.engine.score import Score

    tb = Tablebase("russian", tmp_path)
    tb.build("KKvK")
    board = Board("russian", "W:WKc1,Ka1:BKh8")
    verdict = tb.probe(board)  # a Board, as python-chess's probes take
    assert verdict == tb.probe(board.position)
    texts = tb.best_move_texts(board)
    assert texts == [board.move_text(move) for move in tb.best_moves(board)]
    assert all(text[0] in "abcdefgh" and text[1].isdigit() for text in texts)
    for text in texts:  # each reads back on the board
        board.copy().push_text(text)

    position = Position.from_fen("russian", "W:Wd4,h4,c3,b2:Bf6,h6")
    result = Engine().search(position, Limit(depth=4))
    assert result.score == Score.win(5)  # a Score, as analyse gives
    assert result.value == MATE - 5  # the engine's integer, under its own name
    assert result.pv_text == "d4-e5 f6:d4 c3:e5 h6-g5 h4:f6"
    line = Engine().analyse(position, Limit(depth=4))[0]
    assert line.score == result.score
    assert line.pv_text == result.pv_text
    with_tables = Engine(tablebase=tb).search(board)
    assert with_tables.pv_text in texts  # a table answer: the one move, as the variant writes it
