"""The Hub line codec: ``<command> <name>=<value> <flag> ...`` read and written, and the numbers in values.

Both sides of the protocol use it: the client (``draughts.hub.client``) reads the engine's
lines leniently and writes its own with :func:`format_line`; the server
(``draughts.hub.server``) reads every line strictly, so that a malformed one is answered with
``error``. The number readers accept only what every engine writes (ASCII digits, plain
decimals) and refuse the rest with a :class:`~draughts.errors.DraughtsError` that quotes a
bounded excerpt: huge values, negatives where they make no sense, NaN, infinities and digits
such as ``²`` that :func:`int` would take.
"""

from __future__ import annotations

import math
import re

from draughts._text import excerpt, number
from draughts.engine import InvalidLimitError
from draughts.errors import HubError

__all__ = ["format_line", "parse_line"]

_NAME = re.compile(r'[^\s="]+')
_UNQUOTED = re.compile(r'[^\s"]*')

MAX_COUNT = 10**18 - 1
"""The largest depth, node count or number of moves written on a line: what the readers here take
(18 digits), and more than any search reaches."""
MAX_SECONDS = 10.0**9
"""The most seconds written on a line (about 31 years): a longer time is no limit in practice."""
_SECONDS = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")
_SECONDS_LENGTH = 40
"""The longest text read as seconds: plain decimals are far shorter."""


def _skip_blank(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def _argument(text: str, position: int) -> tuple[str, str, int]:
    """``(name, value, end)`` of the argument at ``position``; HubError if none starts there or its quote is open."""
    name = _NAME.match(text, position)
    if name is None:
        raise HubError(f"{text[position]!r} at character {position + 1} starts no argument")
    position = name.end()
    value = ""
    if text.startswith("=", position):
        position += 1
        if text.startswith('"', position):
            closing = text.find('"', position + 1)
            if closing < 0:
                raise HubError(f"the quoted value of {excerpt(name.group())} is not closed")
            value = text[position + 1 : closing]
            position = closing + 1
        else:
            unquoted = _UNQUOTED.match(text, position)
            assert unquoted is not None  # [^...]* matches everywhere
            value = unquoted.group()
            position = unquoted.end()
    return name.group(), value, position


def parse_line(line: str, *, strict: bool = True) -> tuple[str, dict[str, str]]:
    """``(command, {argument: value})`` of a Hub line; a flag's value is ``""``.

    >>> parse_line('info depth=3 score=0.1 pv="32-28 19-23" stop')
    ('info', {'depth': '3', 'score': '0.1', 'pv': '32-28 19-23', 'stop': ''})

    Args:
        line: The line (surrounding white space, a line end included, is ignored).
        strict: Raise on a malformed line. With False, what parses is returned and the rest is
            dropped, as a reader that ignores what it does not understand may prefer.

    Raises:
        HubError: (``strict`` only) a quoted value is not closed, or something other than
            ``name`` or ``name=value`` stands where an argument should.
    """
    text = line.strip()
    if not text:
        return "", {}
    command = _NAME.match(text)
    if command is None:
        if strict:
            raise HubError(f"Hub line {excerpt(line)} does not start with a command")
        return "", {}
    args: dict[str, str] = {}
    position = _skip_blank(text, command.end())
    while position < len(text):
        try:
            name, value, position = _argument(text, position)
            args[name] = value  # kept by a lenient reader even when junk follows
            if position < len(text) and not text[position].isspace():
                raise HubError(f"{text[position]!r} at character {position + 1} follows {excerpt(name)}")
        except HubError as problem:
            if strict:
                raise HubError(f"Hub line {excerpt(line)} is malformed: {problem}") from None
            break
        position = _skip_blank(text, position)
    return command.group(), args


def _quote(value: object) -> str:
    # A line end or other control character inside a value would split or corrupt the line.
    text = "".join(" " if (ord(c) < 32 or ord(c) == 127) else c for c in str(value)).replace('"', "'")
    if not text or any(c.isspace() or c == "=" for c in text):
        return '"' + text + '"'
    return text


def format_line(command: str, *flags: str, **args: object) -> str:
    """A Hub line; argument names are written with ``-`` for ``_`` (``move_time`` -> ``move-time``).

    Arguments whose value is None are left out. A value with a space, ``=`` or nothing is quoted;
    a double quote inside a value becomes ``'`` and a control character (a line end) a space, so
    the result is always one well-formed line.

    >>> format_line("level", move_time=1.5)
    'level move-time=1.5'
    >>> print(format_line("error", message='bad "pos"'))
    error message="bad 'pos'"
    """
    parts = [command, *flags]
    parts.extend(f"{name.replace('_', '-')}={_quote(value)}" for name, value in args.items() if value is not None)
    return " ".join(parts)


# --- numbers in values ------------------------------------------------------------------------


def seconds_text(seconds: float) -> str:
    """Seconds as plain decimals (``1.5``, ``291.587``): every engine reads those, not all read ``1e-05``.

    More than :data:`MAX_SECONDS` is written as that many.
    """
    return f"{min(seconds, MAX_SECONDS):.3f}".rstrip("0").rstrip(".") or "0"


def count_text(count: int) -> str:
    """A whole number as digits, at most :data:`MAX_COUNT` (a larger one is written as that)."""
    return str(min(count, MAX_COUNT))


def read_count(name: str, text: str, *, least: int = 1) -> int:
    """The whole number ``name=text`` gives, ``least`` or more (ASCII digits only, at most 18 of them).

    Raises:
        InvalidLimitError: anything else (a sign, a fraction, ``²``, more than 18 digits).
    """
    value = number(text)
    if value is None or value < least:
        kind = "positive whole number" if least == 1 else f"whole number from {least} up"
        raise InvalidLimitError(f"{name}={excerpt(text)} is not a {kind} (ASCII digits, at most 18)")
    return value


def read_seconds(name: str, text: str, *, negative: bool = False) -> float:
    """The seconds ``name=text`` gives: a finite decimal such as ``1.5`` or ``2e-3``, 0 or more unless ``negative``.

    Raises:
        InvalidLimitError: not such a decimal (NaN, an infinity, ``²``, more than 40 characters,
            a value beyond the float range) or negative when that is not allowed.
    """
    value = float(text) if len(text) <= _SECONDS_LENGTH and _SECONDS.fullmatch(text) else math.nan
    if not math.isfinite(value) or (value < 0 and not negative):
        sign = "" if negative else ", 0 or more"
        raise InvalidLimitError(f"{name}={excerpt(text)} is not a number of seconds (a decimal such as 1.5{sign})")
    return value
