"""The private core: the bindings of the native rules engine (``native/``, ``draughts._native``).

Nothing here is public API. A ruleset is translated once into the native core's spec
(:mod:`draughts._core.native`), which compiles it and applies every rule; :mod:`draughts.position`,
:mod:`draughts.perft`, :mod:`draughts.engine` and :mod:`draughts.endgame` call it through
:func:`build_move_generator`. :mod:`draughts._core.tables` is the Python view of the same layout
(squares to bits, steps, crowning rows) and :mod:`draughts._core.rulestate` the rule state as text.
"""

from __future__ import annotations

from typing import Any

from draughts._core.generator import MoveGenerator, build_move_generator
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
#: None where the extension is missing (the rules cannot run then).
NATIVE = _native_build()

__all__ = ["NATIVE", "MoveGenerator", "Tables", "build_move_generator", "compile_rules"]
