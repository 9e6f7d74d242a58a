"""Whole start trees against the naive oracle, and a divide that walks to where two counts part.

A perft count compares one number per depth, so a difference deep in the tree (kish's Turkish
perft 7 is 74 above ours) says nothing of where it comes from, and the published counts stop
where the tests stop. Two checks close that gap, with tests/naive.py as the independent side:

* :func:`tree` lists every distinct position of a start tree to a ply, and each is compared with
  the oracle move by move (identities, restriction-9 paths with their captures and promotions,
  and counting). Agreement on every position to ply ``n`` means perft agrees to depth ``n + 1``
  in every convention, whatever a published table reaches.
* :func:`divide_differences` is perft divide against the oracle: it follows only the moves whose
  counts differ, down to the positions whose move counts differ. Run against the oracle's third
  convention (every sequence of landing squares, which is how kish counts) from the Turkish start
  it finds exactly the positions of tests/data/perft-turkish.json; it is how they were found.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable

import pytest

import draughts
import naive
from conftest import load_json
from draughts import BLACK, WHITE, Position

TURKISH_DATA = load_json("perft-turkish.json")


def key(position: Position) -> Hashable:
    """What the oracle's state holds: board, side to move, king-move runs."""
    runs = tuple(position.king_moves(color) for color in (WHITE, BLACK))
    return tuple(sorted(naive.board_of(position).items())), position.turn, runs


def state_key(state: naive.State) -> Hashable:
    runs = tuple(state.run(color) for color in (WHITE, BLACK))
    return (
        tuple(sorted(state.board.items())),
        state.turn,
        tuple(None if square is None else (square, count) for square, count in runs),
    )


def tree(start: Position, plies: int) -> list[list[Position]]:
    """The distinct positions at each ply ``0..plies`` of the tree below ``start``."""
    levels = [[start]]
    for _ in range(plies):
        seen: dict[Hashable, Position] = {}
        for position in levels[-1]:
            for move in position.legal_moves:
                child = position.play(move)
                seen.setdefault(key(child), child)
        levels.append(list(seen.values()))
    return levels


def oracle_state(position: Position) -> naive.State:
    runs = [naive.NO_RUN, naive.NO_RUN]
    coords = position.ruleset.geometry.coords
    for index, color in enumerate((WHITE, BLACK)):
        run = position.king_moves(color)
        if run is not None:
            runs[index] = naive.Run(coords[run[0]], run[1])
    return naive.State(position.ruleset, naive.board_of(position), position.turn, (runs[0], runs[1]))


def disagreement(position: Position) -> str | None:
    """How the library and the oracle differ on ``position``'s moves, or None."""
    state = oracle_state(position)
    paths = naive.moves(state, paths=True)
    want = Counter((p.path, p.captured, p.promotes) for p in paths)
    got = Counter((m.path, m.captured, m.promotes) for m, _ in draughts.divide(position, 1, paths=True))
    identities = {move.identity for move in position.legal_moves}
    if got != want:
        return f"paths: library extra {sorted(got - want)}, lacks {sorted(want - got)}"
    if identities != {move.identity for move in paths}:
        return f"identities {sorted(identities)}"
    if draughts.perft(position, 1) != len(identities) or draughts.perft(position, 1, paths=True) != len(paths):
        return "perft(1) disagrees with the listed moves"
    for move in position.legal_moves:
        child = position.play(move)
        oracle = [naive.play(state, p) for p in paths if p.identity == move.identity and p.promotes == move.promotes]
        if key(child) not in {state_key(after) for after in oracle}:
            return f"{move} leads to {child.fen()}"
    return None


def assert_tree_matches_oracle(start: Position, plies: int) -> int:
    """Compare every distinct position to ``plies``; return how many were compared."""
    compared = 0
    for ply, level in enumerate(tree(start, plies)):
        for position in level:
            problem = disagreement(position)
            assert problem is None, f"ply {ply}, {position.fen()} ({position.ruleset.name}): {problem}"
            compared += 1
    return compared


# --- perft divide against the oracle ---


def _path_text(position: Position, move: draughts.Move) -> str:
    rules = position.ruleset
    separator = rules.capture_separator if move.captured else rules.move_separator
    return separator.join(rules.square_name(square) for square in move.path)


def _library_children(position: Position, depth: int, paths: bool) -> dict[Hashable, tuple[str, Position, int]]:
    """Each distinct child: a move text reaching it, the child, and the library's count below it."""
    out: dict[Hashable, tuple[str, Position, int]] = {}
    for move, count in draughts.divide(position, depth, paths=paths):
        child = position.play(move)
        text, _, total = out.get(key(child), (_path_text(position, move), child, 0))
        out[key(child)] = (text, child, total + count)
    return out


_Cache = dict[tuple[object, int], dict[str, list[int]]]


