"""Seeded self-play games as independent jobs over any Executor, streamed to a results file.

Each game is a :class:`~draughts.lab.tasks.GameTask` of a few strings and numbers; its players' random choices come
from seeds hashed from ``(seed, ruleset, index)``, so a run gives the same records whatever the
executor, the number of workers or the order they finish in. A pairing of two players plays both
colours: even games the first player named moves first, odd games the second, and each opening
(if any) is played twice in a row, once with each colour.
"""

from __future__ import annotations

import contextlib
import json
import os
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, as_completed
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import attrs

from draughts._text import excerpt
from draughts.board import Board
from draughts.color import Color
from draughts.errors import DraughtsError, UnknownVariantError
from draughts.lab.metrics import CAP, GameRecord, RulesetMetrics, measure
from draughts.lab.tasks import GameTask, Opening, ending_words, game_seed, play_order, start_board, task_record
from draughts.players import Player, parse_player
from draughts.players.factory import make_player
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset
from draughts.rules.names import get_variant

LAB_KINDS = ("random", "level", "depth", "nodes", "time", "hub")
"""The players a lab plays (:mod:`draughts.players`): not ``human``, nor a DXP follower."""
__all__ = [
    "DEFAULT_OPENING_PLIES",
    "GameTask",
    "Opening",
    "OpeningSource",
    "RandomOpenings",
    "RepeatedGamesWarning",
    "default_openings",
    "engine_players",
    "game_seed",
    "lab_tasks",
    "openings_note",
    "play_game",
    "play_task",
    "play_task_native",
    "play_task_python",
    "play_tasks",
    "repeated_games",
    "resolve_openings",
    "run_games",
    "run_lab",
    "start_board",
    "summarize",
]


@runtime_checkable
class OpeningSource(Protocol):
    """Where a run's openings are drawn from, per ruleset: :class:`RandomOpenings`,
    :class:`draughts.db.book.BookOpenings` (random book exits)."""

    def openings(self, ruleset: str | Ruleset) -> Sequence[Any]:
        """The openings for ``ruleset``: :class:`~draughts.lab.tasks.Opening` s or any form
        :func:`resolve_openings` reads."""


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

    def openings(self, ruleset: str | Ruleset) -> tuple[Opening, ...]:
        """The openings for ``ruleset``: fewer than ``count`` only where fewer lines of that length exist."""
        if self.plies < 1 or self.count < 1:
            raise DraughtsError(f"random openings need plies and a count from 1, not {self.plies} and {self.count}")
        import random

        rules = get_variant(ruleset)
        rng = random.Random(game_seed(self.seed, ruleset if isinstance(ruleset, str) else rules.name, self.plies))
        found: dict[tuple[str, ...], None] = {}
        tree = _OpeningTree(rules, self.plies)
        for _ in range(self.count * 20):  # a small tree may have fewer distinct lines than asked
            path: tuple[int, ...] = ()
            for _ in range(self.plies):
                moves = tree.moves(path)
                if moves is None:
                    break
                # choice() over the indices draws as choice() over the moves did
                path = (*path, rng.choice(range(moves)))
            if len(path) == self.plies and tree.moves(path) is not None:
                found.setdefault(tree.line(path))
            if len(found) == self.count:
                break
        return tuple(Opening(moves, name=f"random {n + 1}") for n, moves in enumerate(found))


class _OpeningTree:
    """The positions random openings pass through, each played and read once, by its path of move
    indices from the start: its number of legal moves (None: the game is over there), its moves'
    texts, and its board where a longer opening goes on from it (random openings revisit the
    same few positions many times)."""

    def __init__(self, rules: Ruleset, plies: int) -> None:
        self.rules, self.plies = rules, plies
        self.boards: dict[tuple[int, ...], Board] = {}
        self.counts: dict[tuple[int, ...], int | None] = {}
        self.texts: dict[tuple[int, ...], str] = {}

    def _board(self, path: tuple[int, ...]) -> Board:
        board = self.boards.get(path)
        if board is None:
            if path:
                board = self._board(path[:-1]).copy()
                board.push(board.legal_moves()[path[-1]])
            else:
                board = Board(self.rules)
            if len(path) < self.plies:  # an opening's last position is only counted
                self.boards[path] = board
        return board

    def moves(self, path: tuple[int, ...]) -> int | None:
        """The number of legal moves after ``path``, None where the game is over."""
        if path not in self.counts:
            board = self._board(path)
            count = len(board.legal_moves())
            self.counts[path] = count if count and board.outcome() is None else None
        return self.counts[path]

    def line(self, path: tuple[int, ...]) -> tuple[str, ...]:
        """``path``'s moves as the variant writes them."""
        for end in range(1, len(path) + 1):
            if path[:end] not in self.texts:
                board = self._board(path[: end - 1])
                self.texts[path[:end]] = board.move_text(board.legal_moves()[path[end - 1]])
        return tuple(self.texts[path[:end]] for end in range(1, len(path) + 1))


