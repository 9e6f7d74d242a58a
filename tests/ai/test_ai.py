"""draughts.ai: the action encoding, the observation planes and the PettingZoo/Gymnasium environments."""

from __future__ import annotations

import itertools
import subprocess
import sys
import warnings

import attrs
import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

import draughts
import draughts.ai as ai
from draughts import BLACK, WHITE, Board, KingRange, Move, Position
from strategies import HOUSE_RULES, NAMED, custom_rulesets, positions, promotion_positions

CUSTOM = attrs.evolve(
    draughts.get_variant("russian"),
    name="custom-ai",
    title="Russian on 12x12 with precedence",
    board_size=12,
    rows_per_side=5,
    precedence=(draughts.Precedence.MOST_PIECES,),
    pdn_gametype=None,
)
"""A user-defined ruleset: 12x12 board, flying kings, most-pieces precedence."""

FAMILY = [rules for name, rules in draughts.VARIANTS.items() if name not in draughts.rules.variants.FEDERATION_VARIANTS]
"""The rest of the family: orthogonal captures, boards of every square, other ways to win."""

API_RULESETS = [
    *NAMED,
    *FAMILY,
    draughts.get_variant("american-nfc"),
    draughts.get_variant("international-nfc"),
    CUSTOM,
]


def _quiet(call: object, *args: object, **kwargs: object) -> None:
    """Run an API checker, failing on any error; its advisory warnings (agent names, Dict spaces) are let pass."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        call(*args, **kwargs)  # type: ignore[operator]


# --- the PettingZoo and Gymnasium checkers ---


@pytest.mark.parametrize("rules", API_RULESETS, ids=lambda rules: rules.name)
def test_pettingzoo_api_test(rules: draughts.Ruleset) -> None:
    _quiet(api_test, ai.env(rules, max_plies=300), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    _quiet(seed_test, lambda: ai.env("brazilian", max_plies=200), num_cycles=200)


@pytest.mark.parametrize("opponent", ["random", "beginner"])
def test_gymnasium_check_env(opponent: str) -> None:
    _quiet(check_env, ai.SingleAgentEnv("american", opponent=opponent, max_plies=200))


def test_gymnasium_make_checks_every_render_mode() -> None:
    game = gymnasium.make("polydraughts/Draughts-v0", ruleset="czech", max_plies=100)
    _quiet(check_env, game.unwrapped)
    for mode in ai.RENDER_MODES:
        made = gymnasium.make("polydraughts/Draughts-v0", ruleset="italian", render_mode=mode)
        made.reset(seed=0)
        assert made.render() is not None


# --- the encoding: property tests over random positions of every ruleset ---


def _check_encoding(position: Position) -> None:
    enc = ai.encoding(position.ruleset)
    legal = list(position.legal_moves())
    mask = ai.action_mask(position)
    assert mask.shape == (enc.num_actions,)
    assert mask.dtype == np.bool_
    # One action per legal first jump (capture) or per legal move (quiet moves): the distinct first
    # segments, counted from the moves' paths, not from the encoding.
    first_segments = {move.path[:2] for move in legal}
    assert int(mask.sum()) == len(first_segments)
    if not position.has_capture():
        assert int(mask.sum()) == len(legal)
    for move in legal:
        actions = ai.encode(position, move)
        assert ai.decode(position, actions) == move
        assert mask[actions[0]]
        assert enc.squares_of(position.turn, actions[0]) == move.path[:2]
        # Every segment of the path has the action that names its two squares.
        full = enc.path_actions(position.turn, move)
        assert [enc.squares_of(position.turn, a) for a in full] == list(itertools.pairwise(move.path))
        with pytest.raises(draughts.IllegalMoveError, match="chosen after"):
            ai.decode(position, [*actions, actions[-1]])
        # Each later action is a real choice, made where the moves still possible part: they share
        # the path so far, and the mask offers each of their next segments.
        for k in range(1, len(actions)):
            choice = enc.choose(position, actions[:k])
            depth = choice.depth
            paths = {m.path for _, m in choice.entries}
            assert move.path in paths
            assert len({path[: depth + 1] for path in paths}) == 1
            following = {path[depth : depth + 2] for path in paths}
            assert int(ai.action_mask(position, actions[:k]).sum()) == len(following) >= 2
            assert enc.squares_of(position.turn, actions[k]) == move.path[depth : depth + 2]


@pytest.mark.parametrize("rules", [*NAMED, *HOUSE_RULES, *FAMILY], ids=lambda rules: rules.name)
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_encoding_round_trip_and_mask_size(rules: draughts.Ruleset, data: st.DataObject) -> None:
    _check_encoding(data.draw(positions(rules)))
    _check_encoding(data.draw(promotion_positions(rules)))


@pytest.mark.slow
@pytest.mark.parametrize("rules", [*NAMED, *HOUSE_RULES], ids=lambda rules: rules.name)
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_encoding_round_trip_long_run(rules: draughts.Ruleset, data: st.DataObject) -> None:
    _check_encoding(data.draw(positions(rules)))
    _check_encoding(data.draw(promotion_positions(rules)))


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(rules=custom_rulesets())
def test_pettingzoo_api_test_on_random_custom_rulesets(rules: draughts.Ruleset) -> None:
    _quiet(api_test, ai.env(rules, max_plies=300), num_cycles=1000)


@settings(max_examples=150, deadline=None)
@given(position=positions(custom_rulesets()))
def test_encoding_round_trip_custom_rulesets(position: Position) -> None:
    _check_encoding(position)


@settings(max_examples=60, deadline=None)
@given(position=positions())
def test_observation_and_actions_are_the_same_for_both_colours(position: Position) -> None:
    """The side to move sees the same planes and names each segment by the same action in the mirrored position."""
    mirrored = position.mirror()
    geo = position.ruleset.geometry
    enc = ai.encoding(position.ruleset)
    assert np.array_equal(ai.observation(position), ai.observation(mirrored))
    for move in position.legal_moves():
        twin = Move(
            geo.rotate(move.start),
            geo.rotate(move.end),
            tuple(geo.rotate(s) for s in move.captured),
            tuple(geo.rotate(s) for s in move.path),
            move.promotes,
        )
        assert mirrored.is_legal(twin)
        # (Which of several paths with the same identity a position lists may differ between the two,
        # so the segments of each path are compared rather than the actions of the listed moves.)
        assert enc.path_actions(position.turn, move) == enc.path_actions(mirrored.turn, twin)


@settings(max_examples=60, deadline=None)
@given(position=positions())
def test_observation_shows_the_pieces(position: Position) -> None:
    enc = ai.encoding(position.ruleset)
    planes = ai.observation(position)
    assert planes.shape == enc.observation_shape == (enc.height, enc.width, len(enc.planes))
    assert planes.dtype == np.float32
    turn = position.turn
    for plane, (color, kings) in enumerate(
        [(turn, False), (turn, True), (turn.opponent, False), (turn.opponent, True)]
    ):
        w, h = enc.width, enc.height
        expected = np.zeros((h, w), dtype=np.float32)
        for square in position.squares(color, kings=kings):
            x, y = position.ruleset.geometry.coords[square]
            if turn is BLACK:
                x, y = w - 1 - x, h - 1 - y
            expected[h - 1 - y, x] = 1.0
        assert np.array_equal(planes[:, :, plane], expected)
    # From the other side's point of view, own and opponent planes swap and the board turns.
    other = ai.observation(position, perspective=turn.opponent)
    assert np.array_equal(other[:, :, 0], np.rot90(planes[:, :, 2], 2))
    assert np.array_equal(other[:, :, 3], np.rot90(planes[:, :, 1], 2))


# --- the encoding on chosen positions ---


def test_captures_with_the_same_start_and_end_are_chosen_jump_by_jump() -> None:
    position = Position.from_fen("international", "W:WK47:B14,19,29,31,42")
    first, second = position.legal_moves()
    assert (first.start, first.end) == (second.start, second.end) == (47, 36)
    enc = ai.encoding("international")
    a, b = ai.encode(position, first), ai.encode(position, second)
    assert len(a) == len(b) == 2
    assert a[0] == b[0]
    assert enc.first_actions(position) == [a[0]]
    assert sorted(enc.next_actions(position, a[:1])) == sorted([a[1], b[1]])
    with pytest.raises(draughts.AmbiguousMoveError, match="begin 2 legal moves"):
        ai.decode(position, a[:1])
    # While the choice is pending, the observation shows where the capture began, where the king
    # stands and what it has taken.
    planes = ai.observation(position, pending=a[:1])
    names = enc.planes
    start = planes[:, :, names.index("capture in progress: start")]
    here = planes[:, :, names.index("capture in progress: current square")]
    taken = planes[:, :, names.index("capture in progress: captured")]
    assert _squares_of_plane(start, WHITE) == [47]
    assert _squares_of_plane(here, WHITE) == [38]
    assert _squares_of_plane(taken, WHITE) == [42]


def _squares_of_plane(plane: np.ndarray, side: draughts.Color, rules: str = "international") -> list[int]:
    geo = draughts.get_variant(rules).geometry
    n = geo.size
    found = []
    for square in range(1, geo.squares + 1):
        x, y = geo.coords[square]
        if side is BLACK:
            x, y = n - 1 - x, n - 1 - y
        if plane[n - 1 - y, x]:
            found.append(square)
    return found


def test_a_flying_kings_long_capture_is_one_action_when_its_first_jump_is_unique() -> None:
    position = Position.from_fen("russian", "W:WKa1:Bc3,e5,g7")
    (move,) = position.legal_moves()
    assert len(move.captured) == 3
    assert len(ai.encode(position, move)) == 1
    assert len(ai.encoding("russian").path_actions(WHITE, move)) == 3


def test_shared_jumps_are_skipped_up_to_where_the_captures_part() -> None:
    # Two captures share a1:d4:f6:d8 and part on the last landing square (b6 or a5).
    position = Position.from_fen("russian", "W:WKa1:Bc3,e5,e7,c7")
    enc = ai.encoding("russian")
    first, second = position.legal_moves()
    a, b = ai.encode(position, first), ai.encode(position, second)
    assert a[0] == b[0]
    assert len(a) == len(b) == 2
    choice = enc.choose(position, a[:1])
    assert choice.depth == 3
    assert not choice.complete
    assert [enc.squares_of(WHITE, action) for action in choice.actions()] == [
        tuple(position.ruleset.parse_square(name) for name in pair) for pair in (("d8", "b6"), ("d8", "a5"))
    ]
    planes = ai.observation(position, pending=a[:1])
    here = planes[:, :, enc.planes.index("capture in progress: current square")]
    taken = planes[:, :, enc.planes.index("capture in progress: captured")]
    assert _squares_of_plane(here, WHITE, "russian") == [position.ruleset.parse_square("d8")]
    assert sorted(_squares_of_plane(taken, WHITE, "russian")) == sorted(
        position.ruleset.parse_square(name) for name in ("c3", "e5", "e7")
    )


def test_directions_and_distances_come_from_the_geometry() -> None:
    enc = ai.encoding("international")
    geo = enc.ruleset.geometry

    def action(turn: draughts.Color, a: str, b: str) -> tuple[int, str, int]:
        index, d, k = np.unravel_index(enc.segment(turn, geo.parse(a), geo.parse(b)), enc.action_shape)
        return int(index), ai.DIRECTION_NAMES[d], int(k) + 1

    # 46 is White's near-left square: index 0. A long diagonal is 9 steps; orthogonal neighbours on
    # the dark squares are two files apart (one step), as Frisian captures need.
    assert action(WHITE, "46", "5") == (0, "NE", 9)
    assert action(WHITE, "46", "47") == (0, "E", 1)
    assert action(WHITE, "46", "36") == (0, "N", 1)
    assert action(WHITE, "46", "26") == (0, "N", 2)
    # Black sees the board turned: its near-left square is 5, and "north" is towards White.
    assert action(BLACK, "5", "46") == (0, "NE", 9)
    assert action(BLACK, "5", "4") == (0, "E", 1)
    assert action(BLACK, "28", "23") == action(WHITE, "23", "28")
    with pytest.raises(ai.InvalidActionError, match="not on one line"):
        enc.segment(WHITE, geo.parse("46"), geo.parse("42"))


def test_every_board_size_gets_a_fixed_encoding() -> None:
    for rules, n, squares, distance in ((NAMED[0], 8, 32, 7), (CUSTOM, 12, 72, 11)):
        enc = ai.encoding(rules)
        assert enc.action_shape == (squares, 8, distance)
        assert enc.num_actions == squares * 8 * distance
        assert enc.observation_shape[:2] == (n, n)
    # On the inverted Italian board White's near-left playable square is b1: square index 0.
    italian = ai.encoding("italian")
    b1 = italian.ruleset.geometry.square_at(1, 0)
    c2 = italian.ruleset.geometry.square_at(2, 1)
    assert italian.squares_of(WHITE, italian.segment(WHITE, b1, c2)) == (b1, c2)
    assert np.unravel_index(italian.segment(WHITE, b1, c2), italian.action_shape)[0] == 0


def test_bad_actions_raise_draughts_errors() -> None:
    position = Position.initial("american")
    enc = ai.encoding("american")
    for bad in (-1, enc.num_actions, 10**30):
        with pytest.raises(ai.InvalidActionError, match=str(bad)[:10]):
            ai.decode(position, [bad])
    with pytest.raises(ai.InvalidActionError, match="not an integer"):
        ai.decode(position, ["3"])  # type: ignore[list-item]
    with pytest.raises(draughts.IllegalMoveError, match=r"action 0 \(4 N 1\) is not legal in B:W21"):
        ai.decode(position, [0])
    with pytest.raises(draughts.IllegalMoveError):
        ai.encode(position, Move(1, 2))
    with pytest.raises(TypeError):
        ai.observation("W:W1:B2")  # type: ignore[arg-type]


# --- the AEC environment ---


def _random_game(rules: draughts.Ruleset | str, seed: int, **options: object) -> ai.DraughtsEnv:
    game = ai.env(rules, **options)  # type: ignore[arg-type]
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        assert game.color(agent) is game.position.turn
        legal = np.flatnonzero(observation["action_mask"])
        game.step(int(rng.choice(legal)))
    return game


@pytest.mark.parametrize("rules", [*NAMED, HOUSE_RULES[0], CUSTOM], ids=lambda rules: rules.name)
def test_games_through_the_environment_match_the_board(rules: draughts.Ruleset) -> None:
    for seed in range(2):
        game = _random_game(rules, seed, max_plies=400)
        played = game.board.move_stack
        board = Board(rules)
        for move in played:
            board.push(move)
        assert board.fen() == game.position.fen()
        outcome = board.outcome()
        if outcome is None and board.can_claim_draw():
            outcome = board.claim_draw()
        if outcome is None:
            assert len(played) == 400
            assert game.result == "*"
            assert game.outcome is None
        else:
            assert game.outcome == outcome
            assert game.result == outcome.result


def test_rewards_follow_the_outcome() -> None:
    # White to move captures Black's last piece.
    game = ai.env("russian")
    game.reset(options={"fen": "W:Wc3:Bd4"})
    (action,) = game.encode(game.position.legal_moves()[0])
    game.step(action)
    assert game.terminations == {"player_0": True, "player_1": True}
    assert game.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert game.outcome is not None
    assert game.outcome.winner is WHITE
    assert game.infos["player_1"]["result"] == "1-0"
    assert game.agent_selection == "player_1"
    _, reward, terminated, _, _ = game.last()
    assert terminated
    assert reward == -1.0


def test_a_choice_of_several_jumps_keeps_the_same_agent() -> None:
    game = ai.env("international")
    game.reset(options={"fen": "W:WK47:B14,19,29,31,42"})
    first, second = game.candidates()
    actions = game.encode(second)
    game.step(actions[0])
    assert game.agent_selection == "player_0"
    assert game.pending == actions[:1]
    assert game.candidates() == [first, second]
    assert int(game.observe("player_0")["action_mask"].sum()) == 2
    assert int(game.observe("player_1")["action_mask"].sum()) == 0
    assert game.encode(second) == actions[1:]
    game.step(actions[1])
    assert game.board.move_stack == [second]
    assert game.pending == ()
    assert game.agent_selection == "player_1"


def test_an_illegal_action_raises_and_changes_nothing_or_loses() -> None:
    game = ai.env("american")
    game.reset()
    before = game.observe(game.agent_selection)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(draughts.IllegalMoveError, match=f"action {illegal} "):
        game.step(illegal)
    with pytest.raises(ai.InvalidActionError):
        game.step(-3)
    with pytest.raises(ai.InvalidActionError):
        game.step(1.5)  # type: ignore[arg-type]
    after = game.observe(game.agent_selection)
    assert np.array_equal(before["observation"], after["observation"])
    assert game.board.move_stack == []
    loser = ai.env("american", illegal_action="lose")
    loser.reset()
    agent = loser.agent_selection
    loser.step(illegal)
    assert loser.rewards[agent] == -1.0
    assert all(loser.terminations.values())
    assert loser.infos[agent]["illegal_action"] == illegal
    assert loser.result == "0-1"  # the first player (Black in American checkers) forfeited


def test_steps_outside_a_game_are_refused() -> None:
    game = ai.env("czech")
    with pytest.raises(ai.GameOverError, match="reset"):
        game.step(0)
    game.reset(options={"fen": "W:Wc3:Bd4"})
    game.step(game.encode(game.position.legal_moves()[0])[0])
    with pytest.raises(draughts.DraughtsError, match="only action is None"):
        game.step(0)
    game.step(None)
    game.step(None)
    assert game.agents == []
    with pytest.raises(ai.GameOverError):
        game.step(None)


def test_claimable_draws_are_claimed_unless_told_not_to() -> None:
    # American: kings shuffle until the position repeats three times (a draw on claim).
    fen = "B:WK29:BK4"
    shuffle = ["4-8", "29-25", "8-4", "25-29"] * 2
    for claim in (True, False):
        game = ai.env("american", claim_draws=claim)
        game.reset(options={"fen": fen})
        for text in shuffle:
            move = draughts.notation.parse_move(game.position, text)
            for action in game.encode(move):
                game.step(action)
        assert all(game.terminations.values()) is claim
        if claim:
            assert game.outcome is not None
            assert game.outcome.winner is None
            assert game.outcome.termination is draughts.Termination.REPETITION
            assert game.rewards == {"player_0": 0.0, "player_1": 0.0}
            planes = game.observe("player_0")["observation"]
            assert planes[0, 0, game.encoding.planes.index("repetitions (1.0 = 3 times)")] == 1.0


def test_draw_counts_appear_in_the_observation() -> None:
    game = ai.env("international")
    game.reset(options={"fen": "W:WK47:BK4"})
    index = next(i for i, name in enumerate(game.encoding.planes) if name.startswith("move-count rule"))
    for _ in range(4):
        # A king move after which the other king has no capture.
        move = next(m for m in game.position.legal_moves() if not game.position.play(m).has_capture())
        for action in game.encode(move):
            game.step(action)
    planes = game.observe(game.agent_selection)["observation"]
    assert planes[3, 3, index] == pytest.approx(4 / 50)
    assert game.board.counters.move_counts == (4,)


def test_truncation_after_max_plies() -> None:
    game = _random_game("international", seed=3, max_plies=6)
    assert len(game.board.move_stack) == 6
    assert game.result == "*"
    assert game.agents == []


def test_render_modes() -> None:
    game = ai.env("italian", render_mode="ansi")
    game.reset()
    assert game.render() == str(Position.initial("italian"))
    game = ai.env("spanish", render_mode="svg")
    game.reset()
    svg = game.render()
    assert isinstance(svg, str)
    assert svg.startswith("<svg")
    assert svg.count('class="piece ') == 24
    game = ai.env("american", render_mode="rgb_array")
    game.reset(options={"fen": "B:WK29:B4"})
    picture = game.render()
    assert isinstance(picture, np.ndarray)
    assert picture.shape == (256, 256, 3)
    assert picture.dtype == np.uint8
    # Square 4 (h8, top right) holds a black man, square 29 (a1) a white king: their centres.
    geo = game.ruleset.geometry
    for square, colour in ((4, (0x2A, 0x2A, 0x2A)), (29, (0xFB, 0xF8, 0xF0))):
        x, y = geo.coords[square]
        centre_row, centre_col = (7 - y) * 32 + 16, x * 32 + 16
        assert tuple(picture[centre_row, centre_col]) == colour
    with pytest.raises(draughts.DraughtsError, match="render_mode 'human'"):
        ai.env("american", render_mode="human")


def test_environment_options_are_checked() -> None:
    with pytest.raises(draughts.DraughtsError, match="max_plies 0"):
        ai.env("american", max_plies=0)
    with pytest.raises(draughts.DraughtsError, match="illegal_action 'ignore'"):
        ai.env("american", illegal_action="ignore")  # type: ignore[arg-type]
    with pytest.raises(draughts.InvalidFenError):
        ai.env("american", fen="X:W1")
    with pytest.raises(draughts.UnknownVariantError):
        ai.env("checkers-9x9")
    with pytest.raises(draughts.DraughtsError, match="opponent 'grandmaster'"):
        ai.SingleAgentEnv("american", opponent="grandmaster")
    with pytest.raises(draughts.DraughtsError, match="color 'red'"):
        ai.SingleAgentEnv("american", color="red")


# --- the single-agent wrapper ---


def test_single_agent_wins_and_losses() -> None:
    # The agent (White) captures Black's last piece: +1.
    win = ai.SingleAgentEnv("russian", color=WHITE, fen="W:Wc3:Bd4")
    _, info = win.reset(seed=0)
    assert info["color"] == "white"
    action = int(np.flatnonzero(win.action_masks())[0])
    _, reward, terminated, truncated, info = win.step(action)
    assert (reward, terminated, truncated, info["result"]) == (1.0, True, False, "1-0")
    # The agent (White) must play a1-b2, and the opponent's man captures it backwards: -1.
    lose = ai.SingleAgentEnv("russian", color=WHITE, fen="W:Wa1:Bc3")
    lose.reset(seed=0)
    (move,) = lose.board.legal_moves()
    _, reward, terminated, _, info = lose.step(lose.game.encode(move)[0])
    assert (reward, terminated, info["result"]) == (-1.0, True, "0-1")
    assert len(lose.board.move_stack) == 2  # the opponent answered
    with pytest.raises(ai.GameOverError, match="game is over"):
        lose.step(0)
    with pytest.raises(ai.GameOverError, match="reset"):
        ai.SingleAgentEnv("american").step(0)


def test_single_agent_plays_second_when_asked() -> None:
    game = ai.SingleAgentEnv("international", color=BLACK, opponent="beginner")
    _, info = game.reset(seed=4)
    assert info["color"] == "black"
    assert len(game.board.move_stack) == 1
    assert game.board.turn is BLACK


def test_single_agent_against_an_engine_and_a_function() -> None:
    engine = draughts.engine.Engine(seed=0, limit=draughts.engine.Limit(depth=1))
    calls = []

    def first_move(board: Board) -> Move:
        calls.append(board.fen())
        return board.legal_moves()[0]

    for opponent in (engine, first_move):
        game = ai.SingleAgentEnv("brazilian", opponent=opponent, color=WHITE, max_plies=20)
        game.reset(seed=0)
        rng = np.random.default_rng(0)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(game.action_masks())))
            _, _, terminated, truncated, _ = game.step(action)
            done = terminated or truncated
        assert len(game.board.move_stack) <= 20
    assert calls


def test_import_draughts_loads_neither_the_ai_package_nor_numpy() -> None:
    code = "import sys, draughts; print('draughts.ai' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_flying_king_rulesets_have_long_actions() -> None:
    flying = [rules for rules in NAMED if rules.king_range is KingRange.FLYING]
    assert flying
    for rules in flying:
        geo = rules.geometry
        corner = geo.square_at(0, 0) if geo.is_playable(0, 0) else geo.square_at(geo.size - 1, 0)
        position = Position.from_fen(rules, "W:WK" + rules.square_name(corner) + ":B")
        # A king in the corner has one move per square of the long diagonal, each one action.
        assert int(ai.action_mask(position).sum()) == len(position.legal_moves()) == rules.board_size - 1


def test_frisian_king_move_counts_appear_in_the_observation() -> None:
    # Frisian art. 6: a king may make at most three quiet moves in a row while its side has men.
    rules = draughts.get_variant("frisian")
    enc = ai.encoding(rules)
    own = enc.planes.index("own king's quiet moves in a row (1.0 = 3)")
    theirs = enc.planes.index("opponent king's quiet moves in a row (1.0 = 3)")
    white, black = draughts.Piece(draughts.WHITE, king=True), draughts.Piece(draughts.BLACK, king=True)
    men = {45: draughts.Piece(draughts.WHITE), 6: draughts.Piece(draughts.BLACK)}
    position = Position.from_pieces(
        rules,
        {28: white, 3: black, **men},
        draughts.WHITE,
        king_moves={draughts.WHITE: (28, 2), draughts.BLACK: (3, 1)},
    )
    planes = ai.observation(position)
    row, column = np.argwhere(planes[:, :, 1])[0]  # the own king
    assert planes[row, column, own] == pytest.approx(2 / 3)
    assert np.count_nonzero(planes[:, :, own]) == 1
    row, column = np.argwhere(planes[:, :, 3])[0]  # the opponent's king
    assert planes[row, column, theirs] == pytest.approx(1 / 3)
    # Without counts both planes are empty; the zero-move endgame rule reads as reached.
    planes = ai.observation(Position.from_pieces(rules, {28: white, 3: black, **men}, draughts.WHITE))
    assert not planes[:, :, own].any()
    assert not planes[:, :, theirs].any()
    assert planes[0, 0, -1] == 1.0
