"""Shots (draughts.db.shots): the forcing search, the engine's verification, the puzzles as PDN."""

from __future__ import annotations

from draughts import WHITE, Board, Position, pdn
from draughts.db import Database
from draughts.db.shots import find_shots, forcing_line, shots_in_game, write_puzzles
from draughts.engine import Engine

# From the 2000 Azerbaijan championship (games-checkers az2000.pdn): White plays 21-17, Black must
# take 12x21, and White takes two back with 26x28 (over 21 and 22).
SHOT = "W:W21,26,31,33,36,37,38,43,44,45,48:B3,6,7,8,11,12,13,14,15,18,22,34"
SOLUTION = ["21-17", "12x21", "26x28"]


def _texts(position: Position, moves: tuple[object, ...]) -> list[str]:
    board = Board.from_position(position)
    texts = []
    for move in moves:
        texts.append(board.move_text(move))  # type: ignore[arg-type]
        board.push(move)  # type: ignore[arg-type]
    return texts


def test_forcing_search_finds_the_sacrifice() -> None:
    position = Position.from_fen("international", SHOT)
    gain, line = forcing_line(position)
    assert gain == 100
    assert _texts(position, line) == SOLUTION


def test_no_shot_from_the_start() -> None:
    assert forcing_line(Position.initial("international")) == (0, ())


def _game() -> pdn.Game:
    board = Board.from_fen("international", SHOT)
    for text in [*SOLUTION, "18-23"]:
        board.push_text(text)
    return pdn.Game.from_board(board, {"White": "Huseynov", "Black": "Ibrahimova", "Event": "az2000"}, "1-0")


def test_shot_in_a_game_is_verified_and_marked_played() -> None:
    shots = list(shots_in_game(_game(), Engine(seed=0), depth=4))
    assert len(shots) == 1
    shot = shots[0]
    assert (shot.ply, shot.gain, shot.played) == (0, 100, True)
    assert _texts(shot.position, shot.solution) == SOLUTION
    assert shot.score >= 50


def test_unverified_candidates_are_dropped() -> None:
    # An engine that scores every position as lost for White refutes White's shot.
    pessimist = Engine(seed=0, evaluate=lambda position: -1000 if position.turn is WHITE else 1000)
    assert list(shots_in_game(_game(), pessimist, depth=2)) == []


def test_puzzles_read_back_with_the_solution() -> None:
    db = Database(":memory:")
    db.add_games([_game()])
    shots = find_shots(db, depth=4)
    assert [(shot.game, shot.ply) for shot in shots] == [(1, 0)]
    (puzzle,) = pdn.parse_games(write_puzzles(shots))
    assert puzzle.position.fen() == Position.from_fen("international", SHOT).fen()
    assert _texts(puzzle.position, tuple(puzzle.mainline_moves())) == SOLUTION
    assert puzzle.headers["Event"] == "Shot: az2000"
    assert "wins material worth 1 men (played in the game" in puzzle.comment


def test_winning_back_what_was_just_taken_is_no_shot() -> None:
    # The same position, reached by Black taking a man (4x13): White's combination only wins it back.
    board = Board.from_fen("international", "B:W9,21,26,31,33,36,37,38,43,44,45,48:B3,4,6,7,8,11,12,14,15,18,22,34")
    for text in ["4x13", *SOLUTION, "18-23"]:
        board.push_text(text)
    game = pdn.Game.from_board(board, {}, "*")
    assert game.next().position == Position.from_fen("international", SHOT)  # type: ignore[union-attr]
    assert list(shots_in_game(game, Engine(seed=0), depth=4)) == []
    assert len(list(shots_in_game(_game(), Engine(seed=0), depth=4))) == 1  # from the same position as a start