def _oracle_children(state: naive.State, depth: int, convention: str, cache: _Cache) -> dict[Hashable, int]:
    """Each distinct child's key and the oracle's count below it (moves to it times perft)."""
    out: dict[Hashable, int] = {}
    for child, multiplicity in naive.children(state):
        below = naive.perft_conventions(child, depth - 1, cache)[convention][-1] if depth > 1 else 1
        out[state_key(child)] = out.get(state_key(child), 0) + multiplicity[convention] * below
    return out


def divide_differences(
    position: Position,
    depth: int,
    *,
    paths: bool,
    convention: str,
    line: tuple[str, ...] = (),
    cache: _Cache | None = None,
) -> list[tuple[tuple[str, ...], Position, int, int]]:
    """Where the library's perft (``paths`` convention) and the oracle's (``convention``) part.

    Follows only the children whose counts differ; the oracle's counts are shared down the walk
    (``cache``), so it costs about one perft of each side. Returns ``(moves from the root,
    position, library moves, oracle moves)`` for each line to a position whose own move counts
    differ (a position reached by two lines appears twice).
    """
    cache = {} if cache is None else cache
    state = oracle_state(position)
    if depth == 1:
        mine = draughts.perft(position, 1, paths=paths)
        theirs = naive.perft_conventions(state, 1, cache)[convention][0]
        return [] if mine == theirs else [(line, position, mine, theirs)]
    ours = _library_children(position, depth, paths)
    oracle = _oracle_children(state, depth, convention, cache)
    assert set(ours) == set(oracle), f"different children at {position.fen()} after {line}"
    found = []
    for child_key, (text, child, count) in ours.items():
        if count != oracle[child_key]:
            found += divide_differences(
                child, depth - 1, paths=paths, convention=convention, line=(*line, text), cache=cache
            )
    if not found and sum(count for _, _, count in ours.values()) != sum(oracle.values()):
        found.append((line, position, len(ours), len(oracle)))  # differs in how many moves reach a child
    return found


# --- the tests ---

FAST_PLIES = {"turkish": 4}
"""Plies compared in the default run (2 for the others, whose published counts go deep): Turkish
to 4, its first captures and the first capture of two pieces (about 3,500 positions)."""
SLOW_PLIES = {"turkish": 6, "thai": 5, "frysk": 4, "pool": 5, "russian": 5, "brazilian": 5, "american": 5}
"""Plies under ``slow``: Turkish to 6 (its first kings are crowned at ply 5; the positions where
kish's count departs are at ply 6), so perft 7 agrees with the oracle in every convention."""


@pytest.mark.parametrize("variant", sorted(draughts.VARIANTS))
def test_start_tree_matches_oracle(variant: str) -> None:
    assert assert_tree_matches_oracle(Position.initial(variant), FAST_PLIES.get(variant, 2)) > 1


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(SLOW_PLIES))
def test_deeper_start_tree_matches_oracle(variant: str) -> None:
    assert assert_tree_matches_oracle(Position.initial(variant), SLOW_PLIES[variant]) > 1


def _recorded_lines() -> list[tuple[tuple[str, ...], str]]:
    """(moves from the start, position) for every line the recorded Turkish divide walks down."""
    entries = TURKISH_DATA["divide"]["positions"]
    return sorted((tuple(line), entry["fen"]) for entry in entries for line in entry["reached_by"])


def test_divide_walks_down_to_the_positions_where_counts_part() -> None:
    """Four plies into a recorded line (a king crowned at a8, Black's b6-b5), a depth-3 divide
    against the oracle counting every landing square (kish's way) walks down to exactly the
    recorded positions that follow, and finds nothing against its restriction-9 paths."""
    board = draughts.Board("turkish")
    prefix = _recorded_lines()[0][0][:4]
    for text in prefix:
        board.push(board.parse_text(text))
    found = divide_differences(board.position, 3, paths=True, convention="landings", line=prefix)
    got = sorted((line, position.fen()) for line, position, _, _ in found)
    assert got == [(line, fen) for line, fen in _recorded_lines() if line[:4] == prefix]
    assert len(got) >= 3
    assert all(mine < theirs for _, _, mine, theirs in found)
    assert divide_differences(board.position, 3, paths=True, convention="paths") == []


@pytest.mark.slow
def test_divide_against_kish_counting_finds_the_recorded_positions() -> None:
    """perft 7 divide from the Turkish start, the library against the oracle counting every
    landing square (kish's way): the lines it walks down are those recorded in
    tests/data/perft-turkish.json, and they account for the whole difference of the two counts."""
    data = TURKISH_DATA["divide"]
    found = divide_differences(Position.initial("turkish"), data["depth"], paths=True, convention="landings")
    recorded = {entry["fen"]: entry for entry in data["positions"]}
    assert sorted((moves, position.fen()) for moves, position, _, _ in found) == _recorded_lines()
    for _, position, mine, theirs in found:
        assert (mine, theirs) == (len(recorded[position.fen()]["legal"]), recorded[position.fen()]["kish_actions"])
    kish, ours = TURKISH_DATA["kish"]["counts"], TURKISH_DATA["counts"]["paths"]
    depth = str(data["depth"])
    assert sum(theirs - mine for _, _, mine, theirs in found) == kish[depth] - ours[depth]
