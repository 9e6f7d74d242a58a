"""The rulesets a web board offers: every named variant, its house rule, and the user's own.

Names are resolved by the library's one resolver, :func:`draughts.resolve_ruleset`: what a
person types on the command line becomes a ruleset there (a name, a ruleset file or a Python
object ``module:attribute``). Only the command line may have files read or user code imported;
requests name rulesets through a :class:`RulesetRegistry`, which adds only what is the web's own
(the user's rulesets by their names, the menu) and resolves every other name with
``trusted=False``, so it never reads or imports anything.

>>> from draughts import resolve_ruleset
>>> registry = RulesetRegistry([resolve_ruleset("draughts.rules.variants:ITALIAN")])
>>> registry.get("english-nfc").name
'american-nfc'
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import attrs

from draughts._text import excerpt
from draughts.errors import UnknownVariantError
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset
from draughts.rules.names import get_variant
from draughts.rules.transforms import breakthrough, losing, no_forced_capture
from draughts.rules.variants import VARIANTS

__all__ = ["CAPTURES", "GOALS", "RulesetRegistry", "variation"]

CAPTURES = ("forced", "optional")
"""Whether capturing is compulsory: as the ruleset says, or optional (the ``-nfc`` house rule)."""

GOALS = ("normal", "losing", "breakthrough")
"""What wins: the ruleset's own goal, giving all pieces away (``-losing``), the first king (``-breakthrough``)."""


def rulesets_tuple(value: Iterable[Ruleset]) -> tuple[Ruleset, ...]:
    """``value`` as a tuple (an attrs converter with a precise type)."""
    return tuple(value)


def _named() -> list[Ruleset]:
    return list(VARIANTS.values())


def variation(ruleset: Ruleset, capture: str = "forced", goal: str = "normal") -> Ruleset:
    """``ruleset`` with optional capture (``capture="optional"``) and another ``goal`` (:data:`GOALS`).

    >>> variation(get_variant("russian"), "optional", "losing").name
    'russian-nfc-losing'

    Raises:
        UnknownVariantError: ``capture`` or ``goal`` is not one of :data:`CAPTURES` / :data:`GOALS`.
    """
    if capture not in CAPTURES or goal not in GOALS:
        raise UnknownVariantError(f"no variation {excerpt(capture)} / {excerpt(goal)}: {CAPTURES} and {GOALS}")
    if capture == "optional":
        ruleset = no_forced_capture(ruleset)
    if goal == "losing":
        ruleset = losing(ruleset)
    elif goal == "breakthrough":
        ruleset = breakthrough(ruleset)
    return ruleset


def _variations(rules: Ruleset) -> list[Ruleset]:
    return [variation(rules, capture, goal) for capture in CAPTURES for goal in GOALS]


@functools.cache
def _library() -> frozenset[Ruleset]:
    return frozenset(form for rules in _named() for form in _variations(rules))


@attrs.frozen
class RulesetRegistry:
    """The rulesets one server offers, looked up by name without importing anything.

    Every named variant and its variations (:func:`variation`: ``-nfc``, ``-losing``,
    ``-breakthrough``) are always there; ``custom`` adds the user's rulesets (from the command
    line), each under its ``name`` and its variations under theirs (``name-nfc`` ...).

    Raises:
        UnknownVariantError: two custom rulesets share a name, or a custom one takes the name of
            a named variant with different rules.
    """

    custom: tuple[Ruleset, ...] = attrs.field(default=(), converter=rulesets_tuple)
    _by_name: dict[str, Ruleset] = attrs.field(init=False, factory=dict, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        seen: dict[str, Ruleset] = {}
        for rules in self.custom:
            if not isinstance(rules, Ruleset):
                raise UnknownVariantError(f"custom ruleset {excerpt(rules)} is not a draughts.Ruleset")
            for form in _variations(rules):
                clash = seen.get(form.name) or _named_or_none(form.name)
                if clash is not None and clash != form:
                    raise UnknownVariantError(
                        f"custom ruleset {rules.name!r} takes the name {form.name!r} of other rules; "
                        "give it another name (attrs.evolve(rules, name=...))"
                    )
            for form in _variations(rules):
                seen[form.name] = form
                self._by_name.setdefault(form.name.lower(), form)

    def get(self, name: object) -> Ruleset:
        """The ruleset called ``name``: a custom one by its exact name, else any name (never a file or module).

        Raises:
            UnknownVariantError: no ruleset has that name (the message quotes it).
        """
        if not isinstance(name, str):
            raise UnknownVariantError(f"variant {excerpt(name)} is not a name")
        custom = self._by_name.get(name.strip().lower())
        if custom is not None:
            return custom
        try:
            return resolve_ruleset(name, trusted=False)
        except UnknownVariantError:
            if not self.custom or ":" in name:  # the refusal to import says more than the names
                raise
            names = ", ".join(rules.name for rules in self.custom)
            raise UnknownVariantError(
                f"unknown variant {excerpt(name)}; known names: {', '.join(VARIANTS)}, the custom {names}, "
                "and '<name>-nfc' of each"
            ) from None

    def menu(self) -> list[Ruleset]:
        """Every ruleset offered, in menu order: the named ones, their house rules, the custom ones."""
        rulesets = _named()
        rulesets += [no_forced_capture(rules) for rules in _named()]
        for rules in self.custom:
            for item in (rules, no_forced_capture(rules)):
                if item not in rulesets:
                    rulesets.append(item)
        return rulesets

    def is_custom(self, ruleset: Ruleset) -> bool:
        """Whether ``ruleset`` comes from the user rather than the library."""
        return ruleset not in _library()

    def bases(self) -> list[Ruleset]:
        """The rulesets a variation starts from: the named variants, then the custom ones."""
        return [*_named(), *(rules for rules in self.custom if rules not in _named())]


def _named_or_none(name: str) -> Ruleset | None:
    try:
        return get_variant(name)
    except UnknownVariantError:
        return None
