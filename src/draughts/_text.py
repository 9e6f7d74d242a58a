"""Small helpers for reading and quoting user text, shared by every parser.

Two hazards of text input are handled here once: CPython refuses to convert a digit string of
more than 4,300 characters to an int (a plain ``ValueError``), and a message that quotes a whole
megabyte of bad input is useless. Parsers convert numbers with :func:`number` and quote input
with :func:`excerpt`.
"""

from __future__ import annotations

_MAX_DIGITS = 18
"""Significant digits :func:`number` converts; every count or square of the library is far shorter."""

EXCERPT = 80
"""Characters of a long input quoted in an error message."""


def number(digits: str) -> int | None:
    """The value of an ASCII digit string, or None when it is not one or is absurdly large.

    Leading zeros are ignored (``"0031"`` is 31), so a long run of them is harmless; a value with
    more than 18 significant digits gives None instead of CPython's int-conversion error.
    """
    if not digits.isascii() or not digits.isdigit():
        return None
    significant = digits.lstrip("0")
    if len(significant) > _MAX_DIGITS:
        return None
    return int(significant or "0")


def excerpt(text: object, limit: int = EXCERPT) -> str:
    """``repr(text)``, shortened to about ``limit`` characters with the length said, for messages."""
    if isinstance(text, str) and len(text) > limit:
        half = limit // 2
        return f"{text[:half]!r}...{text[-half // 2 :]!r} ({len(text):,} characters)"
    shown = repr(text)
    if len(shown) > limit + 20:
        return f"{shown[:limit]}... ({len(shown):,} characters)"
    return shown
