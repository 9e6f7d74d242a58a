"""Table files: one compact file per material and ruleset, written atomically, checked on open.

A file holds, in this order:

* the magic ``b"PDTB"`` and a format number (one byte);
* a JSON header (its length first, 4 bytes little-endian): the ruleset's key (a SHA-256 of its
  rules, see :func:`ruleset_key`), the material, the number of entries, and the width in bits of
  each packed field;
* the codes, 2 bits per entry (draw, win, loss, no position), four to a byte;
* the distances in plies, ``plies_bits`` bits per entry, the width the longest one needs
  (draws and holes store 0);
* the "within the rules" codes, 2 bits per entry (see the endgame page of the docs);
* a SHA-256 of everything before it.

A build writes the file under a temporary name in the same directory and renames it into place
with ``os.replace`` only when it is complete, so a build killed at any moment leaves either
no table or the whole one (a stray temporary file is never read). Opening a file checks the
magic, the format, the sizes, the checksum, the ruleset key and the material before anything is
read from it: a damaged file, a truncated one or one made for other rules raises
:class:`~draughts.endgame.TablebaseFileError` and never answers.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from draughts.endgame.errors import TablebaseFileError
from draughts.endgame.material import Material
from draughts.rules import Ruleset
from draughts.rules.files import ruleset_to_data

__all__ = ["FORMAT", "MAGIC", "field", "file_name", "pack", "packed_size", "read", "ruleset_key", "write"]

MAGIC = b"PDTB"
FORMAT = 1
_TEXT_FIELDS = ("name", "title", "sources")
_DIGEST = 32


def ruleset_key(ruleset: Ruleset) -> str:
    """A SHA-256 (hex) of everything in ``ruleset`` but its name, title, sources and comment texts:
    two rulesets share tables exactly when they have the same rules, whatever they are called."""
    data = ruleset_to_data(ruleset)
    for field in _TEXT_FIELDS:
        data.pop(field, None)
    draws = data.get("draw_rules")
    if isinstance(draws, dict):
        draws.pop("notes", None)
        for rules_list in (draws.get("move_counts") or [], draws.get("endgames") or []):
            for item in rules_list:
                if isinstance(item, dict):
                    item.pop("article", None)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def pack(values: Sequence[int], bits: int) -> bytes:
    """``values`` as ``bits``-bit fields, little-endian (eight values make ``bits`` bytes; the
    last group padded with zeros). Read eight at a time, so packing a table of millions of
    entries takes no copy of it as a list."""
    if bits == 0:
        return b""
    out = bytearray()
    shifts = [bits * k for k in range(8)]
    for start in range(0, len(values), 8):
        word = 0
        for shift, value in zip(shifts, values[start : start + 8], strict=False):
            word |= value << shift
        out += word.to_bytes(bits, "little")
    return bytes(out)


def packed_size(count: int, bits: int) -> int:
    """Bytes that ``count`` fields of ``bits`` bits take (whole groups of eight)."""
    return (count + 7) // 8 * bits


def field(data: bytes | memoryview, index: int, bits: int) -> int:
    """The ``index``-th ``bits``-bit field of ``data`` (see :func:`pack`)."""
    if bits == 0:
        return 0
    start = index * bits
    first, offset = divmod(start, 8)
    chunk = int.from_bytes(data[first : first + (offset + bits + 7) // 8], "little")
    return (chunk >> offset) & ((1 << bits) - 1)


def file_name(material: Material, key: str) -> str:
    """The file name of a table: the material and the first 16 digits of the ruleset's key."""
    return f"{material.name}.{key[:16]}.pdtb"


def write(path: Path, header: dict[str, Any], sections: Sequence[bytes]) -> None:
    """Write a table file atomically: a temporary file in the same directory, flushed to disk,
    then renamed over ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(header, sort_keys=True).encode()
    digest = hashlib.sha256()
    handle, temporary = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            for part in (MAGIC, bytes([FORMAT]), len(text).to_bytes(4, "little"), text, *sections):
                out.write(part)
                digest.update(part)
            out.write(digest.digest())
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)  # mkstemp makes it private; a table is for everyone to read
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def read(path: Path, key: str, material: Material) -> tuple[dict[str, Any], bytes]:
    """The header and body (everything after the header, checksum removed) of a table file,
    after every check (see the module docstring).

    Raises:
        TablebaseFileError: the file is damaged, incomplete, or made for other rules or another
            material.
    """
    try:
        data = path.read_bytes()
    except OSError as error:
        raise TablebaseFileError(f"table file {str(path)!r} cannot be read: {error}") from None
    where = f"table file {str(path)!r}"
    if len(data) < len(MAGIC) + 5 + _DIGEST or data[: len(MAGIC)] != MAGIC:
        raise TablebaseFileError(f"{where} is not a polydraughts table")
    if data[len(MAGIC)] != FORMAT:
        raise TablebaseFileError(f"{where} has format {data[len(MAGIC)]}, this version reads {FORMAT}")
    if hashlib.sha256(data[:-_DIGEST]).digest() != data[-_DIGEST:]:
        raise TablebaseFileError(f"{where} fails its checksum (damaged or incomplete): build it again")
    start = len(MAGIC) + 5
    length = int.from_bytes(data[len(MAGIC) + 1 : start], "little")
    try:
        header = json.loads(data[start : start + length])
    except ValueError:
        raise TablebaseFileError(f"{where} has an unreadable header") from None
    if not isinstance(header, dict):
        raise TablebaseFileError(f"{where} has an unreadable header")
    if header.get("key") != key:
        raise TablebaseFileError(f"{where} was built for other rules (key {str(header.get('key'))[:16]}...)")
    if header.get("material") != material.name:
        raise TablebaseFileError(f"{where} holds {header.get('material')!r}, not {material.name!r}")
    return header, data[start + length : -_DIGEST]
