"""Rulesets as files: a :class:`~draughts.Ruleset` written to and read from TOML or JSON.

A ruleset file holds one table whose keys are the ruleset's fields, so a variant can be defined,
kept and shared without writing Python, and every ``draughts`` command that takes a variant name
takes such a file too (``draughts perft pool.toml 6``)::

    name = "pool"
    title = "American pool checkers"
    base = "brazilian"          # every field not given is Brazilian draughts'
    first_to_move = "black"
    precedence = []             # free choice among captures

The values, field by field (every field of :class:`~draughts.Ruleset`, read from its attrs
fields, so a new field needs no change here):

* text, numbers and ``true``/``false`` as they are; ``"none"`` (or JSON ``null``) for a field
  that may be None (``king_move_limit``, ``pdn_gametype``, ``repetitions``);
* an enum by its member name in lower case: ``king_range = "flying"``, ``first_to_move = "black"``,
  ``numbering = "top_left"`` (case, ``-`` and spaces are forgiven when reading);
* :class:`~draughts.Directions` as a list of names: ``men_capture = ["diagonal"]``,
  ``["diagonal_forward", "orthogonal_sideways"]``;
* ``precedence`` as a list of criteria: a name (``"most_pieces"``, ``"with_king"``, ``"most_kings"``,
  ``"kings_earliest"``) or, for a criterion with parameters, a table
  ``{ criterion = "most_value", man = 100, king = 199 }``;
* ``draw_rules`` as a table, its ``move_counts`` and ``endgames`` as lists of tables with the
  fields of :class:`~draughts.MoveCountRule` and :class:`~draughts.EndgameRule` (materials as
  ``[kings, men]`` pairs).

``name`` and ``title`` are required. Without ``base`` every other field not given takes the
:class:`~draughts.Ruleset` default, as the constructor does; with ``base`` (a named variant,
alias or ``<name>-nfc``, never a file) it keeps the base variant's value, and a table
(``[draw_rules]``) changes only the keys it gives. A list always replaces the whole list.
Unknown keys and bad values are errors that name the field (``draw_rules.move_counts[0].moves``)
and quote the value; the ruleset's own constructor checks everything else.

The format follows the file's suffix (``.toml``, ``.json``) unless given. Reading TOML needs
Python 3.11 (the standard ``tomllib``); on 3.10 use JSON. Writing both needs nothing beyond the
standard library.

>>> import draughts
>>> text = draughts.ruleset_to_text(draughts.get_variant("italian"), "json")
>>> draughts.ruleset_from_text(text, "json") == draughts.get_variant("italian")
True
"""

from __future__ import annotations

import contextlib
import enum
import functools
import importlib
import os
import re
import sys
import types
import typing
from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from draughts._text import excerpt
from draughts.errors import DraughtsError, InvalidRulesetError, UnknownVariantError
from draughts.rules import Criterion, Ruleset
from draughts.rules.names import get_variant

__all__ = [
    "BASE_KEY",
    "FORMATS",
    "file_format",
    "load_ruleset",
    "resolve_ruleset",
    "ruleset_from_data",
    "ruleset_from_text",
    "ruleset_to_data",
    "ruleset_to_text",
    "save_ruleset",
]

FORMATS: Mapping[str, str] = types.MappingProxyType({".toml": "toml", ".json": "json"})
"""File suffix -> format name, for the formats a ruleset file may have."""

BASE_KEY = "base"
"""The key that starts a file from a named variant (not a field of :class:`~draughts.Ruleset`)."""

_NONE = "none"
"""How TOML, which has no null, writes None."""

_CRITERION_KEY = "criterion"
"""The key naming the criterion in a table of ``precedence``."""

_INLINE_WIDTH = 100
"""Longest line a list or table is written on in one piece."""

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


class _FieldError(Exception):
    """A bad value at ``where`` (a dotted field path), before the source is named."""

    def __init__(self, where: str, message: str, kind: type[DraughtsError] = InvalidRulesetError) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.kind = kind


# --- the data form: plain dicts, lists, text, numbers, booleans and None -------------------------


