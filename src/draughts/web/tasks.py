"""The rules work of every request, as it runs in a worker process (:mod:`draughts.web.workers`).

Each function takes plain data (rulesets, FENs, move texts, a session's
:class:`~draughts.web.sessions.Snapshot`) and returns plain data the app sends as JSON; none
knows about HTTP. Bad input raises a :class:`~draughts.DraughtsError`, which the pool hands back
as a 4xx.

A game is rebuilt from its snapshot (the root FEN and the moves' squares). Each worker keeps the
boards of the games it answered last (:data:`CACHE_PLIES` plies in all, the least recently used
dropped first), so the next request of a game replays only what changed; the cache is checked
against the snapshot every time, so it can only save work, never change an answer.
"""

from __future__ import annotations

import contextlib
import datetime
from collections import OrderedDict
from collections.abc import Sequence

import attrs

from draughts.board import Board, Outcome
from draughts.color import Color
from draughts.engine import Engine, Limit, SearchResult, line_text
from draughts.engine.score import Score
from draughts.errors import GameOverError, IllegalMoveError, PDNError, UnknownVariantError
from draughts.move import Move
from draughts.notation import move_text
from draughts.pdn import Game, PDNUnknownVariantError, parse_game, result_for, write_game
from draughts.pdn.treedata import tree_data, tree_from_data
from draughts.players import EnginePlayer, parse_player
from draughts.players.factory import make_player
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.rules.geometry import SquareNames
from draughts.svg import board as svg_board
from draughts.web import endgame
from draughts.web.job import stop_requested
from draughts.web.rulesets import RulesetRegistry
from draughts.web.sessions import MAX_PLIES, Line, Snapshot
from draughts.web.views import Json, RequestError, compare_json, move_field, move_json, outcome_json, variant_json

__all__ = ["CACHE_PLIES"]

CACHE_PLIES = 20_000
"""Plies of games a worker keeps rebuilt (about 1 KB each), over all the games it caches."""

BOARD_SIZE = 560
"""The board's drawing size in the page, in SVG units."""

_registry = RulesetRegistry()
View = tuple[bool, "bool | None"]  # flipped, square numbers (None: the ruleset's default)


def setup(custom: Sequence[Ruleset]) -> None:
    """A new worker's first call: the server's custom rulesets, which PDN tags may name."""
    global _registry
    _registry = RulesetRegistry(tuple(custom))
    _cache.clear()


# --- stateless requests -------------------------------------------------------------------------


def _position(rules: Ruleset, fen: str | None) -> Position:
    return Position.initial(rules) if fen is None or not fen.strip() else Position.from_fen(rules, fen)


def legal_moves(rules: Ruleset, fen: str | None) -> Json:
    """``GET /api/legal-moves``."""
    position = _position(rules, fen)
    moves = [move_json(position, move) for move in position.legal_moves()]
    return {"variant": rules.name, "fen": position.fen(), "turn": str(position.turn), "moves": moves}


def play(rules: Ruleset, fen: str, text: str | None, path: list[int | str] | None) -> Json:
    """``POST /api/play``."""
    position = Position.from_fen(rules, fen)
    move = move_field(position, text, path)
    after = position.play(move)
    return {
        "variant": rules.name,
        "move": move_json(position, move),
        "fen": after.fen(),
        "turn": str(after.turn),
        "legal_moves": len(after.legal_moves()),
    }


def engine_move(rules: Ruleset, fen: str, level: str, seconds: float) -> Json:
    """``POST /api/engine-move``."""
    position = Position.from_fen(rules, fen)
    return _search_json(position, _search(Board.from_position(position), level, seconds), level)


