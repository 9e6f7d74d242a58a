"""Every field of every request, checked in one place before any work is done.

Each endpoint declares its fields (:func:`endpoint_fields`); :func:`read_fields` checks a request's
fields against them -- the type, the range, the size -- and gives plain values or raises a
:class:`~draughts.errors.RequestError` (400) whose message names the field and quotes the bad
value (bounded in length, lone surrogates escaped). A field the endpoint does not take is an
error too, so a misspelt name is not silently ignored. The same rules read JSON bodies and query
strings (where every value is text: ``"1"`` for true, ``"2.5"`` for a number).

What the fields mean (a legal move, a square of this board, a FEN that parses) is checked later,
by the rules, in a worker process; here only the shape.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from draughts._text import excerpt
from draughts.errors import PlayerSpecError
from draughts.players import PlayerSpec, parse_player
from draughts.results import STANDARD_RESULTS
from draughts.web.views import MAX_FEN, MAX_TEXT, RequestError

__all__ = [
    "BOARD_PLAYERS",
    "LAB_PLAYERS",
    "MAX_PDN",
    "Field",
    "endpoint_fields",
    "parse_clock",
    "player",
    "read_fields",
]

BOARD_PLAYERS = ("human", "level")
"""The players of the board page: a person, or the built-in engine at a level (the page's computer)."""
LAB_PLAYERS = ("random", "depth:1", "depth:2")
"""Who may play a web lab: uniformly random moves, or the engine searching 1 or 2 plies."""

MAX_PDN = 60_000
"""Longest PDN text a request may carry."""

MAX_PATH = 64
"""Most squares in a move's path (a capture of every piece of the largest board is shorter)."""

MAX_MULTIPV = 10
"""Most lines one analysis request may ask for (POST /api/analyse)."""

MAX_DEPTH = 64
"""Deepest iteration an analysis request may ask for (its time bounds it anyway)."""

MAX_WHOLE = 2**62
"""Largest whole number any field takes."""

Reader = Callable[[str, object], Any]
Schema = Mapping[str, "Field"]


@attrs.frozen
class Field:
    """How to read one field: a reader (name, raw value -> value), and what its absence means."""

    read: Reader
    required: bool = False
    default: Any = None


def read_fields(schema: Schema, data: Mapping[str, object], *, what: str) -> dict[str, Any]:
    """The values of ``data``'s fields as ``schema`` reads them (absent or null ones: their default).

    Raises:
        RequestError: a field ``schema`` does not have, a required one missing, or a bad value.
    """
    for name in data:
        if name not in schema:
            takes = ", ".join(repr(known) for known in schema) or "no fields"
            raise RequestError(f"{what} takes no field {excerpt(name, 40)}; it takes {takes}")
    values: dict[str, Any] = {}
    for name, field in schema.items():
        raw = data.get(name)
        if raw is None:
            if field.required:
                raise RequestError(f"missing field {name!r} ({what})")
            values[name] = field.default
        else:
            values[name] = field.read(name, raw)
    return values


# --- readers ------------------------------------------------------------------------------------


def _bad(name: str, value: object, wanted: str) -> RequestError:
    return RequestError(f"field {name!r} must be {wanted}, not {excerpt(value)}")


def _check_text(name: str, value: str, limit: int) -> str:
    if len(value) > limit:
        raise RequestError(f"field {name!r} is longer than {limit:,} characters: {excerpt(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise RequestError(
            f"field {name!r} holds a lone surrogate {value[error.start]!r} at character {error.start} "
            f"(not Unicode text): {excerpt(value)}"
        ) from None
    return value


def text(limit: int = MAX_TEXT, *, choices: Iterable[str] | None = None) -> Reader:
    """Text of at most ``limit`` characters, valid Unicode (no lone surrogate); one of ``choices`` if given."""
    allowed = None if choices is None else tuple(choices)

    def read(name: str, value: object) -> str:
        if not isinstance(value, str):
            raise _bad(name, value, "text")
        _check_text(name, value, limit)
        if allowed is not None and value not in allowed:
            raise RequestError(f"field {name!r} = {excerpt(value)} must be one of {', '.join(allowed)}")
        return value

    return read


MAX_TREE_NODES = 5_000
"""Nodes of a move tree sent back to the server (POST /api/pdn-tree/export)."""


def tree_nodes(name: str, value: object) -> list[dict[str, Any]]:
    """A move tree as :func:`draughts.pdn.treedata.tree_data` lists it: at most :data:`MAX_TREE_NODES`
    objects, each with a whole ``parent`` (but the first), a ``move`` text and optionally ``comment``,
    ``starting_comment`` (texts) and ``nags`` (a list of texts); other keys are ignored."""
    if not isinstance(value, list) or not value:
        raise _bad(name, value, "a non-empty list of nodes")
    if len(value) > MAX_TREE_NODES:
        raise RequestError(f"field {name!r} has {len(value):,} nodes, more than {MAX_TREE_NODES:,}")
    nodes: list[dict[str, Any]] = []
    for index, item in enumerate(value):
        where = f"{name}[{index}]"
        if not isinstance(item, dict):
            raise _bad(where, item, "an object")
        node: dict[str, Any] = {"parent": None}
        if index:
            node["parent"] = whole(0, index - 1)(f"{where}.parent", item.get("parent"))
            node["move"] = text(MAX_PATH * 4)(f"{where}.move", item.get("move"))
        for key in ("comment", "starting_comment"):
            if item.get(key) is not None:
                node[key] = text()(f"{where}.{key}", item[key])
        nags = item.get("nags") or []
        if not isinstance(nags, list) or len(nags) > 16:
            raise _bad(f"{where}.nags", nags, "a list of at most 16 texts")
        node["nags"] = [text(8)(f"{where}.nags", nag) for nag in nags]
        nodes.append(node)
    return nodes


MAX_TAGS = 64
"""Most PDN tags a request may carry (POST /api/pdn-tree/export)."""

_TAG_NAME = re.compile(r"[A-Za-z0-9_]{1,40}")


def tags(name: str, value: object) -> dict[str, str]:
    """PDN tags: an object of at most :data:`MAX_TAGS` names (letters, digits and underscores, at
    most 40) to texts of at most :data:`~draughts.web.views.MAX_TEXT` characters."""
    if not isinstance(value, dict):
        raise _bad(name, value, "an object of PDN tags (name: text)")
    if len(value) > MAX_TAGS:
        raise RequestError(f"field {name!r} has {len(value):,} tags, more than {MAX_TAGS}")
    for key in value:
        if not _TAG_NAME.fullmatch(key):
            raise RequestError(f"field {name!r}: {excerpt(key, 40)} is not a tag name (letters, digits, _)")
    return {key: text()(f"{name}.{key}", item) for key, item in value.items()}


def flag(name: str, value: object) -> bool:
    """Yes or no: JSON true/false, or in a query string 1/0, true/false, yes/no, on/off."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("1", "true", "yes", "on", "0", "false", "no", "off", ""):
        return value.lower() in ("1", "true", "yes", "on")
    raise _bad(name, value, "true or false")


_DIGITS = re.compile(r"[0-9]{1,18}")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,18}(?:\.[0-9]{0,18})?|\.[0-9]{1,18})(?:[eE][+-]?[0-9]{1,3})?")


def _from_text(
    name: str, value: object, pattern: re.Pattern[str], convert: Callable[[str], object], wanted: str
) -> object:
    """A number as JSON gives it: ``value`` itself, or from a query string the text in ``pattern``
    converted (anything else is refused as not ``wanted``)."""
    if not isinstance(value, str):
        return value
    if not pattern.fullmatch(value.strip()):
        raise _bad(name, value, wanted)
    return convert(value.strip())


def whole(low: int, high: int) -> Reader:
    """A whole number from ``low`` to ``high`` (in a query string: ASCII digits)."""
    wanted = f"a whole number from {low} to {high}"

    def read(name: str, value: object) -> int:
        number = _from_text(name, value, _DIGITS, int, wanted)
        if isinstance(number, bool) or not isinstance(number, int):
            raise _bad(name, value, wanted)
        if not low <= number <= high:  # exact comparison: no conversion of a huge int
            raise RequestError(f"field {name!r} = {excerpt(number, 40)} must be from {low} to {high}")
        return number

    return read


def number(low: float, high: float, *, low_included: bool = False) -> Reader:
    """A finite number above ``low`` (or from it, ``low_included``) and at most ``high``."""
    above = f"from {low:g}" if low_included else f"more than {low:g}"
    wanted = f"a number {above} and at most {high:g}"

    def read(name: str, value: object) -> float:
        number = _from_text(name, value, _DECIMAL, float, wanted)
        if isinstance(number, bool) or not isinstance(number, (int, float)):
            raise _bad(name, value, wanted)
        if isinstance(number, float) and not math.isfinite(number):
            raise _bad(name, value, f"a finite number {above} and at most {high:g}")
        if not (low <= number if low_included else low < number) or number > high:
            raise RequestError(f"field {name!r} = {excerpt(value, 40)} must be {wanted}")
        return float(number)

    return read


def names(low: int = 2, high: int = 12) -> Reader:
    """``low`` to ``high`` names: a list of texts, or one text of comma-separated names."""

    def read(name: str, value: object) -> list[str]:
        items = value
        if isinstance(value, str):
            _check_text(name, value, high * (MAX_TEXT + 1))
            items = [item for item in value.split(",") if item.strip()]
        if not isinstance(items, list) or not low <= len(items) <= high:
            raise RequestError(f"field {name!r} must list {low} to {high} variant names, not {excerpt(items)}")
        return [text()(name, item) for item in items]

    return read


def path(name: str, value: object) -> list[int | str]:
    """A move's squares, start to end: 2 to :data:`MAX_PATH` square numbers or names."""
    if not isinstance(value, list) or not 2 <= len(value) <= MAX_PATH:
        raise RequestError(
            f"field {name!r} = {excerpt(value)} must be a list of 2 to {MAX_PATH} squares (numbers or names)"
        )
    for item in value:
        if isinstance(item, str):
            _check_text(name, item, 8)
        elif isinstance(item, bool) or not isinstance(item, int) or not 1 <= item <= 10_000:
            raise RequestError(f"field {name!r} = {excerpt(value)}: {excerpt(item)} is not a square")
    return list(value)


_CLOCK = re.compile(r"([0-9]{1,3}(?:\.[0-9]{1,2})?)\+([0-9]{1,2})")
MAX_CLOCK_MINUTES = 180
MAX_INCREMENT = 60


def parse_clock(name: str, value: object) -> tuple[float, float] | None:
    """A time control ``"minutes+seconds"`` (``"5+3"``: 5 minutes each, 3 seconds added per move),
    or ``"none"`` / empty text for an untimed game; gives (seconds, increment) or None."""
    if not isinstance(value, str):
        raise _bad(name, value, "a time control such as '5+3' (minutes + seconds per move) or 'none'")
    text_value = value.strip().lower()
    if text_value in ("", "none"):
        return None
    found = _CLOCK.fullmatch(text_value)
    if found is None:
        raise _bad(name, value, "a time control such as '5+3' (minutes + seconds per move) or 'none'")
    minutes, increment = float(found.group(1)), float(found.group(2))
    if not 0 < minutes <= MAX_CLOCK_MINUTES or increment > MAX_INCREMENT:
        raise RequestError(
            f"field {name!r} = {excerpt(value)}: the time must be more than 0 and at most {MAX_CLOCK_MINUTES} "
            f"minutes, the increment at most {MAX_INCREMENT} seconds"
        )
    return minutes * 60, increment


def player(kinds: Iterable[str], *, choices: Iterable[str] | None = None) -> Reader:
    """A player in the one player syntax (:func:`~draughts.players.parse_player`) of one of ``kinds``
    (and, given ``choices``, one of those players once written in the one spelling)."""
    accepted = tuple(kinds)
    allowed = None if choices is None else tuple(choices)

    def read(name: str, value: object) -> PlayerSpec:
        if not isinstance(value, str):
            raise _bad(name, value, "text")
        try:
            spec = parse_player(_check_text(name, value, MAX_TEXT), accepted=accepted, command="the web board")
        except PlayerSpecError as error:
            raise RequestError(f"field {name!r}: {error}") from None
        if allowed is not None and spec.text not in allowed:
            raise RequestError(f"field {name!r} = {excerpt(value)} must be one of {', '.join(allowed)}")
        return spec

    return read


def named_level(fields: Mapping[str, Any]) -> str | None:
    """The level the board page's computer player names (``level:strong``), if a side is one."""
    named = [spec.arg for side in ("white", "black") if (spec := fields.get(side)) and not spec.is_human]
    return named[0] if named else None


# --- the endpoints' fields ----------------------------------------------------------------------


def endpoint_fields(levels: Iterable[str], max_time: float, max_plies: int) -> dict[str, Schema]:
    """The fields each endpoint takes, by endpoint name (see ``docs/web.rst``)."""
    level_names = tuple(levels)
    variant = Field(text())
    fen = Field(text(MAX_FEN))
    view = {"flipped": Field(flag, default=False), "numbers": Field(flag)}
    version = {"version": Field(whole(0, MAX_WHOLE))}
    engine = {"level": Field(text(choices=level_names)), "time": Field(number(0, max_time))}
    move = {"move": Field(text()), "path": Field(path)}
    clock = Field(parse_clock)
    players = {side: Field(player(BOARD_PLAYERS), default=PlayerSpec("human")) for side in ("white", "black")}
    return {
        "none": {},
        "rules": {"variant": variant},
        "legal-moves": {"variant": variant, "fen": fen},
        "play": {"variant": variant, "fen": Field(text(MAX_FEN), required=True), **move},
        "engine-move": {"variant": variant, "fen": Field(text(MAX_FEN), required=True), **engine},
        "analyse": {
            "variant": variant,
            "fen": Field(text(MAX_FEN), required=True),
            "multipv": Field(whole(1, MAX_MULTIPV), default=3),
            "depth": Field(whole(1, MAX_DEPTH)),
            "time": Field(number(0, max_time)),
        },
        "compare": {"variants": Field(names(), required=True), "fen": fen, "all": Field(flag, default=False)},
        "endgame": {"variant": variant, "ruleset": variant, "fen": Field(text(MAX_FEN), required=True)},
        "explorer": {"variant": variant, "fen": Field(text(MAX_FEN), required=True)},
        "game-new": {"variant": variant, "fen": fen, "clock": clock, **view},
        "game-view": view,
        "game-move": {**move, **version, **view},
        "game-step": {**version, **view},
        "game-goto": {"ply": Field(whole(0, max_plies), required=True), **version, **view},
        "game-engine": {**engine, **version, **view},
        "game-pdn": {"pdn": Field(text(MAX_PDN), required=True), "variant": variant, **view},
        "pdn-tree": {"pdn": Field(text(MAX_PDN), required=True), "variant": variant},
        "pdn-tree-export": {
            "variant": variant,
            "start": fen,
            "nodes": Field(tree_nodes, required=True),
            "headers": Field(tags, default={}),
            "result": Field(text(8, choices=sorted(STANDARD_RESULTS)), default="*"),
        },
        "openings": {"variant": variant, "ballot": Field(text())},
        "game-opening": {
            "ballot": Field(text(), required=True),
            "opening": Field(text(), required=True),
            "variant": variant,
            **view,
        },
        "board-page": {"variant": variant, "fen": fen, **view, **players, **engine, "clock": clock},
        "lab": {
            "variants": Field(names(1, 12), required=True),
            "games": Field(whole(1, MAX_WHOLE), default=20),
            "players": Field(player(("random", "depth"), choices=LAB_PLAYERS), default=PlayerSpec("random")),
            "seed": Field(whole(0, MAX_WHOLE), default=0),
            "max_plies": Field(whole(1, MAX_WHOLE), default=300),
        },
        "compare-page": {"variants": Field(names(0, 12)), "fen": fen, "all": Field(flag, default=False)},
    }
