"""SEC EDGAR ``.htm`` (and generic HTML) twin parser.

What it does, in order:

1. **SGML wrapper.** Full EDGAR submissions wrap each file in
   ``<DOCUMENT><TYPE>..<SEQUENCE>..<FILENAME>..<TEXT>..</TEXT></DOCUMENT>``,
   one ``<DOCUMENT>`` per file (the main form first, then exhibits such as
   ``EX-21``, graphics, XBRL). The parser takes the ``<TEXT>`` body of the
   *main* document: the first ``<DOCUMENT>`` whose ``<TYPE>`` is not an
   exhibit (``EX-*``), graphic, ZIP, XML, JSON or Excel part, or the one whose
   type equals :attr:`HtmConfig.document_type` when that is set. An
   ``<XBRL>`` envelope inside ``<TEXT>`` is unwrapped. Files without the
   wrapper (a bare ``.htm``) are parsed whole.
2. **HTML parsing** with ``lxml.html`` (libxml2): no network, no entity
   resolution, no ``huge_tree`` (libxml2 then stops at nesting depth 256; the
   content below that depth is lost and the document gets the flag
   ``html_depth_limit``).
3. **Hidden content dropped:** ``head``, ``script``, ``style``, ``nav``,
   ``ix:header`` (the iXBRL facts block), elements styled ``display:none`` or
   ``visibility:hidden`` or with the ``hidden`` attribute, and Wikipedia
   navigation/edit-link chrome. The visible text of ``ix:nonNumeric`` /
   ``ix:nonFraction`` is kept as ordinary inline text.
4. **Paragraphs from blocks.** Inline content (text, ``span``, ``a``, ``b``,
   ``ix:*``...) is gathered until a block element (``p``, ``div``, ``li``,
   headings, ``table``, ``hr``...) starts or ends; each run is one paragraph.
   So a ``div`` that holds only inline content is one paragraph, and nested
   ``div``s give one paragraph per innermost text block.
5. **Furniture dropped:** page-number lines (``23``, ``Page 23``, ``F-3``,
   ``ii``, ``23 of 120``) and "Table of Contents" back-links that EDGAR
   filings repeat at the top of each page. Page breaks (``<hr>``,
   ``page-break-*`` styles) end a paragraph; a paragraph cut by a page break
   (previous text ends without sentence punctuation and the next starts in
   lower case) is joined again.
6. **Headings and sections.** ``h1``-``h6`` give levels 1-6; ``PART I`` lines
   are level 1 and ``Item 1A.`` lines level 2 (EDGAR's structure); other short
   lines that are entirely bold or underlined (at most 20 words, not ending
   in ``.``/``,``/``;``) are headings one level below the last structural
   heading. A heading replaces the section path from its level down; every
   unit carries the path, headings included.
7. **Tables.** Rows and cells with ``colspan``/``rowspan`` expanded to a grid
   (spans capped at 200 columns/rows). Cells holding only ``$``/``(`` are
   merged into the next number to their right and cells holding only
   ``)``/``%``/``)%`` into the number to their left (so ``$ | 1,234`` is
   ``$1,234`` and ``(123 | )`` is ``(123)``). Then grid columns are grouped
   into logical columns: EDGAR tables are drawn with spacer and symbol
   columns, so adjacent grid columns are merged while no row has text in
   both (a greedy left-to-right sweep); empty rows and columns are removed.
   Header rows: leading rows of ``th`` cells, otherwise the leading rows with
   no numeric cell when a later row has one (at most 5); in a table without
   numbers, a first row that heads its columns (all cells filled, none
   repeated below, no digits over a column of item numbers: ``Exhibit |
   Description``).

   **Layout tables become text:** a table with at most one non-empty cell, or
   with one non-empty row (``Item 1. | Business``), is read as one text line
   and then classified like any paragraph (heading, page number...). A
   two-column table whose first column holds only bullets (``•``, ``-``,
   ``(1)``...) is a list drawn as a table: its rows become ``list_item`` units.

:func:`html_to_text` exposes the same cleaning for an HTML fragment.
"""

from __future__ import annotations

import bisect
import itertools
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import lxml.etree
import lxml.html

