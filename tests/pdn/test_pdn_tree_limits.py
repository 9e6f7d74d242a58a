"""Hostile trees (issue 40 §17): many comments or NAGs cost linear work, NAGs that PDN cannot hold are
refused, and ``%eval``/``%clk`` values of hundreds of digits are a clear PDNError, never ``inf``."""

from __future__ import annotations

import io
import math

import pytest

import draughts.pdn.game
from draughts import Position, pdn
from draughts.errors import PDNError
from draughts.notation import parse_move
from draughts.pdn.commands import Commands, Eval, command_text, parse_clock, parse_eval, split_commands
from draughts.pdn.visitor import GameBuilder, StringExporter, read_with, wrap

START = Position.initial("international")


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every comment whose commands are read (GameNode.set_comment), in call order."""
    lengths: list[int] = []

    def counting(text: str) -> tuple[str, Commands]:
        lengths.append(len(text))
        return split_commands(text)

    monkeypatch.setattr(draughts.pdn.game, "split_commands", counting)
    return lengths


COMMENTS = 80_000


@pytest.mark.parametrize("where", ["main line", "side line"])
def test_80000_comments_on_one_node_are_read_once(where: str, work: list[int]) -> None:
    """Each node's comments are joined once: one command scan per node, over text as long as the input."""
    comments = "{c [%clk 0:00:01]} " * COMMENTS
    text = f"1. 32-28 {comments}19-23 *" if where == "main line" else f"1. 32-28 (1. 33-29 {comments}) 19-23 *"
    game = pdn.parse_game(text)
    node = game.next() if where == "main line" else game.variations[1]
    assert node is not None
    assert node.comment == " ".join(["c"] * COMMENTS)
    assert node.commands.clock == 1.0
    assert len(work) <= 3  # was one scan per comment, each over every comment before it
    assert sum(work) <= 2 * len(text)


def test_80000_comments_through_read_with_a_game_builder_are_joined_once(work: list[int]) -> None:
    text = "1. 32-28 (1. 33-29 " + "{c} " * COMMENTS + ") 19-23 *"
    (game,) = read_with(io.StringIO(text), GameBuilder())
    assert game.variations[1].comment == " ".join(["c"] * COMMENTS)
    assert sum(work) <= 3 * len(text)  # the reader's tree, then the builder's: once per node each
    builder = GameBuilder()  # events straight from a caller, one comment at a time
    builder.begin_game()
    builder.visit_start(START)
    builder.visit_move(START, parse_move(START, "32-28"))
    before = len(work)
    for _ in range(COMMENTS):
        builder.visit_comment("c")
    built = builder.result()
    assert built.next().comment == " ".join(["c"] * COMMENTS)  # type: ignore[union-attr]
    assert len(work) - before == 1


def test_a_million_nags_are_refused_by_the_token_limit_not_read_quadratically() -> None:
    """A side line's tokens count toward a game's 100,000 (a variation was one unbounded token before)."""
    text = "1. 32-28 (1. 33-29 " + "$1 " * 1_000_000 + ') 19-23 *\n[Event "next"] 1. 33-28 *'
    with pytest.raises(PDNError, match=r"more than the 100,000 a game may have"):
        next(read_with(io.StringIO(text), GameBuilder()))
    with pytest.warns(pdn.PDNWarning, match="more than the 100,000"):
        games = list(read_with(io.StringIO(text), GameBuilder(), errors="skip"))
    assert [game.headers for game in games] == [{"Event": "next"}]


def test_90000_nags_of_a_side_line_read_and_write_in_linear_time() -> None:
    """Within the limit, NAGs are kept in order; the writer joins each line once (a line as wide as the
    game held every NAG: adding them one by one to the line so far copied it 90,000 times)."""
    text = "1. 32-28 (1. 33-29 " + "$1 " * 90_000 + ") 19-23 *"
    (game,) = read_with(io.StringIO(text), GameBuilder())
    side = game.variations[1]
    assert side.nags == ["$1"] * 90_000
    one_line = pdn.write_game(game, width=1 << 40)
    assert one_line.count("$1") == 90_000
    assert pdn.parse_game(one_line).same_tree(game)
    assert pdn.write_game(game).splitlines()[-1].endswith("19-23 *")


