"""A JATS ``table-wrap``: the cells of its tables, header rows, caption and footnotes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from docparse.formats._grid import cells_to_table, span_value
from docparse.formats._jats_text import _Inline
from docparse.formats._jats_xml import _local, _raw
from docparse.model import Annotation
from docparse.text import clean_text

if TYPE_CHECKING:
    from docparse.formats.jats import _Walker


def _table_wrap(walker: _Walker, el: etree._Element, section: tuple[str, ...]) -> None:
    """A ``table-wrap``: its table unit, then its caption and footnote units linked to it."""
    ctx = _Inline()
    caption, cap_raw = walker._caption_text(el, ctx)
    tables = [t for t in el.iter("{*}table") if _owner(t) is el]
    rows: list[list[tuple[str, int, int]]] = []
    n_header = 0
    cell_ctx = _Inline()
    for ti, table in enumerate(tables):
        for group, row_els in _row_groups(table):
            for tr in row_els:
                cells = [c for c in tr if _local(c) in ("td", "th")]
                rows.append(
                    [
                        (
                            walker.text(c, cell_ctx),
                            span_value(c.get("rowspan")),
                            span_value(c.get("colspan")),
                        )
                        for c in cells
                    ]
                )
                if ti == 0 and group == "thead":
                    n_header += 1
    if tables and n_header == 0:
        n_header = _leading_th_rows(tables[0])
    foot_texts: list[tuple[str, str, list[Annotation]]] = []
    for foot in el.iter("{*}table-wrap-foot"):
        for item in foot:
            tag = _local(item)
            items = [f for f in item if _local(f) == "fn"] if tag == "fn-group" else [item]
            for fn in items:
                if not _local(fn) or _local(fn) in ("title", "label"):
                    continue
                fctx = _Inline()
                text = clean_text(walker.text(fn, fctx))
                if text:
                    foot_texts.append((text, _raw(fn), walker._label_ann(fn) + fctx.annotations))
    label_el = el.find("label")
    visible_label = clean_text(walker.text(label_el, _Inline())) if label_el is not None else ""
    table = cells_to_table(
        rows,
        n_header_rows=n_header,
        caption=caption or None,
        label=el.get("id") or visible_label or None,
        footnotes=[t for t, _, _ in foot_texts],
        max_span=walker.config.max_span,
    )
    if not tables:
        walker.flags.add("table_without_cells")
    ti = walker.add(
        "table",
        "",
        _raw(el),
        section,
        table=table,
        annotations=walker._label_ann(el) + cell_ctx.annotations,
    )
    if caption:
        ci = walker.add("caption", caption, cap_raw, section, annotations=ctx.annotations)
        walker.link(ti, ci)
    for text, raw, anns in foot_texts:
        fi = walker.add("footnote", text, raw, section, annotations=anns)
        walker.link(ti, fi)
    walker.floats(ctx.floats + cell_ctx.floats, section)


def _owner(table: etree._Element) -> etree._Element | None:
    node = table.getparent()
    while node is not None and _local(node) != "table-wrap":
        node = node.getparent()
    return node


def _row_groups(table: etree._Element) -> list[tuple[str, list[etree._Element]]]:
    groups: list[tuple[str, list[etree._Element]]] = []
    loose: list[etree._Element] = []
    for child in table:
        tag = _local(child)
        if tag in ("thead", "tbody", "tfoot"):
            groups.append((tag, [r for r in child if _local(r) == "tr"]))
        elif tag == "tr":
            loose.append(child)
    if loose:
        groups.append(("tbody", loose))
    # tfoot may precede tbody in the source; it reads last.
    return [g for g in groups if g[0] != "tfoot"] + [g for g in groups if g[0] == "tfoot"]


def _leading_th_rows(table: etree._Element) -> int:
    n = 0
    for tr in table.iter("{*}tr"):
        cells = [c for c in tr if _local(c) in ("td", "th")]
        if cells and all(_local(c) == "th" for c in cells):
            n += 1
        else:
            break
    return n
