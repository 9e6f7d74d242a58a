"""Seeded self-play games as independent jobs over any Executor, streamed to a results file.

Each game is a :class:`GameTask` of a few strings and numbers; its players' random choices come
from seeds hashed from ``(seed, ruleset, index)``, so a run gives the same records whatever the
executor, the number of workers or the order they finish in. A pairing of two players plays both
colours: even games the first player named moves first, odd games the second, and each opening
(if any) is played twice in a row, once with each colour.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, as_completed
from pathlib import Path
from typing import Any

import attrs

from draughts.board import Board
from draughts.errors import DraughtsError
from draughts.lab.metrics import CAP, GameRecord, RulesetMetrics, measure
from draughts.lab.players import check_spec, make_player
from draughts.rules.names import get_variant


@attrs.frozen
class Opening:
    """Where a game starts: moves played from the start position, or a FEN, or both (moves after it).

    Attributes:
        moves: Moves in the ruleset's notation, played first (not counted as the players' plies).
        fen: A position to start from instead of the start position.
        name: What the ballot calls it.
    """

    moves: tuple[str, ...] = ()
    fen: str | None = None
    name: str = ""


@attrs.frozen
class RandomOpenings:
    """Openings of ``plies`` random legal moves each (uniform over each position's legal moves),
    ``count`` distinct ones per ruleset, the same for one ``seed``: for matches and labs without a
    ballot for their rules (cutechess-cli's habit of random book exits).

    >>> RandomOpenings(plies=2, count=3).openings("russian") == RandomOpenings(2, 3).openings("russian")
    True
    """

    plies: int
    count: int
    seed: int = 0

    def openings(self, ruleset: str) -> tuple[Opening, ...]:
        """The openings for ``ruleset``: fewer than ``count`` only where fewer lines of that length exist."""
        if self.plies < 1 or self.count < 1:
            raise DraughtsError(f"random openings need plies and a count from 1, not {self.plies} and {self.count}")
        import random

        rng = random.Random(game_seed(self.seed, ruleset, self.plies))
        found: dict[tuple[str, ...], None] = {}
        for _ in range(self.count * 20):  # a small tree may have fewer distinct lines than asked
            board = Board(get_variant(ruleset))
            line = []
            for _ in range(self.plies):
                moves = board.legal_moves()
                if not moves or board.outcome() is not None:
                    break
                move = rng.choice(moves)
                line.append(board.move_text(move))
                board.push(move)
            if len(line) == self.plies and board.legal_moves() and board.outcome() is None:
                found.setdefault(tuple(line))
            if len(found) == self.count:
                break
        return tuple(Opening(moves, name=f"random {n + 1}") for n, moves in enumerate(found))


@attrs.frozen
class GameTask:
    """One game: the ruleset, its index, the run's seed, the ply cap, the two players (first named
    first), and the opening with its index (None: the start position)."""

    ruleset: str
    index: int
    seed: int
    max_plies: int
    players: tuple[str, str] = ("random", "random")
    opening: Opening | None = None
    opening_index: int | None = None


def game_seed(seed: int, ruleset: str, index: int, slot: int | None = None) -> int:
    """The seed of one game (or of its player ``slot`` 0 or 1), from the run's seed, the ruleset's
    name and the game's index.

    A hash, not a shared generator, so that a game's moves do not depend on which worker plays
    it or in what order.
    """
    text = f"{seed}/{ruleset}/{index}" if slot is None else f"{seed}/{ruleset}/{index}/{slot}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def start_board(task: GameTask) -> Board:
    """The board ``task``'s game starts from: its opening's FEN, then its moves played (each checked)."""
    opening = task.opening
    if opening is None:
        return Board(get_variant(task.ruleset))
    board = Board(get_variant(task.ruleset), opening.fen) if opening.fen else Board(get_variant(task.ruleset))
    for text in opening.moves:
        board.push_text(text)
    return board


def play_task(task: GameTask) -> GameRecord:
    """Play one game and record what it measures (see :class:`~draughts.lab.metrics.GameRecord`)."""
    board = start_board(task)
    first_colour = board.ruleset.first_to_move
    order = task.players if task.index % 2 == 0 else (task.players[1], task.players[0])
    players = {
        first_colour: make_player(order[0], task.ruleset, game_seed(task.seed, task.ruleset, task.index, 0)),
        first_colour.opponent: make_player(order[1], task.ruleset, game_seed(task.seed, task.ruleset, task.index, 1)),
    }
    legal: list[int] = []
    taken: list[int] = []
    evals: list[int | None] = []
    seen = set(board.position.pieces())
    crowning: int | None = None
    winner: int | None = None
    ending = CAP
    try:
        while True:
            outcome = board.outcome()
            if outcome is not None:
                winner = None if outcome.winner is None else int(outcome.winner is not first_colour)
                ending = outcome.rule
                break
            legal.append(len(board.legal_moves()))
            if len(taken) >= task.max_plies:
                break
            mover = board.turn
            move, score = players[mover].choose(board)
            evals.append(None if score is None else (score if mover is first_colour else -score))
            taken.append(len(move.captured))
            if move.promotes and crowning is None:
                crowning = len(taken)
            seen.add(move.end)
            board.push(move)
    finally:
        for player in players.values():
            player.close()
    return GameRecord(
        ruleset=task.ruleset,
        index=task.index,
        players=order,
        opening=task.opening_index,
        plies=len(taken),
        winner=winner,
        ending=ending,
        legal=tuple(legal),
        taken=tuple(taken),
        crowning=crowning,
        evals=tuple(evals),
        coverage=len(seen),
        squares=board.ruleset.geometry.squares,
    )


def play_game(
    ruleset: str, index: int, seed: int, max_plies: int, players: tuple[str, str] = ("random", "random")
) -> GameRecord:
    """Play game ``index`` of ``ruleset`` from the start position (see :func:`play_task`)."""
    return play_task(GameTask(ruleset, index, seed, max_plies, players))


def resolve_openings(
    ruleset: str, openings: str | Sequence[Any] | RandomOpenings | None
) -> tuple[Opening, ...]:
    """The openings of a run: None (the start position), :class:`RandomOpenings`, a ballot's name (of
    :mod:`draughts.openings`; ``OTHER/NAME`` borrows another variant's), or a sequence of FENs, of
    move texts joined by spaces, of sequences of move texts, or of :class:`Opening`. Each is checked
    by playing it."""
    if openings is None:
        return ()
    if isinstance(openings, RandomOpenings):
        openings = openings.openings(ruleset)
    if isinstance(openings, str):
        from draughts import openings as ballots

        openings = list(ballots.ballot(ruleset, openings))
    resolved = tuple(_opening(item) for item in openings)
    if not resolved:
        raise DraughtsError("no openings given: pass None for the start position")
    for number, opening in enumerate(resolved):
        try:
            start_board(GameTask(ruleset, 0, 0, 0, opening=opening))
        except DraughtsError as error:
            what = opening.name or " ".join(opening.moves) or opening.fen
            raise DraughtsError(f"opening {number + 1} {what!r:.80}: {error}") from None
    return resolved


def _opening(item: Any) -> Opening:
    """One opening from any of the forms :func:`~draughts.lab.runner.resolve_openings` takes (a ballot's item: its
    ``moves``, ``fen`` and ``name`` attributes, where it has them)."""
    if isinstance(item, Opening):
        return item
    if isinstance(item, str):
        text = item.strip()
        if text[:2].upper() in ("W:", "B:"):
            return Opening(fen=text)
        return Opening(moves=tuple(text.split()))
    moves = getattr(item, "moves", None)
    if moves is not None:
        return Opening(tuple(str(m) for m in moves), getattr(item, "start_fen", None), str(getattr(item, "name", "")))
    if isinstance(item, Sequence):
        return Opening(moves=tuple(str(m) for m in item))
    raise DraughtsError(f"opening {item!r:.80} is neither a FEN, moves nor an opening")


def _run_key(task: GameTask) -> str:
    """What a results file's line must match to be reused: everything that decides the game."""
    return json.dumps(
        [task.seed, task.max_plies, list(task.players), attrs.asdict(task.opening) if task.opening else None]
    )


def _read_results(path: Path) -> dict[tuple[str, int, str], GameRecord]:
    """Records already in a results file, keyed by ruleset, index and run key; a line cut short by
    an interruption (or any line that is not a record) is skipped."""
    done: dict[tuple[str, int, str], GameRecord] = {}
    if not path.exists():
        return done
    with path.open(encoding="utf-8") as stream:
        for line in stream:
            try:
                data = json.loads(line)
                record = GameRecord.from_dict(data)
                done[(record.ruleset, record.index, str(data["run"]))] = record
            except (ValueError, KeyError, TypeError):
                continue
    return done


def _ends_a_line(path: Path) -> bool:
    """Whether ``path`` is empty or ends with a newline (appending to it starts a new line)."""
    with path.open("rb") as stream:
        if stream.seek(0, os.SEEK_END) == 0:
            return True
        stream.seek(-1, os.SEEK_END)
        return stream.read(1) == b"\n"


def _write_line(stream: Any, record: GameRecord, key: str) -> None:
    stream.write(json.dumps({**record.to_dict(), "run": key}, sort_keys=True) + "\n")
    stream.flush()


def run_games(
    tasks: Sequence[GameTask],
    *,
    executor: Executor | None = None,
    results: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[GameRecord]:
    """Play ``tasks`` (over ``executor`` if given, else here) and return their records in task order.

    With ``results``, a JSON-lines file: records already there for the same game (same ruleset,
    index, seed, ply cap, players and opening) are reused, and each new one is appended as it
    finishes, so an interrupted run started again plays only the missing games. ``progress(done,
    total)`` is called as games finish.
    """
    path = None if results is None else Path(results)
    known = _read_results(path) if path is not None else {}
    keys = [_run_key(task) for task in tasks]
    found: dict[int, GameRecord] = {}
    for number, (task, key) in enumerate(zip(tasks, keys, strict=True)):
        record = known.get((task.ruleset, task.index, key))
        if record is not None:
            found[number] = record
    missing = [number for number in range(len(tasks)) if number not in found]
    if progress is not None:
        progress(len(found), len(tasks))
    with open(path, "a", encoding="utf-8") if path is not None else contextlib.nullcontext() as stream:
        if stream is not None and path is not None and not _ends_a_line(path):
            stream.write("\n")  # a line cut by an interruption: the next record starts a line of its own
        for number, record in _play(tasks, missing, executor):
            found[number] = record
            if stream is not None:
                _write_line(stream, record, keys[number])
            if progress is not None:
                progress(len(found), len(tasks))
    return [found[number] for number in range(len(tasks))]


def _play(
    tasks: Sequence[GameTask], numbers: Sequence[int], executor: Executor | None
) -> Iterator[tuple[int, GameRecord]]:
    """``(number, record)`` of each task as it finishes."""
    if executor is None:
        for number in numbers:
            yield number, play_task(tasks[number])
        return
    futures: dict[Future[GameRecord], int] = {executor.submit(play_task, tasks[n]): n for n in numbers}
    try:
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        for future in futures:
            future.cancel()


def lab_tasks(
    rulesets: Sequence[str],
    games: int,
    *,
    players: Sequence[str] = ("random", "random"),
    seed: int = 0,
    max_plies: int = 300,
    openings: str | Sequence[Any] | Mapping[str, Any] | RandomOpenings | None = None,
) -> list[GameTask]:
    """The games of a lab run, checked: ``games`` per ruleset, between ``players`` (one name: it
    plays itself; two: a pairing, both colours), from ``openings`` in turn (see
    :func:`~draughts.lab.runner.resolve_openings`; a mapping gives each ruleset its own)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise DraughtsError(f"games {games!r} must be at least 1")
    if isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1:
        raise DraughtsError(f"max plies {max_plies!r} must be at least 1")
    if isinstance(players, str) or not 1 <= len(players) <= 2:
        raise DraughtsError(f"players {players!r:.120} must be one or two player names")
    pair = (check_spec(players[0]), check_spec(players[-1]))
    tasks = []
    for name in rulesets:
        get_variant(name)
        chosen = openings.get(name) if isinstance(openings, Mapping) else openings
        starts = resolve_openings(name, chosen)
        for index in range(games):
            at = (index // 2) % len(starts) if starts else None
            tasks.append(GameTask(name, index, seed, max_plies, pair, None if at is None else starts[at], at))
    return tasks


def run_lab(
    rulesets: Sequence[str],
    games: int,
    *,
    players: Sequence[str] = ("random", "random"),
    seed: int = 0,
    max_plies: int = 300,
    openings: str | Sequence[Any] | Mapping[str, Any] | RandomOpenings | None = None,
    executor: Executor | None = None,
    results: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    tablebases: str | None = None,
) -> dict[str, RulesetMetrics]:
    """Play ``games`` games per ruleset and measure each ruleset (:func:`lab_tasks` for the games,
    :func:`run_games` for how they are played, :func:`~draughts.lab.metrics.measure` for the figures)."""
    tasks = lab_tasks(rulesets, games, players=players, seed=seed, max_plies=max_plies, openings=openings)
    records = run_games(tasks, executor=executor, results=results, progress=progress)
    return {
        name: measure([r for r in records if r.ruleset == name], tablebases=tablebases)
        for name in dict.fromkeys(rulesets)
    }


def summarize(records: Sequence[GameRecord]) -> dict[str, Any]:
    """The JSON-able figures of one ruleset's records (:meth:`~draughts.lab.metrics.RulesetMetrics.to_dict`)."""
    return measure(records).to_dict()


@contextlib.contextmanager
def scheduler_executor(address: str) -> Iterator[Executor]:
    """An Executor on the Dask scheduler at ``address``, closed at the end (the distributed extra).

    Tasks are submitted impure, so every game is played even if an identical one ran before.
    """
    try:
        from distributed import Client
    except ModuleNotFoundError as error:
        extra = 'pip install "polydraughts[distributed]"'
        raise DraughtsError(f"--scheduler needs Dask's distributed: {extra} ({error})") from None
    try:
        client: Any = Client(address)  # type: ignore[no-untyped-call, unused-ignore]
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise DraughtsError(f"cannot reach the Dask scheduler {address!r:.80}: {error}") from None
    try:
        yield client.get_executor(pure=False)
    finally:
        client.close()
