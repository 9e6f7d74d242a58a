"""Any player made from its text: :func:`make_player`, for the lab, the match, the terminal game and the web board.

This module sits above the Hub client and DXP (it makes their players), so :mod:`draughts.players`
does not import it: the protocol stays below everything that implements it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from draughts.board import Board
from draughts.color import Color
from draughts.engine import Limit, StopSignal
from draughts.errors import PlayerSpecError
from draughts.players.base import Player, TimeControl
from draughts.players.builtin import EnginePlayer, RandomPlayer
from draughts.players.spec import ENGINE_KINDS, PlayerSpec, parse_player
from draughts.rules import Ruleset

__all__ = ["make_player"]


def make_player(
    spec: PlayerSpec | str,
    ruleset: Ruleset | str,
    *,
    seed: int | None = 0,
    name: str | None = None,
    limit: Limit | None = None,
    params: Mapping[str, str] | None = None,
    control: TimeControl | None = None,
    board: Board | None = None,
    color: Color | None = None,
    timeout: float = 30.0,
    stop: StopSignal | None = None,
) -> Player:
    """The player ``spec`` names, for one game of ``ruleset``.

    Args:
        spec: The player (text is read by :func:`~draughts.players.parse_player`).
        ruleset: The game's rules (a ruleset or a name).
        seed: Seed of the random mover's and the engine's choices (None: different every time).
        name: The player's name (default: its text).
        limit: Replaces the parts it sets of the built-in engine's limit; a Hub engine is sent it.
        params: A Hub engine's parameters (``set-param``).
        control: The game's time control: a Hub engine waits a second past its clock and margin,
            a DXP follower is sent it as whole minutes.
        board: Where the game starts (a DXP follower is sent it).
        color: The side the player plays (a DXP follower is told it).
        timeout: Seconds a Hub engine may take to start, a DXP follower to answer.
        stop: A flag that ends the built-in engine's search early when set (the web board's stop
            button, :attr:`EnginePlayer.stop <draughts.players.EnginePlayer.stop>`).

    Raises:
        ~draughts.errors.PlayerSpecError: ``human`` (people are not made here), a bad spec, a DXP
            follower without ``board`` and ``color``.
        ~draughts.errors.DXPError: the DXP follower cannot be reached or declines the game.
        ~draughts.errors.HubEngineError: the Hub engine does not start.
    """
    spec = parse_player(spec) if isinstance(spec, str) else spec
    label = spec.text if name is None else name
    if spec.kind == "random":
        return RandomPlayer(seed, label)
    if spec.kind in ENGINE_KINDS:
        return EnginePlayer(spec.engine(seed, limit), label, stop=stop)
    if spec.kind == "hub":
        from draughts.hub.client import HubPlayer

        grace = 1.0 if control is None else control.margin + 1.0
        return HubPlayer(spec.command, ruleset, params or {}, limit or Limit(), grace, name=label, timeout=timeout)
    if spec.kind == "dxp":
        if board is None or color is None:
            raise PlayerSpecError(f"player {spec.text!r}: a DXP follower needs the start board and its colour")
        from draughts.dxp.roles import DXPFollower

        minutes = 0 if control is None else max(1, math.ceil(control.base / 60))
        return DXPFollower(spec.address, board, color, minutes, timeout, name=label)
    raise PlayerSpecError(f"player {spec.text!r}: a person's moves are read by the game, not made here")
