"""The private core: a ruleset compiled into bit tables, the one move generator, the resolver.

Nothing here is public API. :mod:`draughts.position`, :mod:`draughts.perft` and
:mod:`draughts.engine` use it through :func:`generator`; everything a ruleset changes reaches the
generator through :class:`~draughts._core.tables.Tables`.
"""

from __future__ import annotations

from draughts._core.generator import Generator, generator
from draughts._core.tables import Tables, compile_rules

__all__ = ["Generator", "Tables", "compile_rules", "generator"]
