"""The token stream cut into raw games: tag sections, movetexts and their terminators."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import attrs

from draughts.pdn.lexer import Token
from draughts.results import STANDARD_RESULTS, normalise_result


@attrs.define
class RawGame:
    tags: list[tuple[str, str, int]] = attrs.field(factory=list)
    body: list[Token] = attrs.field(factory=list)
    preamble: list[str] = attrs.field(factory=list)
    terminator: Token | None = None
    error: Token | None = None
    line: int = 0
    has_words: bool = False
    tags_closed: bool = False

    def headers(self) -> dict[str, str]:
        return {name: value for name, value, _ in self.tags}


def is_terminator(word: str) -> bool:
    """Whether a movetext word is a result that ends the game (``2-0``, ``1/2-1/2``, ``*``), not a move."""
    if word == "*":
        return True
    if not re.fullmatch(r"[0-9/½:-]+", word):
        return False
    return normalise_result(word) in STANDARD_RESULTS


def raw_games(tokens: Iterable[Token]) -> Iterator[RawGame]:
    current = RawGame()
    for token in tokens:
        if token.kind == "blank":
            current.tags_closed = bool(current.tags)
            continue
        if token.kind == "tag":
            # A new game starts at a tag after the movetext, after a blank line that ended a tag
            # section, or at a tag the section already has: a game with tags only is a game.
            repeated = any(name == token.text for name, _, _ in current.tags)
            if current.has_words or current.error or (current.tags and current.body) or current.tags_closed:
                repeated = True
            if repeated:
                yield current
                current = RawGame()
            elif not current.tags and current.body:
                current.preamble = [t.text for t in current.body if t.kind == "comment"]
                current.body = []
            if not current.tags:
                current.line = token.line
            current.tags.append((token.text, token.value, token.line))
            continue
        if not current.line:
            current.line = token.line
        if token.kind == "error":
            if current.error is None:
                current.error = token
            continue
        if token.kind == "word" and is_terminator(token.text):
            current.terminator = token
            yield current
            current = RawGame()
            continue
        current.body.append(token)
        if token.kind == "word":
            current.has_words = True
    if current.tags or current.has_words or current.error:
        yield current


# --- games: from tokens to a replayed Game -----------------------------------------------------
