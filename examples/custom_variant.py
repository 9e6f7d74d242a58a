"""Define American pool checkers with attrs.evolve, reject a broken ruleset, and check perft."""

from __future__ import annotations

import attrs

import draughts

# Published start-position perft of pool checkers (the shashki.com "Standard validation
# generator moves" thread, as transcribed in dctl), depths 1-7.
POOL_PERFT = [7, 49, 302, 1469, 7482, 37986, 190146]


def pool_checkers() -> draughts.Ruleset:
    """American pool checkers: Brazilian rules without the majority capture, Black first."""
    return attrs.evolve(
        draughts.get_variant("brazilian"),
        name="pool",
        title="American pool checkers",
        first_to_move=draughts.BLACK,
        precedence=(),  # free choice among captures
        square_names=draughts.SquareNames.NUMERIC,  # 1-32 as in English checkers
        pdn_gametype=23,
        sources=("APCA rules", "PDN 3.0 GameType 23"),
    )


def main() -> None:
    pool = pool_checkers()
    print(f"{pool.title} ({pool.name}), PDN GameType {pool.pdn_gametype_tag}")
    changed = [
        field.name
        for field in attrs.fields(draughts.Ruleset)
        if field.eq and getattr(pool, field.name) != getattr(draughts.get_variant("brazilian"), field.name)
    ]
    print("differs from Brazilian in:", ", ".join(changed))

    # Rulesets validate themselves: an impossible one is never created.
    try:
        attrs.evolve(pool, name="pool-10", rows_per_side=4)
    except draughts.InvalidRulesetError as error:  # a ValueError, like every polydraughts error
        print(f"rejected: {error}")

    start = draughts.Position.initial(pool)
    print(f"start: {start.fen()}")
    for depth, published in enumerate(POOL_PERFT, start=1):
        count = draughts.perft(start, depth)
        verdict = "ok" if count == published else f"MISMATCH (published {published:,})"
        print(f"perft({depth}) = {count:>9,}  {verdict}")
        if count != published:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
