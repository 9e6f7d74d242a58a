"""Sphinx helpers for the polydraughts documentation.

Everything here reads the library itself, so the pages never restate what the code already says.

Tables (``variants.rst``, ``custom_variants.rst``):

* ``.. variant-table::`` -- the rule dimensions of the named variants, one row per
  :class:`draughts.Ruleset` field (its metadata ``label``) and one column per ruleset;
* ``.. ruleset-fields::`` -- every ruleset field with its label, default and the description
  from the ``Attributes:`` section of the :class:`~draughts.Ruleset` docstring;
* ``.. variant-list::`` -- each named variant with the names it is known by, its PDN GameType,
  start FEN, docstring (from :mod:`draughts.rules.variants`) and sources.

API reference (``api.rst``), one entry per object:

* the names in ``draughts.__all__`` are documented once, at the top level (``automodule
  draughts`` plus ``.. exported-data::`` for the constants, which autodoc would otherwise skip);
* ``.. package-api:: draughts`` gives every public submodule a section (new modules appear
  without editing the page) that leaves those names out and lists them instead;
* cross-references to a defining-module name (``draughts.rules.Ruleset``, as autodoc writes
  type hints) resolve to the top-level entry;
* napoleon is kept from reading the first words of a plain attribute docstring as its type.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import pkgutil
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs
from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

import draughts
from draughts.rules import variants as variants_module

logger = logging.getLogger(__name__)

#: Fields that identify a ruleset or cite its sources rather than state a rule.
IDENTITY_FIELDS = ("name", "title", "sources")
#: How an empty value of a field reads in a table.
EMPTY_TEXT = {"precedence": "free choice"}


# --- reading the library ---------------------------------------------------------------


def ruleset_fields() -> tuple[attrs.Attribute[Any], ...]:
    """The :class:`draughts.Ruleset` fields, in declaration order."""
    return tuple(attrs.fields(draughts.Ruleset))


def field_label(field: attrs.Attribute[Any]) -> str:
    """The human label a field carries in its metadata (its name if it has none)."""
    return str(field.metadata.get("label", field.name))


def format_value(field_name: str, value: object) -> str:
    """A field value as a table cell reads it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, draughts.Color):
        return str(value)
    if isinstance(value, enum.Enum):
        return str(value.value)
    if value is None:
        return "none"
    describe = getattr(value, "describe", None)
    if callable(describe):  # nested rule data (DrawRules) says itself what it means
        text = describe()
        return "; ".join(text) if isinstance(text, list) else str(text)
    if isinstance(value, tuple):
        if not value:
            return EMPTY_TEXT.get(field_name, "none")
        return ", ".join(format_value(field_name, item) for item in value)
    return str(value)


def field_descriptions() -> dict[str, str]:
    """``{field: description}`` from the ``Attributes:`` section of the Ruleset docstring."""
    doc = draughts.Ruleset.__doc__ or ""
    descriptions: dict[str, str] = {}
    in_section = False
    current = ""
    for line in doc.splitlines():
        stripped = line.strip()
        if stripped == "Attributes:":
            in_section = True
            continue
        if not in_section:
            continue
        match = re.fullmatch(r"(\w+): (.*)", stripped)
        if match and line.startswith(" " * 8) and not line.startswith(" " * 12):
            current = match.group(1)
            descriptions[current] = match.group(2)
        elif stripped and current:
            descriptions[current] += " " + stripped
        elif not stripped and descriptions:
            in_section = False
    return descriptions


def variant_docstrings() -> dict[str, str]:
    """``{variant name: docstring}`` of the ruleset constants in :mod:`draughts.rules.variants`."""
    docs = ModuleAnalyzer.for_module(variants_module.__name__).find_attr_docs()
    result = {}
    for (scope, attribute), lines in docs.items():
        rules = getattr(variants_module, attribute, None)
        if scope == "" and isinstance(rules, draughts.Ruleset):
            result[rules.name] = " ".join(line.strip() for line in lines if line.strip())
    return result


def split_names(text: str) -> list[str]:
    """The items of a comma-separated directive option."""
    return [item.strip() for item in text.split(",") if item.strip()]


# --- docutils building blocks ----------------------------------------------------------


