"""The lab's players, named by text so a game's job stays a few picklable strings.

* ``random``: uniform among the legal moves (one per FMJD identity), no evaluation;
* ``beginner``, ``intermediate``, ``strong``: the built-in engine at that level;
* ``depth:N``, ``nodes:N``: the built-in engine with the full evaluation, no randomness, at a fixed
  depth or node budget (reproducible); ``time:S``: S seconds a move (not reproducible);
* ``hub:COMMAND``: an external Hub engine, started for the game and quit after it.

Every engine reports its own search's evaluation of the position it moved from, which the lab
keeps for lead changes, drama and decisiveness.
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable

import attrs

from draughts.board import Board
from draughts.errors import DraughtsError
from draughts.move import Move
from draughts.rules import Ruleset

Choice = tuple[Move, int | None]
"""A player's move and its evaluation for the side to move (hundredths of a man), None if it has none."""


@attrs.frozen
class Player:
    """A player of one game: ``choose(board)`` gives its move and evaluation; ``close()`` frees it."""

    label: str
    choose: Callable[[Board], Choice]
    close: Callable[[], None] = lambda: None


def check_spec(spec: str) -> str:
    """``spec`` if it names a player (see the module), else a :class:`DraughtsError` quoting it."""
    from draughts.engine import LEVELS

    kind, sep, arg = spec.partition(":")
    if not sep and (spec == "random" or spec in LEVELS):
        return spec
    if kind == "hub" and arg.strip():
        return spec
    if kind in ("depth", "nodes") and arg.isdigit() and int(arg) > 0:
        return spec
    if kind == "time":
        try:
            if float(arg) > 0:
                return spec
        except ValueError:
            pass
    raise DraughtsError(
        f"player {spec!r:.120} must be random, {', '.join(LEVELS)}, depth:N, nodes:N, time:SECONDS or hub:COMMAND"
    )


def make_player(spec: str, ruleset: Ruleset | str, seed: int) -> Player:
    """The player ``spec`` names, for one game of ``ruleset``, its random choices from ``seed``."""
    check_spec(spec)
    if spec == "random":
        choose = random.Random(seed)

        def pick(board: Board) -> Choice:
            moves = list(board.legal_moves())
            return moves[choose.randrange(len(moves))], None

        return Player(spec, pick)
    kind, _, arg = spec.partition(":")
    if kind == "hub":
        return _hub_player(spec, arg, ruleset)
    from draughts.engine import Engine, Limit, get_level

    if kind == "depth":
        engine = Engine(seed=seed, limit=Limit(depth=int(arg)))
    elif kind == "nodes":
        engine = Engine(seed=seed, limit=Limit(nodes=int(arg)))
    elif kind == "time":
        engine = Engine(seed=seed, limit=Limit(time=float(arg)))
    else:
        engine = get_level(spec).engine(seed)

    def search(board: Board) -> Choice:
        result = engine.search(board)
        if result.move is None:
            raise DraughtsError(f"{spec} found no move in {board.fen()!r}")
        return result.move, result.value

    return Player(spec, search)


def _hub_player(spec: str, command: str, ruleset: Ruleset | str) -> Player:
    """An external Hub engine; its score is its last ``info`` line's (None if it gives none)."""
    from draughts.hub.client import HubEngine

    hub = HubEngine(shlex.split(command), timeout=30.0)
    try:
        hub.init(ruleset)
    except BaseException:
        hub.process.kill()
        raise

    def go(board: Board) -> Choice:
        result = hub.go(board)
        scores = [info.score for info in result.infos if info.score is not None]
        return result.move, scores[-1].to_search() if scores else None

    def close() -> None:
        try:
            hub.quit(timeout=2.0)
        except Exception:
            hub.process.kill()

    return Player(spec, go, close)
