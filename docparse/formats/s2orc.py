"""S2ORC / doc2json JSON to the docparse document model.

Layouts read
------------
* doc2json ``pdf_parse`` (S2ORC 1.0.0 release layout)::

      {paper_id, title, authors, year, abstract: str,
       pdf_parse: {abstract: [para], body_text: [para], back_matter: [para],
                   bib_entries: {BIBREFn: bib}, ref_entries: {FIGREFn|TABREFn: ref}}}

  (``latex_parse`` / ``grobid_parse`` containers are read the same way; a
  non-empty ``latex_parse`` is preferred, being the cleaner parse.)
* S2ORC 20210101 top level::

      {paper_id, metadata: {title, authors, year}, abstract: [para],
       body_text: [para], back_matter: [para], bib_entries, ref_entries}

where ``para = {text, cite_spans, ref_spans, eq_spans, section, sec_num?}``.

What becomes what
-----------------
* title (``title`` or ``metadata.title``): a ``title`` unit and
  :attr:`Document.title`.
* abstract paragraphs: ``abstract`` units under ``("Abstract",)`` (a plain
  string abstract is one unit).
* body paragraphs: ``paragraph`` units. The section path comes from
  ``section`` (doc2json joins nested titles with ``::``; each part is one
  level) and ``sec_num``: a heading is written ``"<sec_num> <title>"`` and
  numbered sections nest by their numbers (``3.1`` goes under the nearest open
  ``3``). An unnumbered section title opens a sibling of the deepest open
  section. GROBID sometimes merges two headings into one (``"Model 2.1
  Overview"`` with ``sec_num`` ``2``): when the title holds a sub-number of
  ``sec_num`` it is split into ``("2 Model", "2.1 Overview")``. A
  ``heading`` unit is written for every path level that opens.
* body paragraphs without a section that come *after* sectioned ones are
  GROBID footnotes (doc2json appends page notes to the end of the body with
  an empty section): ``footnote`` units. Unsectioned paragraphs before the
  first section (an untitled introduction) stay paragraphs.
* ``EQUATION`` paragraphs: ``equation`` units with the equation's
  ``raw_str`` (plus its number). Equation placeholders inside a paragraph
  (``FORMULA0``, ``INLINEFORM0``) are replaced by the span's text (or its
  LaTeX rendered to text).
* ``back_matter``: paragraphs under their section (GROBID's lower-case div
  types such as ``annex`` name the section but get no heading unit: they are
  not printed in the paper).
* ``ref_entries``: an entry of type ``table`` is one ``table`` unit (cells
  from its HTML ``content``, or a ``table`` field holding rows; its text is
  the cells only, empty when there are none) plus a ``caption``
  unit, linked both ways; ``Table.label`` is the entry key (``TABREF1``, the
  target of ``ref_spans``), ``Table.caption`` its text. Figures (and other
  types) are ``caption`` units. Each float is placed after the first body
  paragraph whose ``ref_spans`` point at it, else after the body.
* ``cite_spans``: ``Annotation(kind="cite", target=<ref_id>, text=<surface>)``
  where ``ref_id`` is a key of ``bib_entries``, i.e. an id in
  :attr:`Document.references`; spans with no ``ref_id`` (unlinked by GROBID)
  are dropped. ``ref_spans``: ``Annotation(kind="ref", ...)``. The surface
  text stays in the clean text.
* ``bib_entries``: :class:`~docparse.model.Reference` (id = key, title,
  authors "Last First Middle", year, DOI and PMID from ``other_ids``).

Anything that is not S2ORC (another JSON shape, a list, invalid JSON, JSON
nested deeper than Python can read) raises a typed error naming the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from docparse.builder import DraftList, build_document
from docparse.config import ParserConfig
from docparse.errors import CorruptDocumentError, EmptyDocumentError, ParseError
from docparse.formats._encoding import read_source
from docparse.formats._floats import FloatQueue
from docparse.formats._grid import cells_to_table, span_value
from docparse.formats._math import tex_math_to_text
from docparse.model import Annotation, Document, Reference, UnitKind
from docparse.model import Format as _Format
from docparse.text import clean_text

__all__ = ["S2orcConfig", "S2orcParser"]

_CONTAINERS = ("latex_parse", "pdf_parse", "grobid_parse")
_PLACEHOLDER = re.compile(r"^(EQUATION|FORMULA\d*|INLINEFORM\d+|DISPLAYFORM\d+)$")
_MERGED_HEADING = re.compile(r"^(?P<parent>.*?\S)\s+(?P<num>\d+(?:\.\d+)+)\.?\s+(?P<title>\S.*)$")
_DIV_TYPE = re.compile(r"^[a-z][a-z_-]*$")


@dataclass(frozen=True, slots=True)
class S2orcConfig(ParserConfig):
    """Options of the S2ORC parser.

    ``max_bytes``: larger files raise :class:`~docparse.errors.UnsafeInputError`.
    ``trailing_footnotes``: unsectioned body paragraphs after sectioned
    ones are ``footnote`` units (GROBID's page notes).
    ``place_floats``: figures/tables after the first paragraph that refers to
    them (else all after the body).
    """

    max_bytes: int = 200_000_000
    trailing_footnotes: bool = True
    place_floats: bool = True


@dataclass(slots=True)
class _Level:
    num: str | None
    title: str

    @property
    def display(self) -> str:
        return f"{self.num} {self.title}" if self.num else self.title

    @property
    def key(self) -> str | None:
        return self.num.rstrip(".") if self.num else None


@dataclass(slots=True)
class _Sections:
    """Turns per-paragraph ``section``/``sec_num`` into section paths."""

    stack: list[_Level] = field(default_factory=list)
    last_key: tuple[str, str | None] | None = None

    def path(self, titles: Sequence[str], sec_num: str | None) -> tuple[str, ...]:
        key = ("::".join(titles), sec_num)
        if key == self.last_key:
            return self.current()
        self.last_key = key
        if len(titles) > 1:
            self.stack = [_Level(None, t) for t in titles[:-1]] + [_Level(sec_num, titles[-1])]
            return self.current()
        title = titles[0]
        if sec_num:
            num = sec_num.rstrip(".")
            merged = _MERGED_HEADING.match(title)
            if merged and merged.group("num").startswith(num + "."):
                self._push(_Level(sec_num, merged.group("parent")))
                self._push(_Level(merged.group("num"), merged.group("title")))
            else:
                self._push(_Level(sec_num, title))
        elif len(self.stack) >= 2:
            self.stack[-1] = _Level(None, title)
        else:
            self.stack = [_Level(None, title)]
        return self.current()

    def _push(self, level: _Level) -> None:
        num = level.key or ""
        while self.stack:
            top = self.stack[-1].key
            if top and num.startswith(top + "."):
                break
            self.stack.pop()
        self.stack.append(level)

    def current(self) -> tuple[str, ...]:
        return tuple(level.display for level in self.stack)


def _fail(path: Path, message: str) -> ParseError:
    return ParseError(path, f"not S2ORC JSON: {message}")


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


class _Builder(DraftList):
    """Collects drafts for one document."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def headings(self, old: tuple[str, ...], new: tuple[str, ...], *, visible: bool = True) -> None:
        if not visible:
            return
        common = 0
        while common < min(len(old), len(new)) and old[common] == new[common]:
            common += 1
        for depth in range(common, len(new)):
            self.add("heading", new[depth], new[depth], new[: depth + 1])

    # ------------------------------------------------------------ paragraphs

    def paragraph_text(self, para: Mapping[str, Any], where: str) -> tuple[str, list[Annotation]]:
        text = para.get("text")
        if not isinstance(text, str):
            raise _fail(self.path, f"{where}.text is not a string")
        annotations: list[Annotation] = []
        for span in _spans(para.get("cite_spans")):
            ref_id = _str(span.get("ref_id"))
            if ref_id:
                annotations.append(Annotation("cite", ref_id, clean_text(_str(span.get("text")))))
        for span in _spans(para.get("ref_spans")):
            ref_id = _str(span.get("ref_id"))
            if ref_id:
                annotations.append(Annotation("ref", ref_id, clean_text(_str(span.get("text")))))
        return _substitute_equations(text, _spans(para.get("eq_spans"))), annotations


def _spans(value: Any) -> list[Mapping[str, Any]]:
    if not isinstance(value, list):
        return []
    return [s for s in value if isinstance(s, Mapping)]


def _substitute_equations(text: str, eq_spans: Sequence[Mapping[str, Any]]) -> str:
    """Replace equation placeholders (``FORMULA0``...) by the equation text."""
    subs: list[tuple[int, int, str]] = []
    for span in eq_spans:
        start, end = span.get("start"), span.get("end")
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(text)):
            continue
        if not _PLACEHOLDER.match(text[start:end]):
            continue
        subs.append((start, end, _equation_text(span)))
    out = text
    last = len(text) + 1
    for start, end, value in sorted(subs, reverse=True):
        if end > last:
            continue  # overlapping spans: keep the later one
        out = out[:start] + value + out[end:]
        last = start
    return out


