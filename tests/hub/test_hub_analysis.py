"""HubEngine.analyse: an external engine's info lines read as they stream, into typed scores and moves."""

from __future__ import annotations

import sys
import textwrap

import pytest

from draughts import Board, Position
from draughts.engine import InvalidLimitError, Limit
from draughts.engine.score import Score
from draughts.hub import HubEngine
from draughts.hub.info import HubInfo, parse_info, score_of_text

SERVER = [sys.executable, "-m", "draughts", "hub"]

MULTIPV = textwrap.dedent(
    """
    import sys
    def say(*lines):
        print(*lines, sep="\\n", flush=True)
    for line in sys.stdin:
        words = line.split()
        command = words[0] if words else ""
        if command == "hub":
            say("id name=multi", "param name=multipv value=1 type=int min=1 max=10", "wait")
        elif command == "set-param":
            say("info string " + line.strip().replace("=", ":"))
        elif command == "init":
            say("ready")
        elif command == "go":
            say(
                'info depth=1 multipv=1 score=0.10 nodes=20 pv="31-27"',
                'info depth=2 multipv=1 score=0.25 nodes=300 time=0.01 nps=0.03 pv="32-28 18-23"',
                'info depth=2 multipv=2 score=0.05 nodes=300 pv="33-28 17-21 38-33"',
                'info depth=2 multipv=3 score=-99.90 nodes=300 pv="34-30 20-25 99-98"',
                "info depth=2 multipv=4 score=junk",
                "done move=32-28 ponder=18-23",
            )
        elif command == "quit":
            break
    """
)


def test_multipv_lines_stream_into_typed_values() -> None:
    seen: list[HubInfo] = []
    with HubEngine([sys.executable, "-c", MULTIPV], timeout=20) as client:
        client.init("international")
        lines = client.analyse(Board("international"), Limit(depth=2), multipv=3, on_info=seen.append)
    assert "value:3" in seen[0].args  # the engine declared multipv: it was set before the search
    seen = seen[1:]
    assert [info.depth for info in seen] == [1, 2, 2, 2, 2]
    assert seen[-1].score is None  # junk is not a score: kept as None, the line still read
    assert [line.score for line in lines] == [Score.cp(25), Score.cp(5), Score.loss(9, exact=False)]
    assert [line.multipv for line in lines] == [1, 2, 3]
    assert len({line.move for line in lines}) == 3
    start = Position.initial("international")
    assert [len(line.pv) for line in lines] == [2, 3, 2]  # the third PV stops before "99-98"
    assert lines[0].pv[0] in start.legal_moves()
    assert lines[0].nodes == 300
    assert seen[1].time == 0.01


def test_own_server_analysis_scores_a_win_in_plies() -> None:
    position = Position.from_fen("russian", "W:Wd4,h4,c3,b2:Bf6,h6")  # a win in 5 plies
    with HubEngine(SERVER, timeout=30) as client:
        client.init("russian")
        lines = client.analyse(position, Limit(depth=4))
        assert len(lines) == 1
        assert lines[0].score == Score.win(5)
        assert lines[0].depth >= 1
        assert len(lines[0].pv) == 5
        quiet = client.analyse(Board("russian"), Limit(depth=3))
        assert quiet[0].score.plies is None
        with pytest.raises(InvalidLimitError, match="multipv 0"):
            client.analyse(Board("russian"), multipv=0)


@pytest.mark.parametrize(
    ("text", "score"),
    [
        ("0.12", Score.cp(12)),
        ("-1", Score.cp(-100)),
        ("+0.005", Score.cp(0)),
        ("99.94", Score.win(5)),
        ("-99.99", Score.loss(1)),
        ("89.31", Score.cp(8931)),
        ("1e5", None),
        ("", None),
        ("²", None),
    ],
)
def test_score_texts(text: str, score: Score | None) -> None:
    assert score_of_text(text) == score


def test_lenient_info_fields() -> None:
    info = parse_info(Position.initial("russian"), {"depth": "x", "nodes": "-3", "multipv": "0", "pv": "c3-d4 zz"})
    assert (info.depth, info.nodes, info.multipv, info.score) == (None, None, 1, None)
    assert len(info.pv) == 1


def test_an_external_engine_annotates_a_game() -> None:
    from draughts import pdn
    from draughts.engine.analysis import annotate

    game = pdn.parse_game("1. c3-d4 f6-g5 2. b2-c3 g7-f6 3. e3-f4 *", "russian")  # 3. e3-f4 gives two men
    with HubEngine(SERVER, timeout=30) as client:
        client.init("russian")
        marked = annotate(game, client, Limit(depth=4))
    nodes = list(marked.mainline())
    assert nodes[4].nags == ["??"]
    assert all(node.commands.eval is not None for node in nodes)
