"""Named variants, aliases, GameType lookup, the no-forced-capture house rule, ruleset validation."""

from __future__ import annotations

import pickle

import attrs
import pytest

import draughts
from draughts import CapturePromotion, KingRange, Precedence


def test_the_named_variants() -> None:
    assert (
        tuple(draughts.VARIANTS)[:7]
        == draughts.rules.variants.FEDERATION_VARIANTS
        == (
            "italian",
            "american",
            "russian",
            "brazilian",
            "spanish",
            "czech",
            "international",
        )
    )
    assert set(draughts.VARIANTS) - set(draughts.rules.variants.FEDERATION_VARIANTS) == {
        "frisian",
        "frysk",
        "killer",
        "antidraughts",
        "breakthrough",
        "thai",
        "turkish",
        "pool",
        "canadian",
        "portuguese",
        "spantsiretti",
        "srilankan",
    }
    for name, rules in draughts.VARIANTS.items():
        assert rules.name == name
        assert draughts.get_variant(name) is rules


@pytest.mark.parametrize(
    ("alias", "canonical"),
    [
        ("english", "american"),
        ("Checkers", "american"),
        ("shashki", "russian"),
        ("dama", "italian"),
        ("  International ", "international"),
        ("ceska_dama", "czech"),
        ("losing", "antidraughts"),
        ("bt", "breakthrough"),
        ("Mak-hos", "thai"),
        ("damas clássicas".replace("á", "a"), "portuguese"),
    ],
)
def test_aliases(alias: str, canonical: str) -> None:
    assert draughts.get_variant(alias) is draughts.VARIANTS[canonical]


@pytest.mark.parametrize(
    ("gametype", "canonical"),
    [
        ("20", "international"),
        ("21", "american"),
        ("22,W,8,8,N2,1", "italian"),
        ("24", "spanish"),
        ("25,W,8,8,A0,0", "russian"),
        ("26", "brazilian"),
        ("29", "czech"),
        ("23,B,8,8,N1,0", "pool"),
        ("27", "canadian"),
        ("28", "portuguese"),
        ("30,W,8,8,A0,0", "turkish"),
        ("31", "thai"),
        ("40", "frisian"),
    ],
)
def test_lookup_by_gametype(gametype: str, canonical: str) -> None:
    assert draughts.get_variant(gametype) is draughts.VARIANTS[canonical]
    assert draughts.from_gametype(int(gametype.split(",")[0])) is draughts.VARIANTS[canonical]


def test_gametype_tags_are_derived_from_the_fields() -> None:
    tags = {name: rules.pdn_gametype_tag for name, rules in draughts.VARIANTS.items()}
    assert tags == {
        "international": "20,W,10,10,N2,0",
        "american": "21,B,8,8,N1,0",
        "italian": "22,W,8,8,N2,1",
        "spanish": "24,W,8,8,N1,1",
        "russian": "25,W,8,8,A0,0",
        "brazilian": "26,W,8,8,A0,0",
        "czech": "29,W,8,8,A0,0",
        "pool": "23,B,8,8,N1,0",
        "canadian": "27,W,12,12,N2,0",
        "portuguese": "28,W,8,8,N1,1",
        "turkish": "30,W,8,8,A0,0",
        "thai": "31,W,8,8,N2,0",  # PDN 3.0 lists "31,B": who starts Thai draughts is disputed (see variants.THAI)
        "frisian": "40,W,10,10,N2,0",
        "spantsiretti": "41,W,10,8,A0,0",
        "srilankan": None,
        "frysk": None,
        "killer": None,
        "antidraughts": None,
        "breakthrough": None,
    }


@pytest.mark.parametrize("bad", ["chess", "", "32", "20,W,8,8,N2,0", "25,W,8", 42, "1" * 43])
def test_unknown_variant(bad: object) -> None:
    with pytest.raises(draughts.UnknownVariantError) as info:
        draughts.get_variant(bad)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    assert repr(bad) in str(info.value) or str(bad) in str(info.value)


def test_no_forced_capture_changes_only_capture_mandatory() -> None:
    for rules in draughts.VARIANTS.values():
        house = draughts.no_forced_capture(rules)
        assert not house.capture_mandatory
        assert house.name == f"{rules.name}-nfc"
        assert (
            attrs.evolve(
                house, name=rules.name, title=rules.title, capture_mandatory=True, pdn_gametype=rules.pdn_gametype
            )
            == rules
        )
        assert draughts.no_forced_capture(house) is house


