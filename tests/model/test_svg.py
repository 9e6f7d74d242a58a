"""SVG boards: parsed as XML, each piece checked against the ruleset's geometry."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import attrs
import pytest

import draughts
import draughts.svg
from draughts import BLACK, WHITE, Piece

NS = "{http://www.w3.org/2000/svg}"
EIGHT = [
    *(draughts.VARIANTS[name] for name in draughts.rules.variants.FEDERATION_VARIANTS),
    draughts.get_variant("no-forced-capture"),
]
IDS = [rules.name for rules in EIGHT]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def find(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [element for element in root.iter(f"{NS}{tag}") if cls in classes(element)]


class Grid:
    """Reads cell (column, row) positions off the square rectangles of a drawn board."""

    def __init__(self, root: ET.Element, size: int) -> None:
        cells = find(root, "rect", "square")
        assert len(cells) == size * size
        self.size = size
        self.left = min(float(cell.get("x", "")) for cell in cells)
        self.top = min(float(cell.get("y", "")) for cell in cells)
        self.step = float(cells[0].get("width", ""))

    def cell(self, x: float, y: float) -> tuple[int, int]:
        """(column, row) of the cell holding the point, column 0 at the left, row 0 at the top."""
        column, row = int((x - self.left) // self.step), int((y - self.top) // self.step)
        assert 0 <= column < self.size
        assert 0 <= row < self.size
        return column, row

    def coords(self, x: float, y: float, flipped: bool) -> tuple[int, int]:
        """Board coordinates (file, rank seen from White) of the point."""
        column, row = self.cell(x, y)
        if flipped:
            return self.size - 1 - column, row
        return column, self.size - 1 - row


def crowned(rules: draughts.Ruleset) -> draughts.Position:
    """The start position with every third piece crowned, Black to move."""
    start = draughts.Position.initial(rules)
    pieces = {square: Piece(piece.color, king=square % 3 == 0) for square, piece in start.pieces().items()}
    return draughts.Position.from_pieces(rules, pieces, BLACK)


def check_pieces(svg: str, position: draughts.Position, flipped: bool = False) -> None:
    """Every piece is drawn once, with its colour and kind, on the square geometry gives it."""
    rules = position.ruleset
    geometry = rules.geometry
    root = parse(svg)
    grid = Grid(root, geometry.size)
    drawn = find(root, "g", "piece")
    expected = position.pieces()
    assert len(drawn) == len(expected)
    assert len([g for g in drawn if "king" in classes(g)]) == sum(piece.king for piece in expected.values())
    seen = set()
    for group in drawn:
        square = int(group.get("data-square", ""))
        piece = expected[square]
        assert classes(group) == {"piece", str(piece.color), "king" if piece.king else "man"}
        assert group.get("data-name") == rules.square_name(square)
        assert group.get("data-piece") == f"{piece.color}-{'king' if piece.king else 'man'}"
        disc = group.find(f"{NS}circle")
        assert disc is not None
        where = grid.coords(float(disc.get("cx", "")), float(disc.get("cy", "")), flipped)
        assert where == geometry.coords[square]
        assert geometry.square_at(*where) == square
        crowns = find(group, "path", "crown")
        assert len(crowns) == (1 if piece.king else 0)
        seen.add(square)
    assert seen == set(expected)


@pytest.mark.parametrize("rules", EIGHT, ids=IDS)
def test_pieces_and_kings_on_their_squares(rules: draughts.Ruleset) -> None:
    position = crowned(rules)
    assert any(piece.king for piece in position.pieces().values())
    check_pieces(draughts.svg.board(position), position)
    check_pieces(draughts.svg.board(position, flipped=True), position, flipped=True)
    check_pieces(draughts.svg.board(position, coordinates=False, size=123), position)


@pytest.mark.parametrize("rules", EIGHT, ids=IDS)
def test_playing_squares_follow_the_geometry(rules: draughts.Ruleset) -> None:
    geometry = rules.geometry
    for flipped in (False, True):
        root = parse(draughts.svg.board(draughts.Position.initial(rules), flipped=flipped))
        grid = Grid(root, geometry.size)
        dark = find(root, "rect", "dark")
        assert len(dark) == geometry.squares
        for cell in find(root, "rect", "square"):
            x, y = grid.coords(float(cell.get("x", "")), float(cell.get("y", "")), flipped)
            playable = geometry.is_playable(x, y)
            assert ("dark" in classes(cell)) == playable
            if playable:
                assert int(cell.get("data-square", "")) == geometry.square_at(x, y)
            else:
                assert cell.get("data-square") is None
        # The near-left corner as White sees it (bottom-left, or top-right when flipped) is light on
        # the inverted Italian and Spanish boards and dark elsewhere.
        corner = next(
            cell
            for cell in find(root, "rect", "square")
            if grid.coords(float(cell.get("x", "")), float(cell.get("y", "")), flipped) == (0, 0)
        )
        assert ("dark" in classes(corner)) == rules.bottom_left_playable
        column, row = grid.cell(float(corner.get("x", "")), float(corner.get("y", "")))
        assert (column, row) == ((geometry.size - 1, 0) if flipped else (0, geometry.size - 1))


def test_inverted_boards() -> None:
    for name in ("italian", "spanish"):
        root = parse(draughts.svg.board(draughts.Position.initial(name)))
        grid = Grid(root, 8)
        bottom_left = [
            cell
            for cell in find(root, "rect", "square")
            if grid.cell(float(cell.get("x", "")), float(cell.get("y", ""))) == (0, 7)
        ]
        assert classes(bottom_left[0]) == {"square", "light"}


@pytest.mark.parametrize("rules", EIGHT, ids=IDS)
def test_square_numbers_per_numbering(rules: draughts.Ruleset) -> None:
    geometry = rules.geometry
    for flipped in (False, True):
        root = parse(draughts.svg.board(draughts.Position.initial(rules), square_numbers=True, flipped=flipped))
        grid = Grid(root, geometry.size)
        numbers = find(root, "text", "square-number")
        assert len(numbers) == geometry.squares
        for text in numbers:
            square = int(text.get("data-square", ""))
            assert text.text == str(square)
            where = grid.coords(float(text.get("x", "")), float(text.get("y", "")), flipped)
            assert where == geometry.coords[square]
    assert not find(parse(draughts.svg.board(draughts.Position.initial(rules))), "text", "square-number")


@pytest.mark.parametrize(
    ("name", "one", "last"),
    [
        ("american", (1, 0), (6, 7)),  # 1 = b8, 32 = g1
        ("italian", (0, 0), (7, 7)),  # 1 = a8, 32 = h1 (inverted board)
        ("spanish", (7, 7), (0, 0)),  # 1 = h1, 32 = a8 (inverted, numbered from White's near right)
        ("international", (1, 0), (8, 9)),  # 1 = b10, 50 = i1
    ],
)
def test_where_the_numbers_are(name: str, one: tuple[int, int], last: tuple[int, int]) -> None:
    rules = draughts.get_variant(name)
    root = parse(draughts.svg.board(draughts.Position.empty(rules), square_numbers=True))
    grid = Grid(root, rules.board_size)
    cells = {
        text.text: grid.cell(float(text.get("x", "")), float(text.get("y", "")))
        for text in find(root, "text", "square-number")
    }
    assert cells["1"] == one
    assert cells[str(rules.geometry.squares)] == last


def test_coordinates() -> None:
    root = parse(draughts.svg.board(draughts.Position.initial("international")))
    files = [text.text or "" for text in find(root, "text", "file")]
    ranks = [text.text or "" for text in find(root, "text", "rank")]
    assert sorted(set(files)) == list("abcdefghij")
    assert len(files) == 20
    assert sorted(set(ranks), key=int) == [str(n) for n in range(1, 11)]
    assert len(ranks) == 20
    grid = Grid(root, 10)
    a_labels = [text for text in find(root, "text", "file") if text.text == "a"]
    assert all(grid.left <= float(text.get("x", "")) < grid.left + grid.step for text in a_labels)
    flipped = parse(draughts.svg.board(draughts.Position.initial("international"), flipped=True))
    a_flipped = [text for text in find(flipped, "text", "file") if text.text == "a"]
    assert all(float(text.get("x", "")) > grid.left + 9 * grid.step for text in a_flipped)
    plain = parse(draughts.svg.board(draughts.Position.initial("american"), coordinates=False))
    assert not find(plain, "text", "coordinate")
    assert Grid(plain, 8).left == 0


def test_root_element_and_size() -> None:
    svg = draughts.svg.board(draughts.Position.initial("russian"), size=240)
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    root = parse(svg)
    assert root.get("width") == "240"
    assert root.get("viewBox") == "0 0 240 240"
    assert root.get("data-variant") == "russian"
    assert "href" not in svg
    assert "<script" not in svg
    assert "<image" not in svg
    title = root.find(f"{NS}title")
    assert title is not None
    assert draughts.Position.initial("russian").fen() in (title.text or "")


def test_last_move_arrows_highlight() -> None:
    position = draughts.Position.from_fen("russian", "W:WKd2:Bc5,e5,c3,e3")
    move = max(position.legal_moves(), key=lambda m: len(m.path))
    svg = draughts.svg.board(position, last_move=move, arrows=[(22, 18), ("a1", "b2"), move], highlight=["c5", 11])
    root = parse(svg)
    assert {int(rect.get("data-square", "")) for rect in find(root, "rect", "last-move")} == {move.start, move.end}
    assert len(find(root, "polyline", "last-move-path")) == (1 if len(set(move.path)) > 2 else 0)
    arrows = find(root, "g", "arrow")
    assert [(a.get("data-from"), a.get("data-to")) for a in arrows] == [
        ("22", "18"),
        ("29", "25"),
        (str(move.start), str(move.end)),
    ]
    grid = Grid(root, 8)
    head = arrows[0].find(f"{NS}polygon")
    assert head is not None
    tip = head.get("points", "").split()[0].split(",")
    assert grid.coords(float(tip[0]), float(tip[1]), False) == position.ruleset.geometry.coords[18]
    highlighted = {int(rect.get("data-square", "")) for rect in find(root, "rect", "highlight")}
    assert highlighted == {position.ruleset.parse_square("c5"), 11}


def test_board_input_shows_its_last_move() -> None:
    board = draughts.Board("american")
    board.push_text("11-15")
    root = parse(draughts.svg.board(board))
    assert {rect.get("data-square") for rect in find(root, "rect", "last-move")} == {"11", "15"}
    check_pieces(draughts.svg.board(board), board.position)
    override = parse(draughts.svg.board(board, last_move=(22, 18)))
    assert {rect.get("data-square") for rect in find(override, "rect", "last-move")} == {"22", "18"}
    assert not find(parse(draughts.svg.board(draughts.Board("american"))), "rect", "last-move")
    assert not find(parse(draughts.svg.board(board.position)), "rect", "last-move")


def test_repr_svg() -> None:
    board = draughts.Board("italian")
    board.push(board.legal_moves[0])
    assert board._repr_svg_() == draughts.svg.board(board)
    assert board.position._repr_svg_() == draughts.svg.board(board.position)
    check_pieces(board.position._repr_svg_(), board.position)


def test_colors_and_escaping() -> None:
    rules = attrs.evolve(draughts.get_variant("american"), name="a<b&c", title='Odd "rules" <here>')
    position = draughts.Position.from_pieces(rules, {22: Piece(WHITE), 9: Piece(BLACK, king=True)})
    svg = draughts.svg.board(position, colors={"dark": "#123456", "crown": "red"})
    root = parse(svg)
    assert root.get("data-variant") == "a<b&c"
    assert all(rect.get("fill") == "#123456" for rect in find(root, "rect", "dark"))
    crown = find(root, "path", "crown")
    assert len(crown) == 1
    assert crown[0].get("fill") == "red"
    with pytest.raises(draughts.DraughtsError, match="unknown colors"):
        draughts.svg.board(position, colors={"darkk": "red"})


def test_bad_arguments() -> None:
    position = draughts.Position.initial("american")
    with pytest.raises(draughts.InvalidSquareError):
        draughts.svg.board(position, highlight=[33])
    with pytest.raises(draughts.DraughtsError, match="arrow"):
        draughts.svg.board(position, arrows=[(1, 2, 3)])  # type: ignore[list-item]
    with pytest.raises(draughts.DraughtsError, match="size"):
        draughts.svg.board(position, size=0)
    with pytest.raises(draughts.DraughtsError, match="neither"):
        draughts.svg.board("W:W22:B18")  # type: ignore[arg-type]


def test_square_numbers_read_over_white_pieces() -> None:
    """A light number with a dark halo drawn above the pieces: legible on a white man too."""
    root = parse(draughts.svg.board(draughts.Position.initial("international"), square_numbers=True))
    numbers = find(root, "text", "square-number")
    assert {text.get("paint-order") for text in numbers} == {"stroke"}
    assert all(text.get("stroke") != text.get("fill") for text in numbers)
    children = list(root)
    kinds = [child.get("class") for child in children]
    assert kinds.index("square-numbers") > kinds.index("pieces")
