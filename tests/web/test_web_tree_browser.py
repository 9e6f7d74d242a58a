"""The board page's move tree and analysis in a real headless Chromium (``pytest -m browser``, issue 27 §6):
a PDN with a side line loads as a clickable tree, a move played inside the side line adds a new side line,
the exported PDN holds all three lines; the analyse button shows the engine's three best lines."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

import draughts
from draughts import pdn
from draughts.web.app import create_app
from draughts.web.server import running
from test_web_browser import Board

pytestmark = pytest.mark.browser

STUDY = (
    '[Event "Tree test"] [GameType "20"] 1. 32-28 {main} (1. 33-29 {side} 19-23 2. 34-30) 1... 19-23 2. 28x19 14x23 *'
)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    app = create_app(default_variant="international", max_engine_time=5.0)
    with running(app) as url:
        yield url.rstrip("/")


@pytest.fixture
def page(browser: WebDriver, base_url: str) -> Iterator[Board]:
    browser.set_window_size(1280, 1000)
    yield Board(browser, base_url)
    errors = [  # a 4xx answer the page shows as a message is logged too, and expected
        entry
        for entry in browser.get_log("browser")
        if entry["level"] == "SEVERE" and "the server responded with a status of 4" not in entry["message"]
    ]
    assert not errors, errors


def tree_nodes(page: Board) -> list[dict[str, object]]:
    """The tree's move buttons, in page order: node id, text, whether current, how deeply nested."""
    script = (
        "return [...document.querySelectorAll('#tree button.node')].map((b) => ({"
        "id: Number(b.dataset.node), text: b.textContent, current: b.classList.contains('current'),"
        "depth: (() => { let n = 0; for (let e = b.parentElement; e; e = e.parentElement)"
        " if (e.classList.contains('variation')) n += 1; return n; })()}))"
    )
    nodes: list[dict[str, object]] = page.driver.execute_script(script)
    return nodes


def click_node(page: Board, text: str, depth: int) -> None:
    """Clicks the move button showing ``text`` at nesting ``depth`` (0: the main line)."""
    found = [node for node in tree_nodes(page) if node["text"] == text and node["depth"] == depth]
    assert len(found) == 1, (text, depth, tree_nodes(page))
    page.find(f'#tree button.node[data-node="{found[0]["id"]}"]').click()


def go_to(page: Board, text: str, depth: int, *moves: str) -> draughts.Board:
    """Clicks a move of the tree; the board shows the position after ``moves`` (a library board of them)."""
    click_node(page, text, depth)
    board = draughts.Board("international")
    for move in moves:
        board.push_text(move)
    page.wait(lambda d: page.fen() == board.fen(), message=f"{moves} not shown after a click on {text}")
    return board


def current_node(page: Board) -> dict[str, object] | None:
    current = [node for node in tree_nodes(page) if node["current"]]
    return current[0] if current else None


def load_study(page: Board) -> None:
    page.open(variant="international", time="0.5")
    page.find("#pdn-text").send_keys(STUDY)
    page.button("import-pdn")
    page.wait(lambda d: len(tree_nodes(page)) == 7, message="the study's tree not shown")


