"""A PettingZoo AEC environment for every ruleset, and a Gymnasium wrapper against a built-in opponent.

:class:`DraughtsEnv` (made by :func:`env`) has two agents, ``"player_0"`` (the ruleset's first
player: White, or Black in American checkers) and ``"player_1"``. Each observation is a dict with
``"observation"`` (the :class:`~draughts.ai.tensors.Encoding` planes, seen from the observing agent) and
``"action_mask"`` (``int8``, 1 for each legal action; all 0 for the agent not to move). Actions
are those of the ruleset's encoding: a move is chosen by its first segment, and while several legal
moves begin with the segments chosen so far, the same agent is selected again to choose the next.

The game ends as :meth:`draughts.Board.outcome` says (no legal move, or an automatic draw rule);
draws that the rules leave to a claim (American repetition and 40 moves, Czech repetition) are
claimed at once unless ``claim_draws=False``, since an agent has no claim action. The winner is
rewarded +1 and the loser -1 (0 each for a draw); ``max_plies`` truncates a game.

:class:`SingleAgentEnv` is a :class:`gymnasium.Env` in which one side is played by an opponent:
a built-in player in the one player syntax of every command (:func:`draughts.players.parse_player`:
``"random"``, uniform among legal moves; ``"level:strong"`` or a bare level name; ``"depth:2"``,
``"nodes:N"``, ``"time:S"``), an :class:`~draughts.engine.Engine`, or any function
``f(board) -> Move``. It is registered with Gymnasium as ``"polydraughts/Draughts-v0"``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeAlias, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from draughts._text import excerpt
from draughts.ai.render import rgb_array
from draughts.ai.tensors import Choice, Encoding, FloatArray, encoding
from draughts.board import Board, Outcome
from draughts.color import Color
from draughts.engine import Engine
from draughts.errors import DraughtsError, GameOverError, IllegalMoveError, InvalidSeedError
from draughts.move import Move
from draughts.players import parse_player
from draughts.position import Position
from draughts.results import result_for
from draughts.rules import Ruleset
from draughts.rules.names import get_variant

__all__ = ["AGENTS", "RENDER_MODES", "DraughtsEnv", "GameOverError", "Opponent", "SingleAgentEnv", "env"]

AGENTS: tuple[str, str] = ("player_0", "player_1")
"""The agents: the ruleset's first player, then the other."""

RENDER_MODES: tuple[str, ...] = ("ansi", "rgb_array", "svg")
"""``"ansi"``: the text diagram (``str(position)``); ``"rgb_array"``: a ``uint8`` picture
(:func:`draughts.ai.render.rgb_array`); ``"svg"``: an SVG document (:func:`draughts.svg.board`)."""

Observation = dict[str, npt.NDArray[Any]]
IllegalAction = Literal["raise", "lose"]


