"""The web app: two pages (the board, the comparison) and the JSON API under them.

Built on Starlette; :func:`create_app` returns an ASGI application that any ASGI server runs
(``draughts serve`` uses uvicorn). See ``docs/web.rst`` for the API reference.

Safety, as the app enforces it:

* every request field is checked (:mod:`draughts.web.views`), errors are JSON ``{"error", "status"}``
  with a 4xx status whose message quotes the bad input, and an unexpected failure is a 500 for that
  request only;
* request bodies are read up to ``max_body`` bytes (413 beyond), JSON bodies only (415 otherwise);
* engine searches run off the event loop, bounded in time and number (:mod:`draughts.web.search`);
* games expire (:class:`~draughts.web.sessions.SessionStore`);
* no request reads or writes a file: the page assets are loaded into memory when the app is made,
  PDN comes and goes as text;
* the ``Host`` header must name this machine when the server listens on a loopback address (no
  DNS rebinding), and every response carries a strict Content-Security-Policy.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import importlib.resources
import json
import logging
import string
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from draughts import __version__
from draughts.board import Board
from draughts.engine import LEVELS, Level, SearchResult, get_level, line_text
from draughts.errors import DraughtsError, PDNError, UnknownVariantError
from draughts.geometry import SquareNames
from draughts.pdn import Game, PDNUnknownVariantError, read_game
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.svg import board as svg_board
from draughts.web.rulesets import RulesetRegistry, rulesets_tuple
from draughts.web.search import SearchRunner
from draughts.web.sessions import GameSession, SessionStore
from draughts.web.views import (
    MAX_FEN,
    Json,
    RequestError,
    bool_field,
    compare_json,
    fen_field,
    int_field,
    move_field,
    move_json,
    number_field,
    rules_json,
    text_field,
    variant_json,
)

__all__ = ["Settings", "create_app"]

log = logging.getLogger("draughts.web")

_LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
_SECURITY_HEADERS = [
    (b"content-security-policy", _CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".html": "text/html"}
_MAX_PDN = 60_000


@attrs.frozen
class Settings:
    """How one web app behaves.

    Attributes:
        default_variant: The ruleset ``/`` opens without ``?variant=``.
        custom: The user's rulesets (from the command line), offered next to the named ones.
        allowed_hosts: Host names the ``Host`` header may carry; None accepts any (a server bound
            to a loopback address passes the loopback names).
        max_body: Largest request body, in bytes.
        session_ttl: Seconds a game lives after its last request.
        max_sessions: Most games kept at once.
        engine_workers: Searches that run at once.
        engine_queue: Searches that may wait for a worker.
        max_engine_time: Longest search a request may ask for, in seconds.
        default_engine_time: The search time when a request does not say.
    """

    default_variant: Ruleset | str = "international"
    custom: tuple[Ruleset, ...] = attrs.field(default=(), converter=rulesets_tuple)
    allowed_hosts: tuple[str, ...] | None = None
    max_body: int = 128 * 1024
    session_ttl: float = 3600.0
    max_sessions: int = 1000
    engine_workers: int = 2
    engine_queue: int = 8
    max_engine_time: float = 10.0
    default_engine_time: float = 1.5


# --- request reading ----------------------------------------------------------------------------


async def _body(request: Request, limit: int) -> bytes:
    """The request body, refused past ``limit`` bytes without reading the rest."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit() or len(declared) > 18:
            raise RequestError(f"bad Content-Length {declared[:40]!r}")
        if int(declared) > limit:
            raise RequestError(f"request body of {int(declared):,} bytes is larger than {limit:,} bytes", 413)
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise RequestError(f"request body is larger than {limit:,} bytes", 413)
            chunks.append(chunk)
    except ClientDisconnect:
        raise RequestError("the client went away", 400) from None
    return b"".join(chunks)


