"""Input: the lines of a path or a stream, decoded, read once from start to end (a pipe works).

A byte-order mark or UTF-16's NUL bytes select an encoding; otherwise UTF-8 line by line, and one
8-bit code page (cp1251 or cp1252) for the other lines, chosen from all of them.
"""

from __future__ import annotations

import codecs
import itertools
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TypeVar, cast

from draughts._text import excerpt
from draughts.errors import PDNError

__all__ = ["Source", "source_lines"]

Source = str | os.PathLike[str] | IO[str] | IO[bytes]

_CHUNK = 1 << 16
_SPOOL = 1 << 24
"""Bytes of a file's rest held in memory while its code page is chosen, before a temporary file takes over."""

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16: it starts with the UTF-16 little-endian mark
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_LETTERS = re.compile(rb"[A-Za-z\x8a\x8c\x8e\x9a\x9c\x9e\x9f\xa8\xb8\xc0-\xff]+")
"""Words in an 8-bit code page: ASCII letters and the bytes that are letters in cp1251 or cp1252."""

_TEXT_LINE_END = re.compile(r"\r\n|\r|\n")
_BYTES_LINE_END = re.compile(rb"\r\n|\r|\n")
_AnyText = TypeVar("_AnyText", str, bytes)


def _split_lines(chunks: Iterable[_AnyText], end: re.Pattern[_AnyText], cr: _AnyText) -> Iterator[_AnyText]:
    """The lines of text arriving in chunks, without their ends (CRLF, LF, or a lone CR as old Macs wrote).

    A line longer than a chunk is gathered as a list of pieces joined once, so the time stays linear
    however long the line (adding each chunk to the line so far was quadratic).
    """
    empty = cr[:0]
    pending: list[_AnyText] = []  # the pieces of a line not ended yet
    held = False  # the last chunk ended in CR: perhaps the first half of a CRLF split between chunks
    for chunk in chunks:
        if held:
            chunk = cr + chunk
        held = chunk.endswith(cr)
        parts = end.split(chunk[:-1] if held else chunk)
        if len(parts) > 1:
            pending.append(parts[0])
            yield empty.join(pending)
            yield from parts[1:-1]
            pending = []
        pending.append(parts[-1])
    last = empty.join(pending)
    if last or held:
        yield last


def _chunks(read: Callable[[int], _AnyText]) -> Iterator[_AnyText]:
    while chunk := read(_CHUNK):
        yield chunk


def _sniff(head: bytes) -> str | None:
    """The encoding a byte-order mark names, or UTF-16 recognised by its NUL bytes; None for ASCII-based text."""
    for bom, codec in _BOMS:
        if head.startswith(bom):
            return codec
    sample = head[: 64 if len(head) >= 64 else len(head) & ~1]
    if len(sample) >= 8:
        for zeros, codec in ((sample[1::2], "utf-16-le"), (sample[0::2], "utf-16-be")):
            others = sample[0::2] if codec == "utf-16-le" else sample[1::2]
            if zeros.count(0) * 4 >= len(zeros) * 3 and 0 not in others:
                return codec
    return None


def _binary_lines(read: Callable[[int], bytes], encoding: str | None) -> Iterator[str]:
    """The decoded lines of a binary source, read once (a pipe cannot be read twice)."""
    chunks = _chunks(read)
    head = b""
    for chunk in chunks:
        head += chunk
        if len(head) >= 64:
            break
    stream = itertools.chain([head], chunks)
    if encoding is not None:
        yield from _split_lines(_decoded(stream, encoding, "strict"), _TEXT_LINE_END, "\r")
        return
    sniffed = _sniff(head)
    if sniffed is None:
        yield from _detected_lines(stream)
    else:  # a guess, not the caller's word: a broken character becomes U+FFFD
        yield from _split_lines(_decoded(stream, sniffed, "replace"), _TEXT_LINE_END, "\r")


def _decoded(chunks: Iterable[bytes], codec: str, errors: str) -> Iterator[str]:
    decoder = codecs.getincrementaldecoder(codec)(errors)
    offset = 0
    for chunk in itertools.chain(chunks, [None]):
        try:
            yield decoder.decode(b"", final=True) if chunk is None else decoder.decode(chunk)
        except UnicodeError as error:  # UnicodeDecodeError, or UTF-16's "does not start with BOM"
            where = offset + max(0, getattr(error, "start", 0))
            reason = getattr(error, "reason", str(error))
            raise PDNError(
                f"the input is not valid {codec} near byte {where:,} ({excerpt(reason)}); is the file"
                " in another encoding?"
            ) from None
        offset += len(chunk or b"")


def _code_page(lines: Iterable[bytes]) -> str:
    """cp1251 when the bytes above 127 mostly make up whole words, as Cyrillic words do, else cp1252.

    In Latin-1 text the accented letters sit inside words of ASCII letters (``Müünchen``,
    ``François``); in cp1251 Cyrillic every letter of a word is above 127. A one-letter word says
    nothing (Italian ``è``, Russian ``и``).
    """
    whole = inside = 0
    for line in lines:
        for word in _LETTERS.findall(line):
            high = sum(byte > 127 for byte in word)
            if high == len(word) > 1:
                whole += high
            elif high < len(word):
                inside += high
    return "cp1251" if whole > inside else "cp1252"


def _utf8(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _detected_lines(chunks: Iterable[bytes]) -> Iterator[str]:
    """UTF-8 lines while the text is UTF-8; then one code page for every other line, chosen from all of them.

    Lines are yielded as they come while they are valid UTF-8. At the first line that is not, the
    rest of the input is read once into a spool file to choose the code page, then read from there.
    """
    lines = _split_lines(chunks, _BYTES_LINE_END, b"\r")
    first_other = None
    for raw in lines:
        text = _utf8(raw)
        if text is None:
            first_other = raw
            break
        yield text
    if first_other is None:
        return
    with tempfile.SpooledTemporaryFile(max_size=_SPOOL) as spool:
        others = []
        for raw in itertools.chain([first_other], lines):
            spool.write(raw + b"\n")
            if _utf8(raw) is None:
                others.append(raw)
        codec = _code_page(others)
        del others
        spool.seek(0)
        for line in spool:
            raw = line[:-1]
            text = _utf8(raw)
            if text is None:
                try:
                    text = raw.decode(codec)
                except UnicodeDecodeError:  # a byte the code page leaves undefined
                    text = raw.decode("latin-1")
            yield text


def source_lines(source: Source, encoding: str | None) -> Iterator[str]:
    """The lines of ``source``, decoded, without line ends; each byte of the source is read once."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as handle:
            yield from _binary_lines(handle.read, encoding)
        return
    read = source.read
    empty = read(0)
    if isinstance(empty, bytes):
        yield from _binary_lines(cast(Callable[[int], bytes], read), encoding)
    elif isinstance(empty, str):
        yield from _split_lines(_chunks(cast(Callable[[int], str], read)), _TEXT_LINE_END, "\r")
    else:
        raise TypeError(f"read_games needs a path or a text or binary stream, not {type(source).__name__}")


# --- lexing: tokens with line numbers ----------------------------------------------------------
