"""The nineteen named variants (seven federation rulesets and the family) and the transforms.

This is the only module (with :mod:`draughts.rules`) that knows variants by name. Each ruleset
cites, next to each field, the rule article that justifies it. Source keys:

* FMJD: Official FMJD rules for international draughts, Annex 1 (November 2015).
* WCDF: World Checkers/Draughts Federation Rules of Draughts (usacheckers.com, wcdf.net).
* FID: Federazione Italiana Dama, Regolamento tecnico Capo I (Art. 2-6), damasport.it "Le Prese".
* RUS64: FMJD section-64 rules (fmjd64.org), Russian federation kodeks 2004.
* CBD: Confederação Brasileira de Damas rules (brazil.fmjd.org), rules 1-17.
* ES: Spanish rules (section-64 page, torofun, Galician tournament rules), Portuguese "Damas Clássicas".
* CZ: Česká federace dámy rules (hrejsi.cz, klububoudu.cz, dama.opalka.cz, Czech Wikipedia 2007).
* PDN: PDN 3.0 (github.com/wiegerw/pdn), GameType table.
* FRI-2011: Official Rules for Frisian Draughts (2011), as published with lidraughts
  (doc/variant/frisian/OfficialRulesFrisianDraughts.pdf); FRI-DFS: friesdammen.nl.
* KILLER: mindsports.nl arena/382 "Killer draughts rules" and killerdraughts.org.
* LID: lidraughts.org variant pages and rules code (Antidraughts, Breakthrough, Frysk!, Frisian).
* THAI: checkers.fandom.com "Mak-hot", mindsports.nl "Thai", coldmoon.io; dctl's thai rules.
* TURK: Wikipedia "Turkish draughts", draughts.github.io, the kish crate (Rust), FMJD's Turkish section.
* POOL: American Pool Checkers Association rules of play (americanpoolcheckers.us).
* CAN: Canadian draughts (Wikipedia, Ludii, checkershistory.com, windames.free.fr).
* POR: Portuguese "Damas Clássicas" (checkers.wikia, 1papacaio.com.br, brainking), dctl's spanish rules.

Armenian (Tama), Gothic and Malaysian draughts are not named: their sources disagree on rules that
decide play (Armenian: when captured pieces leave the board and whether kings capture diagonally;
Gothic: whether kings fly and men capture backward; Malaysian: whether the majority rule holds and
the "huff" forfeit), and no governing body's text settles them. Each is a few ``attrs.evolve``
fields away for a user who knows which rules they play.

Names
-----
Canonical names are ``italian``, ``american``, ``russian``, ``brazilian``, ``spanish``, ``czech``,
``international`` (the seven federation variants), and the family: ``frisian``, ``frysk``,
``killer``, ``antidraughts``, ``breakthrough``, ``thai``, ``turkish``, ``pool``, ``canadian`` and
``portuguese``; :data:`ALIASES` lists the other accepted names. Three transforms make a ruleset
of any other, named by a suffix: ``"<variant>-nfc"`` (:func:`no_forced_capture`, the house rule
of optional capture), ``"<variant>-losing"`` (:func:`losing`, giveaway) and
``"<variant>-breakthrough"`` (:func:`breakthrough`); they combine (``"russian-nfc-losing"``).
:func:`get_variant` also accepts ``"no-forced-capture <variant>"`` and ``"<variant> no forced
capture"``, and the bare name ``"no-forced-capture"`` means the American house rule, the game most
often played that way.
"""

from __future__ import annotations

import types
from collections.abc import Mapping

import attrs

from draughts.color import BLACK, WHITE
from draughts.rules import (
    CapturedRemoval,
    CapturePromotion,
    Directions,
    DrawRules,
    EndgameRule,
    KingLanding,
    KingRange,
    MostValue,
    MoveCountRule,
    Precedence,
    ResultNotation,
    Ruleset,
)
from draughts.rules.geometry import BoardSquares, Numbering, SquareNames
from draughts.rules.transforms import breakthrough, losing

__all__ = [
    "AMERICAN",
    "ANTIDRAUGHTS",
    "BRAZILIAN",
    "BREAKTHROUGH",
    "CANADIAN",
    "CZECH",
    "FEDERATION_VARIANTS",
    "FRISIAN",
    "FRYSK",
    "INTERNATIONAL",
    "ITALIAN",
    "KILLER",
    "POOL",
    "PORTUGUESE",
    "RUSSIAN",
    "SPANISH",
    "THAI",
    "TURKISH",
    "TURKISH_ONE_KING_EACH",
    "VARIANTS",
]

