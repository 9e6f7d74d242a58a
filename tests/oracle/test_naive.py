"""The naive oracle (tests/naive.py) held to published numbers and hand-worked rule cases.

Nothing here runs the library's move generator: the oracle has to earn its authority on its own
before the library is compared with it (``test_oracle.py``, ``test_oracle_family.py``).

Published counts (tests/data/perft-family.json, tests/data/perft.json) are checked from the start
up to a leaf budget: the cheap depths in the default run, deeper ones behind ``slow``. Depths past
the slow budget (millions of leaves for a Python mailbox generator) are left out, not skipped. A
few deep counts are kept on purpose because a family rule first changes the count there:
Thai d9 (flying kings landing directly behind), Turkish d7 and d8 (kings, and kish's way of
counting: tests/data/perft-turkish.json, all three conventions in one walk), Pool and Russian d8
(crowning during a capture; keep/drop divergence), Frisian d7 (its first kings).

Conventions: "duplicates KEPT" counts every restriction-9 capture path (``paths=True``);
"DROPPED" counts one move per identity (start, end, captured set). The Turkish counts of the kish
crate count every *sequence of landing squares* (``landings=True``): a king that may stop on
several squares before going straight on over the next piece counts once per square. The three
conventions agree for Turkish through depth 6; at depth 7 kish's 10,782,382 needs the third one
(restriction-9 paths give 10,782,308). This was established by comparing the oracle with kish
1.1.6 on every one of the 91,498 distinct positions at depth 6 (all agree under ``landings``), and
again by perft divide against kish 1.1.7: the 20 positions of tests/data/perft-turkish.json.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import naive
from conftest import load_json
from draughts import BLACK, WHITE, Ruleset
from family import (
    BREAKTHROUGH,
    CANADIAN,
    CASES,
    FRISIAN,
    FRYSK,
    PUBLISHED_RULES,
    TURKISH,
    Case,
    expected,
    parse_move,
    published_series,
)

DEFAULT_LEAVES = 12_000
"""Largest count checked in the default run (a few tenths of a second each)."""
SLOW_LEAVES = 600_000
"""Largest count checked under ``slow``, apart from :data:`DEEP`."""
DEEP = {("thai", 9), ("pool", 8), ("russian", 8), ("frisian", 7)}
"""Deeper counts checked under ``slow`` because a rule first shows there (Turkish d7 and d8, where
kish's way of counting first shows, are checked in all three conventions at once below)."""


def _cases(slow: bool) -> list[Any]:
    """One test per published series: its cheap depths, or (``slow``) every depth up to the
    deepest reachable one (counted in one walk). Under ``slow`` the peer computations are left to
    the default run where a published series of the same position exists."""
    out = []
    series = list(published_series())
    published = {(label, fen) for label, _, fen, convention, _ in series if "py" not in convention}
    paths = {(label, fen): counts for label, _, fen, convention, counts in series if convention.startswith("paths")}
    seen = set()
    for label, rules, fen, convention, counts in series:
        if slow:
            if ("py" in convention and (label, fen) in published) or (label, fen, convention[:5]) in seen:
                continue  # a peer's computation of a published series, or a second peer
            seen.add((label, fen, convention[:5]))
            reachable = [d for d, count in counts.items() if count <= SLOW_LEAVES or (label, d) in DEEP]
            if label not in PUBLISHED_RULES:  # the seven variants of perft.json
                reachable = [d for d in reachable if (label, d) in DEEP]  # test_oracle.py covers the rest
            if convention.startswith("identities") and all(
                paths.get((label, fen), {}).get(d) == counts[d] for d in reachable
            ):
                continue  # no duplicate capture within reach: the paths series checks the same counts
            if not reachable or max(counts[d] for d in reachable) <= DEFAULT_LEAVES:
                continue
            depths = [d for d in counts if d <= max(reachable)]
        else:
            depths = [depth for depth, count in counts.items() if count <= DEFAULT_LEAVES]
        if depths:
            wanted = {depth: counts[depth] for depth in sorted(depths)}
            name = f"{label}-{fen[:12]}-{convention}-d{max(depths)}"
            out.append(pytest.param(rules, fen, convention, wanted, id=name))
    return out


def _start(rules: Ruleset, fen: str) -> naive.State:
    if fen.startswith("start"):
        return naive.initial(rules)
    return naive.from_fen(rules, fen.split(" (")[0])


def _perft_all(state: naive.State, depths: list[int], convention: str) -> dict[int, int]:
    mode = convention.split()[0]
    counts = naive.perft_counts(state, max(depths), paths=mode == "paths", landings=mode == "landings")
    return {depth: counts[depth - 1] for depth in depths}


@pytest.mark.parametrize(("rules", "fen", "convention", "counts"), _cases(slow=False))
def test_oracle_reproduces_published_perft(rules: Ruleset, fen: str, convention: str, counts: dict[int, int]) -> None:
    assert _perft_all(_start(rules, fen), sorted(counts), convention) == counts


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "fen", "convention", "counts"), _cases(slow=True))
def test_oracle_reproduces_published_perft_deeper(
    rules: Ruleset, fen: str, convention: str, counts: dict[int, int]
) -> None:
    assert _perft_all(_start(rules, fen), sorted(counts), convention) == counts