def ruleset_to_data(ruleset: Ruleset, *, base: str | Ruleset | None = None) -> dict[str, Any]:
    """``ruleset`` as plain data (a dict of JSON types, None for None), every field in field order.

    Args:
        ruleset: The ruleset.
        base: A named variant: write ``base`` and only the fields (and keys of tables) whose values
            differ from its, besides ``name`` and ``title``.

    Raises:
        UnknownVariantError: ``base`` is not a variant :func:`~draughts.get_variant` finds as it is.
        InvalidRulesetError: a text field holds characters no file can store (lone surrogates).
    """
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"ruleset_to_data needs a draughts.Ruleset, not {type(ruleset).__name__}")
    data: dict[str, Any] = _encode(ruleset)
    if base is None:
        return data
    start = _base_ruleset(base)
    different = _difference(data, _encode(start))
    return {BASE_KEY: start.name, "name": data["name"], "title": data["title"], **different}


def ruleset_from_data(data: Mapping[str, Any], *, source: str | None = None) -> Ruleset:
    """The ruleset that ``data`` (as :func:`ruleset_to_data` writes it, or a file's table) describes.

    Args:
        data: The fields, and optionally :data:`BASE_KEY`.
        source: Where the data comes from (a file name), to begin error messages with.

    Raises:
        InvalidRulesetError: an unknown key, a missing ``name`` or ``title``, or a bad value (the
            message names the field and quotes the value).
        UnknownVariantError: ``base`` names no variant.
    """
    try:
        if not isinstance(data, Mapping):
            raise _FieldError("", f"a ruleset is a table of fields, not {excerpt(data)}")
        fields = dict(data)
        _check_keys(Ruleset, fields, "")
        start = None
        if BASE_KEY in fields:
            start = _named_base(fields.pop(BASE_KEY))
        missing = [name for name in ("name", "title") if name not in fields]
        if missing:
            raise _FieldError("", f"a ruleset file must give {' and '.join(missing)}")
        built: Ruleset = _build(Ruleset, fields, "", start)
        return built
    except _FieldError as error:
        raise error.kind(f"{source}: {error}" if source else str(error)) from None


def _base_ruleset(base: str | Ruleset) -> Ruleset:

    start = get_variant(base)
    try:
        same = get_variant(start.name) == start
    except UnknownVariantError:
        same = False
    if not same:
        raise UnknownVariantError(f"base {start.name!r} is not a named variant (get_variant cannot find it)")
    return start


def _named_base(value: object) -> Ruleset:

    if not isinstance(value, str):
        raise _FieldError(BASE_KEY, f"{excerpt(value)} must be the name of a variant")
    try:
        return get_variant(value)
    except UnknownVariantError as error:
        raise _FieldError(BASE_KEY, str(error), UnknownVariantError) from None