def analyse(
    rules: Ruleset, fen: str, multipv: int, depth: int | None, seconds: float, tablebases: str | None = None
) -> Json:
    """``POST /api/analyse``: the engine's best ``multipv`` lines of ``fen``, each scored exactly.

    The search stops after ``seconds`` (or at ``depth`` plies, when given, if that comes first),
    answering with the lines of its last iteration that scored them all; the pool asks it to stop
    soon after and kills its worker if it still runs. With the server's endgame tables
    (``tablebases``, a directory) a position inside a built table is answered from them -- every
    line an exact win, loss or draw in plies, depth 0 -- and the search scores the built endgames
    it reaches exactly. A finished game has no lines.
    """
    position = Position.from_fen(rules, fen)
    limit = Limit(depth=depth, time=seconds)
    base = None if tablebases is None else endgame.tablebase(rules, tablebases)
    engine = Engine(seed=None, tablebase=base)
    lines = engine.analyse(Board.from_position(position), limit, multipv=multipv, stop=stop_requested())
    if base is not None:  # a won or lost line shown to its end, not where the tables took over
        lines = [
            attrs.evolve(line, pv=endgame.continue_line(base, position, line.pv, abs(line.score.plies or 0)))
            for line in lines
        ]
    return {
        "variant": rules.name,
        "fen": position.fen(),
        "turn": str(position.turn),
        "lines": [
            {
                "rank": line.multipv,
                "move": move_json(position, line.move),
                "score": _score_json(line.score),
                "pv": line_text(position, line.pv),
                "depth": line.depth,
                "nodes": line.nodes,
            }
            for line in lines
        ],
    }


def _score_json(score: Score) -> Json:
    """A score for the side to move: its ``%eval`` text, hundredths of a man, plies to a won (positive)
    or lost (negative) end, and whether it is proven."""
    return {"text": score.text(), "centi": score.centi, "plies": score.plies, "exact": score.exact}


def compare(rulesets: Sequence[Ruleset], fen: str | None, all_rows: bool, tablebases: str | None = None) -> Json:
    """``POST /api/compare`` (with the rows from the server's endgame tables, when it has them)."""
    return compare_json(rulesets, fen, all_rows=all_rows, tablebases=tablebases)


def board_picture(rules: Ruleset, fen: str | None, flipped: bool, numbers: bool) -> tuple[str, str]:
    """The board page's first drawing: the SVG and the FEN of ``fen`` (default: the start position)."""
    position = _position(rules, fen)
    return svg_board(position, flipped=flipped, square_numbers=numbers, size=BOARD_SIZE), position.fen()


def _search(board: Board, level: str, seconds: float) -> SearchResult:
    """The computer's reply, chosen as every command's players choose (:meth:`Player.choose
    <draughts.players.Player.choose>`) by the player ``level:LEVEL`` (:func:`make_player
    <draughts.players.factory.make_player>`), its time cut to ``seconds`` and its search ended by
    the job's stop signal; the board shows that search whole (line, depth, nodes)."""
    player = _computer(board.ruleset, level, seconds)
    with contextlib.suppress(GameOverError):  # the search says how the game ended: no move, its score
        player.choose(board)
    assert player.last is not None  # choose searched, whatever it answered
    return player.last


def _computer(ruleset: Ruleset, level: str, seconds: float) -> EnginePlayer:
    spec = parse_player(f"level:{level}", accepted=("level",))
    player = make_player(spec, ruleset, seed=None, limit=Limit(time=seconds), stop=stop_requested())
    if not isinstance(player, EnginePlayer):  # a level is the built-in engine
        raise TypeError(f"player {spec.text!r} made {player!r}, not the built-in engine")
    return player


def _search_json(position: Position, result: SearchResult, level: str) -> Json:
    if result.move is None:
        return {"move": None, "fen": position.fen(), "level": level, "score": result.value, "depth": 0, "nodes": 0}
    return {
        "move": move_json(position, result.move),
        "fen": position.play(result.move).fen(),
        "level": level,
        "score": result.value,
        "mate_in": result.mate_in,
        "depth": result.depth,
        "nodes": result.nodes,
        "pv": line_text(position, result.pv),
    }


# --- games: rebuilt from snapshots, cached -------------------------------------------------------