def test_every_published_series_is_checked() -> None:
    """No series of the data files is silently left out (each has at least its first depths checked)."""
    labels = {case.values[0].name for case in _cases(slow=False)}
    assert {rules.name for rules in PUBLISHED_RULES.values()} <= labels
    seven = {"american" if key == "english" else key for key in load_json("perft.json")["variants"]}
    assert seven - {"no_forced_capture"} <= labels


# --- hand-worked rule cases ---


def play_case(case: Case) -> naive.State:
    """The case's position after its ``played`` moves (each must be legal by the oracle)."""
    state = naive.from_fen(case.rules, case.fen)
    for text in case.played:
        path, captured = parse_move(case.rules, text)
        found = [m for m in naive.moves(state, paths=True) if m.path == path and frozenset(m.captured) == captured]
        assert len(found) == 1, f"{text} is not one legal move in {case.name}"
        state = naive.play(state, found[0])
    return state


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_oracle_on_hand_worked_cases(case: Case) -> None:
    state = play_case(case)
    got = sorted((move.path, frozenset(move.captured)) for move in naive.moves(state, paths=True))
    assert got == expected(case), case.why
    assert naive.winner(state) == case.winner


def test_kish_ten_piece_king_capture() -> None:
    """kish 1.1.6 test king_10_capture_path_no_180_turns: nine actions, each taking ten pieces."""
    state = naive.from_fen(TURKISH, "W:WKc2,g2,h4:BKc1,e2,c3,b4,Kd4,a5,e5,Kb6,Kd6,h6,Kc7,h7")
    moves = naive.moves(state)
    assert len(moves) == 9
    assert {len(move.captured) for move in moves} == {10}
    for move in naive.moves(state, paths=True):
        steps = zip(move.path, move.path[1:], strict=False)
        directions = [_direction(TURKISH, a, b) for a, b in steps]
        assert all(d != (-e[0], -e[1]) for d, e in zip(directions[1:], directions, strict=False)), move.path


def _direction(rules: Ruleset, a: int, b: int) -> tuple[int, int]:
    (ax, ay), (bx, by) = rules.geometry.coords[a], rules.geometry.coords[b]
    return (bx > ax) - (bx < ax), (by > ay) - (by < ay)


_TURKISH_DEEP = load_json("perft-turkish.json")


@pytest.mark.parametrize("entry", _TURKISH_DEEP["divide"]["positions"], ids=lambda e: e["fen"].split(":")[1][-12:])
def test_oracle_at_the_positions_where_kish_counts_more(entry: dict[str, Any]) -> None:
    """The positions where kish's perft 7 departs (tests/data/perft-turkish.json): the oracle's
    restriction-9 paths are the recorded moves, and counting every landing square it lists as many
    actions as kish does, so the whole difference is that way of counting."""
    state = naive.from_fen(TURKISH, entry["fen"])
    got = sorted(
        "x".join(map(TURKISH.square_name, move.path)) + " " + " ".join(map(TURKISH.square_name, move.captured))
        for move in naive.moves(state, paths=True)
    )
    assert got == entry["legal"]
    assert len(naive.moves(state)) == len(got)
    assert len(naive.moves(state, landings=True)) == entry["kish_actions"]


@pytest.mark.slow
def test_oracle_counts_turkish_perft_8_in_the_three_conventions() -> None:
    """One walk of the Turkish tree to depth 8 (about two minutes): one move per identity and per
    restriction-9 path give polydraughts' counts, every sequence of landing squares gives kish's
    published ones, at every depth."""
    counts = naive.perft_conventions(naive.initial(TURKISH), 8)
    for convention in ("identities", "paths"):
        assert counts[convention] == [_TURKISH_DEEP["counts"][convention][str(depth)] for depth in range(1, 9)]
    assert counts["landings"] == [_TURKISH_DEEP["kish"]["counts"][str(depth)] for depth in range(1, 9)]
    assert counts["paths"][6:] == [10_782_308, 123_285_642]


def test_perft_conventions_agrees_with_perft_counts() -> None:
    state = naive.from_fen(TURKISH, "W:WKa5,c2:Bb5,e5,b7,g6,Kh8")
    counts = naive.perft_conventions(state, 3)
    assert counts["identities"] == naive.perft_counts(state, 3)
    assert counts["paths"] == naive.perft_counts(state, 3, paths=True)
    assert counts["landings"] == naive.perft_counts(state, 3, landings=True)
    assert counts["landings"][0] > counts["paths"][0]


