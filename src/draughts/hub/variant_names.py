"""The names a ruleset travels under in the Hub parameter ``variant``.

The server declares every named variant, its no-forced-capture house rule (``<name>-nfc``) and a
ruleset it was started with that no name finds (one read from a file); a GUI's ``set-param``
names one of them, or an alias (Scan's ``normal``). The client picks, among the names an engine
declares, the one that means the ruleset it wants.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from draughts.errors import DraughtsError
from draughts.rules import Ruleset, names
from draughts.rules.files import resolve_ruleset
from draughts.rules.names import get_variant
from draughts.rules.transforms import no_forced_capture
from draughts.rules.variants import VARIANTS

__all__ = ["custom_variants", "declared_variants", "engine_name", "variant_named"]


def declared_variants(custom: Mapping[str, Ruleset] | None = None) -> dict[str, Ruleset]:
    """The rulesets the server declares, by the names it declares them under, in order."""
    declared = dict(VARIANTS)
    declared.update({no_forced_capture(rules).name: no_forced_capture(rules) for rules in VARIANTS.values()})
    declared.update(custom or {})
    return declared


def custom_variants(ruleset: Ruleset) -> dict[str, Ruleset]:
    """A ruleset the server starts with that no name finds (a ruleset file), and its house rule, by name."""
    try:
        if get_variant(ruleset.name) == ruleset:
            return {}
    except DraughtsError:
        pass
    return {item.name: item for item in (ruleset, no_forced_capture(ruleset))}


def variant_named(value: str, declared: Mapping[str, Ruleset]) -> Ruleset:
    """The ruleset a ``set-param name=variant`` value means: a declared name, else any name or alias.

    Only names are read from the wire (:func:`~draughts.resolve_ruleset` with ``trusted=False``):
    never a file or a module to import.

    Raises:
        UnknownVariantError: no ruleset has that name (one longer than :data:`~draughts.rules.names.LONGEST_NAME` is
            refused without a look-up), or the value is a path or ``module:attribute``.
    """
    rules = declared.get(value)
    if rules is not None:
        return rules
    return resolve_ruleset(value, trusted=False)


def engine_name(ruleset: Ruleset, choices: Sequence[str]) -> str | None:
    """The name among an engine's ``choices`` that means ``ruleset``: its own name, else an alias."""
    if ruleset.name in choices:
        return ruleset.name
    for choice in choices:
        if len(choice) > names.LONGEST_NAME:  # no name is longer: not looked up
            continue
        try:
            if get_variant(choice) == ruleset:
                return choice
        except DraughtsError:
            continue
    return None