from docparse.builder import UnitDraft, build_document, table_text
from docparse.config import ParserConfig, resolve_config
from docparse.errors import DocparseError, EmptyDocumentError, ParseError
from docparse.formats._edgar import (
    _BLOCK_TAGS,
    _BOLD_STYLE,
    _BULLET,
    _DANGLING,
    _ITEM,
    _LEADING_BULLET,
    _NOTE,
    _PAGE_NUMBER,
    _PART,
    _TOC_LINK,
    _UNDERLINE_STYLE,
    _is_hidden,
    _is_page_break,
    _numeric,
    unwrap_sgml,
)
from docparse.formats._encoding import decode_bytes, read_source
from docparse.formats._grid import place_cells, span_value
from docparse.formats._titles import cover_title, first_text, meaningful_title
from docparse.header_rows import heads_text_columns, without_section_labels
from docparse.model import CellSpan, Document, Format, Table, UnitKind
from docparse.text import clean_text

log = logging.getLogger(__name__)

__all__ = ["HtmConfig", "HtmParser", "html_to_text"]


@dataclass(frozen=True, slots=True)
class HtmConfig(ParserConfig):
    """Options of :class:`HtmParser`.

    ``document_type``: in a multi-document EDGAR submission, the ``<TYPE>``
    of the ``<DOCUMENT>`` to parse (e.g. ``"EX-13"``); ``None`` picks the main
    document. ``drop_page_numbers``: drop page-number lines and repeated
    "Table of Contents" links. ``layout_tables_as_text``: read one-row or
    one-cell tables as text. ``max_bold_heading_words``: longest bold or
    underlined line still taken as a heading.
    """

    document_type: str | None = None
    drop_page_numbers: bool = True
    layout_tables_as_text: bool = True
    max_bold_heading_words: int = 20


# ---------------------------------------------------------------------------
# SGML wrapper


# ---------------------------------------------------------------------------
# Element classification


# ---------------------------------------------------------------------------
# Inline text with formatting facts


@dataclass(slots=True)
class _Run:
    """Inline content gathered for one paragraph."""

    parts: list[str] = field(default_factory=list)
    chars: int = 0
    emph_chars: int = 0
    link_chars: int = 0
    internal_link_only: bool = True
    anchors: int = 0

    def add(self, text: str, emph: bool, link: str | None) -> None:
        if not text:
            return
        self.parts.append(text)
        n = len(text.strip())
        self.chars += n
        if emph:
            self.emph_chars += n
        if link is not None:
            self.link_chars += n
            if not link.startswith("#"):
                self.internal_link_only = False

    def text(self) -> str:
        return clean_text("".join(self.parts))


def _emphasis(el: Any, inherited: bool) -> bool:
    if inherited:
        return True
    if el.tag in ("b", "strong", "u") or el.tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
        return True
    style = el.get("style")
    return bool(style) and bool(_BOLD_STYLE.search(style) or _UNDERLINE_STYLE.search(style))


# ---------------------------------------------------------------------------
# Tables


@dataclass(slots=True)
class _Cell:
    text: str
    row: int
    col: int
    row_span: int
    col_span: int
    header: bool


def _cell_text(el: Any) -> str:
    run = _Run()
    _inline(el, run, False, None, in_cell=True)
    return run.text()


def _rows_of(table: Any) -> Iterator[Any]:
    """``tr`` elements of ``table`` that are not inside a nested table."""
    for child in table:
        if not isinstance(child.tag, str) or _is_hidden(child):
            continue
        if child.tag == "tr":
            yield child
        elif child.tag in ("thead", "tbody", "tfoot"):
            for tr in child:
                if isinstance(tr.tag, str) and tr.tag == "tr" and not _is_hidden(tr):
                    yield tr


