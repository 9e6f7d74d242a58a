"""Visitors (issue 27 §2): the events of a game, headers without replay, skipping, building and exporting trees."""

from __future__ import annotations

import io

import pytest

import mainline
from draughts import pdn
from draughts.errors import PDNError
from draughts.move import Move
from draughts.notation import move_text, parse_move
from draughts.pdn import GameBuilder, HeadersBuilder, PDNWarning, SkipVisitor, StringExporter
from draughts.pdn.events import SKIP, BaseVisitor, SkipType
from draughts.pdn.visitor import read_with
from draughts.position import Position

STUDY = (
    '[Event "s"]\n[GameType "20"]\n\n{start} 1. 32-28! $1 {a [%eval 0.3]} (1. 33-29 {alt} 19-23 (1... 18-23 $2)) '
    "1... 19-23 2. 28x19 14x23 *\n"
)


class Recorder(BaseVisitor[list[str]]):
    """Every event as a short string."""

    def __init__(self, skip_variations: bool = False) -> None:
        self.events: list[str] = []
        self.skip_variations = skip_variations

    def begin_game(self) -> None:
        self.events = ["begin_game"]

    def visit_header(self, name: str, value: str) -> None:
        self.events.append(f"header {name}={value}")

    def end_headers(self) -> None:
        self.events.append("end_headers")

    def visit_start(self, position: Position) -> None:
        self.events.append(f"start {position.ruleset.name}")

    def visit_move(self, position: Position, move: Move) -> None:
        self.events.append(f"move {move_text(position, move)}")

    def visit_nag(self, nag: str) -> None:
        self.events.append(f"nag {nag}")

    def visit_comment(self, comment: str) -> None:
        self.events.append(f"comment {comment}")

    def begin_variation(self) -> SkipType | None:
        self.events.append("(")
        return SKIP if self.skip_variations else None

    def end_variation(self) -> None:
        self.events.append(")")

    def visit_result(self, result: str) -> None:
        self.events.append(f"result {result}")

    def end_game(self) -> None:
        self.events.append("end_game")

    def result(self) -> list[str]:
        return self.events


def test_the_events_of_a_study_come_in_pdn_order() -> None:
    (events,) = read_with(io.StringIO(STUDY), Recorder())
    assert events == [
        "begin_game",
        "header Event=s",
        "header GameType=20",
        "end_headers",
        "start international",
        "comment start",
        "move 32-28",
        "nag !",
        "nag $1",
        "comment a [%eval 0.3]",
        "(",
        "move 33-29",
        "comment alt",
        "move 19-23",
        "(",
        "move 18-23",
        "nag $2",
        ")",
        ")",
        "move 19-23",
        "move 28x19",
        "move 14x23",
        "result *",
        "end_game",
    ]


def test_a_skipped_variation_is_not_visited() -> None:
    (events,) = read_with(io.StringIO(STUDY), Recorder(skip_variations=True))
    assert "move 33-29" not in events
    assert events.count("(") == 1
    assert ")" not in events
    assert [event for event in events if event.startswith("move")] == [
        "move 32-28",
        "move 19-23",
        "move 28x19",
        "move 14x23",
    ]


def test_headers_and_skip_visitors_replay_no_move() -> None:
    # The first game's moves are illegal: reading it in full is an error, skipping its movetext is not.
    text = '[White "A"] 1. 32-28 99-88 * [White "B"] 1. 33-29 *'
    with pytest.raises(PDNError):
        list(pdn.read_games(io.StringIO(text)))
    assert list(read_with(io.StringIO(text), HeadersBuilder())) == [{"White": "A"}, {"White": "B"}]
    assert list(read_with(io.StringIO(text), SkipVisitor())) == [True, True]
    assert list(pdn.read_headers(io.StringIO(text))) == [{"White": "A"}, {"White": "B"}]


def test_read_with_raises_or_skips_a_bad_game() -> None:
    text = '[White "A"] 1. 32-28 99-88 * [White "B"] 1. 33-29 *'
    with pytest.raises(PDNError, match="99-88"):
        list(read_with(io.StringIO(text), GameBuilder()))
    with pytest.warns(PDNWarning, match="skipped game 1"):
        games = list(read_with(io.StringIO(text), GameBuilder(), errors="skip"))
    assert [game.headers["White"] for game in games] == ["B"]
    assert games[0].mainline_moves() == [parse_move(Position.initial("international"), "33-29")]


def test_game_builder_gives_the_readers_tree() -> None:
    built = next(read_with(io.StringIO(STUDY), GameBuilder()))
    read = pdn.parse_game(STUDY)
    assert built.same_tree(read)
    assert built == read  # tags, start, result and tree: one model whichever way it is read
    assert built.mainline_moves() == read.mainline_moves()
    assert built.headers == {"Event": "s", "GameType": "20"}
    assert mainline.comments(built) == {0: "start", 1: "a [%eval 0.3]"}
    assert mainline.nags(built) == {1: ["!", "$1"]}
    assert mainline.sides(built) == {1: ["33-29"]}
    again = pdn.parse_game(pdn.write_game(built))
    assert again.same_tree(read)


def test_write_game_is_the_string_exporter_over_the_game_and_reads_back() -> None:
    game = pdn.parse_game(STUDY)
    text = pdn.write_game(game)
    assert text == game.accept(StringExporter())
    assert text.startswith('[Event "s"]\n[GameType "20"]\n\n{start} 1. 32-28! $1 {a [%eval 0.3]}')
    assert game.accept(StringExporter(headers=False)) == text.split("\n\n", 1)[1]
    assert pdn.parse_game(text).same_tree(game)
    # The exporter reads through read_with too (tags as written).
    (streamed,) = read_with(io.StringIO(STUDY), StringExporter())
    assert streamed.split("\n\n", 1)[1] == text.split("\n\n", 1)[1]
    assert "(" not in pdn.write_game(game, variations=False)


def test_an_edited_tree_is_written_with_its_side_lines() -> None:
    game = pdn.parse_game(STUDY)
    main = game.variations[0]
    new = main.add_variation(parse_move(main.position, "18-22"))  # an alternative to 19-23, the second ply
    new.add_variation(parse_move(new.position, "37-32"))
    text = pdn.write_game(game)
    assert "(1... 18-22 2. 37-32)" in text
    assert mainline.sides(game)[2] == ["18-22"]
    back = pdn.parse_game(text)
    assert back.same_tree(game)
    assert pdn.write_game(back) == text


def test_a_second_player_side_line_is_numbered_with_dots() -> None:
    game = pdn.parse_game('[GameType "20"] 1. 32-28 19-23 (1... 18-22 2. 28-23) 2. 28x19 *')
    side = game.variations[0].variations[1]
    assert side.san() == "18-22"
    assert "(1... 18-22 2. 28-23) 2. 28x19" in pdn.write_game(game)
