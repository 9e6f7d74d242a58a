"""The HTML pages: templates filled with escaped values, so no request or ruleset text becomes markup.

A template (``templates/*.html``) has ``$name`` placeholders. :func:`render` HTML-escapes every
value it fills in, except the values wrapped in :class:`Markup`: markup built here from escaped
parts, the library's SVG (which escapes its own texts) and JSON made safe for a ``<script>``
element (:func:`script_json`). A ruleset's title such as ``<img src=x onerror=alert(1)>`` is
therefore shown as those characters, in the ``<title>``, the heading and the menus alike. The
pages' scripts only ever put text into the page with ``textContent``; the one ``innerHTML`` they
use inserts the server's SVG.

The board and compare pages share their head, menu, message box and footer: the parts
``templates/_head.html`` and ``_tail.html``, which :meth:`Templates.render` fills in with the
page's own values and puts in place of the page's ``$head`` and ``$tail`` (see ``PAGES``).
"""

from __future__ import annotations

import html
import importlib.resources
import json
import string
from collections.abc import Sequence
from typing import Any, NamedTuple

__all__ = ["NAV", "PAGES", "Markup", "Page", "Templates", "nav", "options", "render", "script_json"]


class Page(NamedTuple):
    """What the shared parts of a page say of it (its script and body class are named after it)."""

    path: str
    """Where it is served: its entry of the menu is marked as the current page."""
    note: str = ""
    """What the footer says after the version."""


PAGES = {"board": Page("/", " · a local board: nothing leaves this machine"), "compare": Page("/compare")}
"""The pages made of the shared parts, by template name (``board.html``: ``board``)."""
NAV = (("/", "Board"), ("/compare", "Compare"), ("/api", "API"))
"""The menu of the pages: each entry's path and label."""


class Markup(str):
    """Text that is already HTML: :func:`render` inserts it as it is."""

    __slots__ = ()


def escape(text: str) -> Markup:
    """``text`` as HTML text (``<``, ``>``, ``&`` and both quotes escaped)."""
    return Markup(html.escape(text, quote=True))


def render(template: string.Template, **values: str) -> str:
    """``template`` filled in: every value escaped unless it is :class:`Markup`."""
    return template.substitute(
        {name: value if isinstance(value, Markup) else escape(value) for name, value in values.items()}
    )


def script_json(value: Any) -> Markup:
    """JSON safe inside a ``<script type="application/json">`` element (no ``<``, ``>`` or ``&``)."""
    text = json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)


def options(items: Sequence[tuple[str, str]], selected: str | None) -> Markup:
    """``<option>`` elements for (value, label) pairs, ``selected`` marked."""
    return Markup(
        "\n".join(
            f'<option value="{escape(value)}"{" selected" if value == selected else ""}>{escape(label)}</option>'
            for value, label in items
        )
    )


def nav(current: str) -> Markup:
    """The menu's links, the one to ``current`` (a path) marked ``aria-current``."""
    marked = ' aria-current="page"'
    links = [f'<a href="{escape(path)}"{marked if path == current else ""}>{escape(label)}</a>' for path, label in NAV]
    return Markup(" ".join(links))


class Templates:
    """The page templates, read once from the package (requests never touch the file system)."""

    def __init__(self, names: Sequence[str] = ("board.html", "compare.html", "error.html")) -> None:
        folder = importlib.resources.files("draughts.web").joinpath("templates")
        read = [*names, "_head.html", "_tail.html"]
        self._templates = {name: string.Template(folder.joinpath(name).read_text(encoding="utf-8")) for name in read}

    def render(self, name: str, **values: str) -> str:
        """The page ``name`` filled in (see :func:`render`), with the shared parts if it is one of ``PAGES``."""
        page = PAGES.get(name.removesuffix(".html"))
        if page is not None:
            values = {**values, "page": name.removesuffix(".html"), "nav": nav(page.path), "note": page.note}
            values["head"] = Markup(render(self._templates["_head.html"], **values).removesuffix("\n"))
            values["tail"] = Markup(render(self._templates["_tail.html"], **values).removesuffix("\n"))
        return render(self._templates[name], **values)
