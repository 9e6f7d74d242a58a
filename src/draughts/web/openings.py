"""The web board's opening ballots: what ``GET /api/openings`` answers, and the PDN of one opening
that ``POST /api/games/{id}/opening`` starts a game from (the same path as a PDN import, so the
opening's moves are the game's first moves and undo walks back through them)."""

from __future__ import annotations

from typing import Any

from draughts import openings
from draughts.errors import UnknownBallotError
from draughts.rules import Ruleset

__all__ = ["Json", "ballots_json", "opening_pdn"]

Json = dict[str, Any]


def ballots_json(rules: Ruleset, ballot: str | None) -> Json:
    """The ballots of ``rules`` (:meth:`~draughts.openings.Ballot.summary`: name, title, count,
    source, licence, notes), or with ``ballot`` that ballot's openings too (name, title, moves,
    start FEN, setup: :meth:`~draughts.openings.Opening.to_dict` without the FEN each leads to,
    which would play every opening of the ballot for a listing)."""
    if ballot is None:
        infos = [openings.ballot_info(rules, name) for name in openings.ballots(rules)]
        return {"variant": rules.name, "ballots": [info.summary() for info in infos]}
    info = openings.ballot_info(rules, ballot)
    return {**info.summary(), "variant": rules.name, "openings": [o.to_dict(fen=False) for o in info.openings]}


def opening_pdn(rules: Ruleset, ballot: str, name: str) -> str:
    """The PDN text of the opening ``name`` of ``ballot``: its start (a FEN tag where it has one),
    its moves, and an ``Opening`` tag naming it.

    Raises:
        UnknownBallotError: no such ballot, or no opening of that name in it (the message quotes it).
    """
    from draughts._text import excerpt
    from draughts.pdn.game import Game
    from draughts.pdn.writer import write_game

    info = openings.ballot_info(rules, ballot)
    found = [o for o in info.openings if o.name == name]
    if not found:
        raise UnknownBallotError(f"ballot {info.name!r} of {rules.name} has no opening {excerpt(name)}")
    opening = found[0]
    label = f"{info.title}, {opening.name}" + (f" ({opening.title})" if opening.title else "")
    return write_game(Game.from_board(opening.board(), {"Opening": label}, "*"))
