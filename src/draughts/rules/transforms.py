"""Transforms of any ruleset: the losing and breakthrough forms, and the no-forced-capture house rule.

Each is idempotent and names its result with a suffix (``-losing``, ``-breakthrough``, ``-nfc``) that
:func:`draughts.get_variant` reads back."""

from __future__ import annotations

import attrs

from draughts.rules import (
    DrawRules,
    Ruleset,
)

__all__ = ["BREAKTHROUGH_SUFFIX", "LOSING_SUFFIX", "NFC_SUFFIX", "breakthrough", "losing", "no_forced_capture"]

LOSING_SUFFIX = "-losing"
BREAKTHROUGH_SUFFIX = "-breakthrough"


def _new_goal(
    ruleset: Ruleset, suffix: str, title: str, source: str, *, no_move_wins: bool, crowning_wins: bool
) -> Ruleset:
    """``ruleset`` with another goal: named with ``suffix``, keeping the repetition draw and dropping
    the move-count and material draws (they suppose that material wins)."""
    draws = ruleset.draw_rules
    return attrs.evolve(
        ruleset,
        name=f"{ruleset.name}{suffix}",
        title=f"{ruleset.title} ({title})",
        draw_rules=DrawRules(repetitions=draws.repetitions, repetition_claim=draws.repetition_claim),
        pdn_gametype=None,
        sources=(*ruleset.sources, source),
        no_move_wins=no_move_wins,
        crowning_wins=crowning_wins,
    )


def losing(ruleset: Ruleset) -> Ruleset:
    """The losing form of ``ruleset`` (giveaway): a player with no legal move wins.

    Moves and captures stay those of ``ruleset``; the repetition draw stays, the move-count and
    material draws go (they suppose that material wins). Named ``"<name>-losing"``.

    >>> from draughts import get_variant, losing
    >>> losing(get_variant("american")).name
    'american-losing'
    """
    if ruleset.no_move_wins:
        return ruleset
    source = "losing form: the side without a move wins (lidraughts Antidraughts)"
    return _new_goal(ruleset, LOSING_SUFFIX, "losing", source, no_move_wins=True, crowning_wins=ruleset.crowning_wins)


def breakthrough(ruleset: Ruleset) -> Ruleset:
    """The breakthrough form of ``ruleset``: the first player to crown a man wins.

    A player without a legal move still loses; kings never come into play, so the move-count and
    material draws go. Named ``"<name>-breakthrough"``.
    """
    if ruleset.crowning_wins:
        return ruleset
    source = "breakthrough form: the first king wins (lidraughts Breakthrough)"
    return _new_goal(
        ruleset, BREAKTHROUGH_SUFFIX, "breakthrough", source, no_move_wins=ruleset.no_move_wins, crowning_wins=True
    )


NFC_SUFFIX = "-nfc"


def no_forced_capture(ruleset: Ruleset) -> Ruleset:
    """The "no forced capture" house rule of ``ruleset``.

    Quiet moves stay legal when a capture exists; a capture, once chosen, is still the base
    variant's complete sequence, and the base variant's precedence still chooses among captures
    (a capture's sequence is "full", its choice among captures the "base" variant's). No
    federation plays this way; it is how many people play at home.

    >>> from draughts import get_variant, no_forced_capture
    >>> no_forced_capture(get_variant("russian")).name
    'russian-nfc'
    """
    if not ruleset.capture_mandatory:
        return ruleset
    return attrs.evolve(
        ruleset,
        name=f"{ruleset.name}{NFC_SUFFIX}",
        title=f"{ruleset.title} (no forced capture)",
        capture_mandatory=False,
        pdn_gametype=None,
        sources=(*ruleset.sources, "house rule: capture optional (no federation source)"),
    )
