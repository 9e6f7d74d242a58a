"""The one place that turns a :class:`~draughts.Ruleset` into the native core's rules.

:func:`native_spec` reads the ruleset's fields into the dictionary the extension module
``draughts._native`` compiles (the native ``RulesSpec``); :func:`native_rules` compiles it once per
ruleset. The precedence criteria the core knows (exactly :class:`~draughts.MostPieces`,
:class:`~draughts.WithKing`, :class:`~draughts.MostKings`, :class:`~draughts.KingsEarliest` and
:class:`~draughts.MostValue`, not subclasses, which may change the key) go over as native criteria;
any other criterion makes the whole precedence a Python callback with today's semantics: the
tuple of each criterion's ``key(CaptureFacts)``, the best keys (the maximum) legal, as
:mod:`draughts._core.resolver` applies it. What the precedence implies for the search
(``value_weights``, ``single_jump_preference``, ``needs_order``) is what the Python tables compute
(:func:`draughts._core.capture._value_weights`, :func:`draughts._core.tables.compile_rules`), so
it is computed once for both generators.

The Python API still runs the Python generator; this module is what the switch-over will use.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from draughts import _caches
from draughts._core.capture import _value_weights
from draughts._core.tables import compile_rules
from draughts.color import WHITE
from draughts.rules import (
    CapturedRemoval,
    CaptureFacts,
    Criterion,
    KingRange,
    KingsEarliest,
    MostKings,
    MostPieces,
    MostValue,
    Ruleset,
    WithKing,
)
from draughts.rules.geometry import BoardSquares

if TYPE_CHECKING:
    from draughts._native import Rules

_BUILT_IN = (MostPieces, WithKing, MostKings, KingsEarliest, MostValue)
"""The criteria the native core implements itself (exact classes)."""

_make = tuple.__new__  # builds the NamedTuple without its Python-level __new__

FactsTuple = tuple[int, int, bool, tuple[bool, ...]]


def _native_criterion(criterion: Criterion) -> tuple[str, int, int] | None:
    """``(kind, man, king)`` of a built-in criterion, None for any other (user-defined)."""
    kind = type(criterion)
    if kind not in _BUILT_IN:
        return None
    if isinstance(criterion, MostValue):
        return ("MostValue", criterion.man, criterion.king)
    return (kind.__name__, 0, 0)


def native_precedence(rules: Ruleset) -> list[tuple[str, int, int]] | None:
    """The ruleset's precedence as native criteria, or None when some criterion is not built in."""
    found = [_native_criterion(criterion) for criterion in rules.precedence]
    if any(criterion is None for criterion in found):
        return None
    return [criterion for criterion in found if criterion is not None]


def precedence_callback(key: Callable[[CaptureFacts], Any]) -> Callable[[Sequence[FactsTuple]], list[bool]]:
    """The Python precedence the native core calls for user-defined criteria: from the facts of
    two or more captures (tuples), one flag per capture, true where its key is the best."""

    def best(facts: Sequence[FactsTuple]) -> list[bool]:
        keys = [key(_make(CaptureFacts, entry)) for entry in facts]
        top = max(keys)
        return [value == top for value in keys]

    return best


def native_spec(rules: Ruleset) -> dict[str, Any]:
    """The rule dimensions of ``rules`` as the native ``RulesSpec`` holds them (see the module)."""
    tables = compile_rules(rules)
    weights = _value_weights(tables)
    return {
        "board_size": (rules.width, rules.height),
        "all_squares": rules.board_squares is BoardSquares.ALL,
        "bottom_left_playable": rules.bottom_left_playable,
        "numbering": rules.numbering.name,
        "rows_per_side": rules.rows_per_side,
        "men_start_row": rules.men_start_row,
        "first_to_move": 0 if rules.first_to_move is WHITE else 1,
        "men_move": rules.men_move.value,
        "men_capture": rules.men_capture.value,
        "kings_move": rules.kings_move.value,
        "kings_capture": rules.kings_capture.value,
        "men_capture_kings": rules.men_capture_kings,
        "flying_kings": rules.king_range is KingRange.FLYING,
        "king_landing": rules.king_landing.name,
        "capture_promotion": rules.capture_promotion.name,
        "capture_mandatory": rules.capture_mandatory,
        "immediate_removal": rules.captured_removal is CapturedRemoval.IMMEDIATE,
        "capture_reversal": rules.capture_reversal,
        "king_move_limit": rules.king_move_limit or 0,
        "no_move_wins": rules.no_move_wins,
        "crowning_wins": rules.crowning_wins,
        "precedence": native_precedence(rules) or [],
        "value_weights": weights,
        "single_jump_preference": tables.single_jump_preference,
        "needs_order": tables.needs_order,
    }


@functools.lru_cache(maxsize=_caches.RULESETS)
def native_rules(rules: Ruleset) -> Rules:
    """``rules`` compiled by the native core (once per ruleset, as :func:`compile_rules` is).

    Raises:
        InvalidRulesetError: the native core refuses the rules (a value beyond its limits).
    """
    import draughts._native as native  # the extension module, loaded on first use

    key = compile_rules(rules).capture_key
    callback = None
    if native_precedence(rules) is None and key is not None:
        callback = precedence_callback(key)
    return native.Rules(native_spec(rules), callback)
