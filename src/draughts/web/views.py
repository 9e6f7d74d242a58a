"""The JSON the web API speaks: library objects written as plain data, and the move a request names.

Nothing here knows about HTTP: the functions take and return dicts, lists, strings and numbers,
so they are tested directly, and the worker processes run them (:mod:`draughts.web.tasks`). The
shape of request fields is checked before, by :mod:`draughts.web.fields`; a request the server
cannot answer raises :class:`~draughts.errors.RequestError` (a :class:`~draughts.DraughtsError`) whose message
quotes the bad value, bounded in length.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from draughts import _caches
from draughts.board import Outcome
from draughts.compare import MovesComparison, moves_table, rules_table
from draughts.errors import AmbiguousMoveError, DraughtsError, IllegalMoveError, RequestError
from draughts.move import Move
from draughts.notation import move_text, parse_move
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.rules.geometry import SquareNames

__all__ = [
    "MAX_FEN",
    "MAX_TEXT",
    "RequestError",
    "compare_json",
    "move_json",
    "outcome_json",
    "rules_json",
    "variant_json",
]

MAX_FEN = 4_000
"""Longest FEN a request may carry (enough for the largest board, 26x26, with every square written)."""

MAX_TEXT = 200
"""Longest short text field (a variant name, a move, a level)."""

Json = dict[str, Any]


# --- the move a request names ----------------------------------------------------------------


def move_field(position: Position, text: str | None = None, path: Sequence[int | str] | None = None) -> Move:
    """The legal move a request names: ``text`` (in any notation the library reads) or ``path``
    (the squares from start to end, numbers or names, as :func:`move_json` gives them).

    A ``path`` of two squares names the move with that start and end; when several captures
    share them the request must give the whole path.

    Raises:
        RequestError: neither ``text`` nor ``path``.
        IllegalMoveError: no legal move matches (the message lists the legal moves).
        AmbiguousMoveError: several legal moves match (the message lists them in long form).
    """
    if path is not None:
        squares = [position.ruleset.parse_square(item) for item in path]
        legal = position.legal_moves()
        exact = [move for move in legal if list(move.path) == squares]
        if len(exact) == 1:
            return exact[0]
        ends = [move for move in legal if len(squares) == 2 and (move.start, move.end) == tuple(squares)]
        if len(ends) == 1:
            return ends[0]
        shown = "-".join(position.ruleset.square_name(square) for square in squares)
        if len(ends) > 1:
            candidates = ", ".join(move_text(position, move, long=True) for move in ends)
            raise AmbiguousMoveError(f"path {shown!r} fits several captures in {position.fen()}: {candidates}")
        listed = ", ".join(move_text(position, move, long=True) for move in legal) or "none"
        raise IllegalMoveError(f"path {shown!r} is not legal in {position.fen()}; legal moves: {listed}")
    if text is None:
        raise RequestError("missing field 'move' (move text such as '32-28') or 'path' (a list of squares)")
    return parse_move(position, text)


# --- writing library objects ------------------------------------------------------------------


def move_json(position: Position, move: Move) -> Json:
    """A legal move of ``position``: its squares, names and text in the variant's notation.

    >>> import draughts
    >>> pos = draughts.Position.from_fen("russian", "W:WKd2:Bc5,e5,c3,e3")
    >>> move_json(pos, pos.legal_moves()[1])["long"]
    'd2:b4:d6:f4:c1'
    """
    rules = position.ruleset
    return {
        "start": move.start,
        "end": move.end,
        "path": list(move.path),
        "captured": list(move.captured),
        "promotes": move.promotes,
        "names": [rules.square_name(square) for square in move.path],
        "text": move_text(position, move),
        "long": move_text(position, move, long=True),
    }


def moves_json(position: Position) -> list[Json]:
    """Every legal move of ``position`` (see :func:`move_json`)."""
    return [move_json(position, move) for move in position.legal_moves()]


def outcome_json(outcome: Outcome | None, *, claimed: bool = False) -> Json | None:
    """How a game ended: termination, winner, the rule in words, the PDN result."""
    if outcome is None:
        return None
    return {
        "termination": outcome.termination.value,
        "winner": None if outcome.winner is None else str(outcome.winner),
        "rule": outcome.rule,
        "result": outcome.result,
        "claimed": claimed,
    }


_VARIANT_FIELDS = ("name", "title", "board_size", "width", "height", "squares")
"""The ruleset's own fields a page reads as they are."""


