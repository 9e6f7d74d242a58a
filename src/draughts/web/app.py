"""The web app: two pages (the board, the comparison) and the JSON API under them.

Built on Starlette; :func:`create_app` returns an ASGI application that any ASGI server runs
(``draughts serve`` uses uvicorn, with the timeouts of :mod:`draughts.web.server`). See
``docs/web.rst`` for the API reference.

The safety it enforces (checked fields, bounded bodies, work in bounded worker processes, no
file written, escaped pages, loopback ``Host`` names, a strict Content-Security-Policy) is
described in ``docs/web.rst``, section Safety.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.resources
import logging
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from draughts import __version__
from draughts.color import Color
from draughts.engine import LEVELS
from draughts.errors import DraughtsError, ServeError
from draughts.pdn import result_for
from draughts.rules import Ruleset
from draughts.rules.geometry import SquareNames
from draughts.web import endgame, explorer, lab, tasks
from draughts.web.bodies import read_params
from draughts.web.clock import GameClock
from draughts.web.fields import endpoint_fields, named_level, read_fields
from draughts.web.lab import LabJobs, LabSettings
from draughts.web.openings import ballots_json, opening_pdn
from draughts.web.pages import Markup, Templates, options, script_json
from draughts.web.rulesets import CAPTURES, GOALS, RulesetRegistry, variation
from draughts.web.sessions import MAX_PLIES, GameSession, SessionStore
from draughts.web.settings import Settings, host_name
from draughts.web.tasks import read_pdn as read_pdn
from draughts.web.views import Json, RequestError, fen_example, rules_json, variant_json
from draughts.web.workers import REQUEST_CLIENT, WorkerPool

__all__ = ["create_app"]

log = logging.getLogger("draughts.web")

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
_ENGINE_GRACE = 1.0  # seconds a search may overrun its time before it is asked to stop
_ENGINE_HARD = 2.0  # then seconds more before its worker is killed
_TIME_CONTROLS = ("none", "1+0", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "30+0")


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={"cache-control": "no-store"})


def _error(message: str, status: int) -> JSONResponse:
    return _json({"error": message, "status": status}, status)


# --- the app ------------------------------------------------------------------------------------


class _Web:
    """The app's state and its request handlers."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        if settings.tablebases is not None and not Path(settings.tablebases).is_dir():
            raise ServeError(f"the tablebases directory {settings.tablebases!r} is not a directory")
        self.registry = RulesetRegistry(settings.custom)
        default = settings.default_variant
        if isinstance(default, Ruleset):
            if self.registry.is_custom(default) and default not in self.registry.menu():
                self.registry = RulesetRegistry((*settings.custom, default))
            self.default = default
        else:
            self.default = self.registry.get(default)
        self.now = settings.clock or time.monotonic
        self.sessions = SessionStore(
            settings.session_ttl, settings.max_sessions, clock=self.now, memory=settings.session_memory
        )
        setup = (tasks.setup, (self.registry.custom,))
        self.work = WorkerPool(
            settings.workers,
            queue=settings.work_queue,
            budget=settings.work_time,
            extra=settings.extra_workers,
            memory=settings.worker_memory,
            setup=setup[0],
            setup_args=setup[1],
            name="rules",
        )
        self.engine = WorkerPool(
            settings.engine_workers,
            queue=settings.engine_queue,
            budget=settings.max_engine_time + _ENGINE_GRACE + _ENGINE_HARD,
            memory=settings.worker_memory,
            setup=setup[0],
            setup_args=setup[1],
            name="engine",
        )
        self.lab_pool = WorkerPool(
            settings.lab_workers, queue=2 * settings.lab_jobs, budget=30.0, memory=settings.worker_memory, name="lab"
        )
        self.labs = LabJobs(
            self.lab_pool, self.now, running=settings.lab_jobs, ttl=settings.lab_ttl, idle=settings.lab_idle
        )
        self.fields = endpoint_fields(LEVELS, settings.max_engine_time, MAX_PLIES)
        self.assets = _load_assets()
        self.templates = Templates()
        self.listing = self._listing()
        self.forms, self.picks = self._variations()

    def close(self) -> None:
        """End the worker processes."""
        self.labs.close()
        self.work.close()
        self.engine.close()
        self.lab_pool.close()

    # --- helpers ---

    async def read(self, request: Request, endpoint: str) -> dict[str, Any]:
        """The request's fields, checked against what ``endpoint`` takes."""
        data = await read_params(request, self.settings.max_body)
        return read_fields(self.fields[endpoint], data, what=f"{request.method} {request.url.path[:60]}")

    async def forget(self, request: Request, forget: Callable[[str], None], key: str) -> Response:
        """A ``DELETE``: what the path's ``key`` names forgotten (a lab job cancelled, a game
        deleted), answered with no content."""
        await self.read(request, "none")
        forget(str(request.path_params[key]))
        return Response(status_code=204)

    def variant(self, name: str | None) -> Ruleset:
        return self.default if name is None or not name.strip() else self.registry.get(name)

    def engine_time(self, fields: Mapping[str, Any]) -> tuple[str, float]:
        level = fields["level"] or named_level(fields) or "intermediate"
        return level, fields["time"] or self.settings.default_engine_time

    async def search(
        self, function: Callable[..., Any], args: tuple[Any, ...], seconds: float, affinity: str | None
    ) -> Any:
        """A search job of ``seconds``: asked to stop a little after them, killed if it still runs."""
        budget, soft = seconds + _ENGINE_GRACE + _ENGINE_HARD, seconds + _ENGINE_GRACE
        return await self.engine.run(function, *args, budget=budget, soft=soft, affinity=affinity)

    # --- sessions ---

    def session(self, request: Request) -> GameSession:
        return self.sessions.get(str(request.path_params["game_id"]))

    @staticmethod
    def view(fields: Mapping[str, Any]) -> tuple[bool, bool | None]:
        return fields["flipped"], fields["numbers"]

    def check_version(self, session: GameSession, fields: Mapping[str, Any]) -> None:
        """Refuse a request made on an older state of the game (when it says which it saw)."""
        self.tick(session)
        version = fields.get("version")
        if version is not None and version != session.version:
            raise RequestError(
                f"the game has changed (it is at version {session.version}, the request saw {version}); reload it", 409
            )

    def tick(self, session: GameSession) -> None:
        """Let the game's clock see the time: a flag that has fallen ends the game."""
        if session.clock is not None and session.clock.flagged is None and session.clock.check(self.now()):
            session.changed()

    def refuse_if_flagged(self, session: GameSession) -> None:
        clock = session.clock
        if clock is not None and clock.flagged is not None:
            raise RequestError(f"the game is over: {clock.flagged}'s time ran out", 409)

    def current(self, session: GameSession, version: int) -> GameSession:
        """The session again after awaiting a worker: refused if it changed (or went) meanwhile."""
        now = self.sessions.get(session.id)
        if now is not session or session.version != version:
            raise RequestError("the game changed while this request was answered; reload it", 409)
        return session

    def answer(self, session: GameSession, state: Json, status: int = 200, **extra: Any) -> JSONResponse:
        """The page's state of ``session``: the worker's ``state`` with the id, version and clock."""
        state = {"id": session.id, "version": session.version, **state, **extra}
        clock = session.clock
        state["clock"] = None if clock is None else clock.json(self.now())
        if clock is not None and clock.flagged is not None:
            winner = clock.flagged.opponent
            state["moves"], state["can_claim_draw"], state["claim_rule"] = [], False, None
            state["outcome"] = {
                "termination": "time forfeit",
                "winner": str(winner),
                "rule": f"{clock.flagged}'s time ran out",
                "result": result_for(session.rules, winner),
                "claimed": False,
            }
        return _json(state, status)

    async def render(self, session: GameSession, fields: Mapping[str, Any], status: int = 200) -> JSONResponse:
        """Answer with the session's state as it stands."""
        state = await self.work.run(tasks.game_state, session.snapshot(), self.view(fields), affinity=session.id)
        return self.answer(self.sessions.get(session.id), state, status)

    def clock_after_move(self, session: GameSession, state: Json, played: float) -> None:
        clock = session.clock
        if clock is not None:
            mover = Color.WHITE if state["history"][session.cursor - 1]["side"] == "white" else Color.BLACK
            clock.moved(mover, played, self.now(), session.cursor, over=state["outcome"] is not None)

    def clock_after_jump(self, session: GameSession, state: Json) -> None:
        clock = session.clock
        if clock is not None and clock.flagged is None:
            turn = Color.WHITE if state["turn"] == "white" else Color.BLACK
            clock.went_to(session.cursor, turn, self.now(), over=state["outcome"] is not None)

    # --- pages ---

    async def board_page(self, request: Request) -> Response:
        try:
            fields = read_fields(self.fields["board-page"], dict(request.query_params), what="the board page")
            rules = self.variant(fields["variant"])
            numbers = fields["numbers"]
            if numbers is None:
                numbers = rules.square_names is SquareNames.NUMERIC
            picture, fen = await self.work.run(tasks.board_picture, rules, fields["fen"], fields["flipped"], numbers)
        except DraughtsError as error:
            return self.error_page(str(error), getattr(error, "status", 400))
        level, seconds = self.engine_time(fields)
        clock = fields["clock"]
        control = "none" if clock is None else f"{clock[0] / 60:g}+{clock[1]:g}"
        config = {
            "variant": variant_json(rules, custom=self.registry.is_custom(rules)),
            "fen": fields["fen"] or None,
            "flipped": fields["flipped"],
            "numbers": numbers,
            "players": {side: "human" if fields[side].is_human else "computer" for side in ("white", "black")},
            "level": level,
            "time": seconds,
            "max_time": self.settings.max_engine_time,
            "clock": control,
            "endgame": self.settings.tablebases is not None,
            "explorer": self.settings.database is not None,
        }
        controls = list(_TIME_CONTROLS) if control in _TIME_CONTROLS else [*_TIME_CONTROLS, control]
        return self.page(
            "board.html",
            title=f"{rules.title} — polydraughts",
            heading=rules.title,
            config=script_json(config),
            svg=Markup(picture),
            fen=fen,
            fen_placeholder=f"FEN, e.g. {fen_example(rules)}",
            variant_options=options([(item.name, item.title) for item in self.registry.menu()], rules.name),
            level_options=options([(name, name) for name in LEVELS], level),
            clock_options=options([(item, "untimed" if item == "none" else item) for item in controls], control),
        )

    async def compare_page(self, request: Request) -> Response:
        try:
            fields = read_fields(self.fields["compare-page"], dict(request.query_params), what="the compare page")
            chosen = [self.registry.get(name) for name in fields["variants"] or ()]
        except DraughtsError as error:
            return self.error_page(str(error), 400)
        picks = [self.pick(rules) for rules in chosen] or [self.pick(self.default), self.pick(self.default)]
        config = {
            "cards": picks,
            "bases": [{"name": rules.name, "title": rules.title} for rules in self.registry.bases()],
            "forms": self.forms,
            "fen": fields["fen"] or "",
            "all": fields["all"],
            "compare": len(chosen) >= 2,
            "lab": {
                "players": list(lab.PLAYERS),
                "max_games": lab.MAX_GAMES,
                "max_total": lab.MAX_TOTAL,
                "max_rulesets": lab.MAX_RULESETS,
                "max_plies": lab.MAX_PLIES,
            },
        }
        return self.page("compare.html", title="Compare variants — polydraughts", config=script_json(config))

    def _variations(self) -> tuple[dict[str, dict[str, str]], dict[Ruleset, Json]]:
        """For the compare page's picker: each base ruleset's variations by name
        (``forms[base][capture + "/" + goal]``), and how each variation is picked."""
        forms: dict[str, dict[str, str]] = {}
        picks: dict[Ruleset, Json] = {}
        for base in self.registry.bases():
            forms[base.name] = {}
            for capture in CAPTURES:
                for goal in GOALS:
                    rules = variation(base, capture, goal)
                    forms[base.name][f"{capture}/{goal}"] = rules.name
                    picks.setdefault(rules, {"base": base.name, "capture": capture, "goal": goal, "name": rules.name})
        return forms, picks

    def pick(self, rules: Ruleset) -> Json:
        """The compare page's row for ``rules``: its base ruleset and variation, or the ruleset itself."""
        return self.picks.get(rules) or {"base": rules.name, "capture": "forced", "goal": "normal", "name": rules.name}

    def page(self, name: str, **values: str) -> HTMLResponse:
        return HTMLResponse(
            self.templates.render(name, version=__version__, **values), headers={"cache-control": "no-store"}
        )

    def error_page(self, message: str, status: int) -> HTMLResponse:
        text = self.templates.render("error.html", version=__version__, status=str(status), message=message)
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

    def _listing(self) -> Json:
        return {
            "default": self.default.name,
            "variants": [variant_json(rules, custom=self.registry.is_custom(rules)) for rules in self.registry.menu()],
            "levels": [{"name": level.name, "description": level.description} for level in LEVELS.values()],
            "max_time": self.settings.max_engine_time,
            "time_controls": list(_TIME_CONTROLS),
        }

    async def api_index(self, request: Request) -> Response:
        await self.read(request, "none")
        return _json({"version": __version__, "endpoints": [f"{method} {path}" for method, path, _ in _API]})

    async def api_variants(self, request: Request) -> Response:
        await self.read(request, "none")
        return _json(self.listing)

    async def api_rules(self, request: Request) -> Response:
        fields = await self.read(request, "rules")
        rules = self.variant(fields["variant"])
        return _json(rules_json(rules, custom=self.registry.is_custom(rules)))

    async def api_legal_moves(self, request: Request) -> Response:
        fields = await self.read(request, "legal-moves")
        return _json(await self.work.run(tasks.legal_moves, self.variant(fields["variant"]), fields["fen"]))

    async def api_play(self, request: Request) -> Response:
        fields = await self.read(request, "play")
        rules = self.variant(fields["variant"])
        return _json(await self.work.run(tasks.play, rules, fields["fen"], fields["move"], fields["path"]))

    async def api_pdn_tree(self, request: Request) -> Response:
        fields = await self.read(request, "pdn-tree")
        rules = self.variant(fields["variant"])
        return _json(await self.work.run(tasks.pdn_tree, fields["pdn"], rules))

    async def api_pdn_tree_export(self, request: Request) -> Response:
        fields = await self.read(request, "pdn-tree-export")
        rules = self.variant(fields["variant"])
        args = (rules, fields["start"], fields["nodes"], fields["headers"], fields["result"])
        return _json(await self.work.run(tasks.pdn_tree_export, *args))

    async def api_engine_move(self, request: Request) -> Response:
        fields = await self.read(request, "engine-move")
        rules = self.variant(fields["variant"])
        level, seconds = self.engine_time(fields)
        args = (rules, fields["fen"], level, seconds)
        return _json(await self.search(tasks.engine_move, args, seconds, affinity=None))

    async def api_analyse(self, request: Request) -> Response:
        fields = await self.read(request, "analyse")
        rules = self.variant(fields["variant"])
        seconds = fields["time"] or self.settings.default_engine_time
        args = (rules, fields["fen"], fields["multipv"], fields["depth"], seconds, self.settings.tablebases)
        return _json(await self.search(tasks.analyse, args, seconds, affinity=None))

    async def api_compare(self, request: Request) -> Response:
        fields = await self.read(request, "compare")
        rulesets = [self.registry.get(name) for name in fields["variants"]]
        args = (rulesets, fields["fen"], fields["all"], self.settings.tablebases)
        return _json(await self.work.run(tasks.compare, *args))

    async def api_openings(self, request: Request) -> Response:
        fields = await self.read(request, "openings")
        return _json(ballots_json(self.variant(fields["variant"]), fields["ballot"]))

    async def api_endgame(self, request: Request) -> Response:
        fields = await self.read(request, "endgame")
        directory = self.settings.tablebases
        if directory is None:
            raise RequestError("this server has no endgame tables (start it with draughts serve --tablebases DIR)", 404)
        variant, ruleset = fields["variant"], fields["ruleset"]
        if variant is not None and ruleset is not None and variant != ruleset:
            raise RequestError(f"fields 'variant' ({variant[:60]!r}) and 'ruleset' ({ruleset[:60]!r}) differ; give one")
        rules = self.variant(variant if variant is not None else ruleset)
        return _json(await self.work.run(endgame.probe, rules, fields["fen"], directory))

    async def api_explorer(self, request: Request) -> Response:
        fields = await self.read(request, "explorer")
        path = self.settings.database
        if path is None:
            raise RequestError("this server has no game database (start it with draughts serve --database DB)", 404)
        rules = self.variant(fields["variant"])
        return _json(await self.work.run(explorer.explore, rules, fields["fen"], path))

    # --- lab runs (the compare page's play statistics) ---

    async def api_lab_start(self, request: Request) -> Response:
        fields = await self.read(request, "lab")
        rulesets = [self.registry.get(name) for name in fields["variants"]]
        for rules in rulesets:
            if self.registry.is_custom(rules):
                raise RequestError(
                    f"the lab plays the library's variants and their variations, not the custom {rules.name[:60]!r}"
                )
        names = tuple(dict.fromkeys(rules.name for rules in rulesets))
        settings = LabSettings(names, fields["games"], fields["players"].text, fields["seed"], fields["max_plies"])
        return _json(self.labs.start(settings).json(), 202)

    async def api_lab_get(self, request: Request) -> Response:
        await self.read(request, "none")
        return _json(self.labs.get(str(request.path_params["lab_id"])).json())

    async def api_lab_cancel(self, request: Request) -> Response:
        return await self.forget(request, self.labs.cancel, "lab_id")

    # --- games ---

    async def game_create(self, request: Request) -> Response:
        fields = await self.read(request, "game-new")
        session = GameSession(self.sessions.new_id(), self.variant(fields["variant"]))
        return await self.new_game(session, fields, 201)

    async def new_game(self, session: GameSession, fields: Mapping[str, Any], status: int = 200) -> Response:
        """Start ``session`` afresh from the fields' variant, FEN and clock (the FEN read by a worker first)."""
        rules = session.rules if fields["variant"] is None else self.variant(fields["variant"])
        fen = fields["fen"].strip() if fields["fen"] and fields["fen"].strip() else None
        trial = GameSession(session.id, rules, fen)
        version = session.version
        state = await self.work.run(tasks.game_state, trial.snapshot(), self.view(fields), affinity=session.id)
        if status == 201:
            self.sessions.add(session)
        else:
            session = self.current(session, version)
            session.changed()
        session.replace(rules, fen)
        clock = fields["clock"]
        session.clock = None if clock is None else GameClock(*clock)
        self.sessions.bound(session)
        return self.answer(session, state, status)

    async def game_get(self, request: Request) -> Response:
        fields = await self.read(request, "game-view")
        session = self.session(request)
        self.tick(session)
        return await self.render(session, fields)

    async def game_delete(self, request: Request) -> Response:
        return await self.forget(request, self.sessions.delete, "game_id")

    async def game_move(self, request: Request) -> Response:
        fields = await self.read(request, "game-move")
        session = self.session(request)
        self.check_version(session, fields)
        self.refuse_if_flagged(session)
        played, version = self.now(), session.version
        state, line = await self.work.run(
            tasks.game_move, session.snapshot(), fields["move"], fields["path"], self.view(fields), affinity=session.id
        )
        session = self.current(session, version)
        session.line, session.cursor, session.claimed = line, session.cursor + 1, False
        session.changed()
        self.clock_after_move(session, state, played)
        self.sessions.bound(session)
        return self.answer(session, state)

    async def jump(
        self, request: Request, endpoint: str, target: Callable[[GameSession, Mapping[str, Any]], int]
    ) -> Response:
        """Move the cursor to ``target(session, fields)`` (undo, redo, goto)."""
        fields = await self.read(request, endpoint)
        session = self.session(request)
        self.check_version(session, fields)
        ply = target(session, fields)
        version = session.version
        snapshot = attrs.evolve(session.snapshot(), cursor=ply, claimed=False)
        state = await self.work.run(tasks.game_state, snapshot, self.view(fields), affinity=session.id)
        session = self.current(session, version)
        if ply != session.cursor or session.claimed:
            session.cursor, session.claimed = ply, False
            session.changed()
            self.clock_after_jump(session, state)
        return self.answer(session, state)

    async def game_undo(self, request: Request) -> Response:
        def back(session: GameSession, fields: Mapping[str, Any]) -> int:
            if session.cursor == 0:
                raise RequestError("nothing to undo: the game is at its first position", 409)
            return session.cursor - 1

        return await self.jump(request, "game-step", back)

    async def game_redo(self, request: Request) -> Response:
        def forward(session: GameSession, fields: Mapping[str, Any]) -> int:
            if session.cursor == len(session.line):
                raise RequestError("nothing to redo: the game is at the end of its line", 409)
            return session.cursor + 1

        return await self.jump(request, "game-step", forward)

    async def game_goto(self, request: Request) -> Response:
        def there(session: GameSession, fields: Mapping[str, Any]) -> int:
            ply: int = fields["ply"]
            if ply > len(session.line):
                raise RequestError(f"ply {ply} is not in the game (0 to {len(session.line)})")
            return ply

        return await self.jump(request, "game-goto", there)

    async def game_claim(self, request: Request) -> Response:
        fields = await self.read(request, "game-step")
        session = self.session(request)
        self.check_version(session, fields)
        self.refuse_if_flagged(session)
        version = session.version
        state = await self.work.run(tasks.game_claim, session.snapshot(), self.view(fields), affinity=session.id)
        session = self.current(session, version)
        session.claimed = True
        session.changed()
        if session.clock is not None:
            session.clock.stop()
        return self.answer(session, state)

    async def game_position(self, request: Request) -> Response:
        fields = await self.read(request, "game-new")
        return await self.new_game(self.session(request), fields)

    async def game_engine(self, request: Request) -> Response:
        fields = await self.read(request, "game-engine")
        session = self.session(request)
        self.check_version(session, fields)
        self.refuse_if_flagged(session)
        level, seconds = self.engine_time(fields)
        clock = session.clock
        if clock is not None and clock.running is not None:  # think within the clock's means
            left = clock.left(clock.running, self.now())
            seconds = max(0.05, min(seconds, left / 25 + clock.increment * 0.8, left / 2))
        version = session.version
        args = (session.snapshot(), level, seconds, self.view(fields))
        state, info, line = await self.search(tasks.game_engine, args, seconds, affinity=session.id)
        session = self.current(session, version)
        if clock is not None and clock.check(self.now()):
            session.changed()
            raise RequestError(f"the computer's time ran out: {clock.flagged} loses on time", 409)
        session.line, session.cursor, session.claimed = line, session.cursor + 1, False
        session.changed()
        self.clock_after_move(session, state, self.now())
        self.sessions.bound(session)
        return self.answer(session, state, engine=info)

    async def game_pdn_export(self, request: Request) -> Response:
        await self.read(request, "none")
        session = self.session(request)
        self.tick(session)
        headers = dict(session.headers)
        clock = session.clock
        ended = None
        if clock is not None:
            headers["TimeControl"] = clock.control()
            if clock.flagged is not None:
                ended = (clock.flagged.opponent, "time forfeit")
        text = await self.work.run(tasks.game_export, session.snapshot(), headers, ended, affinity=session.id)
        return _json({"pdn": text, "filename": f"{session.rules.name}-game.pdn"})

    async def game_pdn_import(self, request: Request) -> Response:
        fields = await self.read(request, "game-pdn")
        session = self.session(request)
        rules = session.rules if fields["variant"] is None else self.variant(fields["variant"])
        return await self.import_game(session, fields["pdn"], rules, fields)

    async def game_opening(self, request: Request) -> Response:
        fields = await self.read(request, "game-opening")
        session = self.session(request)
        rules = session.rules if fields["variant"] is None else self.variant(fields["variant"])
        text = opening_pdn(rules, fields["ballot"], fields["opening"])
        return await self.import_game(session, text, rules, fields)

    async def import_game(self, session: GameSession, pdn: str, rules: Ruleset, fields: Mapping[str, Any]) -> Response:
        """Replace ``session``'s game with the PDN game ``pdn`` (read by a worker), its clock off."""
        version = session.version
        args = (session.snapshot(), pdn, rules, self.view(fields))
        read = await self.work.run(tasks.game_import, *args, affinity=session.id)
        session = self.current(session, version)
        session.replace(read["rules"], read["root"], read["line"], read["headers"])
        session.changed()
        session.clock = None
        self.sessions.bound(session)
        return self.answer(session, read["state"])


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
    """Refuses a foreign Host header (when configured), adds the security headers, answers an
    unexpected failure with a 500 itself, so the failure does not close the connection, and tags
    the request's jobs with its client's address (:data:`~draughts.web.workers.REQUEST_CLIENT`),
    so that one client's requests cannot take every worker."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...] | None) -> None:
        self.app = app
        self.allowed = None if allowed_hosts is None else {host.lower() for host in allowed_hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.allowed is not None:
            host = host_name(dict(scope["headers"]).get(b"host", b"").decode("latin-1"))
            if host not in self.allowed:
                await self._send_guarded(
                    _error(f"Host {host[:60]!r} is not this server's name", 400), scope, receive, send
                )
                return
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", []), *_SECURITY_HEADERS]
            await send(message)

        client = scope.get("client")
        token = REQUEST_CLIENT.set(str(client[0]) if client else None)  # its jobs count against its address
        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            log.exception("unexpected error answering %s %s", scope.get("method"), scope.get("path"))
            if not started:
                await self._send_guarded(_error("internal error; the server goes on", 500), scope, receive, send)
        finally:
            REQUEST_CLIENT.reset(token)

    @staticmethod
    async def _send_guarded(response: Response, scope: Scope, receive: Receive, send: Send) -> None:
        response.headers.update({name.decode(): value.decode() for name, value in _SECURITY_HEADERS})
        await response(scope, receive, send)


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
    ("POST", "/api/analyse", _Web.api_analyse),
    ("GET", "/api/compare", _Web.api_compare),
    ("POST", "/api/compare", _Web.api_compare),
    ("GET", "/api/endgame", _Web.api_endgame),
    ("GET", "/api/explorer", _Web.api_explorer),
    ("GET", "/api/openings", _Web.api_openings),
    ("POST", "/api/pdn-tree", _Web.api_pdn_tree),
    ("POST", "/api/pdn-tree/export", _Web.api_pdn_tree_export),
    ("POST", "/api/lab", _Web.api_lab_start),
    ("GET", "/api/lab/{lab_id}", _Web.api_lab_get),
    ("DELETE", "/api/lab/{lab_id}", _Web.api_lab_cancel),
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
    ("POST", "/api/games/{game_id}/opening", _Web.game_opening),
]


def _answering(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """``handler``, its errors answered as JSON: a DraughtsError with its 4xx, anything else a 500."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except DraughtsError as error:
            return _error(str(error), getattr(error, "status", 400))
        except Exception as error:
            log.exception("unexpected error answering %s %s", request.method, request.url.path)
            return _error(f"internal error ({type(error).__name__}); the server goes on", 500)

    return run


