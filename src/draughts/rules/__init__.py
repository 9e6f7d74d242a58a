"""The rules: a variant as data, and everything that names, stores or compiles it.

* :mod:`draughts.rules.ruleset`: :class:`~draughts.Ruleset` and the types of its fields;
* :mod:`draughts.rules.geometry`: board shapes, numbering and square names;
* :mod:`draughts.rules.variants`: the named variants and the transforms of any ruleset;
* :mod:`draughts.rules.names`: the one resolver from what a user writes (a name, an alias, a PDN
  GameType, a file) to a ruleset; :mod:`draughts.rules.names` reads PDN GameType tags;
* :mod:`draughts.rules.files`: rulesets in TOML and JSON files.

The names below are the ruleset's own (``from draughts.rules import Ruleset`` keeps working);
the top-level package :mod:`draughts` exports the rest.
"""

from __future__ import annotations

from draughts.rules import ruleset
from draughts.rules.ruleset import *  # noqa: F403  (the ruleset's names, listed once: in its __all__)

__all__: list[str] = []
__all__ += ruleset.__all__
