"""The HTML pages: templates filled with escaped values, so no request or ruleset text becomes markup.

A template (``templates/*.html``) has ``$name`` placeholders. :func:`render` HTML-escapes every
value it fills in, except the values wrapped in :class:`Markup`: markup built here from escaped
parts, the library's SVG (which escapes its own texts) and JSON made safe for a ``<script>``
element (:func:`script_json`). A ruleset's title such as ``<img src=x onerror=alert(1)>`` is
therefore shown as those characters, in the ``<title>``, the heading and the menus alike. The
pages' scripts only ever put text into the page with ``textContent``; the one ``innerHTML`` they
use inserts the server's SVG.
"""

from __future__ import annotations

import html
import importlib.resources
import json
import string
from collections.abc import Sequence
from typing import Any

__all__ = ["Markup", "Templates", "options", "render", "script_json"]


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


class Templates:
    """The page templates, read once from the package (requests never touch the file system)."""

    def __init__(self, names: Sequence[str] = ("board.html", "compare.html", "error.html")) -> None:
        folder = importlib.resources.files("draughts.web").joinpath("templates")
        self._templates = {name: string.Template(folder.joinpath(name).read_text(encoding="utf-8")) for name in names}

    def render(self, name: str, **values: str) -> str:
        """The page ``name`` filled in (see :func:`render`)."""
        return render(self._templates[name], **values)