def _routes(web: _Web) -> list[Route]:
    by_path: dict[str, dict[str, Handler]] = {}
    for method, path, handler in _API:
        by_path.setdefault(path, {})[method] = handler

    def endpoint(handlers: dict[str, Handler]) -> Callable[[Request], Awaitable[Response]]:
        async def run(request: Request) -> Response:
            method = "GET" if request.method == "HEAD" else request.method
            return await handlers[method](web, request)

        return _answering(run)

    routes = [Route(path, endpoint(handlers), methods=list(handlers)) for path, handlers in by_path.items()]
    routes += [
        Route("/", _answering(web.board_page), methods=["GET"]),
        Route("/compare", _answering(web.compare_page), methods=["GET"]),
        Route("/static/{name}", _answering(web.asset), methods=["GET"]),
    ]
    return routes


def create_app(settings: Settings | None = None, **options: Any) -> Starlette:
    """The web board as an ASGI app.

    Its worker processes start with the first request that needs one (or when the server's
    lifespan starts) and end when the lifespan ends, or with the app object.

    Args:
        settings: The settings; or give their fields as keyword arguments.

    Raises:
        UnknownVariantError: the default variant is unknown, or the custom rulesets clash.
        ServeError: ``tablebases`` is not a directory.
    """
    if settings is None:
        settings = Settings(**options)
    elif options:
        settings = attrs.evolve(settings, **options)
    web = _Web(settings)

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        if error.status_code == 405:
            return _error(f"{request.method} is not allowed on {request.url.path[:80]}", 405)
        return _error(f"nothing at {request.url.path[:80]!r}", error.status_code)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        web.work.start()
        web.engine.start()
        yield
        web.close()

    app = Starlette(routes=_routes(web), exception_handlers={HTTPException: http_error}, lifespan=lifespan)
    app.state.web = web
    weakref.finalize(app, web.close)
    app.add_middleware(_Guard, allowed_hosts=settings.allowed_hosts)
    return app