class _Game:
    """A session's game rebuilt: the board at the end of the line, and the line's history entries."""

    def __init__(self, rules: Ruleset, root: str | None) -> None:
        self.rules = rules
        self.root = root
        self.board = Board(rules, root)
        self.paths: list[tuple[int, ...]] = []
        self.history: list[Json] = []

    def follow(self, paths: list[tuple[int, ...]]) -> None:
        """Make the line ``paths``: back to the common start, then forward."""
        keep = 0
        for old, new in zip(self.paths, paths, strict=False):
            if old != new:
                break
            keep += 1
        while len(self.paths) > keep:
            self.board.pop()
            self.paths.pop()
            self.history.pop()
        for path in paths[keep:]:
            self.push(path)

    def push(self, path: tuple[int, ...]) -> None:
        board = self.board
        position = board.position
        move = _by_path(position, path)
        self.history.append(
            {
                "ply": len(self.paths) + 1,
                "number": board.fullmove_number,
                "side": str(position.turn),
                "text": move_text(position, move),
            }
        )
        board.push(move)
        self.paths.append(path)

    def at(self, cursor: int) -> Board:
        """The game up to ply ``cursor`` (a copy when that is not the line's end)."""
        if cursor == len(self.paths):
            return self.board
        board = self.board.copy()
        for _ in range(len(self.paths) - cursor):
            board.pop()
        return board


def _by_path(position: Position, path: tuple[int, ...]) -> Move:
    for move in position.legal_moves():
        if move.path == path:
            return move
    raise IllegalMoveError(f"no legal move {'-'.join(map(str, path))} in {position.fen()} (a stored game went wrong)")


_cache: OrderedDict[str, _Game] = OrderedDict()


def _game(snapshot: Snapshot) -> _Game:
    """The snapshot's game, from the cache when it holds a game of the same root (replaying the change)."""
    game = _cache.pop(snapshot.id, None)
    if game is None or game.rules != snapshot.rules or game.root != snapshot.root:
        game = _Game(snapshot.rules, snapshot.root)
    game.follow(snapshot.line.paths())
    _cache[snapshot.id] = game
    total = sum(len(cached.paths) + 1 for cached in _cache.values())
    while total > CACHE_PLIES and len(_cache) > 1:
        _, dropped = _cache.popitem(last=False)
        total -= len(dropped.paths) + 1
    return game


def _outcome(board: Board, claimed: bool) -> Outcome | None:
    return board.claim_draw() if claimed else board.outcome()


def _material(position: Position) -> Json:
    counts = {}
    for color in (Color.WHITE, Color.BLACK):
        kings, men = position.material(color)
        counts[str(color)] = {"men": men, "kings": kings}
    return counts


def _state(snapshot: Snapshot, view: View) -> Json:
    """What the page shows of a game: board, FEN, legal moves, line, outcome, material (no id, version, clock)."""
    game = _game(snapshot)
    board = game.at(snapshot.cursor)
    position = board.position
    outcome = _outcome(board, snapshot.claimed)
    last = board.peek() if len(board) else None
    previous = board.positions()[-2] if last is not None else None
    claimable = outcome is None and board.can_claim_draw()
    flipped, numbers = view
    if numbers is None:
        numbers = snapshot.rules.square_names is SquareNames.NUMERIC
    return {
        "variant": variant_json(snapshot.rules),
        "fen": position.fen(),
        "start": board.root().fen(),
        "turn": str(position.turn),
        "ply": snapshot.cursor,
        "plies": len(snapshot.line),
        "fullmove_number": board.fullmove_number,
        "moves": [] if outcome is not None else [move_json(position, move) for move in position.legal_moves()],
        "history": game.history,
        "last_move": None if last is None or previous is None else move_json(previous, last),
        "outcome": outcome_json(outcome, claimed=snapshot.claimed),
        "can_claim_draw": claimable,
        "claim_rule": board.claim_draw().rule if claimable else None,
        "material": _material(position),
        "flipped": flipped,
        "numbers": numbers,
        "svg": svg_board(position, flipped=flipped, square_numbers=numbers, last_move=last, size=BOARD_SIZE),
    }


