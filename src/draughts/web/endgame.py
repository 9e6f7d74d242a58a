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

from pathlib import Path

from draughts.endgame import Tablebase, TablebaseError, TablebaseFileError
from draughts.endgame.tablebase import masks_of, material_of
from draughts.notation import move_text
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.web.views import Json

__all__ = ["NOT_BUILT", "probe", "tablebase"]

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
        material = answer["material"]
        if material is not None and not base.has(material) and not base.has(_mirror(material)):
            answer["message"] = f"{NOT_BUILT}: {material} of {rules.name} is not built"
        else:
            answer["message"] = f"{NOT_BUILT}: {error}"
        return answer
    answer.update(verdict.to_dict(), in_table=True, best_moves=best)
    return answer


def _mirror(material: str) -> str:
    first, second = material.split("v")
    return f"{second}v{first}"