def play_task(task: GameTask) -> GameRecord:
    """Play one game and record what it measures (see :class:`~draughts.lab.metrics.GameRecord`).

    Between players the native core plays (random and the built-in engine), the whole game is one
    native call (:mod:`draughts.lab.native`); with any other player, the Python loop
    (:func:`~draughts.lab.runner.play_task_python`). Both give the same record for one task.
    """
    from draughts.lab.native import is_native

    if is_native(task.players):
        return play_task_native(task)
    return play_task_python(task)


def play_tasks(tasks: Sequence[GameTask]) -> list[GameRecord]:
    """The records of ``tasks``, in order, each the one :func:`play_task` gives: the games
    between native players in one native call (:func:`~draughts.lab.native.play_tasks_native`),
    the others by the Python loop."""
    from draughts.lab.native import is_native, play_tasks_native

    native = [n for n, task in enumerate(tasks) if is_native(task.players)]
    records: list[GameRecord | None] = [None] * len(tasks)
    for n, record in zip(native, play_tasks_native([tasks[n] for n in native]), strict=True):
        records[n] = record
    return [play_task_python(tasks[n]) if r is None else r for n, r in enumerate(records)]


def play_task_native(task: GameTask) -> GameRecord:
    """:func:`play_task`'s game played by the native loop (both players must be native kinds): a
    batch of one (:func:`~draughts.lab.native.play_tasks_native`).

    Raises:
        ~draughts.errors.PlayerSpecError: a player the native loop does not play.
    """
    from draughts.lab.native import play_tasks_native

    return play_tasks_native([task])[0]


def play_task_python(task: GameTask) -> GameRecord:
    """:func:`play_task`'s game played by the Python loop, with the players of
    :func:`~draughts.players.factory.make_player` (any kind the lab plays): the reference the
    native loop is tested against."""
    board = start_board(task)
    first_colour = board.ruleset.first_to_move
    order = play_order(task)
    players: dict[Color, Player] = {}
    legal: list[int] = []
    taken: list[int] = []
    evals: list[int | None] = []
    moves: list[int] = []
    seen = set(board.position.pieces())
    crowning: int | None = None
    winner: int | None = None
    ending = CAP
    try:
        for slot, colour in enumerate((first_colour, first_colour.opponent)):
            seed = game_seed(task.seed, task.ruleset, task.index, slot)
            players[colour] = make_player(order[slot], board.ruleset, seed=seed)
        while True:
            outcome = board.outcome()
            if outcome is not None:
                winner = None if outcome.winner is None else int(outcome.winner is not first_colour)
                ending = ending_words(outcome, board)
                break
            legal.append(len(board.legal_moves()))
            if len(taken) >= task.max_plies:
                break
            mover = board.turn
            move, scored = players[mover].choose(board)
            moves.append(board.legal_moves().index(move))
            score = None if scored is None else scored.to_search()
            evals.append(None if score is None else (score if mover is first_colour else -score))
            taken.append(len(move.captured))
            if move.promotes and crowning is None:
                crowning = len(taken)
            seen.add(move.end)
            board.push(move)
    finally:
        for player in players.values():
            player.close(board)
    return task_record(task, board.ruleset, moves, taken, legal, evals, crowning, len(seen), winner, ending)


def play_game(
    ruleset: str, index: int, seed: int, max_plies: int, players: tuple[str, str] = ("random", "random")
) -> GameRecord:
    """Play game ``index`` of ``ruleset`` from the start position (see :func:`play_task`)."""
    return play_task(GameTask(ruleset, index, seed, max_plies, players))


def resolve_openings(
    ruleset: str | Ruleset, openings: str | Sequence[Any] | OpeningSource | None
) -> tuple[Opening, ...]:
    """The openings of a run: None (the start position), an :class:`OpeningSource` (:class:`RandomOpenings`,
    :class:`~draughts.db.book.BookOpenings`), a ballot's name (of
    :mod:`draughts.openings`; ``OTHER/NAME`` borrows another variant's), or a sequence of FENs, of
    move texts joined by spaces, of sequences of move texts, or of :class:`~draughts.lab.tasks.Opening`. Each is checked
    by playing it."""
    if openings is None:
        return ()
    name, rules = (ruleset, None) if isinstance(ruleset, str) else (ruleset.name, ruleset)
    if isinstance(openings, OpeningSource):
        openings = openings.openings(ruleset)
    if isinstance(openings, str):
        from draughts import openings as ballots

        openings = list(ballots.ballot(ruleset, openings))
    resolved = tuple(_opening(item) for item in openings)
    if not resolved:
        raise DraughtsError("no openings given: pass None for the start position")
    for number, opening in enumerate(resolved):
        try:
            start_board(GameTask(name, 0, 0, 0, opening=opening, rules=rules))
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


BATCH = 32
"""Most games one call plays (:func:`play_tasks`): here, and in one job of an executor."""


def _batches(numbers: Sequence[int], size: int) -> list[Sequence[int]]:
    return [numbers[at : at + size] for at in range(0, len(numbers), size)]


def _play(
    tasks: Sequence[GameTask], numbers: Sequence[int], executor: Executor | None
) -> Iterator[tuple[int, GameRecord]]:
    """``(number, record)`` of each task as it finishes, played in batches of games
    (:func:`play_tasks`): of :data:`BATCH` here; over an executor, of up to :data:`BATCH` so
    that there are at least 64 jobs to share out (one game a job in runs of up to 127 games)."""
    if executor is None:
        for batch in _batches(numbers, BATCH):
            yield from zip(batch, play_tasks([tasks[n] for n in batch]), strict=True)
        return
    size = max(1, min(BATCH, len(numbers) // 64))
    futures: dict[Future[list[GameRecord]], Sequence[int]] = {
        executor.submit(play_tasks, [tasks[n] for n in batch]): batch for batch in _batches(numbers, size)
    }
    try:
        for future in as_completed(futures):
            yield from zip(futures[future], future.result(), strict=True)
    finally:
        for future in futures:
            future.cancel()


def ruleset_label(spec: Ruleset | str | os.PathLike[str]) -> tuple[str, Ruleset | None]:
    """The label a lab run gives ``spec`` and the ruleset its tasks carry (None: the label names it).

    A name keeps the text given (``shashki`` stays ``shashki``); a rule file, ``module:attribute``
    or a :class:`~draughts.rules.Ruleset` is labelled by the ruleset's own name, never its repr.
    """
    if isinstance(spec, str):
        try:
            get_variant(spec)
        except UnknownVariantError:
            pass
        else:
            return spec, None
    rules = resolve_ruleset(spec)
    try:
        known = get_variant(rules.name) == rules
    except UnknownVariantError:
        known = False
    return rules.name, None if known else rules


def lab_tasks(
    rulesets: Sequence[Ruleset | str | os.PathLike[str]],
    games: int,
    *,
    players: Sequence[str] = ("random", "random"),
    seed: int = 0,
    max_plies: int = 300,
    openings: str | Sequence[Any] | Mapping[str, Any] | OpeningSource | None = None,
) -> list[GameTask]:
    """The games of a lab run, checked: ``games`` per ruleset, between ``players`` (one name: it
    plays itself; two: a pairing, both colours), from ``openings`` in turn (see
    :func:`~draughts.lab.runner.resolve_openings`; a mapping gives each ruleset its own, keyed by
    its label; None: :func:`~draughts.lab.runner.default_openings`, random openings where an
    engine plays, and ``[Opening()]`` for the start position whoever plays). A ruleset is a
    name, a rule file, ``module:attribute`` or a :class:`~draughts.rules.Ruleset`
    (:func:`~draughts.rules.files.resolve_ruleset`); its games are labelled by the name given, or
    the ruleset's name for the others."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise DraughtsError(f"games {games!r} must be at least 1")
    if isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1:
        raise DraughtsError(f"max plies {max_plies!r} must be at least 1")
    if isinstance(players, str) or not 1 <= len(players) <= 2:
        raise DraughtsError(f"players {players!r:.120} must be one or two player names")
    pair = (_player_text(players[0]), _player_text(players[-1]))
    tasks = []
    labels: set[str] = set()
    automatic = openings is None and engine_players(pair)
    for spec in rulesets:
        name, rules = ruleset_label(spec)
        if name in labels:
            raise DraughtsError(f"two rulesets of the run are labelled {excerpt(name)}: give each its own name")
        labels.add(name)
        chosen = openings.get(name) if isinstance(openings, Mapping) else openings
        if automatic:
            chosen = default_openings(pair, games, seed)
        starts = resolve_openings(name if rules is None else rules, chosen)
        # Self-play from random openings: each game its own opening (swapping the colours of one
        # engine against itself would replay the game).
        per_game = automatic and pair[0] == pair[1]
        for index in range(games):
            at = ((index if per_game else index // 2) % len(starts)) if starts else None
            opening = None if at is None else starts[at]
            tasks.append(GameTask(name, index, seed, max_plies, pair, opening, at, rules))
    return tasks


DEFAULT_OPENING_PLIES = 4
"""Random plies each game of engine players starts after when a lab is given no openings."""


def engine_players(players: Sequence[str]) -> bool:
    """Whether a player of ``players`` is the built-in engine (or a Hub engine): a player that plays
    the same game again from the same start, whatever its seed (its choices are random only among
    equally good moves)."""
    return any(parse_player(text).kind != "random" for text in players)


def default_openings(players: Sequence[str], games: int, seed: int = 0) -> RandomOpenings | None:
    """The openings of a lab run given none: None (the start position) when every player is
    random; else :data:`DEFAULT_OPENING_PLIES` random plies per game (per pair of games, both
    colours, when two players meet), because an engine from one start replays one game (issue 38
    §3: Russian ``depth:2``, 20 games from the start position, were 6 distinct games).

    >>> default_openings(["random"], 10) is None
    True
    >>> default_openings(["depth:2"], 10)
    RandomOpenings(plies=4, count=10, seed=0)
    """
    pair = (players[0], players[-1])
    if not engine_players(pair):
        return None
    count = games if pair[0] == pair[1] else max(1, (games + 1) // 2)
    return RandomOpenings(DEFAULT_OPENING_PLIES, count, seed)


def openings_note(players: Sequence[str], openings: object) -> str:
    """Where a lab run's games start, in words (the lab's output says it)."""
    if openings is None:
        default = default_openings(players, 2)
        if default is None:
            return "openings: the start position (random players)"
        return (
            f"openings: {default.plies} random plies per game by default, since engine players replay one game "
            "from one start (give openings, or --random-openings 0 for the start position)"
        )
    if isinstance(openings, RandomOpenings):
        return f"openings: {openings.plies} random plies"
    if isinstance(openings, str):
        return f"openings: the ballot {openings}"
    return "openings: as given"


class RepeatedGamesWarning(UserWarning):
    """Some games of a lab run repeat an earlier game move for move: its intervals treat them as independent."""


def repeated_games(records: Sequence[GameRecord]) -> dict[str, int]:
    """Per ruleset, how many records repeat an earlier one: the same players, opening and moves
    (records without their moves, written before they were kept, are never counted)."""
    seen: set[tuple[Any, ...]] = set()
    repeats: dict[str, int] = {}
    for r in records:
        if not r.moves:
            continue
        key = (r.ruleset, r.players, r.opening, r.moves)
        if key in seen:
            repeats[r.ruleset] = repeats.get(r.ruleset, 0) + 1
        seen.add(key)
    return repeats


def _player_text(text: str) -> str:
    return parse_player(text, accepted=LAB_KINDS, command="the lab").text


def run_lab(
    rulesets: Sequence[Ruleset | str | os.PathLike[str]],
    games: int,
    *,
    players: Sequence[str] = ("random", "random"),
    seed: int = 0,
    max_plies: int = 300,
    openings: str | Sequence[Any] | Mapping[str, Any] | OpeningSource | None = None,
    executor: Executor | None = None,
    results: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    tablebases: str | None = None,
) -> dict[str, RulesetMetrics]:
    """Play ``games`` games per ruleset and measure each ruleset (:func:`lab_tasks` for the games,
    :func:`run_games` for how they are played, :func:`~draughts.lab.metrics.measure` for the figures),
    keyed by each ruleset's label (:func:`lab_tasks`).

    Warns (:class:`~draughts.lab.runner.RepeatedGamesWarning`) when some games repeat an earlier
    one move for move.
    """
    tasks = lab_tasks(rulesets, games, players=players, seed=seed, max_plies=max_plies, openings=openings)
    records = run_games(tasks, executor=executor, results=results, progress=progress)
    for name, count in repeated_games(records).items():
        warnings.warn(
            f"{name}: {count} of its {games} games repeat an earlier game move for move, and its intervals "
            "count them as independent: start from more openings (random openings, a ballot)",
            RepeatedGamesWarning,
            stacklevel=2,
        )
    rules = {task.ruleset: task.resolved() for task in tasks}
    return {
        name: measure([r for r in records if r.ruleset == name], tablebases=tablebases, ruleset=ruleset)
        for name, ruleset in rules.items()
    }


def summarize(records: Sequence[GameRecord]) -> dict[str, Any]:
    """The JSON-able figures of one ruleset's records (:meth:`~draughts.lab.metrics.RulesetMetrics.to_dict`)."""
    return measure(records).to_dict()
