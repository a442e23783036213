"""PubMed Central JATS XML (``.nxml``) to the docparse document model.

What becomes what
-----------------
* ``front/article-meta/title-group/article-title``: a ``title`` unit and
  :attr:`Document.title`.
* every ``abstract`` of the article (not ``trans-abstract``): ``abstract``
  units. The section path starts with the abstract's own ``<title>``, else its
  ``abstract-type`` (``"Teaser"``), else ``"Abstract"``; a structured
  abstract's ``sec/title`` adds a level, e.g. ``("Abstract", "Background")``.
  Abstract sub-titles are ``heading`` units.
* ``body``: nested ``sec`` elements give the section path (titles outermost
  first; a ``label`` such as ``2.1`` is put before its title, as the PDF shows
  it). Every ``sec/title`` is a ``heading`` unit whose ``section`` includes
  itself. ``p`` gives ``paragraph`` units; a ``list``/``def-list``/
  ``disp-quote`` inside a ``p`` splits it (text before, the block, text after)
  because that is how it reads. Floats anchored inside a ``p`` (``table-wrap``,
  ``fig``, ``fn``, ``supplementary-material``, ``boxed-text``) do not split
  it: they are emitted after the paragraph.
* ``table-wrap``: one ``table`` unit (the cells of every ``table`` inside it,
  ``rowspan``/``colspan`` as :class:`~docparse.model.CellSpan`, header rows
  from ``thead``, or leading all-``th`` rows without ``thead``), one
  ``caption`` unit (label + caption) and one ``footnote`` unit per
  ``table-wrap-foot`` note; caption and footnote units are linked to the
  table through ``related`` both ways. ``Table.caption`` is the visible label
  plus caption ("Table 1 Pairwise comparisons ..."), ``Table.label`` the
  element ``id`` (what ``xref rid`` points at, so a ``ref`` annotation can be
  followed to its table), ``Table.footnotes`` the note texts. A
  ``table-wrap`` that only holds an image still gives a table unit (no cells,
  empty text) so that table counts match the source.
* ``fig`` and ``supplementary-material``: ``caption`` units (label +
  caption). ``boxed-text``: its content as blocks, under its title.
* ``list``/``list-item``: one ``list_item`` unit per item (label + its
  paragraphs; a nested list gives its own items). ``def-list``: "term
  definition" list items.
* ``disp-formula`` inside a ``p`` stays in the paragraph text; a
  ``disp-formula`` between paragraphs is an ``equation`` unit. MathML is
  rendered as the text of its tokens; ``tex-math`` through pylatexenc (Greek
  letters and operators to Unicode).
* ``fn`` (in the body, ``fn-group`` in the back matter, anchored in a ``p``):
  ``footnote`` units.
* back matter: ``ack``, ``app-group/app``, ``sec``, ``notes``, ``glossary``
  and ``fn-group`` are included with their sections. ``ref-list`` gives no
  units; each ``ref`` becomes a :class:`~docparse.model.Reference` (id,
  title, authors "Surname Given-names", year, DOI, PMID) in
  :attr:`Document.references`. A citation without tagged fields keeps its
  whole text as the title.
* ``floats-group`` (figures and tables collected at the end of the article):
  each float is placed after the first body paragraph that refers to it,
  else at the end of the body.
* ``sub-article``/``response`` (e.g. decision letters): their title is a
  heading and their body and back matter follow under it.
* Front matter other than title and abstracts (authors, affiliations,
  ``author-notes``, keywords) is not turned into units.

Inline markup
-------------
``italic``, ``bold``, ``sup``, ``sub``, ``ext-link`` ... are flattened to their
text; block boundaries (``p``, ``title``, ``break``, cells) become spaces.
In-text citations keep their visible text ("[12]", "Wang et al., 2006") so
the clean text reads like the PDF; each ``xref ref-type="bibr"`` also becomes
``Annotation(kind="cite", target=<ref id>)`` (one per id in ``rid``), which
is an id in :attr:`Document.references`. Other ``xref`` give ``ref``
annotations (``fn``/``table-fn`` give ``footnote``), ``ext-link``/``uri``
give ``url`` annotations. Figure, table, footnote and section ids are kept as
``label`` annotations on the unit they name.

Safety
------
The XML parser never loads a DTD, never touches the network and never
resolves entities (``resolve_entities=False``): an external entity such as
``<!ENTITY x SYSTEM "file:///etc/passwd">`` is dropped (the document gets the
flag ``external_entity_ignored``). Internal text entities are expanded here,
within a budget of :attr:`JatsConfig.max_entity_chars` characters per
document (beyond it :class:`~docparse.errors.UnsafeInputError`); libxml2's
own amplification limit (``huge_tree=False``) stops a billion-laughs
declaration during parsing, which is reported as
:class:`~docparse.errors.UnsafeInputError` too. Undeclared HTML entity names
(``&alpha;`` from the JATS DTD that is not loaded) become their character.
"""