def _grid(table: Any) -> tuple[list[_Cell], list[bool], int]:
    """Origin cells of ``table`` placed on a grid (``colspan``/``rowspan``
    honoured), whether each row is all ``th``, and the number of rows."""
    rows: list[list[tuple[Any, int, int]]] = []
    th_rows: list[bool] = []
    for tr in _rows_of(table):
        tds = [
            td
            for td in tr
            if isinstance(td.tag, str) and td.tag in ("td", "th") and not _is_hidden(td)
        ]
        rows.append(
            [(td, span_value(td.get("rowspan")), span_value(td.get("colspan"))) for td in tds]
        )
        th_rows.append(bool(tds) and all(td.tag == "th" for td in tds))
    cells = [
        _Cell(_cell_text(p.value), p.row, p.col, p.row_span, p.col_span, p.value.tag == "th")
        for p in place_cells(rows)
    ]
    return cells, th_rows, len(rows)


_LEFT_SYMBOLS = frozenset({"$", "(", "$(", "($", "\u20ac", "\u00a3", "\u00a5"})
_RIGHT_SYMBOLS = frozenset({")", "%", ")%", "%)"})


@dataclass(slots=True)
class _Item:
    """A non-empty cell in one row: grid columns ``[start, end)``."""

    start: int
    end: int
    text: str
    cell: _Cell | None  # the origin cell (None once merged away)
    origin_row: bool  # False for rows a rowspan only covers


def _merge_symbols(items: list[_Item]) -> list[_Item]:
    """Merge ``$``/``(`` items into the number on their right and ``)``/``%``
    items into the number on their left; the merged item covers both."""
    out: list[_Item] = []
    pending: _Item | None = None
    for it in items:
        if pending is not None:
            if it.origin_row and (it.text[:1].isdigit() or it.text[:1] in "(.-\u2014\u2013"):
                it = _Item(pending.start, it.end, pending.text + it.text, it.cell, it.origin_row)
            else:
                out.append(pending)
            pending = None
        if it.origin_row and it.text in _LEFT_SYMBOLS:
            pending = it
            continue
        prev = out[-1] if out else None
        if (
            it.origin_row
            and it.text in _RIGHT_SYMBOLS
            and prev is not None
            and prev.origin_row
            and (prev.text[-1:].isdigit() or prev.text[-1:] in ")%\u2014\u2013-")
        ):
            out[-1] = _Item(prev.start, it.end, prev.text + it.text, prev.cell, True)
            continue
        out.append(it)
    if pending is not None:
        out.append(pending)
    return out


def _boundaries(rows: list[list[_Item]], n_cols: int) -> list[int]:
    """Column boundaries so that any two items of one row fall in different
    logical columns, with as few columns as possible.

    Each pair of neighbouring items asks for a boundary in ``[a.end, b.start]``
    (an interval stabbing problem); the greedy choice of the rightmost point
    is minimal and puts spacer columns with the logical column on their left.
    """
    wants: list[tuple[int, int]] = []
    for items in rows:
        for a, b in itertools.pairwise(items):
            wants.append((min(a.end, b.start), b.start))
    wants.sort(key=lambda w: w[1])
    chosen: list[int] = []
    for lo, hi in wants:
        if not chosen or chosen[-1] < lo:
            chosen.append(hi)
    return sorted(set([0] + [c for c in chosen if 0 < c < n_cols]))