def _check_seed(seed: object) -> None:
    """A seed is None or a whole number from 0 up (what gymnasium and numpy take), checked first
    so that a bad one is a :class:`~draughts.errors.InvalidSeedError` and nothing has changed."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise InvalidSeedError(f"seed {excerpt(seed)} must be None or a whole number from 0 up")


def _options(render_mode: str | None, max_plies: int | None, illegal_action: str, claim_draws: bool) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise DraughtsError(f"render_mode {excerpt(render_mode)} is not one of {', '.join(RENDER_MODES)} (or None)")
    if max_plies is not None and (isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1):
        raise DraughtsError(f"max_plies {excerpt(max_plies)} must be a positive number or None")
    if illegal_action not in ("raise", "lose"):
        raise DraughtsError(f"illegal_action {excerpt(illegal_action)} must be 'raise' or 'lose'")
    if not isinstance(claim_draws, bool):
        raise DraughtsError(f"claim_draws {excerpt(claim_draws)} must be True or False")


def _observation_space(enc: Encoding) -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, enc.observation_shape, np.float32),
            "action_mask": spaces.Box(0, 1, (enc.num_actions,), np.int8),
        }
    )


class DraughtsEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """A two-player draughts game as a PettingZoo AEC environment (see the module text).

    >>> from draughts.ai import env
    >>> game = env("russian", render_mode="ansi")
    >>> game.reset(seed=0)
    >>> observation, reward, terminated, truncated, info = game.last()
    >>> observation["observation"].shape, int(observation["action_mask"].sum())
    ((8, 8, 14), 7)
    >>> game.step(game.encode(game.position.legal_moves()[0])[0])
    >>> game.agent_selection, game.board.history_text()
    ('player_1', ['a3-b4'])

    Args:
        ruleset: A ruleset or variant name.
        render_mode: One of :data:`RENDER_MODES`, or None.
        fen: The starting position (default: the ruleset's); ``reset(options={"fen": ...})``
            overrides it for one game.
        max_plies: Truncate a game after this many plies (None: only the rules end it).
        claim_draws: Claim every draw a claim-based rule allows, as soon as it allows it.
        illegal_action: ``"raise"`` (:class:`~draughts.IllegalMoveError`, nothing changes) or
            ``"lose"`` (the game ends, the offender scores -1 and the other +1).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo reads it from the class
        "name": "polydraughts_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        ruleset: Ruleset | str = "international",
        *,
        render_mode: str | None = None,
        fen: str | None = None,
        max_plies: int | None = None,
        claim_draws: bool = True,
        illegal_action: IllegalAction = "raise",
    ) -> None:
        super().__init__()
        rules = get_variant(ruleset)
        _options(render_mode, max_plies, illegal_action, claim_draws)
        if fen is not None:
            Position.from_fen(rules, fen)  # raises InvalidFenError now rather than at reset
        self.ruleset = rules
        self.encoding = encoding(rules)
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.claim_draws = claim_draws
        draws = rules.draw_rules
        # Board.can_claim_draw() scans the game: ask it only where the rules let a player claim.
        self._claims = claim_draws and (draws.repetition_claim or any(rule.claim for rule in draws.move_counts))
        self.illegal_action = illegal_action
        self._fen = fen
        first = rules.first_to_move
        self._color_of = {AGENTS[0]: first, AGENTS[1]: first.opponent}
        self._agent_of = {first: AGENTS[0], first.opponent: AGENTS[1]}
        self.possible_agents = list(AGENTS)
        self.observation_spaces = {agent: _observation_space(self.encoding) for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(self.encoding.num_actions) for agent in AGENTS}
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = AGENTS[0]
        self._board: Board | None = None
        self._seen: dict[Position, int] = {}
        self._pending: tuple[int, ...] = ()
        self._choice: Choice | None = None
        self._outcome: Outcome | None = None
        self._result = "*"

    # --- spaces ---

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every time)."""
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same object every time)."""
        return self.action_spaces[self._agent(agent)]

    def _agent(self, agent: object) -> str:
        if agent not in AGENTS:
            raise DraughtsError(f"agent {excerpt(agent)} is not one of {', '.join(AGENTS)}")
        return str(agent)

    def color(self, agent: str) -> Color:
        """The side ``agent`` plays."""
        return self._color_of[self._agent(agent)]

    def agent(self, color: Color) -> str:
        """The agent playing ``color``."""
        if not isinstance(color, Color):
            raise TypeError(f"color {excerpt(color)} must be draughts.WHITE or draughts.BLACK")
        return self._agent_of[color]

    # --- the game ---

    @property
    def _game(self) -> Board:
        if self._board is None:
            raise GameOverError("the environment has not been reset: call reset() first")
        return self._board

    @property
    def board(self) -> Board:
        """A copy of the game so far (moves, draw counts, outcome)."""
        return self._game.copy()

    @property
    def position(self) -> Position:
        """The current position (a pending choice of segments not applied)."""
        return self._game.position

    @property
    def pending(self) -> tuple[int, ...]:
        """The segments chosen so far for the move being chosen (empty between moves)."""
        return self._pending

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (None while it goes on, after a truncation or an illegal action)."""
        return self._outcome

    @property
    def result(self) -> str:
        """The PDN result: ``"*"`` while the game goes on or after a truncation."""
        return self._result

    def candidates(self) -> list[Move]:
        """The legal moves that begin with the pending segments (all legal moves between moves)."""
        return [move for _, move in self._current().entries]

    def encode(self, move: Move) -> tuple[int, ...]:
        """The actions still to take, after the pending ones, to play the legal ``move``.

        Raises:
            IllegalMoveError: ``move`` is not legal, or does not begin with the pending segments.
        """
        return self._current().actions_for(move, self.position)

    def _current(self) -> Choice:
        if self._choice is None:
            position = self._game.position
            self._choice = Choice(self.encoding.entries(position), 0)
        return self._choice

    def action_mask(self, agent: str | None = None) -> npt.NDArray[np.int8]:
        """The ``int8`` legal-action mask of ``agent`` (default: the agent to act)."""
        agent = self.agent_selection if agent is None else self._agent(agent)
        mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        if (
            self._board is not None
            and agent == self.agent_selection
            and agent in self.terminations
            and not (self.terminations[agent] or self.truncations[agent])
        ):
            choice = self._current()
            depth = choice.depth
            mask[[actions[depth] for actions, _ in choice.entries]] = 1
        return mask

    def observe(self, agent: str) -> Observation:
        """The observation of ``agent``: its view of the board and its action mask."""
        agent = self._agent(agent)
        game = self._game
        counters = game.counters
        repetitions = self._seen.get(game.position, 1)
        choice = self._current()
        pending_move = choice.entries[0][1] if self._pending else None
        planes: FloatArray = self.encoding._observation(
            game.position,
            self._color_of[agent],
            pending_move,
            choice.depth,
            counters.move_counts,
            counters.since_material_change,
            repetitions,
        )
        return {"observation": planes, "action_mask": self.action_mask(agent)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (the rules involve no chance: ``seed`` only seeds the spaces' sampling).

        ``options={"fen": ...}`` starts this game from a position; other keys are ignored.
        """
        _check_seed(seed)
        fen = self._fen
        if options and options.get("fen") is not None:
            fen = options["fen"]
        board = Board(self.ruleset) if fen is None else Board.from_fen(self.ruleset, fen)
        if seed is not None:
            for i, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(seed + i)
                self.observation_spaces[agent].seed(seed + i)
        self._board = board
        # How often each position has occurred (Board.repetitions() counts by scanning the game).
        self._seen = {board.position: 1}
        self._pending = ()
        self._choice = None
        self._outcome = None
        self._result = "*"
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {agent: {} for agent in AGENTS}
        self.agent_selection = self._agent_of[board.turn]
        self._end_if_over()

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Take ``action`` for ``agent_selection`` (None for an agent whose game has ended).

        Raises:
            InvalidActionError: ``action`` is not an integer of the action space.
            IllegalMoveError: the action is not legal now (with ``illegal_action="raise"``).
            GameOverError: no game: :meth:`reset` was not called, or every agent has left.
        """
        if self._board is None or not self.agents:
            raise GameOverError("no game in progress: call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise DraughtsError(f"{agent}'s game is over: its only action is None, not {excerpt(action)}")
            self._was_dead_step(action)
            return
        value = self.encoding._check(action)
        choice = self._current().after(value)
        if choice is None and self.illegal_action == "raise":
            position = self._board.position
            raise IllegalMoveError(
                f"action {value} ({self.encoding.action_text(position, value)}) is not legal for {agent} in "
                f"{position.fen()} ({self.ruleset.name}); legal: {excerpt(self._current().actions())}"
            )
        self._cumulative_rewards[agent] = 0.0
        for other in self.rewards:
            self.rewards[other] = 0.0
        if choice is None:
            self._forfeit(agent, value)
        elif choice.complete:
            self._board.push(choice.entries[0][1])
            after = self._board.position
            self._seen[after] = self._seen.get(after, 0) + 1
            self._pending = ()
            self._choice = None
            self.agent_selection = self._agent_of[self._board.turn]
            self._end_if_over()
        else:
            self._pending = (*self._pending, value)
            self._choice = choice
        self._accumulate_rewards()

    def _end_if_over(self) -> None:
        board = self._game
        outcome = board.outcome()
        if outcome is None and self._claims and board.can_claim_draw():
            outcome = board.claim_draw()
        if outcome is not None:
            self._outcome = outcome
            self._result = outcome.result
            for agent in AGENTS:
                if outcome.winner is not None:
                    self.rewards[agent] = 1.0 if self._color_of[agent] is outcome.winner else -1.0
                self.terminations[agent] = True
                self.infos[agent] = {"outcome": outcome, "result": outcome.result}
        elif self.max_plies is not None and len(board) >= self.max_plies:
            for agent in AGENTS:
                self.truncations[agent] = True
                self.infos[agent] = {"outcome": None, "result": "*"}

    def _forfeit(self, agent: str, action: int) -> None:
        loser = self._color_of[agent]
        self._result = result_for(self.ruleset, loser.opponent)
        for other in AGENTS:
            self.rewards[other] = -1.0 if other == agent else 1.0
            self.terminations[other] = True
            self.infos[other] = {"outcome": None, "result": self._result, "illegal_action": action}

    # --- display ---

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The current position as ``render_mode`` says (None without a render mode)."""
        board = self._game
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; choose one of " + ", ".join(RENDER_MODES))
            return None
        if self.render_mode == "ansi":
            return str(board.position)
        last = board.peek() if len(board) else None
        if self.render_mode == "rgb_array":
            return rgb_array(board.position, last_move=last)
        from draughts.svg import board as svg_board

        return svg_board(board.position, last_move=last)

    def close(self) -> None:
        """Nothing to release (no window is opened)."""

    def __str__(self) -> str:
        return f"polydraughts_v0({self.ruleset.name})"


