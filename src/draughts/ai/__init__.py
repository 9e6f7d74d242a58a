"""Learning agents: tensor encodings and PettingZoo/Gymnasium environments for every ruleset.

Needs the ``ai`` extra (``pip install "polydraughts[ai]"``: numpy, gymnasium, pettingzoo);
``import draughts`` never imports this package.

* :func:`encoding` gives a ruleset's :class:`Encoding`: the observation planes and the fixed
  action space, built from the board's geometry alone (:mod:`draughts.ai.tensors`);
  :func:`observation`, :func:`action_mask`, :func:`encode` and :func:`decode` are its shortcuts.
* :func:`env` makes a PettingZoo AEC environment (:class:`DraughtsEnv`) and
  :class:`SingleAgentEnv` a Gymnasium one against a built-in opponent (:mod:`draughts.ai.envs`).

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
    "action_mask",
    "decode",
    "encode",
    "encoding",
    "env",
    "observation",
]
