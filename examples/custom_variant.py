"""Define Sri Lankan draughts with attrs.evolve, reject a broken ruleset, and check perft."""

from __future__ import annotations

import attrs

import draughts

# Published start-position perft of Sri Lankan draughts, equal to Canadian's (the FMJD forum's
# "Perft on large boards", as dctl tests both), depths 1-5.
SRI_LANKAN_PERFT = [11, 121, 1222, 10053, 79049]


def sri_lankan() -> draughts.Ruleset:
    """Sri Lankan draughts: Canadian (International rules on 12x12) on the other colour of the board."""
    return attrs.evolve(
        draughts.get_variant("canadian"),
        name="sri-lankan",
        title="Sri Lankan draughts",
        bottom_left_playable=False,
        pdn_gametype=None,
        sources=("dctl: International rules on 12x12, other colouring",),
    )


def main() -> None:
    rules = sri_lankan()
    base = draughts.get_variant("canadian")
    print(f"{rules.title} ({rules.name})")
    changed = [
        field.name
        for field in attrs.fields(draughts.Ruleset)
        if field.eq and getattr(rules, field.name) != getattr(base, field.name)
    ]
    print("differs from Canadian in:", ", ".join(changed))

    # Rulesets validate themselves: an impossible one is never created.
    try:
        attrs.evolve(rules, name="too-many-rows", rows_per_side=6)
    except draughts.InvalidRulesetError as error:  # a ValueError, like every polydraughts error
        print(f"rejected: {error}")

    start = draughts.Position.initial(rules)
    print(f"start: {start.fen()}")
    for depth, published in enumerate(SRI_LANKAN_PERFT, start=1):
        count = draughts.perft(start, depth)
        verdict = "ok" if count == published else f"MISMATCH (published {published:,})"
        print(f"perft({depth}) = {count:>9,}  {verdict}")
        if count != published:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
