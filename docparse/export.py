"""A :class:`~docparse.model.Document` written out as Markdown, plain text or HTML.

Markdown is what RAG pipelines and people read: headings by section depth,
paragraphs, ``-`` list items, ``>`` quotes, fenced code, ``$$`` equations,
tables as GitHub pipe tables (HTML tables when cells span or there is more
than one header row), captions where they stand beside their tables. The
title goes into front matter. Furniture (running headers, page numbers) is
left out unless asked for; page markers (``<!-- page N -->``) are optional.

Where Markdown has no syntax for a unit's kind (an abstract, a footnote, a
caption that does not start with "Figure"/"Table"), a comment
``<!-- docparse: kind=... -->`` precedes the block, so that reading the
output with :mod:`docparse.formats.markdown` gives back the same units
(kind, text, section, table cells).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from docparse.model import Document, SourceUnit, Table
from docparse.structure import CAPTION, SectionStack

#: ASCII punctuation that Markdown (CommonMark, pipe tables, math, HTML,
#: entities) may read as syntax inside a line; a backslash keeps it literal.
_SPECIAL = re.compile(r"([\\`*_<>#|$&!~])")
#: Brackets as entities: ``\[`` would open display math (``\[ ... \]``).
_BRACKETS = str.maketrans({"[": "&#91;", "]": "&#93;"})
#: At the start of a block these begin a list, quote, heading or break.
_LEADING = re.compile(r"^(\d+)([.)])(\s|$)|^([-+=])")


def escape(text: str) -> str:
    """``text`` with every character Markdown could read as syntax escaped."""
    out = _SPECIAL.sub(r"\\\1", text).translate(_BRACKETS)
    return _LEADING.sub(
        lambda m: f"{m.group(1)}\\{m.group(2)}{m.group(3)}" if m.group(1) else f"\\{m.group(4)}",
        out,
    )


def _hint(kind: str | None = None, section: Sequence[str] | None = None) -> str:
    """The comment that tells the Markdown reader the next unit's kind and section path."""
    data: dict[str, Any] = {}
    if kind is not None:
        data["kind"] = kind
    if section is not None:
        data["section"] = list(section)
    if not data:
        return ""
    text = json.dumps(data, ensure_ascii=False).replace(">", "\\u003e")
    return f"<!-- docparse: {text} -->\n\n"


def _table_html(table: Table) -> str:
    covered: set[tuple[int, int]] = set()
    spans = {(s.row, s.col): s for s in table.spans}
    for s in table.spans:
        covered.update(
            (s.row + dr, s.col + dc)
            for dr in range(s.row_span)
            for dc in range(s.col_span)
            if dr or dc
        )
    lines = ["<table>"]
    for r, row in enumerate(table.rows):
        tag = "th" if r < table.n_header_rows else "td"
        cells = []
        for c, text in enumerate(row):
            if (r, c) in covered:
                continue
            span = spans.get((r, c))
            attrs = ""
            if span is not None and span.row_span > 1:
                attrs += f' rowspan="{span.row_span}"'
            if span is not None and span.col_span > 1:
                attrs += f' colspan="{span.col_span}"'
            cells.append(f"<{tag}{attrs}>{html.escape(text, quote=False)}</{tag}>")
        lines.append("<tr>" + "".join(cells) + "</tr>")
    lines.append("</table>")
    return "\n".join(lines)


def table_markdown(table: Table) -> str:
    """A pipe table, or an HTML table when cells span or several rows are headers."""
    if not table.rows:
        return ""
    if table.spans or table.n_header_rows > 1:
        return _table_html(table)
    width = max(table.n_cols, 1)
    lines = []
    for i, row in enumerate(table.rows):
        cells = [escape(c) for c in row] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
        if i == 0:
            lines.append("|" + " --- |" * width)
    return "\n".join(lines)


def _heading_depth(u: SourceUnit) -> int:
    """Section depth of a heading: its section path ends with itself in twins, not in PDFs."""
    depth = len(u.section) if u.section and u.section[-1] == u.text else len(u.section) + 1
    return min(max(depth, 1), 6)