async def _params(request: Request, limit: int) -> dict[str, Any]:
    """The request's fields: the query string, then a JSON object body (which wins)."""
    data: dict[str, Any] = dict(request.query_params)
    if request.method in ("GET", "HEAD", "DELETE"):
        return data
    body = await _body(request, limit)
    if not body.strip():
        return data
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise RequestError(f"request bodies are JSON: Content-Type {kind[:60]!r} is not application/json", 415)
    try:
        parsed = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise RequestError(f"the body is not JSON ({error}): {body[:60]!r}") from None
    except RecursionError:
        raise RequestError("the body is JSON nested too deeply") from None
    if not isinstance(parsed, dict):
        raise RequestError(f"the body must be a JSON object, not {type(parsed).__name__}: {body[:60]!r}")
    data.update(parsed)
    return data


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={"cache-control": "no-store"})


def _error(message: str, status: int) -> JSONResponse:
    return _json({"error": message, "status": status}, status)


# --- the app ------------------------------------------------------------------------------------


class _Web:
    """The app's state and its request handlers."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.registry = RulesetRegistry(settings.custom)
        default = settings.default_variant
        if isinstance(default, Ruleset):
            if self.registry.is_custom(default) and default not in self.registry.menu():
                self.registry = RulesetRegistry((*settings.custom, default))
            self.default = default
        else:
            self.default = self.registry.get(default)
        self.sessions = SessionStore(settings.session_ttl, settings.max_sessions)
        self.runner = SearchRunner(settings.engine_workers, settings.engine_queue, settings.max_engine_time)
        self.assets = _load_assets()
        self.templates = {name: _template(name) for name in ("board.html", "compare.html", "error.html")}

    # --- helpers ---

    async def params(self, request: Request) -> dict[str, Any]:
        return await _params(request, self.settings.max_body)

    def variant(self, data: Mapping[str, Any], name: str = "variant") -> Ruleset:
        text = text_field(data, name, required=False)
        return self.default if text is None or not text.strip() else self.registry.get(text)

    def level_and_time(self, data: Mapping[str, Any]) -> tuple[Level, float]:
        level_name = text_field(data, "level", required=False) or "intermediate"
        level = get_level(level_name)
        seconds = number_field(data, "time", self.settings.default_engine_time, 0, self.settings.max_engine_time)
        return level, seconds

    def session(self, request: Request) -> GameSession:
        return self.sessions.get(str(request.path_params["game_id"]))

    def state(self, session: GameSession, data: Mapping[str, Any], status: int = 200, **extra: Any) -> JSONResponse:
        numbers_default = session.rules.square_names is SquareNames.NUMERIC
        state = session.state(
            flipped=bool_field(data, "flipped"),
            numbers=bool_field(data, "numbers", numbers_default),
        )
        state.update(extra)
        return _json(state, status)

    @staticmethod
    def check_version(session: GameSession, data: Mapping[str, Any]) -> None:
        if data.get("version") is None:
            return
        version = int_field(data, "version", 0, 2**62)
        if version != session.version:
            raise RequestError(
                f"the game has changed (it is at version {session.version}, the request saw {version}); reload it", 409
            )

    # --- pages ---

    async def board_page(self, request: Request) -> Response:
        data = dict(request.query_params)
        try:
            rules = self.variant(data)
            position = fen_field(data, rules) or Position.initial(rules)
            flipped = bool_field(data, "flipped")
            numbers = bool_field(data, "numbers", rules.square_names is SquareNames.NUMERIC)
            players = {}
            for side in ("white", "black"):
                player = text_field(data, side, required=False) or "human"
                if player not in ("human", "computer"):
                    raise RequestError(f"{side} {player!r} must be 'human' or 'computer'")
                players[side] = player
            level, seconds = self.level_and_time(data)
        except DraughtsError as error:
            return self.error_page(str(error), getattr(error, "status", 400))
        config = {
            "variant": variant_json(rules, custom=self.registry.is_custom(rules)),
            "fen": text_field(data, "fen", required=False, limit=MAX_FEN) or None,
            "flipped": flipped,
            "numbers": numbers,
            "players": players,
            "level": level.name,
            "time": seconds,
            "max_time": self.settings.max_engine_time,
        }
        picture = svg_board(position, flipped=flipped, square_numbers=numbers, size=560)
        return self.page(
            "board.html",
            title=f"{rules.title} — polydraughts",
            heading=rules.title,
            config=_script_json(config),
            svg=picture,
            fen=html.escape(position.fen()),
            variant_options=self.variant_options(rules.name),
            level_options=_options([(name, name) for name in LEVELS], level.name),
        )

    async def compare_page(self, request: Request) -> Response:
        data = dict(request.query_params)
        names = [name for name in (data.get("variants") or "").split(",") if name.strip()]
        if len(names) > 12:
            return self.error_page(f"at most 12 variants at once, not {len(names)}", 400)
        try:
            chosen = [self.registry.get(name).name for name in names]
            text_field(data, "fen", required=False, limit=MAX_FEN)
        except DraughtsError as error:
            return self.error_page(str(error), 400)
        menu = self.registry.menu()
        boxes = "\n".join(
            f'<label class="choice"><input type="checkbox" name="variant" value="{html.escape(rules.name)}"'
            f"{' checked' if rules.name in chosen else ''}> {html.escape(rules.title)}"
            f' <span class="name">{html.escape(rules.name)}</span></label>'
            for rules in menu
        )
        config = {"variants": chosen, "fen": data.get("fen") or "", "all": bool_field(data, "all")}
        return self.page(
            "compare.html", title="Compare variants — polydraughts", config=_script_json(config), boxes=boxes
        )

    def variant_options(self, selected: str) -> str:
        return _options([(rules.name, rules.title) for rules in self.registry.menu()], selected)

    def page(self, name: str, **values: str) -> HTMLResponse:
        text = self.templates[name].substitute(version=__version__, **values)
        return HTMLResponse(text, headers={"cache-control": "no-store"})

    def error_page(self, message: str, status: int) -> HTMLResponse:
        text = self.templates["error.html"].substitute(
            version=__version__, status=str(status), message=html.escape(message)
        )
        return HTMLResponse(text, status_code=status)

    async def asset(self, request: Request) -> Response:
        name = str(request.path_params["name"])
        found = self.assets.get(name)
        if found is None:
            return _error(f"no asset {name[:60]!r}", 404)
        body, kind, etag = found
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers={"etag": etag})
        return Response(body, media_type=kind, headers={"etag": etag, "cache-control": "no-cache"})

    # --- stateless API ---

    async def api_index(self, request: Request) -> Response:
        return _json({"version": __version__, "endpoints": [f"{method} {path}" for method, path, _ in _API]})

    async def api_variants(self, request: Request) -> Response:
        return _json(
            {
                "default": self.default.name,
                "variants": [
                    variant_json(rules, custom=self.registry.is_custom(rules)) for rules in self.registry.menu()
                ],
                "levels": [{"name": level.name, "description": level.description} for level in LEVELS.values()],
                "max_time": self.settings.max_engine_time,
            }
        )

    async def api_rules(self, request: Request) -> Response:
        data = await self.params(request)
        rules = self.variant(data)
        return _json(rules_json(rules, custom=self.registry.is_custom(rules)))

    async def api_legal_moves(self, request: Request) -> Response:
        data = await self.params(request)
        rules = self.variant(data)
        position = fen_field(data, rules) or Position.initial(rules)
        moves = [move_json(position, move) for move in position.legal_moves()]
        return _json({"variant": rules.name, "fen": position.fen(), "turn": str(position.turn), "moves": moves})

    async def api_play(self, request: Request) -> Response:
        data = await self.params(request)
        rules = self.variant(data)
        position = fen_field(data, rules, required=True)
        assert position is not None
        move = move_field(data, position)
        after = position.play(move)
        return _json(
            {
                "variant": rules.name,
                "move": move_json(position, move),
                "fen": after.fen(),
                "turn": str(after.turn),
                "legal_moves": len(after.legal_moves()),
            }
        )

    async def api_engine_move(self, request: Request) -> Response:
        data = await self.params(request)
        rules = self.variant(data)
        position = fen_field(data, rules, required=True)
        assert position is not None
        level, seconds = self.level_and_time(data)
        result = await self.runner.search(Board.from_position(position), level, seconds)
        return _json(_search_json(position, result, level.name))

    async def api_compare(self, request: Request) -> Response:
        data = await self.params(request)
        names = data.get("variants")
        if isinstance(names, str):
            names = [name for name in names.split(",") if name.strip()]
        if not isinstance(names, list) or not 2 <= len(names) <= 12:
            raise RequestError(f"field 'variants' must list 2 to 12 variant names, not {str(names)[:80]!r}")
        rulesets = [self.registry.get(name) for name in names]
        fen = text_field(data, "fen", required=False, limit=MAX_FEN)
        return _json(compare_json(rulesets, fen, all_rows=bool_field(data, "all")))

    # --- games ---

    async def game_create(self, request: Request) -> Response:
        data = await self.params(request)
        rules = self.variant(data)
        fen = text_field(data, "fen", required=False, limit=MAX_FEN)
        session = self.sessions.create(rules, fen.strip() if fen and fen.strip() else None)
        return self.state(session, data, 201)

    async def game_get(self, request: Request) -> Response:
        data = await self.params(request)
        return self.state(self.session(request), data)

    async def game_delete(self, request: Request) -> Response:
        self.sessions.delete(str(request.path_params["game_id"]))
        return Response(status_code=204)

    async def game_move(self, request: Request) -> Response:
        data = await self.params(request)
        session = self.session(request)
        self.check_version(session, data)
        session.play(move_field(data, session.board.position))
        return self.state(session, data)

    async def game_undo(self, request: Request) -> Response:
        data = await self.params(request)
        session = self.session(request)
        self.check_version(session, data)
        session.undo()
        return self.state(session, data)

    async def game_redo(self, request: Request) -> Response:
        data = await self.params(request)
        session = self.session(request)
        self.check_version(session, data)
        session.redo()
        return self.state(session, data)

    async def game_goto(self, request: Request) -> Response:
        data = await self.params(request)
        session = self.session(request)
        self.check_version(session, data)
        session.goto(int_field(data, "ply", 0, len(session.line)))
        return self.state(session, data)

    async def game_claim(self, request: Request) -> Response:
        data = await self.params(request)
        session = self.session(request)
        self.check_version(session, data)
        session.claim_draw()
        return self.state(session, data)

    async def game_position(self, request: Request) -> Response:
        data = await self.params(request)
        session = self.session(request)
        rules = self.variant(data) if data.get("variant") else session.rules
        fen = text_field(data, "fen", required=False, limit=MAX_FEN)
        session.reset(rules, fen.strip() if fen and fen.strip() else None)
        return self.state(session, data)

    async def game_engine(self, request: Request) -> Response:
        data = await self.params(request)
        session = self.session(request)
        self.check_version(session, data)
        level, seconds = self.level_and_time(data)
        outcome = session.outcome()
        if outcome is not None:
            raise RequestError(f"the game is over ({outcome.rule}, {outcome.result})", 409)
        version = session.version
        position = session.board.position
        result = await self.runner.search(session.board, level, seconds)
        session = self.sessions.get(session.id)
        if session.version != version:
            raise RequestError("the game changed while the engine was thinking; its move was dropped", 409)
        if result.move is None:
            raise RequestError(f"no legal move in {position.fen()}", 409)
        info = _search_json(position, result, level.name)
        session.play(result.move)
        return self.state(session, data, engine=info)

    async def game_pdn_export(self, request: Request) -> Response:
        session = self.session(request)
        text = session.export_pdn()
        return _json({"pdn": text, "filename": f"{session.rules.name}-game.pdn"})

    async def game_pdn_import(self, request: Request) -> Response:
        data = await self.params(request)
        session = self.session(request)
        text = text_field(data, "pdn", limit=_MAX_PDN)
        assert text is not None
        rules = self.variant(data) if data.get("variant") else session.rules
        # Reading replays every move: off the event loop, like a search (the text is bounded).
        game = await run_in_threadpool(read_pdn, text, rules, self.registry)
        session = self.sessions.get(session.id)
        session.load_game(game)
        return self.state(session, data)


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
        game = read_game(text, rules)
        headers = game.headers
    except PDNError as error:
        failure, headers = error, error.headers
    tags = {name.lower(): value for name, value in headers.items()}
    try:
        named = registry.get(tags["variant"]) if "variant" in tags else None
    except UnknownVariantError:
        named = None
    if named is not None and named != rules:
        return read_game(text, named)
    if game is not None:
        return game
    assert failure is not None
    if "gametype" in tags and isinstance(failure, PDNUnknownVariantError):
        return read_game(text, None)
    raise failure


def _search_json(position: Position, result: SearchResult, level: str) -> Json:
    if result.move is None:
        return {"move": None, "fen": position.fen(), "level": level, "score": result.score, "depth": 0, "nodes": 0}
    return {
        "move": move_json(position, result.move),
        "fen": position.play(result.move).fen(),
        "level": level,
        "score": result.score,
        "mate_in": result.mate_in,
        "depth": result.depth,
        "nodes": result.nodes,
        "pv": line_text(position, result.pv),
    }


def _script_json(value: Any) -> str:
    """JSON safe inside a ``<script type="application/json">`` element."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _options(items: Sequence[tuple[str, str]], selected: str) -> str:
    return "\n".join(
        f'<option value="{html.escape(value)}"{" selected" if value == selected else ""}>{html.escape(label)}</option>'
        for value, label in items
    )