def variant_json(rules: Ruleset, *, custom: bool = False) -> Json:
    """The facts about a ruleset a page needs to set up a board."""
    return {
        **{field: getattr(rules, field) for field in _VARIANT_FIELDS},
        "first_to_move": str(rules.first_to_move),
        "algebraic": rules.square_names is SquareNames.ALGEBRAIC,
        "capture_mandatory": rules.capture_mandatory,
        "start_fen": Position.initial(rules).fen(),
        "fen_example": fen_example(rules),
        "custom": custom,
    }


_EXAMPLE_LENGTH = 40
"""The longest FEN the board page's FEN field shows as its example (a phone shows about that)."""


@functools.lru_cache(maxsize=_caches.RULESETS)
def fen_example(rules: Ruleset) -> str:
    """A short FEN of ``rules`` in its own square names, for the FEN field's placeholder: the start
    position with runs of numbers written as ranges (``W:W31-50:B1-20``), or where that is still
    long (algebraic names, big boards), a few of its men from each side."""
    start = Position.initial(rules)
    text = start.fen()
    turn, *sides = text.split(":")
    ranged = ":".join([turn, *(side[0] + _ranges(side[1:].split(",")) for side in sides)])
    if len(ranged) <= _EXAMPLE_LENGTH and Position.from_fen(rules, ranged) == start:
        return ranged
    short = ":".join([turn, *(side[0] + ",".join(side[1:].split(",")[:2]) for side in sides)])
    try:
        Position.from_fen(rules, short)  # a FEN the page accepts: never an example that errors
    except DraughtsError:
        return text
    return short


def _ranges(squares: list[str]) -> str:
    """Square names with runs of consecutive numbers joined as ``a-b`` (names that are not
    numbers stay as they are)."""
    if not all(square.isdigit() for square in squares):
        return ",".join(squares)
    numbers = [int(square) for square in squares]
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ",".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs)


def rules_json(rules: Ruleset, *, custom: bool = False) -> Json:
    """The rules of one variant: a row per rule (the rows of ``draughts rules``), and its draw rules."""
    table = rules_table([rules])
    return {
        **variant_json(rules, custom=custom),
        "rows": [{"key": row.key, "label": row.label, "value": row.cells[0]} for row in table.rows],
        "draw_rules": rules.draw_rules.describe(),
        "draw_notes": rules.draw_rules.notes,
        "sources": list(rules.sources),
    }


def _board_card(rules: Ruleset, position: Position, moves: list[Json], size: float, arrows: list[Move]) -> Json:
    from draughts.svg import board

    return {
        "variant": rules.name,
        "title": rules.title,
        "fen": position.fen(),
        "turn": str(position.turn),
        "mirrored": False,
        "mirrored_note": "",
        "svg": board(position, size=size, arrows=arrows),
        "moves": moves,
    }


def _comparison_boards(comparison: MovesComparison, size: float) -> list[Json]:
    boards = []
    reference = comparison.reference
    for index, (rules, position) in enumerate(zip(comparison.variants, comparison.positions, strict=True)):
        legal = [row for row in comparison.rows if row.moves[index] is not None]
        moves, arrows = [], []
        for row in legal:
            move = row.moves[index]
            assert move is not None
            arrows.append(move)
            moves.append(
                {
                    "text": row.texts[index],
                    "common": row.common,
                    "start": move.start,
                    "end": move.end,
                    "path": list(move.path),
                    "differs": not row.legal_everywhere,
                }
            )
        card = _board_card(rules, position, moves, size, arrows)
        if comparison.mirrored[index]:
            card["mirrored"] = True
            card["mirrored_note"] = (
                f"The {reference.title} diagram mirrored left to right: the two boards are coloured the other way "
                f"round (the near-left corner is {_corner(reference)} in {reference.name}, {_corner(rules)} here)."
            )
        boards.append(card)
    return boards


