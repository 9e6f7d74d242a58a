"""The native game loop (issue 38 §3): the same games and records as the Python loop for a seed,
for rulesets and player kinds; the shared generator; the distinct-games fix."""

from __future__ import annotations

import warnings

import pytest

from draughts import Board
from draughts._native import Rng
from draughts.engine import Engine, Limit
from draughts.lab.metrics import CAP, measure
from draughts.lab.native import is_native, play_native
from draughts.lab.runner import (
    GameTask,
    Opening,
    RandomOpenings,
    RepeatedGamesWarning,
    default_openings,
    lab_tasks,
    openings_note,
    play_task,
    play_task_native,
    play_task_python,
    repeated_games,
    run_games,
    run_lab,
    start_board,
)
from draughts.players import RandomPlayer
from interrupt import assert_stops_on_ctrl_c
from native_players import PAIRS, RULESETS

MASK = (1 << 64) - 1


def splitmix(seed: int, count: int) -> list[int]:
    """The reference splitmix64, written out in Python."""
    state, out = seed & MASK, []
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        out.append(z ^ (z >> 31))
    return out


def test_the_shared_generator_is_splitmix64() -> None:
    rng = Rng(12345)
    assert [rng.next() for _ in range(5)] == splitmix(12345, 5)
    # below(n) is the multiply-shift of the next number, so both paths draw the same move.
    rng, ref = Rng(-7), splitmix(-7, 20)
    assert [rng.below(13) for _ in range(20)] == [(x * 13) >> 64 for x in ref]


def test_the_random_player_draws_from_the_shared_generator() -> None:
    board = Board("russian")
    player, rng = RandomPlayer(seed=99), Rng(99)
    for _ in range(30):
        moves = board.legal_moves()
        if not moves:
            break
        move, score = player.choose(board)
        assert score is None
        assert move == moves[rng.below(len(moves))]
        board.push(move)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("players", PAIRS, ids=lambda p: "-".join(p))
def test_native_games_equal_the_python_loops(ruleset: str, players: tuple[str, str]) -> None:
    """Every field of every record (moves, legal counts, captures, crownings, scores, the end in
    words) is the same on both paths, for both colours and an opening."""
    opening = RandomOpenings(2, 1, seed=5).openings(ruleset)[0]
    for index, start in ((0, None), (1, None), (2, opening)):
        task = GameTask(ruleset, index, 11, 120, players, start, None if start is None else 0)
        native = play_task_native(task)
        assert native == play_task_python(task)
        assert native.plies > 0


ENDGAMES = [
    ("russian", "W:WK1:BK32", ("random", "random")),
    ("international", "W:WK1:BK50", ("random", "random")),
    ("frisian", "W:WK1,K3:BK50", ("depth:2", "depth:3")),
    ("thai", "W:WK1,K3:BK32", ("depth:2", "depth:3")),
    ("american", "W:WK1,K3:BK32,K30", ("depth:2", "depth:3")),
]


def test_native_games_end_by_every_kind_of_end() -> None:
    """Wins by no piece or no move, draws by repetition and by endgame rules (Frisian's reads where
    the pieces stand), and the cap: the same end, in the same words, on both paths."""
    endings = set()
    for ruleset, fen, players in ENDGAMES:
        for index in range(4):
            task = GameTask(ruleset, index, 1, 300, players, Opening(fen=fen), 0)
            record = play_task_native(task)
            assert record == play_task_python(task)
            endings.add(record.ending)
    assert CAP in endings
    assert any(e.endswith("has no pieces left") for e in endings)
    assert any("same position" in e for e in endings)
    assert any("FMJD" in e or "RUS64" in e for e in endings)
    assert any("FRI" in e for e in endings)


def test_a_timed_player_plays_natively_a_legal_game() -> None:
    board = Board("russian")
    game = play_native(board, ("time:0.01", "random"), (1, 2), 20)
    replay = board.copy()
    for index in game.moves:
        replay.push(replay.legal_moves()[index])
    assert len(game.moves) == 20
    assert game.outcome is None
    assert len(board.move_stack) == 0  # the start board is left as it was


def test_the_lab_plays_native_players_natively_and_others_in_python() -> None:
    assert is_native(["random", "depth:3", "level:strong", "nodes:10", "time:0.5"])
    assert not is_native(["random", "hub:scan hub"])
    task = GameTask("russian", 0, 1, 60, ("depth:1", "random"))
    assert play_task(task) == play_task_python(task)


def test_engine_search_uses_the_engines_generator_for_ties() -> None:
    """Engine.search's choice among equal moves is its Rng's draw: an engine with a wide margin and
    the same seed makes the same choices, and another seed others."""
    board = Board("international")
    picks = {seed: Engine(seed=seed, margin=10_000).search(board, Limit(depth=1)).move for seed in range(8)}
    assert Engine(seed=3, margin=10_000).search(board, Limit(depth=1)).move == picks[3]
    assert len(set(picks.values())) > 1
    # The choice is the seed's generator's draw among the moves within the margin: all of them here.
    moves = board.legal_moves()
    assert picks[5] == moves[Rng(5).below(len(moves))]


# --- distinct games (issue 38 §3) -----------------------------------------------------------------


def test_engine_players_without_openings_play_distinct_games() -> None:
    """Russian depth:2, 20 games, no openings: 6 distinct games before (the start position replayed);
    now every game starts from its own random opening and all 20 differ. Fails on main."""
    tasks = lab_tasks(["russian"], 20, players=["depth:2"], seed=0)
    records = run_games(tasks)
    assert repeated_games(records) == {}
    assert len({(r.opening, r.moves) for r in records}) == 20
    assert all(task.opening is not None for task in tasks)


def test_the_start_position_is_still_there_and_repeats_are_warned() -> None:
    with pytest.warns(RepeatedGamesWarning, match="repeat an earlier game"):
        figures = run_lab(["russian"], 20, players=["depth:2"], openings=[Opening()])
    assert figures["russian"].games == 20


def test_random_players_keep_the_start_position_and_no_warning() -> None:
    assert default_openings(["random"], 10) is None
    assert default_openings(["depth:2", "random"], 10) == RandomOpenings(4, 5, 0)
    tasks = lab_tasks(["russian"], 4, players=["random"])
    assert all(task.opening is None for task in tasks)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        measure(run_games(tasks))


def test_the_output_says_where_games_start() -> None:
    assert "random plies per game by default" in openings_note(("depth:2", "depth:2"), None)
    assert "start position" in openings_note(("random", "random"), None)


def test_a_start_board_with_an_opening_plays_the_same_natively() -> None:
    task = GameTask("russian", 1, 4, 80, ("depth:2", "level:beginner"), Opening(("c3-d4", "f6-g5")), 0)
    assert start_board(task).ply() == 2
    assert play_task_native(task) == play_task_python(task)


@pytest.mark.timeout(60)
def test_a_native_game_stops_on_ctrl_c() -> None:
    """The native game releases the GIL and polls Python's signal handlers at every ply and inside
    searches: SIGINT stops a game of unlimited searches with KeyboardInterrupt."""
    assert_stops_on_ctrl_c(lambda: play_native(Board("international"), ("depth:64", "depth:64"), (1, 2), 300))


def test_a_random_player_pickles_and_goes_on_drawing_the_same_moves() -> None:
    import pickle

    board = Board("russian")
    player = RandomPlayer(seed=4)
    player.choose(board)
    copy = pickle.loads(pickle.dumps(player))
    assert [copy.choose(board)[0] for _ in range(5)] == [player.choose(board)[0] for _ in range(5)]