def paragraph(*children: nodes.Node | str) -> nodes.paragraph:
    """A paragraph of text and inline nodes."""
    node = nodes.paragraph()
    for child in children:
        node += nodes.Text(child) if isinstance(child, str) else child
    return node


def entry(*children: nodes.Node | str) -> nodes.entry:
    """A table cell holding one paragraph (or the given body elements)."""
    cell = nodes.entry()
    if children and all(isinstance(child, nodes.Body) for child in children):
        for child in children:
            cell += child
    else:
        cell += paragraph(*children)
    return cell


def table(header: Sequence[nodes.entry], rows: Iterable[Sequence[nodes.entry]], widths: Sequence[int]) -> nodes.table:
    """A docutils table with one header row."""
    group = nodes.tgroup(cols=len(widths))
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    head_row = nodes.row()
    for cell in header:
        head_row += cell
    head += head_row
    group += head
    body = nodes.tbody()
    for cells in rows:
        row = nodes.row()
        for cell in cells:
            row += cell
        body += row
    group += body
    result = nodes.table()
    result += group
    return result


# --- directives ----------------------------------------------------------------------------


class VariantTable(SphinxDirective):
    """``.. variant-table::`` -- one row per ruleset field, one column per variant.

    Options: ``:variants:`` names (any name :func:`draughts.get_variant` accepts; default the
    seven federation variants); ``:fields:`` (default every field but name, title and sources);
    ``:rest:`` (every such field that no earlier table of the page showed, so a field added to
    :class:`~draughts.Ruleset` appears without editing the page); ``:only-differences:`` (keep
    the rows where the variants differ).
    """

    has_content = False
    option_spec: ClassVar[dict[str, Callable[[str], Any]]] = {
        "variants": directives.unchanged,
        "fields": directives.unchanged,
        "rest": directives.flag,
        "only-differences": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        try:
            rulesets = [draughts.get_variant(name) for name in split_names(self.options.get("variants", ""))]
        except draughts.UnknownVariantError as error:
            raise self.error(str(error)) from None
        if not rulesets:
            rulesets = list(draughts.VARIANTS.values())
        by_name = {field.name: field for field in ruleset_fields()}
        shown: set[str] = self.env.temp_data.setdefault("variant_table_fields", set())
        if "fields" in self.options:
            unknown = [name for name in split_names(self.options["fields"]) if name not in by_name]
            if unknown:
                raise self.error(f"unknown Ruleset fields {unknown}; fields are {list(by_name)}")
            fields = [by_name[name] for name in split_names(self.options["fields"])]
        else:
            fields = [field for field in ruleset_fields() if field.name not in IDENTITY_FIELDS]
            if "rest" in self.options:
                fields = [field for field in fields if field.name not in shown]
        shown.update(field.name for field in fields)
        rows = []
        for field in fields:
            values = [format_value(field.name, getattr(rules, field.name)) for rules in rulesets]
            if "only-differences" in self.options and len(set(values)) == 1:
                continue
            label = paragraph(field_label(field))
            name = paragraph(nodes.literal(text=field.name))
            rows.append([entry(label, name), *(entry(value) for value in values)])
        if not rows:
            return []
        header = [entry("Rule"), *(entry(nodes.strong(text=rules.name)) for rules in rulesets)]
        return [table(header, rows, [22] + [12] * len(rulesets))]


def parse_rst(directive: SphinxDirective, text: str) -> list[nodes.Node]:
    """``text`` (a docstring excerpt, with roles) parsed as reST body elements."""
    container = nodes.container()
    source = StringList([text], source=f"<{directive.name} {directive.get_source_info()[0]}>")
    directive.state.nested_parse(source, directive.content_offset, container)
    return list(container.children)


def field_default(field: attrs.Attribute[Any]) -> str:
    """A field's default as a table cell reads it (``required`` when there is none)."""
    default = field.default
    if default is attrs.NOTHING:
        return "required"
    if isinstance(default, attrs.Factory):
        if default.takes_self:
            return "computed"
        default = default.factory()
    return format_value(field.name, default)


class RulesetFields(SphinxDirective):
    """``.. ruleset-fields::`` -- each Ruleset field: name, label, default and meaning."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        descriptions = field_descriptions()
        rows = []
        for field in ruleset_fields():
            meaning = parse_rst(self, descriptions[field.name]) if field.name in descriptions else [paragraph("")]
            rows.append(
                [
                    entry(nodes.literal(text=field.name)),
                    entry(field_label(field)),
                    entry(field_default(field)),
                    entry(*meaning),
                ]
            )
        header = [entry("Field"), entry("Label"), entry("Default"), entry("Meaning")]
        return [table(header, rows, [20, 20, 14, 46])]


class VariantList(SphinxDirective):
    """``.. variant-list::`` -- each named variant with its names, GameType, start FEN and sources."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        aliases: dict[str, list[str]] = {}
        for alias, canonical in draughts.ALIASES.items():
            aliases.setdefault(canonical, []).append(alias)
        docstrings = variant_docstrings()
        result = nodes.definition_list()
        for rules in draughts.VARIANTS.values():
            item = nodes.definition_list_item()
            title = nodes.strong(text=rules.title)
            item += nodes.term("", "", title, nodes.Text(" — "), nodes.literal(text=rules.name))
            definition = nodes.definition()
            if rules.name in docstrings:
                definition.extend(parse_rst(self, docstrings[rules.name]))
            facts = nodes.bullet_list()
            names = [rules.name, *aliases.get(rules.name, []), f"{rules.name}-nfc"]
            name_nodes: list[nodes.Node | str] = ["Names: "]
            for index, name in enumerate(names):
                if index:
                    name_nodes.append(", ")
                name_nodes.append(nodes.literal(text=name))
            facts += nodes.list_item("", paragraph(*name_nodes))
            if rules.pdn_gametype_tag is not None:
                facts += nodes.list_item("", paragraph("PDN GameType: ", nodes.literal(text=rules.pdn_gametype_tag)))
            start = draughts.Position.initial(rules)
            facts += nodes.list_item("", paragraph("Start position: ", nodes.literal(text=start.fen())))
            if rules.sources:
                facts += nodes.list_item("", paragraph("Sources: " + "; ".join(rules.sources) + "."))
            definition += facts
            item += definition
            result += item
        return [result]


# --- one API entry per object ---------------------------------------------------------------


def _exported() -> dict[str, object]:
    """``{name: object}`` for the classes, functions and data :mod:`draughts` re-exports."""
    return {name: getattr(draughts, name) for name in draughts.__all__ if name != "__version__"}


def _defining_module(name: str, obj: object) -> str | None:
    """The module that defines ``obj`` (for data: the module that assigns ``name`` at top level)."""
    if isinstance(obj, type) or inspect.isfunction(obj):
        return str(obj.__module__)
    assignment = re.compile(rf"^{re.escape(name)}\s*(:[^=\n]*)?=", re.MULTILINE)
    for module_name, module in sorted(sys.modules.items()):
        defines = module_name.startswith("draughts.") and getattr(module, name, None) is obj
        if defines and assignment.search(inspect.getsource(module)):
            return module_name
    return None


SHORTCUT_PACKAGES = {"draughts.ai", "draughts.web"}
"""Packages whose ``__all__`` only offers shortcuts to their submodules' names, which their guide
pages document where they are defined (``docs/ai.rst``, ``docs/web.rst``): their API page
documents the package, not the names again."""


def submodule_api_lines(module_name: str) -> list[str]:
    """reST for one submodule: ``automodule`` without the names the top level documents.

    Documented constants whose value is long (a whole ruleset) follow as ``autodata`` without
    the value. A submodule whose name is also a top-level function (``draughts.perft``) is not
    indexed, so the function keeps the name.
    """
    module = importlib.import_module(module_name)
    excluded = {name for name, obj in _exported().items() if getattr(module, name, None) is obj}
    parent = module_name.rpartition(".")[0]
    if parent in NESTED_PAGES:  # the package's page documents the classes and functions it re-exports
        package = importlib.import_module(parent)
        excluded |= {
            name
            for name in getattr(package, "__all__", ())
            if getattr(module, name, None) is getattr(package, name)
            and (inspect.isclass(getattr(package, name)) or inspect.isfunction(getattr(package, name)))
        }
    long_data = [
        name
        for (scope, name) in ModuleAnalyzer.for_module(module_name).find_attr_docs()
        if scope == "" and name not in excluded and len(repr(getattr(module, name, None))) > 60
    ]
    lines = [f".. automodule:: {module_name}", "   :members:"]
    if excluded or long_data:
        lines.append(f"   :exclude-members: {', '.join(sorted(excluded | set(long_data)))}")
    if module_name in SHORTCUT_PACKAGES:
        lines.append("   :ignore-module-all:")
    if module_name.rpartition(".")[2] in draughts.__all__:
        lines.append("   :no-index:")
    for name in long_data:
        lines.extend(["", f".. autodata:: {module_name}.{name}", "   :no-value:"])
    return lines


NESTED_PAGES = ("draughts.rules", "draughts.engine")
"""Packages whose public modules each get a page of their own, as the top-level modules do (the
rules and the engine are read module by module); other packages have one page, their own."""
EXTRA_PAGES = (
    "draughts.pdn.collection",
    "draughts.cli.play",
    "draughts.players.factory",
    "draughts.players.book",
    "draughts.db.book",
    "draughts.db.engine_book",
    "draughts.db.moves",
    "draughts.db.schema",
    "draughts.db.shots",
)
"""Modules of other packages with a page of their own (what programs import from them)."""


def public_submodules(package: str) -> list[str]:
    """The public modules of ``package`` (no ``_private`` ones, no ``__main__``), with those of the
    packages in :data:`NESTED_PAGES`, sorted."""
    path = importlib.import_module(package).__path__
    found = []
    for info in pkgutil.iter_modules(path):
        if info.name.startswith("_"):
            continue
        name = f"{package}.{info.name}"
        found.append(name)
        if info.ispkg and name in NESTED_PAGES:
            found.extend(public_submodules(name))
        elif info.ispkg:
            found.extend(extra for extra in EXTRA_PAGES if extra.rpartition(".")[0] == name)
    return sorted(found)


class PackageApi(SphinxDirective):
    """``.. package-api:: draughts`` -- a section per public submodule, each as :func:`submodule_api_lines`.

    The content may list submodule names (``rules``) in the order wanted; modules it does not
    list follow in alphabetical order, so a new module is documented without editing the page.
    """

    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        package = self.arguments[0]
        available = public_submodules(package)
        wanted = [f"{package}.{name.strip()}" for name in self.content if name.strip()]
        missing = [name for name in wanted if name not in available]
        if missing:
            raise self.error(f"no such modules: {missing}; public modules are {available}")
        order = [*wanted, *(name for name in available if name not in wanted)]
        lines: list[str] = []
        for module_name in order:
            lines.extend([module_name, "-" * len(module_name), "", *submodule_api_lines(module_name), ""])
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source=f"<package-api {package}>"), container)
        return list(container.children)


class ExportedData(SphinxDirective):
    """``.. exported-data::`` -- ``autodata`` for each constant in ``draughts.__all__``.

    ``automodule`` documents module data only when the module itself carries a doc comment for
    it, and ``draughts/__init__.py`` just imports ``VARIANTS``, ``WHITE`` ...; their docstrings
    are found in the defining module (:func:`reexported_data_docs`).
    """

    has_content = False

    def run(self) -> list[nodes.Node]:
        lines = []
        for name, obj in _exported().items():
            if not isinstance(obj, type) and not callable(obj):
                lines.append(f".. autodata:: draughts.{name}")
                if len(repr(obj)) > 60:  # a whole mapping of rulesets is no signature
                    lines.append("   :no-value:")
                lines.append("")
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source="<exported-data>"), self.content_offset, container)
        return list(container.children)


def note_reexports(app: Sphinx, what: str, name: str, obj: object, options: Any, lines: list[str]) -> None:
    """Append to a submodule's docstring the names it contributes to the top level."""
    if what != "module" or not name.startswith("draughts."):
        return
    roles = []
    for export, value in _exported().items():
        if _defining_module(export, value) != name:
            continue
        role = "class" if isinstance(value, type) else "func" if callable(value) else "data"
        roles.append(f":{role}:`draughts.{export}`")
    if roles:
        lines.extend(["", "Defined here, documented at the top level: " + ", ".join(roles) + ".", ""])


