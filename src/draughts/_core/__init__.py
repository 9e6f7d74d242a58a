"""The private core: a ruleset compiled into bit tables, the one move generator, the resolver.

Nothing here is public API. :mod:`draughts.position`, :mod:`draughts.perft` and
:mod:`draughts.engine` use it through :func:`generator`; everything a ruleset changes reaches the
generator through :class:`~draughts._core.tables.Tables`.
"""

from __future__ import annotations

import sys

from draughts._core.generator import Generator, generator
from draughts._core.tables import Tables, compile_rules

#: Whether the generator in use is the compiled build (a C extension made by mypyc from
#: ``generator.py``, see the performance docs) rather than the Python source itself.
COMPILED = not str(sys.modules["draughts._core.generator"].__file__).endswith(".py")

__all__ = ["COMPILED", "Generator", "Tables", "compile_rules", "generator"]
