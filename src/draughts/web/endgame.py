"""The web board's endgame panel: a position's verdict from the tables built in the server's
directory (``draughts serve --tablebases DIR``), as ``GET /api/endgame`` answers it.

This runs in a worker process (:mod:`draughts.web.workers`), like the rest of the rules work.
Each worker keeps one :class:`~draughts.endgame.Tablebase` per ruleset, so a table file is read
and its checksum checked once per worker, then answered from memory; a table built while the
server runs is found by the next request that needs it. The directory is the server's setting,
never a request's: a request names a ruleset and a FEN, and only files of that directory that
carry the ruleset's key are opened.

A position whose material's table (or its mirror's) is not in the directory is answered with
``in_table`` false and a ``message`` saying so; it is not an error (the page asks for every
position it shows).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from draughts.endgame import Tablebase, TablebaseError, TablebaseFileError
from draughts.endgame.probe import built_materials
from draughts.endgame.tablebase import masks_of, material_of
from draughts.move import Move
from draughts.notation import move_text
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.web.views import Json

__all__ = ["NOT_BUILT", "continue_line", "probe", "tablebase"]

NOT_BUILT = "not in a built table"
"""The start of ``message`` for a position outside the built tables."""

_bases: dict[tuple[str, Ruleset], Tablebase] = {}
_MOST_BASES = 64  # rulesets a worker keeps tables of (a custom ruleset each): the oldest dropped beyond


def tablebase(rules: Ruleset, directory: str) -> Tablebase:
    """The worker's :class:`~draughts.endgame.Tablebase` of ``rules`` in ``directory`` (made once,
    its tables read when first probed); the engine's analysis uses it too."""
    key = (directory, rules)
    base = _bases.get(key)
    if base is None:
        if len(_bases) >= _MOST_BASES:
            del _bases[next(iter(_bases))]
        base = _bases[key] = Tablebase(rules, directory)
    return base


def continue_line(base: Tablebase, position: Position, moves: Sequence[Move], plies: int) -> tuple[Move, ...]:
    """``moves`` from ``position``, followed on with the tables' best moves to a won or lost end.

    The engine's line of a won position stops where its search scored a node from the tables (or,
    answered from them at the root, after one move); a line scored as a win or loss in ``plies``
    plies is followed here to that end (the fastest win against the longest defence), so that a
    mate in 7 shows its 7 plies. Stops early where the tables do not know a position.
    """
    line = list(moves)
    for move in line:
        position = position.play(move)
    while len(line) < plies and not position.is_over():
        try:
            best = base.best_moves(position)
        except TablebaseError:
            break
        if not best:
            break
        line.append(best[0])
        position = position.play(best[0])
    return tuple(line)


def _material_name(position: Position) -> str | None:
    white, black, kings, _ = masks_of(position)
    if not white or not black:
        return None  # one side has nothing left: the game is over, no table holds it
    return material_of(position.ruleset, white, black, kings).name


def probe(rules: Ruleset, fen: str, directory: str) -> Json:
    """``GET /api/endgame``: the verdict and best moves of ``fen`` under ``rules`` from the tables
    in ``directory``.

    Returns ``variant``, ``fen`` (as the library writes it), ``turn``, ``material`` (the
    position's, first player's side first; None when a side has no piece), ``in_table``, and
    inside a built table ``result``, ``plies``, ``within_rules`` and ``best_moves`` (move texts,
    as ``draughts endgame probe --format json`` prints them); outside one, those are None (the
    moves an empty list) and ``message`` says why.

    Raises:
        DraughtsError: the FEN does not read under ``rules`` (a 400 for the request).
    """
    position = Position.from_fen(rules, fen)
    answer: Json = {
        "variant": rules.name,
        "fen": position.fen(),
        "turn": str(position.turn),
        "material": _material_name(position),
        "in_table": False,
        "result": None,
        "plies": None,
        "within_rules": None,
        "best_moves": [],
        "message": None,
    }
    if not Path(directory).is_dir():
        answer["message"] = f"{NOT_BUILT}: the server's tables directory is gone"
        return answer
    base = tablebase(rules, directory)
    try:
        verdict = base.probe(position)
        best = [move_text(position, move) for move in base.best_moves(position)]
    except TablebaseFileError as error:
        answer["message"] = f"{NOT_BUILT}: a table file is damaged or foreign ({error})"
        return answer
    except TablebaseError as error:
        answer["message"] = _outside(base, position, answer["material"], error)
        return answer
    answer.update(verdict.to_dict(), in_table=True, best_moves=best)
    return answer


def _outside(base: Tablebase, position: Position, material: str | None, error: TablebaseError) -> str:
    """Why ``position`` has no verdict, in a line short enough for a phone: a position with more
    pieces than any built table (the start position above all) is not named piece by piece."""
    if material is None or base.has(material) or base.has(_mirror(material)):
        return f"{NOT_BUILT}: {error}"
    most = max((built.pieces for built in built_materials(base)), default=0)
    if not most:
        return f"{NOT_BUILT}: no table of {base.rules.name} is built"
    pieces = len(position.pieces())
    if pieces > most:
        return f"{NOT_BUILT}: {pieces} pieces, the tables hold up to {most}"
    return f"{NOT_BUILT}: {material} of {base.rules.name} is not built"


def _mirror(material: str) -> str:
    first, second = material.split("v")
    return f"{second}v{first}"