def reexported_data_docs(app: Sphinx, what: str, name: str, obj: object, options: Any, lines: list[str]) -> None:
    """Give re-exported data (``draughts.VARIANTS``) the docstring of its defining module.

    autodoc looks for ``draughts.VARIANTS``'s docstring in ``draughts/__init__.py``, finds none
    and falls back to the docstring of the value's type; the real one is in :mod:`draughts.rules.variants`.
    """
    short = name.rpartition(".")[2]
    if what != "data" or name != f"draughts.{short}" or short not in _exported():
        return
    module_name = _defining_module(short, obj)
    docs: list[str] = []
    if module_name is not None:
        docs = ModuleAnalyzer.for_module(module_name).find_attr_docs().get(("", short), [])
    if not docs and isinstance(obj, enum.Enum):
        docs = [f"``{type(obj).__name__}.{obj.name}``, also importable as ``draughts.{short}``."]
    lines[:] = [line.rstrip("\n") for line in docs]


_PLAIN_DOCS: dict[str, list[str]] = {}


def save_plain_docs(app: Sphinx, what: str, name: str, obj: object, options: Any, lines: list[str]) -> None:
    """Before napoleon: remember a data, attribute or property docstring as written."""
    if what in ("data", "attribute", "property"):
        _PLAIN_DOCS[name] = list(lines)