def _corner(rules: Ruleset) -> str:
    return "a playing square" if rules.bottom_left_playable else "a light square"


def _own_starts(rulesets: Sequence[Ruleset], size: float) -> Json:
    """Each ruleset's own start position and moves: for rulesets whose start positions differ."""
    boards = []
    for rules in rulesets:
        position = Position.initial(rules)
        legal = position.legal_moves()
        moves = [
            {
                "text": text,
                "common": text,
                "start": move.start,
                "end": move.end,
                "path": list(move.path),
                "differs": False,
            }
            for move in legal
            for text in (move_text(position, move),)
        ]
        boards.append(_board_card(rules, position, moves, size, list(legal)))
    first = rulesets[0]
    reasons = [
        f"{rules.name}: {rules.first_to_move} moves first"
        for rules in rulesets[1:]
        if rules.first_to_move != first.first_to_move
    ]
    why = "; ".join(reasons) if reasons else "the pieces start on other squares"
    return {
        "fen": None,
        "reference": first.name,
        "turn": None,
        "title": (
            f"Each variant's own start position ({first.name}: {first.first_to_move} moves first; {why}): "
            "their moves are not compared. Give a FEN to compare one position."
        ),
        "notes": [],
        "columns": [],
        "rows": [],
        "boards": boards,
    }


def compare_json(
    rulesets: Sequence[Ruleset],
    fen: str | None = None,
    *,
    all_rows: bool = False,
    size: float = 320,
    tablebases: str | None = None,
) -> Json:
    """Rulesets compared: the rules that differ (all rules with ``all_rows``) and one position's
    legal moves in each, side by side, the moves not legal in all of them marked.

    The position is ``fen`` read in the first ruleset's numbering. Without ``fen`` it is the first
    ruleset's start position when that is every ruleset's start position too (on its board);
    otherwise each board shows its own ruleset's start position and moves, and the moves are not
    compared (``rows`` is empty; ``title`` says why). Rulesets of different board sizes have no
    common position: ``moves`` is then None and ``moves_note`` says why (the rules are compared
    all the same). With ``tablebases`` (a directory of endgame tables) the rules gain the rows
    :func:`draughts.compare.rules_table` computes from the tables built there.

    Raises:
        RequestError: fewer than two rulesets.
        InvalidFenError: ``fen`` does not parse, or cannot be set up in one of the rulesets.
    """
    if len(rulesets) < 2:
        raise RequestError(f"compare needs two or more variants, got {len(rulesets)}")
    table = rules_table(rulesets, differences_only=not all_rows, tablebases=tablebases)
    rules_part = {
        "columns": list(table.columns),
        "rows": [
            {"key": row.key, "label": row.label, "cells": list(row.cells), "differs": row.differs} for row in table.rows
        ],
    }
    first = rulesets[0]
    sizes = sorted({rules.shape for rules in rulesets})
    result: Json = {"variants": [variant_json(rules) for rules in rulesets], "rules": rules_part}
    if len(sizes) > 1:
        if fen:
            listed = ", ".join(f"{rules.name} {rules.shape}" for rules in rulesets)
            raise RequestError(f"cannot compare the moves of one position across board sizes ({listed})")
        result["moves"] = None
        result["moves_note"] = "The variants are played on boards of different sizes: no common position."
        return result
    position = Position.initial(first) if not fen else Position.from_fen(first, fen)
    comparison = moves_table(position, rulesets)
    if not fen and not all(
        here == Position.initial(rules) for here, rules in zip(comparison.positions, comparison.variants, strict=True)
    ):
        result["moves"] = _own_starts(rulesets, size)
        result["moves_note"] = ""
        return result
    table = comparison.table()
    result["moves"] = {
        "fen": position.fen(),
        "reference": first.name,
        "turn": str(position.turn),
        "title": table.title,
        "notes": list(table.notes),
        "columns": list(table.columns),
        "rows": [{"common": row.label, "cells": list(row.cells), "differs": row.marked} for row in table.rows],
        "boards": _comparison_boards(comparison, size),
    }
    result["moves_note"] = ""
    return result
