"""Trees written and read back (issue 27 §2): random trees of random legal games under every named ruleset,
the test corpus, and a hand-made study, each gives an equal tree; a normalised text is byte-stable."""

from __future__ import annotations

import io
import warnings
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
import strategies
from draughts import Position, pdn
from draughts.pdn import Game, GameNode
from draughts.pdn.commands import Arrow, Commands, Eval, SquareMark
from draughts.pdn.game import descendants
from draughts.pdn.visitor import GameBuilder, read_with
from draughts.rules import Ruleset

NAMED = tuple(draughts.VARIANTS.values())
WORDS = st.text(
    st.characters(whitelist_categories=("L", "N"), whitelist_characters="!?.,:;'-+=()/"), min_size=1, max_size=8
)
"""Comment words: letters (any script), digits and punctuation; no braces, brackets or % (PDN's own)."""
TEXT = st.lists(WORDS, min_size=1, max_size=4).map(" ".join)
MARKS = st.sampled_from(["!", "?", "!!", "??", "!?", "?!"])
NAGS = st.one_of(st.integers(0, 255).map(lambda number: f"${number}"), MARKS)
SQUARE = st.integers(1, 50).map(str)
COLOR = st.sampled_from("GRYB")


@st.composite
def commands(draw: st.DrawFn) -> Commands:
    found = Commands()
    if draw(st.booleans()):
        depth = draw(st.none() | st.integers(1, 60))
        if draw(st.booleans()):
            found.eval = Eval(score=draw(st.integers(-9999, 9999)) / 100, depth=depth)
        else:
            found.eval = Eval(plies=draw(st.integers(-99, 99)), depth=depth)
    if draw(st.booleans()):
        found.clock = draw(st.integers(0, 20_000)) / 2
    found.arrows = draw(st.lists(st.builds(Arrow, COLOR, SQUARE, SQUARE), max_size=2))
    found.squares = draw(st.lists(st.builds(SquareMark, COLOR, SQUARE), max_size=2))
    return found


def annotate(draw: st.DrawFn, node: GameNode) -> None:
    """A random comment, commands and NAGs on ``node`` (and a starting comment on a side line's first move)."""
    if draw(st.integers(0, 3)) == 0:
        node.comment = draw(TEXT)
    if draw(st.integers(0, 4)) == 0:
        node.commands = draw(commands())
    if node.parent is None:
        return
    node.nags = draw(st.lists(NAGS, max_size=2))
    if node.parent.variations[0] is not node and draw(st.integers(0, 2)) == 0:
        node.starting_comment = draw(TEXT)


@st.composite
def trees(draw: st.DrawFn, rules: Ruleset) -> Game:
    """A random tree of legal moves: lines grown from random nodes, so side lines nest at any depth."""
    start = draw(st.one_of(st.just(Position.initial(rules)), strategies.positions(rules)))
    root = Game(start=start)
    annotate(draw, root)
    nodes: list[GameNode] = [root]
    for _ in range(draw(st.integers(0, 30))):
        node = nodes[-1] if draw(st.booleans()) else nodes[draw(st.integers(0, len(nodes) - 1))]
        unused = [move for move in node.position.legal_moves() if not node.has_variation(move)]
        if not unused:
            continue
        child = node.add_variation(unused[draw(st.integers(0, len(unused) - 1))])
        annotate(draw, child)
        nodes.append(child)
    return root


def assert_tree_reads_back(root: Game, rules: Ruleset) -> None:
    root.headers = {"Event": "random"}
    text = pdn.write_game(root)
    back = pdn.parse_game(text, ruleset=rules)
    assert back.same_tree(root), text
    assert pdn.write_game(back) == text
    (built,) = read_with(io.StringIO(text), GameBuilder(), ruleset=rules)
    assert built.same_tree(root)
    assert built == back


