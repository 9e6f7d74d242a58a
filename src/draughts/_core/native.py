"""The one place that turns a :class:`~draughts.Ruleset` into the native core's rules.

:func:`native_spec` reads the ruleset's fields into the dictionary the extension module
``draughts._native`` compiles (the native ``RulesSpec``); :func:`native_rules` compiles it once per
ruleset. The precedence criteria the core knows (exactly :class:`~draughts.MostPieces`,
:class:`~draughts.WithKing`, :class:`~draughts.MostKings`, :class:`~draughts.KingsEarliest` and
:class:`~draughts.MostValue`, not subclasses, which may change the key) go over as native criteria;
any other criterion makes the whole precedence a Python callback with today's semantics: the
tuple of each criterion's ``key(CaptureFacts)``, the best keys (the maximum) legal, as
the native resolver applies it. What the precedence implies for the search
(``value_weights``, ``single_jump_preference``, ``needs_order``) is computed here from the
criteria's own ``key`` and ``weights``, so that a criterion is trusted only as far as its key
agrees.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from draughts import _caches
from draughts._text import excerpt
from draughts.color import WHITE
from draughts.errors import InvalidRulesetError
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


def precedence_callback(
    key: Callable[[CaptureFacts], Any], criteria: Sequence[Criterion] = ()
) -> Callable[[Sequence[FactsTuple]], list[bool]]:
    """The Python precedence the native core calls for user-defined criteria: from the facts of
    two or more captures (tuples), one flag per capture, true where its key is the best.

    Keys that do not compare (``None`` against ``"x"``) cannot name a best capture: that is an
    :class:`~draughts.errors.InvalidRulesetError` quoting the criterion (one of ``criteria``, the
    ruleset's precedence ``key`` is built from, or ``key``'s own criterion) and the keys, not the
    bare ``TypeError`` of ``max()``. What a criterion's ``key`` raises itself comes out as raised.
    """

    def best(facts: Sequence[FactsTuple]) -> list[bool]:
        keys = [key(_make(CaptureFacts, entry)) for entry in facts]
        try:
            top = max(keys)
        except TypeError as error:
            raise _not_comparable(keys, criteria, key, error) from error
        return [value == top for value in keys]

    return best


def _not_comparable(
    keys: Sequence[Any], criteria: Sequence[Criterion], key: Callable[[CaptureFacts], Any], error: TypeError
) -> InvalidRulesetError:
    """The error of ``keys`` that do not compare: it names the criterion that gave them (found in
    ``criteria``, else ``key``'s own) and quotes them."""
    culprit = _incomparable(keys, criteria) or getattr(key, "__self__", None)
    named = f"criterion {excerpt(culprit)}" if culprit is not None else "precedence"
    return InvalidRulesetError(
        f"the {named} gave keys that do not compare, so no capture can be the best: {excerpt(keys)} ({error})"
    )


def _incomparable(keys: Sequence[Any], criteria: Sequence[Criterion]) -> Criterion | None:
    """The first of ``criteria`` whose part of the key tuples does not compare, if any is found."""
    if len(criteria) < 2:
        return criteria[0] if criteria else None
    for index, criterion in enumerate(criteria):
        try:
            max(part[index] for part in keys)
        except (TypeError, IndexError):
            return criterion
    return None


def capture_key(rules: Ruleset) -> Callable[[CaptureFacts], Any] | None:
    """The precedence key of a capture: one criterion's value, or the tuple of several (None: free choice)."""
    keys = [criterion.key for criterion in rules.precedence]
    if not keys:
        return None
    if len(keys) == 1:
        return keys[0]
    return lambda facts: tuple([key(facts) for key in keys])


def _single_jump_preference(key: Callable[[CaptureFacts], Any] | None, criteria: Sequence[Criterion] = ()) -> int:
    """Among single jumps by men: +1 the key prefers taking a king, -1 a man, 0 no preference.

    Raises:
        InvalidRulesetError: the two keys do not compare (see :func:`precedence_callback`).
    """
    if key is None:
        return 0
    king_key = key(CaptureFacts(1, 1, False, (True,)))
    man_key = key(CaptureFacts(1, 0, False, (False,)))
    try:
        return int(king_key > man_key) - int(king_key < man_key)
    except TypeError as error:
        raise _not_comparable([king_key, man_key], criteria, key, error) from error


def value_weights(rules: Ruleset) -> tuple[int, int] | None:
    """The weights ``(man, king)`` of the ruleset's first precedence criterion when its key is the
    total value of the pieces captured (:meth:`~draughts.Criterion.weights`, checked against the
    key on small captures, so that a subclass that changed the key but not the weights is not
    trusted), else None. Under such a criterion only the captures of the best total can be legal."""
    precedence = rules.precedence
    weights = precedence[0].weights() if precedence else None
    if weights is None or min(weights) < 0:
        return None
    man, king = weights
    for pieces in range(4):
        for kings in range(pieces + 1):
            for with_king in (False, True):
                facts = CaptureFacts(pieces, kings, with_king, (True,) * kings + (False,) * (pieces - kings))
                if precedence[0].key(facts) != (pieces - kings) * man + kings * king:
                    return None
    return weights


def native_spec(rules: Ruleset) -> dict[str, Any]:
    """The rule dimensions of ``rules`` as the native ``RulesSpec`` holds them (see the module)."""
    weights = value_weights(rules)
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
        "single_jump_preference": _single_jump_preference(capture_key(rules), rules.precedence),
        "needs_order": any(criterion.needs_order for criterion in rules.precedence),
    }


@functools.lru_cache(maxsize=_caches.RULESETS)
def native_rules(rules: Ruleset) -> Rules:
    """``rules`` compiled by the native core (once per ruleset, as :func:`compile_rules` is).

    Raises:
        InvalidRulesetError: the native core refuses the rules (a value beyond its limits).
    """
    import draughts._native as native  # the extension module, loaded on first use

    key = capture_key(rules)
    callback = None
    if native_precedence(rules) is None and key is not None:
        callback = precedence_callback(key, rules.precedence)
    return native.Rules(native_spec(rules), callback)