def _template(name: str) -> string.Template:
    text = importlib.resources.files("draughts.web").joinpath("templates").joinpath(name).read_text(encoding="utf-8")
    return string.Template(text)


def _load_assets() -> dict[str, tuple[bytes, str, str]]:
    """Every file of ``static/``, read once: requests never touch the file system."""
    assets = {}
    folder = importlib.resources.files("draughts.web").joinpath("static")
    for item in folder.iterdir():
        suffix = "." + item.name.rsplit(".", 1)[-1]
        if item.is_file() and suffix in _TYPES:
            body = item.read_bytes()
            etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
            assets[item.name] = (body, f"{_TYPES[suffix]}; charset=utf-8", etag)
    return assets


# --- guards around every request ----------------------------------------------------------------


class _Guard:
    """Refuses a foreign Host header (when configured) and adds the security headers."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...] | None) -> None:
        self.app = app
        self.allowed = None if allowed_hosts is None else {host.lower() for host in allowed_hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.allowed is not None:
            host = _host_name(dict(scope["headers"]).get(b"host", b"").decode("latin-1"))
            if host not in self.allowed:
                response = _error(f"Host {host[:60]!r} is not this server's name", 400)
                await self._send_guarded(response, scope, receive, send)
                return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)

    @staticmethod
    async def _send_guarded(response: Response, scope: Scope, receive: Receive, send: Send) -> None:
        response.headers.update({name.decode(): value.decode() for name, value in _SECURITY_HEADERS})
        await response(scope, receive, send)


def _host_name(header: str) -> str:
    """The host of a Host header, without port or IPv6 brackets."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def loopback_hosts(host: str) -> tuple[str, ...] | None:
    """The Host names to accept for a server bound to ``host``: the loopback names, or any for others."""
    if host in _LOOPBACK_HOSTS or host.startswith("127."):
        return (*_LOOPBACK_HOSTS, host)
    return None


