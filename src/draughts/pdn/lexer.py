"""Lexing: PDN lines into tokens (tags, comments, variation brackets, words, errors) with their line numbers.

The one tokenizer of PDN text: the main line and every variation, nested or not, are read by it in
one pass; nothing re-reads a variation's text.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterable, Iterator
from typing import NamedTuple

from draughts._text import excerpt

__all__ = ["Token", "collapse", "tokenize"]


class Token(NamedTuple):
    kind: str  # "tag", "comment", "open", "close", "word", "blank", "error"
    text: str  # tag name, comment text, word, "(" or ")", error message
    line: int
    value: str = ""  # tag value


_new = tuple.__new__
"""Tokens are made with ``tuple.__new__`` where there are many (words): NamedTuple's own ``__new__`` is a
Python function, a noticeable share of reading the tags of a large file."""

_SPLIT = 1 << 16
"""The longest stretch of words split into a list at once (``str.split`` and ``\\S+`` cut at the same spaces)."""

_TOP, _COMMENT = range(2)
_SPECIAL = re.compile(r"[{}()\[\]]")
_WORD = re.compile(r"\S+")
_PADDED = re.compile(r"([0-9][-x:×X])[ \t]+(?=[0-9])")
_PAREN_MARK = re.compile(r"\([!?]{1,3}\)")
_TAG_NAME = re.compile(r"[ \t]*([A-Za-z0-9_]+)[ \t]*")
_TAG_START = re.compile(r"[ \t]*\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]+\"[^\"]*\"[ \t]*\]")
"""A line that opens with a complete tag starts a tag section, even inside a comment or variation left open."""
_LOOSE_TAG = re.compile(r"\[[ \t]*([A-Za-z0-9_]+)[ \t]*\"(.*)\"[ \t]*\]")
_BARE_TAG = re.compile(r"\[[ \t]*([A-Za-z0-9_]+)[ \t]*([^\]]*)\]")


def _unescape(text: str) -> str:
    return re.sub(r"\\([\\\"])", r"\1", text)


def collapse(text: str) -> str:
    return " ".join(text.split())


def _parse_tag(line: str, start: int) -> tuple[str, str, int] | None:
    """``(name, value, end)`` for the tag opening at ``line[start] == "["``, or None."""
    name = _TAG_NAME.match(line, start + 1)
    if name is not None and name.end() < len(line) and line[name.end()] == '"':
        index = name.end() + 1
        chars = []
        while index < len(line):
            char = line[index]
            if char == "\\" and index + 1 < len(line) and line[index + 1] in '\\"':
                chars.append(line[index + 1])
                index += 2
                continue
            if char == '"':
                close = re.compile(r"[ \t]*\]").match(line, index + 1)
                if close is not None:
                    return name.group(1), "".join(chars), close.end()
                break
            chars.append(char)
            index += 1
    loose = _LOOSE_TAG.match(line, start)
    if loose is not None:
        return loose.group(1), _unescape(loose.group(2)), loose.end()
    bare = _BARE_TAG.match(line, start)
    if bare is not None:
        return bare.group(1), bare.group(2).strip().strip('"'), bare.end()
    return None


class _Lexer:
    """Tokens of PDN text fed line by line, in one pass: a variation is its ``open`` token, the tokens
    inside it (moves, comments, nested variations) and its ``close`` token; comments may span lines."""

    def __init__(self) -> None:
        self.mode = _TOP
        self.buffer: list[str] = []
        self.start = 0  # the line the open comment started on
        self.depth = 0  # variations open
        self.opened = 0  # the line the outermost open variation started on

    def feed(self, line: str, number: int) -> Iterator[Token]:
        """The tokens a line completes, as they are found (a megabyte line is never a list of its words)."""
        if (self.mode != _TOP or self.depth) and _TAG_START.match(line):
            # An unclosed { or ( ends at the next tag section, so that it spoils one game, not the file.
            yield self._unterminated()
        if self.mode == _TOP and not line.strip():
            yield Token("blank", "", number)
            return
        if self.mode == _TOP and line.startswith("%"):
            return
        position = 0
        while position < len(line):
            if self.mode == _COMMENT:
                close = line.find("}", position)
                if close < 0:
                    self.buffer.append(line[position:] + "\n")
                    return
                self.buffer.append(line[position:close])
                yield Token("comment", collapse("".join(self.buffer)), self.start)
                self.mode = _TOP
                position = close + 1
            else:
                position = yield from self._top(line, position, number)

    def _unterminated(self) -> Token:
        """The error of a comment or variation left open, which ends here."""
        if self.mode == _COMMENT:
            token = Token("error", f"unterminated comment opened on line {self.start}", self.start)
        else:
            token = Token("error", f"unterminated variation opened on line {self.opened}", self.opened)
        self.mode, self.depth = _TOP, 0
        return token

    def _top(self, line: str, position: int, number: int) -> Generator[Token, None, int]:
        """The tokens from ``position`` to the next special character and that character's; returns where to go on."""
        special = _SPECIAL.search(line, position)
        end = len(line) if special is None else special.start()
        if end > position:
            chunk = line[position:end]
            if "\x1a" in chunk:
                chunk = chunk.replace("\x1a", " ")
            chunk = _PADDED.sub(r"\1", chunk)
            # A short chunk is split at once (fast); a long one lazily, so a megabyte line is never a list of its words.
            words = chunk.split() if len(chunk) <= _SPLIT else (word.group() for word in _WORD.finditer(chunk))
            for word in words:
                yield _new(Token, ("word", word, number, ""))
        if special is None:
            return len(line)
        char = special.group()
        if char == "{":
            self.mode, self.start, self.buffer = _COMMENT, number, []
            return end + 1
        if char == "(":
            mark = _PAREN_MARK.match(line, end)
            if mark is not None:
                yield Token("word", mark.group(), number)
                return mark.end()
            if not self.depth:
                self.opened = number
            self.depth += 1
            yield Token("open", "(", number)
            return end + 1
        if char == ")" and self.depth:
            self.depth -= 1
            yield Token("close", ")", number)
            return end + 1
        if char == "[":
            if self.depth:  # a tag inside a variation: the variation was never closed
                yield self._unterminated()
            tag = _parse_tag(line, end)
            if tag is None:
                yield Token("error", f"malformed tag {excerpt(line[end:].strip())}", number)
                return len(line)
            yield Token("tag", tag[0], number, tag[1])
            return tag[2]
        yield Token("error", f"unmatched {char!r}", number)
        return end + 1

    def finish(self) -> list[Token]:
        if self.mode == _TOP and not self.depth:
            return []
        return [self._unterminated()]


def tokenize(lines: Iterable[str]) -> Iterator[Token]:
    lexer = _Lexer()
    number = 0
    for number, line in enumerate(lines, 1):
        text = line[1:] if number == 1 and line.startswith("\ufeff") else line
        yield from lexer.feed(text, number)
    yield from lexer.finish()
