"""The private core: a ruleset compiled into bit tables, the move generator, its capture search, the resolver.

Nothing here is public API. :mod:`draughts.position`, :mod:`draughts.perft` and
:mod:`draughts.engine` use it through :func:`build_move_generator`; everything a ruleset changes
reaches the generator through :class:`~draughts._core.tables.Tables`.
"""

from __future__ import annotations

from typing import Any

from draughts._core.movegen import MoveGenerator, build_move_generator
from draughts._core.tables import Tables, compile_rules


def _native_build() -> dict[str, Any] | None:
    """What ``draughts._native.build_info()`` says, or None where the extension is not built (a
    source tree run without ``pip install``)."""
    try:
        import draughts._native as native  # the extension module (a .pyi in the source tree)
    except ImportError:
        return None
    return native.build_info()


#: Which native core is built beside the package: ``{"version", "target", "profile", "width"}``
#: from ``draughts._native.build_info()`` (profile ``"release"`` from every ``pip install``), or
#: None where the extension is missing. Until the switch-over the rules still run the Python
#: generator of this package; the native core is cross-checked against it.
NATIVE = _native_build()

__all__ = ["NATIVE", "MoveGenerator", "Tables", "build_move_generator", "compile_rules"]
