"""Lexing: PDN lines into tokens (tags, comments, variations, words, errors) with their line numbers."""

from __future__ import annotations

import re
from collections.abc import Generator, Iterable, Iterator
from typing import NamedTuple

from draughts._text import excerpt


class Token(NamedTuple):
    kind: str  # "tag", "comment", "variation", "word", "error"
    text: str  # tag name, comment or variation text, word, error message
    line: int
    value: str = ""  # tag value


_TOP, _COMMENT, _VARIATION = range(3)
_SPECIAL = re.compile(r"[{}()\[\]]")
_WORD = re.compile(r"\S+")
_VARIATION_SPECIAL = re.compile(r"[{()]")
_PADDED = re.compile(r"([0-9][-x:×X])[ \t]+(?=[0-9])")
_PAREN_MARK = re.compile(r"\([!?]{1,3}\)")
_TAG_NAME = re.compile(r"[ \t]*([A-Za-z0-9_]+)[ \t]*")
_TAG_START = re.compile(r"[ \t]*\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]+\"[^\"]*\"[ \t]*\]")
"""A line that opens with a complete tag starts a tag section, even inside a comment left open."""
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
    """Tokens of PDN text fed line by line; comments and variations may span lines."""

    def __init__(self) -> None:
        self.mode = _TOP
        self.buffer: list[str] = []
        self.start = 0
        self.depth = 0
        self.in_comment = False

    def feed(self, line: str, number: int) -> Iterator[Token]:
        """The tokens a line completes, as they are found (a megabyte line is never a list of its words)."""
        if self.mode != _TOP and _TAG_START.match(line):
            # An unclosed { or ( ends at the next tag section, so that it spoils one game, not the file.
            what = "comment" if self.mode == _COMMENT else "variation"
            yield Token("error", f"unterminated {what} opened on line {self.start}", self.start)
            self.mode = _TOP
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
            elif self.mode == _VARIATION:
                tokens: list[Token] = []
                position = self._variation(line, position, tokens)
                yield from tokens
            else:
                position = yield from self._top(line, position, number)
        if self.mode != _TOP:
            self.buffer.append("\n")

    def _variation(self, line: str, position: int, tokens: list[Token]) -> int:
        while position < len(line):
            if self.in_comment:
                close = line.find("}", position)
                if close < 0:
                    self.buffer.append(line[position:])
                    return len(line)
                self.buffer.append(line[position : close + 1])
                self.in_comment = False
                position = close + 1
                continue
            special = _VARIATION_SPECIAL.search(line, position)
            if special is None:
                self.buffer.append(line[position:])
                return len(line)
            self.buffer.append(line[position : special.start()])
            char = special.group()
            position = special.end()
            if char == "{":
                self.in_comment = True
            elif char == "(":
                self.depth += 1
            else:
                self.depth -= 1
                if self.depth == 0:
                    tokens.append(Token("variation", collapse("".join(self.buffer)), self.start))
                    self.mode = _TOP
                    return position
            self.buffer.append(char)
        return position

    def _top(self, line: str, position: int, number: int) -> Generator[Token, None, int]:
        """The tokens from ``position`` to the next special character and that character's; returns where to go on."""
        special = _SPECIAL.search(line, position)
        end = len(line) if special is None else special.start()
        if end > position:
            chunk = _PADDED.sub(r"\1", line[position:end].replace("\x1a", " "))
            for word in _WORD.finditer(chunk):
                yield Token("word", word.group(), number)
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
            self.mode, self.start, self.buffer, self.depth, self.in_comment = _VARIATION, number, [], 1, False
            return end + 1
        if char == "[":
            tag = _parse_tag(line, end)
            if tag is None:
                yield Token("error", f"malformed tag {excerpt(line[end:].strip())}", number)
                return len(line)
            yield Token("tag", tag[0], number, tag[1])
            return tag[2]
        yield Token("error", f"unmatched {char!r}", number)
        return end + 1

    def finish(self) -> list[Token]:
        if self.mode == _TOP:
            return []
        what = "comment" if self.mode == _COMMENT else "variation"
        self.mode = _TOP
        return [Token("error", f"unterminated {what} opened on line {self.start}", self.start)]


def tokenize(lines: Iterable[str]) -> Iterator[Token]:
    lexer = _Lexer()
    number = 0
    for number, line in enumerate(lines, 1):
        text = line[1:] if number == 1 and line.startswith("\ufeff") else line
        yield from lexer.feed(text, number)
    yield from lexer.finish()


# --- games: splitting the token stream ---------------------------------------------------------