@st.composite
def rules_and_trees(draw: st.DrawFn) -> tuple[Ruleset, Game]:
    rules = draw(st.sampled_from(NAMED))
    return rules, draw(trees(rules))


@settings(max_examples=60, deadline=timedelta(seconds=30), suppress_health_check=[HealthCheck.too_slow])
@given(rules_and_trees())
def test_a_random_tree_written_reads_back_to_an_equal_tree(case: tuple[Ruleset, Game]) -> None:
    rules, root = case
    assert_tree_reads_back(root, rules)


def test_every_named_ruleset_gets_a_tree_with_side_lines_read_back() -> None:
    for rules in NAMED:
        root = Game(start=Position.initial(rules))
        first, second = root.position.legal_moves()[:2]
        main = root.add_variation(first)
        main.set_comment("main [%eval 0.1]")
        side = root.add_variation(second, starting_comment="or")
        side.nags = ["?!", "$14"]
        side.add_variation(side.position.legal_moves()[0])
        main.add_variation(main.position.legal_moves()[0])
        assert_tree_reads_back(root, rules)


@pytest.mark.slow
@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(rules_and_trees())
def test_a_random_tree_written_reads_back_to_an_equal_tree_long(case: tuple[Ruleset, Game]) -> None:
    rules, root = case
    assert_tree_reads_back(root, rules)


STUDY = """[Event "hand-made study"]
[GameType "20"]

{The start [%csl G32,R19]} 1. 32-28 {the main line [%eval 0.35,12] [%clk 0:05:00]} (1. 33-29 {a side
line [%cal G19-23,R18-23]} 1... 19-23! (1... 18-23 $1 {second level} (1... 17-21 {also second} 2. 31-26 $3)
2. 29x18 12x23 (2... 13x22 {third level [%eval #-7] [%csl Y21]} 3. 38-33 $4 !?)) 2. 34-30 {back on the first
level}) 1... 19-23 $2 {before the second move} 2. 28x19 {[%clk 0:04:58.5]} 14x23 ({before a side line}
2... 13x24 {[%eval -1.5]}) 3. 37-32 *
"""


def level(node: GameNode) -> int:
    """How many side lines deep ``node`` is (0 on the main line)."""
    depth = 0
    while node.parent is not None:
        depth += node.parent.variations[0] is not node
        node = node.parent
    return depth


def test_a_hand_made_study_is_byte_stable_after_one_normalising_write() -> None:
    game = pdn.parse_game(STUDY)
    once = pdn.write_game(game)
    again = pdn.parse_game(once)
    assert again.same_tree(game)
    assert pdn.write_game(again) == once
    assert pdn.parse_game(pdn.write_game(again)).same_tree(game)
    root = game
    assert root.comment == "The start"
    assert [(mark.color, mark.square) for mark in root.commands.squares] == [("G", "32"), ("R", "19")]
    main, side = root.variations
    assert main.commands.eval == Eval(score=0.35, depth=12)
    assert main.commands.clock == 300.0
    assert side.comment == "a side line"
    assert [(a.color, a.tail, a.head) for a in side.commands.arrows] == [("G", "19", "23"), ("R", "18", "23")]
    assert side.variations[0].nags == ["!"]
    second, also = side.variations[1:]
    assert (second.san(), second.nags, second.comment, level(second)) == ("18-23", ["$1"], "second level", 2)
    assert (also.san(), also.comment, also.variations[0].nags) == ("17-21", "also second", ["$3"])
    third = second.variations[0].variations[1]
    assert (third.san(), third.comment, level(third)) == ("13x22", "third level", 3)
    assert third.commands.eval == Eval(plies=-7)
    assert [(mark.color, mark.square) for mark in third.commands.squares] == [("Y", "21")]
    assert third.variations[0].nags == ["$4", "!?"]
    reply = main.variations[0]
    assert reply.nags == ["$2"]
    assert reply.comment == "before the second move"
    capture = reply.variations[0].variations[1]
    assert capture.starting_comment == "before a side line"
    assert capture.commands.eval == Eval(score=-1.5)
    assert reply.variations[0].commands.clock == 298.5
    assert once == (
        '[Event "hand-made study"]\n[GameType "20"]\n\n'
        "{The start [%csl G32,R19]} 1. 32-28\n"
        "{the main line [%eval 0.35,12] [%clk 0:05:00]} (1. 33-29\n"
        "{a side line [%cal G19-23,R18-23]} 1... 19-23! (1... 18-23 $1 {second level}\n"
        "2. 29x18 12x23 (2... 13x22 {third level [%eval #-7] [%csl Y21]} 3. 38-33 $4 !?))\n"
        "(1... 17-21 {also second} 2. 31-26 $3) 2. 34-30 {back on the first level})\n"
        "1... 19-23 $2 {before the second move} 2. 28x19 {[%clk 0:04:58.5]} 2... 14x23\n"
        "({before a side line} 2... 13x24 {[%eval -1.5]}) 3. 37-32 *\n"
    )


