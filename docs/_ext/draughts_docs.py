"""Sphinx helpers for the polydraughts documentation.

Everything here reads the library itself, so the pages never restate what the code already says:

* ``.. variant-table::`` -- the rule dimensions of the named variants, one row per
  :class:`draughts.Ruleset` field (its metadata ``label``) and one column per ruleset;
* ``.. ruleset-fields::`` -- every ruleset field with its label, default and the description
  from the ``Attributes:`` section of the :class:`~draughts.Ruleset` docstring;
* ``.. variant-list::`` -- each named variant with the names it is known by, its PDN GameType,
  start FEN, docstring (from :mod:`draughts.variants`) and sources.

It also keeps the API reference free of duplicates: names that :mod:`draughts` re-exports are
documented once, at the top level (``api.rst``), skipped on their defining module's section,
and cross-references to their defining-module names (``draughts.rules.Ruleset``, as autodoc
writes type hints) are redirected to the top-level entry.
"""

from __future__ import annotations

import enum
import inspect
import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import draughts
from draughts import variants as variants_module

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
    """``{variant name: docstring}`` of the ruleset constants in :mod:`draughts.variants`."""
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
    seven federation variants), ``:fields:`` (default every field but name, title, sources),
    ``:only-differences:`` (keep the rows where the variants differ).
    """

    has_content = False
    option_spec = {  # noqa: RUF012 (docutils API)
        "variants": directives.unchanged,
        "fields": directives.unchanged,
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
        if "fields" in self.options:
            unknown = [name for name in split_names(self.options["fields"]) if name not in by_name]
            if unknown:
                raise self.error(f"unknown Ruleset fields {unknown}; fields are {list(by_name)}")
            fields = [by_name[name] for name in split_names(self.options["fields"])]
        else:
            fields = [field for field in ruleset_fields() if field.name not in IDENTITY_FIELDS]
        rows = []
        for field in fields:
            values = [format_value(field.name, getattr(rules, field.name)) for rules in rulesets]
            if "only-differences" in self.options and len(set(values)) == 1:
                continue
            label = paragraph(field_label(field))
            name = paragraph(nodes.literal(text=field.name))
            rows.append([entry(label, name), *(entry(value) for value in values)])
        header = [entry("Rule"), *(entry(nodes.strong(text=rules.name)) for rules in rulesets)]
        return [table(header, rows, [22] + [12] * len(rulesets))]


class RulesetFields(SphinxDirective):
    """``.. ruleset-fields::`` -- each Ruleset field: name, label, default and meaning."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        descriptions = field_descriptions()
        rows = []
        for field in ruleset_fields():
            if field.default is attrs.NOTHING:
                default = "required"
            else:
                default = format_value(field.name, field.default)
            rows.append(
                [
                    entry(nodes.literal(text=field.name)),
                    entry(field_label(field)),
                    entry(default),
                    entry(descriptions.get(field.name, "")),
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
            item += nodes.term("", "", nodes.strong(text=rules.title), nodes.Text(" — "), nodes.literal(text=rules.name))
            definition = nodes.definition()
            if rules.name in docstrings:
                definition += paragraph(docstrings[rules.name])
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
        if module_name.startswith("draughts.") and getattr(module, name, None) is obj:
            if assignment.search(inspect.getsource(module)):
                return module_name
    return None


def skip_reexported(app: Sphinx, what: str, name: str, obj: object, skip: bool, options: Any) -> bool | None:
    """Skip, on a submodule's page, the members that the top-level API section documents."""
    if what == "module" and name in draughts.__all__ and getattr(draughts, name) is obj:
        return True
    return None


def note_reexports(app: Sphinx, what: str, name: str, obj: object, options: Any, lines: list[str]) -> None:
    """Append to a submodule's docstring the names it contributes to the top level."""
    if what != "module" or name == "draughts" or not name.startswith("draughts."):
        return
    roles = []
    for export, value in _exported().items():
        if _defining_module(export, value) != name:
            continue
        role = "class" if isinstance(value, type) else "func" if callable(value) else "data"
        roles.append(f":{role}:`draughts.{export}`")
    if roles:
        lines.extend(["", "Public names defined here and documented at the top level: " + ", ".join(roles) + ".", ""])


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


def check_coverage(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn when a name in ``draughts.__all__`` has no top-level entry in the API reference."""
    objects = env.get_domain("py").objects
    for name in _exported():
        if f"draughts.{name}" not in objects:
            logger.warning("draughts.%s is exported but not documented at the top level of api.rst", name)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("variant-table", VariantTable)
    app.add_directive("ruleset-fields", RulesetFields)
    app.add_directive("variant-list", VariantList)
    app.connect("autodoc-skip-member", skip_reexported)
    app.connect("autodoc-process-docstring", note_reexports)
    app.connect("missing-reference", redirect_reference)
    app.connect("env-check-consistency", check_coverage)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
