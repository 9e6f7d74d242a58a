"""Learning agents: tensor encodings and PettingZoo/Gymnasium environments for every ruleset.

Needs the ``ai`` extra (``pip install "polydraughts[ai]"``: numpy, gymnasium, pettingzoo);
``import draughts`` never imports this package.

* :func:`~draughts.ai.tensors.encoding` gives a ruleset's :class:`~draughts.ai.tensors.Encoding`:
  the observation planes and the fixed action space, built from the board's geometry alone
  (:mod:`draughts.ai.tensors`); ``observation``, ``action_mask``, ``encode`` and ``decode`` are its
  shortcuts.
* :func:`~draughts.ai.envs.env` makes a PettingZoo AEC environment
  (:class:`~draughts.ai.envs.DraughtsEnv`) and :class:`~draughts.ai.envs.SingleAgentEnv` a
  Gymnasium one against a built-in opponent (:mod:`draughts.ai.envs`).
* :class:`~draughts.ai.vector.VectorEnv` steps many self-play games natively in one call, as a
  Gymnasium vector environment with the same encoding (:mod:`draughts.ai.vector`).

Everything named here is importable from ``draughts.ai``; see :doc:`/ai` for the whole story.

>>> import draughts, draughts.ai
>>> pos = draughts.Position.initial("international")
>>> draughts.ai.observation(pos).shape
(10, 10, 11)
>>> move = pos.legal_moves()[0]
>>> actions = draughts.ai.encode(pos, move)
>>> draughts.ai.decode(pos, actions) == move, int(draughts.ai.action_mask(pos).sum())
(True, 9)
"""

from __future__ import annotations

from draughts.ai.envs import AGENTS, RENDER_MODES, DraughtsEnv, GameOverError, Opponent, SingleAgentEnv, env
from draughts.ai.tensors import (
    DIRECTION_NAMES,
    DIRECTIONS,
    Choice,
    Encoding,
    InvalidActionError,
    action_mask,
    decode,
    encode,
    encoding,
    observation,
)
from draughts.ai.vector import VectorEnv

__all__ = [
    "AGENTS",
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "RENDER_MODES",
    "Choice",
    "DraughtsEnv",
    "Encoding",
    "GameOverError",
    "InvalidActionError",
    "Opponent",
    "SingleAgentEnv",
    "VectorEnv",
    "action_mask",
    "decode",
    "encode",
    "encoding",
    "env",
    "observation",
]
