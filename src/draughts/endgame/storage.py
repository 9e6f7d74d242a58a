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
:class:`~draughts.endgame.TablebaseFileError` and never answers. Before a byte is read, the path
must be a regular file no larger than its material's table can be: a FIFO (which would block), a
device or a link to one (``/dev/zero`` never ends), or a huge sparse file is refused at once.

A writer holds an advisory lock (``flock``) on its temporary file until it is renamed, so the
temporary files of killed builds, whose locks died with them, can be told from those of builds
still running: :func:`remove_stale` deletes the former when the next build of the directory starts.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import os
import stat
import sys
import tempfile
from array import array
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from draughts._text import excerpt
from draughts.endgame.errors import TablebaseFileError
from draughts.endgame.material import Material
from draughts.rules import Ruleset
from draughts.rules.files import ruleset_to_data

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks, stale files stay
    fcntl = None  # type: ignore[assignment]

__all__ = ["FORMAT", "MAGIC", "field", "file_name", "pack", "pack_raw", "packed_size", "read", "ruleset_key", "write"]

MAGIC = b"PDTB"
FORMAT = 1
_TEXT_FIELDS = ("name", "title", "sources")
_DIGEST = 32
MAX_HEADER = 1 << 20
"""The longest header a table file may have (a real one is a few kilobytes: statistics and a FEN)."""
_MAX_PLIES_BITS = 64


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
    last group padded with zeros). Byte strings and arrays (a solved table's codes and
    distances) are packed natively; other sequences are read eight at a time, so packing a
    table of millions of entries takes no copy of it as a list."""
    if bits == 0:
        return b""
    if isinstance(values, bytes | bytearray | array) and sys.byteorder == "little":
        raw = values.tobytes() if isinstance(values, array) else bytes(values)
        return pack_raw(raw, values.itemsize if isinstance(values, array) else 1, bits)
    out = bytearray()
    shifts = [bits * k for k in range(8)]
    for start in range(0, len(values), 8):
        word = 0
        for shift, value in zip(shifts, values[start : start + 8], strict=False):
            word |= value << shift
        out += word.to_bytes(bits, "little")
    return bytes(out)


def pack_raw(values: bytes, itemsize: int, bits: int, workers: int | None = None) -> bytes:
    """:func:`pack` of ``values`` given as ``itemsize``-byte little-endian unsigned ints, natively
    on ``workers`` threads (default the build's, ``draughts.endgame.solve.default_workers``)."""
    from draughts._native import pack as native_pack  # the extension module, loaded on first use
    from draughts.endgame.solve import default_workers

    return native_pack(values, itemsize, bits, workers or default_workers())


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


def largest_file(entries: int) -> int:
    """The most bytes a table file of ``entries`` entries can take: the file's size is checked
    against it before reading, so a sparse or foreign file of gigabytes is never read."""
    fixed = len(MAGIC) + 5 + MAX_HEADER + _DIGEST
    return fixed + 2 * packed_size(entries, 2) + packed_size(entries, _MAX_PLIES_BITS)


def _locked_temporary(path: Path) -> tuple[int, str]:
    """A new temporary file beside ``path``, open and locked for as long as this process holds it.

    A file removed by :func:`remove_stale` between its creation and the lock (it looked
    abandoned) is made again: once locked, a file still linked in the directory is ours.
    """
    while True:
        handle, temporary = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        if fcntl is None:
            return handle, temporary
        fcntl.flock(handle, fcntl.LOCK_EX)
        if os.fstat(handle).st_nlink:
            return handle, temporary
        os.close(handle)


def remove_stale(directory: Path) -> list[Path]:
    """Delete the temporary table files of killed builds in ``directory``; return them.

    A file whose lock can be taken has no writer left (a lock dies with its process); a file
    another build is writing is locked and kept. Without ``fcntl`` (Windows) nothing is removed.
    """
    removed: list[Path] = []
    if fcntl is None or not directory.is_dir():
        return removed
    for candidate in directory.glob("*.pdtb.*.tmp"):
        with contextlib.suppress(OSError):
            fd = os.open(candidate, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    continue
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                candidate.unlink()
                removed.append(candidate)
            finally:
                os.close(fd)
    return removed


def write(path: Path, header: dict[str, Any], sections: Iterable[bytes]) -> None:
    """Write a table file atomically: a temporary file in the same directory, locked while it is
    written (see :func:`remove_stale`), flushed to disk, then renamed over ``path``. ``sections``
    are written one after the other as they come (a generator streams a table too large to hold)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(header, sort_keys=True).encode()
    digest = hashlib.sha256()
    handle, temporary = _locked_temporary(path)
    try:
        with os.fdopen(handle, "wb") as out:
            # chained, not unpacked: a generator's sections are written as they come, never all held
            for part in itertools.chain((MAGIC, bytes([FORMAT]), len(text).to_bytes(4, "little"), text), sections):
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


def _read_regular(path: Path, most: int | None) -> bytes:
    """The bytes of ``path``, only if it is a regular file of at most ``most`` bytes.

    The file is opened without blocking (a FIFO's open would wait for a writer) and its type and
    size are checked on the open descriptor, so a link swapped in meanwhile changes nothing.
    """
    where = f"table file {str(path)!r}"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise TablebaseFileError(f"{where} cannot be read: {error}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise TablebaseFileError(f"{where} is not a regular file (a FIFO, a device or a link to one)")
        if most is not None and info.st_size > most:
            raise TablebaseFileError(
                f"{where} has {info.st_size:,} bytes, more than a table of its material can have ({most:,})"
            )
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read(info.st_size + 1)
    except OSError as error:
        raise TablebaseFileError(f"{where} cannot be read: {error}") from None
    finally:
        os.close(fd)


def read(path: Path, key: str, material: Material, most: int | None = None) -> tuple[dict[str, Any], bytes]:
    """The header and body (everything after the header, checksum removed) of a table file,
    after every check (see the module docstring).

    Args:
        path: The file.
        key: The ruleset's key it must carry.
        material: The material it must hold.
        most: The largest size accepted, in bytes (:func:`largest_file` of the material's entries).

    Raises:
        TablebaseFileError: the file is not a regular file, is too large, damaged, incomplete, or
            made for other rules or another material.
    """
    data = _read_regular(path, most)
    where = f"table file {str(path)!r}"
    if len(data) < len(MAGIC) + 5 + _DIGEST or data[: len(MAGIC)] != MAGIC:
        raise TablebaseFileError(f"{where} is not a polydraughts table")
    if data[len(MAGIC)] != FORMAT:
        raise TablebaseFileError(f"{where} has format {data[len(MAGIC)]}, this version reads {FORMAT}")
    if hashlib.sha256(memoryview(data)[:-_DIGEST]).digest() != data[-_DIGEST:]:  # no copy of the file
        raise TablebaseFileError(f"{where} fails its checksum (damaged or incomplete): build it again")
    start = len(MAGIC) + 5
    length = int.from_bytes(data[len(MAGIC) + 1 : start], "little")
    if length > min(MAX_HEADER, len(data) - start - _DIGEST):
        raise TablebaseFileError(f"{where} has a header of {length:,} bytes, past its end or too long")
    try:
        header = json.loads(data[start : start + length])
    except (ValueError, RecursionError):  # RecursionError: brackets nested thousands deep
        raise TablebaseFileError(f"{where} has an unreadable header") from None
    if not isinstance(header, dict):
        raise TablebaseFileError(f"{where} has an unreadable header")
    if header.get("key") != key:
        raise TablebaseFileError(f"{where} was built for other rules (key {str(header.get('key'))[:16]}...)")
    if header.get("material") != material.name:
        raise TablebaseFileError(f"{where} holds {excerpt(header.get('material'))}, not {material.name!r}")
    return header, data[start + length : -_DIGEST]