# --- assembly -----------------------------------------------------------------------------------

Handler = Callable[[_Web, Request], Awaitable[Response]]

_API: list[tuple[str, str, Handler]] = [
    ("GET", "/api", _Web.api_index),
    ("GET", "/api/variants", _Web.api_variants),
    ("GET", "/api/rules", _Web.api_rules),
    ("GET", "/api/legal-moves", _Web.api_legal_moves),
    ("POST", "/api/legal-moves", _Web.api_legal_moves),
    ("POST", "/api/play", _Web.api_play),
    ("POST", "/api/engine-move", _Web.api_engine_move),
    ("GET", "/api/compare", _Web.api_compare),
    ("POST", "/api/compare", _Web.api_compare),
    ("POST", "/api/games", _Web.game_create),
    ("GET", "/api/games/{game_id}", _Web.game_get),
    ("DELETE", "/api/games/{game_id}", _Web.game_delete),
    ("POST", "/api/games/{game_id}/move", _Web.game_move),
    ("POST", "/api/games/{game_id}/undo", _Web.game_undo),
    ("POST", "/api/games/{game_id}/redo", _Web.game_redo),
    ("POST", "/api/games/{game_id}/goto", _Web.game_goto),
    ("POST", "/api/games/{game_id}/engine", _Web.game_engine),
    ("POST", "/api/games/{game_id}/claim-draw", _Web.game_claim),
    ("POST", "/api/games/{game_id}/position", _Web.game_position),
    ("GET", "/api/games/{game_id}/pdn", _Web.game_pdn_export),
    ("POST", "/api/games/{game_id}/pdn", _Web.game_pdn_import),
]