def game_state(snapshot: Snapshot, view: View) -> Json:
    """``GET /api/games/{id}`` (and every request that only moves the cursor)."""
    return _state(snapshot, view)


def _played(snapshot: Snapshot, move: Move) -> Snapshot:
    """The snapshot after ``move`` at the cursor: the line's next move, or a new end of the line."""
    if snapshot.cursor >= MAX_PLIES:
        raise RequestError(f"the game has reached {MAX_PLIES} plies, the most a session keeps", 409)
    line = snapshot.line
    if not (snapshot.cursor < len(line) and line.path(snapshot.cursor) == move.path):
        line = line.copy()
        line.truncate(snapshot.cursor)
        line.append(move.path)
    return attrs.evolve(snapshot, line=line, cursor=snapshot.cursor + 1, claimed=False)


def _board_for_move(snapshot: Snapshot) -> Board:
    board = _game(snapshot).at(snapshot.cursor)
    outcome = _outcome(board, snapshot.claimed)
    if outcome is not None:
        raise RequestError(f"the game is over ({outcome.rule}, {outcome.result}); undo to play on", 409)
    return board


def game_move(snapshot: Snapshot, text: str | None, path: list[int | str] | None, view: View) -> tuple[Json, Line]:
    """``POST /api/games/{id}/move``: the state after the move, and the new line."""
    board = _board_for_move(snapshot)
    after = _played(snapshot, move_field(board.position, text, path))
    return _state(after, view), after.line


def game_engine(snapshot: Snapshot, level: str, seconds: float, view: View) -> tuple[Json, Json, Line | None]:
    """``POST /api/games/{id}/engine``: the state after the computer's move, the search, the new line."""
    board = _board_for_move(snapshot)
    position = board.position
    result = _search(board.copy(), level, seconds)
    if result.move is None:
        raise RequestError(f"no legal move in {position.fen()}", 409)
    after = _played(snapshot, result.move)
    return _state(after, view), _search_json(position, result, level), after.line


def game_claim(snapshot: Snapshot, view: View) -> Json:
    """``POST /api/games/{id}/claim-draw``: the state ended by the claim."""
    board = _game(snapshot).at(snapshot.cursor)
    if _outcome(board, snapshot.claimed) is not None:
        raise RequestError("the game is already over", 409)
    if not board.can_claim_draw():
        raise RequestError(f"no draw can be claimed in {board.fen()} ({snapshot.rules.name})", 409)
    return _state(attrs.evolve(snapshot, claimed=True), view)


def game_import(snapshot: Snapshot, text: str, rules: Ruleset, view: View) -> Json:
    """``POST /api/games/{id}/pdn``: the game read, as the session keeps it, and its state.

    Returns ``rules``, ``root``, ``line``, ``headers`` and ``state``.
    """
    game = read_pdn(text, rules, _registry)
    moves = game.mainline_moves()
    if len(moves) > MAX_PLIES:
        raise RequestError(f"the game has {len(moves)} plies; a session keeps at most {MAX_PLIES}")
    start = game.position
    root = None if start == Position.initial(game.ruleset) else start.fen()
    line = Line(move.path for move in moves)
    after = Snapshot(snapshot.id, game.ruleset, root, line, len(line), False)
    headers = {name: value for name, value in game.headers.items() if name not in ("GameType", "SetUp", "FEN")}
    return {"rules": game.ruleset, "root": root, "line": line, "headers": headers, "state": _state(after, view)}