INTERNATIONAL = Ruleset(
    name="international",
    title="International draughts",
    board_size=10,  # FMJD 2.1-2.2: 10x10, play on the 50 dark squares
    bottom_left_playable=True,  # FMJD 2.4: the long diagonal starts at each player's left
    rows_per_side=4,  # FMJD 2.8: 20 men each, on 1-20 and 31-50
    first_to_move=WHITE,  # FMJD 3.3
    men_capture=Directions.DIAGONAL,  # FMJD 4.1: men capture forwards and backwards
    men_capture_kings=True,  # FMJD 4.1
    king_range=KingRange.FLYING,  # FMJD 3.9, 4.3
    capture_promotion=CapturePromotion.ONLY_AT_END,  # FMJD 3.5, 4.15: passing the row does not crown
    capture_mandatory=True,  # FMJD 4.2, 5.4.6
    precedence=(Precedence.MOST_PIECES,),  # FMJD 4.13-4.14: most pieces, a king counts one, no quality rule
    numbering=Numbering.TOP_LEFT,  # FMJD 2.6: 1-50 row by row from the top left
    square_names=SquareNames.NUMERIC,  # FMJD 8.2: 32-28, 19x28
    move_separator="-",  # FMJD 8.2
    capture_separator="x",  # FMJD 8.2
    draw_rules=DrawRules(
        repetitions=3,  # FMJD 6.1: the same position the third time, same player to move
        move_counts=(MoveCountRule(25, article="FMJD 6.2: 25 moves each with only kings moved, no capture"),),
        endgames=(
            EndgameRule(16, strong=((3, 0), (2, 1), (1, 2)), weak=((1, 0),), article="FMJD 6.3"),
            EndgameRule(5, strong=((2, 0), (1, 1), (1, 0)), weak=((1, 0),), article="FMJD 6.4"),
        ),
        notes="FMJD Annex 1 (2015) edition, without the later long-diagonal clause. The 16- and 5-move "
        "counts start at the capture or crowning that creates the balance (as lidraughts counts them).",
    ),
    result_notation=ResultNotation.INTERNATIONAL,  # PDN result type "International": 2-0, 1-1, 0-2
    pdn_gametype=20,  # PDN: 20,W,10,10,N2,0
    sources=("FMJD Annex 1 (2015) articles 2-8", "PDN 3.0 GameType 20"),
)

"""International draughts (FMJD): 10x10, flying kings, men capture backward, majority capture,
a man is crowned only if its capture ends on the crowning row (FMJD 4.15)."""

AMERICAN = Ruleset(
    name="american",
    title="American checkers / English draughts",
    board_size=8,  # WCDF 1.1: 8x8, the 32 dark ("green") squares
    bottom_left_playable=True,  # WCDF 1.4: a playing square at each player's near left (single corner)
    rows_per_side=3,  # WCDF: 12 men each, on 1-12 and 21-32
    first_to_move=BLACK,  # WCDF: the dark (Red/Black) side moves first; PDN 21,B
    men_capture=Directions.DIAGONAL_FORWARD,  # WCDF 1.18: men capture forward only
    men_capture_kings=True,  # WCDF 1.18: over a man or king
    king_range=KingRange.SHORT,  # WCDF: kings move one square, jump short
    capture_promotion=CapturePromotion.ENDS_MOVE,  # WCDF 1.16, 1.19: crowning completes the turn
    capture_mandatory=True,  # WCDF 1.20: all captures are compulsory
    precedence=(),  # WCDF 1.20: free choice, not necessarily the most pieces
    numbering=Numbering.TOP_LEFT,  # WCDF 1.5: 1-32 from Red's side = 1 at b8 seen from White
    square_names=SquareNames.NUMERIC,  # 11-15, 15x24
    move_separator="-",
    capture_separator="x",
    draw_rules=DrawRules(
        repetitions=3,  # WCDF: a player shows the next move would repeat the position a third time
        repetition_claim=True,
        move_counts=(
            MoveCountRule(
                40, claim=True, article="WCDF: 40 moves each without an uncrowned man's advance or a removal"
            ),
        ),
        notes="Both WCDF draws are claims shown to the referee, so they never end a game by themselves.",
    ),
    pdn_gametype=21,  # PDN: 21,B,8,8,N1,0
    sources=("WCDF Rules of Draughts 1.1-1.20", "PDN 3.0 GameType 21"),
)
"""English draughts / American checkers (WCDF): short kings, men capture forward only, free
choice among captures, the dark side (Black/Red) moves first."""

