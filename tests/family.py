"""The draughts family as test rulesets, and rule cases worked out by hand from the rule texts.

The rulesets are built with :func:`attrs.evolve` from the named variants (the library names them
itself later). Where the rule texts conflict, each picks what the published perft
count needs, and says so. The :data:`CASES` are small positions whose legal moves were derived by
hand from the rule texts (or are published examples); ``test_naive.py`` holds the oracle to them
and ``test_oracle_family.py`` the library.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import attrs

import draughts
from conftest import load_json
from draughts import BLACK, WHITE, CapturedRemoval, CapturePromotion, Color, KingRange, Numbering, Ruleset
from draughts.rules import Directions, KingLanding, MostPieces, MostValue, WithKing
from draughts.rules import variants as _named
from draughts.rules.geometry import BoardSquares, SquareNames

FRISIAN = attrs.evolve(
    _named.INTERNATIONAL,
    name="frisian",
    title="Frisian draughts",
    men_capture=Directions.ALL,  # FRI-2011 art. 7: men capture in 8 directions
    kings_move=Directions.DIAGONAL,  # art. 9 (MS-FRI's "straight or diagonal" is the odd one out among the texts)
    kings_capture=Directions.ALL,  # art. 9: flying, 8 directions, any square beyond
    precedence=(MostValue(100, 199), WithKing()),  # art. 11-12: value, then the king captures
    king_move_limit=3,  # art. 17 (dctl's published counts lack it; it cannot bite before ply 13)
    pdn_gametype=None,
)
FRYSK = attrs.evolve(FRISIAN, name="frysk", title="Frysk!", rows_per_side=1)  # 5 men on the back rank
KILLER = attrs.evolve(
    _named.INTERNATIONAL,
    name="killer",
    title="Killer draughts",
    king_landing=KingLanding.BEHIND_LAST_KING,
    pdn_gametype=None,
)
ANTIDRAUGHTS = attrs.evolve(
    _named.INTERNATIONAL, name="antidraughts", title="Antidraughts", no_move_wins=True, pdn_gametype=None
)
BREAKTHROUGH = attrs.evolve(
    _named.INTERNATIONAL, name="breakthrough", title="Breakthrough draughts", crowning_wins=True, pdn_gametype=None
)
THAI_12 = attrs.evolve(
    _named.AMERICAN,
    name="thai-12",
    title="Thai rules from the 12-men checkers start (dctl's perft position)",
    first_to_move=WHITE,  # sources disagree; dctl, whose counts these are, starts with White
    king_range=KingRange.FLYING,
    king_landing=KingLanding.DIRECTLY_BEHIND,
    captured_removal=CapturedRemoval.IMMEDIATE,
    capture_reversal=True,  # disputed (THAI-MS forbids it); dctl: is_reverse_king_jump = flying && passing capture
    precedence=(),
    capture_promotion=CapturePromotion.ENDS_MOVE,
    pdn_gametype=None,
)
THAI = attrs.evolve(THAI_12, name="thai", title="Thai draughts", rows_per_side=2)  # 8 men on two rows
TURKISH = attrs.evolve(
    _named.INTERNATIONAL,
    name="turkish",
    title="Turkish draughts",
    board_size=8,
    board_squares=BoardSquares.ALL,
    rows_per_side=2,
    men_start_row=2,  # ranks 2-3 and 6-7
    men_move=Directions.ORTHOGONAL_FORWARD | Directions.ORTHOGONAL_SIDEWAYS,
    men_capture=Directions.ORTHOGONAL_FORWARD | Directions.ORTHOGONAL_SIDEWAYS,
    kings_move=Directions.ORTHOGONAL,
    kings_capture=Directions.ORTHOGONAL,
    captured_removal=CapturedRemoval.IMMEDIATE,
    capture_reversal=False,
    precedence=(MostPieces(),),
    # The texts conflict: kish, whose counts these are, continues as a man (its tests
    # rules_promotion.rs 7.2). Its counts to d8 do not tell the readings apart (continuing as a
    # king or stopping on the row gives the same d7 and d8); they do pin the 180° rule (allowing
    # the turn gives 10,782,390 counted kish's way, 10,782,316 in restriction-9 paths).
    capture_promotion=CapturePromotion.ONLY_AT_END,
    numbering=Numbering.BOTTOM_LEFT,  # a1 = 1 ... h8 = 64
    square_names=SquareNames.ALGEBRAIC,
    pdn_gametype=None,
)
POOL = attrs.evolve(
    _named.RUSSIAN,
    name="pool",
    title="Pool checkers",
    first_to_move=BLACK,  # POOL-APCA 2 (dctl starts with White: the start is symmetric, counts agree)
    capture_promotion=CapturePromotion.ONLY_AT_END,  # POOL-TKABBER 5: jumps out of the far row as a man
    pdn_gametype=None,
)
CANADIAN = attrs.evolve(
    _named.INTERNATIONAL, name="canadian", title="Canadian draughts", board_size=12, rows_per_side=5, pdn_gametype=None
)

FAMILY: tuple[Ruleset, ...] = (
    FRISIAN,
    FRYSK,
    KILLER,
    ANTIDRAUGHTS,
    BREAKTHROUGH,
    THAI_12,
    THAI,
    TURKISH,
    POOL,
    CANADIAN,
)
"""The family rulesets (the published perft counts are in tests/data/perft-family.json)."""


@dataclass(frozen=True)
class Case:
    """A position, moves played from it, and what follows by the rules.

    Squares are written as the FEN allows (numbers or algebraic names); ``played`` and ``legal``
    write a move as its restriction-9 path (``"c4xa4xf4"``, ``"d2-e3"``) followed, for a capture,
    by the captured squares (``"c4xa4xf4 b4 e4"``).
    """

    name: str
    rules: Ruleset
    fen: str
    legal: tuple[str, ...]
    played: tuple[str, ...] = ()
    winner: Color | None = None
    """Who has won once ``legal`` is empty (None: nobody, the game goes on)."""
    why: str = ""


_TURKISH_REVERSAL = attrs.evolve(TURKISH, capture_reversal=True)
_THAI_ANYWHERE = attrs.evolve(THAI, king_landing=KingLanding.ANYWHERE)
_FRISIAN_COUNT = attrs.evolve(FRISIAN, precedence=(MostPieces(),))
_FRISIAN_VALUE_ONLY = attrs.evolve(FRISIAN, precedence=(MostValue(100, 199),))
_RUSSIAN = _named.RUSSIAN
_INTERNATIONAL = _named.INTERNATIONAL

# The king-move limit: White's king shuttles d2-e3-d2-e3 while Black's lone king shuttles i9-j10
# (Black has no men, so it is exempt). No piece stands on a line of an opposing piece.
_SHUTTLE = ("d2-e3", "i9-j10", "e3-d2", "j10-i9", "d2-e3")

CASES: tuple[Case, ...] = (
    # --- 180° turns (Turkish: flying orthogonal king, captured pieces removed at once) ---
    Case(
        "180-degree turn forbidden",
        TURKISH,
        "W:WKc4:Bb4,e4",
        ("c4xa4 b4", "c4xf4 e4", "c4xg4 e4", "c4xh4 e4"),
        why="after taking b4 the way back to e4 is free (b4 is gone, c4 is its own start), but the turn is 180°",
    ),
    Case(
        "180-degree turn allowed",
        _TURKISH_REVERSAL,
        "W:WKc4:Bb4,e4",
        (
            "c4xa4xf4 b4 e4",
            "c4xa4xg4 b4 e4",
            "c4xa4xh4 b4 e4",
            "c4xf4xa4 e4 b4",
            "c4xg4xa4 e4 b4",
            "c4xh4xa4 e4 b4",
        ),
        why="every square beyond e4 lets the capture go on back over b4, so all three are landings",
    ),
    Case(
        "180-degree turn impossible when pieces leave at the end",
        attrs.evolve(_TURKISH_REVERSAL, captured_removal=CapturedRemoval.END_OF_MOVE),
        "W:WKc4:Bb4,e4",
        ("c4xa4 b4", "c4xf4 e4", "c4xg4 e4", "c4xh4 e4"),
        why="the captured piece still stands in the way back",
    ),
    Case(
        "kish: a king may not reverse (vertical)",
        TURKISH,
        "B:Wd2,Kd6:BKd4",
        ("d4xd1 d2", "d4xd7 d6", "d4xd8 d6"),
        why="kish tests king_180_turn_prohibited_vertical: every action takes one piece",
    ),
    # --- Turkish men: orthogonal captures, crowning during a capture ---
    Case(
        "kish: a man goes on capturing as a man from the far row (ONLY_AT_END)",
        TURKISH,
        "W:Wd6:Bd7,c8",
        ("d6xd8xb8 d7 c8",),
        why="kish tests rules_promotion.rs pawn_continues_as_pawn_during_capture_sequence",
    ),
    Case(
        "a man reaching the far row mid-capture stops there (ENDS_MOVE)",
        attrs.evolve(TURKISH, capture_promotion=CapturePromotion.ENDS_MOVE),
        "W:Wd6:Bd7,e8",
        ("d6xd8 d7",),
    ),
    Case(
        "a man reaching the far row mid-capture goes on as a flying king (CONTINUES_AS_KING)",
        attrs.evolve(TURKISH, capture_promotion=CapturePromotion.CONTINUES_AS_KING),
        "W:Wd6:Bd7,e8",
        ("d6xd8xf8 d7 e8", "d6xd8xg8 d7 e8", "d6xd8xh8 d7 e8"),
    ),
    # --- landing rules of flying kings ---
    Case(
        "Thai: the king lands directly behind the piece",
        THAI,
        "W:WKa1:Bc3,g5",
        ("a1xd4 c3",),
        why="from d4 nothing is capturable; the capture from f6 over g5 is out of reach",
    ),
    Case(
        "the same position with any landing square: it must land where the capture continues",
        _THAI_ANYWHERE,
        "W:WKa1:Bc3,g5",
        ("a1xf6xh4 c3 g5",),
    ),
    Case(
        "Thai: straight on, each time directly behind",
        THAI,
        "W:WKa1:Bc3,e5",
        ("a1xd4xf6 c3 e5",),
    ),
    Case(
        "Killer: after a king taken last, the capture ends directly behind it",
        KILLER,
        "W:WKa1:BKc3",
        ("a1xd4 c3",),
    ),
    Case(
        "International: the same king may stop anywhere beyond",
        _INTERNATIONAL,
        "W:WKa1:BKc3",
        ("a1xd4 c3", "a1xe5 c3", "a1xf6 c3", "a1xg7 c3", "a1xh8 c3", "a1xi9 c3", "a1xj10 c3"),
    ),
    Case(
        "Killer: only the final landing is restricted",
        KILLER,
        "W:WKa1:BKb2,e3",
        ("a1xd4xf2 b2 e3", "a1xd4xg1 b2 e3"),
        why="the king stops on d4 (not directly behind the king b2) because only there the capture goes on",
    ),
    Case(
        "Killer: a final king ends the capture right behind it",
        KILLER,
        "W:WKa1:Bb2,Ke3",
        ("a1xd4xf2 b2 e3",),
    ),
    # --- Frisian: orthogonal men captures and value precedence ---
    Case(
        "Frisian men capture along the row (n+1 to n+2) and the column (n-10 to n-20)",
        FRISIAN,
        "W:W37:B27,38",
        ("37x17 27", "37x39 38"),
    ),
    Case(
        "International men do not",
        _INTERNATIONAL,
        "W:W37:B27,38",
        ("37-31", "37-32"),
    ),
    Case(
        "Frisian: two kings (398) outweigh three men (300)",
        FRISIAN,
        "W:Wa3,Kj2:Ba5,c7,f8,Kj4,Kj8",
        ("j2xj6xj10 j4 j8",),
    ),
    Case(
        "counting pieces instead, the three men win",
        _FRISIAN_COUNT,
        "W:Wa3,Kj2:Ba5,c7,f8,Kj4,Kj8",
        ("a3xa7xe7xg9 a5 c7 f8",),
    ),
    Case(
        "Frisian: value before the king capturer (a king, 199, beats a man, 100)",
        FRISIAN,
        "W:Wa3,Kj2:BKa5,j4",
        ("a3xa7 a5",),
    ),
    Case(
        "Frisian: at equal value the king captures",
        FRISIAN,
        "W:Wa3,Kj2:Ba5,j4",
        ("j2xj6 j4", "j2xj8 j4", "j2xj10 j4"),
    ),
    Case(
        "value alone leaves the choice",
        _FRISIAN_VALUE_ONLY,
        "W:Wa3,Kj2:Ba5,j4",
        ("a3xa7 a5", "j2xj6 j4", "j2xj8 j4", "j2xj10 j4"),
    ),
    Case(
        "Frisian: two men (200) outweigh one king (199)",
        FRISIAN,
        "W:Wa3,Kj2:Ba5,c7,Kj4",
        ("a3xa7xe7 a5 c7",),
    ),
    # --- Pool: a man jumps out of the far row and is not crowned ---
    Case(
        "Pool: passing the far row does not crown",
        POOL,
        "W:Wb6:Bc7,e7",
        ("b6xd8xf6 c7 e7",),
    ),
    Case(
        "Russian: crowned on the far row, goes on as a flying king",
        _RUSSIAN,
        "W:Wb6:Bc7,e7",
        ("b6xd8xf6 c7 e7", "b6xd8xg5 c7 e7", "b6xd8xh4 c7 e7"),
    ),
    # --- the king-move limit (Frisian art. 17) ---
    Case(
        "Frisian: the fourth quiet move in a row with the same king is illegal",
        FRISIAN,
        "W:WKd2,a3:BKi9",
        ("a3-b4",),
        played=(*_SHUTTLE, "i9-h8"),
    ),
    Case(
        "Frisian: the king stopped by the limit may still capture",
        FRISIAN,
        "W:WKd2,a3:BKi9",
        ("e3xe7 e5", "e3xe9 e5"),
        played=(*_SHUTTLE, "i9-e5"),
    ),
    Case(
        "Frisian: a man move lifts the ban",
        FRISIAN,
        "W:WKd2,a3:BKi9",
        (
            "b4-a5",
            "b4-c5",
            "e3-f4",
            "e3-g5",
            "e3-h6",
            "e3-i7",
            "e3-j8",
            "e3-d4",
            "e3-c5",
            "e3-b6",
            "e3-a7",
            "e3-f2",
            "e3-g1",
            "e3-d2",
            "e3-c1",
        ),
        played=(*_SHUTTLE, "i9-h8", "a3-b4", "h8-i9"),
    ),
    Case(
        "without the limit the king goes on",
        attrs.evolve(FRISIAN, king_move_limit=None),
        "W:WKd2,a3:BKi9",
        (
            "a3-b4",
            "e3-f4",
            "e3-g5",
            "e3-h6",
            "e3-i7",
            "e3-j8",
            "e3-d4",
            "e3-c5",
            "e3-b6",
            "e3-a7",
            "e3-f2",
            "e3-g1",
            "e3-d2",
            "e3-c1",
        ),
        played=(*_SHUTTLE, "i9-h8"),
    ),
    Case(
        "a side with only kings is exempt",
        FRISIAN,
        "W:WKd2:BKi9",
        (
            "e3-f4",
            "e3-g5",
            "e3-h6",
            "e3-i7",
            "e3-j8",
            "e3-d4",
            "e3-c5",
            "e3-b6",
            "e3-a7",
            "e3-f2",
            "e3-g1",
            "e3-d2",
            "e3-c1",
        ),
        played=(*_SHUTTLE, "i9-h8"),
    ),
    # --- win conditions ---
    Case(
        "International: a blocked side loses",
        _INTERNATIONAL,
        "W:W46:B41,37",
        (),
        winner=BLACK,
    ),
    Case(
        "Antidraughts: a blocked side wins",
        ANTIDRAUGHTS,
        "W:W46:B41,37",
        (),
        winner=WHITE,
    ),
    Case(
        "Breakthrough: crowning ends the game",
        BREAKTHROUGH,
        "W:W6:B45",
        (),
        played=("6-1",),
        winner=WHITE,
    ),
    Case(
        "Breakthrough: the man one step short has not won yet",
        BREAKTHROUGH,
        "W:W11:B45",
        ("45-50",),
        played=("11-6",),
    ),
    Case(
        "International: the same crowning goes on",
        _INTERNATIONAL,
        "W:W6:B45",
        ("45-50",),
        played=("6-1",),
    ),
)


# --- the published counts (tests/data/perft-family.json and perft.json) ---


PUBLISHED_RULES: dict[str, Ruleset] = {  # the data files' labels
    "frisian": FRISIAN,
    "frysk": FRYSK,
    "killer": KILLER,
    "antidraughts": ANTIDRAUGHTS,
    "breakthrough": BREAKTHROUGH,
    "thai": THAI_12,
    "turkish": TURKISH,
    "pool": POOL,
    "canadian": CANADIAN,
    "srilankan": _named.SRI_LANKAN,  # dctl: Canadian on the board coloured the other way
    "portuguese": _named.SPANISH,  # dctl's Spanish rules cite the Portuguese federation
    "14x14": attrs.evolve(_named.INTERNATIONAL, name="intl-14", board_size=14, rows_per_side=6),  # 2 empty rows
    # International rules on dctl's rectangles, (height - 2) // 2 rows of men: width x height.
    "intl-10x8": attrs.evolve(_named.INTERNATIONAL, name="intl-10x8", board_size=(10, 8), rows_per_side=3),
    "ktar-10x12": attrs.evolve(
        _named.INTERNATIONAL, name="ktar-10x12", board_size=(10, 12), rows_per_side=5, bottom_left_playable=False
    ),
    "ktar-10x11": attrs.evolve(
        _named.INTERNATIONAL, name="ktar-10x11", board_size=(10, 11), rows_per_side=4, bottom_left_playable=False
    ),
    "intl-12x10": attrs.evolve(_named.INTERNATIONAL, name="intl-12x10", board_size=(12, 10), rows_per_side=4),
    "ktar-8x10": attrs.evolve(
        _named.INTERNATIONAL, name="ktar-8x10", board_size=(8, 10), rows_per_side=4, bottom_left_playable=False
    ),
}

_OTHER_BOARDS = {"14x14": "14x14", "Spantsiretti": "intl-10x8", "Ktar 10x12": "ktar-10x12"}
"""perft-family.json's other_boards_international_rules entries by the start of their ``fen``."""