from __future__ import annotations

import html.entities
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from docparse.builder import DraftList, build_document
from docparse.config import ParserConfig
from docparse.errors import (
    CorruptDocumentError,
    EmptyDocumentError,
    ParseError,
    UnsafeInputError,
)
from docparse.formats._encoding import read_source
from docparse.formats._floats import FloatQueue
from docparse.formats._grid import cells_to_table, span_value
from docparse.formats._jats_refs import _references
from docparse.formats._jats_xml import (
    _BACK_SECTIONS,
    _FLOATS,
    _SILENT,
    _SPACED,
    _SPLITTERS,
    _XLINK_HREF,
    _ids,
    _internal_entities,
    _local,
    _raw,
    safe_xml_parser,
)
from docparse.formats._math import tex_math_to_text
from docparse.model import (
    Annotation,
    AnnotationKind,
    Document,
    UnitKind,
)
from docparse.model import Format as _Format
from docparse.text import clean_text

log = logging.getLogger(__name__)

__all__ = [
    "JatsConfig",
    "JatsParser",
    "cells_to_table",
    "safe_xml_parser",
    "span_value",
]


@dataclass(frozen=True, slots=True)
class JatsConfig(ParserConfig):
    """Options of the JATS parser.

    ``include_back``: ack, appendices, back-matter sections and notes.
    ``include_sub_articles``: bodies of ``sub-article``/``response``.
    ``equation_units``: a ``disp-formula`` standing between paragraphs is an
    ``equation`` unit (else a ``paragraph``).
    ``max_bytes``: larger files raise :class:`~docparse.errors.UnsafeInputError`.
    ``max_entity_chars``: budget for expanding internal text entities.
    ``max_span``: ``rowspan``/``colspan`` values above it are clipped.
    """

    include_back: bool = True
    include_sub_articles: bool = True
    equation_units: bool = True
    max_bytes: int = 200_000_000
    max_entity_chars: int = 100_000
    max_span: int = 200


# --------------------------------------------------------------------------- walker


@dataclass(slots=True)
class _Inline:
    """Collects what inline rendering finds besides text."""

    annotations: list[Annotation] = field(default_factory=list)
    floats: list[etree._Element] = field(default_factory=list)