ITALIAN = Ruleset(
    name="italian",
    title="Italian draughts",
    board_size=8,  # FID 2.1-2.2
    bottom_left_playable=False,  # FID 2.3: the bottom-right square is dark (board inverted)
    rows_per_side=3,  # FID 2.6: Black on 1-12, White on 21-32
    first_to_move=WHITE,  # FID 3.4
    men_capture=Directions.DIAGONAL_FORWARD,  # FID 5.3(a): men capture forward only
    men_capture_kings=False,  # FID 5.3(b): men never capture kings
    king_range=KingRange.SHORT,  # FID rule 2 / 5.8: one square; land directly behind the piece
    capture_promotion=CapturePromotion.ENDS_MOVE,  # federdama rule 2: the move ends on the crowning row
    capture_mandatory=True,  # federdama: huffing ("soffio") abolished in 1934
    precedence=(
        Precedence.MOST_PIECES,  # FID 6.6
        Precedence.WITH_KING,  # FID 6.7
        Precedence.MOST_KINGS,  # FID 6.8
        Precedence.KINGS_EARLIEST,  # FID 6.9 (6.10: otherwise free)
    ),
    numbering=Numbering.TOP_LEFT,  # FID 2.4: 1 = a8 ... 32 = h1
    square_names=SquareNames.NUMERIC,
    move_separator="-",
    capture_separator="x",  # fid.it/corsi: a capture may be written with x
    draw_rules=DrawRules(
        repetitions=4,  # FID 9.3(b1), as dctl encodes it (primary text not retrieved)
        move_counts=(
            MoveCountRule(
                40,
                reset_by_man_move=False,
                reset_by_promotion=True,
                article="FID 10.4: 40 moves each without a capture or a crowning",
            ),
        ),
        notes="UNCERTAIN: the FID Regolamento tecnico Art. 9-10 was not retrieved; the repetition count 4 "
        "follows dctl's citation of FID 9.3(b1), the 40-move rule the sources we have.",
    ),
    pdn_gametype=22,  # PDN: 22,W,8,8,N2,1
    sources=("FID Regolamento tecnico Capo I, Art. 2-6", "federdama.org 'Le 10 regole'", "PDN 3.0 GameType 22"),
)
"""Italian draughts (FID): inverted board, short kings, men capture only forward and never kings,
and the four-step precedence: most pieces, with a king, most kings, kings met earliest."""

RUSSIAN = Ruleset(
    name="russian",
    title="Russian draughts",
    board_size=8,  # RUS64
    bottom_left_playable=True,  # RU federation: the dark corner square is at the player's left
    rows_per_side=3,
    first_to_move=WHITE,
    men_capture=Directions.DIAGONAL,  # RUS64 / RU-WP: men capture forward and backward
    men_capture_kings=True,
    king_range=KingRange.FLYING,  # RUS64: flying kings
    capture_promotion=CapturePromotion.CONTINUES_AS_KING,  # RU-inv, BK: crowned at once, goes on as a king
    capture_mandatory=True,
    precedence=(),  # RU-WP, BK: free choice; the chosen capture is completed
    numbering=Numbering.TOP_LEFT,  # numeric FENs (lidraughts, dctl): 1 = b8, 29 = a1
    square_names=SquareNames.ALGEBRAIC,  # c3-d4, c3:e5
    move_separator="-",
    capture_separator=":",  # PDN: separator ':' for GameType 25
    draw_rules=DrawRules(
        repetitions=3,  # RUS64 7.2.3
        move_counts=(MoveCountRule(15, article="RUS64 7.2.5: 15 moves each with only kings moved, no capture"),),
        endgames=(
            EndgameRule(15, strong_min_kings=3, weak=((1, 0),), article="RUS64 7.2.4"),
            EndgameRule(30, total_pieces=(4, 5), both_have_kings=True, article="RUS64 7.2.6"),
            EndgameRule(60, total_pieces=(6, 7), both_have_kings=True, article="RUS64 7.2.6"),
            EndgameRule(
                5,
                strong=((3, 0), (2, 1), (1, 2)),
                weak=((1, 0),),
                weak_king_on_main_diagonal=True,
                article="RUS64 7.2.7",
            ),
            EndgameRule(5, strong=((2, 0), (1, 1), (1, 0)), weak=((1, 0),), article="RUS64 7.2.8"),
        ),
        notes="Counts are moves by each player (as lidraughts reads 7.2.4-7.2.8); UNCERTAIN wording in 7.2.6.",
    ),
    pdn_gametype=25,  # PDN: 25,W,8,8,A0,0
    sources=("FMJD section-64 rules 7.2 (fmjd64.org)", "Russian federation kodeks 2004", "PDN 3.0 GameType 25"),
)
"""Russian draughts (shashki): flying kings, men capture backward, free choice among captures,
a man reaching the crowning row mid-capture is crowned and continues as a king."""

