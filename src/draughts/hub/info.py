"""An external engine's ``info`` lines as typed values: depth, a :class:`~draughts.engine.score.Score`, nodes,
the PV as moves.

Hub engines write ``info depth=12 mean-depth=14.5 score=0.12 nodes=123456 time=1.5 nps=0.8
pv="32-28 19-23"`` while they think. Scores are in men with decimals, seen by the side to move;
Scan writes ``+/-99.xx`` for the end of the game in a few plies (read as a win or loss in
``round((99.99 - |score|) * 100)`` plies, the convention of ``draughts hub``'s own server; Scan's
count may differ by a ply) and ``+/-89.xx`` for a won endgame ahead, which stays an evaluation.
A ``multipv=K`` argument (engines that show several lines) ranks the line; without it a line is
the best one. Reading is lenient, as the protocol asks: a field that does not parse is None, and
the principal variation ends before its first move that is not legal in turn.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping

import attrs

from draughts.engine.score import Score
from draughts.errors import DraughtsError
from draughts.hub.text import parse_hub_move
from draughts.move import Move
from draughts.position import Position

__all__ = ["HubInfo", "parse_info", "score_of_text"]

_DECIMAL = re.compile(r"([+-]?)([0-9]{1,9})(?:\.([0-9]{1,6}))?")
_COUNT = re.compile(r"[0-9]{1,18}")
_END_OF_GAME = 9900
"""Hundredths of a man from which Scan's scores mean the game ends in a few plies (99.xx)."""


@attrs.frozen
class HubInfo:
    """One ``info`` line of an external engine, typed.

    Attributes:
        depth: The nominal depth, if given.
        score: The score for the side to move, if given.
        nodes: Nodes searched so far.
        time: Seconds spent so far.
        nps: Millions of nodes per second, as Hub engines write it.
        mean_depth: Scan's ``mean-depth``.
        pv: The principal variation, its legal prefix (empty without ``pv``).
        multipv: The line's rank (1 when the engine does not say).
        args: The line's arguments as written.
    """

    depth: int | None
    score: Score | None
    nodes: int | None
    time: float | None
    nps: float | None
    mean_depth: float | None
    pv: tuple[Move, ...]
    multipv: int
    args: Mapping[str, str]


def score_of_text(text: str) -> Score | None:
    """The :class:`~draughts.engine.score.Score` of a Hub ``score=`` value (men with decimals), None if it is not one.

    >>> score_of_text("0.12"), score_of_text("-99.94"), score_of_text("89.20"), score_of_text("nan")
    (Score.cp(12), Score.loss(5, exact=False), Score.cp(8920), None)
    """
    match = _DECIMAL.fullmatch(text.strip())
    if match is None:
        return None
    sign, whole, fraction = match.groups()
    centi = int(whole) * 100 + round(int((fraction or "0").ljust(6, "0")) / 10_000)
    if centi >= _END_OF_GAME:
        plies = max(9999 - centi, 1)
        return Score.loss(plies, exact=False) if sign == "-" else Score.win(plies, exact=False)
    return Score.cp(-centi if sign == "-" else centi)


def _count(text: str | None) -> int | None:
    return int(text) if text is not None and _COUNT.fullmatch(text) else None


def _decimal(text: str | None) -> float | None:
    if text is None or _DECIMAL.fullmatch(text) is None:
        return None
    return float(text)


def _pv(position: Position, text: str) -> tuple[Move, ...]:
    moves = []
    for word in text.split():
        move = None
        with contextlib.suppress(DraughtsError):
            move = parse_hub_move(position, word)
        if move is None:
            break
        moves.append(move)
        position = position.play(move)
        if position.is_over():
            break
    return tuple(moves)


def parse_info(position: Position, args: Mapping[str, str]) -> HubInfo:
    """The typed :class:`HubInfo` of an ``info`` line's arguments, for the search of ``position``.

    >>> import draughts
    >>> start = draughts.Position.initial("international")
    >>> info = parse_info(start, {"depth": "3", "score": "-0.05", "pv": "32-28 19-23"})
    >>> info.depth, info.score, len(info.pv), info.multipv
    (3, Score.cp(-5), 2, 1)
    """
    score_text = args.get("score")
    return HubInfo(
        depth=_count(args.get("depth")),
        score=None if score_text is None else score_of_text(score_text),
        nodes=_count(args.get("nodes")),
        time=_decimal(args.get("time")),
        nps=_decimal(args.get("nps")),
        mean_depth=_decimal(args.get("mean-depth")),
        pv=_pv(position, args.get("pv", "")),
        multipv=_count(args.get("multipv")) or 1,
        args=dict(args),
    )