def _convention(entry: dict[str, Any]) -> str:
    text = (entry.get("convention") or "").lower()
    if "kish" in entry["source"]:
        return "landings"
    if "kept" in text:
        return "paths"
    if "dropped" in text:
        return "identities"
    raise AssertionError(f"unknown convention in {entry}")


def _family_series() -> Iterator[tuple[str, Ruleset, str, str, dict[int, int]]]:
    series: dict[tuple[str, str, str, str], dict[int, int]] = {}
    for key, entries in load_json("perft-family.json").items():
        for entry in entries:
            if entry.get("count") is None:
                continue  # "none found"
            if key == "turkish" and "kish" not in entry["source"]:
                continue  # pydraughts 0.6.7: its d5 is wrong (a defect of that version)
            label = key
            if key == "other_boards_international_rules":
                label = next(label for start, label in _OTHER_BOARDS.items() if entry["fen"].startswith(start))
            fen = "start" if key == "other_boards_international_rules" else entry["fen"]
            source = next(name for name in ("dctl", "kish", "py-draughts", "pydraughts") if name in entry["source"])
            series.setdefault((label, fen, _convention(entry), source), {})[entry["depth"]] = entry["count"]
    for label, entries in load_json("perft-rectangular.json").items():
        if not label.startswith("_"):
            counts = {entry["depth"]: entry["count"] for entry in entries}
            series[(label, "start", "identities", "dctl")] = counts
    for (label, fen, convention, source), counts in series.items():
        yield label, PUBLISHED_RULES[label], fen, f"{convention} ({source})", counts