def game_export(snapshot: Snapshot, headers: dict[str, str], ended: tuple[Color | None, str] | None) -> str:
    """``GET /api/games/{id}/pdn``: the whole line as PDN, with the result of its end.

    ``ended`` is how the game ended outside the rules (a side lost on time): the winner and the
    Termination tag.
    """
    game = _game(snapshot)
    end = game.board
    if ended is not None:
        result = result_for(snapshot.rules, ended[0])
    else:
        outcome = _outcome(end, snapshot.claimed and snapshot.cursor == len(snapshot.line))
        result = "*" if outcome is None else result_for(snapshot.rules, outcome.winner)
    tags = {"Event": "polydraughts web board", "Date": datetime.date.today().strftime("%Y.%m.%d")}
    tags.update(headers)
    if ended is not None:
        tags["Termination"] = ended[1]
    tags["Result"] = result
    return write_game(Game(snapshot.rules, tags, end.root(), end.move_stack, result))


def read_pdn(text: str, rules: Ruleset, registry: RulesetRegistry) -> Game:
    """The first game of PDN ``text``: under ``rules`` (the board's), unless its tags name others.

    A ``Variant`` tag naming another ruleset the server offers (a custom one too), or a
    ``GameType`` tag of another named variant, decides; a game without either is read under
    ``rules``.

    Raises:
        PDNError: the text holds no game that reads under its rules.
    """
    game: Game | None = None
    failure: PDNError | None = None
    try:
        game = parse_game(text, rules)
        headers = game.headers
    except PDNError as error:
        failure, headers = error, error.headers
    tags = {name.lower(): value for name, value in headers.items()}
    try:
        named = registry.get(tags["variant"]) if "variant" in tags else None
    except UnknownVariantError:
        named = None
    if named is not None and named != rules:
        return parse_game(text, named)
    if game is not None:
        return game
    assert failure is not None
    if "gametype" in tags and isinstance(failure, PDNUnknownVariantError):
        return parse_game(text, None)
    raise failure


def pdn_tree(text: str, rules: Ruleset) -> Json:
    """``POST /api/pdn-tree``: the first game of PDN ``text`` as a move tree (issue 27 §6).

    Returns ``rules`` (the ruleset's name), ``start`` (its FEN), ``nodes``
    (:func:`draughts.pdn.treedata.tree_data`: the main line and every side line, each node with
    its id, parent, children, move, FEN, comment and NAGs), ``headers`` (the game's tags but those
    the rules and the start write), ``result``, ``pdn`` (the tree written back) and
    ``warnings`` (side lines dropped for an illegal move, among others).
    """
    game = read_pdn(text, rules, _registry)
    nodes = tree_data(game)
    return {
        "rules": game.ruleset.name,
        "start": game.position.fen(),
        "nodes": nodes,
        "headers": {name: value for name, value in game.headers.items() if name not in _WRITTEN_TAGS},
        "result": game.result,
        "pdn": write_game(game),
        "warnings": list(game.warnings),
    }


_WRITTEN_TAGS = ("GameType", "SetUp", "FEN")  # the rules and the start write these


def pdn_tree_export(
    rules: Ruleset,
    start: str | None,
    nodes: list[dict[str, object]],
    headers: dict[str, str] | None = None,
    result: str = "*",
) -> Json:
    """``POST /api/pdn-tree/export``: the tree of ``nodes`` (as ``POST /api/pdn-tree`` gives them, with
    the side lines a page added) from ``start`` (a FEN; None: the initial position), as PDN with
    ``headers`` (the loaded game's tags; an ``Event`` tag by default) and ``result``.

    Raises:
        PDNError: a move is not legal at its node, or a NAG is neither ``$N`` nor a mark (the
            message quotes it).
    """
    position = Position.initial(rules) if start is None else Position.from_fen(rules, start)
    game = tree_from_data(position, nodes)
    tags = {"Event": "polydraughts web board"}
    tags.update({name: value for name, value in (headers or {}).items() if name not in _WRITTEN_TAGS})
    if "Result" in tags:
        tags["Result"] = result  # the tag and the movetext's end agree
    game.headers, game.result = tags, result
    return {"pdn": write_game(game)}