def restore_plain_docs(app: Sphinx, what: str, name: str, obj: object, options: Any, lines: list[str]) -> None:
    """After napoleon: put back what it made of a data, attribute or property docstring.

    For those napoleon reads the text before a first-line colon as a type (Google style
    ``int: The count``), so ``"Russian draughts (shashki): flying kings ..."`` would become a
    type. polydraughts annotates types instead; its attribute docstrings are plain sentences.
    """
    saved = _PLAIN_DOCS.pop(name, None)
    if saved is not None and what in ("data", "attribute", "property"):
        lines[:] = saved


def redirect_reference(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.reference | None:
    """Resolve ``draughts.rules.Ruleset`` (or ``Ruleset`` inside a submodule) to ``draughts.Ruleset``."""
    if node.get("refdomain") != "py":
        return None
    target = str(node["reftarget"])
    exported = _exported()
    parts = target.split(".")
    new_target = None
    for index, part in enumerate(parts):
        if part in exported and (index == 0 or ".".join(parts[:index]).startswith("draughts")):
            new_target = ".".join(["draughts", *parts[index:]])
            break
    if new_target is None or new_target == target:
        return None
    domain = env.get_domain("py")
    return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], new_target, node, contnode)


# --- one generated page per variant -----------------------------------------------------------

VARIANT_PAGES = "variant_pages"


def _indent(text: str, prefix: str = "   ") -> str:
    return "\n".join(prefix + line if line else "" for line in text.splitlines())


def variant_page(rules: draughts.Ruleset, docstring: str, aliases: Sequence[str]) -> str:
    """The reST source of one variant's page, generated from its ruleset."""
    import draughts.svg

    start = draughts.Position.initial(rules)
    title = rules.title
    names = ", ".join(f"``{name}``" for name in (rules.name, *aliases))
    lines = [
        f".. This page is generated by docs/_ext/draughts_docs.py from the ruleset {rules.name!r}.",
        "",
        title,
        "=" * len(title),
        "",
        docstring or f"The ruleset ``{rules.name}``.",
        "",
        ".. raw:: html",
        "",
        _indent(draughts.svg.board(start, size=320, square_numbers=True)),
        "",
        f"The start position, as its players see it: ``{start.fen()}`` ({start.turn} to move).",
        "",
        "In code: ``draughts.get_variant(" + repr(rules.name) + ")``; it also answers to " + names + ".",
    ]
    if rules.pdn_gametype_tag:
        lines += ["", f'PDN: ``[GameType "{rules.pdn_gametype_tag}"]``.']
    lines += ["", "Rules", "-----", "", ".. variant-table::", f"   :variants: {rules.name}", ""]
    draws = rules.draw_rules
    lines += ["Draw rules", "----------", ""]
    for rule in (*draws.move_counts, *draws.endgames):
        lines.append(f"* {rule.describe()}" + (f" ({rule.article})" if rule.article else ""))
    if draws.repetitions:
        claim = ", on claim" if draws.repetition_claim else ""
        lines.append(f"* the same position {draws.repetitions} times with the same side to move{claim}")
    if draws.notes:
        lines += ["", draws.notes]
    if rules.sources:
        lines += ["", "Sources", "-------", ""]
        lines += [f"* {source}" for source in rules.sources]
    return "\n".join(lines) + "\n"


