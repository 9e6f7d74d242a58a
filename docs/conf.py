"""Sphinx configuration for polydraughts.

Build from the source tree (no install needed)::

    sphinx-build -W -b html docs docs/_build/html
    sphinx-build -W -b doctest docs docs/_build/doctest
"""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent / "src"))
sys.path.insert(0, str(DOCS / "_ext"))

import draughts  # noqa: E402  (needs the path above)

project = "polydraughts"
author = "polydraughts developers"
copyright = "polydraughts developers"
release = draughts.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "draughts_docs",  # docs/_ext: tables generated from the rulesets
    "myst_parser",  # CONTRIBUTING.md, included by contributing.rst
]
source_suffix = {".rst": "restructuredtext"}  # pages are reStructuredText; Markdown only where included
myst_heading_anchors = 2

exclude_patterns = ["_build"]
templates_path: list[str] = []
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_theme = "alabaster"
html_theme_options = {
    "description": "Every major draughts variant from one generic engine",
    "fixed_sidebar": True,
}
html_title = f"polydraughts {release}"

# Every cross-reference must resolve; outside the package (no intersphinx: the build is offline)
# the standard library, typing and attrs are named but not linked.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(builtins\.)?(int|str|bool|bytes|float|object|type|list|tuple|dict|set|frozenset|None)"),
    (r"py:.*", r"(ValueError|Exception|NotImplemented|Ellipsis|\.\.\.)"),
    (r"py:.*", r"(typing|collections\.abc|collections|enum|types|functools)\..*"),
    (r"py:.*", r"(Mapping|Sequence|Iterable|Callable|Any|NamedTuple)"),
    (r"py:.*", r"(attrs|attr)(\..*)?"),
    (r"py:.*", r"(concurrent\.futures\.)?(_base\.)?(Executor|Future)"),
    (r"py:.*", r"(os\.)?PathLike|(pathlib\.)?Path"),
    (r"py:.*", r"sqlite3(\..*)?|(random\.)?Random"),  # the game database's connection, a book's draw
    (r"py:.*", r"draughts\._[a-z_]+(\..*)?"),  # private modules (compiled tables) and their names
    (r"py:.*", r"draughts(\.[a-z_]+)*\._[A-Za-z_]+"),  # private names of public modules
    (r"py:.*", r"(starlette|uvicorn|socket|_?asyncio|string)(\..*)?|Starlette|TextIO|Json"),  # the web's types
    (r"py:.*", r"(numpy|npt|gymnasium|pettingzoo)(\..*)?"),  # draughts.ai's dependencies
]

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
python_use_unqualified_type_names = True
autodoc_default_options = {"show-inheritance": True}
autoclass_content = "class"
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_attr_annotations = True

doctest_global_setup = "import draughts"
# Sphinx's default flags include IGNORE_EXCEPTION_DETAIL, which passes an example whatever its error
# message says; the pages show users the messages they will see, so the messages are checked too
# (tests/project/test_docs_pages.py runs the pages through Python's own doctest with the same flags).
doctest_default_flags = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1
# Test the pages' ``.. doctest::`` blocks. The ``>>>`` examples of the docstrings that autodoc
# pulls into api.rst run under pytest --doctest-modules, in their modules' namespaces.
doctest_test_doctest_blocks = ""