# Over the C901 limit on purpose: grid, symbol merging and header rows share the row loop.
def build_table(table_el: Any) -> Table | None:  # noqa: C901
    """The clean :class:`Table` of a ``<table>`` element, or ``None`` when it
    holds no text at all."""
    cells, th_rows, n_rows = _grid(table_el)
    if not any(c.text for c in cells):
        return None
    n_cols = max(c.col + c.col_span for c in cells)
    rows: list[list[_Item]] = [[] for _ in range(n_rows)]
    for cell in cells:
        if not cell.text:
            continue
        for dr in range(cell.row_span):
            rows[cell.row + dr].append(
                _Item(cell.col, cell.col + cell.col_span, cell.text, cell, dr == 0)
            )
    rows = [_merge_symbols(sorted(items, key=lambda i: i.start)) for items in rows]
    bounds = _boundaries(rows, n_cols)

    def group(col: int) -> int:
        return bisect.bisect_right(bounds, col) - 1

    n_groups = len(bounds)
    grid = [[""] * n_groups for _ in range(n_rows)]
    placed: list[tuple[int, _Item]] = []
    for r, items in enumerate(rows):
        for it in items:
            if not it.origin_row:
                continue
            g = group(it.start)
            grid[r][g] = f"{grid[r][g]} {it.text}".strip()
            placed.append((r, it))
    keep_rows = [r for r in range(n_rows) if any(grid[r])]
    keep_cols = [g for g in range(n_groups) if any(grid[r][g] for r in keep_rows)]
    new_row = {r: i for i, r in enumerate(keep_rows)}
    new_col = {g: i for i, g in enumerate(keep_cols)}
    clean = tuple(tuple(grid[r][g] for g in keep_cols) for r in keep_rows)
    spans: list[CellSpan] = []
    for r, it in placed:
        row_span = it.cell.row_span if it.cell is not None else 1
        cols = [new_col[g] for g in range(group(it.start), group(it.end - 1) + 1) if g in new_col]
        rws = [new_row[x] for x in range(r, min(r + row_span, n_rows)) if x in new_row]
        if cols and rws and (len(cols) > 1 or len(rws) > 1):
            spans.append(CellSpan(rws[0], cols[0], len(rws), len(cols)))
    n_header = 0
    for r in keep_rows:
        if th_rows[r]:
            n_header += 1
        else:
            break
    if n_header == 0:
        numeric_rows = [i for i, row in enumerate(clean) if any(_numeric(c) for c in row[1:])]
        if numeric_rows and 0 < numeric_rows[0] <= 5:
            n_header = without_section_labels(clean, numeric_rows[0])
        elif not numeric_rows and heads_text_columns(clean):
            n_header = 1
    if n_header >= len(clean) and len(clean) > 1:
        n_header = 0
    return Table(rows=clean, n_header_rows=n_header, spans=tuple(spans))


# ---------------------------------------------------------------------------
# The walker