def _seven_series() -> Iterator[tuple[str, Ruleset, str, str, dict[int, int]]]:
    names = {"english": "american"}
    for key, data in load_json("perft.json")["variants"].items():
        if key == "no_forced_capture":
            continue  # self-computed seeds, not published
        rules = draughts.get_variant(names.get(key, key))
        for convention, published in (("paths", data["keep"]), ("identities", data["dedup"])):
            yield key, rules, "start", convention, {int(depth): count for depth, count in published.items()}


def published_series() -> Iterator[tuple[str, Ruleset, str, str, dict[int, int]]]:
    """Every published perft series: (label, ruleset, ``"start"`` or FEN, convention, {depth: count}).

    The convention is ``"paths"`` (duplicates KEPT), ``"identities"`` (DROPPED) or ``"landings"``
    (kish: every sequence of landing squares), followed by the source's name.
    """
    yield from _family_series()
    yield from _seven_series()


def parse_move(rules: Ruleset, text: str) -> tuple[tuple[int, ...], frozenset[int]]:
    """``"c4xa4xf4 b4 e4"`` as (path squares, captured squares), in ``rules``' numbers."""
    path_text, *captured = text.split()
    path = tuple(rules.parse_square(part) for part in path_text.replace("x", "-").split("-"))
    return path, frozenset(rules.parse_square(square) for square in captured)


def expected(case: Case) -> list[tuple[tuple[int, ...], frozenset[int]]]:
    """The case's legal moves as sorted (path, captured set) pairs."""
    return sorted(parse_move(case.rules, text) for text in case.legal)
