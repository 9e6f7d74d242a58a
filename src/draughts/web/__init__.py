"""The web board: play, analyse and compare any ruleset in a browser (``draughts serve``).

Needs the ``web`` extra (``pip install "polydraughts[web]"``: Starlette and uvicorn); ``import
draughts`` never loads it. The pieces:

* :mod:`draughts.web.app` -- :func:`~draughts.web.app.create_app`, the ASGI app: the pages and
  the JSON API;
* :mod:`draughts.web.server` -- :func:`~draughts.web.server.serve`, what ``draughts serve`` runs
  (uvicorn);
* :mod:`draughts.web.rulesets` -- naming rulesets: :func:`~draughts.web.rulesets.resolve_ruleset` for the command line,
  and the registry requests use (it never imports code);
* :mod:`draughts.web.sessions` -- games kept between requests, and their expiry;
* :mod:`draughts.web.search` -- engine searches off the event loop, bounded in time;
* :mod:`draughts.web.views` -- the JSON of moves, rules, comparisons, and the checks of request fields.

The page assets (JavaScript modules, CSS, an SVG icon) ship in ``draughts/web/static`` and use no
network: the page works offline. ``from draughts.web import create_app, serve`` loads Starlette
and uvicorn only then; :mod:`draughts.web.rulesets` needs neither. The page ``docs/web.rst``
documents the modules and the JSON API.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from draughts.web.rulesets import RulesetRegistry as RulesetRegistry
from draughts.web.rulesets import resolve_ruleset as resolve_ruleset

if TYPE_CHECKING:
    from draughts.web.app import Settings as Settings
    from draughts.web.app import create_app as create_app
    from draughts.web.server import serve as serve

# The names live in their modules (documented there); these are shortcuts.
__all__: list[str] = []


def __getattr__(name: str) -> Any:
    if name in ("create_app", "Settings"):
        from draughts.web import app

        return getattr(app, name)
    if name == "serve":
        from draughts.web import server

        return server.serve
    raise AttributeError(f"module 'draughts.web' has no attribute {name!r}")
