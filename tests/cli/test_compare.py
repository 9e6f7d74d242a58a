"""Comparing variants: the rules table and the legal moves of one diagram under several rulesets."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import attrs
import pytest

import draughts
from draughts.compare import IDENTITY_FIELDS, MovesComparison, Row, Table, format_field, moves_table, rules_table

EIGHT = [
    *(draughts.VARIANTS[name] for name in draughts.rules.variants.FEDERATION_VARIANTS),
    draughts.get_variant("no-forced-capture"),
]
"""The seven federation variants and the no-forced-capture house rule."""

LABELS = {field.name: field.metadata["label"] for field in attrs.fields(draughts.Ruleset)}


def pool() -> draughts.Ruleset:
    """A user-defined ruleset: Brazilian without the majority rule, Black first."""
    return attrs.evolve(
        draughts.get_variant("brazilian"),
        name="my-pool",
        title="Pool checkers",
        first_to_move=draughts.BLACK,
        precedence=(),
        square_names=draughts.SquareNames.NUMERIC,
        pdn_gametype=23,
    )


# --- the rules table ----------------------------------------------------------------------------


def test_italian_american_differences() -> None:
    table = rules_table(["italian", "american"], differences_only=True)
    assert table.columns == ("italian", "american")
    keys = [row.key for row in table.rows]
    for key in ("men_capture_kings", "precedence", "first_to_move", "bottom_left_playable"):
        assert key in keys
    assert table.row("men_capture_kings").cells == ("no", "yes")
    assert table.row("first_to_move").cells == ("white", "black")
    assert table.row("bottom_left_playable").cells == ("no", "yes")  # the inverted Italian board
    assert table.row("precedence").cells == (
        "most pieces, then with a king, then most kings, then kings met earliest",
        "free choice",
    )
    assert table.row("pdn_gametype").cells == ("22,W,8,8,N2,1", "21,B,8,8,N1,0")
    # Rows the two share are left out: both have short kings, men capturing forward only, 8x8.
    for same in ("king_range", "men_capture", "board_size", "capture_mandatory", "men_per_side"):
        assert same not in keys
    assert all(row.differs for row in table.rows)


def test_labels_come_from_field_metadata() -> None:
    table = rules_table(EIGHT)
    for row in table.rows:
        if row.key in LABELS:
            assert row.label == LABELS[row.key]
    rule_fields = [name for name in LABELS if name not in IDENTITY_FIELDS]
    assert [row.key for row in table.rows if row.key in LABELS] == rule_fields
    assert table.row("men_per_side").cells == ("12",) * 6 + ("20", "12")  # derived from the fields


def test_all_eight_variants() -> None:
    table = rules_table(EIGHT)
    assert table.columns == (
        "italian",
        "american",
        "russian",
        "brazilian",
        "spanish",
        "czech",
        "international",
        "american-nfc",
    )
    assert all(len(row.cells) == 8 for row in table.rows)
    assert table.row("board_size").cells == ("8x8",) * 6 + ("10x10", "8x8")
    assert table.row("pdn_gametype").cells == tuple(rules.pdn_gametype_tag or "none" for rules in EIGHT)
    assert table.row("capture_mandatory").cells == ("yes",) * 7 + ("no",)
    assert table.row("king_range").cells == ("short", "short", *("flying",) * 5, "short")
    assert table.row("precedence").cells[2] == "free choice"
    assert table.row("precedence").cells[5] == "with a king"
    assert table.row("draw_rules").cells == tuple("; ".join(rules.draw_rules.describe()) for rules in EIGHT)
    assert table.row("numbering").cells[4] == "bottom-right (1 = h1, 32 = a8)"  # Spanish N1
    assert table.row("numbering").cells[0] == "top-left (1 = a8, 32 = h1)"  # Italian, inverted board
    assert table.row("numbering").cells[1] == "top-left (1 = b8, 32 = g1)"


def test_names_aliases_and_house_rules() -> None:
    by_name = rules_table(["dama", "english", "russian-nfc"])
    assert by_name.columns == ("italian", "american", "russian-nfc")
    assert by_name.row("capture_mandatory").cells == ("yes", "yes", "no")
    assert rules_table("shashki").columns == ("russian",)


def test_custom_ruleset() -> None:
    custom = pool()
    table = rules_table([draughts.get_variant("brazilian"), custom], differences_only=True)
    assert table.columns == ("brazilian", "my-pool")
    assert [row.key for row in table.rows] == ["first_to_move", "precedence", "square_names", "pdn_gametype"]
    assert table.row("precedence").cells == ("most pieces", "free choice")
    assert table.row("first_to_move").cells == ("white", "black")
    assert table.row("pdn_gametype").cells == ("26,W,8,8,A0,0", "23,B,8,8,N1,0")
    assert format_field(custom, "king_range") == "flying"


def test_new_precedence_and_draw_rules_read_from_the_ruleset() -> None:
    custom = attrs.evolve(
        draughts.get_variant("american"),
        name="odd",
        precedence=(draughts.Precedence.MOST_KINGS, draughts.Precedence.MOST_PIECES),
        draw_rules=draughts.DrawRules(repetitions=None),
    )
    table = rules_table([custom])
    assert table.row("precedence").cells == ("most kings, then most pieces",)
    assert table.row("draw_rules").cells == ("none",)


def test_bad_arguments() -> None:
    with pytest.raises(draughts.DraughtsError, match="two or more"):
        rules_table(["italian"], differences_only=True)
    with pytest.raises(draughts.DraughtsError, match="no variants"):
        rules_table([])
    with pytest.raises(draughts.UnknownVariantError, match="klingon"):
        rules_table(["italian", "klingon"])
    with pytest.raises(draughts.DraughtsError, match="cells"):
        Table(columns=("a", "b"), rows=[Row("x", ["1"])])


def test_text_rendering() -> None:
    table = rules_table(["italian", "american"], differences_only=True)
    text = table.to_text()
    assert str(table) == text
    lines = text.splitlines()
    assert lines[0].split() == ["Rule", "italian", "american"]
    assert set(lines[1]) <= {"-", " "}
    assert "Men may capture kings" in text
    assert "free choice" in text
    assert max(map(len, lines)) <= 120  # wrapped just enough to fit
    # With a fixed width the Italian precedence wraps within its column.
    fixed = table.to_text(width=30).splitlines()
    start, end = fixed[0].index("italian"), fixed[0].index("american")
    first = next(index for index, line in enumerate(fixed) if line.startswith("Capture precedence"))
    column = [line[start:end].strip() for line in fixed[first : first + 3]]
    assert " ".join(column) == "most pieces, then with a king, then most kings, then kings met earliest"
    narrow = table.to_text(width=12)
    assert all(len(line) <= start + 2 * 14 for line in narrow.splitlines())
    # A table that fits is one line per row.
    single = rules_table(["italian"]).to_text().splitlines()
    assert len(single) == 2 + len(rules_table(["italian"]).rows)
    assert any("then kings met earliest" in line for line in single)


def _markdown_cells(line: str) -> list[str]:
    assert line.startswith("|")
    assert line.endswith("|")
    cells = re.split(r"(?<!\\)\|", line[1:-1])
    return [re.sub(r"\\(.)", r"\1", cell.strip()) for cell in cells]


def test_markdown_renders_and_parses() -> None:
    odd = attrs.evolve(pool(), name="p|o*o_l<x>")
    table = rules_table(["italian", "american", odd])
    lines = table.to_markdown().splitlines()
    assert _markdown_cells(lines[0]) == ["Rule", "italian", "american", "p|o*o_l<x>"]
    assert re.fullmatch(r"\|(---\|){4}", lines[1])
    parsed = [_markdown_cells(line) for line in lines[2:]]
    assert parsed == [[row.label, *row.cells] for row in table.rows]


def test_html_renders_and_parses() -> None:
    odd = attrs.evolve(pool(), name='<b>&"my-pool"')
    table = rules_table(["italian", "american", odd], differences_only=True)
    text = table.to_html()
    root = ET.fromstring(text)
    assert root.tag == "table"
    header = [cell.text or "" for cell in root.iter("th") if cell.get("scope") == "col"]
    assert header == ["Rule", "italian", "american", '<b>&"my-pool"']
    body = root.find("tbody")
    assert body is not None
    parsed = []
    for tr in body.iter("tr"):
        parsed.append([cell.text or "" for cell in tr])
        assert tr.get("data-key") in LABELS or tr.get("data-key") == "men_per_side"
    assert parsed == [[row.label, *row.cells] for row in table.rows]

    class Cells(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.cells: list[str] = []

        def handle_data(self, data: str) -> None:
            if data.strip():
                self.cells.append(data)

    reader = Cells()
    reader.feed(text)
    assert '<b>&"my-pool"' in reader.cells
    assert "<b>" not in text


# --- the moves comparison ---------------------------------------------------------------------

# American numbering (= Russian numbers): a white man on d4 (18) with a black king on c5 (14) and a
# black man on e5 (15) in front of it and a black man on c3 (22) behind it; a white king on h4 (20)
# with a black man on g5 (16) in front of it.
FEN = "W:W18,K20:BK14,15,16,22"


def comparison() -> MovesComparison:
    return moves_table(FEN, ["italian", "american", "russian"], fen_variant="american")


def test_italian_forces_the_king_capture() -> None:
    result = comparison()
    # Italian: the man may not take the king on c5; its capture of e5 and the king's capture of g5
    # take one piece each, and "with a king" decides. The diagram is mirrored on the Italian board.
    assert result.mirrored == (True, False, False)
    assert result.common("italian") == ("20x11",)
    assert result.moves("italian") == ("17x10",)


def test_american_free_choice() -> None:
    result = comparison()
    assert set(result.common("american")) == {"18x9", "18x11", "20x11"}  # man takes king, man takes man, king
    assert set(result.moves("american")) == {"18x9", "18x11", "20x11"}


def test_russian_man_captures_backward() -> None:
    result = comparison()
    russian = set(result.moves("russian"))
    assert {"d4:b6", "d4:f6", "d4:b2"} <= russian  # b2: backward
    assert "18x25" in result.common("russian")
    assert "18x25" not in result.common("american") + result.common("italian")
    # The flying king must finish its capture: h4 takes g5, c5 and c3 and lands on d2 or e1.
    kings = [row for row in result.rows if row.identity[0] == 20 and row.moves[2] is not None]
    assert {len(row.identity[2]) for row in kings} == {3}
    assert "h4:f6" not in russian


def test_differences_are_marked() -> None:
    result = comparison()
    assert [row.common for row in result.differences] == [row.common for row in result.rows]  # none is in all three
    table = result.table()
    assert table.columns == ("italian", "american", "russian", "Legal in")
    assert table.row("18x25").cells == ("", "", "d4:b2", "russian")
    assert table.row("18x9").cells == ("", "18x9", "d4:b6", "american, russian")
    assert table.row("20x11").cells == ("17x10", "20x11", "", "italian, american")
    assert all(row.marked for row in table.rows)
    two = moves_table(FEN, ["american", "american-nfc"])
    assert [row.common for row in two.differences] == sorted(
        (row.common for row in two.differences), key=lambda text: [int(n) for n in re.split("[x-]", text)]
    )
    quiet = [row for row in two.rows if "x" not in row.common]
    assert quiet
    assert all(row.moves[0] is None and row.moves[1] is not None for row in quiet)
    assert all(row.legal_everywhere for row in two.rows if "x" in row.common)
    assert not two.table().row("18x9").marked
    assert two.table().row(quiet[0].common).marked


def test_moves_renderers() -> None:
    result = comparison()
    text = result.to_text()
    assert str(result) == text
    assert "* 18x25" in text
    assert "italian plays on an inverted board" in " ".join(text.split())
    assert "squares numbered as in american" in text
    md = result.to_markdown().splitlines()
    header = next(index for index, line in enumerate(md) if line.startswith("| Move"))
    assert _markdown_cells(md[header])[1:] == ["italian", "american", "russian", "Legal in"]
    assert _markdown_cells(md[header + 2])[0] == "**18x9**"
    root = ET.fromstring(result.to_html())
    caption = root.find("caption")
    assert caption is not None
    assert FEN in (caption.text or "")
    marked = [tr for tr in root.iter("tr") if tr.get("class") == "marked"]
    assert len(marked) == len(result.rows)


def test_fen_numbering_default_is_the_first_variant() -> None:
    # The same text is a different diagram in Italian and American numbering.
    american_first = moves_table("W:W22:B18", ["american", "italian"])
    assert american_first.reference.name == "american"
    assert american_first.moves("american") == ("22x15",)
    italian_first = moves_table("W:W22:B18", ["italian", "american"])
    assert italian_first.reference.name == "italian"
    assert italian_first.moves("italian") == ("22x13",)
    explicit = moves_table("W:W22:B18", ["italian", "american"], fen_variant="american")
    assert explicit.rows == tuple(
        attrs.evolve(row, moves=row.moves[::-1], texts=row.texts[::-1]) for row in american_first.rows
    )


def test_start_position_maps_onto_every_start_position() -> None:
    # The American start diagram with White to move is every 8x8 variant's start position: the mapping
    # through coordinates (and the mirror for inverted boards) puts each piece where that variant has it.
    eight_by_eight = [rules for rules in EIGHT if rules.board_size == 8]
    result = moves_table("W:W21-32:B1-12", eight_by_eight)
    for rules, position in zip(result.variants, result.positions, strict=True):
        assert position.pieces() == draughts.Position.initial(rules).pieces(), rules.name
    assert all(row.legal_everywhere for row in result.rows)
    assert len(result.rows) == 7
    spanish = moves_table("W:W1-12:B21-32", ["spanish", "russian"])
    assert spanish.positions[1].pieces() == draughts.Position.initial("russian").pieces()


def test_custom_rulesets_in_moves_table() -> None:
    # A man on c3 can take b4 alone or d4 and f6: Brazilian's majority rule forces the double, the
    # user-defined free-choice ruleset (numeric squares) allows both.
    result = moves_table("W:Wc3:Bb4,d4,f6", ["brazilian", pool()])
    assert result.moves("brazilian") == ("c3xg7",)
    assert result.moves("my-pool") == ("22x8", "22x13")
    assert result.moves(pool()) == result.moves("my-pool")
    assert [row.common for row in result.differences] == ["c3xa5"]  # as brazilian, the reference, writes it
    table = result.table()
    assert table.columns == ("brazilian", "my-pool", "Legal in")
    assert table.row("c3xa5").cells == ("", "22x13", "my-pool")
    assert table.row("c3xg7").cells == ("c3xg7", "22x8", "all")


def test_position_and_board_inputs() -> None:
    position = draughts.Position.from_fen("american", FEN)
    from_position = moves_table(position, ["italian", "american", "russian"])
    assert from_position.reference.name == "american"
    assert from_position.rows == comparison().rows
    board = draughts.Board("american", FEN)
    assert moves_table(board, ["american"]).moves("american") == comparison().moves("american")
    with pytest.raises(draughts.DraughtsError, match="contradicts"):
        moves_table(position, ["italian"], fen_variant="italian")


def test_board_sizes_must_match() -> None:
    with pytest.raises(draughts.DraughtsError, match=r"international is 10x10"):
        moves_table("W:W22:B18", ["american", "international"])
    with pytest.raises(draughts.DraughtsError, match=r"board sizes"):
        moves_table("W:W31-50:B1-20", ["american"], fen_variant="international")


def test_bad_fen() -> None:
    with pytest.raises(draughts.InvalidFenError):
        moves_table("X:W22", ["american"])
    # Too many men for a board with fewer rows of men is caught per variant, naming it.
    two_rows = attrs.evolve(draughts.get_variant("american"), name="tworows", rows_per_side=2)
    with pytest.raises(draughts.InvalidFenError, match="tworows"):
        moves_table("W:W21-32:B1-12", ["american", two_rows])


def test_no_legal_moves() -> None:
    result = moves_table("W:W29:BK22,K25,K26", ["american", "russian"])
    assert result.rows == ()
    assert "(no rows)" in result.to_text()


def test_text_fits_the_line_width_and_wraps_only_what_it_must() -> None:
    """Issue 23 §7: narrow columns keep whole labels; a narrow line wraps, then stacks; no blank rows."""
    table = rules_table(["brazilian", "pool"], differences_only=True)
    text = table.to_text(line_width=80)
    assert "Capture precedence" in text  # the labels fit whole beside two short columns
    assert all(len(line) <= 80 for line in text.splitlines())
    many = rules_table(["frisian", "turkish", "killer"], differences_only=True)
    for width in (120, 80, 60, 40):
        lines = many.to_text(line_width=width).splitlines()
        assert max(map(len, lines)) <= width, width
        assert "" not in lines, width
    stacked = many.to_text(line_width=40).splitlines()
    assert stacked[:4] == ["Board size", "  frisian  10x10", "  turkish  8x8", "  killer   10x10"]