@pytest.mark.parametrize(
    "name", ["russian-nfc", "Russian no forced capture", "no-forced-capture russian", "shashki-nfc"]
)
def test_no_forced_capture_by_name(name: str) -> None:
    assert draughts.get_variant(name) == draughts.no_forced_capture(draughts.VARIANTS["russian"])


def test_bare_no_forced_capture_is_american() -> None:
    assert draughts.get_variant("no-forced-capture") == draughts.no_forced_capture(draughts.VARIANTS["american"])


def test_rulesets_are_frozen_hashable_and_pickle() -> None:
    rules = draughts.VARIANTS["italian"]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rules.board_size = 10  # type: ignore[misc]
    assert {rules: 1}[draughts.get_variant("dama")] == 1
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_every_field_has_a_label() -> None:
    for field in attrs.fields(draughts.Ruleset):
        assert field.metadata["label"]


def test_key_rule_differences() -> None:
    v = draughts.VARIANTS
    assert not v["italian"].men_capture_kings
    assert v["american"].men_capture_kings
    assert v["american"].first_to_move is draughts.BLACK
    assert v["italian"].first_to_move is draughts.WHITE
    assert v["italian"].precedence == (
        Precedence.MOST_PIECES,
        Precedence.WITH_KING,
        Precedence.MOST_KINGS,
        Precedence.KINGS_EARLIEST,
    )
    assert v["czech"].precedence == (Precedence.WITH_KING,)
    assert v["russian"].capture_promotion is CapturePromotion.CONTINUES_AS_KING
    assert v["international"].capture_promotion is CapturePromotion.ONLY_AT_END
    assert [r.king_range for r in (v["italian"], v["american"])] == [KingRange.SHORT] * 2
    assert not v["italian"].bottom_left_playable
    assert not v["spanish"].bottom_left_playable


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"board_size": 9}, "board_size 9"),
        ({"board_size": 2}, "board_size 2"),
        ({"rows_per_side": 4}, "rows_per_side 4"),
        ({"rows_per_side": 0}, "rows_per_side 0"),
        ({"precedence": (Precedence.MOST_PIECES, Precedence.MOST_PIECES)}, "twice"),
        ({"precedence": ("most pieces",)}, "precedence"),
        ({"king_range": "flying"}, "king_range 'flying'"),
        ({"capture_separator": "-"}, "both '-'"),
        ({"move_separator": "7"}, "move_separator '7'"),
        ({"name": "my variant"}, "name 'my variant'"),
        ({"men_capture_kings": 1}, "men_capture_kings 1"),
        ({"pdn_gametype": -1}, "pdn_gametype -1"),
        ({"first_to_move": "white"}, "first_to_move 'white'"),
    ],
)
def test_invalid_rulesets_are_rejected(changes: dict[str, object], message: str) -> None:
    with pytest.raises(draughts.InvalidRulesetError, match=message.replace("(", r"\(")) as info:
        attrs.evolve(draughts.VARIANTS["american"], **changes)
    assert isinstance(info.value, draughts.DraughtsError)


def test_user_defined_12x12_variant_just_works() -> None:
    canadian = attrs.evolve(
        draughts.VARIANTS["international"],
        name="canadian",
        title="Canadian draughts",
        board_size=12,
        rows_per_side=5,
        pdn_gametype=27,
    )
    position = draughts.Position.initial(canadian)
    assert canadian.squares == 72
    assert canadian.men_per_side == 30
    assert len(position.squares(draughts.WHITE)) == 30
    assert len(position.legal_moves()) == 11
    assert draughts.perft(position, 2) == 121
    assert draughts.Position.from_fen(canadian, position.fen()) == position


def test_derived_names_give_the_same_ruleset_object_every_call() -> None:
    # Built once per name, as the named variants are: caches keyed on the ruleset stay warm.
    assert draughts.get_variant("american-nfc") is draughts.get_variant("American-NFC")
    assert draughts.get_variant("russian-nfc-losing") is draughts.get_variant("russian-nfc-losing")
