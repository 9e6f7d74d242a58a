"""Find the pairs of places in a source tree that share six or more lines (issue 39 §4).

``tests/project/test_duplicates.py`` holds ``src/`` to a bound on these pairs, each one explained;
this module is its scan, self-contained (the standard library only) so that the check runs
everywhere the tests do, CI's clean machine included. The developers' ``duplicates`` command does
the same job with more finesse (boilerplate marks, ``--change``); its figures may differ a little
from these, and the bound of the test is set on this module's count.

The idea, written small enough to read:

1. Every source file (:data:`SUFFIXES`) below the root is cut into lines of tokens: strings
   become ``S`` and numbers ``0``, keywords and punctuation are kept, names are marked. Blank
   lines, comments, import statements (on one line or many), lines of literals only (docstrings,
   the items of a list of names) and declarations without a value (``name: Type``) are passed
   over; a Python string spanning many lines is one ``S`` on the line it starts on.
2. Every window of :data:`MIN_LINES` consecutive lines is a *place*, and its *shape* is its
   tokens with each name replaced by the order of its first use in the window: ``total = count +
   1`` and ``games = moves + 2`` have the same shape, ``a = b + a`` and ``x = y + z`` do not. Two
   places of the same shape (in two files, or twice in one file without overlapping) share a run.
3. A window that stands in more than :data:`MOST_PLACES` places is too common to mean anything
   (a common idiom, the same few calls or assignments in many modules) and is left out.
4. A *pair* is two files (or a file with itself) sharing at least one such window; its example is
   the first run found, as ``a.py:10-24 ~ b.py:40-54`` (the lines of the window's first and last
   shapes).

Run it as a developer command from the repository root::

    python tools/duplicate_pairs.py src            # every pair, most shared first
    python tools/duplicate_pairs.py src --min-lines 8
"""

from __future__ import annotations

import argparse
import io
import keyword
import re
import sys
import tokenize
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MIN_LINES = 6
"""Shared lines that make a pair (the issue's six)."""

MOST_PLACES = 8
"""Places a window may stand in before it is too common to count (as the ``duplicates`` command)."""

SUFFIXES = frozenset({".py", ".js", ".ts", ".css", ".html", ".rs", ".c", ".h", ".sh"})
"""The files that count: source code, not data or prose (JSON, TOML, Markdown, reStructuredText),
nor type stubs (a ``.pyi`` restates the signatures of code written elsewhere, by construction)."""

SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "vendor", "third_party", ".git"})

MAX_BYTES = 1 << 20
"""A larger file (generated, or data) is left out."""

_TOKEN = re.compile(
    r"""(?P<string>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`)"""
    r"|(?P<number>\b[0-9][0-9a-fA-FxX_.]*)"
    r"|(?P<name>[A-Za-z_$][A-Za-z0-9_$]*)"
    r"|(?P<other>\S)"
)
"""The tokens of a line of a language other than Python (JavaScript, CSS, HTML, Rust, ...)."""

_OTHER_KEYWORDS = frozenset(
    {"function", "return", "if", "else", "for", "while", "const", "let", "var", "new", "this", "class"}
    | {"fn", "mut", "match", "impl", "pub", "use"}
)
"""Words kept as they are in other languages' lines (JavaScript, Rust); every other word is a name."""
_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)
_FSTRING_END = getattr(tokenize, "FSTRING_END", -1)
_NAME = "\x01"
"""Marks a name in a line's tokens; :func:`_canonical` numbers the names of a window."""
_COMMENT_STARTS = ("//", "/*", "*", "<!--", "#")


@dataclass(frozen=True)
class Place:
    """A window of shapes: its file (relative to the root) and its first and last line numbers."""

    path: str
    first: int
    last: int

    def __str__(self) -> str:
        return f"{self.path}:{self.first}-{self.last}"


@dataclass(frozen=True)
class Pair:
    """Two files sharing runs (one file: a run repeated inside it), shown by their first run."""

    files: frozenset[str]
    one: Place
    two: Place
    runs: int

    def __str__(self) -> str:
        more = f" (+{self.runs - 1} more windows)" if self.runs > 1 else ""
        return f"{self.one} ~ {self.two}{more}"


def _python_shape(token: tokenize.TokenInfo) -> str:
    """One token's shape, or "" for a token that does not count (comments, newlines, indentation)."""
    if token.type == tokenize.NAME:
        return token.string if keyword.iskeyword(token.string) else _NAME + token.string
    if token.type == tokenize.NUMBER:
        return "0"
    if token.type == tokenize.STRING:
        return "S"
    return token.string if token.type == tokenize.OP else ""


def _python_shapes(text: str) -> list[tuple[int, tuple[str, ...]]]:
    """The tokens of each line of Python code that counts: names marked, strings S, numbers 0, the rest kept."""
    lines: dict[int, list[str]] = defaultdict(list)
    statement: list[str] = []
    importing = False
    inside = 0  # f-strings open (Python 3.12 tokenizes their parts; older ones give one STRING)
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == _FSTRING_START:
                inside += 1
                if inside == 1:
                    lines[token.start[0]].append("S")
                continue
            if token.type == _FSTRING_END:
                inside -= 1
                continue
            if inside:
                continue  # a part of an f-string: the S stands for all of it
            if token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                statement, importing = [], False
                continue
            shape = _python_shape(token)
            if not statement and shape in ("import", "from"):
                importing = True  # an import statement, on one line or many: passed over
            if shape and not importing:
                statement.append(shape)
                lines[token.start[0]].append(shape)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return _other_shapes(text)  # not valid Python: read it as plain text
    return [(number, tuple(tokens)) for number, tokens in sorted(lines.items()) if _counts(tokens)]


