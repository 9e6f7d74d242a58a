"""The token stream cut into raw games: tag sections, movetexts and their terminators."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import attrs

from draughts.pdn.lexer import Token
from draughts.results import STANDARD_RESULTS, normalise_result

__all__ = ["MAX_BODY_TOKENS", "RawGame", "is_terminator", "raw_games"]

_TERMINATOR = re.compile(r"(?:[012]|1/2|½)[-:](?:[012]|1/2|½)")
"""The shape of every result in :data:`~draughts.results.STANDARD_RESULTS` but ``*``, written as one word."""

MAX_BODY_TOKENS = 100_000
"""Movetext tokens (moves, move numbers, NAGs, comments, variation brackets, side lines included)
kept per game: about 30,000 moves, a hundred times the longest real games. The rest of a longer game
is read and dropped, so one huge game costs bounded memory; its replay then reports the first bad
move of the part kept, or that the game is too long."""


@attrs.define
class RawGame:
    """One game as the token stream gives it, before its moves are replayed.

    Attributes:
        tags: ``(name, value, line)`` in file order.
        body: The movetext's tokens (at most :data:`MAX_BODY_TOKENS`).
        preamble: Comments before the first tag.
        terminator: The result token that ended the movetext, if any.
        error: The first syntax error in the game, if any.
        line: The game's first line.
        has_words: Whether the movetext has words (moves, numbers), not only comments.
        depth: Variations open at the last token (a result inside a variation does not end the game).
        tags_closed: Whether a blank line ended the tag section.
        dropped: Movetext tokens past :data:`MAX_BODY_TOKENS`, read and not kept.
        names: The tag names seen, to tell a repeated tag (which starts a new game) at once.
    """

    tags: list[tuple[str, str, int]] = attrs.field(factory=list)
    body: list[Token] = attrs.field(factory=list)
    preamble: list[str] = attrs.field(factory=list)
    terminator: Token | None = None
    error: Token | None = None
    line: int = 0
    has_words: bool = False
    depth: int = 0
    tags_closed: bool = False
    dropped: int = 0
    names: set[str] = attrs.field(factory=set)

    def headers(self) -> dict[str, str]:
        return {name: value for name, value, _ in self.tags}

    def add_tag(self, token: Token) -> None:
        if not self.tags:
            self.line = token.line
        self.tags.append((token.text, token.value, token.line))
        self.names.add(token.text)

    def add_body(self, token: Token) -> None:
        if len(self.body) < MAX_BODY_TOKENS:
            self.body.append(token)
        else:
            self.dropped += 1
        if token.kind == "word":
            self.has_words = True
        elif token.kind == "open":
            self.depth += 1
        elif token.kind == "close":
            self.depth -= 1


def is_terminator(word: str) -> bool:
    """Whether a movetext word is a result that ends the game (``2-0``, ``1/2-1/2``, ``*``), not a move."""
    if word == "*":
        return True
    if not _TERMINATOR.fullmatch(word):  # most words (moves such as 32-28) stop here, cheaply
        return False
    return normalise_result(word) in STANDARD_RESULTS


def raw_games(tokens: Iterable[Token]) -> Iterator[RawGame]:
    """The games of a token stream, one at a time; each token is looked at once (linear in the input)."""
    current = RawGame()
    for token in tokens:
        kind = token.kind
        if kind == "word":  # most tokens: kept in the body unless a result ends the game here
            if not current.line:
                current.line = token.line
            if not current.depth and is_terminator(token.text):
                current.terminator = token
                yield current
                current = RawGame()
                continue
            if len(current.body) < MAX_BODY_TOKENS:
                current.body.append(token)
            else:
                current.dropped += 1
            current.has_words = True
            continue
        if kind == "blank":
            current.tags_closed = bool(current.tags)
            continue
        if kind == "tag":
            # A new game starts at a tag after the movetext, after a blank line that ended a tag
            # section, or at a tag the section already has: a game with tags only is a game.
            starts = current.has_words or current.error or (current.tags and current.body) or current.tags_closed
            if starts or token.text in current.names:
                yield current
                current = RawGame()
            elif not current.tags and current.body:
                current.preamble = [t.text for t in current.body if t.kind == "comment"]
                current.body, current.dropped, current.depth = [], 0, 0
            current.add_tag(token)
            continue
        if not current.line:
            current.line = token.line
        if kind == "error":
            if current.error is None:
                current.error = token
            continue
        current.add_body(token)
    if current.tags or current.has_words or current.error:
        yield current
