"""Game trees (issue 27 §1): nodes, variations replayed, illegal variations dropped, no recursion limit."""

from __future__ import annotations

import pytest

from draughts import Position, pdn
from draughts.errors import PDNError
from draughts.notation import parse_move
from draughts.pdn import PDNWarning

STUDY = (
    '[GameType "20"] {start} 1. 32-28 {a [%eval 0.3]} (1. 33-29 {alt} 19-23 (1... 18-23 $1) 2. 34-30) '
    "1... 19-23 2. 28x19 14x23 *"
)


def test_tree_nodes_hold_moves_comments_nags_and_positions() -> None:
    game = pdn.parse_game(STUDY)
    root = game.tree()
    assert root.comment == "start"
    assert root.ply == 0
    assert root.move is None
    main, side = root.variations
    assert main.san() == "32-28"
    assert side.san() == "33-29"
    assert main.comment == "a"
    assert main.commands.eval is not None
    assert main.commands.eval.score == 0.3
    assert side.comment == "alt"
    assert side.ply == 1
    reply = side.variations[0]
    assert reply.san() == "19-23"
    assert [node.san() for node in side.variations] == ["19-23", "18-23"]
    assert side.variations[1].nags == ["$1"]
    assert reply.variations[0].san() == "34-30"
    assert reply.variations[0].ply == 3
    assert game.mainline_moves() == game.moves
    assert [node.move for node in game.mainline()] == game.moves
    assert main.position == game.start.play(game.moves[0])
    board = reply.board()
    assert board.position == reply.position
    assert len(board.move_stack) == 2
    assert not side.is_mainline()
    assert main.end().is_mainline()


def test_edit_the_tree() -> None:
    game = pdn.parse_game(STUDY)
    root = game.tree()
    move = parse_move(root.position, "31-27")
    node = root.add_variation(move)
    assert root.variations[-1] is node
    assert node.position == root.position.play(move)
    root.promote(node)
    assert root.variations[1] is node
    root.promote_to_main(move)
    assert root.variations[0] is node
    assert root.mainline_moves() == [move]
    root.demote(node)
    assert root.variations[1] is node
    root.remove_variation(move)
    assert len(root.variations) == 2
    assert not root.has_variation(move)
    with pytest.raises(PDNError, match="not legal"):
        node.add_variation(move)
    assert node.variations == []


def test_an_illegal_move_drops_its_variation_only_with_a_warning_naming_it() -> None:
    text = '[GameType "20"] 1. 32-28 (1. 33-29 19-23 (1... 17-21 2. 30-25) 2. 34-30) 19-23 2. 28x19 14x23 *'
    text += ' [Event "next"] 1. 31-27 *'
    games = list(pdn.parse_games(text))
    game = games[0]
    with pytest.warns(PDNWarning, match=r"variation from ply 2 \('17-21' \.\.\.\) is dropped: move '30-25'"):
        root = game.tree()
    side = root.variations[1]
    assert [node.san() for node in side.variations] == ["19-23"]  # the nested 17-21 line is gone
    assert side.variations[0].variations[0].san() == "34-30"
    assert root.mainline_moves() == game.moves
    assert len(game.moves) == 4
    assert any("dropped" in warning for warning in game.warnings)
    assert games[1].headers["Event"] == "next"


def _king_shuffle(count: int) -> str:
    moves = ["31-4", "1-6", "4-31", "6-1"]
    return " ".join(moves[index % 4] for index in range(count))


@pytest.mark.slow
def test_a_variation_100000_moves_deep_reads_without_recursion() -> None:
    fen = "W:WK31:BK1"
    start = Position.from_fen("international", fen)
    text = f'[GameType "20"] [SetUp "1"] [FEN "{fen}"] 1. 31-27 ({_king_shuffle(100_000)}) 1-7 *'
    game = pdn.parse_game(text)
    root = game.tree()
    assert root.position == start
    side = root.variations[1]
    end = side.end()
    assert end.ply == 100_000
    assert end.position == start
    assert root.same_tree(root)


FULL_STUDY = (
    '[Event "study"]\n[GameType "20"]\n\n{before} 1. 32-28 {a [%eval 0.3] [%clk 0:01:05]} '
    "(1. 33-29 {alt [%cal G19-23]} 19-23! (1... 18-23 $1 (1... 17-21 {deep [%csl R21]})) 2. 34-30) "
    "1... 19-23 $2 2. 28x19 {[%eval #-7,12]} 14x23 *"
)


def test_export_round_trips_a_study_three_levels_deep_and_is_byte_stable() -> None:
    from draughts.pdn.visitor import export

    game = pdn.parse_game(FULL_STUDY)
    once = export(game)
    again = pdn.parse_game(once)
    assert again.tree().same_tree(game.tree())
    assert export(again) == once
    deep = game.tree().variations[1].variations[2]  # an alternative to 18-23, nested in its parentheses
    assert deep.comment == "deep"
    assert [(m.color, m.square) for m in deep.commands.squares] == [("R", "21")]
    assert game.tree().variations[0].commands.clock == 65.0


def test_read_headers_lists_tags_without_replaying() -> None:
    import io

    from draughts.pdn.visitor import read_headers

    text = '[White "A"] 1. 32-28 99-88 * [White "B"] 1. 33-29 *'  # the first game's moves are not even legal
    assert list(read_headers(io.StringIO(text))) == [{"White": "A"}, {"White": "B"}]


def test_every_game_of_a_corpus_file_round_trips_to_an_equal_tree() -> None:
    from pathlib import Path

    from draughts.pdn.visitor import export

    folder = Path(__file__).parent.parent / "data" / "games" / "international"
    path = sorted(folder.glob("*.pdn"))[0]
    games = list(pdn.read_games(path, errors="skip"))[:200]
    assert games
    for game in games:
        back = pdn.parse_game(export(game), variant=game.ruleset)
        assert back.tree().same_tree(game.tree())


@pytest.mark.slow
def test_every_game_of_the_test_corpus_round_trips_to_an_equal_tree() -> None:
    import warnings
    from pathlib import Path

    from draughts.pdn.visitor import export

    paths = sorted((Path(__file__).parent.parent / "data" / "games").glob("*/*.pdn"))
    count = 0
    for path in paths:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            games = list(pdn.read_games(path, errors="skip"))
        for game in games:
            back = pdn.parse_game(export(game), variant=game.ruleset)
            assert back.tree().same_tree(game.tree()), (path, game.index)
            count += 1
    assert count > 300