@dataclass(slots=True)
class _Walker:
    config: HtmConfig
    drafts: list[UnitDraft] = field(default_factory=list)
    section: list[tuple[int, str, bool]] = field(default_factory=list)
    run: _Run = field(default_factory=_Run)
    run_raw_el: Any = None
    after_break: bool = False

    # -- paragraphs ---------------------------------------------------
    def flush(self, tag: str | None = None) -> None:
        run, self.run = self.run, _Run()
        raw_el, self.run_raw_el = self.run_raw_el, None
        text = run.text()
        if not text:
            return
        # A mixed container (text beside child blocks) would give every run
        # the whole container as raw; its own text is the honest span then.
        raw = text
        if raw_el is not None and not any(
            isinstance(c.tag, str) and c.tag in _BLOCK_TAGS for c in raw_el
        ):
            raw = _raw_of(raw_el)
        self.emit_text(text, raw, run, tag)

    def emit_text(self, text: str, raw: str, run: _Run | None, tag: str | None) -> None:
        cfg = self.config
        if not any(ch.isalnum() for ch in text):
            return  # rules and signature lines (``_____``) carry no text
        if cfg.drop_page_numbers:
            if _PAGE_NUMBER.match(text):
                return
            if (
                run is not None
                and run.link_chars >= run.chars
                and run.internal_link_only
                and _TOC_LINK.match(text)
            ):
                return
        heading = self.heading_level(text, run, tag)
        if heading is not None:
            self.push_heading(heading[0], heading[1], text, raw)
            return
        kind: UnitKind = "list_item" if tag == "li" else "paragraph"
        bullet = _LEADING_BULLET.match(text)
        if bullet and tag not in ("pre",):
            # EDGAR draws lists as divs starting with a bullet glyph.
            text = text[bullet.end() :]
            kind = "list_item"
        if tag in ("pre",):
            kind = "code"
        elif tag in ("blockquote",):
            kind = "quote"
        elif tag in ("figcaption", "caption"):
            kind = "caption"
        prev = self.drafts[-1] if self.drafts else None
        if (
            self.after_break
            and prev is not None
            and prev.kind == "paragraph"
            and kind == "paragraph"
            and text[:1].islower()
            and not prev.text.rstrip().endswith((".", ":", ";", "!", "?", '"', "\u201d"))
        ):
            prev.text = prev.text + " " + text
            prev.raw = prev.raw + raw
            self.after_break = False
            return
        self.after_break = False
        self.drafts.append(UnitDraft(kind=kind, text=text, raw=raw, section=self.path()))

    def heading_level(
        self, text: str, run: _Run | None, tag: str | None
    ) -> tuple[int, bool] | None:
        """``(level, structural)`` when ``text`` is a heading, else ``None``."""
        if tag is not None and len(tag) == 2 and tag[0] == "h" and tag[1] in "123456":
            return int(tag[1]), True
        n_words = len(text.split())
        if n_words <= 25 and _PART.match(text):
            return 1, True
        if n_words <= 25 and _ITEM.match(text) and not text.endswith((",", ";")):
            return 2, True
        if n_words <= 25 and _NOTE.match(text) and not text.endswith((".", ",", ";")):
            return 3, True
        if (
            run is not None
            and tag != "li"
            and run.chars
            and run.emph_chars >= 0.9 * run.chars
            and n_words <= self.config.max_bold_heading_words
            and not text.endswith((".", ",", ";"))
            and not (text.startswith("(") and text.endswith(")"))
            and sum(ch.isalpha() for ch in text) >= 3
        ):
            structural = [lv for lv, _, st in self.section if st]
            return max(structural, default=0) + 1, False
        return None

    def push_heading(self, level: int, structural: bool, text: str, raw: str) -> None:
        prev = self.drafts[-1] if self.drafts else None
        if (
            prev is not None
            and prev.kind == "heading"
            and not structural
            and self.section
            and _DANGLING.search(prev.text)
        ):
            # A long title wrapped into two blocks ("... MANAGEMENT AND" +
            # "RELATED STOCKHOLDER MATTERS") is one heading.
            lv, title, st = self.section.pop()
            merged = f"{title} {text}"
            self.section.append((lv, merged, st))
            prev.text = merged
            prev.raw += raw
            prev.section = self.path()
            return
        while self.section and self.section[-1][0] >= level:
            self.section.pop()
        self.section.append((level, text, structural))
        self.after_break = False
        self.drafts.append(UnitDraft(kind="heading", text=text, raw=raw, section=self.path()))

    def path(self) -> tuple[str, ...]:
        return tuple(t for _, t, _ in self.section)

    # -- traversal ----------------------------------------------------
    def block(self, el: Any, inherited_emph: bool = False) -> None:
        """Walk a block container: inline runs become paragraphs."""
        tag = el.tag if isinstance(el.tag, str) else ""
        em = _emphasis(el, inherited_emph) if tag not in ("body", "html") else inherited_emph
        if el.text:
            self.add_inline_text(el.text, el, em)
        for child in el:
            if isinstance(child.tag, str) and not _is_hidden(child):
                ctag = child.tag
                if ctag == "table":
                    self.flush(tag)
                    self.table(child)
                elif ctag == "br":
                    self.run.add("\n", em, None)
                elif ctag == "hr":
                    self.flush(tag)
                    self.after_break = True
                elif ctag in _BLOCK_TAGS or _has_block(child):
                    self.flush(tag)
                    if _is_page_break(child) and not _has_text(child):
                        self.after_break = True
                    else:
                        self.block(child, em)
                        self.flush(ctag)
                        if _is_page_break(child):
                            self.after_break = True
                else:
                    if self.run_raw_el is None:
                        self.run_raw_el = el
                    _inline(child, self.run, em, None)
            if child.tail:
                self.add_inline_text(child.tail, el, em)
        self.flush(tag)

    def add_inline_text(self, text: str, parent: Any, emph: bool) -> None:
        if self.run_raw_el is None and text.strip():
            self.run_raw_el = parent
        self.run.add(text, emph, None)

    def table(self, el: Any) -> None:
        tab = build_table(el)
        if tab is None:
            return
        raw = _raw_of(el, None)
        cells = tab.cells()
        if self.config.layout_tables_as_text:
            if len(cells) <= 1 or tab.n_rows == 1:
                run = _Run()
                _inline(el, run, False, None, in_cell=True)
                run.parts = [" ".join(cells)]
                run.chars = max(run.chars, 1)
                run.emph_chars = min(run.emph_chars, run.chars)
                self.emit_text(clean_text(" ".join(cells)), raw, run, None)
                return
            if _is_bullet_table(tab):
                for row in tab.rows:
                    text = " ".join(c for c in row[1:] if c)
                    if text:
                        self.drafts.append(
                            UnitDraft(kind="list_item", text=text, raw=raw, section=self.path())
                        )
                self.after_break = False
                return
        caption = None
        cap = el.find("caption")
        if cap is not None:
            caption = _cell_text(cap) or None
        if caption:
            tab = Table(tab.rows, tab.n_header_rows, tab.spans, caption=caption)
        self.after_break = False
        self.drafts.append(
            UnitDraft(kind="table", text=table_text(tab), raw=raw, section=self.path(), table=tab)
        )


