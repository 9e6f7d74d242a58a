"""Many games of one ruleset stepped natively in one call: a Gymnasium :class:`~gymnasium.vector.VectorEnv`.

:class:`VectorEnv` holds ``num_envs`` games, each played by its side to move (self-play: one
policy plays both sides). The games run in the native core, all of them in one call per
:meth:`~VectorEnv.step`, which writes the observations, the legal-action masks, the rewards and the
flags into numpy arrays in place. Observations and actions are those of the ruleset's
:class:`~draughts.ai.tensors.Encoding`, exactly as the AEC environment (:class:`~draughts.ai.envs.DraughtsEnv`)
gives them, and a game ends as it says (no legal move, an automatic draw rule, a claim-based
draw claimed at once unless ``claim_draws=False``, ``max_plies``).

* ``reset(seed=...)`` -> ``(obs, info)``; ``step(actions)`` -> ``(obs, rewards, terminated,
  truncated, info)``. ``obs`` is ``float32`` of shape ``(num_envs, height, width, planes)``, each
  seen by the side to move of its game (after a game's last move, by the side that would move).
* ``info["action_mask"]``: ``bool`` of shape ``(num_envs, num_actions)`` (all False for a game
  that has just ended); ``info["player"]``: ``int8``, the agent to act in each game (0 for the
  ruleset's first player, as ``"player_0"`` of the AEC environment).
* ``rewards`` are those of the side that took the action: +1 when its move wins the game, -1 when
  it loses it (an illegal action with ``illegal_action="lose"``; a move after which the side to
  move wins, as in losing draughts), 0 otherwise.
* Autoreset, Gymnasium's next-step mode (``metadata["autoreset_mode"]``): the step after a game
  ends starts it again; that game's action is ignored and its reward is 0.

With ``copy=False`` the arrays returned are the environment's own buffers, read-only and rewritten
by the next call (no copy at all: the fastest way); by default they are copies. The next call
updates them in place, writing only what changed in each game's row, so they must be left as
returned.
"""

from __future__ import annotations

import os
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from draughts import drawrules
from draughts._core.native import capture_key, native_precedence, native_rules
from draughts._text import excerpt
from draughts.ai.envs import IllegalAction, _check_seed, _options
from draughts.ai.tensors import Encoding, encoding
from draughts.board import Board
from draughts.color import Color
from draughts.errors import DraughtsError
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset

__all__ = ["VectorEnv"]

Arrays = tuple[npt.NDArray[np.float32], npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]


_INT64 = np.dtype(np.int64)
"""The actions' native dtype."""


def _limbs(value: int) -> list[int]:
    """A bitboard as 64-bit limbs, the lowest first."""
    return [(value >> shift) & 0xFFFF_FFFF_FFFF_FFFF for shift in range(0, max(value.bit_length(), 1), 64)]


def _start(rules: Ruleset, fen: str | None, claims: bool) -> tuple[Any, ...] | None:
    """The start the native batch takes for ``fen`` (as :class:`~draughts.Board` reads it, its
    draw counts included); None for the rules' own start.

    Raises:
        DraughtsError: the game is over in that position (the batch has no game to play there).
    """
    if fen is None:
        return None
    board = Board.from_fen(rules, fen)
    outcome = board.outcome() or (board.claim_draw() if claims and board.can_claim_draw() else None)
    if outcome is not None:
        raise DraughtsError(
            f"the game of {fen!r} ({rules.name}) is over before it starts ({outcome.rule}): a vector environment's "
            "games start where there is a move to play"
        )
    own, opp, kings, color, state = board.position.node
    counters = board.counters
    return (
        _limbs(own),
        _limbs(opp),
        _limbs(kings),
        color,
        state,
        list(counters.move_counts),
        counters.since_material_change,
    )