def corpus_games() -> list[pdn.Game]:
    games: list[pdn.Game] = []
    for path in sorted((Path(__file__).parent.parent / "data" / "games").glob("*/*.pdn")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            games += pdn.read_games(path, errors="skip")
    return games


def test_every_game_of_the_corpus_read_into_a_tree_written_reads_back_equal() -> None:
    games = corpus_games()
    assert len(games) >= 380  # every game of tests/data/games that reads (382 of them; about 3 s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdn.PDNWarning)  # variations of the files that are not legal, dropped
        for game in games:
            text = pdn.write_game(game)
            back = pdn.parse_game(text, ruleset=game.ruleset)
            assert back.same_tree(game), (game.index, game.headers)
            assert pdn.write_game(back) == text


def test_tree_data_lists_every_node_and_builds_the_tree_back_with_an_added_side_line() -> None:
    from draughts.pdn.treedata import tree_data, tree_from_data

    game = pdn.parse_game(STUDY)
    nodes = tree_data(game)
    assert len(nodes) == sum(1 for _ in descendants(game))
    assert tree_from_data(game.position, nodes).same_tree(game)
    # A client plays a different move at a node of a side line: a new node under it.
    side = next(node for node in nodes if node["move"] == "33-29")
    reply = nodes[side["children"][0]]
    assert reply["move"] == "19-23"
    nodes.append({"id": len(nodes), "parent": reply["id"], "move": "39-33", "comment": "new [%eval 0.5]"})
    edited = tree_from_data(game.position, nodes)
    text = pdn.write_game(edited)
    assert "39-33 {new [%eval 0.5]}" in text
    again = pdn.parse_game(text)
    assert again.same_tree(edited)
    added = again.variations[1].variations[0].variations[-1]
    assert (added.san(), added.comment, level(added)) == ("39-33", "new", 2)
    with pytest.raises(draughts.PDNError, match="'17-21'"):
        tree_from_data(game.position, [nodes[0], {"parent": 0, "move": "17-21"}])


@pytest.mark.slow
def test_every_game_of_the_full_survey_read_into_a_tree_written_reads_back_equal() -> None:
    """The whole survey of real files (tests/data/games-full: 2,992 games in six variants, whole
    files as published), each readable game read into a tree, written, read back equal."""
    games: list[pdn.Game] = []
    variants = {"english": "american"}
    for path in sorted((Path(__file__).parent.parent / "data" / "games-full").glob("*/*.pdn")):
        variant = variants.get(path.parent.name, path.parent.name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            games += pdn.read_games(path, ruleset=variant, errors="skip")
    assert len(games) >= 2900, len(games)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdn.PDNWarning)
        for game in games:
            text = pdn.write_game(game)
            back = pdn.parse_game(text, ruleset=game.ruleset)
            assert back.same_tree(game), (game.index, game.headers)
            assert pdn.write_game(back) == text