def _is_bullet_table(tab: Table) -> bool:
    if tab.n_cols < 2:
        return False
    firsts = [row[0] for row in tab.rows]
    return all(_BULLET.match(c) for c in firsts) and all(any(row[1:]) for row in tab.rows)


def _has_block(el: Any) -> bool:
    """Whether an inline element wraps block content (old filings put ``<p>``
    inside ``<font>``); such wrappers are walked as blocks."""
    return any(isinstance(d.tag, str) and (d.tag in _BLOCK_TAGS) for d in el.iterdescendants())


def _has_text(el: Any) -> bool:
    return bool("".join(el.itertext()).strip())


def _raw_of(el: Any, limit: int | None = 100_000) -> str:
    try:
        raw = str(lxml.html.tostring(el, encoding="unicode", with_tail=False))
    except (lxml.etree.LxmlError, ValueError):
        return ""
    # Provenance, not storage: cap huge text spans; tables keep their whole
    # markup so that html_to_text(unit.raw) gives the unit text back.
    return raw if limit is None or len(raw) <= limit else raw[:limit]


def _inline(el: Any, run: _Run, emph: bool, link: str | None, *, in_cell: bool = False) -> None:
    """Append the visible text under ``el`` to ``run`` (iteratively, so that
    deep inline nesting cannot exhaust the Python stack)."""
    stack: list[tuple[Any, bool, str | None, bool]] = [(el, emph, link, False)]
    while stack:
        node, em, lk, is_text = stack.pop()
        if is_text:
            run.add(node, em, lk)
            continue
        # The tail follows the element and is visible even when the element
        # is hidden (or is a <br>); pushed first, it is read last.
        if node is not el and node.tail:
            stack.append((node.tail, em, lk, True))
        if not isinstance(node.tag, str) or _is_hidden(node):
            continue
        tag = node.tag
        if tag == "br":
            run.add("\n", em, lk)
            continue
        em2 = _emphasis(node, em)
        lk2 = lk
        if tag == "a" and node.get("href") is not None:
            lk2 = node.get("href") or ""
        block_sep = in_cell and tag in _BLOCK_TAGS and tag not in ("td", "th", "tr")
        if block_sep:
            stack.append((" ", em2, lk2, True))
        for child in reversed(node):
            stack.append((child, em2, lk2, False))
        if node.text:
            stack.append((node.text, em2, lk2, True))
        if block_sep:
            stack.append((" ", em2, lk2, True))


# ---------------------------------------------------------------------------
# Entry points

_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)


def _parser() -> lxml.html.HTMLParser:
    return lxml.html.HTMLParser(
        remove_comments=True,
        remove_pis=True,
        no_network=True,
        huge_tree=False,
        recover=True,
        default_doctype=False,
    )


def _parse_tree(html: str, path: str | Path | None) -> tuple[Any, bool]:
    html = _XML_DECL.sub("", html, count=1)
    if not html.strip():
        raise EmptyDocumentError(path, "no HTML content")
    parser = _parser()
    try:
        root = lxml.html.document_fromstring(html, parser=parser)
    except (lxml.etree.ParserError, lxml.etree.XMLSyntaxError, ValueError) as exc:
        raise ParseError(path, f"HTML could not be parsed: {exc}", cause=exc) from exc
    depth_limited = any("depth" in str(e.message).lower() for e in parser.error_log)
    return root, depth_limited