def _routes(web: _Web) -> list[Route]:
    by_path: dict[str, dict[str, Handler]] = {}
    for method, path, handler in _API:
        by_path.setdefault(path, {})[method] = handler

    def endpoint(handlers: dict[str, Handler]) -> Callable[[Request], Awaitable[Response]]:
        async def run(request: Request) -> Response:
            method = "GET" if request.method == "HEAD" else request.method
            return await handlers[method](web, request)

        return run

    routes = [Route(path, endpoint(handlers), methods=list(handlers)) for path, handlers in by_path.items()]
    routes += [
        Route("/", web.board_page, methods=["GET"]),
        Route("/compare", web.compare_page, methods=["GET"]),
        Route("/static/{name}", web.asset, methods=["GET"]),
    ]
    return routes


def create_app(settings: Settings | None = None, **options: Any) -> Starlette:
    """The web board as an ASGI app.

    >>> from starlette.testclient import TestClient
    >>> client = TestClient(create_app(default_variant="russian"))
    >>> client.get("/api/legal-moves", params={"fen": "W:WKd2:Bc5,e5,c3,e3"}).json()["moves"][0]["long"]
    'd2:b4:d6:f4:d2'
    >>> response = client.post("/api/play", json={"fen": "W:Wc3:Bf6", "move": "c3-e5"})
    >>> response.status_code, response.json()["error"]
    (400, "move 'c3-e5' is not legal in W:Wc3:Bf6 (russian); legal moves: c3-b4, c3-d4")

    Args:
        settings: The settings; or give their fields as keyword arguments.

    Raises:
        UnknownVariantError: the default variant is unknown, or the custom rulesets clash.
    """
    if settings is None:
        settings = Settings(**options)
    elif options:
        settings = attrs.evolve(settings, **options)
    web = _Web(settings)

    async def draughts_error(request: Request, error: Exception) -> Response:
        status = getattr(error, "status", 400)
        return _error(str(error), status)

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        if error.status_code == 405:
            return _error(f"{request.method} is not allowed on {request.url.path[:80]}", 405)
        return _error(f"nothing at {request.url.path[:80]!r}", error.status_code)

    async def server_error(request: Request, error: Exception) -> Response:
        log.exception("unexpected error answering %s %s", request.method, request.url.path)
        return _error(f"internal error ({type(error).__name__}); the server goes on", 500)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        web.runner.shutdown()

    app = Starlette(
        routes=_routes(web),
        exception_handlers={DraughtsError: draughts_error, HTTPException: http_error, Exception: server_error},
        lifespan=lifespan,
    )
    app.state.web = web
    app.add_middleware(_Guard, allowed_hosts=settings.allowed_hosts)
    return app
