"""The ballots as data: counts per deck with their sources, every opening legal by replaying it,
spot checks against the sources' own positions, the errors, and that the data load lazily."""

from __future__ import annotations

import subprocess
import sys

import attrs
import pytest

import draughts
from draughts import openings
from draughts.errors import DraughtsError, IllegalMoveError

ALL = [
    (variant, name) for variant in ("american", "italian", "russian", "brazilian") for name in openings.ballots(variant)
]

# The counts, each from its source:
COUNTS = {
    # The ACF: "increasing the three-move deck from 144 to 156 openings" (2003,
    # http://www.usacheckers.com/computingopeningrankings.php); the 156-opening deck is "the official
    # deck used in tournaments sanctioned by the American Checker Federation", 13 cards of 12
    # (http://www.usacheckers.com/156openingdeck.php). The ACF numbers 174 three-move combinations
    # (CheckerBoard's utility.c and milhouse's acf-openings.c, "ACF #1" to "ACF #174").
    ("american", "acf-3-move"): 156,
    ("american", "acf-3-move-144"): 144,
    ("american", "acf-3-move-174"): 174,
    # The two-move restriction: "the first move of each side is chosen by lot from 47 playable
    # combinations" (Britannica, https://www.britannica.com/topic/two-move-restriction).
    ("american", "2-move"): 47,
    # CheckerBoard's 11_man_english.pdn and 11_man_italian.pdn: 2,400 positions each.
    ("american", "11-man"): 2400,
    ("italian", "11-man"): 2400,
    # The FID: the 49 combinations of first moves less 21-18 9-13 and 22-18 9-13, which lose Black a
    # man (http://fid.it/corsi/italiana/aperture/indice.htm).
    ("italian", "2-move"): 47,
    # FMJD Drawing Table 64 as lidraughts transcribes it: 46 groups of 16 (1-I .. 46-XVI); the
    # Brazilian form drops 11 (1-IX, 4-XV, 5-IX, 5-XI, 19-V, 25-XIII, 30-XVI, 40-XIV, 41-XIII,
    # 42-XIV, 43-II: lidraughts' OpeningTable.scala, categoriesFmjdBrazilian).
    ("russian", "fmjd-64"): 46 * 16,
    ("brazilian", "fmjd-64"): 46 * 16 - 11,
    # The IDF's basic positions: "150", 15 groups of 10 (lidraughts' categoriesIDFBasic).
    ("russian", "idf-150"): 150,
    ("brazilian", "idf-150"): 150,
}

# The ACF list's barred three-move combinations (CheckerBoard OP_BARRED, milhouse DECK_LOSING) and
# the twelve added in 2003 (OP_MAILPLAY, DECK_NEW); 174 - 18 = 156 = 144 + 12.
BARRED = {3, 13, 26, 35, 44, 45, 48, 52, 77, 88, 94, 109, 114, 137, 145, 156, 168, 171}
ADDED_2003 = {6, 9, 16, 21, 34, 60, 61, 62, 105, 141, 153, 174}


def test_every_ballot_has_its_published_count() -> None:
    assert {(v, n): len(openings.ballot(v, n)) for v, n in ALL} == COUNTS


def test_the_acf_deck_is_the_174_combinations_less_the_barred_ones() -> None:
    everything = {int(o.name) for o in openings.ballot("american", "acf-3-move-174")}
    assert everything == set(range(1, 175))
    deck = {int(o.name) for o in openings.ballot("american", "acf-3-move")}
    assert deck == everything - BARRED
    assert {int(o.name) for o in openings.ballot("american", "acf-3-move-144")} == deck - ADDED_2003


@pytest.mark.parametrize(("variant", "name"), ALL)
def test_every_opening_replays_legally(variant: str, name: str) -> None:
    rules = draughts.get_variant(variant)
    for opening in openings.ballot(variant, name):
        start = (
            draughts.Position.from_fen(rules, opening.start_fen)
            if opening.start_fen
            else draughts.Position.initial(rules)
        )
        position = start
        for text in opening.moves:
            position = position.play(draughts.notation.parse_move(position, text))  # raises if illegal
        assert position == opening.position()
        assert position.legal_moves(), f"{variant} {name} {opening.name}: the game is over before it starts"


def test_the_two_move_ballot_is_every_pair_of_first_moves_but_two() -> None:
    start = draughts.Position.initial("american")
    pairs = {(str(m), str(n)) for m in start.legal_moves() for n in start.play(m).legal_moves()}
    ballot = {opening.moves for opening in openings.ballot("american", "2-move")}
    assert len(pairs) == 49
    assert pairs - ballot == {("9-14", "21-17"), ("10-14", "21-17")}
    assert ballot <= pairs


