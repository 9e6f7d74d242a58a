"""A small table renderer: plain text fitted to a width, Markdown and HTML, for the comparisons and
the command line's other tables."""

from __future__ import annotations

import html
import textwrap
from collections.abc import Iterable, Sequence

import attrs

from draughts.errors import DraughtsError

__all__ = ["Row", "Table"]

# --- tables ---------------------------------------------------------------------------------


def _cells(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(str(cell) for cell in value)


def _lines(value: Iterable[str] | str) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _rows(value: Iterable[Row]) -> tuple[Row, ...]:
    return tuple(value)


@attrs.frozen
class Row:
    """One row of a :class:`Table`.

    Attributes:
        label: The row heading (a rule's label, or a move in common notation).
        cells: One text per column.
        key: A stable identifier: the Ruleset field name (``"precedence"``) for a rule row.
        marked: Whether the row is singled out (a move not legal in every variant).
    """

    label: str
    cells: tuple[str, ...] = attrs.field(converter=_cells)
    key: str = ""
    marked: bool = False

    @property
    def differs(self) -> bool:
        """Whether the cells are not all the same."""
        return len(set(self.cells)) > 1


@attrs.frozen
class Table:
    """Rows of text under column headings, rendered as plain text, Markdown or HTML.

    Attributes:
        columns: Column headings (variant names).
        rows: The rows, each a label and one cell per column.
        corner: Heading of the label column.
        title: A line shown above the table (empty: none).
        notes: Lines shown below it.
    """

    columns: tuple[str, ...] = attrs.field(converter=_cells)
    rows: tuple[Row, ...] = attrs.field(converter=_rows)
    corner: str = ""
    title: str = ""
    notes: tuple[str, ...] = attrs.field(default=(), converter=_lines)

    def __attrs_post_init__(self) -> None:
        for row in self.rows:
            if len(row.cells) != len(self.columns):
                raise DraughtsError(f"row {row.label!r} has {len(row.cells)} cells for {len(self.columns)} columns")

    def row(self, key: str) -> Row:
        """The row with this key (field name) or label.

        Raises:
            KeyError: no such row.
        """
        for row in self.rows:
            if key in (row.key, row.label):
                return row
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        return any(key in (row.key, row.label) for row in self.rows)

    def column(self, name: str) -> dict[str, str]:
        """``{row label: cell}`` of the column headed ``name`` (the first one with that heading).

        Raises:
            KeyError: no such column.
        """
        if name not in self.columns:
            raise KeyError(name)
        index = self.columns.index(name)
        return {row.label: row.cells[index] for row in self.rows}

    # --- rendering ---

    def to_text(self, *, width: int | None = None, line_width: int = 120) -> str:
        """Aligned plain text that fits ``line_width`` characters; marked rows start with ``*``.

        A table that fits is printed one line per row. One that does not has its cells (then its
        row labels) wrapped onto more lines, a wrapped row's further lines left blank in the
        columns that are done; when even that leaves a column narrower than 12 characters the
        table is printed stacked instead: each row's label on a line, then one indented line per
        column (``  heading  cell``). The title and notes are wrapped to the same width.

        Args:
            width: Wrap cells longer than this many characters onto more lines (the labels are
                not wrapped); None: wrap only as much as it takes to fit ``line_width``.
            line_width: The line length to fit (at least 40 is used).
        """
        line_width = max(line_width, 40)
        marker = "  " if any(row.marked for row in self.rows) else ""
        labels = [self.corner, *(row.label for row in self.rows)]
        columns = [[header, *(row.cells[index] for row in self.rows)] for index, header in enumerate(self.columns)]
        if width is None:
            layout = _layout(labels, columns, len(marker), line_width)
            if layout is None:
                return self._stacked(line_width)
            label_limit, limits = layout
        else:
            label_limit, limits = max(map(len, labels)), [max(width, 8)] * len(columns)
        header = [_wrap(self.corner, label_limit + len(marker)), *map(_wrap, self.columns, limits)]
        wrapped = [[_label(row, marker, label_limit), *map(_wrap, row.cells, limits)] for row in self.rows]
        widths = [
            max([len(line) for cells in (header, *wrapped) for line in cells[index]] or [0])
            for index in range(len(header))
        ]
        out = _paragraph(self.title, line_width)
        out.extend(_text_block(header, widths))
        out.append("  ".join("-" * w for w in widths).rstrip())
        for cells in wrapped:
            out.extend(_text_block(cells, widths))
        if not self.rows:
            out.append("(no rows)")
        for note in self.notes:
            out.extend(_paragraph(note, line_width))
        return "\n".join(out)

    def _stacked(self, line_width: int) -> str:
        """The text form for a narrow line: a block per row, one line per column under its label."""
        out = _paragraph(self.title, line_width)
        heading = max(map(len, self.columns), default=0)
        room = max(line_width - heading - 4, 20)
        for row in self.rows:
            out.extend(_paragraph(("* " if row.marked else "") + row.label, line_width))
            for column, cell in zip(self.columns, row.cells, strict=True):
                lines = _wrap(cell, room)
                out.append(f"  {column.ljust(heading)}  {lines[0]}".rstrip())
                out.extend(" " * (heading + 4) + line for line in lines[1:])
        if not self.rows:
            out.append("(no rows)")
        for note in self.notes:
            out.extend(_paragraph(note, line_width))
        return "\n".join(out)

    def to_markdown(self) -> str:
        """A GitHub-flavoured Markdown table (with the title and notes as paragraphs).

        Marked rows have their label in bold.
        """
        out = [_md(self.title), ""] if self.title else []
        out.append(_md_row([self.corner, *self.columns]))
        out.append("|" + "|".join(["---"] * (len(self.columns) + 1)) + "|")
        for row in self.rows:
            label = f"**{_md(row.label)}**" if row.marked else _md(row.label)
            out.append("| " + " | ".join([label, *(_md(cell) for cell in row.cells)]) + " |")
        if self.notes:
            out.append("")
            out.extend(
                _md(note) + ("  " if index < len(self.notes) - 1 else "") for index, note in enumerate(self.notes)
            )
        return "\n".join(out)

    def to_html(self) -> str:
        """An HTML ``<table>`` (well-formed XML too), everything escaped.

        The title is the ``<caption>``, the notes the ``<tfoot>``; marked rows have
        ``class="marked"``.
        """
        esc = _html
        out = ['<table class="draughts-table">']
        if self.title:
            out.append(f"<caption>{esc(self.title)}</caption>")
        out.append("<thead><tr>")
        out.append(f'<th scope="col">{esc(self.corner)}</th>')
        out.extend(f'<th scope="col">{esc(column)}</th>' for column in self.columns)
        out.append("</tr></thead>")
        out.append("<tbody>")
        for row in self.rows:
            attributes = f' data-key="{esc(row.key)}"' if row.key else ""
            if row.marked:
                attributes += ' class="marked"'
            cells = "".join(f"<td>{esc(cell)}</td>" for cell in row.cells)
            out.append(f'<tr{attributes}><th scope="row">{esc(row.label)}</th>{cells}</tr>')
        out.append("</tbody>")
        if self.notes:
            out.append("<tfoot>")
            span = len(self.columns) + 1
            out.extend(f'<tr><td colspan="{span}">{esc(note)}</td></tr>' for note in self.notes)
            out.append("</tfoot>")
        out.append("</table>")
        return "\n".join(out)

    def _repr_html_(self) -> str:
        return self.to_html()

    def __str__(self) -> str:
        return self.to_text()


def _fit(natural: list[int], room: int, minimum: int) -> list[int] | None:
    """Column widths: the natural ones capped at the widest cap that fits ``room`` (gaps included),
    never below ``minimum`` (None if even that does not fit)."""
    room -= 2 * len(natural)
    if sum(natural) <= room:
        return list(natural)
    for cap in range(max(natural, default=0) - 1, minimum - 1, -1):
        if sum(min(width, cap) for width in natural) <= room:
            return [min(width, cap) for width in natural]
    return None


def _layout(labels: list[str], columns: list[list[str]], marker: int, line_width: int) -> tuple[int, list[int]] | None:
    """``(label width, column widths)`` of a table that fits ``line_width``, or None.

    The labels stay whole while the columns can keep 16 characters; then the labels are wrapped
    too (never below their longest word or 16) for columns of 12 or more.
    """
    natural = [max(map(len, column)) for column in columns]
    label_width = max(map(len, labels))
    limits = _fit(natural, line_width - label_width - marker, 16)
    if limits is not None:
        return label_width, limits
    words = max((len(word) for label in labels for word in label.split()), default=0)
    narrow = min(label_width, max(words, 16))
    limits = _fit(natural, line_width - narrow - marker, 12)
    return None if limits is None else (narrow, limits)


def _label(row: Row, marker: str, limit: int) -> list[str]:
    """A row label wrapped to ``limit``, after the ``*`` marker (or its blank) on its first line."""
    lines = _wrap(row.label, limit)
    first = ("* " if row.marked else "  ") if marker else ""
    return [first + lines[0], *(marker + line for line in lines[1:])]


def _paragraph(text: str, width: int) -> list[str]:
    """``text`` wrapped to ``width`` (a word longer than that, such as a FEN, is kept whole)."""
    if not text:
        return []
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [""]


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, break_on_hyphens=False) or [""]


def _text_block(cells: Sequence[list[str]], widths: Sequence[int]) -> list[str]:
    height = max(len(cell) for cell in cells)
    lines = []
    for index in range(height):
        parts = [(cell[index] if index < len(cell) else "").ljust(w) for cell, w in zip(cells, widths, strict=True)]
        lines.append("  ".join(parts).rstrip())
    return lines


_MD_SPECIAL = "\\`*_[]<>|#"


def _md(text: str) -> str:
    """``text`` with Markdown's special characters escaped and newlines as spaces."""
    escaped = "".join("\\" + char if char in _MD_SPECIAL else char for char in text)
    return " ".join(escaped.split())


def _md_row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(_md(cell) for cell in cells) + " |"


def _html(text: str) -> str:
    return html.escape(text, quote=True)