def _walk(root: Any, config: HtmConfig) -> list[UnitDraft]:
    walker = _Walker(config)
    body = root.find(".//body")
    start = body if body is not None else root
    try:
        walker.block(start)
    except RecursionError as exc:
        raise ParseError(None, "HTML nested too deeply", cause=exc) from exc
    return walker.drafts


_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:\-]+)""", re.I)


def _decode_html(data: bytes, path: Path) -> str:
    """UTF-8 when the bytes are UTF-8, else the ``<meta charset>`` encoding,
    else detection (:func:`~docparse.formats._encoding.decode_bytes`)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    m = _META_CHARSET.search(data[:8192])
    if m:
        try:
            return data.decode(m.group(1).decode("ascii"))
        except (UnicodeDecodeError, LookupError):
            pass
    return decode_bytes(data, path)[0]


def _ixbrl_title(root: Any) -> str:
    """``"<registrant> <form type>"`` from iXBRL ``dei`` facts, or ``""``.

    The ``<title>`` of an iXBRL filing is a file stem (``amd-20221231``), so
    the registrant name and document type facts make a better title.
    """
    facts: dict[str, str] = {}
    for el in root.iter("ix:nonnumeric"):
        name = (el.get("name") or "").lower()
        if name in ("dei:entityregistrantname", "dei:documenttype") and name not in facts:
            facts[name] = clean_text(el.text_content())
        if len(facts) == 2:
            break
    return clean_text(
        f"{facts.get('dei:entityregistrantname', '')} {facts.get('dei:documenttype', '')}"
    )


def html_to_text(fragment: str) -> str:
    """Clean text of an HTML fragment, as :class:`HtmParser` puts it in units.

    Paragraph-level pieces are joined by single spaces; a ``<table>`` gives
    the table-unit text (non-empty cells after symbol merging, joined by
    spaces). Hidden content is dropped as in a full parse and no tag or entity
    survives; page-number lines are kept (a lone ``23`` in evidence is more
    likely a table value than a page number).

    >>> html_to_text("<table><tr><td>$</td><td>1,234</td><td>(5</td><td>)</td></tr></table>")
    '$1,234 (5)'
    """
    if not fragment or not fragment.strip():
        return ""
    try:
        root, _ = _parse_tree(f"<html><body>{fragment}</body></html>", None)
    except EmptyDocumentError:
        return ""
    drafts = _walk(root, HtmConfig(drop_page_numbers=False))
    return clean_text(" ".join(d.text for d in drafts))


class HtmParser:
    """EDGAR ``.htm`` / HTML twin parser (see the module docstring for rules)."""

    name = "htm"
    format: Format = "htm"
    config_class = HtmConfig

    def parse(self, path: Path, config: HtmConfig | dict[str, Any] | None = None) -> Document:
        """Parse ``path`` into a :class:`~docparse.model.Document`."""
        cfg = resolve_config(HtmConfig, config)
        path = Path(path)
        data = read_source(path)
        text = _decode_html(data, path)
        try:
            unwrapped = unwrap_sgml(text, cfg.document_type)
            root, depth_limited = _parse_tree(unwrapped.html, path)
            drafts = _walk(root, cfg)
        except DocparseError as exc:
            if exc.path is None:
                exc.path = str(path)
            raise
        title = _ixbrl_title(root) or cover_title(d.text for d in drafts[:80])
        if not title and unwrapped.company:
            title = f"{unwrapped.company} {unwrapped.doc_type or ''}".strip()
        if not title:
            title = first_text(root, ".//h1") or meaningful_title(first_text(root, ".//title"))
        flags: list[str] = []
        if depth_limited:
            log.warning("%s: HTML nesting beyond libxml2's depth limit was cut", path)
            flags.append("html_depth_limit")
        if unwrapped.n_documents > 1:
            flags.append(f"sgml_documents:{unwrapped.n_documents}")
        return build_document(
            path=path,
            format="htm",
            backend=self.name,
            drafts=drafts,
            title=title or None,
            flags=flags,
        )
