"""Shots: the draughts combination, found in a database's games, verified by search, written as PDN puzzles.

A **shot** is a sacrifice that wins material (or the game) by force: the side to move, with no
capture of its own, plays a move after which the opponent must capture, and however the opponent
captures, a line of such forcing moves (sacrifices and captures) ends with the side to move
ahead by at least ``gain`` men more than before (a king counts as the engine values it,
:func:`~draughts.engine.king_value`, a man as one), net of what the opponent's last move took:
winning back a man just taken completes an exchange, it is no shot.

Finding: every position of every game is tried with a **forcing search** (only the mover's
sacrifices and captures, and the opponent's forced captures, to ``forcing`` moves of the mover;
cheap, since the opponent's moves are all forced captures). Verifying: each candidate is then
analysed by the engine to ``depth`` plies (its two best lines), and kept only if the shot's first
move is the engine's best and scores at least ``gain`` men (less half a man for position) above
every other move, or wins where no other move does: a unique solution, as a puzzle needs, and not
an exchange any move would have completed. The puzzle's solution is the forcing line, up to where
the material is won.

Rulesets where a player with no move wins (losing draughts) have no shots in this sense and are
skipped.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import attrs

from draughts.color import Color
from draughts.db.database import Database
from draughts.engine import Engine, Limit, king_value
from draughts.engine.score import Score
from draughts.move import Move
from draughts.pdn import Game, GameNode, write_game
from draughts.position import Position
from draughts.rules import Ruleset

__all__ = ["Shot", "find_shots", "forcing_line", "shots_in_game", "write_puzzles"]

_WIN = 10**6
_BUDGET = 4000
"""Positions a forcing search may visit from one root (a bound on pathological king positions)."""


@attrs.frozen
class Shot:
    """A shot found in a game.

    Attributes:
        game: The game's id in the database (0 outside one).
        ply: The ply of the position (0 = the start).
        position: The position before the shot.
        solution: The forcing line: the shot, the forced replies, up to where the material is won.
        gain: What the line wins, in hundredths of a man (a man is 100).
        score: The engine's score of the shot at the verifying depth, hundredths of a man (a win: 10**6).
        played: Whether the game went on with the shot's first move.
        headers: The game's tags.
    """

    game: int
    ply: int
    position: Position
    solution: tuple[Move, ...]
    gain: int
    score: int
    played: bool
    headers: dict[str, str] = attrs.field(factory=dict)


def _material(position: Position, side: Color, king: int) -> int:
    own_kings, own_men = position.material(side)
    other_kings, other_men = position.material(side.opponent)
    return 100 * (own_men - other_men) + king * (own_kings - other_kings)


@attrs.define
class _Search:
    side: Color
    king: int
    depth: int
    visited: int = 0

    def mover(self, position: Position, moves_left: int) -> tuple[int, tuple[Move, ...]]:
        """Best value for the attacker to move: stand, or a forcing move (a capture or a sacrifice)."""
        self.visited += 1
        best: tuple[int, tuple[Move, ...]] = (_material(position, self.side, self.king), ())
        if moves_left == 0 or self.visited > _BUDGET:
            return best
        capturing = position.has_capture()
        for move, child in position.children():
            if not capturing and not child.has_capture():
                continue  # a quiet move that forces nothing
            value, line = self.defender(child, moves_left - 1)
            if value > best[0]:
                best = (value, (move, *line))
        return best

    def defender(self, position: Position, moves_left: int) -> tuple[int, tuple[Move, ...]]:
        """Worst value for the attacker after the defender's forced captures (none: the line ends)."""
        self.visited += 1
        if not position.legal_moves:
            return (-_WIN if position.ruleset.no_move_wins else _WIN), ()
        if not position.has_capture():
            return _material(position, self.side, self.king), ()
        worst: tuple[int, tuple[Move, ...]] = (2 * _WIN, ())
        for move, child in position.children():
            value, line = self.mover(child, moves_left)
            if value < worst[0]:
                worst = (value, (move, *line))
        return worst


def forcing_line(position: Position, *, forcing: int = 4) -> tuple[int, tuple[Move, ...]]:
    """The best material gain the side to move forces with sacrifices and captures (up to
    ``forcing`` of its own moves), in hundredths of a man, and its line (empty: none gains)."""
    search = _Search(position.turn, king_value(position.ruleset), forcing)
    before = _material(position, position.turn, search.king)
    value, line = search.mover(position, forcing)
    return value - before, _trimmed(position, line, value)


def _trimmed(position: Position, line: tuple[Move, ...], value: int) -> tuple[Move, ...]:
    """``line`` up to the first point where the attacker has won what it wins (and the defender has no capture)."""
    side, king = position.turn, king_value(position.ruleset)
    for index, move in enumerate(line):
        position = position.play(move)
        done = index % 2 == 0 and not position.has_capture() and _material(position, side, king) >= value
        if done or (value >= _WIN and not position.legal_moves):
            return line[: index + 1]
    return line