def write_variant_pages(app: Sphinx) -> None:
    """Write ``variant_pages/<name>.rst`` for every named variant and the house rule."""
    folder = Path(app.srcdir) / VARIANT_PAGES
    folder.mkdir(exist_ok=True)
    aliases: dict[str, list[str]] = {}
    for alias, canonical in draughts.ALIASES.items():
        aliases.setdefault(canonical, []).append(alias)
    docstrings = variant_docstrings()
    house = draughts.no_forced_capture(draughts.VARIANTS["american"])
    pages = {
        rules.name: (rules, docstrings.get(rules.name, ""), aliases.get(rules.name, []))
        for rules in draughts.VARIANTS.values()
    }
    pages[house.name] = (
        house,
        "The no-forced-capture house rule of American checkers: capture is optional, but a capture, once "
        "chosen, is the complete sequence, and the base precedence still chooses among captures. Any variant "
        "has one: ``<variant>-nfc``.",
        ["no-forced-capture"],
    )
    for name, (rules, docstring, names) in pages.items():
        target = folder / f"{name}.rst"
        text = variant_page(rules, docstring, names)
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")


API_PAGES = "api"
"""Folder (under the docs) of the generated API pages, one per public module."""


def api_page(module_name: str) -> str:
    """The reST of one module's API page."""
    if module_name == "draughts":
        lines = [
            "draughts",
            "========",
            "",
            "Everything a program normally needs, importable from the top-level package and documented",
            "here once; the other pages document each public module without repeating these names.",
            "",
            ".. automodule:: draughts",
            "   :members:",
            "   :member-order: groupwise",
            "",
            ".. exported-data::",
        ]
    else:
        lines = [module_name, "=" * len(module_name), "", *submodule_api_lines(module_name)]
    return "\n".join(lines) + "\n"


def write_api_pages(app: Sphinx) -> None:
    """Write ``api/<module>.rst`` for the package and each public module (new modules need no edit)."""
    folder = Path(app.srcdir) / API_PAGES
    folder.mkdir(exist_ok=True)
    wanted = {"draughts", *public_submodules("draughts")}
    for stale in folder.glob("*.rst"):
        if stale.stem not in wanted:
            stale.unlink()
    for module_name in sorted(wanted):
        target = folder / f"{module_name}.rst"
        text = api_page(module_name)
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")


class BoardDiagram(SphinxDirective):
    """``.. board-diagram:: VARIANT [FEN]`` -- the library's own SVG picture of a position, inline."""

    required_arguments = 1
    optional_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {"size": directives.positive_int, "numbers": directives.flag}

    def run(self) -> list[nodes.Node]:
        rules = draughts.get_variant(self.arguments[0])
        fen = self.arguments[1] if len(self.arguments) > 1 else None
        position = draughts.Position.initial(rules) if fen is None else draughts.Position.from_fen(rules, fen)
        picture = draughts.svg.board(
            position, size=self.options.get("size", 320), square_numbers="numbers" in self.options
        )
        return [nodes.raw("", f'<div class="board-diagram">{picture}</div>', format="html")]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("board-diagram", BoardDiagram)
    app.connect("builder-inited", write_variant_pages)
    app.connect("builder-inited", write_api_pages)
    app.add_directive("variant-table", VariantTable)
    app.add_directive("ruleset-fields", RulesetFields)
    app.add_directive("variant-list", VariantList)
    app.add_directive("package-api", PackageApi)
    app.add_directive("exported-data", ExportedData)
    app.connect("autodoc-process-docstring", reexported_data_docs, priority=300)
    app.connect("autodoc-process-docstring", save_plain_docs, priority=400)  # napoleon: 500
    app.connect("autodoc-process-docstring", restore_plain_docs, priority=600)
    app.connect("autodoc-process-docstring", note_reexports, priority=700)
    app.connect("missing-reference", redirect_reference)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
