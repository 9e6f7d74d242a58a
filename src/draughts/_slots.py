"""Building frozen attrs instances without their checks: the one place that bypasses attrs.

Moves and draw counters are built on every move (the generator builds moves by the thousand;
positions are made by their native base, ``draughts._native.PositionBase``). Their public
constructors check their input; the library's own builders, whose input
is valid by construction, set the slots directly instead: ``object.__new__`` and each slot's own
descriptor setter, which skip attrs' frozen ``__setattr__``, its validators and the lookup by
name that ``object.__setattr__`` makes. Only classes with ``__slots__`` (attrs' default) qualify.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

new: Callable[[type[Any]], Any] = object.__new__
"""An instance of a class without running its ``__init__`` (its slots then set by :func:`setters`)."""


def setters(cls: type[Any], *names: str) -> tuple[Callable[[Any, Any], None], ...]:
    """The setters of ``cls``'s slots ``names`` (``setter(instance, value)``), in that order."""
    return tuple(cls.__dict__[name].__set__ for name in names)