def test_a_side_line_is_clicked_into_a_new_one_played_and_all_three_exported(page: Board, shots: Path) -> None:
    load_study(page)
    texts = [(node["text"], node["depth"]) for node in tree_nodes(page)]
    assert texts == [
        ("1.\u00a032-28", 0),
        ("1.\u00a033-29", 1),
        ("1…\u00a019-23", 1),
        ("2.\u00a034-30", 1),
        ("1…\u00a019-23", 0),
        ("2.\u00a028x19", 0),
        ("14x23", 0),
    ]
    assert current_node(page) == {"id": 4, "text": "14x23", "current": True, "depth": 0}  # the main line's end
    assert "1 side line" in page.find("#tree-count").text

    # Into the side line: its position on the board.
    go_to(page, "1…\u00a019-23", 1, "33-29", "19-23")
    assert current_node(page) == {"id": 6, "text": "1…\u00a019-23", "current": True, "depth": 1}

    # Playing the move the tree has goes into it; another move adds a side line under the node.
    start = go_to(page, "1.\u00a033-29", 1, "33-29")
    page.play((19, 23), start)
    page.wait(lambda d: (current_node(page) or {}).get("id") == 6, message="19-23 not gone into")
    assert len(tree_nodes(page)) == 7
    page.play((39, 33), start)
    page.wait(lambda d: len(tree_nodes(page)) == 8, message="the new side line not in the tree")
    new = current_node(page)
    assert new is not None
    assert new["text"] == "2.\u00a039-33"
    assert new["depth"] == 2  # a side line of the side line
    assert "2 side lines" in page.find("#tree-count").text
    page.driver.save_screenshot(str(shots / "web-tree.png"))

    # A reload keeps the side lines (the tree is kept for the tab), and the place in them.
    page.driver.refresh()
    page.wait(lambda d: len(tree_nodes(page)) == 8, message="the tree lost on a reload")
    assert (current_node(page) or {}).get("text") == "2.\u00a039-33"

    page.button("export-tree")
    page.wait(lambda d: "39-33" in (page.find("#pdn-text").get_attribute("value") or ""), message="no export")
    exported = page.find("#pdn-text").get_attribute("value") or ""
    assert page.find("#download-pdn").is_displayed()
    root = pdn.parse_game(exported)
    assert [node.san() for node in root.variations] == ["32-28", "33-29"]  # the main line, the side line
    assert [node.san() for node in root.variations[0].variations[0].variations] == ["28x19"]
    reply = root.variations[1].variations[0]
    assert reply.san() == "19-23"
    assert [node.san() for node in reply.variations] == ["34-30", "39-33"]  # the side line, the new one
    assert root.variations[0].comment == "main"
    assert root.variations[1].comment == "side"
    assert pdn.parse_game(exported).headers["Event"] == "Tree test"  # the loaded game's tags kept


def test_a_node_of_the_main_line_is_a_step_and_the_tree_survives_it(page: Board) -> None:
    load_study(page)
    board = go_to(page, "1.\u00a032-28", 0, "32-28")
    assert page.history() == ["32-28", "19-23", "28x19", "14x23"]  # a step back: the line stays to redo
    page.button("redo")
    board.push_text("19-23")
    page.wait(lambda d: page.fen() == board.fen())
    assert (current_node(page) or {}).get("text") == "1…\u00a019-23"
    assert len(tree_nodes(page)) == 7


def test_analyse_shows_three_lines_for_the_shown_position(page: Board) -> None:
    load_study(page)
    board = go_to(page, "1.\u00a033-29", 1, "33-29")
    page.button("analyse")
    page.wait(lambda d: len(page.finds("#analysis-lines li")) == 3, timeout=20, message="no analysis")
    lines = page.finds("#analysis-lines li")
    moves = [line.get_attribute("data-move") for line in lines]
    assert len(set(moves)) == 3
    assert all(board.parse_text(move or "") in board.legal_moves for move in moves)
    assert "Black to move" in page.find("#analysis-info").text
    scores = [line.find_element("css selector", ".score").text for line in lines]
    assert all(score.replace("-", "").replace(".", "").isdigit() or score.startswith("#") for score in scores)
    # The best line's first move plays it: a new side line in the tree, and the old lines go.
    best = moves[0] or ""
    page.find("#analysis-lines li button.analysis-move").click()
    board.push_text(best)
    page.wait(lambda d: page.fen() == board.fen(), message="the analysis move not played")
    page.wait(lambda d: not page.finds("#analysis-lines li"))
    assert (current_node(page) or {}).get("text", "").endswith(best)


def test_the_tree_on_a_phone(page: Board, shots: Path) -> None:
    page.driver.set_window_size(390, 844)
    load_study(page)
    width = page.driver.execute_script("return window.innerWidth")
    assert page.driver.execute_script("return document.documentElement.scrollWidth") <= width
    box = page.find("#tree").rect
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= width
    page.find("#tree-section").location_once_scrolled_into_view  # noqa: B018 (scrolls the tree into view)
    page.driver.save_screenshot(str(shots / "web-tree-phone.png"))


def test_a_bad_pdn_says_why_where_the_user_looks(page: Board) -> None:
    page.open(variant="international")
    page.find("#pdn-text").send_keys('[GameType "20"] 1. 32-28 99-88 *')
    page.button("import-pdn")
    page.wait(lambda d: page.find("#toast").is_displayed())
    assert "99-88" in page.find("#message").text
    assert len(tree_nodes(page)) == 0
