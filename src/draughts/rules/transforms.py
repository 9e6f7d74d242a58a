"""Transforms of any ruleset: the losing and breakthrough forms, and the no-forced-capture house rule.

Each is idempotent and names its result with a suffix (``-losing``, ``-breakthrough``, ``-nfc``) that
:func:`draughts.get_variant` reads back."""

from __future__ import annotations

import attrs

from draughts.rules import (
    DrawRules,
    Ruleset,
)

LOSING_SUFFIX = "-losing"
BREAKTHROUGH_SUFFIX = "-breakthrough"


def _repetition_only(draws: DrawRules) -> DrawRules:
    return DrawRules(repetitions=draws.repetitions, repetition_claim=draws.repetition_claim)


def losing(rules: Ruleset) -> Ruleset:
    """The losing form of ``rules`` (giveaway): a player with no legal move wins.

    Moves and captures stay those of ``rules``; the repetition draw stays, the move-count and
    material draws go (they suppose that material wins). Named ``"<name>-losing"``.

    >>> from draughts import get_variant, losing
    >>> losing(get_variant("american")).name
    'american-losing'
    """
    if rules.no_move_wins:
        return rules
    return attrs.evolve(
        rules,
        name=f"{rules.name}{LOSING_SUFFIX}",
        title=f"{rules.title} (losing)",
        no_move_wins=True,
        draw_rules=DrawRules(
            repetitions=rules.draw_rules.repetitions, repetition_claim=rules.draw_rules.repetition_claim
        ),
        pdn_gametype=None,
        sources=(*rules.sources, "losing form: the side without a move wins (lidraughts Antidraughts)"),
    )


def breakthrough(rules: Ruleset) -> Ruleset:
    """The breakthrough form of ``rules``: the first player to crown a man wins.

    A player without a legal move still loses; kings never come into play, so the move-count and
    material draws go. Named ``"<name>-breakthrough"``.
    """
    if rules.crowning_wins:
        return rules
    return attrs.evolve(
        rules,
        name=f"{rules.name}{BREAKTHROUGH_SUFFIX}",
        title=f"{rules.title} (breakthrough)",
        crowning_wins=True,
        draw_rules=DrawRules(
            repetitions=rules.draw_rules.repetitions, repetition_claim=rules.draw_rules.repetition_claim
        ),
        pdn_gametype=None,
        sources=(*rules.sources, "breakthrough form: the first king wins (lidraughts Breakthrough)"),
    )


NFC_SUFFIX = "-nfc"


def no_forced_capture(rules: Ruleset) -> Ruleset:
    """The "no forced capture" house rule of ``rules``.

    Quiet moves stay legal when a capture exists; a capture, once chosen, is still the base
    variant's complete sequence, and the base variant's precedence still chooses among captures
    (a capture's sequence is "full", its choice among captures the "base" variant's). No
    federation plays this way; it is how many people play at home.

    >>> from draughts import get_variant, no_forced_capture
    >>> no_forced_capture(get_variant("russian")).name
    'russian-nfc'
    """
    if not rules.capture_mandatory:
        return rules
    return attrs.evolve(
        rules,
        name=f"{rules.name}{NFC_SUFFIX}",
        title=f"{rules.title} (no forced capture)",
        capture_mandatory=False,
        pdn_gametype=None,
        sources=(*rules.sources, "house rule: capture optional (no federation source)"),
    )