BRAZILIAN = Ruleset(
    name="brazilian",
    title="Brazilian draughts",
    board_size=8,  # CBD 1-2
    bottom_left_playable=True,  # CBD 3: the dark main diagonal at each player's left
    rows_per_side=3,
    first_to_move=WHITE,  # CBD 4
    men_capture=Directions.DIAGONAL,  # CBD 11
    men_capture_kings=True,  # CBD 10: men and kings capture each other
    king_range=KingRange.FLYING,  # CBD 8, 17
    capture_promotion=CapturePromotion.ONLY_AT_END,  # CBD 13: passing the crowning row does not crown
    capture_mandatory=True,  # CBD 9: no "sopro"
    precedence=(Precedence.MOST_PIECES,),  # CBD 12: majority, a king counts one
    numbering=Numbering.TOP_LEFT,  # numeric FENs as lidraughts and dctl write them
    square_names=SquareNames.ALGEBRAIC,
    move_separator="-",
    capture_separator="x",  # PDN GameType 26
    draw_rules=DrawRules(
        repetitions=3,  # CBD: repetition as in FMJD 6.1
        move_counts=(MoveCountRule(20, article="CBD 16: 20 successive king moves each, no capture, no man moved"),),
        notes="UNCERTAIN: CBD 16 says 20 king moves on 64 squares; read here as 20 by each player. lidraughts "
        "applies the Russian set instead; change draw_rules to follow it.",
    ),
    pdn_gametype=26,  # PDN: 26,W,8,8,A0,0
    sources=("CBD rules 1-17 (brazil.fmjd.org)", "PDN 3.0 GameType 26"),
)
"""Brazilian draughts (CBD): the International rules on an 8x8 board."""

SPANISH = Ruleset(
    name="spanish",
    title="Spanish draughts",
    board_size=8,
    bottom_left_playable=False,  # PDN invert flag 1; ES-de: light square at the near left
    rows_per_side=3,  # ES-rs: White on 1-12, Black on 21-32
    first_to_move=WHITE,  # ES-s64
    men_capture=Directions.DIAGONAL_FORWARD,  # ES-s64, ES-tf: men capture forward only
    men_capture_kings=True,  # no source restricts it
    king_range=KingRange.FLYING,  # ES-s64
    capture_promotion=CapturePromotion.ENDS_MOVE,  # ludoteka: crowned, may not continue
    capture_mandatory=True,
    precedence=(Precedence.MOST_PIECES, Precedence.MOST_KINGS),  # ES: quantity law, then quality law
    numbering=Numbering.BOTTOM_RIGHT,  # ES-rs: 1 = h1, right to left, bottom to top (PDN N1)
    square_names=SquareNames.NUMERIC,
    move_separator="-",
    capture_separator="x",
    draw_rules=DrawRules(
        repetitions=3,  # ES-s64: third repetition with the same player to move
        move_counts=(MoveCountRule(20, article="ES-s64: 40 successive king moves (20 each) without capture"),),
        notes="UNCERTAIN: the full FEDA draw rules were not retrieved; the source text is cut off.",
    ),
    pdn_gametype=24,  # PDN: 24,W,8,8,N1,1
    sources=("section64port.online Spanish rules", "torofun.com Spanish rules", "PDN 3.0 GameType 24"),
)
"""Spanish draughts: inverted board, flying kings, men capture forward only, most pieces then
most kings."""

CZECH = Ruleset(
    name="czech",
    title="Czech draughts",
    board_size=8,  # CZ-H 2
    bottom_left_playable=True,  # CZ-H 3: the dark corner on the player's left
    rows_per_side=3,  # CZ-WP
    first_to_move=WHITE,  # CZ-H 8
    men_capture=Directions.DIAGONAL_FORWARD,  # CZ-H 9-10, CZ-K: men move and capture only forward
    men_capture_kings=True,
    king_range=KingRange.FLYING,  # CZ-H 9
    capture_promotion=CapturePromotion.ENDS_MOVE,  # CZ-H 10: crowned, acts as a king from its next move
    capture_mandatory=True,
    precedence=(Precedence.WITH_KING,),  # CZ-H, CZ-K, CZ-O: "dáma má přednost"; otherwise free
    numbering=Numbering.TOP_LEFT,
    square_names=SquareNames.ALGEBRAIC,  # CZ-H 4
    move_separator="-",
    capture_separator="x",  # PDN (dctl uses ':'; PDN followed)
    # FMJD's Czech page (fmjd.org/variant.php?p=czech): "Draw can be reached by an agreement of
    # players or when the same position is repeated three times and draw is claimed or if no jump
    # or move by a piece is done within 15 moves." There "piece" is a man (the page says "figure"
    # for men and kings alike).
    draw_rules=DrawRules(
        repetitions=3,
        repetition_claim=True,
        move_counts=(
            MoveCountRule(
                15,
                reset_by_man_move=True,
                reset_by_capture=True,
                article="FMJD Czech rules: no capture and no man moved within 15 moves",
            ),
        ),
        notes="The FMJD page does not say whether the 15 moves are each player's or both players' together: "
        "read as 15 moves each, as every other move-count rule counts. The 15-move draw is automatic (only the "
        "repetition draw is said to be claimed). 'Drawn when neither side can capture any more' (ČFD) is a "
        "judgement, not a mechanical rule, and is not applied.",
    ),
    pdn_gametype=29,  # PDN: 29,W,8,8,A0,0
    sources=(
        "ČFD rules (hrejsi.cz, klububoudu.cz, dama.opalka.cz)",
        "FMJD, Brief Rules of Czech Draughts (fmjd.org/variant.php?p=czech)",
        "PDN 3.0 GameType 29",
    ),
)
"""Czech draughts (ČFD): flying kings, men capture forward only, a king must capture if one can,
otherwise free choice."""