def test_wrap_joins_pieces_into_lines_of_the_width() -> None:
    pieces = ["1.", "32-28", "{a", "b}", "[%eval", "x}", "%c", "19-23"]
    assert wrap(pieces, 8) == ["1. 32-28", "{a b} [%eval", "x} %c", "19-23"]  # no line opens with [ or %
    assert wrap(["w"] * 1_000_000, 1 << 40) == [" ".join(["w"] * 1_000_000)]


@pytest.mark.parametrize("nag", ["{", "(", ")", "}", "1-0", "28-24", "*", "$1 $2", "", "$1000", "!!!!", "[%eval 1]"])
def test_a_nag_pdn_cannot_hold_is_refused_before_anything_is_written(nag: str) -> None:
    """``{``, ``(``, ``1-0`` or ``28-24`` as a NAG made unreadable PDN, or PDN with other moves or another result."""
    game = pdn.parse_game('[GameType "20"] 1. 32-28 19-23 *')
    node = game.next()
    assert node is not None
    node.nags = ["$3", nag]
    with pytest.raises(PDNError, match=r"neither a NAG \(\$1\) nor a mark"):
        pdn.write_game(game)
    stream = io.StringIO()
    with pytest.raises(PDNError, match="neither a NAG"):
        pdn.write_games([game], stream)
    assert stream.getvalue() == ""
    with pytest.raises(PDNError, match="neither a NAG"):
        game.accept(StringExporter())


@pytest.mark.parametrize("nag", ["$0", "$255", "$999", "!", "??", "!?", "(?)"])
def test_nags_and_marks_are_written_as_they_are_and_read_back(nag: str) -> None:
    game = pdn.parse_game('[GameType "20"] 1. 32-28 19-23 *')
    node = game.next()
    assert node is not None
    node.nags = [nag, "$7"]
    assert pdn.parse_game(pdn.write_game(game)).next().nags == [nag, "$7"]  # type: ignore[union-attr]


DIGITS = "1" * 400


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (parse_eval, DIGITS),
        (parse_eval, f"{DIGITS}.5"),
        (parse_eval, f"0.{DIGITS}"),
        (parse_eval, f"#{DIGITS}"),
        (parse_eval, f"0.5,{DIGITS}"),
        (parse_clock, f"{DIGITS}:00:00"),
        (parse_clock, f"0:00:00.{DIGITS}"),
    ],
)
def test_commands_with_hundreds_of_digits_are_a_pdn_error(parse: object, text: str) -> None:
    """Was OverflowError (a 500 on the web) or ValueError, or an eval of 400 digits became ``inf``."""
    with pytest.raises(PDNError, match="at most nine digits"):
        parse(text)  # type: ignore[operator]


def test_a_comment_with_a_huge_eval_keeps_it_as_text_and_round_trips() -> None:
    text = f'[GameType "20"] 1. 32-28 {{good [%eval {DIGITS}] [%clk {DIGITS}:00:00]}} *'
    game = pdn.parse_game(text)
    node = game.next()
    assert node is not None
    assert node.commands.eval is None
    assert node.commands.clock is None
    assert node.comment == f"good [%eval {DIGITS}] [%clk {DIGITS}:00:00]"  # left in the text, nothing lost
    again = pdn.parse_game(pdn.write_game(game))
    assert again == game
    assert "inf" not in pdn.write_game(game)


def test_an_eval_that_is_not_finite_is_not_written() -> None:
    with pytest.raises(PDNError, match="not a finite number"):
        command_text(Commands(Eval(score=math.inf)))
    with pytest.raises(PDNError, match="not a finite number"):
        command_text(Commands(clock=math.nan))
    assert command_text(Commands(Eval(score=123456789.5), 3600.5)) == "[%eval 123456789.5] [%clk 1:00:00.5]"
