"""Game trees (issue 27 §1): nodes, variations replayed, illegal variations dropped, no recursion limit."""

from __future__ import annotations

import pickle
import re

import pytest

from draughts import Position, pdn
from draughts.errors import PDNError
from draughts.notation import parse_move

STUDY = (
    '[GameType "20"] {start} 1. 32-28 {a [%eval 0.3]} (1. 33-29 {alt} 19-23 (1... 18-23 $1) 2. 34-30) '
    "1... 19-23 2. 28x19 14x23 *"
)


def test_tree_nodes_hold_moves_comments_nags_and_positions() -> None:
    game = pdn.parse_game(STUDY)
    root = game
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
    assert [node.move for node in game.mainline()] == game.mainline_moves()
    assert main.position == game.position.play(game.mainline_moves()[0])
    board = reply.board()
    assert board.position == reply.position
    assert len(board.move_stack) == 2
    assert not side.is_mainline()
    assert main.end().is_mainline()


def test_edit_the_tree() -> None:
    game = pdn.parse_game(STUDY)
    root = game
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
    root = game
    (warning,) = game.warnings  # a note of the reading, as the other notes are: no PDNWarning (nothing is skipped)
    assert re.search(r"game 1: the variation from ply 2 \('17-21' \.\.\.\) is dropped: move '30-25'", warning)
    side = root.variations[1]
    assert [node.san() for node in side.variations] == ["19-23"]  # the nested 17-21 line is gone
    assert side.variations[0].variations[0].san() == "34-30"
    assert len(game.mainline_moves()) == 4
    assert games[1].headers["Event"] == "next"


def _king_shuffle(count: int) -> str:
    moves = ["31-4", "1-6", "4-31", "6-1"]
    return " ".join(moves[index % 4] for index in range(count))


@pytest.mark.slow
def test_a_variation_99000_moves_deep_reads_without_recursion() -> None:
    # As deep as a game's 100,000-token bound allows now that side lines count towards it (a
    # variation of 100,000 moves is 100,005 tokens): far past any recursion limit either way.
    fen = "W:WK31:BK1"
    start = Position.from_fen("international", fen)
    text = f'[GameType "20"] [SetUp "1"] [FEN "{fen}"] 1. 31-27 ({_king_shuffle(99_000)}) 1-7 *'
    game = pdn.parse_game(text)
    root = game
    assert root.position == start
    side = root.variations[1]
    end = side.end()
    assert end.ply == 99_000
    assert end.position == start
    assert root.same_tree(root)


FULL_STUDY = (
    '[Event "study"]\n[GameType "20"]\n\n{before} 1. 32-28 {a [%eval 0.3] [%clk 0:01:05]} '
    "(1. 33-29 {alt [%cal G19-23]} 19-23! (1... 18-23 $1 (1... 17-21 {deep [%csl R21]})) 2. 34-30) "
    "1... 19-23 $2 2. 28x19 {[%eval #-7,12]} 14x23 *"
)


def test_export_round_trips_a_study_three_levels_deep_and_is_byte_stable() -> None:
    game = pdn.parse_game(FULL_STUDY)
    once = pdn.write_game(game)
    again = pdn.parse_game(once)
    assert again.same_tree(game)
    assert again == game
    assert pdn.write_game(again) == once
    deep = game.variations[1].variations[2]  # an alternative to 18-23, nested in its parentheses
    assert deep.comment == "deep"
    assert [(m.color, m.square) for m in deep.commands.squares] == [("R", "21")]
    assert game.variations[0].commands.clock == 65.0


def test_read_headers_lists_tags_without_replaying() -> None:
    import io

    from draughts.pdn.visitor import read_headers

    text = '[White "A"] 1. 32-28 99-88 * [White "B"] 1. 33-29 *'  # the first game's moves are not even legal
    assert list(read_headers(io.StringIO(text))) == [{"White": "A"}, {"White": "B"}]


def test_every_game_of_a_corpus_file_round_trips_to_an_equal_tree() -> None:
    from pathlib import Path

    folder = Path(__file__).parent.parent / "data" / "games" / "international"
    path = sorted(folder.glob("*.pdn"))[0]
    games = list(pdn.read_games(path, errors="skip"))[:200]
    assert games
    for game in games:
        back = pdn.parse_game(pdn.write_game(game), ruleset=game.ruleset)
        assert back.same_tree(game)


@pytest.mark.slow
def test_every_game_of_the_test_corpus_round_trips_to_an_equal_tree() -> None:
    import warnings
    from pathlib import Path

    paths = sorted((Path(__file__).parent.parent / "data" / "games").glob("*/*.pdn"))
    count = 0
    for path in paths:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            games = list(pdn.read_games(path, errors="skip"))
        for game in games:
            back = pdn.parse_game(pdn.write_game(game), ruleset=game.ruleset)
            assert back.same_tree(game), (path, game.index)
            count += 1
    assert count > 300


def test_a_node_knows_its_game_and_whether_it_ends_a_line() -> None:
    """python-chess's ``GameNode.game()`` and ``is_end()`` (issue 40 §10)."""
    game = pdn.parse_game(STUDY)
    side = game.variations[1]
    assert side.game() is game
    assert game.end().game() is game
    assert game.game() is game
    assert game.end().is_end()
    assert not game.is_end()
    assert side.variations[1].is_end()  # 1... 18-23 $1: a line of one move
    lone = pdn.GameNode(game.position)  # a node in no game's tree
    with pytest.raises(PDNError, match="no Game at its root"):
        lone.game()


def test_the_game_is_the_root_of_its_tree_and_copies_and_pickles_whole() -> None:
    game = pdn.parse_game(STUDY)
    assert isinstance(game, pdn.GameNode)
    assert game.parent is None
    assert game.move is None
    copy = game.copy()
    assert copy == game
    copy.variations[1].comment = "changed"
    assert game.variations[1].comment == "alt"  # the copy is deep
    assert copy != game
    assert pickle.loads(pickle.dumps(game)) == game


def test_a_game_100000_plies_long_pickles_without_recursion() -> None:
    """Games go to worker processes (``annotate --workers``): the pickle is flat, not one level per ply."""
    game = pdn.Game(start=Position.from_fen("international", "W:WK31:BK1"))
    node: pdn.GameNode = game
    shuffle = ["31-4", "1-6", "4-31", "6-1"]
    for index in range(100_000):
        node = node.add_variation(parse_move(node.position, shuffle[index % 4]))
    back = pickle.loads(pickle.dumps(game))
    assert back.end().ply == 100_000
    assert back == game