# --- the rest of the family --------------------------------------------------------------------

FRISIAN = Ruleset(
    name="frisian",
    title="Frisian draughts",
    board_size=10,  # FRI-2011 art. 1-3: 10x10, the 50 dark squares numbered as in International
    rows_per_side=4,  # FRI-2011 art. 4: men on 1-20 and 31-50
    first_to_move=WHITE,  # FRI-2011 art. 6
    men_move=Directions.DIAGONAL_FORWARD,  # FRI-2011 art. 7: a man moves one square diagonally forward
    men_capture=Directions.ALL,  # FRI-2011 art. 7: captures diagonally, horizontally and vertically, both ways
    men_capture_kings=True,
    king_range=KingRange.FLYING,  # FRI-2011 art. 9
    kings_move=Directions.DIAGONAL,  # FRI-2011 art. 9: a king's simple move is diagonal only
    kings_capture=Directions.ALL,  # FRI-2011 art. 9: a king captures in all eight directions
    capture_promotion=CapturePromotion.ONLY_AT_END,  # FRI-2011 art. 8: crowned only ending the move there
    capture_mandatory=True,  # FRI-2011 art. 10
    # FRI-2011 art. 11: the highest value; a king is worth more than a man and less than two, n kings
    # more than 2n-1 men and less than 2n (man 100, king 199, as lidraughts and py-draughts count).
    # Art. 12: at equal value the king captures.
    precedence=(MostValue(man=100, king=199), Precedence.WITH_KING),
    captured_removal=CapturedRemoval.END_OF_MOVE,  # FRI-2011 art. 13-14
    king_move_limit=3,  # FRI-2011 art. 17: at most three simple moves in a row with one king (side with men)
    numbering=Numbering.TOP_LEFT,  # FRI-2011 art. 3
    square_names=SquareNames.NUMERIC,  # FRI-2011 art. 22: 46-41, 46x37
    draw_rules=DrawRules(
        repetitions=None,  # FRI-2011 has no repetition rule (lidraughts plays Frisian without one too)
        endgames=(
            EndgameRule(
                7, strong=((2, 0),), weak=((1, 0),), article="FRI-2011 art. 18: two kings against one win in 7 moves"
            ),
            EndgameRule(
                0,
                strong=((1, 0),),
                weak=((1, 0),),
                no_shot=True,
                article="FRI-2011 art. 21: one king each, neither able to capture nor bound to be captured",
            ),
        ),
        notes="FRI-2011 gives no repetition rule and no move-count rule: only art. 18 (two kings against one) "
        "and art. 21 (one king each), read literally. lidraughts and py-draughts draw one king each after "
        "two moves instead.",
    ),
    result_notation=ResultNotation.DEFAULT,
    pdn_gametype=40,  # PDN: 40,W,10,10,N2,0
    sources=("Official Rules for Frisian Draughts (2011)", "friesdammen.nl", "PDN 3.0 GameType 40"),
)
"""Frisian draughts (official 2011 rules): men and kings capture along rows and columns too, the
capture of the highest value, at most three simple moves in a row with one king."""

FRYSK = attrs.evolve(
    FRISIAN,
    name="frysk",
    title="Frysk!",
    rows_per_side=1,  # LID Frysk: 5 men each on the back rank (W:W46-50:B1-5); no rules text beyond that
    pdn_gametype=None,
    sources=("lidraughts.org Frysk! (Frisian draughts from 5 men each)", *FRISIAN.sources[:2]),
)
"""Frysk!: Frisian draughts from five men each on the back rank (lidraughts)."""

KILLER = attrs.evolve(
    INTERNATIONAL,
    name="killer",
    title="Killer draughts",
    # KILLER: "If a king must make a capture, and the last piece captured is also a king, then the
    # capture must end on the square immediately after the last piece captured."
    king_landing=KingLanding.BEHIND_LAST_KING,
    pdn_gametype=None,
    sources=("mindsports.nl Killer draughts rules (arena/382)", "killerdraughts.org", *INTERNATIONAL.sources),
)
"""Killer draughts: International, but a king whose last captured piece is a king stops right behind it."""

ANTIDRAUGHTS = attrs.evolve(
    losing(INTERNATIONAL),
    name="antidraughts",
    title="Antidraughts",
    # LID Antidraughts: International moves; the side that cannot move wins; threefold repetition draws.
    sources=("lidraughts.org Antidraughts", "Scan 3.1 'losing'", *INTERNATIONAL.sources),
)
"""Antidraughts (losing draughts): International rules, and a player who cannot move wins."""

BREAKTHROUGH = attrs.evolve(
    breakthrough(INTERNATIONAL),
    name="breakthrough",
    title="Breakthrough draughts",
    # LID Breakthrough: International moves; the first king wins; no draws (a man-only game cannot repeat).
    draw_rules=DrawRules(repetitions=None, notes="lidraughts keeps no draw rule: without kings no position repeats."),
    sources=("lidraughts.org Breakthrough", "Scan 3.1 'bt'", *INTERNATIONAL.sources),
)
"""Breakthrough draughts: International rules, and the first player to crown a man wins."""

