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

_PRINTABLE_BITS = 4000 * 3
"""Integers up to this many bits (about 3,600 digits) are printed; CPython refuses past 4,300 digits."""

_DIGITS_PER_BIT = 0.30103
"""log10(2): the decimal digits per bit of an integer."""


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
    """``repr(text)``, shortened to about ``limit`` characters with the length said, for messages.

    An integer too large to print (CPython refuses ``repr`` past 4,300 digits, with a plain
    ``ValueError``) is described by its size instead, so quoting it never fails.
    """
    if isinstance(text, str) and len(text) > limit:
        half = limit // 2
        return f"{text[:half]!r}...{text[-half // 2 :]!r} ({len(text):,} characters)"
    if isinstance(text, int) and text.bit_length() > _PRINTABLE_BITS:
        sign = "a negative" if text < 0 else "an"
        return f"{sign} integer of about {int(text.bit_length() * _DIGITS_PER_BIT):,} digits"
    try:
        shown = repr(text)
    except ValueError:  # an int inside a container, or a repr that refuses
        return f"<{type(text).__name__} that cannot be printed>"
    if len(shown) > limit + 20:
        return f"{shown[:limit]}... ({len(shown):,} characters)"
    return shown


def printable(text: str) -> str:
    """``text`` safe for a terminal: control characters (ESC, NUL, ...) and lone surrogates escaped.

    Names and titles come from users' ruleset files; printed raw, an ESC sequence in one would
    drive the terminal. Line breaks and tabs stay, so tables and paragraphs keep their shape.
    """
    if text.isprintable() or all(char.isprintable() or char in "\n\t" for char in text):
        return text
    return "".join(
        char if char.isprintable() or char in "\n\t" else repr(char)[1:-1] if ord(char) < 0x110000 else "?"
        for char in text
    )


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, the word in the plural unless the count is one: "1 ply", "3 plies".

    Every count the command line prints goes through here, so no line reads "1 tables built".

    Args:
        count: how many; printed with thousands separators.
        word: the singular.
        many: the plural where it is not ``word`` + "s" (``"plies"`` for ``"ply"``).
    """
    return f"{count:,} {word if count == 1 else many or word + 's'}"