def _equation_text(span: Mapping[str, Any]) -> str:
    raw = _str(span.get("raw_str"))
    if raw:
        return raw
    surface = _str(span.get("text"))
    if surface and not _PLACEHOLDER.match(surface):
        return surface
    latex = _str(span.get("latex"))
    return tex_math_to_text(latex) if latex else ""


def _section_titles(para: Mapping[str, Any]) -> tuple[list[str], str | None]:
    section = para.get("section")
    sec_num = para.get("sec_num")
    num = str(sec_num).strip() if isinstance(sec_num, (str, int)) and str(sec_num).strip() else None
    titles: list[str] = []
    if isinstance(section, str):
        titles = [clean_text(t) for t in section.split("::")]
    elif isinstance(section, list):
        # Unserialised doc2json form: [[num, title], ...].
        for item in section:
            if isinstance(item, list) and len(item) == 2:
                titles.append(clean_text(_str(item[1])))
                num = _str(item[0]) or None
            elif isinstance(item, str):
                titles.append(clean_text(item))
    return [t for t in titles if t], num


# --------------------------------------------------------------------- tables


def _html_rows(content: str) -> tuple[list[list[tuple[str, int, int]]], int]:
    """Cells of an HTML table string (GROBID/doc2json ``content``)."""
    if "<" not in content:
        return [], 0
    parser = etree.HTMLParser(no_network=True, remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(content, parser)
    except (etree.XMLSyntaxError, ValueError):
        return [], 0
    if root is None:
        return [], 0
    rows: list[list[tuple[str, int, int]]] = []
    n_header = 0
    header_done = False
    for tr in root.iter("tr"):
        cells = [c for c in tr if c.tag in ("td", "th")]
        in_thead = any(a.tag == "thead" for a in tr.iterancestors())
        all_th = bool(cells) and all(c.tag == "th" for c in cells)
        if not header_done and (in_thead or all_th):
            n_header += 1
        else:
            header_done = True
        rows.append(
            [
                (" ".join(c.itertext()), span_value(c.get("rowspan")), span_value(c.get("colspan")))
                for c in cells
            ]
        )
    return rows, n_header


def _field_rows(value: Any) -> list[list[tuple[str, int, int]]]:
    """Rows from a ``table`` field holding a list of rows of cells."""
    if isinstance(value, Mapping):
        value = value.get("rows") or value.get("cells")
    if not isinstance(value, list):
        return []
    rows: list[list[tuple[str, int, int]]] = []
    for row in value:
        if not isinstance(row, list):
            return []
        cells: list[tuple[str, int, int]] = []
        for cell in row:
            if isinstance(cell, (str, int, float)):
                cells.append((str(cell), 1, 1))
            elif isinstance(cell, Mapping):
                cells.append(
                    (
                        _str(cell.get("text")),
                        span_value(str(cell.get("rowspan", cell.get("row_span", 1)))),
                        span_value(str(cell.get("colspan", cell.get("col_span", 1)))),
                    )
                )
        rows.append(cells)
    return rows


# --------------------------------------------------------------------- references


def _reference(key: str, bib: Mapping[str, Any]) -> Reference:
    authors: list[str] = []
    raw_authors = bib.get("authors")
    for a in raw_authors if isinstance(raw_authors, list) else []:
        if isinstance(a, Mapping):
            middle = a.get("middle")
            parts = [_str(a.get("last")), _str(a.get("first"))]
            if isinstance(middle, list):
                parts.extend(_str(m) for m in middle)
            parts.append(_str(a.get("suffix")))
            name = clean_text(" ".join(parts))
        else:
            name = clean_text(_str(a))
        if name:
            authors.append(name)
    year_value = bib.get("year")
    year = str(year_value) if isinstance(year_value, (int, str)) and str(year_value) else None
    doi = pmid = None
    ids = bib.get("other_ids")
    if isinstance(ids, Mapping):
        for name, value in ids.items():
            first = value[0] if isinstance(value, list) and value else value
            if not isinstance(first, (str, int)) or not str(first):
                continue
            lname = str(name).lower()
            if lname == "doi" and doi is None:
                doi = str(first)
            elif lname in ("pmid", "pubmed") and pmid is None:
                pmid = str(first)
    title = clean_text(_str(bib.get("title"))) or clean_text(_str(bib.get("raw_text")))
    return Reference(id=key, title=title, authors=tuple(authors), year=year, doi=doi, pmid=pmid)


# --------------------------------------------------------------------- parser


class S2orcParser:
    """Parser of S2ORC / doc2json JSON (both layouts; see the module docstring)."""

    name = "s2orc"
    format: _Format = "s2orc"
    config_class = S2orcConfig

    def parse(self, path: Path, config: S2orcConfig) -> Document:
        """Parse ``path`` into a :class:`~docparse.model.Document`."""
        path = Path(path)
        data = self._load(path, config)
        container = self._container(path, data)
        body = self._paragraphs(path, container, "body_text")
        back = self._paragraphs(path, container, "back_matter")
        bib = container.get("bib_entries")
        bib = bib if isinstance(bib, Mapping) else {}
        refs_raw = container.get("ref_entries")
        ref_entries: dict[str, Mapping[str, Any]] = (
            {str(k): v for k, v in refs_raw.items() if isinstance(v, Mapping)}
            if isinstance(refs_raw, Mapping)
            else {}
        )
        builder = _Builder(path)

        title = self._title(data, container)
        if title:
            builder.add("title", title, title, ())
        self._abstract(path, builder, data, container)

        waiting: FloatQueue[Mapping[str, Any]] = FloatQueue()
        for rid, entry in ref_entries.items():
            waiting.put(rid, entry)

        sections = _Sections()
        path_now: tuple[str, ...] = ()
        seen_section = False
        for i, para in enumerate(body):
            where = f"body_text[{i}]"
            titles, sec_num = _section_titles(para)
            text, annotations = builder.paragraph_text(para, where)
            raw = _str(para.get("text"))
            if titles:
                seen_section = True
                new_path = sections.path(titles, sec_num)
                builder.headings(path_now, new_path)
                path_now = new_path
                kind: UnitKind = "paragraph"
            elif seen_section and config.trailing_footnotes:
                kind = "footnote"
            else:
                kind = "paragraph"
            section = path_now if kind != "footnote" else ()
            if self._is_equation(para):
                kind = "equation"
                eq = _spans(para.get("eq_spans"))[0]
                number = _str(eq.get("eq_num"))
                text = f"{_equation_text(eq)} {number}".strip()
            builder.add(kind, text, raw, section, annotations=annotations)
            if config.place_floats:
                refs = (_str(span.get("ref_id")) for span in _spans(para.get("ref_spans")))
                for rid, entry in waiting.take(refs):
                    self._float(builder, rid, entry, section)

        # Floats nobody refers to follow the body, in source order.
        for rid, entry in ref_entries.items():
            if waiting.claim(rid):
                self._float(builder, rid, entry, path_now)

        back_sections = _Sections()
        path_now = ()
        for i, para in enumerate(back):
            titles, sec_num = _section_titles(para)
            text, annotations = builder.paragraph_text(para, f"back_matter[{i}]")
            new_path = back_sections.path(titles, sec_num) if titles else path_now
            visible = not (len(titles) == 1 and _DIV_TYPE.match(titles[0]))
            builder.headings(path_now, new_path, visible=visible)
            path_now = new_path
            builder.add(
                "paragraph", text, _str(para.get("text")), path_now, annotations=annotations
            )

        references = [_reference(str(k), v) for k, v in bib.items() if isinstance(v, Mapping)]
        return build_document(
            path=path,
            format="s2orc",
            backend=self.name,
            drafts=builder.drafts,
            title=title or None,
            references=references,
        )

    # ------------------------------------------------------------ pieces

    @staticmethod
    def _load(path: Path, config: S2orcConfig) -> dict[str, Any]:
        raw = read_source(path, max_bytes=config.max_bytes)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise CorruptDocumentError(path, f"not UTF-8 text: {exc}", cause=exc) from exc
        if not text.strip():
            raise EmptyDocumentError(path, "the file holds only whitespace")
        try:
            data = json.loads(text)
        except RecursionError as exc:
            raise CorruptDocumentError(
                path, "JSON nested too deeply to read (not an S2ORC document)", cause=exc
            ) from exc
        except ValueError as exc:
            raise CorruptDocumentError(path, f"invalid JSON: {exc}", cause=exc) from exc
        if not isinstance(data, dict):
            raise _fail(path, f"expected a JSON object, found a {type(data).__name__}")
        return data

    @staticmethod
    def _container(path: Path, data: dict[str, Any]) -> Mapping[str, Any]:
        candidates = [
            data[k]
            for k in _CONTAINERS
            if isinstance(data.get(k), Mapping) and isinstance(data[k].get("body_text"), list)
        ]
        for c in candidates:
            if c["body_text"]:
                return c  # type: ignore[no-any-return]
        if candidates:
            return candidates[0]  # type: ignore[no-any-return]
        if isinstance(data.get("body_text"), list):
            return data
        if "body_text" in data:
            kind = type(data["body_text"]).__name__
            raise _fail(path, f"body_text is a {kind}, not a list of paragraphs")
        keys = ", ".join(sorted(map(str, data))[:12]) or "none"
        raise _fail(
            path,
            "no body_text list at the top level or under pdf_parse/latex_parse "
            f"(keys found: {keys})",
        )

    @staticmethod
    def _paragraphs(path: Path, container: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
        value = container.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            raise _fail(path, f"{key} is a {type(value).__name__}, not a list of paragraphs")
        for i, para in enumerate(value):
            if not isinstance(para, Mapping):
                raise _fail(path, f"{key}[{i}] is a {type(para).__name__}, not a paragraph object")
        return value

    @staticmethod
    def _title(data: Mapping[str, Any], container: Mapping[str, Any]) -> str:
        meta = data.get("metadata")
        for source in (data, meta if isinstance(meta, Mapping) else {}, container):
            title = clean_text(_str(source.get("title")))
            if title:
                return title
        return ""

    def _abstract(
        self,
        path: Path,
        builder: _Builder,
        data: Mapping[str, Any],
        container: Mapping[str, Any],
    ) -> None:
        paras: Any = container.get("abstract")
        if not (isinstance(paras, list) and paras):
            paras = data.get("abstract")
            meta = data.get("metadata")
            if not paras and isinstance(meta, Mapping):
                paras = meta.get("abstract")
        if isinstance(paras, str):
            builder.add("abstract", paras, paras, ("Abstract",))
            return
        if not isinstance(paras, list):
            return
        for i, para in enumerate(paras):
            if isinstance(para, str):
                builder.add("abstract", para, para, ("Abstract",))
                continue
            if not isinstance(para, Mapping):
                raise _fail(path, f"abstract[{i}] is a {type(para).__name__}, not a paragraph")
            text, annotations = builder.paragraph_text(para, f"abstract[{i}]")
            titles, _ = _section_titles(para)
            section = tuple(titles) if titles else ("Abstract",)
            builder.add("abstract", text, _str(para.get("text")), section, annotations=annotations)

    @staticmethod
    def _is_equation(para: Mapping[str, Any]) -> bool:
        eqs = _spans(para.get("eq_spans"))
        text = _str(para.get("text")).strip()
        return bool(eqs) and bool(_PLACEHOLDER.match(text))

    @staticmethod
    def _float(
        builder: _Builder, rid: str, entry: Mapping[str, Any], section: tuple[str, ...]
    ) -> None:
        kind = (_str(entry.get("type_str")) or _str(entry.get("type"))).lower()
        caption = clean_text(_str(entry.get("text")))
        label = [Annotation("label", rid)]
        if kind != "table":
            builder.add("caption", caption, _str(entry.get("text")), section, annotations=label)
            return
        rows, n_header = _html_rows(_str(entry.get("content")) or _str(entry.get("html")))
        if not any(c[0].strip() for r in rows for c in r):
            rows, n_header = _field_rows(entry.get("table")), 0
        table = cells_to_table(rows, n_header_rows=n_header, caption=caption or None, label=rid)
        # The unit text is the cells only (empty without cells): the caption
        # is its own unit and would otherwise be counted twice.
        text = ""
        raw = json.dumps(entry, ensure_ascii=False)
        ti = builder.add("table", text, raw, section, table=table, annotations=label)
        if caption:
            ci = builder.add("caption", caption, _str(entry.get("text")), section)
            builder.link(ti, ci)