THAI = Ruleset(
    name="thai",
    title="Thai draughts (Mak-hos)",
    board_size=8,  # THAI
    rows_per_side=2,  # THAI: 8 men each on the first two rows, four empty rows between
    # THAI: who starts is disputed ("no fixed rule", checkers.fandom); White per mindsports,
    # checkerschest and dctl (PDN 3.0 lists GameType 31 as 31,B: an indication, read here as a conflict).
    first_to_move=WHITE,
    men_move=Directions.DIAGONAL_FORWARD,
    men_capture=Directions.DIAGONAL_FORWARD,  # THAI: men capture forward only
    men_capture_kings=True,
    king_range=KingRange.FLYING,  # THAI: kings move any distance
    king_landing=KingLanding.DIRECTLY_BEHIND,  # THAI: a king lands right behind the piece it takes
    capture_promotion=CapturePromotion.ENDS_MOVE,  # THAI (mindsports): reaching the far row ends the move
    capture_mandatory=True,
    precedence=(),  # THAI: free choice among captures, but the chosen one is completed
    captured_removal=CapturedRemoval.IMMEDIATE,  # THAI: captured pieces are removed at once
    # THAI: coldmoon.io lets a king go on "even in the direction where they have come from", and dctl
    # derives the same; mindsports says the same or a perpendicular direction. The former is chosen.
    capture_reversal=True,
    numbering=Numbering.TOP_LEFT,
    square_names=SquareNames.NUMERIC,
    draw_rules=DrawRules(
        repetitions=3,
        notes="No Thai draw or counting rule was found; threefold repetition is assumed so that games end.",
    ),
    pdn_gametype=31,  # PDN: 31 (listed as 31,B,8,8,N2,0; White starts here, see first_to_move)
    sources=(
        "checkers.fandom.com Mak-hot",
        "mindsports.nl Thai draughts",
        "coldmoon.io",
        "dctl thai rules",
        "PDN 3.0 GameType 31",
    ),
)
"""Thai draughts (Mak-hos): 8 men each, flying kings that land right behind the piece they take,
captured pieces lifted at once, free choice of captures."""

TURKISH = Ruleset(
    name="turkish",
    title="Turkish draughts (Dama)",
    board_size=8,
    board_squares=BoardSquares.ALL,  # TURK: all 64 squares
    rows_per_side=2,  # TURK: 16 men each on the second and third rows
    men_start_row=2,  # TURK: the back row starts empty
    first_to_move=WHITE,
    men_move=Directions.ORTHOGONAL_FORWARD | Directions.ORTHOGONAL_SIDEWAYS,  # TURK: forward, left, right
    men_capture=Directions.ORTHOGONAL_FORWARD | Directions.ORTHOGONAL_SIDEWAYS,  # TURK: never backward
    men_capture_kings=True,
    king_range=KingRange.FLYING,  # TURK: kings move like rooks
    kings_move=Directions.ORTHOGONAL,
    kings_capture=Directions.ORTHOGONAL,
    # TURK: disputed. kish, hcheckers and pydraughts go on capturing as a man and crown at the end of
    # the move; draughts.github.io crowns at once. The implementations (and the published perft,
    # kish's) are followed; kish's perft to depth 8 is the same under either reading. (From depth 7
    # kish counts a king's two captures on one line once per square it may stop on between them:
    # docs/variants.rst.)
    capture_promotion=CapturePromotion.ONLY_AT_END,
    capture_mandatory=True,
    precedence=(Precedence.MOST_PIECES,),  # TURK: the most pieces, kings and men alike
    captured_removal=CapturedRemoval.IMMEDIATE,  # TURK, FMJD: pieces are taken off one by one during the capture
    capture_reversal=False,  # TURK: no 180° turn between two jumps
    numbering=Numbering.BOTTOM_LEFT,  # a1 = 1 ... h8 = 64, rank by rank from White (pydraughts' numbers)
    square_names=SquareNames.ALGEBRAIC,  # PDN 3.0 GameType 30: A0
    draw_rules=DrawRules(
        repetitions=3,  # threefold repetition (alemanni, the compiled rules 9.2)
        endgames=(
            # TUDAF, the federation: one piece each is a draw, "even if one of them is a king"
            # (damaakademisi.com, Kurallar 2, 19 b; jocly issue #51; the compiled rules 9.3).
            EndgameRule(
                0,
                strong=((1, 0), (0, 1)),
                weak=((1, 0), (0, 1)),
                article="one piece each, kings or men, is a draw (TUDAF rules; compiled rules 9.3)",
            ),
        ),
        notes="Sources disagree on lone pieces. The federation (TUDAF) draws one piece each, kings or men, "
        "at once, and so do the rules written in Turkish and the compiled rules; pydraughts draws only one "
        "king each, and Wikipedia says a king against a lone man wins: that reading is "
        "TURKISH_ONE_KING_EACH. The optional 50-ply rule is not applied.",
    ),
    pdn_gametype=30,  # PDN: 30,W,8,8,A0,0
    sources=(
        "Wikipedia: Turkish draughts",
        "draughts.github.io",
        "kish crate (Rust)",
        "FMJD Turkish section",
        "PDN 3.0 GameType 30",
    ),
)
"""Turkish draughts (Dama): all 64 squares, men moving forward and sideways, rook-like flying kings,
captured pieces lifted one by one, no turning back, the most pieces."""

