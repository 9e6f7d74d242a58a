"""draughts.ai.VectorEnv: the native batch against the AEC environment, step for step."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from pathlib import Path

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import draughts
import draughts.ai as ai
from strategies import NAMED

CUSTOM = attrs.evolve(
    draughts.get_variant("russian"),
    name="custom-vector",
    title="Russian on 12x12 with precedence",
    board_size=12,
    rows_per_side=5,
    precedence=(draughts.Precedence.MOST_PIECES,),
    pdn_gametype=None,
)
"""A user-defined ruleset on a board wider than 64 bits."""


class FewestTaken(draughts.Criterion):
    """A user-defined criterion (so a precedence the native core calls back into Python for)."""

    label = "fewest taken"

    def key(self, capture: draughts.CaptureFacts) -> int:
        return -capture.pieces


FEWEST = attrs.evolve(draughts.get_variant("international"), name="fewest-vector", precedence=(FewestTaken(),))
"""International with a precedence written in Python: the batch steps first, then writes."""

RULESETS = [
    *NAMED,
    *(draughts.get_variant(name) for name in ("spantsiretti", "frisian", "antidraughts", "breakthrough", "turkish")),
    draughts.get_variant("american-nfc"),
    CUSTOM,
    FEWEST,
]
"""The federation variants, a rectangular board (Spantsiretti, 10x8), a king-move limit
(Frisian), a side without moves winning (antidraughts), crowning winning (breakthrough), orthogonal
captures (Turkish), optional captures, a 12x12 board and a precedence written in Python."""


def _play_along(
    rules: draughts.Ruleset, rng: random.Random, steps: int, num_envs: int, max_plies: int, fen: str | None = None
) -> tuple[int, int]:
    """Step a VectorEnv and one AEC environment per game with the same random legal actions,
    asserting at each step that both give the same observations, masks, rewards and ends; the
    number of games that ended, and of those drawn."""
    vector = ai.VectorEnv(rules, num_envs, max_plies=max_plies, fen=fen)
    aecs = [ai.env(rules, max_plies=max_plies, fen=fen) for _ in range(num_envs)]
    obs, info = vector.reset(seed=0)
    for game in aecs:
        game.reset()
    restart = [False] * num_envs
    ended = drawn = 0
    for _ in range(steps):
        for i, game in enumerate(aecs):
            agent = game.agent_selection
            assert info["player"][i] == ai.AGENTS.index(agent)
            seen = game.observe(agent)
            np.testing.assert_array_equal(obs[i], seen["observation"])
            np.testing.assert_array_equal(info["action_mask"][i], seen["action_mask"].astype(bool))
        actions = []
        for i in range(num_envs):
            legal = np.flatnonzero(info["action_mask"][i])
            assert restart[i] == (len(legal) == 0)
            actions.append(int(legal[rng.randrange(len(legal))]) if len(legal) else rng.randrange(7))
        obs, rewards, terminated, truncated, info = vector.step(np.array(actions))
        for i, game in enumerate(aecs):
            if restart[i]:  # next-step autoreset: the action was ignored, the game starts again
                game.reset()
                assert (rewards[i], terminated[i], truncated[i]) == (0.0, False, False)
                assert vector.plies(i) == 0
                restart[i] = False
                continue
            mover = game.agent_selection
            game.step(actions[i])
            assert rewards[i] == game.rewards[mover]
            assert terminated[i] == any(game.terminations.values())
            assert truncated[i] == any(game.truncations.values())
            assert vector.position(i) == game.position
            assert vector.plies(i) == len(game.board)
            restart[i] = bool(terminated[i] or truncated[i])
            ended += restart[i]
            drawn += bool(terminated[i] and game.outcome is not None and game.outcome.winner is None)
    return ended, drawn


@pytest.mark.parametrize("rules", RULESETS, ids=lambda rules: rules.name)
@settings(max_examples=5, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_vector_env_matches_the_aec_environment_step_for_step(rules: draughts.Ruleset, rng: random.Random) -> None:
    _play_along(rules, rng, steps=120, num_envs=3, max_plies=rng.choice([40, 400]))


@pytest.mark.parametrize("name", ["international", "american", "frisian", "czech", "russian"])
def test_long_random_games_end_alike_draw_rules_included(name: str) -> None:
    # Long games reach the draw rules (repetition, move counts, endgame rules, claims); enough of
    # them end within the steps for the comparison to cover ends, not only the openings.
    assert _play_along(draughts.get_variant(name), random.Random(7), steps=900, num_envs=4, max_plies=1000)[0] >= 4


def _kings_endgame(rules: draughts.Ruleset, rng: random.Random, white: int, black: int) -> str:
    """A FEN of ``white`` kings against ``black`` kings on random squares (the draw rules' ground)."""
    while True:
        squares = rng.sample(range(1, rules.geometry.squares + 1), white + black)
        pieces = {
            sq: draughts.Piece(draughts.WHITE if i < white else draughts.BLACK, king=True)
            for i, sq in enumerate(squares)
        }
        board = draughts.Board.from_position(draughts.Position.from_pieces(rules, pieces))
        if board.outcome() is None and not board.can_claim_draw():
            return board.fen()


@pytest.mark.parametrize(
    "fen",
    [
        "W:WK18,K30,22:B14,15,23,26",  # kings' single jumps, each one segment: the batch's short path
        "W:WK18,28:B14,15,23,11,24",  # a king's jump that goes on, beside a man's: the full search
        "B:WK18,22,27:BK14,9,10",  # Black's king must jump twice
    ],
)
@pytest.mark.parametrize("name", ["american", "american-nfc"])
def test_captures_by_short_kings_are_listed_alike(name: str, fen: str) -> None:
    # The batch lists single jumps by short kings itself when no capture can go on and the choice
    # is free; a capture that goes on falls back to the generator's search. Both as the AEC env.
    _play_along(draughts.get_variant(name), random.Random(fen), steps=40, num_envs=3, max_plies=120, fen=fen)


def test_a_start_that_is_over_is_refused() -> None:
    # Frisian art. 21: one king each is drawn at once; the AEC environment's game ends at reset.
    with pytest.raises(draughts.DraughtsError, match="over before it starts"):
        ai.VectorEnv("frisian", 2, fen="W:WK33:BK14")


# Italian, Brazilian and Spanish kings (flying in the last two) mostly capture before a draw rule.
DRAWS_EXPECTED = {"american", "russian", "czech", "international", "frisian", "spantsiretti"}


@pytest.mark.parametrize("name", [rules.name for rules in NAMED] + ["frisian", "spantsiretti"])
def test_king_endgames_reach_the_draw_rules_alike(name: str) -> None:
    # From kings-only positions the games end by the draw rules (repetition, move counts, the
    # endgame rules, claims) or by a capture: both environments must say the same at every step.
    rules = draughts.get_variant(name)
    rng = random.Random(name)
    ended = drawn = 0
    for white, black in ((1, 1), (2, 1), (3, 1), (2, 2)):
        fen = _kings_endgame(rules, rng, white, black)
        found = _play_along(rules, rng, steps=250, num_envs=3, max_plies=2000, fen=fen)
        ended, drawn = ended + found[0], drawn + found[1]
    assert ended >= 100
    assert drawn >= (1 if name in DRAWS_EXPECTED else 0)


def test_gymnasium_conventions() -> None:
    envs = ai.VectorEnv("international", 5)
    assert envs.metadata["autoreset_mode"] is gymnasium_next_step()
    assert envs.single_observation_space.shape == (10, 10, 11)
    assert envs.observation_space.shape == (5, 10, 10, 11)
    assert envs.single_action_space.n == ai.encoding("international").num_actions
    assert envs.action_space.shape == (5,)
    obs, info = envs.reset(seed=3)
    assert obs in envs.observation_space
    assert info["action_mask"].shape == (5, envs.single_action_space.n)
    assert info["action_mask"].dtype == np.bool_
    first = envs.sample_legal_actions()
    envs.reset(seed=3)
    assert np.array_equal(first, envs.sample_legal_actions())  # seeded


def gymnasium_next_step() -> object:
    from gymnasium.vector import AutoresetMode

    return AutoresetMode.NEXT_STEP


def test_an_illegal_action_raises_and_nothing_moves() -> None:
    envs = ai.VectorEnv("russian", 3)
    _, info = envs.reset()
    actions = envs.sample_legal_actions()
    illegal = int(np.flatnonzero(~info["action_mask"][1])[0])
    actions[1] = illegal
    with pytest.raises(draughts.IllegalMoveError, match=f"action {illegal} is not legal in environment 1"):
        envs.step(actions)
    assert [envs.plies(i) for i in range(3)] == [0, 0, 0]
    with pytest.raises(draughts.errors.InvalidActionError, match="3 integers"):
        envs.step([0, 1])
    with pytest.raises(draughts.errors.InvalidActionError, match=r"outside|not legal"):
        envs.step(np.array([10**6, 0, 0]))


def test_actions_in_any_integer_array_are_read_alike() -> None:
    # The int64 array sample_legal_actions gives is taken as it is; other integer arrays and lists
    # are converted, and an int64 array of the wrong shape is refused like any other.
    runs = []
    for convert in (lambda a: a, lambda a: a.astype(">i8"), lambda a: a.astype(np.int32), list):
        envs = ai.VectorEnv("american", 3)
        envs.reset(seed=5)
        for _ in range(20):
            envs.step(convert(envs.sample_legal_actions()))
        runs.append([envs.position(i).fen() for i in range(3)])
    assert runs[1:] == [runs[0]] * 3
    with pytest.raises(draughts.errors.InvalidActionError, match="3 integers"):
        envs.step(np.zeros(2, np.int64))
    with pytest.raises(draughts.errors.InvalidActionError, match="3 integers"):
        envs.step(np.zeros((3, 1), np.int64))


def test_an_illegal_action_loses_with_lose() -> None:
    envs = ai.VectorEnv("russian", 2, illegal_action="lose")
    _, info = envs.reset()
    actions = envs.sample_legal_actions()
    actions[0] = int(np.flatnonzero(~info["action_mask"][0])[0])
    _, rewards, terminated, _, info = envs.step(actions)
    assert rewards.tolist() == [-1.0, 0.0]
    assert terminated.tolist() == [True, False]
    assert not info["action_mask"][0].any()


def test_copy_false_returns_the_buffers_written_in_place() -> None:
    envs = ai.VectorEnv("american", 2, copy=False)
    obs, _ = envs.reset()
    before = obs.copy()
    obs2, *_ = envs.step(envs.sample_legal_actions())
    assert obs2 is obs
    assert not np.array_equal(before, obs)
    assert not obs.flags.writeable


def test_bad_options_are_refused() -> None:
    for bad in (0, -1, True, 2.0):
        with pytest.raises(draughts.DraughtsError, match="num_envs"):
            ai.VectorEnv("russian", bad)  # type: ignore[arg-type]
    with pytest.raises(draughts.DraughtsError, match="illegal_action"):
        ai.VectorEnv("russian", 1, illegal_action="ignore")  # type: ignore[arg-type]
    with pytest.raises(ai.GameOverError):
        ai.VectorEnv("russian", 1).step([0])


def test_the_gymnasium_vector_checks_that_apply() -> None:
    # Gymnasium 1.x ships no checker for vector environments (gymnasium.utils.env_checker.check_env
    # refuses anything but a gymnasium.Env). Its checks of reset apply to a vector environment as
    # they are; those of step expect scalar flags. What step must do is checked here: spaces contain
    # what comes back, and a step's arrays are fresh ones (copy=True).
    from gymnasium.utils import env_checker

    checked = ai.VectorEnv("american", 8, illegal_action="lose", max_plies=50)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env_checker.check_reset_return_type(checked)
        env_checker.check_reset_seed_determinism(checked)
        env_checker.check_reset_options(checked)
        env_checker.check_reset_return_info_deprecation(checked)
    envs = ai.VectorEnv("brazilian", 4, max_plies=30)
    obs, _ = envs.reset(seed=11)
    assert obs in envs.observation_space
    for _ in range(40):
        actions = envs.sample_legal_actions()
        assert actions in envs.action_space
        new, rewards, terminated, truncated, _ = envs.step(actions)
        assert new in envs.observation_space
        assert new is not obs
        assert rewards.shape == terminated.shape == truncated.shape == (4,)
        obs = new
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        envs.close()


def test_the_training_example_runs_quick() -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "train_vector_env.py"
    done = subprocess.run(
        [sys.executable, str(example), "--quick"], capture_output=True, text=True, timeout=300, check=True
    )
    assert "trained as player_0 against random" in done.stdout


def test_a_board_the_encoding_cannot_serve_is_refused_as_the_encoding_refuses_it() -> None:
    odd = attrs.evolve(draughts.get_variant("russian"), name="odd-vector", board_size=(8, 9), pdn_gametype=None)
    with pytest.raises(draughts.DraughtsError, match="not symmetric under a 180° turn"):
        ai.VectorEnv(odd, 2)