def _difference(data: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """The keys of ``data`` whose values differ from ``base``'s; tables (dicts) by their keys."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in base and value == base[key]:
            continue
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            out[key] = _difference(value, base[key])
        else:
            out[key] = value
    return out


# --- writing values -------------------------------------------------------------------------------


def _encode(value: Any) -> Any:
    """``value`` as plain data: enums by name, flags as lists of names, attrs objects as dicts."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, enum.Flag):
        return _flag_names(value)
    if isinstance(value, enum.Enum):
        return str(value.name).lower()
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidRulesetError(f"{excerpt(value)} cannot be written to a file: not valid Unicode") from None
        return value
    if isinstance(value, Criterion):
        name = _criterion_name(type(value))
        if not _init_fields(type(value)):
            return name
        return {_CRITERION_KEY: name, **_encode_fields(value)}
    if attrs.has(type(value)):
        return _encode_fields(value)
    if isinstance(value, (tuple, list)):
        return [_encode(item) for item in value]
    raise TypeError(f"a ruleset file cannot hold {type(value).__name__} values ({excerpt(value)})")


def _encode_fields(value: Any) -> dict[str, Any]:
    return {field.name: _encode(getattr(value, field.name)) for field in _init_fields(type(value))}


def _flag_names(value: enum.Flag) -> list[str]:
    """The fewest member names whose union is ``value``, the widest first (``["diagonal"]``)."""
    members = sorted(type(value).__members__.items(), key=lambda item: -_bits(item[1]))
    names, rest = [], value
    for name, member in members:
        if member.value and member & rest == member:
            names.append(name.lower())
            rest &= ~member
    return names


def _bits(member: enum.Flag) -> int:
    return bin(int(member.value)).count("1")


# --- reading values -------------------------------------------------------------------------------


def _build(kind: type, value: object, where: str, base: Any = None) -> Any:
    """An instance of the attrs class ``kind`` from the table ``value`` (on top of ``base``)."""
    if not isinstance(value, Mapping):
        raise _FieldError(where, f"{excerpt(value)} must be a table of {kind.__name__} fields")
    fields = {field.name: field for field in _init_fields(kind)}
    _check_keys(kind, value, where)
    hints = _hints(kind)
    arguments: dict[str, Any] = {}
    for key, item in value.items():
        field = fields[key]
        inner = getattr(base, key) if base is not None else None
        arguments[field.alias or field.name] = _decode(item, hints[key], f"{where}.{key}" if where else key, inner)
    if base is None:
        missing = [name for name, field in fields.items() if field.default is attrs.NOTHING and name not in value]
        if missing:
            raise _FieldError(where, f"{kind.__name__} needs {', '.join(missing)}")
    try:
        return attrs.evolve(base, **arguments) if base is not None else kind(**arguments)
    except InvalidRulesetError as error:
        raise _FieldError(where, str(error)) from None


def _decode(value: object, kind: Any, where: str, base: Any = None) -> Any:
    """``value`` read as the annotated type ``kind``; scalars go to the constructor's checks as they are."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = [option for option in typing.get_args(kind) if option is not type(None)]
        if len(options) != len(typing.get_args(kind)) and (value is None or _is_none(value)):
            return None
        kind = options[0] if len(options) == 1 else Any
        origin = typing.get_origin(kind)
    if value is None:
        raise _FieldError(where, "has no value (null is for fields that may be None)")
    if origin is tuple:
        return _decode_tuple(value, typing.get_args(kind), where)
    if not isinstance(kind, type):
        return value
    if issubclass(kind, enum.Flag):
        return _decode_flag(value, kind, where)
    if issubclass(kind, enum.Enum):
        return _member(value, kind, where)
    if issubclass(kind, Criterion):
        return _decode_criterion(value, where)
    if attrs.has(kind):
        return _build(kind, value, where, base)
    return value


def _is_none(value: object) -> bool:
    return isinstance(value, str) and value.strip().lower() == _NONE


def _decode_tuple(value: object, items: tuple[Any, ...], where: str) -> tuple[Any, ...]:
    if not isinstance(value, (list, tuple)):
        raise _FieldError(where, f"{excerpt(value)} must be a list")
    if len(items) == 2 and items[1] is Ellipsis:
        return tuple(_decode(item, items[0], f"{where}[{index}]") for index, item in enumerate(value))
    if len(items) != len(value):  # a fixed-size tuple of the wrong size: the constructor says what it needs
        return tuple(value)
    return tuple(
        _decode(item, kind, f"{where}[{index}]") for index, (item, kind) in enumerate(zip(value, items, strict=True))
    )


def _names(kind: type[enum.Enum]) -> dict[str, enum.Enum]:
    return {name.lower(): member for name, member in kind.__members__.items()}


def _member(value: object, kind: type[enum.Enum], where: str) -> enum.Enum:
    names = _names(kind)
    member = names.get(re.sub(r"[\s-]+", "_", value.strip().lower())) if isinstance(value, str) else None
    if member is None:
        raise _FieldError(where, f"{excerpt(value)} is not one of {', '.join(names)}")
    return member


def _decode_flag(value: object, kind: type[enum.Flag], where: str) -> enum.Flag:
    parts = [value] if isinstance(value, str) else value
    if not isinstance(parts, (list, tuple)):
        raise _FieldError(where, f"{excerpt(value)} must be a list of names among {', '.join(_names(kind))}")
    result = kind(0)
    for index, part in enumerate(parts):
        member = _member(part, kind, where if isinstance(value, str) else f"{where}[{index}]")
        result |= typing.cast(enum.Flag, member)
    return result


def _decode_criterion(value: object, where: str) -> Criterion:
    known = _criteria()
    if isinstance(value, Mapping):
        fields = dict(value)
        name = fields.pop(_CRITERION_KEY, None)
        if name is None:
            raise _FieldError(where, f"a criterion table needs {_CRITERION_KEY} = one of {', '.join(known)}")
    else:
        name, fields = value, {}
    kind = known.get(name.strip().lower()) if isinstance(name, str) else None
    if kind is None:
        raise _FieldError(where, f"{excerpt(name)} is not a criterion; the criteria are {', '.join(known)}")
    if not _init_fields(kind) and not fields:
        return kind()
    criterion: Criterion = _build(kind, fields, where)
    return criterion


def _check_keys(kind: type, table: Mapping[Any, Any], where: str) -> None:
    """Raise for the first key of ``table`` that is no field of ``kind`` (suggesting the closest one)."""
    keys = [field.name for field in _init_fields(kind)]
    if kind is Ruleset:
        keys.append(BASE_KEY)
    for key in table:
        if key not in keys:
            import difflib

            close = difflib.get_close_matches(key, keys, n=1) if isinstance(key, str) else []
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise _FieldError(where, f"unknown key {excerpt(key)}{hint}")


@functools.cache
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)


def _init_fields(kind: type) -> tuple[attrs.Attribute[Any], ...]:
    if not attrs.has(kind):
        return ()
    return tuple(field for field in attrs.fields(kind) if field.init)


def _criterion_name(kind: type) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", kind.__name__).lower()


def _criteria() -> dict[str, type[Criterion]]:
    """Every criterion class defined so far, by its file name (``MostPieces`` = ``most_pieces``)."""
    found: dict[str, type[Criterion]] = {}

    def walk(kind: type[Criterion]) -> Iterator[type[Criterion]]:
        for sub in kind.__subclasses__():
            yield sub
            yield from walk(sub)

    # attrs' slotted classes replace the class a decorator was given; the replaced one stays among
    # __subclasses__ until the cyclic garbage collector frees it (when depends on unrelated
    # allocations), so of one definition (same module and qualified name) the last made is kept.
    latest: dict[tuple[str, str], type[Criterion]] = {}
    for kind in walk(Criterion):
        latest[(kind.__module__, kind.__qualname__)] = kind
    for kind in latest.values():
        found.setdefault(_criterion_name(kind), kind)
    return found


# --- text: TOML and JSON --------------------------------------------------------------------------


def _format(format: str | None, path: str | os.PathLike[str] | None = None) -> str:
    if format is None:
        found = file_format(path) if path is not None else None
        if found is None:
            raise DraughtsError(
                f"cannot tell the format of {excerpt(os.fspath(path) if path is not None else path)}: "
                f"name it .toml or .json, or pass format='toml' or 'json'"
            )
        return found
    if format not in FORMATS.values():
        raise DraughtsError(f"format {excerpt(format)} must be 'toml' or 'json'")
    return format


def file_format(path: str | os.PathLike[str]) -> str | None:
    """The format a ruleset file's suffix says (``"toml"``, ``"json"``), None for another suffix.

    The command line treats an argument with one of these suffixes as a file, anything else as a
    variant name.

    >>> file_format("pool.TOML"), file_format("russian")
    ('toml', None)
    """
    return FORMATS.get(os.path.splitext(os.fspath(path))[1].lower())


def ruleset_to_text(ruleset: Ruleset, format: str = "toml", *, base: str | Ruleset | None = None) -> str:
    """``ruleset`` as the text of a ruleset file.

    Args:
        ruleset: The ruleset.
        format: ``"toml"`` (with a comment naming each field's meaning and choices) or ``"json"``.
        base: Write only what differs from this named variant (see :func:`~draughts.rules.files.ruleset_to_data`).
    """
    chosen = _format(format)
    data = ruleset_to_data(ruleset, base=base)
    if chosen == "json":
        return _json(data, 0) + "\n"
    return _toml(data)


def ruleset_from_text(text: str, format: str = "toml", *, source: str | None = None) -> Ruleset:
    """The ruleset a ruleset file's text describes.

    Raises:
        InvalidRulesetError: the text is not valid TOML or JSON, or describes no valid ruleset
            (see :func:`~draughts.rules.files.ruleset_from_data`).
        UnknownVariantError: its ``base`` names no variant.
        DraughtsError: TOML on Python 3.10, which has no TOML reader.
    """
    if not isinstance(text, str):
        raise TypeError(f"ruleset_from_text needs text, not {type(text).__name__}")
    chosen = _format(format)
    prefix = f"{source}: " if source else ""
    try:
        data: Any = _read_json(text) if chosen == "json" else _read_toml(text)
    except RecursionError:
        raise InvalidRulesetError(f"{prefix}not valid {chosen.upper()}: nested too deeply") from None
    except ValueError as error:  # TOMLDecodeError, JSONDecodeError, and digit strings too long for int()
        reason = "a number has too many digits" if "integer string conversion" in str(error) else error
        raise InvalidRulesetError(f"{prefix}not valid {chosen.upper()}: {reason}") from None
    return ruleset_from_data(data, source=source)


def save_ruleset(
    ruleset: Ruleset,
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    base: str | Ruleset | None = None,
) -> None:
    """Write ``ruleset`` to a ruleset file (UTF-8), in the format of its suffix unless ``format`` says.

    >>> import os, tempfile, draughts
    >>> path = os.path.join(tempfile.mkdtemp(), "czech.toml")
    >>> draughts.save_ruleset(draughts.get_variant("czech"), path)
    >>> draughts.load_ruleset(path) == draughts.get_variant("czech")
    True

    Raises:
        DraughtsError: no ``format`` and the suffix is neither ``.toml`` nor ``.json``.
        OSError: the file cannot be written.
    """
    text = ruleset_to_text(ruleset, _format(format, path), base=base)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def load_ruleset(path: str | os.PathLike[str], *, format: str | None = None) -> Ruleset:
    """Read a ruleset file, in the format of its suffix unless ``format`` says.

    Raises:
        InvalidRulesetError: the file is not UTF-8 text, not valid TOML or JSON, or describes no
            valid ruleset; the message begins with the path and names the field.
        UnknownVariantError: its ``base`` names no variant.
        DraughtsError: no ``format`` and an unknown suffix; or TOML on Python 3.10.
        OSError: the file cannot be read.
    """
    chosen = _format(format, path)
    name = os.fspath(path)
    with open(path, "rb") as handle:
        raw = handle.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InvalidRulesetError(f"{name}: not UTF-8 text (byte {error.start})") from None
    return ruleset_from_text(text, chosen, source=name)


def _read_json(text: str) -> object:
    import json

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        table: dict[str, Any] = {}
        for key, value in items:
            if key in table:
                raise ValueError(f"the key {excerpt(key)} appears twice in one object")
            table[key] = value
        return table

    def constant(name: str) -> None:
        raise ValueError(f"{name} is not a number a ruleset can hold")

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except json.JSONDecodeError as error:
        raise ValueError(f"{error.msg} (line {error.lineno}, column {error.colno})") from None


def _read_toml(text: str) -> object:
    try:
        tomllib = importlib.import_module("tomllib")
    except ImportError:
        raise DraughtsError(
            "reading a TOML ruleset needs Python 3.11 or newer (tomllib); write it as JSON instead"
        ) from None
    data: object = tomllib.loads(text)
    return data


def _json(value: Any, indent: int) -> str:
    """Indented JSON with each list or nested object on one line where it fits."""
    import json

    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or not value or (indent and len(flat) + indent <= _INLINE_WIDTH):
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [
            f"{pad}{json.dumps(key, ensure_ascii=False)}: {_json(item, indent + 2)}" for key, item in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    return "[\n" + ",\n".join(pad + _json(item, indent + 2) for item in value) + "\n" + " " * indent + "]"


def _toml(data: dict[str, Any]) -> str:
    lines = [
        "# A polydraughts ruleset: draughts.load_ruleset() reads it, and every draughts command",
        '# takes it for a variant (draughts perft FILE 6). "none" means no value.',
    ]
    _toml_table(data, (), lines)
    return "\n".join(lines) + "\n"


def _toml_table(table: dict[str, Any], path: tuple[str, ...], lines: list[str]) -> None:
    later: list[tuple[str, Any]] = []
    for key, value in table.items():
        if isinstance(value, dict) or _array_of_tables(value):
            later.append((key, value))
            continue
        comment = _comment(key) if not path else None
        if comment:
            lines.extend(("", f"# {comment}"))
        lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    for key, value in later:
        name = ".".join(_toml_key(part) for part in (*path, key))
        if isinstance(value, dict):
            lines.extend(("", f"[{name}]"))
            _toml_table(value, (*path, key), lines)
        else:
            for item in value:
                lines.extend(("", f"[[{name}]]"))
                _toml_table(item, (*path, key), lines)


def _array_of_tables(value: Any) -> bool:
    """Whether a list is written as ``[[name]]`` tables: a list of tables too long for one line."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(item, dict) for item in value)
        and len(_toml_value(value)) > _INLINE_WIDTH
    )


def _toml_value(value: Any) -> str:
    if value is None:
        return _toml_string(_NONE)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_toml_key(key)} = {_toml_value(item)}" for key, item in value.items()) + " }"
    raise TypeError(f"TOML cannot hold {type(value).__name__} values here ({excerpt(value)})")