TURKISH_ONE_KING_EACH = attrs.evolve(
    TURKISH.draw_rules,
    endgames=(
        EndgameRule(
            0,
            strong=((1, 0),),
            weak=((1, 0),),
            article="one king each is a draw; a king against a man is played on (pydraughts, Wikipedia)",
        ),
    ),
    notes="The other reading of Turkish lone pieces: one king each is drawn, a king against a lone man "
    "(which Wikipedia says the king wins) or a man against a man is played on. The optional 50-ply rule "
    "is not applied.",
)
"""Turkish draughts' draw rules as pydraughts and Wikipedia read them, for games played that way.

:data:`TURKISH` follows the federation (TUDAF): a draw as soon as each side has a single piece, king
or man (jocly issue #51 quotes the TUDAF rules; the Turkish rule texts say so, "even if one of them is
a king"). These rules draw only one king against one king, so a king goes on against a lone man. Use
them under a name of their own, so that the ruleset is not taken for the catalogue's ``turkish``::

    turkish_kings = attrs.evolve(TURKISH, name="turkish-kings", draw_rules=TURKISH_ONE_KING_EACH)
"""

POOL = Ruleset(
    name="pool",
    title="American pool checkers",
    board_size=8,  # POOL 1
    rows_per_side=3,  # POOL 2
    first_to_move=BLACK,  # POOL 2: dark moves first
    men_move=Directions.DIAGONAL_FORWARD,
    men_capture=Directions.DIAGONAL,  # POOL 4: men capture forward and backward
    men_capture_kings=True,
    king_range=KingRange.FLYING,  # POOL: kings move and capture at a distance
    capture_promotion=CapturePromotion.ONLY_AT_END,  # POOL 5: no crowning when the capture goes on
    capture_mandatory=True,
    precedence=(),  # POOL: no majority rule; any capture, completed
    numbering=Numbering.TOP_LEFT,  # PDN: 23,B,8,8,N1,0 (1 at Black's near right, as English)
    square_names=SquareNames.NUMERIC,
    draw_rules=DrawRules(
        repetitions=3,
        endgames=(
            EndgameRule(13, strong=((3, 0),), weak=((1, 0),), article="POOL: three kings against one win in 13 moves"),
        ),
        notes="dctl also counts 30 reversible moves (APCA rule 26, text not retrieved); not applied.",
    ),
    pdn_gametype=23,  # PDN: 23,B,8,8,N1,0
    sources=("APCA rules of play (americanpoolcheckers.us)", "PDN 3.0 GameType 23"),
)
"""American pool checkers: Black first, men capture backward, flying kings, free choice of captures."""

CANADIAN = attrs.evolve(
    INTERNATIONAL,
    name="canadian",
    title="Canadian draughts",
    board_size=12,  # CAN: 12x12
    rows_per_side=5,  # CAN: 30 men each on the 5 nearest rows
    draw_rules=DrawRules(
        repetitions=3,
        move_counts=INTERNATIONAL.draw_rules.move_counts,
        endgames=(
            EndgameRule(
                16, strong=((3, 0),), weak=((1, 0),), article="CAN (windames): three kings against one, 16 moves"
            ),
        ),
        notes="Only the 16-move rule for three kings against one is sourced for Canadian draughts; "
        "repetition and the 25-move rule follow International (FMJD).",
    ),
    pdn_gametype=27,  # PDN: 27,W,12,12,N2,0
    sources=("Canadian draughts (Wikipedia, Ludii, checkershistory.com, windames)", "PDN 3.0 GameType 27"),
)
"""Canadian draughts: International rules on a 12x12 board with 30 men each."""

PORTUGUESE = attrs.evolve(
    SPANISH,
    name="portuguese",
    title="Portuguese draughts (Damas clássicas)",
    # POR: the Spanish rules (dctl's spanish rules cite the Portuguese federation's "Regras Damas
    # Clássicas"): light corner on the left, numbered from White's near right (PDN 28,W,8,8,N1,1).
    pdn_gametype=28,
    sources=(
        "Damas Clássicas (checkers.wikia, 1papacaio.com.br, brainking)",
        "dctl spanish rules (FPD)",
        "PDN 3.0 GameType 28",
    ),
)
"""Portuguese draughts (Damas clássicas): the Spanish rules under the Portuguese federation's name."""

