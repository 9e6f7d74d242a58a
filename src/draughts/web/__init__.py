"""The web board: play, analyse and compare any ruleset in a browser (``draughts serve``).

Needs the ``web`` extra (``pip install "polydraughts[web]"``: Starlette and uvicorn); ``import
draughts`` never loads it. The pieces:

* :mod:`draughts.web.app` -- :func:`~draughts.web.app.create_app`, the ASGI app: the pages and
  the JSON API; :mod:`draughts.web.settings` -- its :class:`~draughts.web.settings.Settings`;
  :mod:`draughts.web.bodies` -- reading a request's query string and JSON body;
* :mod:`draughts.web.server` -- :func:`~draughts.web.server.serve`, what ``draughts serve`` runs
  (uvicorn), and :func:`~draughts.web.server.running`, a server in a thread for tests and examples;
* :mod:`draughts.web.connections` -- the HTTP protocol with a read deadline and a connection cap;
* :mod:`draughts.web.fields` -- every request field of every endpoint, checked in one place;
* :mod:`draughts.web.workers` -- the worker processes that do all rules work, bounded in time and memory;
* :mod:`draughts.web.tasks` -- that work: legal moves, moves, comparisons, searches, PDN, games rebuilt;
* :mod:`draughts.web.sessions` -- games kept between requests, compactly, and their bounds;
* :mod:`draughts.web.clock` -- a game's clock, kept by the server;
* :mod:`draughts.web.rulesets` -- naming rulesets: the registry requests use (names only, through
  :func:`draughts.resolve_ruleset` with ``trusted=False``: it never reads files or imports code);
* :mod:`draughts.web.pages` -- the HTML pages, every value escaped;
* :mod:`draughts.web.views` -- the JSON of moves, rules and comparisons.

The page assets (JavaScript modules, CSS, an SVG icon) ship in ``draughts/web/static`` and use no
network: the page works offline. ``from draughts.web import create_app, serve, running`` loads
Starlette and uvicorn only then; :mod:`draughts.web.rulesets` needs neither. The page ``docs/web.rst``
documents the modules and the JSON API.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from draughts.web.rulesets import RulesetRegistry

if TYPE_CHECKING:
    from draughts.web.app import create_app
    from draughts.web.server import running, serve
    from draughts.web.settings import Settings

__all__ = ["RulesetRegistry", "Settings", "create_app", "running", "serve"]


# Lazy, so that ``import draughts.web`` (and the registry, which the command line uses) does not
# load Starlette and uvicorn, which the app and the server need: they load on first use.
def __getattr__(name: str) -> Any:
    if name == "create_app":
        from draughts.web import app

        return app.create_app
    if name == "Settings":
        from draughts.web import settings

        return settings.Settings
    if name in ("serve", "running"):
        from draughts.web import server

        return getattr(server, name)
    raise AttributeError(f"module 'draughts.web' has no attribute {name!r}")
