"""Tags: the standard roster and its Italian names, and the tags that name a game's rules (GameType, Variant)."""

from __future__ import annotations

import re

from draughts.errors import UnknownVariantError
from draughts.rules import Ruleset
from draughts.rules.names import from_gametype, get_variant
from draughts.rules.variants import VARIANTS

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
ITALIAN_TAGS = {
    "Bianco": "White",
    "Nero": "Black",
    "Risultato": "Result",
    "Evento": "Event",
    "Luogo": "Site",
    "Data": "Date",
    "Turno": "Round",
}

INTERNATIONAL = get_variant("international")
_CUSTOM = " (custom rules)"
OWN = "that ruleset"


def named_ruleset(value: str) -> Ruleset | None:
    """The ruleset a Variant tag names (``russian``, ``american-nfc``, ``American/English``), or None."""
    names = [value, *value.split("/")] if "/" in value else [value]
    found: list[Ruleset] = []
    for name in names:
        try:
            found.append(get_variant(name))
        except UnknownVariantError:
            if name is value and len(names) > 1:
                continue  # "American/English": each part names the same ruleset
            return None
    return found[0] if found and all(rules == found[0] for rules in found) else None


def variant_tags(rules: Ruleset) -> dict[str, str]:
    """The tags that say which rules a written game follows, so that reading it back gives ``rules``.

    A GameType tag only when reading it gives ``rules`` (so a ruleset evolved from a named
    variant never claims that variant's GameType); otherwise a Variant tag that gives ``rules``
    back by name, or, for a ruleset of the caller's own, one that no name gives (read such a game
    with ``variant=``), and the ruleset's own GameType if no named variant has its number.
    """
    tag = rules.pdn_gametype_tag
    if tag is not None:
        try:
            if from_gametype(tag) == rules:
                return {"GameType": tag}
        except UnknownVariantError:
            pass
    tags = {}
    if tag is not None and all(named.pdn_gametype != rules.pdn_gametype for named in VARIANTS.values()):
        tags["GameType"] = tag
    named = named_ruleset(rules.name)
    tags["Variant"] = rules.name if named is None or named == rules else rules.name + _CUSTOM
    return tags


def tag_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", name.strip())


# --- input: lines from paths and streams -------------------------------------------------------
