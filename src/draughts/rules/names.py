"""Which ruleset? The one resolver of every way a user may name a ruleset.

Every command of ``draughts``, the web board and the Hub turn what a user wrote into a
:class:`~draughts.Ruleset` through :func:`resolve_ruleset`, so each accepts the same forms:

* a :class:`~draughts.Ruleset` itself;
* a variant name, alias, transform suffix (``russian-nfc-losing``) or PDN GameType
  (``25``, ``20,W,10,10,N2,0``): :func:`~draughts.get_variant`;
* a path ending in ``.toml`` or ``.json`` (text or :class:`os.PathLike`): a ruleset file
  (:func:`~draughts.load_ruleset`);
* ``module:attribute`` (``mypackage.rules:POOL``, the attribute may be dotted): a
  :class:`~draughts.Ruleset` object of an importable module; a module in the current directory
  is importable even when Python was not started there (the ``draughts`` script).

Text that arrives over a network (a web request, a Hub ``set-param``) is resolved with
``trusted=False``: names only, never a file to read or a module to import.

>>> resolve_ruleset("shashki").name
'russian'
>>> resolve_ruleset("draughts.rules.variants:ITALIAN").name
'italian'
>>> resolve_ruleset("draughts.rules.variants:ITALIAN", trusted=False)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
draughts.errors.UnknownVariantError: unknown variant 'draughts.rules.variants:ITALIAN': only names are accepted here ...
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import sys
from collections.abc import Iterator

from draughts._text import excerpt
from draughts.errors import UnknownVariantError
from draughts.rules import Ruleset
from draughts.rules.files import file_format, load_ruleset
from draughts.rules.variants import get_variant

__all__ = ["resolve_ruleset"]

_OBJECT = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)")
"""``module:attribute``: dotted Python identifiers on both sides of one colon."""

LONGEST_SPEC = 4096
"""The longest text taken as a path or ``module:attribute`` (a name is bounded far lower, by
:data:`draughts.rules.variants.LONGEST_NAME`)."""


def resolve_ruleset(spec: Ruleset | str | os.PathLike[str], *, trusted: bool = True) -> Ruleset:
    """The ruleset ``spec`` names, in any of the forms the module docstring lists.

    Args:
        spec: A ruleset, a name (alias, transform suffixes, GameType), a ruleset file's path or
            ``module:attribute``.
        trusted: False for text from a request or the wire: only names are looked up, and a path
            or ``module:attribute`` is refused without reading or importing anything.

    Raises:
        UnknownVariantError: ``spec`` names no ruleset, its file cannot be read, its module cannot
            be imported or its attribute is no ruleset; the message quotes it and says why.
        InvalidRulesetError: the ruleset file describes no valid ruleset.
    """
    if isinstance(spec, Ruleset):
        return spec
    if isinstance(spec, os.PathLike) and not isinstance(spec, str):
        spec = os.fspath(spec)
    if not isinstance(spec, str):
        raise UnknownVariantError(f"ruleset {excerpt(spec)} is not a name, a path or 'module:attribute'")
    text = spec.strip()
    is_file = len(text) <= LONGEST_SPEC and file_format(text) is not None
    if not trusted and (is_file or ":" in text):
        raise UnknownVariantError(
            f"unknown variant {excerpt(spec)}: only names are accepted here (a request cannot import a module "
            "or read a file)"
        )
    if is_file:
        return _from_file(text)
    if ":" not in text:
        return get_variant(text)
    return _from_object(text)


def _from_file(path: str) -> Ruleset:
    try:
        return load_ruleset(path)
    except OSError as error:
        raise UnknownVariantError(
            f"ruleset {excerpt(path)}: cannot read the file ({error.strerror or error})"
        ) from None


def _from_object(text: str) -> Ruleset:
    """The :class:`~draughts.Ruleset` at ``module:attribute``."""
    match = _OBJECT.fullmatch(text) if len(text) <= LONGEST_SPEC else None
    if match is None:
        raise UnknownVariantError(
            f"ruleset {excerpt(text)} is neither a variant name nor a Python object 'module:attribute'"
        )
    module_name, attribute = match.groups()
    try:
        with _current_directory_importable():
            value: object = importlib.import_module(module_name)
    except ImportError as error:
        raise UnknownVariantError(f"ruleset {excerpt(text)}: cannot import {module_name!r} ({error})") from None
    for part in attribute.split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            raise UnknownVariantError(
                f"ruleset {excerpt(text)}: {module_name!r} has no attribute {attribute!r}"
            ) from None
    if not isinstance(value, Ruleset):
        raise UnknownVariantError(f"ruleset {excerpt(text)} is a {type(value).__name__}, not a draughts.Ruleset")
    return value


@contextlib.contextmanager
def _current_directory_importable() -> Iterator[None]:
    """The current directory on the import path while one import runs (as ``python -m`` has it).

    It goes last, so a file there never hides an installed module of the same name, and it is
    taken off again afterwards.
    """
    here = os.getcwd()
    if "" in sys.path or here in sys.path:
        yield
        return
    importlib.invalidate_caches()  # a module written since the interpreter started is found
    sys.path.append(here)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(here)