class _Walker(DraftList):
    """Turns one parsed JATS tree into drafts. One instance per parse."""

    def __init__(self, path: Path, config: JatsConfig, entities: dict[str, str]) -> None:
        super().__init__()
        self.path = path
        self.config = config
        self.entities = entities
        self.entity_budget = config.max_entity_chars
        self.flags: set[str] = set()
        #: floats-group members by id, waiting for their first reference.
        self.waiting: FloatQueue[etree._Element] = FloatQueue()

    # ----------------------------------------------------------------- text

    def _entity(self, name: str) -> str:
        if name in self.entities:
            value = self.entities[name]
            self.entity_budget -= len(value)
            if self.entity_budget < 0:
                raise UnsafeInputError(
                    self.path,
                    "entity expansion exceeds the limit of "
                    f"{self.config.max_entity_chars} characters (entity bomb?)",
                )
            return value
        char = html.entities.html5.get(name + ";")
        if char is not None:
            return char
        self.flags.add("unresolved_entities")
        return ""

    def text(self, el: etree._Element, ctx: _Inline, *, top: bool = True) -> str:
        """Flattened text of ``el`` (its tail excluded)."""
        parts: list[str] = []
        self._text_into(el, ctx, parts, top=top)
        return "".join(parts)

    def _children_text(self, el: etree._Element, ctx: _Inline, parts: list[str]) -> None:
        if el.text:
            parts.append(el.text)
        for child in el:
            if isinstance(child, etree._Entity):
                parts.append(self._entity(str(child.name)))
            else:
                self._text_into(child, ctx, parts, top=False)
            if child.tail:
                parts.append(child.tail)

    def _text_into(self, el: etree._Element, ctx: _Inline, parts: list[str], *, top: bool) -> None:
        tag = _local(el)
        if not top:
            if tag in _FLOATS:
                ctx.floats.append(el)
                return
            if tag in _SILENT or not tag:
                return
        spaced = tag in _SPACED
        if spaced:
            parts.append(" ")
        if tag == "xref":
            start = len(parts)
            self._children_text(el, ctx, parts)
            visible = clean_text("".join(parts[start:]))
            ref_type = el.get("ref-type", "")
            kind: AnnotationKind = (
                "cite"
                if ref_type == "bibr"
                else "footnote"
                if ref_type in ("fn", "table-fn")
                else "ref"
            )
            for rid in _ids(el):
                ctx.annotations.append(Annotation(kind, rid, visible))
        elif tag in ("ext-link", "uri", "self-uri"):
            start = len(parts)
            self._children_text(el, ctx, parts)
            target = el.get(_XLINK_HREF) or clean_text("".join(parts[start:]))
            if target:
                ctx.annotations.append(
                    Annotation("url", target, clean_text("".join(parts[start:])))
                )
        elif tag == "break":
            pass
        elif tag == "alternatives":
            chosen = self._choose_alternative(el)
            if chosen is not None:
                self._text_into(chosen, ctx, parts, top=False)
        elif tag == "tex-math":
            parts.append(" " + tex_math_to_text(self._plain(el)) + " ")
        elif tag == "math":
            parts.append(" " + self._mathml(el) + " ")
        else:
            self._children_text(el, ctx, parts)
        if spaced:
            parts.append(" ")

    def _plain(self, el: etree._Element) -> str:
        """All character data under ``el`` (entities resolved), no rules."""
        parts: list[str] = []
        if el.text:
            parts.append(el.text)
        for child in el:
            if isinstance(child, etree._Entity):
                parts.append(self._entity(str(child.name)))
            elif _local(child):
                parts.append(self._plain(child))
            if child.tail:
                parts.append(child.tail)
        return "".join(parts)

    def _mathml(self, el: etree._Element) -> str:
        """MathML as the text of its tokens; operators spaced, fractions split."""
        tag = _local(el)
        if tag in ("annotation", "annotation-xml"):
            return ""
        if tag in ("mi", "mn", "mtext", "ms"):
            return self._plain(el)
        if tag == "mo":
            op = clean_text(self._plain(el))
            return f" {op} " if op not in ("(", ")", "[", "]", "{", "}", "|") else op
        if tag == "semantics":
            first = next((c for c in el if _local(c)), None)
            return self._mathml(first) if first is not None else ""
        sep = " " if tag in ("mfrac", "mtr", "mtable", "mtd") else ""
        body = sep.join(self._mathml(c) for c in el if _local(c))
        return clean_text(body) if tag == "math" else body

    @staticmethod
    def _choose_alternative(el: etree._Element) -> etree._Element | None:
        children = [c for c in el if _local(c)]
        for want in ("table", "math", "tex-math", "textual-form"):
            for c in children:
                if _local(c) == want:
                    return c
        for c in children:
            if _local(c) not in _SILENT:
                return c
        return None

    # ----------------------------------------------------------------- drafts

    @staticmethod
    def _label_ann(el: etree._Element) -> list[Annotation]:
        eid = el.get("id")
        return [Annotation("label", eid)] if eid else []

    def _title_of(self, el: etree._Element) -> tuple[str, str]:
        """(label + title text, raw) of a section-like element."""
        ctx = _Inline()
        label = el.find("label")
        title = el.find("title")
        parts = []
        raws = []
        for part in (label, title):
            if part is not None:
                parts.append(self.text(part, ctx))
                raws.append(_raw(part))
        return clean_text(" ".join(parts)), "".join(raws)

    # ----------------------------------------------------------------- blocks

    def blocks(self, parent: etree._Element, section: tuple[str, ...], kind: UnitKind) -> None:
        """Units of the block-level children of ``parent``."""
        for child in parent:
            self.block(child, section, kind)

    # Over the C901 limit on purpose: dispatch over JATS block elements, one branch per element.
    def block(self, el: etree._Element, section: tuple[str, ...], kind: UnitKind) -> None:  # noqa: C901
        tag = _local(el)
        if not tag or tag in _SILENT or tag in ("label", "title", "ref-list"):
            return
        if tag in ("sec", "app", "ack", "notes", "glossary", "bio"):
            self.section(el, section, kind)
        elif tag == "p":
            self.paragraph(el, section, kind)
        elif tag in ("list", "def-list"):
            self.list_(el, section)
        elif tag == "table-wrap":
            self.table_wrap(el, section)
        elif tag in ("table-wrap-group", "fig-group"):
            self.caption(el, section)
            self.blocks(el, section, kind)
        elif tag in ("fig", "supplementary-material", "chem-struct-wrap"):
            self.caption(el, section)
        elif tag == "boxed-text":
            title, raw = self._title_of(el)
            cap_title = el.find("caption/title")
            if not title and cap_title is not None:
                title, raw = clean_text(self.text(cap_title, _Inline())), _raw(cap_title)
            inner = (*section, title) if title else section
            if title:
                self.add("heading", title, raw, inner, annotations=self._label_ann(el))
            self.blocks(el, inner, kind)
        elif tag == "disp-formula":
            ctx = _Inline()
            text = self.text(el, ctx)
            unit: UnitKind = "equation" if self.config.equation_units else kind
            self.add(unit, text, _raw(el), section, annotations=ctx.annotations)
        elif tag == "fn":
            self.footnote(el, section)
        elif tag == "fn-group":
            title, raw = self._title_of(el)
            if title:
                self.add("heading", title, raw, (*section, title))
                section = (*section, title)
            for fn in el:
                self.block(fn, section, kind)
        elif tag in ("disp-quote", "statement", "speech", "verse-group"):
            quote_kind: UnitKind = "quote" if tag == "disp-quote" else kind
            title, raw = self._title_of(el)
            if title:
                self.add("heading", title, raw, section)
            for child in el:
                if _local(child) == "p":
                    self.paragraph(child, section, quote_kind)
                else:
                    self.block(child, section, quote_kind)
        elif tag in ("preformat", "code"):
            ctx = _Inline()
            self.add("code", self._plain(el), _raw(el), section, annotations=ctx.annotations)
        elif tag == "array":
            # A bare tabular without table-wrap: read as text so table-unit
            # counts stay equal to table-wrap counts.
            ctx = _Inline()
            self.add(kind, self.text(el, ctx), _raw(el), section, annotations=ctx.annotations)
        elif tag in ("caption", "attrib", "permissions"):
            return
        elif any(_local(c) in ("p", "sec") for c in el):
            self.blocks(el, section, kind)
        else:
            ctx = _Inline()
            text = self.text(el, ctx)
            if clean_text(text):
                self.add(kind, text, _raw(el), section, annotations=ctx.annotations)
            self.floats(ctx.floats, section)

    def section(self, el: etree._Element, section: tuple[str, ...], kind: UnitKind) -> None:
        title, raw = self._title_of(el)
        inner = section
        if title:
            inner = (*section, title)
            self.add("heading", title, raw, inner, annotations=self._label_ann(el))
        elif _local(el) == "ack":
            inner = (*section, "Acknowledgements")
        self.blocks(el, inner, kind)

    def paragraph(self, el: etree._Element, section: tuple[str, ...], kind: UnitKind) -> None:
        """A ``p``: split at block children, floats after it."""
        raw = _raw(el)
        ctx = _Inline()
        parts: list[str] = []
        deferred: list[etree._Element] = []

        def flush() -> None:
            text = "".join(parts)
            if clean_text(text):
                self.add(kind, text, raw, section, annotations=ctx.annotations)
                if kind != "abstract":
                    self._place_referenced(ctx.annotations, section)
            parts.clear()
            ctx.annotations = []

        if el.text:
            parts.append(el.text)
        for child in el:
            if isinstance(child, etree._Entity):
                parts.append(self._entity(str(child.name)))
            else:
                tag = _local(child)
                if tag in _SPLITTERS:
                    flush()
                    self.block(child, section, kind)
                elif tag in _FLOATS:
                    deferred.append(child)
                elif tag:
                    self._text_into(child, ctx, parts, top=False)
            if child.tail:
                parts.append(child.tail)
        flush()
        deferred.extend(ctx.floats)
        self.floats(deferred, section)

    def floats(self, elements: Sequence[etree._Element], section: tuple[str, ...]) -> None:
        for f in elements:
            self.block(f, section, "paragraph")

    def _place_referenced(
        self, annotations: Sequence[Annotation], section: tuple[str, ...]
    ) -> None:
        """Emit floats-group members first referenced by this paragraph."""
        refs = (ann.target for ann in annotations if ann.kind == "ref")
        for _, float_el in self.waiting.take(refs):
            self.block(float_el, section, "paragraph")

    def list_(self, el: etree._Element, section: tuple[str, ...]) -> None:
        title, raw = self._title_of(el)
        if title:
            self.add("heading", title, raw, section)
        for item in el:
            tag = _local(item)
            if tag == "list-item":
                self._list_item(item, section)
            elif tag == "def-item":
                ctx = _Inline()
                self.add(
                    "list_item",
                    self.text(item, ctx),
                    _raw(item),
                    section,
                    annotations=ctx.annotations,
                )
                self.floats(ctx.floats, section)
            elif tag in ("list", "def-list"):
                self.list_(item, section)

    def _list_item(self, item: etree._Element, section: tuple[str, ...]) -> None:
        ctx = _Inline()
        parts: list[str] = []
        nested: list[etree._Element] = []
        for child in item:
            tag = _local(child)
            if tag in ("list", "def-list"):
                nested.append(child)
            elif tag == "p":
                # A list inside the item's paragraph is a nested list too.
                parts.append(" ")
                if child.text:
                    parts.append(child.text)
                for sub in child:
                    if isinstance(sub, etree._Entity):
                        parts.append(self._entity(str(sub.name)))
                    elif _local(sub) in ("list", "def-list"):
                        nested.append(sub)
                    elif _local(sub):
                        self._text_into(sub, ctx, parts, top=False)
                    if sub.tail:
                        parts.append(sub.tail)
                parts.append(" ")
            elif tag:
                self._text_into(child, ctx, parts, top=False)
        self.add("list_item", "".join(parts), _raw(item), section, annotations=ctx.annotations)
        self.floats(ctx.floats, section)
        for sub in nested:
            self.list_(sub, section)

    def footnote(self, el: etree._Element, section: tuple[str, ...]) -> int:
        ctx = _Inline()
        text = self.text(el, ctx)
        i = self.add(
            "footnote", text, _raw(el), section, annotations=self._label_ann(el) + ctx.annotations
        )
        self.floats(ctx.floats, section)
        return i

    def _caption_text(self, el: etree._Element, ctx: _Inline) -> tuple[str, str]:
        """(label + caption, caption raw) of a figure/table-like element."""
        label = el.find("label")
        cap = el.find("caption")
        if cap is None:
            media = el.find("media")
            cap = media.find("caption") if media is not None else None
        parts = [self.text(label, ctx) if label is not None else ""]
        raw = ""
        if cap is not None:
            parts.append(self.text(cap, ctx))
            raw = _raw(cap)
        return clean_text(" ".join(parts)), raw or (_raw(label) if label is not None else "")

    def caption(self, el: etree._Element, section: tuple[str, ...]) -> int | None:
        ctx = _Inline()
        text, raw = self._caption_text(el, ctx)
        if not text:
            return None
        i = self.add(
            "caption", text, raw, section, annotations=self._label_ann(el) + ctx.annotations
        )
        self.floats(ctx.floats, section)
        return i

    def table_wrap(self, el: etree._Element, section: tuple[str, ...]) -> None:
        ctx = _Inline()
        caption, cap_raw = self._caption_text(el, ctx)
        tables = [t for t in el.iter("{*}table") if self._owner(t) is el]
        rows: list[list[tuple[str, int, int]]] = []
        n_header = 0
        cell_ctx = _Inline()
        for ti, table in enumerate(tables):
            for group, row_els in self._row_groups(table):
                for tr in row_els:
                    cells = [c for c in tr if _local(c) in ("td", "th")]
                    rows.append(
                        [
                            (
                                self.text(c, cell_ctx),
                                span_value(c.get("rowspan")),
                                span_value(c.get("colspan")),
                            )
                            for c in cells
                        ]
                    )
                    if ti == 0 and group == "thead":
                        n_header += 1
        if tables and n_header == 0:
            n_header = self._leading_th_rows(tables[0])
        foot_texts: list[tuple[str, str, list[Annotation]]] = []
        for foot in el.iter("{*}table-wrap-foot"):
            for item in foot:
                tag = _local(item)
                items = [f for f in item if _local(f) == "fn"] if tag == "fn-group" else [item]
                for fn in items:
                    if not _local(fn) or _local(fn) in ("title", "label"):
                        continue
                    fctx = _Inline()
                    text = clean_text(self.text(fn, fctx))
                    if text:
                        foot_texts.append((text, _raw(fn), self._label_ann(fn) + fctx.annotations))
        label_el = el.find("label")
        visible_label = clean_text(self.text(label_el, _Inline())) if label_el is not None else ""
        table = cells_to_table(
            rows,
            n_header_rows=n_header,
            caption=caption or None,
            label=el.get("id") or visible_label or None,
            footnotes=[t for t, _, _ in foot_texts],
            max_span=self.config.max_span,
        )
        if not tables:
            self.flags.add("table_without_cells")
        ti = self.add(
            "table",
            "",
            _raw(el),
            section,
            table=table,
            annotations=self._label_ann(el) + cell_ctx.annotations,
        )
        if caption:
            ci = self.add("caption", caption, cap_raw, section, annotations=ctx.annotations)
            self.link(ti, ci)
        for text, raw, anns in foot_texts:
            fi = self.add("footnote", text, raw, section, annotations=anns)
            self.link(ti, fi)
        self.floats(ctx.floats + cell_ctx.floats, section)

    @staticmethod
    def _owner(table: etree._Element) -> etree._Element | None:
        node = table.getparent()
        while node is not None and _local(node) != "table-wrap":
            node = node.getparent()
        return node

    @staticmethod
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

    @staticmethod
    def _leading_th_rows(table: etree._Element) -> int:
        n = 0
        for tr in table.iter("{*}tr"):
            cells = [c for c in tr if _local(c) in ("td", "th")]
            if cells and all(_local(c) == "th" for c in cells):
                n += 1
            else:
                break
        return n

    # ----------------------------------------------------------------- document

    # Over the C901 limit on purpose: front, body and back matter of an article, one branch each.
    def article(self, art: etree._Element, base: tuple[str, ...] = ()) -> None:  # noqa: C901
        front = art.find("front")
        if front is None:
            front = art.find("front-stub")
        meta = front.find("article-meta") if front is not None else None
        if meta is None:
            meta = front
        if meta is not None:
            title_el = meta.find("title-group/article-title")
            if title_el is not None:
                kind: UnitKind = "heading" if base else "title"
                ctx = _Inline()
                text = self.text(title_el, ctx)
                self.add(kind, text, _raw(title_el), base, annotations=ctx.annotations)
            for abstract in meta.findall("abstract"):
                self.abstract(abstract, base)
        body = art.find("body")
        floats_group = art.find("floats-group")
        if floats_group is not None:
            for f in floats_group:
                fid = f.get("id")
                if _local(f) in _FLOATS and fid:
                    self.waiting.put(fid, f)
        if body is not None:
            self.blocks(body, base, "paragraph")
        # Floats nobody referred to go after the body, in source order.
        if floats_group is not None:
            for f in floats_group:
                fid = f.get("id")
                if _local(f) and (fid is None or self.waiting.claim(fid)):
                    self.block(f, base, "paragraph")
        back = art.find("back")
        if back is not None and self.config.include_back:
            for child in back:
                tag = _local(child)
                if tag in _BACK_SECTIONS:
                    self.section(child, base, "paragraph")
                elif tag == "app-group":
                    title, raw = self._title_of(child)
                    inner = (*base, title) if title else base
                    if title:
                        self.add("heading", title, raw, inner)
                    self.blocks(child, inner, "paragraph")
                elif tag == "fn-group":
                    self.block(child, base, "paragraph")
        if self.config.include_sub_articles:
            for sub in art:
                if _local(sub) in ("sub-article", "response"):
                    self._sub_article(sub, base)

    def _sub_article(self, sub: etree._Element, base: tuple[str, ...]) -> None:
        stub = sub.find("front-stub")
        if stub is None:
            stub = sub.find("front")
        title = ""
        if stub is not None:
            t = stub.find(".//title-group/article-title")
            if t is not None:
                title = clean_text(self.text(t, _Inline()))
        inner = (*base, title or sub.get("article-type", "sub-article"))
        self.article(sub, inner)

    def abstract(self, el: etree._Element, base: tuple[str, ...]) -> None:
        title, raw = self._title_of(el)
        top = title or (el.get("abstract-type", "").replace("-", " ").capitalize()) or "Abstract"
        section = (*base, top)
        if title:
            self.add("heading", title, raw, section)
        self.blocks(el, section, "abstract")


