"""``draughts openings``: the ballots of a variant, the openings of one, text and JSON, and errors."""

from __future__ import annotations

import io
import json

import pytest

from draughts.cli import main


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(["openings", *argv], out=out)
    return status, out.getvalue()


def test_without_a_name_it_lists_the_variants_ballots_with_their_counts() -> None:
    status, text = _run("english")
    assert status == 0
    rows = [line.split()[:2] for line in text.splitlines()]
    assert rows == [
        ["acf-3-move", "156"],
        ["acf-3-move-144", "144"],
        ["acf-3-move-174", "174"],
        ["2-move", "47"],
        ["11-man", "2400"],
    ]
    status, text = _run("international")
    assert (status, text) == (0, "no ballots for international\n")


def test_json_lists_each_ballot_with_its_source_and_licence() -> None:
    status, text = _run("russian", "--format", "json")
    data = json.loads(text)
    assert status == 0
    assert [(b["name"], b["count"]) for b in data] == [("fmjd-64", 736), ("idf-150", 150)]
    assert all("lidraughts" in b["source"] and "facts" in b["licence"] for b in data)


def test_a_ballot_prints_its_openings_one_a_line() -> None:
    status, text = _run("american", "acf-3-move")
    lines = text.splitlines()
    assert status == 0
    assert lines[0] == "ACF three-move deck (156 openings, since 2003) (american, 156 openings)"
    assert lines[1].startswith("source: ACF three-move deck")
    assert lines[2] == "1  9-13 21-17 5-9"
    assert "5  9-13 22-18 6-9  (Dreaded Edinburgh)" in lines
    assert len(lines) == 2 + 156
    _, text = _run("russian", "fmjd-64")
    assert "11-IV  (no moves)  from W:Wa5" in text
    assert "set up a1-a5 a7-h4" in text


def test_a_ballot_in_json_gives_every_openings_fen() -> None:
    status, text = _run("brazilian", "idf-150", "--format", "json")
    data = json.loads(text)
    assert (status, data["count"], len(data["openings"])) == (0, 150, 150)
    first = data["openings"][0]
    assert first["name"] == "1-I"
    assert first["moves"] == ["c3-d4", "b6-a5", "d4-c5"]
    assert first["fen"].startswith("B:W")  # three plies: Black to move


def test_an_unknown_ballot_or_variant_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = _run("russian", "acf-3-move")
    assert status == 2
    assert capsys.readouterr().err == (
        "draughts openings: error: no ballot 'acf-3-move' for russian; its ballots: fmjd-64, idf-150\n"
    )
    assert _run("no-such-variant")[0] == 2


def test_the_command_and_the_web_board_describe_a_ballot_alike() -> None:
    """One description of a ballot (``Ballot.summary``) and of an opening (``Opening.to_dict``) serves
    both: the web's listing is the command's, its openings the command's without the FEN each leads to."""
    from draughts import get_variant
    from draughts.web.openings import ballots_json

    _, text = _run("american", "--format", "json")
    assert ballots_json(get_variant("american"), None)["ballots"] == json.loads(text)
    _, text = _run("russian", "fmjd-64", "--format", "json")
    command = json.loads(text)
    web = ballots_json(get_variant("russian"), "fmjd-64")
    assert {key: value for key, value in web.items() if key != "openings"} == {
        key: value for key, value in command.items() if key != "openings"
    }
    assert web["openings"] == [{key: value for key, value in o.items() if key != "fen"} for o in command["openings"]]
    assert all(len(o) == 6 and o["fen"].startswith(("W:", "B:")) for o in command["openings"])