def _block(u: SourceUnit) -> tuple[str | None, str]:
    """The kind hint the unit needs (``None``: Markdown says it) and its Markdown."""
    text = u.text
    if u.kind == "heading":
        return None, "#" * _heading_depth(u) + " " + escape(text)
    if u.kind == "table" and u.table is not None and u.table.rows:
        return None, table_markdown(u.table)
    if u.kind == "table" and not text:  # a table whose cells were not read
        return None, "<table></table>"
    if u.kind == "list_item":
        return None, "- " + escape(text)
    if u.kind == "quote":
        return None, "> " + escape(text)
    if u.kind == "code":
        fence = "~~~" if "```" in text else "```"
        return None, f"{fence}\n{text}\n{fence}"
    if u.kind == "equation" and "$$" not in text:
        return None, f"$$\n{text}\n$$"
    natural = "caption" if CAPTION.match(text) else "paragraph"
    return (None if u.kind == natural else u.kind), escape(text)


def _parent_sections(doc: Document) -> bool:
    """True when headings record their parents' path (PDF assembly), not their own."""
    return any(u.kind == "heading" and u.section[-1:] != (u.text,) for u in doc.units)


def markdown_blocks(
    doc: Document, *, furniture: bool = False, page_markers: bool = False
) -> Iterable[str]:
    """The Markdown blocks of ``doc`` in order (see :func:`to_markdown`)."""
    units = [u for u in doc.units if furniture or u.kind != "furniture"]
    front = []
    if units and units[0].kind == "title":
        front.append("title: " + json.dumps(units[0].text, ensure_ascii=False))
    if _parent_sections(doc):
        front.append("heading_sections: parent")
    if front:
        yield "---\n" + "\n".join(front) + "\n---"
    parent = _parent_sections(doc)
    sections = SectionStack()
    page: int | None = None
    for i, u in enumerate(units):
        if page_markers and u.page is not None and u.page != page:
            page = u.page
            yield f"<!-- page {page} -->"
        if i == 0 and u.kind == "title":
            continue  # in the front matter
        kind, body = _block(u)
        # What the reader will take as the section path; a hint where it is not the unit's.
        if u.kind == "heading":
            parents = sections.push(_heading_depth(u), u.text)
            read = parents if parent else sections.path
        else:
            read = sections.path
        section = None
        if read != u.section:
            section = u.section
            sections.reset([*u.section, u.text] if u.kind == "heading" and parent else u.section)
        yield _hint(kind, section) + body


def to_markdown(doc: Document, *, furniture: bool = False, page_markers: bool = False) -> str:
    """``doc`` as Markdown (see the module docstring).

    ``furniture``: keep running headers, footers and page numbers (marked as
    furniture). ``page_markers``: a ``<!-- page N -->`` line where a new
    page starts (PDF parses).
    """
    return "\n\n".join(markdown_blocks(doc, furniture=furniture, page_markers=page_markers)) + "\n"


def comparable_units(doc: Document) -> list[tuple[object, ...]]:
    """What a Markdown round trip keeps: ``(kind, text, section, cells)`` of each content unit.

    Table units compare by their cells (rows padded to the widest), other units by text.
    """
    out: list[tuple[object, ...]] = []
    for u in doc.content_units():
        rows = None
        if u.table is not None and u.table.rows:
            width = u.table.n_cols
            rows = tuple(tuple(r) + ("",) * (width - len(r)) for r in u.table.rows)
        out.append((u.kind, u.text if rows is None else "", u.section, rows))
    return out


def to_text(doc: Document, *, furniture: bool = False) -> str:
    """``doc`` as plain text: one unit a paragraph, tables as tab-separated rows."""
    parts = []
    for u in doc.units:
        if u.kind == "furniture" and not furniture:
            continue
        if u.table is not None and u.table.rows:
            parts.append("\n".join("\t".join(row) for row in u.table.rows))
        else:
            parts.append(u.text)
    return "\n\n".join(parts) + "\n"


def to_html(doc: Document, *, furniture: bool = False) -> str:
    """``doc`` as a standalone HTML page (headings by depth, tables with spans)."""
    title = html.escape(doc.title or doc.source_path)
    body = []
    tags = {
        "title": "h1",
        "list_item": "li",
        "quote": "blockquote",
        "code": "pre",
        "caption": "figcaption",
        "footnote": "aside",
        "furniture": "small",
    }
    for u in doc.units:
        if u.kind == "furniture" and not furniture:
            continue
        text = html.escape(u.text, quote=False)
        if u.kind == "heading":
            depth = _heading_depth(u) + 1
            body.append(f"<h{min(depth, 6)}>{text}</h{min(depth, 6)}>")
        elif u.table is not None and u.table.rows:
            body.append(_table_html(u.table))
        else:
            tag = tags.get(u.kind, "p")
            body.append(f'<{tag} class="{u.kind}">{text}</{tag}>')
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>{title}</title></head>\n<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )
