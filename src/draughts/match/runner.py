"""The match runner: two engines, both colours per opening, games in parallel, a referee Board.

Engines are given as text: ``level:<name>`` (the built-in engine at a level: beginner, intermediate,
strong) or ``hub:<command>`` (an external Hub engine, started per game; ``params`` set its Hub
parameters, such as ``level`` of ``draughts hub``). Each game is one job on an executor (processes by
default); the referee is polydraughts' own :class:`~draughts.Board` (its outcome, with the ruleset's
draw rules), and a game still going after ``max_plies`` is adjudicated a draw. An engine that fails
(a Hub engine that exits, hangs or answers an illegal move; a built-in one that raises) loses that
game by forfeit, and the match goes on. Every finished game is appended to the results file (one JSON
line) and the PDN file as it comes, so a match started again with the same results file plays only
the games still missing.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from draughts.board import Board
from draughts.color import WHITE
from draughts.engine import Limit
from draughts.errors import DraughtsError
from draughts.match.elo import SPRT, EloEstimate, elo_estimate
from draughts.move import Move

if TYPE_CHECKING:
    from concurrent.futures import Executor


@attrs.frozen
class EngineSpec:
    """An engine of a match: ``level:<name>`` or ``hub:<command>``, with Hub parameters."""

    text: str
    params: Mapping[str, str] = attrs.field(factory=dict)

    def __attrs_post_init__(self) -> None:
        kind, _, arg = self.text.partition(":")
        if kind not in ("level", "hub") or not arg.strip():
            raise DraughtsError(f"engine {self.text!r} must be level:<name> or hub:<command>")

    @property
    def label(self) -> str:
        """The engine's name in tables and PDN: its text, then its parameters."""
        return " ".join([self.text, *(f"{k}={v}" for k, v in self.params.items())])

    def player(self, ruleset: str, limit: Limit) -> tuple[Callable[[Board], Move], Callable[[], None]]:
        """A move function for this engine and the function that releases it."""
        kind, _, arg = self.text.partition(":")
        if kind == "level":
            import attrs as _attrs

            from draughts.engine import get_level

            engine = get_level(arg).engine()
            own = _attrs.evolve(engine.limit, time=limit.time) if limit.time else engine.limit

            def built_in(board: Board) -> Move:
                move = engine.search(board, own).move
                assert move is not None
                return move

            return built_in, lambda: None
        from draughts.hub.client import HubEngine

        hub = HubEngine(shlex.split(arg), timeout=30.0)
        try:
            hub.init(ruleset, dict(self.params))
        except BaseException:
            hub.process.kill()
            raise
        go_limit = None if not (limit.depth or limit.nodes or limit.time) else limit

        def external(board: Board) -> Move:
            return hub.go(board, go_limit).move

        def close() -> None:
            try:
                hub.quit(timeout=2.0)
            except Exception:
                hub.process.kill()

        return external, close


@attrs.frozen
class GameTask:
    """One game of a match: its number, the engines as White and Black, the opening, the limits."""

    index: int
    white: EngineSpec
    black: EngineSpec
    ruleset: str
    opening: tuple[str, ...] = ()
    limit: Limit = attrs.field(factory=Limit)
    max_plies: int = 300


def play_task(task: GameTask) -> dict[str, Any]:
    """Play one game (in a worker process); the result as a JSON-able dict with its PDN text."""
    from draughts.pdn.game import Game
    from draughts.pdn.writer import write_game
    from draughts.results import result_for

    board = Board(task.ruleset)
    for text in task.opening:
        board.push_text(text)
    termination = ""
    result = "*"
    players: dict[Any, tuple[Callable[[Board], Move], Callable[[], None]]] = {}
    try:
        for color, spec in ((WHITE, task.white), (WHITE.opponent, task.black)):
            try:
                players[color] = spec.player(task.ruleset, task.limit)
            except Exception as error:
                raise _Forfeit(color, f"{spec.text} did not start: {error}") from None
        while board.outcome() is None and board.ply() < task.max_plies:
            color = board.turn
            try:
                move = players[color][0](board.copy())
            except Exception as error:
                raise _Forfeit(color, f"{(task.white, task.black)[color is not WHITE].text}: {error}") from None
            if not board.is_legal(move):
                raise _Forfeit(color, f"illegal move {move}")
            board.push(move)
        outcome = board.outcome()
        if outcome is None:
            result, termination = result_for(board.ruleset, None), f"adjudicated: draw after {board.ply()} plies"
        else:
            result, termination = outcome.result, f"rules: {outcome.termination.value}"
    except _Forfeit as forfeit:
        result = result_for(board.ruleset, forfeit.color.opponent)
        termination = f"forfeit: {forfeit.why}"[:300]
    finally:
        for _, close in players.values():
            close()
    headers = {
        "Event": "polydraughts match",
        "Round": str(task.index + 1),
        "White": task.white.label,
        "Black": task.black.label,
        "Result": result,
        "Termination": termination,
    }
    pdn = write_game(Game.from_board(board, headers, result))
    return {
        "index": task.index,
        "white": task.white.label,
        "black": task.black.label,
        "result": result,
        "winner": _winner(board, result),
        "termination": termination,
        "pdn": pdn,
    }