def _tables(enc: Encoding, *, max_plies: int | None, claims: bool, fen: str | None) -> dict[str, Any]:
    """What the native batch reads of the encoding (its own tables: one definition for both)."""
    rules = enc.ruleset
    return {
        "start": _start(rules, fen, claims),
        "num_actions": enc.num_actions,
        "planes": len(enc.planes),
        "cells": enc.height * enc.width,
        "max_distance": enc.max_distance,
        "segment": tuple(
            [action for row in enc._segment[turn] for action in row] for turn in (Color.WHITE, Color.BLACK)
        ),
        "grid": tuple([max(cell, 0) for cell in enc._grid[turn]] for turn in (Color.WHITE, Color.BLACK)),
        "max_plies": max_plies or 0,
        "claims": claims,
        "no_move_wins": rules.no_move_wins,
        "first": int(rules.first_to_move),
        # Without a precedence written in Python, the batch writes each game's rows as it steps it.
        "fused": not (native_precedence(rules) is None and capture_key(rules) is not None),
    }


class VectorEnv(gymnasium.vector.VectorEnv[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` self-play games of one ruleset, stepped natively (see the module text).

    >>> import numpy as np
    >>> from draughts.ai import VectorEnv
    >>> envs = VectorEnv("russian", num_envs=4, max_plies=200)
    >>> obs, info = envs.reset(seed=0)
    >>> obs.shape, info["action_mask"].shape, info["action_mask"].sum(axis=1).tolist()
    ((4, 8, 8, 14), (4, 1792), [7, 7, 7, 7])
    >>> actions = envs.sample_legal_actions()
    >>> obs, rewards, terminated, truncated, info = envs.step(actions)
    >>> rewards.tolist(), info["player"].tolist()
    ([0.0, 0.0, 0.0, 0.0], [1, 1, 1, 1])

    Args:
        ruleset: A ruleset, a variant name, or a rule file (see :func:`draughts.rules.files.resolve_ruleset`).
        num_envs: Games played side by side (at least 1).
        fen: Every game's starting position (default: the ruleset's), its draw counts as
            :meth:`draughts.Board.from_fen` reads them.
        max_plies: Truncate a game after this many plies (None: only the rules end it).
        claim_draws: Claim every draw a claim-based rule allows, as soon as it allows it.
        illegal_action: ``"raise"`` (:class:`~draughts.IllegalMoveError` naming the game; no game
            moves) or ``"lose"`` (that game ends, its mover scores -1).
        copy: Return copies of the arrays (False: the environment's own buffers, rewritten by
            the next call).

    Raises:
        DraughtsError: a bad option, or a ruleset the encoding cannot serve.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        ruleset: Ruleset | str | os.PathLike[str],
        num_envs: int = 1,
        *,
        fen: str | None = None,
        max_plies: int | None = None,
        claim_draws: bool = True,
        illegal_action: IllegalAction = "raise",
        copy: bool = True,
    ) -> None:
        import draughts._native as _native  # the extension module (a .pyi in the source tree)

        rules = resolve_ruleset(ruleset)
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise DraughtsError(f"num_envs {excerpt(num_envs)} must be a whole number from 1 up")
        _options(None, max_plies, illegal_action, claim_draws)
        if not isinstance(copy, bool):
            raise DraughtsError(f"copy {excerpt(copy)} must be True or False")
        enc = encoding(rules)
        self.ruleset = rules
        self.encoding = enc
        self.num_envs = num_envs
        self.max_plies = max_plies
        self.claim_draws = claim_draws
        self.illegal_action = illegal_action
        self.copy = copy
        self.render_mode = None
        tables = _tables(enc, max_plies=max_plies, claims=claim_draws, fen=fen)
        draws = drawrules.compiled(Position.initial(rules))
        self._native = _native.VecEnv(native_rules(rules), draws, tables, num_envs)
        self.single_observation_space = spaces.Box(0.0, 1.0, enc.observation_shape, np.float32)
        self.single_action_space = spaces.Discrete(enc.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._buffers = self._make_buffers(enc, num_envs)
        self._started = False

    def _make_buffers(self, enc: Encoding, n: int) -> tuple[bytearray, ...]:
        """The six buffers the native batch writes, and the numpy arrays that view them."""
        cells = enc.height * enc.width * len(enc.planes)
        buffers = (
            bytearray(n * cells * 4),
            bytearray(n * enc.num_actions),
            bytearray(n * 8),
            bytearray(n),
            bytearray(n),
            bytearray(n),
        )
        self._obs = np.frombuffer(buffers[0], np.float32).reshape(n, *enc.observation_shape)
        self._mask = np.frombuffer(buffers[1], np.bool_).reshape(n, enc.num_actions)
        self._rewards = np.frombuffer(buffers[2], np.float64)
        self._terminated = np.frombuffer(buffers[3], np.bool_)
        self._truncated = np.frombuffer(buffers[4], np.bool_)
        self._player = np.frombuffer(buffers[5], np.int8)
        for array in (self._obs, self._mask, self._rewards, self._terminated, self._truncated, self._player):
            array.flags.writeable = False  # the native batch clears only what it wrote last
        return buffers

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start every game again (the rules involve no chance: ``seed`` seeds the spaces' sampling
        and :meth:`sample_legal_actions`); ``options`` are not used."""
        _check_seed(seed)
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
            self.observation_space.seed(seed)
            self._native.seed(seed)
        self._native.reset(self._buffers)
        self._started = True
        return self._out(self._obs), self._info()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """One action per game (ignored for a game that ended at the last step: it starts again).

        Raises:
            InvalidActionError: not ``num_envs`` integers, or one outside the action space.
            IllegalMoveError: an action is not legal in its game (``illegal_action="raise"``); no game moves.
            GameOverError: :meth:`reset` was not called.
        """
        if not self._started:
            from draughts.errors import GameOverError

            raise GameOverError("the environment has not been reset: call reset() first")
        self._native.step(self._action_bytes(actions), self.illegal_action == "lose", self._buffers)
        out = self._out
        return out(self._obs), out(self._rewards), out(self._terminated), out(self._truncated), self._info()

    def _action_bytes(self, actions: npt.ArrayLike) -> bytes:
        if type(actions) is np.ndarray and actions.dtype == _INT64 and actions.shape == (self.num_envs,):
            return actions.tobytes()  # what sample_legal_actions gives: nothing to check or convert
        from draughts.errors import InvalidActionError

        array = np.asarray(actions)
        if array.shape != (self.num_envs,) or not (np.issubdtype(array.dtype, np.integer) and array.dtype != np.bool_):
            raise InvalidActionError(
                f"actions {excerpt(actions)} must be {self.num_envs} integers (shape {array.shape}, {array.dtype})"
            )
        return array.astype(np.int64, copy=False).tobytes()

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._out(self._mask), "player": self._out(self._player)}

    def sample_legal_actions(self) -> npt.NDArray[np.int64]:
        """One legal action per game, uniformly among its legal actions (drawn natively, seeded by
        ``reset(seed=...)``): a random player, or exploration, without reading the masks."""
        actions: npt.NDArray[np.int64] = np.frombuffer(self._native.random_actions(), np.int64).copy()
        return actions

    def legal_actions(self, index: int) -> list[int]:
        """The legal actions of game ``index`` now (sorted; empty after its last move)."""
        return list(self._native.legal_actions(self._index(index)))

    def position(self, index: int) -> Position:
        """The current position of game ``index`` (a pending choice of segments not applied)."""
        own, opp, kings, color, state, _ = self._native.node(self._index(index))
        white, black = (own, opp) if color == 0 else (opp, own)
        return Position.from_bitboards(self.ruleset, white, black, kings, Color(color), state)

    def plies(self, index: int) -> int:
        """Plies played in game ``index`` since it started."""
        return int(self._native.node(self._index(index))[5])

    def _index(self, index: object) -> int:
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < self.num_envs:
            raise DraughtsError(f"game {excerpt(index)} is not one of 0..{self.num_envs - 1}")
        return int(index)

    def __repr__(self) -> str:
        return f"VectorEnv({self.ruleset.name!r}, num_envs={self.num_envs})"
