"""Which rules a PDN game follows: GameType fields, ``ruleset=`` against the tag, and what the writer claims.

Each test here failed before the hardening issue's item 7: a GameType whose fields contradicted its
number gave the variant anyway, ``ruleset=`` never met a tag it could override or check, and the
writer copied an evolved ruleset's inherited GameType, so its games read back under other rules.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

import draughts
from conftest import DATA
from draughts import BLACK, PDNError, UnknownVariantError, pdn
from draughts.pdn import PDNUnknownVariantError

BRAZILIAN = draughts.VARIANTS["brazilian"]
INTERNATIONAL = draughts.VARIANTS["international"]
POOL = attrs.evolve(BRAZILIAN, name="my-pool", title="Pool", first_to_move=BLACK, precedence=())
"""The issue's example: evolved from Brazilian, keeping Brazilian's GameType number 26."""
POOL_45 = attrs.evolve(POOL, pdn_gametype=45)
"""The same with a GameType number of its own (PDN 3.0 keeps 42-49 for future draughts)."""
FREE_INTERNATIONAL = attrs.evolve(INTERNATIONAL, draw_rules=draughts.DrawRules(repetitions=None))
"""International rules without draws by repetition: still named "international", still GameType 20."""


def game_of(rules: draughts.Ruleset, plies: int = 4) -> pdn.Game:
    board = draughts.Board(rules)
    for _ in range(plies):
        board.push(list(board.legal_moves)[-1])
    return pdn.Game.from_board(board, {"Event": "e"})


# --- GameType fields -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "says"),
    [
        ("26,B,8,8,A0,0", "Black moves first, but White does in brazilian"),
        ("21,W,8,8,N1,0", "White moves first, but Black does in american"),
        ("22,W,8,8,N2,0", "the board is not inverted (invert flag 0), but italian's is"),
        ("25,W,8,8,A0,1", "the board is inverted (invert flag 1), but russian's is not"),
        ("20,W,8,8,N2,0", "the board is 8x8, but international is played on 10x10"),
    ],
)
def test_a_gametype_whose_fields_contradict_its_number_is_an_error(tag: str, says: str) -> None:
    with pytest.raises(UnknownVariantError) as caught:
        draughts.get_variant(tag)
    assert str(caught.value).startswith(f"GameType {tag!r} is not ")
    assert says in str(caught.value)
    with pytest.raises(PDNUnknownVariantError, match=re.escape(says)):
        pdn.parse_game(f'[GameType "{tag}"]\n*')


@pytest.mark.parametrize("tag", ["20,W,10,10,N1,0", "20,w,10,10,n2", "25,W,8,8,N2,0", " 26 ", "21,B,8,8,A0,0"])
def test_harmless_differences_are_tolerated(tag: str) -> None:
    """The notation field says how squares are written, which the reader learns from the moves."""
    number = int(tag.split(",")[0])
    assert draughts.from_gametype(tag).pdn_gametype == number


def test_every_gametype_tag_of_the_sample_files_reads_as_its_folders_variant() -> None:
    folders = {"english": "american"}
    seen = set()
    for path in sorted((DATA / "games").glob("*/*.pdn")):
        variant = folders.get(path.parent.name, path.parent.name)
        for tag in re.findall(r'\[GameType "([^"]*)"\]', path.read_text(encoding="utf-8", errors="replace")):
            if tag in ("96", "97", "98"):  # lidraughts' own numbers, outside PDN 3.0: aliases
                assert draughts.get_variant(tag).name == variant, (path, tag)
            else:
                assert draughts.from_gametype(tag).name == variant, (path, tag)
            assert pdn.parse_game(f'[GameType "{tag}"] *').ruleset.name == variant, (path, tag)
            seen.add(tag)
    assert seen == {"20", "20,W,10,10,N1,0", "23", "25", "26", "96", "97", "98"}


def test_the_10x10_alias_is_a_name_not_a_gametype() -> None:
    assert draughts.get_variant("10x10") is INTERNATIONAL


def test_compare_refuses_a_contradictory_gametype() -> None:
    script = Path(sys.executable).parent / "draughts"
    done = subprocess.run(
        [str(script), "compare", "brazilian", "26,B,8,8,A0,0", "--diff"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Black moves first" in done.stderr


# --- ruleset= against the tag --------------------------------------------------------------------


def test_an_explicit_variant_is_used_when_the_tag_is_its_own_or_absent() -> None:
    text = '[GameType "20"]\n1. 32-28 19-23 *'
    assert pdn.parse_game(text).ruleset is INTERNATIONAL
    assert pdn.parse_game(text, FREE_INTERNATIONAL).ruleset is FREE_INTERNATIONAL  # same number, its own
    assert pdn.parse_game("1. 32-28 *", FREE_INTERNATIONAL).ruleset is FREE_INTERNATIONAL
    assert pdn.parse_game('[GameType "45"] 1. 9-13 *', POOL_45).ruleset is POOL_45


@pytest.mark.parametrize(
    ("tag", "variant", "says"),
    [
        ("25", "international", "GameType '25' (russian) is not international, which has GameType 20"),
        ("20", "russian-nfc", "GameType '20' (international) is not russian-nfc, which has no GameType"),
        ("23", "brazilian", "GameType '23' (pool) is not brazilian, which has GameType 26"),
        ("21,B,8,8,N1,0", POOL_45, "GameType '21,B,8,8,N1,0' (american) is not my-pool, which has GameType 45"),
        ("45,W,8,8,A0,0", POOL_45, "White moves first, but Black does in my-pool"),
    ],
)
def test_a_tag_that_contradicts_the_explicit_variant_is_an_error_naming_both(
    tag: str, variant: str | draughts.Ruleset, says: str
) -> None:
    name = variant if isinstance(variant, str) else variant.name
    with pytest.raises(PDNUnknownVariantError) as caught:
        pdn.parse_game(f'[Event "x"]\n[GameType "{tag}"]\n1. 9-13 *', variant)
    message = str(caught.value)
    assert message.startswith(f"game 1 (Event 'x'), line 2: the GameType tag contradicts ruleset={name!r}: ")
    assert says in message


def test_without_a_gametype_the_variant_tag_names_the_rules() -> None:
    games = list(pdn.read_games(DATA / "games" / "english" / "py-draughts-playstrategy-american.pdn"))
    assert {game.ruleset.name for game in games} == {"american"}  # [Variant "American/English"]
    assert pdn.parse_game('[Variant "russian-nfc"] 1. c3-d4 *').ruleset == draughts.get_variant("russian-nfc")
    assert pdn.parse_game('[Variant "Brazil"]\n[GameType "25"] 1. c3-d4 *').ruleset.name == "russian"  # GameType wins
    assert pdn.parse_game('[Variant "brazil"] 1. c3-d4 *', "czech").ruleset.name == "czech"  # ruleset= wins
    assert pdn.parse_game('[Variant "Frisian"] 1. 32-28 *').ruleset.name == "frisian"
    with pytest.raises(PDNUnknownVariantError, match=r"Variant tag 'Gothic' names no known ruleset.*ruleset="):
        pdn.parse_game('[Variant "Gothic"] 1. 32-28 *')


# --- what the writer claims ----------------------------------------------------------------------


def tags_of(text: str) -> dict[str, str]:
    return dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', text, re.MULTILINE))


@pytest.mark.parametrize(
    "rules", [rules for rules in draughts.VARIANTS.values() if rules.pdn_gametype is not None], ids=lambda r: r.name
)
def test_named_variants_write_their_gametype(rules: draughts.Ruleset) -> None:
    game = game_of(rules)
    text = pdn.write_game(game)
    assert tags_of(text)["GameType"] == rules.pdn_gametype_tag
    assert "Variant" not in tags_of(text)
    assert pdn.parse_game(text).ruleset is rules


def test_a_house_rule_is_named_by_a_variant_tag_that_reads_back() -> None:
    rules = draughts.get_variant("american-nfc")
    game = game_of(rules)
    text = pdn.write_game(game)
    assert tags_of(text) == {"Event": "e", "Variant": "american-nfc"}
    again = pdn.parse_game(text)
    assert again.ruleset == rules
    assert again.mainline_moves() == game.mainline_moves()


def test_an_evolved_ruleset_never_claims_its_bases_gametype() -> None:
    game = game_of(POOL)
    text = pdn.write_game(game)
    assert "26" not in text  # was [GameType "26,B,8,8,A0,0"], read back as Brazilian: illegal at ply 1
    assert tags_of(text) == {"Event": "e", "Variant": "my-pool"}
    with pytest.raises(PDNUnknownVariantError, match=r"Variant tag 'my-pool' names no known ruleset.*ruleset="):
        pdn.parse_game(text)
    again = pdn.parse_game(text, POOL)
    assert (again.ruleset, again.mainline_moves()) == (POOL, game.mainline_moves())


def test_a_ruleset_with_a_gametype_number_of_its_own_writes_it() -> None:
    game = game_of(POOL_45)
    text = pdn.write_game(game)
    assert tags_of(text) == {"Event": "e", "GameType": "45,B,8,8,A0,0", "Variant": "my-pool"}
    with pytest.raises(PDNUnknownVariantError, match=r"unknown GameType: GameType '45,B,8,8,A0,0'.*ruleset="):
        pdn.parse_game(text)
    again = pdn.parse_game(text, POOL_45)  # was PDNUnknownVariantError even with ruleset=pool
    assert (again.ruleset, again.mainline_moves()) == (POOL_45, game.mainline_moves())


def test_named_variants_without_a_gametype_are_named_by_a_variant_tag() -> None:
    for name in ("frysk", "killer", "antidraughts", "breakthrough"):
        game = game_of(draughts.VARIANTS[name])
        text = pdn.write_game(game)
        assert tags_of(text) == {"Event": "e", "Variant": name}
        assert pdn.parse_game(text).ruleset is draughts.VARIANTS[name]


def test_an_evolved_ruleset_that_kept_a_named_variants_name_is_marked_custom() -> None:
    game = game_of(FREE_INTERNATIONAL)
    text = pdn.write_game(game)
    assert tags_of(text) == {"Event": "e", "Variant": "international (custom rules)"}
    with pytest.raises(PDNError, match="ruleset="):
        pdn.parse_game(text)  # never silently the International rules it is not
    assert pdn.parse_game(text, FREE_INTERNATIONAL).ruleset is FREE_INTERNATIONAL


def test_the_rules_tags_replace_stale_ones_from_the_headers() -> None:
    game = game_of(POOL)
    game.headers.update({"GameType": "26", "Variant": "brazilian"})
    assert tags_of(pdn.write_game(game)) == {"Event": "e", "Variant": "my-pool"}
    named = game_of(BRAZILIAN)
    named.headers["Variant"] = "Brazilian draughts"  # a named variant keeps an informative Variant tag
    assert tags_of(pdn.write_game(named))["Variant"] == "Brazilian draughts"


@pytest.mark.parametrize("tag", ["20", "20,W,10,10,N1,0", " 20 ", "25"])
def test_a_gametype_tag_is_written_as_it_was_read(tag: str) -> None:
    """Issue 40 §10: ``[GameType "20"]`` came back as ``"20,W,10,10,N2,0"``, so every game changed on a round trip."""
    text = f'[Event "e"]\n[GameType "{tag}"]\n\n*\n'
    game = pdn.parse_game(text)
    assert tags_of(pdn.write_game(game))["GameType"] == tag
    assert pdn.write_game(pdn.parse_game(pdn.write_game(game))) == pdn.write_game(game)
    assert pdn.parse_game(pdn.write_game(game)).ruleset is game.ruleset