def test_counting_conventions_for_a_king_going_straight_on() -> None:
    """The king can stop on d5, e5 or f5 and go on over g5: one path, one identity, three landings."""
    state = naive.from_fen(TURKISH, "W:WKa5:Bc5,g5")
    assert [move.path for move in naive.moves(state, paths=True)] == [
        tuple(map(TURKISH.parse_square, ("a5", "d5", "h5")))
    ]
    assert len(naive.moves(state)) == 1
    landings = naive.moves(state, landings=True)
    assert sorted(TURKISH.square_name(move.landings[0]) for move in landings) == ["d5", "e5", "f5"]


# --- the oracle's own bookkeeping ---


def test_start_positions_from_the_fields() -> None:
    squares = TURKISH.geometry
    white = {squares.square_at(x, y) for x in range(8) for y in (1, 2)}
    black = {squares.square_at(x, y) for x in range(8) for y in (5, 6)}
    pieces = naive.initial(TURKISH).pieces()
    assert {s for s, (c, _) in pieces.items() if c is WHITE} == white == set(range(9, 25))
    assert {s for s, (c, _) in pieces.items() if c is BLACK} == black == set(range(41, 57))
    assert set(naive.initial(FRYSK).pieces()) == {1, 2, 3, 4, 5, 46, 47, 48, 49, 50}
    assert len(naive.initial(CANADIAN).pieces()) == 60


def _after(rules: Ruleset, fen: str, played: tuple[str, ...]) -> naive.State:
    return play_case(Case("run", rules, fen, (), played))


def test_king_runs_count_the_same_king() -> None:
    state = _after(FRISIAN, "W:WKd2,a3:BKi9", ("d2-e3", "i9-j10", "e3-d2"))
    assert state.run(WHITE) == (FRISIAN.parse_square("d2"), 2)
    assert state.run(BLACK) == (None, 0), "a side without men is exempt"


def test_king_runs_restart_with_another_king_and_end_with_a_man_move() -> None:
    fen = "W:WKd2,Kf2,a3:BKi9,b8"  # Black has a man: its king runs count too
    state = _after(FRISIAN, fen, ("d2-e3", "i9-j10", "e3-d2", "j10-i9", "f2-g3"))
    assert state.run(WHITE) == (FRISIAN.parse_square("g3"), 1)
    state = _after(FRISIAN, fen, ("d2-e3", "i9-j10", "a3-b4"))
    assert state.run(WHITE) == (None, 0)
    assert state.run(BLACK) == (FRISIAN.parse_square("j10"), 1), "Black has a man: its king run counts"


def test_king_runs_end_when_the_king_is_taken() -> None:
    taken = _after(FRISIAN, "W:WKe3,a3:BKi9,j8", ("e3-f4", "i9-h8", "f4-g5", "h8-g7"))
    assert taken.run(WHITE) == (FRISIAN.parse_square("g5"), 2)
    assert taken.run(BLACK) == (FRISIAN.parse_square("g7"), 2)
    (capture,) = naive.moves(taken)
    assert capture.captured == (FRISIAN.parse_square("g7"),)
    after = naive.play(taken, capture)
    assert after.run(BLACK) == (None, 0), "the tracked king was captured"
    assert after.run(WHITE) == (None, 0), "a capture ends the capturing side's run"


def test_states_differing_only_in_runs_differ() -> None:
    start = naive.from_fen(FRISIAN, "W:WKd2,a3:BKi9")
    back = _after(FRISIAN, "W:WKd2,a3:BKi9", ("d2-e3", "i9-j10", "e3-d2", "j10-i9"))
    assert back.board == start.board
    assert back.turn is start.turn
    assert back != start
    one = _after(FRISIAN, "W:WKd2,a3:BKi9", ("d2-e3", "i9-j10", "e3-f4", "j10-i9"))
    other = _after(FRISIAN, "W:WKd2,a3:BKi9", ("d2-g5", "i9-j10", "g5-f4", "j10-i9"))
    assert one == other
    assert hash(one) == hash(other)


def test_no_runs_without_the_limit() -> None:
    rules = attrs.evolve(FRISIAN, king_move_limit=None)
    state = _after(rules, "W:WKd2,a3:BKi9", ("d2-e3", "i9-j10", "e3-d2"))
    assert state.runs == naive.NO_RUNS


def test_crowning_wins_stops_generation_everywhere() -> None:
    state = naive.from_fen(BREAKTHROUGH, "B:WK1,31:B20")
    assert naive.moves(state, paths=True) == []
    assert naive.winner(state) is WHITE
    assert naive.perft(state, 3) == 0