def test_the_two_move_ballots_bar_the_pairs_the_11_man_files_leave_out() -> None:
    for variant in ("american", "italian"):
        start = draughts.Position.initial(variant)
        pairs = {(str(m), str(n)) for m in start.legal_moves() for n in start.play(m).legal_moves()}
        ballot = {opening.moves for opening in openings.ballot(variant, "2-move")}
        assert pairs - ballot == ELEVEN_MAN_BARRED[variant]


def test_the_three_move_openings_are_three_moves_from_the_start() -> None:
    first = {str(m) for m in draughts.Board("american").legal_moves()}
    for opening in openings.ballot("american", "acf-3-move-174"):
        assert opening.start_fen is None
        assert len(opening.moves) == 3
        assert opening.moves[0] in first


def test_spot_checks_against_the_sources_positions() -> None:
    rules = draughts.get_variant("russian")
    table = {o.name: o for o in openings.ballot("russian", "fmjd-64")}
    # lidraughts' FEN of 1-I (numeric squares) and its moves "ab4 ba5 ba3 ab6 ab2 dc5"
    fen = "W:W17,21,22,23,24,25,26,27,28,30,31,32:B1,2,3,4,6,7,8,9,11,12,13,14"
    assert table["1-I"].position() == draughts.Position.from_fen(rules, fen)
    # a set-up position: 11-IV "a1-a5 a7-h4", lidraughts' FEN
    fen = "W:W13,21,22,23,24,25,26,27,28,30,31,32:B1,2,3,4,6,7,8,9,10,11,12,20"
    assert table["11-IV"].setup == "a1-a5 a7-h4"
    assert not table["11-IV"].moves
    assert table["11-IV"].position() == draughts.Position.from_fen(rules, fen)
    # CheckerBoard's first 11-man position (11_man_english.pdn, line 1)
    eleven = openings.ballot("american", "11-man")[0]
    american = draughts.get_variant("american")
    fen = "B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,12,11,10,9"
    assert eleven.position() == draughts.Position.from_fen(american, fen)
    assert openings.ballot("american", "acf-3-move")[3].title == "Dreaded Edinburgh"


def test_the_11_man_starts_lack_one_front_man_of_each_side() -> None:
    for variant in ("american", "italian"):
        rules = draughts.get_variant(variant)
        initial = draughts.Position.initial(rules).pieces()
        for opening in openings.ballot(variant, "11-man"):
            assert opening.start_fen is not None
            assert len(opening.moves) == 2
            start = draughts.Position.from_fen(rules, opening.start_fen)
            missing = set(initial) - set(start.pieces())
            assert start.turn is rules.first_to_move
            assert len(missing) == 2
            assert set(start.pieces()) <= set(initial)
            assert {initial[s].color for s in missing} == {draughts.WHITE, draughts.WHITE.opponent}
            rows = {rules.geometry.coords[s][1] for s in missing}
            assert rows <= {1, 2, 5, 6}  # the front two rows of each side (rows counted from 0)


def test_where_the_sources_contradict_themselves_the_ballot_says_so() -> None:
    notes = openings.ballot_info("russian", "fmjd-64").notes
    assert any(note.startswith("45-IX") for note in notes)
    table = {o.name: o for o in openings.ballot("russian", "fmjd-64")}
    assert table["45-IX"].position().turn is draughts.WHITE  # six plies: White to move
    assert table["16-I"].position() == table["15-XV"].position()  # duplicated in lidraughts' table
    assert any(note.startswith("2-IV") for note in openings.ballot_info("russian", "idf-150").notes)
    for variant, name in ALL:
        info = openings.ballot_info(variant, name)
        assert info.source.startswith(("FMJD", "IDF", "ACF", "CheckerBoard", "FID"))
        assert "github.com" in info.source or "fid.it" in info.source
        assert "facts" in info.licence


def test_aliases_and_rulesets_find_the_same_ballots() -> None:
    assert openings.ballots("english") == openings.ballots(draughts.get_variant("american"))
    assert openings.ballots("shashki") == ["fmjd-64", "idf-150"]
    assert openings.ballots("international") == []