_TOML_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped, the rest as it is."""
    out = []
    for char in text:
        escaped = _TOML_ESCAPES.get(char)
        if escaped is None and (char < " " or char == "\x7f"):
            escaped = f"\\u{ord(char):04x}"
        out.append(escaped or char)
    return '"' + "".join(out) + '"'


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _toml_string(key)


def _comment(key: str) -> str | None:
    """The comment above a ruleset field in TOML: its label and, for names, the choices."""
    if key == BASE_KEY:
        return "The named variant this one changes (fields not given are its)"
    fields = {field.name: field for field in _init_fields(Ruleset)}
    field = fields.get(key)
    if field is None:
        return None
    label = str(field.metadata.get("label", key))
    kind = _hints(Ruleset).get(key)
    if key == "board_size":
        return f"{label}: squares per side, or [width, height] (files, ranks) for a rectangle"
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        return f"{label} (or none)"
    if isinstance(kind, type) and issubclass(kind, enum.Flag):
        return f"{label}: a list of {', '.join(_names(kind))}"
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return f"{label}: {' | '.join(_names(kind))}"
    if typing.get_args(kind)[:1] == (Criterion,):
        choices = []
        for name, criterion in _criteria().items():
            if _init_fields(criterion):
                choices.append(_toml_value(_encode(criterion())) if _constructible(criterion) else name)
            else:
                choices.append(name)
        return f"{label}, most important first (empty: free choice): a list of {', '.join(choices)}"
    return label


def _constructible(kind: type) -> bool:
    return all(field.default is not attrs.NOTHING for field in _init_fields(kind))


# --- resolve_ruleset: every way a user names a ruleset -------------------------------------
#
# Which ruleset? The one resolver of every way a user may name a ruleset.
#
# Every command of ``draughts``, the web board and the Hub turn what a user wrote into a
# :class:`~draughts.Ruleset` through :func:`resolve_ruleset`, so each accepts the same forms:
#
# * a :class:`~draughts.Ruleset` itself;
# * a variant name, alias, transform suffix (``russian-nfc-losing``) or PDN GameType
#   (``25``, ``20,W,10,10,N2,0``): :func:`~draughts.get_variant`;
# * a path ending in ``.toml`` or ``.json`` (text or :class:`os.PathLike`): a ruleset file
#   (:func:`~draughts.load_ruleset`);
# * ``module:attribute`` (``mypackage.rules:POOL``, the attribute may be dotted): a
#   :class:`~draughts.Ruleset` object of an importable module; a module in the current directory
#   is importable even when Python was not started there (the ``draughts`` script).
#
# Text that arrives over a network (a web request, a Hub ``set-param``) is resolved with
# ``trusted=False``: names only, never a file to read or a module to import.
#

_OBJECT = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)")
"""``module:attribute``: dotted Python identifiers on both sides of one colon."""

LONGEST_SPEC = 4096
"""The longest text taken as a path or ``module:attribute`` (a name is bounded far lower, by
:data:`draughts.rules.names.LONGEST_NAME`)."""


def resolve_ruleset(spec: Ruleset | str | os.PathLike[str], *, trusted: bool = True) -> Ruleset:
    """The ruleset ``spec`` names, in any of the forms the module docstring lists.

    Args:
        spec: A ruleset, a name (alias, transform suffixes, GameType), a ruleset file's path or
            ``module:attribute``.
        trusted: False for text from a request or the wire: only names are looked up, and a path
            or ``module:attribute`` is refused without reading or importing anything.

    Raises:
        UnknownVariantError: ``spec`` names no ruleset, its file cannot be read, its module cannot
            be imported or its attribute is no ruleset; the message quotes it and says why.
        InvalidRulesetError: the ruleset file describes no valid ruleset.
    """
    if isinstance(spec, Ruleset):
        return spec
    if isinstance(spec, os.PathLike) and not isinstance(spec, str):
        spec = os.fspath(spec)
    if not isinstance(spec, str):
        raise UnknownVariantError(f"ruleset {excerpt(spec)} is not a name, a path or 'module:attribute'")
    text = spec.strip()
    is_file = len(text) <= LONGEST_SPEC and file_format(text) is not None
    if not trusted and (is_file or ":" in text):
        raise UnknownVariantError(
            f"unknown variant {excerpt(spec)}: only names are accepted here (a request cannot import a module "
            "or read a file)"
        )
    if is_file:
        return _from_file(text)
    if ":" not in text:
        return get_variant(text)
    return _from_object(text)


def _from_file(path: str) -> Ruleset:
    try:
        return load_ruleset(path)
    except OSError as error:
        raise UnknownVariantError(
            f"ruleset {excerpt(path)}: cannot read the file ({error.strerror or error})"
        ) from None


def _from_object(text: str) -> Ruleset:
    """The :class:`~draughts.Ruleset` at ``module:attribute``."""
    match = _OBJECT.fullmatch(text) if len(text) <= LONGEST_SPEC else None
    if match is None:
        raise UnknownVariantError(
            f"ruleset {excerpt(text)} is neither a variant name nor a Python object 'module:attribute'"
        )
    module_name, attribute = match.groups()
    try:
        with _current_directory_importable():
            value: object = importlib.import_module(module_name)
    except ImportError as error:
        raise UnknownVariantError(f"ruleset {excerpt(text)}: cannot import {module_name!r} ({error})") from None
    for part in attribute.split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            raise UnknownVariantError(
                f"ruleset {excerpt(text)}: {module_name!r} has no attribute {attribute!r}"
            ) from None
    if not isinstance(value, Ruleset):
        raise UnknownVariantError(f"ruleset {excerpt(text)} is a {type(value).__name__}, not a draughts.Ruleset")
    return value


@contextlib.contextmanager
def _current_directory_importable() -> Iterator[None]:
    """The current directory on the import path while one import runs (as ``python -m`` has it).

    It goes last, so a file there never hides an installed module of the same name, and it is
    taken off again afterwards.
    """
    here = os.getcwd()
    if "" in sys.path or here in sys.path:
        yield
        return
    importlib.invalidate_caches()  # a module written since the interpreter started is found
    sys.path.append(here)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(here)
