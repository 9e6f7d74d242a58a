"""draughts.engine.analysis: %eval on every move, marks by the drop in winning chances, better lines, accuracy tags."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from draughts import pdn
from draughts.board import Board
from draughts.engine import AnalysisLine, Engine, Limit
from draughts.engine.analysis import LIDRAUGHTS, Thresholds, accuracy, annotate, annotate_games, judge
from draughts.engine.score import Score
from draughts.move import Move
from draughts.pdn import Game
from draughts.position import Position

DATA = Path(__file__).parent.parent / "data" / "games" / "russian" / "pdn-standard-ussr1947-excerpt.pdn"
EVAL = re.compile(r"\[%eval\s+([^\]]*)\]")
LIMIT = Limit(depth=4)


def real_game() -> Game:
    return next(pdn.read_games(DATA, "russian"))


def dropping_move(position: Position) -> Move:
    """A move after which the opponent wins a man for nothing (a depth-4 search says so)."""
    engine = Engine()
    for move in position.legal_moves():
        after = position.play(move)
        if after.legal_moves() and after.legal_moves()[0].captured:
            reply = engine.search(after, Limit(depth=4))
            if reply.value >= 90:
                return move
    raise AssertionError("no move drops a piece here")


def planted() -> tuple[Game, int]:
    """The real game's first 12 plies, then a move of the 13th that drops a man, and the capture."""
    game = real_game()
    moves = list(game.moves[:12])
    position = game.positions()[12]
    blunder = dropping_move(position)
    after = position.play(blunder)
    moves += [blunder, after.legal_moves()[0]]
    return Game(game.ruleset, dict(game.headers), game.start, moves, "*"), 13


def test_planted_blunder_is_marked_and_gets_the_better_line() -> None:
    game, ply = planted()
    marked = annotate(game, Engine(), LIMIT)
    assert marked.annotations[ply][0] in ("?", "??")
    variation = marked.variations[ply][0]
    assert variation.startswith("7. ")  # ply 13 is White's seventh move
    assert EVAL.search(variation)
    assert int(marked.headers["WhiteMistakes"]) + int(marked.headers["WhiteBlunders"]) >= 1
    assert float(marked.headers["WhiteAccuracy"]) < float(marked.headers["BlackAccuracy"])
    assert game.annotations == {}  # the game given is left as it was
    assert game.comments == {}


def test_real_game_output_reads_back_and_every_eval_parses() -> None:
    game = real_game()
    marked = annotate(game, Engine(), Limit(depth=3))
    text = pdn.write_game(marked)
    back = pdn.parse_game(text)
    assert back.moves == game.moves
    assert back.comments == marked.comments
    assert back.annotations == marked.annotations
    assert back.variations == marked.variations
    assert back.headers["WhiteAccuracy"] == marked.headers["WhiteAccuracy"]
    evals = EVAL.findall(text)
    assert len(evals) >= len(game.moves)
    for ply in range(1, len(game.moves) + 1):
        (found,) = [EVAL.fullmatch(comment) for comment in back.comments[ply] if EVAL.fullmatch(comment)]
        assert found is not None
        Score.parse(found.group(1))
    for value in evals:
        Score.parse(value)  # raises on anything else


def test_eval_is_from_whites_side_and_matches_the_engine() -> None:
    game = real_game()
    short = Game(game.ruleset, {}, game.start, game.moves[:2])
    marked = annotate(short, Engine(), LIMIT)
    after_one = short.positions()[1]  # Black to move
    expected = -Engine().analyse(after_one, LIMIT)[0].score
    assert marked.comments[1] == [f"[%eval {expected.text()}]"]


def test_judgements_and_thresholds() -> None:
    game, ply = planted()
    judgements, _ = judge(game, Engine(), LIMIT)
    assert len(judgements) == len(game.moves)
    blunder = judgements[ply - 1]
    assert blunder.drop >= LIDRAUGHTS.mistake
    assert blunder.best.move != game.moves[ply - 1]
    strict = annotate(game, Engine(), LIMIT, thresholds=Thresholds(0.01, 0.02, 0.03))
    lenient = annotate(game, Engine(), LIMIT, thresholds=Thresholds(2.1, 2.2, 2.3))
    assert strict.annotations[ply] == ["??"]
    assert ply not in lenient.annotations
    assert LIDRAUGHTS.mark(0.074) is None
    assert LIDRAUGHTS.mark(0.075) == "?!"
    assert LIDRAUGHTS.mark(0.15) == "?"
    assert LIDRAUGHTS.mark(0.3) == "??"
    assert accuracy(0) == 100
    assert accuracy(0.1) > accuracy(0.2) > accuracy(1.0) >= 0


