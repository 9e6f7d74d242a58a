"""Text a PDN file can hold: every string of a game must encode as UTF-8, so no lone surrogates.

A lone surrogate (U+D800 to U+DFFF, half of a UTF-16 pair) can sit in a Python string (from a
JSON body, ``surrogateescape``, a text stream) but no file can hold it: UTF-8 refuses to encode it.
The reader refuses such a tag or comment as that game's error, and the writer refuses such a game
before it writes anything, each with :class:`~draughts.pdn.PDNTextError`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from draughts._text import excerpt

__all__ = ["lone_surrogate", "unwritable"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(text: str) -> str | None:
    """What is wrong with ``text`` for a PDN file (its first lone surrogate and where), or None."""
    found = _SURROGATE.search(text)
    if found is None:
        return None
    return (
        f"{excerpt(text)} holds a lone surrogate (U+{ord(found.group()):04X}) at character {found.start() + 1:,},"
        " which UTF-8, and so no PDN file, can hold"
    )


def unwritable(items: Iterable[tuple[str, str]]) -> str | None:
    """The first ``(what, text)`` item whose text no PDN file can hold, said in words; None if all can be."""
    for what, text in items:
        problem = lone_surrogate(text)
        if problem is not None:
            return f"{what} {problem}"
    return None