# --------------------------------------------------------------------------- references


# --------------------------------------------------------------------------- parser


_LIMIT_WORDS = (
    "amplification",
    "entity reference loop",
    "resource_limit",
    "huge input",
    "excessive depth",
    "huge_tree",
)


class JatsParser:
    """Parser of PMC JATS XML articles (``.nxml``); see the module docstring."""

    name = "jats"
    format: _Format = "jats"
    config_class = JatsConfig

    def parse(self, path: Path, config: JatsConfig) -> Document:
        """Parse ``path`` into a :class:`~docparse.model.Document`."""
        path = Path(path)
        data = read_source(path, max_bytes=config.max_bytes)
        try:
            root = etree.fromstring(data, safe_xml_parser())
        except etree.XMLSyntaxError as exc:
            msg = str(exc)
            if any(w in msg.lower() for w in _LIMIT_WORDS):
                raise UnsafeInputError(
                    path, f"XML exceeds the parser's safety limits ({msg})", cause=exc
                ) from exc
            raise CorruptDocumentError(path, f"not well-formed XML: {msg}", cause=exc) from exc
        if root is None:
            raise EmptyDocumentError(path, "no XML element found")
        # A pmc-articleset (or other wrapper) may hold the article.
        art = root if _local(root) == "article" else next(iter(root.iter("{*}article")), None)
        if art is None:
            raise ParseError(
                path, f"not a JATS article: the root element is <{_local(root) or root.tag}>"
            )
        flags: set[str] = set()
        entities = _internal_entities(root.getroottree(), flags)
        walker = _Walker(path, config, entities)
        walker.flags |= flags
        walker.article(art)
        references = _references(art, walker)
        title_el = art.find("front/article-meta/title-group/article-title")
        title = clean_text(walker.text(title_el, _Inline())) if title_el is not None else None
        return build_document(
            path=path,
            format="jats",
            backend=self.name,
            drafts=walker.drafts,
            title=title or None,
            references=references,
            flags=sorted(walker.flags),
        )
