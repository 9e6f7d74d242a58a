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

# Re-exported as ``name as name`` (explicit for type checkers) rather than through ``__all__``, so
# that the API documentation has each object once, under its defining module (docs/ai.rst).
from draughts.ai.envs import AGENTS as AGENTS
from draughts.ai.envs import RENDER_MODES as RENDER_MODES
from draughts.ai.envs import DraughtsEnv as DraughtsEnv
from draughts.ai.envs import GameOverError as GameOverError
from draughts.ai.envs import Opponent as Opponent
from draughts.ai.envs import SingleAgentEnv as SingleAgentEnv
from draughts.ai.envs import env as env
from draughts.ai.tensors import DIRECTION_NAMES as DIRECTION_NAMES
from draughts.ai.tensors import DIRECTIONS as DIRECTIONS
from draughts.ai.tensors import Choice as Choice
from draughts.ai.tensors import Encoding as Encoding
from draughts.ai.tensors import InvalidActionError as InvalidActionError
from draughts.ai.tensors import action_mask as action_mask
from draughts.ai.tensors import decode as decode
from draughts.ai.tensors import encode as encode
from draughts.ai.tensors import encoding as encoding
from draughts.ai.tensors import observation as observation
