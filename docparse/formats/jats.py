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

import logging
from collections.abc import Sequence
from dataclasses import dataclass
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
from docparse.formats._jats_tables import _table_wrap
from docparse.formats._jats_text import _Inline, _InlineText
from docparse.formats._jats_xml import (
    _BACK_SECTIONS,
    _FLOATS,
    _SILENT,
    _SPLITTERS,
    _internal_entities,
    _local,
    _raw,
    safe_xml_parser,
)
from docparse.model import (
    Annotation,
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


class _Walker(DraftList, _InlineText):
    """Turns one parsed JATS tree into drafts. One instance per parse.

    The inline text rendering is :class:`~docparse.formats._jats_text._InlineText`'s,
    a ``table-wrap`` is :func:`~docparse.formats._jats_tables._table_wrap`'s.
    """

    def __init__(self, path: Path, config: JatsConfig, entities: dict[str, str]) -> None:
        DraftList.__init__(self)
        _InlineText.__init__(self, path, entities, config.max_entity_chars)
        self.config = config
        #: floats-group members by id, waiting for their first reference.
        self.waiting: FloatQueue[etree._Element] = FloatQueue()

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
            _table_wrap(self, el, section)
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
