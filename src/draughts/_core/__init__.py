"""The private core: a ruleset compiled into bit tables, the move generator, its capture search, the resolver.

Nothing here is public API. :mod:`draughts.position`, :mod:`draughts.perft` and
:mod:`draughts.engine` use it through :func:`build_move_generator`; everything a ruleset changes
reaches the generator through :class:`~draughts._core.tables.Tables`.
"""

from __future__ import annotations

import sys

from draughts._core.movegen import MoveGenerator, build_move_generator
from draughts._core.tables import Tables, compile_rules

#: Whether the generator in use is the compiled build (C extensions made by mypyc from the
#: generator's modules, see the performance docs) rather than the Python source itself.
COMPILED = not str(sys.modules["draughts._core.movegen"].__file__).endswith(".py")

__all__ = ["COMPILED", "MoveGenerator", "Tables", "build_move_generator", "compile_rules"]