def test_an_unknown_ballot_is_a_draughts_error_quoting_it() -> None:
    with pytest.raises(openings.UnknownBallotError, match=r"'tablitsa' for russian; its ballots: fmjd-64, idf-150"):
        openings.ballot("russian", "tablitsa")
    with pytest.raises(DraughtsError, match="none"):
        openings.ballot("international", "fmjd-64")
    assert issubclass(openings.UnknownBallotError, DraughtsError)
    with pytest.raises(draughts.UnknownVariantError):
        openings.ballots("no-such-variant")


def test_an_opening_converts_to_data_and_a_board() -> None:
    opening = openings.ballot("american", "acf-3-move")[0]
    data = opening.to_dict()
    assert data["moves"] == ["9-13", "21-17", "5-9"]
    assert data["fen"] == opening.fen
    board = opening.board()
    assert board.ply() == 3
    assert board.position.fen() == opening.fen
    with pytest.raises(IllegalMoveError):
        board.push_text("1-5")  # occupied: the board is a real game going on from the opening


def test_importing_draughts_does_not_load_the_ballots() -> None:
    code = "import sys, draughts; print('draughts.openings' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "False"


# The pairs of first moves whose positions the 11-man files leave out: in American checkers the two
# the two-move ballot bars (9-14 21-17, 10-14 21-17), in Italian their mirror images.
ELEVEN_MAN_BARRED = {
    "american": {("9-14", "21-17"), ("10-14", "21-17")},
    "italian": {("21-18", "9-13"), ("22-18", "9-13")},
}


@pytest.mark.parametrize("variant", ["american", "italian"])
def test_the_11_man_ballot_is_its_derivation_less_two_pairs_and_nine_positions(variant: str) -> None:
    """Every position with one front man of each side off and one move of each side by a front man:
    2,500; the ballot has 2,400 of them, none that a barred pair reaches (91), and 9 more left out."""
    rules = draughts.get_variant(variant)
    initial = draughts.Position.initial(rules)
    fronts = {
        color: {s for s, p in initial.pieces().items() if p.color is color and rules.geometry.coords[s][1] in rows}
        for color, rows in ((draughts.WHITE, {1, 2}), (draughts.WHITE.opponent, {5, 6}))
    }
    first = initial.turn
    reached: dict[str, set[tuple[str, str]]] = {}
    for own in fronts[first]:
        for other in fronts[first.opponent]:
            pieces = {s: p for s, p in initial.pieces().items() if s not in (own, other)}
            start = draughts.Position.from_pieces(rules, pieces, turn=first)
            for move in start.legal_moves():
                if move.start in fronts[first]:
                    child = start.play(move)
                    for reply in child.legal_moves():
                        if reply.start in fronts[first.opponent]:
                            reached.setdefault(child.play(reply).fen(), set()).add((str(move), str(reply)))
    ballot = {opening.fen for opening in openings.ballot(variant, "11-man")}
    assert len(reached) == 2500
    assert ballot <= set(reached)
    barred = {fen for fen, pairs in reached.items() if pairs & ELEVEN_MAN_BARRED[variant]}
    assert len(barred) == 91
    assert not barred & ballot
    besides = set(reached) - ballot - barred
    assert len(besides) == 9
    notes = openings.ballot_info(variant, "11-man").notes
    assert len(notes) == 1 + 9
    assert all(any(fen in note for note in notes) for fen in besides)


def test_a_ballot_is_borrowed_where_each_opening_is_legal() -> None:
    house = openings.ballot("russian-nfc", "russian/fmjd-64")
    assert len(house) == 736
    assert {(o.variant, o.ballot) for o in house} == {("russian-nfc", "russian/fmjd-64")}
    assert house[0].position().ruleset.name == "russian-nfc"
    with pytest.raises(openings.UnknownBallotError, match="does not apply to american: its opening 1-I"):
        openings.ballot("american", "russian/fmjd-64")
    # Brazilian rules (a man takes the most pieces) make three of the Russian table's played
    # openings illegal: lidraughts' Brazilian table drops those three (and eight more).
    with pytest.raises(openings.UnknownBallotError, match="does not apply to brazilian: its opening 1-IX"):
        openings.ballot("brazilian", "russian/fmjd-64")
    illegal = set()
    for opening in openings.ballot("russian", "fmjd-64"):
        try:
            attrs.evolve(opening, variant="brazilian").board()
        except DraughtsError:
            illegal.add(opening.name)
    assert illegal == {"1-IX", "4-XV", "5-XI"}
    assert not illegal & {o.name for o in openings.ballot("brazilian", "fmjd-64")}