def _candidate(position: Position, gain: int, forcing: int, owed: int) -> tuple[int, tuple[Move, ...]] | None:
    """The forcing line of ``position`` and what it wins net of ``owed`` (what the opponent's last
    move captured: winning it back completes an exchange, it is no shot), or None."""
    if position.has_capture() or position.is_over():
        return None
    won, line = forcing_line(position, forcing=forcing)
    won -= owed
    if won < 100 * gain or not line:
        return None
    return won, line


def _owed(nodes: list[GameNode], ply: int) -> int:
    """What the move that led to ply ``ply`` captured, in hundredths of a man, for the side now to move."""
    if ply == 0 or nodes[ply].move is None or not nodes[ply].move.captured:  # type: ignore[union-attr]
        return 0
    side, king = nodes[ply].position.turn, king_value(nodes[ply].position.ruleset)
    return _material(nodes[ply - 1].position, side, king) - _material(nodes[ply].position, side, king)


def shots_in_game(
    game: Game, engine: Engine, *, depth: int = 6, gain: int = 1, forcing: int = 4, game_id: int = 0
) -> Iterator[Shot]:
    """The verified shots of one game's main line (each position where the side to move has one).

    A shot the game played is reported once (not again from its later positions); a forced win
    missed move after move is reported at its first position only.
    """
    if game.ruleset.no_move_wins:
        return
    nodes: list[GameNode] = [game, *game.mainline()]
    inside = -1  # the last ply of a shot the game played: its later positions are the same shot
    won_once = False
    for ply, node in enumerate(nodes):
        if ply <= inside:
            continue
        found = _candidate(node.position, gain, forcing, _owed(nodes, ply))
        if found is None or (won_once and found[0] >= _WIN // 2):
            continue
        won, line = found
        score = _verified(engine, node.position, line[0], depth, gain)
        if score is None:
            continue
        played = ply + 1 < len(nodes) and nodes[ply + 1].move == line[0]
        if played:
            inside = ply + len(line)
        won_once = won_once or won >= _WIN // 2
        yield Shot(game_id, ply, node.position, line, won, score, played, dict(game.headers))


def _centi(score: Score) -> float:
    """A score as hundredths of a man, a win or a loss as an infinity."""
    if score.plies is not None:
        return math.inf if score.plies > 0 else -math.inf
    return float(score.centi)


def _verified(engine: Engine, position: Position, first: Move, depth: int, gain: int) -> int | None:
    """The engine's score of the shot when, searching to ``depth``, the shot's first move is its best
    and beats every other move by ``gain`` men less half a man (or wins where no other move does);
    None otherwise. A unique solution, as puzzles need."""
    lines = engine.analyse(position, Limit(depth=depth), multipv=2)
    if not lines or lines[0].move != first:
        return None
    best = _centi(lines[0].score)
    second = _centi(lines[1].score) if len(lines) > 1 else -math.inf
    if best == second or best - second < 100 * gain - 50:
        return None
    return _WIN if best == math.inf else int(best)


def find_shots(
    database: Database,
    ruleset: Ruleset | None = None,
    *,
    depth: int = 6,
    gain: int = 1,
    forcing: int = 4,
    limit: int | None = None,
    games: int | None = None,
    engine: Engine | None = None,
) -> list[Shot]:
    """The verified shots in the games of a database (of one ruleset, or all), in game order.

    Args:
        ruleset: Only games of these rules (default: every ruleset in the database).
        depth: The engine's verifying depth.
        gain: Men a shot must win, net.
        forcing: The attacker's moves the forcing search looks through.
        limit: Stop after this many shots.
        games: Look at the first this many games only (of each ruleset).
        engine: The verifying engine (default: ``Engine(seed=0)``).
    """
    engine = Engine(seed=0) if engine is None else engine
    names = [ruleset.name] if ruleset is not None else list(database.variants())
    shots: list[Shot] = []
    for name in names:
        for count, (game_id, game) in enumerate(database.games_of(ruleset or name), 1):
            if games is not None and count > games:
                break
            for shot in shots_in_game(game, engine, depth=depth, gain=gain, forcing=forcing, game_id=game_id):
                shots.append(shot)
                if limit is not None and len(shots) >= limit:
                    return shots
    return shots


def write_puzzles(shots: list[Shot]) -> str:
    """The shots as PDN games: the position as SetUp/FEN, the solution as the main line, tags naming the source game."""
    texts = []
    for shot in shots:
        tags = {
            "Event": f"Shot: {shot.headers.get('Event', '?')}",
            "White": shot.headers.get("White", "?"),
            "Black": shot.headers.get("Black", "?"),
            "Date": shot.headers.get("Date", "?"),
            "Annotator": "draughts db shots",
        }
        puzzle = Game(shot.position.ruleset, tags, shot.position, shot.solution, "*")
        played = "played in the game" if shot.played else "missed in the game"
        puzzle.comment = (
            f"game {shot.game}, ply {shot.ply}: {shot.position.turn} to play wins material worth {shot.gain / 100:g} "
            f"men ({played}; "
            f"search score {shot.score})"
        )
        texts.append(write_game(puzzle))
    return "\n".join(texts)