def _other_shapes(text: str) -> list[tuple[int, tuple[str, ...]]]:
    """The tokens of each line of code that counts in another language, by a plain tokenizer (:data:`_TOKEN`)."""
    shapes: list[tuple[int, tuple[str, ...]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith(_COMMENT_STARTS):
            continue
        tokens = []
        for match in _TOKEN.finditer(stripped):
            kind, value = match.lastgroup, match.group()
            if kind == "name":
                tokens.append(value if value in _OTHER_KEYWORDS else _NAME + value)
            else:
                tokens.append({"string": "S", "number": "0"}.get(kind or "", value))
        if _counts(tokens):
            shapes.append((number, tuple(tokens)))
    return shapes


def _counts(tokens: list[str]) -> bool:
    """Whether a line counts: one with a name or a keyword (not data, prose or punctuation), not an import.

    A line of literals and punctuation only (``"find_move",``, ``"Nero": "Black",``, a docstring)
    is data or prose, which the scan leaves to other checks, as it leaves JSON and Markdown; a
    declaration without a value (``name: Type``, an attrs field or a parameter) says what, not how.
    """
    if not any(token[0] == _NAME or (token.isalpha() and token != "S") for token in tokens):  # a keyword
        return False
    if len(tokens) > 1 and tokens[0][0] == _NAME and tokens[1] == ":" and "=" not in tokens:
        return False  # a declaration, ``name: Type`` (an attrs field, a parameter): no logic
    return tokens[0] not in ("import", "from", "use") or "=" in tokens


def source_files(root: Path) -> Iterator[Path]:
    """The source files below ``root`` that count (see :data:`SUFFIXES`), in a stable order."""
    for path in sorted(root.rglob("*")):
        if path.suffix not in SUFFIXES or not path.is_file() or path.is_symlink():
            continue
        if SKIPPED_DIRS.intersection(path.relative_to(root).parts):
            continue
        if path.stat().st_size <= MAX_BYTES:
            yield path


def shapes_of(path: Path) -> list[tuple[int, tuple[str, ...]]]:
    """The (line number, shape) of every line of code of one file (nothing for a binary file)."""
    data = path.read_bytes()
    if b"\0" in data:
        return []
    text = data.decode("utf-8", errors="replace")
    return _python_shapes(text) if path.suffix in (".py", ".pyi") else _other_shapes(text)


def _canonical(lines: list[tuple[str, ...]]) -> tuple[str, ...]:
    """A window's shape: each name replaced by the order of its first use in the window.

    Two windows are then alike when one is the other with its names renamed consistently
    (``a = b + a`` is like ``x = y + x``, not like ``x = y + z``).
    """
    numbers: dict[str, str] = {}
    shape = []
    for tokens in lines:
        shape.append(
            " ".join(numbers.setdefault(token, f"n{len(numbers)}") if token[0] == _NAME else token for token in tokens)
        )
    return tuple(shape)


def windows(root: Path, min_lines: int = MIN_LINES) -> dict[tuple[str, ...], list[tuple[Place, int]]]:
    """Every window of ``min_lines`` shapes, with the places it stands in (and their index in the file)."""
    found: dict[tuple[str, ...], list[tuple[Place, int]]] = defaultdict(list)
    for path in source_files(root):
        shapes = shapes_of(path)
        name = path.relative_to(root).as_posix()
        for index in range(len(shapes) - min_lines + 1):
            run = shapes[index : index + min_lines]
            place = Place(name, run[0][0], run[-1][0])
            found[_canonical([shape for _, shape in run])].append((place, index))
    return found


def duplicate_pairs(root: Path, min_lines: int = MIN_LINES, most_places: int = MOST_PLACES) -> list[Pair]:
    """The pairs of places below ``root`` sharing ``min_lines`` lines or more, most windows first.

    Args:
        root: The folder to read (``src`` for the project's check).
        min_lines: How many shared lines (after the normalisation of the module docstring) make a pair.
        most_places: A window standing in more places than this is too common and left out.
    """
    first: dict[frozenset[str], tuple[Place, Place]] = {}
    runs: dict[frozenset[str], int] = defaultdict(int)
    for places in windows(root, min_lines).values():
        if len(places) < 2 or len(places) > most_places:
            continue
        for at, (one, one_index) in enumerate(places):
            for two, two_index in places[at + 1 :]:
                if one.path == two.path and abs(one_index - two_index) < min_lines:
                    continue  # a window overlapping itself: a repetitive run, not a second place
                files = frozenset({one.path, two.path})
                first.setdefault(files, (one, two))
                runs[files] += 1
    pairs = [Pair(files, *first[files], runs[files]) for files in first]
    return sorted(pairs, key=lambda pair: (-pair.runs, str(pair)))


def main(argv: list[str] | None = None) -> int:
    """Print every pair below a folder, one a line; exit 0 (a row is a place to look, not a verdict)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("root", nargs="?", default="src", help="the folder to read (default: src)")
    parser.add_argument("--min-lines", type=int, default=MIN_LINES, help=f"shared lines (default {MIN_LINES})")
    args = parser.parse_args(argv)
    pairs = duplicate_pairs(Path(args.root), args.min_lines)
    print(f"{len(pairs)} pairs of places sharing {args.min_lines} or more lines below {args.root}")
    for number, pair in enumerate(pairs, 1):
        print(f"D{number} {pair}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