def _winner(board: Board, result: str) -> str | None:
    from draughts.results import result_for

    for color, name in ((WHITE, "white"), (WHITE.opponent, "black")):
        if result == result_for(board.ruleset, color):
            return name
    return None


class _Forfeit(Exception):
    def __init__(self, color: Any, why: str) -> None:
        super().__init__(why)
        self.color = color
        self.why = why


@attrs.define
class MatchResult:
    """Results of a match from engine A's side."""

    a: str
    b: str
    games: list[dict[str, Any]] = attrs.field(factory=list)

    def wdl(self) -> tuple[int, int, int]:
        """A's wins, draws and losses."""
        wins = draws = losses = 0
        for game in self.games:
            a_color = "white" if game["index"] % 2 == 0 else "black"  # A is White in even games
            if game["winner"] is None:
                draws += 1
            elif game["winner"] == a_color:
                wins += 1
            else:
                losses += 1
        return wins, draws, losses

    def elo(self) -> EloEstimate:
        """A's Elo difference over B with its 95% interval."""
        return elo_estimate(*self.wdl())

    def table(self) -> str:
        """The results table: score, W-D-L and the Elo difference with its interval."""
        wins, draws, losses = self.wdl()
        games = wins + draws + losses
        score = wins + draws / 2
        lines = [
            f"{'engine':<40} {'score':>9} {'W-D-L':>11}",
            f"{self.a:<40} {score:>4g}/{games:<4} {wins}-{draws}-{losses:<5}",
            f"{self.b:<40} {games - score:>4g}/{games:<4} {losses}-{draws}-{wins:<5}",
        ]
        if games:
            lines.append(f"Elo difference: {self.elo()}")
        return "\n".join(lines)


def run_match(
    a: EngineSpec,
    b: EngineSpec,
    *,
    games: int = 2,
    ruleset: str = "international",
    openings: Sequence[Sequence[str]] = (),
    limit: Limit | None = None,
    max_plies: int = 300,
    executor: Executor | None = None,
    workers: int = 2,
    results: str | Path | None = None,
    pdn: str | Path | None = None,
    sprt: SPRT | None = None,
) -> MatchResult:
    """Play ``games`` games of ``a`` against ``b``: each opening twice (colours swapped), A White first.

    Args:
        openings: Move sequences (in the variant's notation) to start from, used in turn; none: the
            initial position.
        executor: Where games run (default: ``workers`` processes).
        results: JSON-lines file of finished games; games already in it are not played again.
        pdn: PDN file every finished game is appended to.
        sprt: Stop once the test decides (games already started still finish).
    """
    match = MatchResult(a.label, b.label)
    done: set[int] = set()
    if results is not None and Path(results).exists():
        for line in Path(results).read_text(encoding="utf-8").splitlines():
            if line.strip():
                game = json.loads(line)
                match.games.append(game)
                done.add(game["index"])
    tasks = []
    for index in range(games):
        if index in done:
            continue
        opening = tuple(openings[(index // 2) % len(openings)]) if openings else ()
        white, black = (a, b) if index % 2 == 0 else (b, a)
        tasks.append(GameTask(index, white, black, ruleset, opening, limit or Limit(), max_plies))
    own = executor is None
    pool = ProcessPoolExecutor(workers) if executor is None else executor
    try:
        futures = [pool.submit(play_task, task) for task in tasks]
        for future in as_completed(futures):
            game = future.result()
            match.games.append(game)
            if results is not None:
                with open(results, "a", encoding="utf-8") as handle:
                    handle.write(json.dumps(game) + "\n")
            if pdn is not None:
                with open(pdn, "a", encoding="utf-8") as handle:
                    handle.write(game["pdn"] + "\n")
            if sprt is not None and sprt.decision(*match.wdl()) is not None:
                for other in futures:
                    other.cancel()
                break
    finally:
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
    match.games.sort(key=lambda g: g["index"])
    return match