def test_old_evals_replaced_and_human_marks_kept() -> None:
    game = real_game()
    short = Game(
        game.ruleset, {}, game.start, game.moves[:3], comments={1: ["[%eval 9.99] nice"]}, annotations={2: ["!"]}
    )
    marked = annotate(short, Engine(), Limit(depth=2))
    assert marked.comments[1][1] == "nice"
    assert len(marked.comments[1]) == 2
    assert marked.annotations[2] == ["!"]


@pytest.mark.parametrize("workers", [None, 2])
def test_collection_one_job_per_game(workers: int | None) -> None:
    games = list(pdn.read_games(DATA, "russian"))[:2]
    games = [Game(g.ruleset, dict(g.headers), g.start, g.moves[:6]) for g in games]
    limit = Limit(depth=2)
    if workers is None:
        out = annotate_games(games, limit)
    else:
        with ThreadPoolExecutor(workers) as pool:
            out = annotate_games(games, limit, executor=pool)
    assert [len(g.moves) for g in out] == [6, 6]
    assert out[1] == annotate(games[1], Engine(), limit)


def test_existing_comments_and_variations_survive_the_round_trip() -> None:
    text = "1. c3-d4 {the centre} (1. c3-b4 f6-g5 {quiet}) 1... f6-g5 $1 2. b2-c3 (2. g3-f4 g5-h4) 2... g7-f6 *"
    game = pdn.parse_game(text, "russian")
    marked = annotate(game, Engine(), Limit(depth=3))
    assert marked.comments[1][1:] == ["the centre"]
    assert marked.variations[1][0] == game.variations[1][0]
    back = pdn.parse_game(pdn.write_game(marked), "russian")
    assert (back.comments, back.annotations, back.variations) == (
        marked.comments,
        marked.annotations,
        marked.variations,
    )
    assert "$1" in back.annotations[2]


NK = Path(__file__).parent.parent / "data" / "games" / "international" / "pdn-standard-nk-ronde-02.pdn"


class _ForcedAtOnce:
    """An engine that answers a position with a single legal move after one ply (a near-static
    score, as the engine's time-limited search did, issue 40 §1) and searches the others."""

    def __init__(self) -> None:
        self.engine = Engine()
        self.asked: list[int] = []

    def analyse(self, game: object, limit: Limit | None = None, *, multipv: int = 1) -> list[AnalysisLine]:
        board = game if isinstance(game, Board) else Board.from_position(game)  # type: ignore[arg-type]
        self.asked.append(len(board.legal_moves))
        depth = 1 if len(board.legal_moves) == 1 else 4
        return self.engine.analyse(board, Limit(depth=depth), multipv=multipv)


def test_a_forced_reply_is_judged_by_the_position_after_it() -> None:
    # The first game of the 2009 Dutch championship, plies 26 to 32: 14... 2-7 (ply 28) leaves White
    # one move (32x21), and so do plies 31 and 32. Scored after one ply, 32x21 looks like a man
    # won, and 2-7 was marked a mistake.
    game = next(pdn.read_games(NK))
    start = game.positions()[25]
    short = Game(game.ruleset, {}, start, game.moves[25:32])
    analyser = _ForcedAtOnce()
    judgements, _ = judge(short, analyser)
    assert 1 not in analyser.asked  # a forced position is never analysed itself
    assert [j.mark for j in judgements] == [None] * 7
    forced = judgements[3]  # ply 29, 32x21: its line is the forced move and the search after it
    assert forced.best.move == game.moves[28]
    assert forced.best.pv[0] == game.moves[28]
    assert forced.best.depth == 4
    marked = annotate(short, analyser)
    assert marked.headers["BlackMistakes"] == "0"
    assert 3 not in marked.annotations