SPANTSIRETTI = attrs.evolve(
    RUSSIAN,
    name="spantsiretti",
    title="Spantsiretti draughts",
    # PDN 3.0 GameType table: "41 Spantsiretti draughts [GameType "41,W,10,8,A0,0"]", result type
    # Default, capture separator ':' (wiegerw/pdn doc/gametype.rst; A0 since the 18 April 2014
    # correction, "Spantsiretti: N2 -> A0"). Games::Checkers (mig0/Games-Checkers
    # lib/Games/Checkers/Rules.pm, russian_10x8): base 'russian', BOARD_SIZE '10x8', PDN 41, so
    # three rows of men as in Russian; dctl's board::spantsiretti is the same 10 wide by 8 high board.
    board_size=(10, 8),  # 10 files by 8 ranks, the 80-square board; the dark corner at each player's left
    rows_per_side=3,  # Games::Checkers: the Russian STARTING_ROWS 3 (15 men each)
    draw_rules=DrawRules(
        repetitions=3,  # as RUS64 7.2.3
        move_counts=RUSSIAN.draw_rules.move_counts,  # RUS64 7.2.5
        endgames=(
            EndgameRule(15, strong_min_kings=3, weak=((1, 0),), article="RUS64 7.2.4"),
            EndgameRule(30, total_pieces=(4, 5), both_have_kings=True, article="RUS64 7.2.6"),
            EndgameRule(60, total_pieces=(6, 7), both_have_kings=True, article="RUS64 7.2.6"),
            EndgameRule(5, strong=((2, 0), (1, 1), (1, 0)), weak=((1, 0),), article="RUS64 7.2.8"),
        ),
        notes="No rule book of its own: the Russian (RUS64) draw rules, as Games::Checkers derives the game "
        "from Russian; RUS64 7.2.7 (a lone king on the main road) is left out, since no diagonal of the "
        "10x8 board joins two corners.",
    ),
    pdn_gametype=41,  # PDN: 41,W,10,8,A0,0
    sources=(
        "PDN 3.0 GameType 41 (wiegerw/pdn doc/gametype.rst: 41,W,10,8,A0,0, separator ':')",
        "Games::Checkers russian_10x8 (mig0/Games-Checkers @a0117af8: lib/Games/Checkers/Rules.pm; doc/variants: "
        "10x8, bottom-left cell played, ':', 3 pawn rows, code 41)",
        "dctl board::spantsiretti, 10 wide by 8 high (rhalbersma/dctl include/dctl/core/board/spantsiretti.hpp)",
        "FMJD section-64 rules 7.2 for the draw rules",
    ),
)
"""Spantsiretti draughts: Russian rules on the 80-square board, 10 files by 8 ranks, 15 men each."""

SRI_LANKAN = attrs.evolve(
    CANADIAN,
    name="srilankan",
    title="Sri Lankan draughts",
    # dctl: `using srilankan = international;` (include/dctl/core/rules/international.hpp) on
    # rectangular<12, 12, 0>, the 12x12 board coloured the other way (test/src/algo/traversal/
    # initial/board_large.cpp), with Canadian's perft from the start.
    bottom_left_playable=False,  # dctl: coloring 0, the near-left corner is a light square
    draw_rules=DrawRules(
        repetitions=3,
        move_counts=INTERNATIONAL.draw_rules.move_counts,
        notes="No draw rules are sourced for Sri Lankan draughts: repetition and the 25-move rule follow "
        "International (FMJD), as its capture rules do.",
    ),
    pdn_gametype=None,  # not in PDN 3.0's GameType table
    sources=(
        "dctl srilankan rules = international on rectangular<12, 12, 0> (rhalbersma/dctl @21869018)",
        "Games::Checkers doc/variants (mig0/Games-Checkers @a0117af8): Sri Lankian, 12x12, bottom-left cell "
        "not played, 5 pawn rows",
    ),
)
"""Sri Lankan draughts: International rules on a 12x12 board whose near-left corner is light."""

VARIANTS: Mapping[str, Ruleset] = types.MappingProxyType(
    {
        rules.name: rules
        for rules in (
            ITALIAN,
            AMERICAN,
            RUSSIAN,
            BRAZILIAN,
            SPANISH,
            CZECH,
            INTERNATIONAL,
            FRISIAN,
            FRYSK,
            KILLER,
            ANTIDRAUGHTS,
            BREAKTHROUGH,
            THAI,
            TURKISH,
            POOL,
            CANADIAN,
            PORTUGUESE,
            SPANTSIRETTI,
            SRI_LANKAN,
        )
    }
)
"""Canonical name -> ruleset: the seven federation variants, then the rest of the family."""

FEDERATION_VARIANTS = ("italian", "american", "russian", "brazilian", "spanish", "czech", "international")
"""The seven variants of the national and international federations the library started with."""