def env(ruleset: Ruleset | str = "international", **options: Any) -> DraughtsEnv:
    """A PettingZoo AEC environment for ``ruleset`` (``options``: those of :class:`DraughtsEnv`)."""
    return DraughtsEnv(ruleset, **options)


# --- one agent against a built-in opponent ---

Opponent: TypeAlias = "str | Engine | Callable[[Board], Move]"
"""What plays the other side: a player (``"random"``, ``"level:strong"`` or a level name, ``"depth:2"``
...: :func:`draughts.players.parse_player`), an Engine, or ``f(board) -> Move``."""


class SingleAgentEnv(gymnasium.Env[Observation, np.int64]):
    """One side of a draughts game as a Gymnasium environment; a built-in opponent plays the other.

    The observation space is a :class:`gymnasium.spaces.Dict` of ``"observation"`` and
    ``"action_mask"``; :meth:`action_masks` gives the mask as booleans (the convention of
    sb3-contrib's maskable algorithms). The reward is +1 for a win, -1 for a loss and 0 otherwise,
    at the end of the game. Unlike :class:`DraughtsEnv`, an illegal action by default loses the game
    (``illegal_action="lose"``), as generic Gymnasium tools sample actions without a mask.

    >>> import draughts
    >>> from draughts.ai import SingleAgentEnv
    >>> game = SingleAgentEnv("american", opponent="random", color=draughts.WHITE)
    >>> observation, info = game.reset(seed=1)
    >>> info["color"], len(game.board.move_stack)  # Black starts in American checkers
    ('white', 1)

    Args:
        ruleset: A ruleset or variant name.
        opponent: A built-in player (``"random"``, ``"level:strong"``, ``"depth:2"`` ...), an
            :class:`~draughts.engine.Engine`, or a function ``f(board) -> Move``.
        color: The side the agent plays; None draws it at random at each reset.
        render_mode, fen, max_plies, claim_draws: As for :class:`DraughtsEnv`.
        illegal_action: ``"lose"`` (default) or ``"raise"``.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        ruleset: Ruleset | str = "international",
        *,
        opponent: Opponent = "random",
        color: Color | str | None = None,
        render_mode: str | None = None,
        fen: str | None = None,
        max_plies: int | None = None,
        claim_draws: bool = True,
        illegal_action: IllegalAction = "lose",
    ) -> None:
        self.game = DraughtsEnv(
            ruleset,
            render_mode=render_mode,
            fen=fen,
            max_plies=max_plies,
            claim_draws=claim_draws,
            illegal_action=illegal_action,
        )
        self.render_mode = render_mode
        self.ruleset = self.game.ruleset
        self.encoding = self.game.encoding
        self._color = _color(color)
        self._opponent_spec = _check_opponent(opponent)
        self._opponent: Callable[[Board], Move] | None = None
        self.observation_space = cast(spaces.Space[Observation], _observation_space(self.encoding))
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self._agent = AGENTS[0]

    @property
    def color(self) -> Color:
        """The side the agent plays in the current game."""
        return self.game.color(self._agent)

    @property
    def board(self) -> Board:
        """A copy of the game so far."""
        return self.game.board

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action mask as booleans."""
        return self.game.action_mask(self._agent).astype(np.bool_)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a new game; the opponent moves first if it has the first move."""
        _check_seed(seed)
        super().reset(seed=seed)
        self.game.reset(seed=seed, options=options)
        if seed is not None:
            self.action_space.seed(seed)
            self.observation_space.seed(seed)
        color = self._color
        if color is None:
            color = Color.WHITE if self.np_random.integers(2) == 0 else Color.BLACK
        self._agent = self.game.agent(color)
        self._opponent = self._make_opponent()
        self._opponent_turns()
        return self.game.observe(self._agent), self._info()

    def step(self, action: int | np.integer[Any]) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """The agent's action, then the opponent's move if the agent's move is complete."""
        if self._opponent is None:
            raise GameOverError("the environment has not been reset: call reset() first")
        if self._over():
            raise GameOverError("the game is over: call reset() to start a new one")
        self.game.step(action)
        reward = self.game.rewards[self._agent]
        reward += self._opponent_turns()
        return (
            self.game.observe(self._agent),
            float(reward),
            any(self.game.terminations.values()),
            any(self.game.truncations.values()),
            self._info(),
        )

    def _over(self) -> bool:
        return any(self.game.terminations.values()) or any(self.game.truncations.values())

    def _opponent_turns(self) -> float:
        """Let the opponent play while it is selected; the agent's rewards meanwhile."""
        reward = 0.0
        assert self._opponent is not None
        while not self._over() and self.game.agent_selection != self._agent:
            move = self._opponent(self.game._game)
            if not isinstance(move, Move):
                raise TypeError(f"the opponent returned {excerpt(move)}, not a Move")
            for action in self.game.encode(move):
                self.game.step(action)
                reward += self.game.rewards[self._agent]
        return reward

    def _info(self) -> dict[str, Any]:
        info = dict(self.game.infos.get(self._agent, {}))
        info["color"] = str(self.color)
        return info

    def _make_opponent(self) -> Callable[[Board], Move]:
        spec = self._opponent_spec
        rng = self.np_random
        if spec == "random":

            def random_move(board: Board) -> Move:
                moves = board.legal_moves()
                return moves[int(rng.integers(len(moves)))]

            return random_move
        if isinstance(spec, str):
            engine = parse_player(spec).engine(seed=int(rng.integers(2**31)))
            return lambda board: _engine_move(engine, board)
        if isinstance(spec, Engine):
            engine = spec
            return lambda board: _engine_move(engine, board)
        return spec

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The current position as ``render_mode`` says."""
        return self.game.render()

    def close(self) -> None:
        """Nothing to release."""
        self.game.close()


def _engine_move(engine: Engine, board: Board) -> Move:
    move = engine.search(board.copy()).move
    if move is None:
        raise DraughtsError(f"the engine found no move in {board.fen()}")
    return move


def _color(color: object) -> Color | None:
    if color is None or isinstance(color, Color):
        return color
    if isinstance(color, str) and color.strip().lower() in ("white", "black"):
        return Color.WHITE if color.strip().lower() == "white" else Color.BLACK
    raise DraughtsError(f"color {excerpt(color)} must be draughts.WHITE, draughts.BLACK, 'white', 'black' or None")


_OPPONENTS = ("random", "level", "depth", "nodes", "time")
"""The players of the one player syntax an environment's opponent may be (the built-in ones)."""


def _check_opponent(opponent: Opponent) -> Opponent:
    """``opponent`` checked; text in the one player syntax of every command, in its one spelling."""
    if isinstance(opponent, str):
        try:
            return parse_player(opponent, accepted=_OPPONENTS, command="an environment").text
        except DraughtsError as error:
            raise DraughtsError(
                f"opponent {excerpt(opponent)} must be an Engine, a function or a player: {error}"
            ) from None
    if isinstance(opponent, Engine) or callable(opponent):
        return opponent
    raise DraughtsError(
        f"opponent {excerpt(opponent)} must be a player such as 'random' or 'level:strong', an Engine or a function"
    )


gymnasium.register(id="polydraughts/Draughts-v0", entry_point="draughts.ai.envs:SingleAgentEnv")
