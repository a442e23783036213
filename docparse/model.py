"""The one document model of docparse.

A :class:`Document` is an ordered tuple of :class:`SourceUnit` objects
(paragraphs, headings, list items, tables, captions, ...). Every parser,
whether it reads a PDF or a structured twin, produces this model, so a twin
parse and a PDF parse of the same paper can be compared unit by unit.

All classes are frozen, slotted dataclasses. ``Document.to_dict()`` /
``Document.from_dict()`` round-trip through JSON; the dict carries
``schema_version`` and loading refuses a different major version.

Geometry is in PDF points. :class:`BBox` says which corner its origin is
(docparse backends always emit ``top-left``, like PyMuPDF and pdfplumber).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Literal, cast, get_args

SCHEMA_VERSION = "1.1"

Format = Literal["pdf", "tex", "htm", "csv", "txt", "s2orc", "jats", "markdown", "docling"]
# Read off the Literal so that the type and the runtime list cannot drift apart.
FORMATS: tuple[str, ...] = get_args(Format)

UnitKind = Literal[
    "title",
    "abstract",
    "heading",
    "paragraph",
    "list_item",
    "table",
    "caption",
    "footnote",
    "equation",
    "code",
    "quote",
    "furniture",
]
UNIT_KINDS: tuple[str, ...] = get_args(UnitKind)

Modality = Literal["text", "table"]
CoordOrigin = Literal["top-left", "bottom-left"]
AnnotationKind = Literal["cite", "ref", "label", "url", "footnote"]
#: How the text of a provenance item was read: from the PDF's text layer or by OCR.
TextSource = Literal["text_layer", "ocr"]


#: Flag prefix on :attr:`Document.flags` naming the pages read by OCR: ``ocr:pages=2,3``.
OCR_FLAG = "ocr"


def content_hash(data: bytes | str, n: int = 16) -> str:
    """Hex sha256 prefix of ``data`` (str is UTF-8 encoded)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:n]


@dataclass(frozen=True, slots=True)
class BBox:
    """A rectangle in PDF points.

    ``origin`` names the corner of the page that is (0, 0). With
    ``top-left`` (the default, as in PyMuPDF and pdfplumber) y grows
    downwards, so ``y0 < y1`` is the top and bottom edge.

    Example record: ``{"x0": 72.0, "y0": 90.5, "x1": 540.0, "y1": 130.2,
    "origin": "top-left"}``
    """

    x0: float
    y0: float
    x1: float
    y1: float
    origin: CoordOrigin = "top-left"

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return abs(self.y1 - self.y0)

    def union(self, other: BBox) -> BBox:
        """Smallest box holding both (same origin required)."""
        if other.origin != self.origin:
            raise ValueError("cannot join boxes with different origins")
        return BBox(
            min(self.x0, other.x0),
            min(self.y0, other.y0),
            max(self.x1, other.x1),
            max(self.y1, other.y1),
            self.origin,
        )

    def to_top_left(self, page_height: float) -> BBox:
        """The same rectangle with a top-left origin."""
        if self.origin == "top-left":
            return self
        return BBox(self.x0, page_height - self.y1, self.x1, page_height - self.y0, "top-left")

    def to_dict(self) -> dict[str, Any]:
        return {"x0": self.x0, "y0": self.y0, "x1": self.x1, "y1": self.y1, "origin": self.origin}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BBox:
        return cls(
            float(d["x0"]),
            float(d["y0"]),
            float(d["x1"]),
            float(d["y1"]),
            cast(CoordOrigin, d.get("origin", "top-left")),
        )


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where (part of) a unit sits in a PDF: a 1-based page and a box.

    A paragraph that continues across a page or column break has one
    provenance item per piece.

    ``source`` says how the text was read: ``text_layer`` (the PDF's own
    text) or ``ocr`` (recognised from the page image); an OCR piece carries
    ``confidence``, the engine's mean word confidence in [0, 1] over the
    words inside ``bbox``.

    Example record: ``{"page": 3, "bbox": {"x0": 72.0, "y0": 90.5,
    "x1": 300.0, "y1": 130.2, "origin": "top-left"}, "source": "ocr",
    "confidence": 0.962}``
    """

    page: int
    bbox: BBox | None = None
    source: TextSource = "text_layer"
    confidence: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "page": self.page,
            "bbox": self.bbox.to_dict() if self.bbox else None,
            "source": self.source,
            "confidence": self.confidence,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Provenance:
        bbox = d.get("bbox")
        confidence = d.get("confidence")
        return cls(
            int(d["page"]),
            BBox.from_dict(bbox) if bbox else None,
            cast(TextSource, d.get("source", "text_layer")),
            float(confidence) if confidence is not None else None,
        )


@dataclass(frozen=True, slots=True)
class CellSpan:
    """A merged cell: the top-left grid position and how far it spans.

    The covered grid positions other than the top-left one hold ``""`` in
    :attr:`Table.rows`.
    """

    row: int
    col: int
    row_span: int = 1
    col_span: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "row": self.row,
            "col": self.col,
            "row_span": self.row_span,
            "col_span": self.col_span,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CellSpan:
        return cls(int(d["row"]), int(d["col"]), int(d["row_span"]), int(d["col_span"]))


@dataclass(frozen=True, slots=True)
class Table:
    """Cells of a table unit as a rectangular grid of clean strings.

    Example record: ``{"rows": [["Model", "F1"], ["BM25", "0.41"]],
    "n_header_rows": 1, "spans": [], "caption": "Table 2: Results.",
    "label": "tab:results", "footnotes": []}``
    """

    rows: tuple[tuple[str, ...], ...]
    n_header_rows: int = 0
    spans: tuple[CellSpan, ...] = ()
    caption: str | None = None
    label: str | None = None
    footnotes: tuple[str, ...] = ()

    @property
    def n_rows(self) -> int:
        return len(self.rows)

    @property
    def n_cols(self) -> int:
        return max((len(r) for r in self.rows), default=0)

    def cells(self) -> list[str]:
        """Non-empty cell strings in row-major order."""
        return [c for row in self.rows for c in row if c]

    def to_markdown(self) -> str:
        """A GitHub-flavoured pipe table (first row as header)."""
        if not self.rows:
            return ""
        width = self.n_cols
        lines = []
        for i, row in enumerate(self.rows):
            padded = list(row) + [""] * (width - len(row))
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in padded) + " |")
            if i == 0:
                lines.append("|" + "---|" * width)
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": [list(r) for r in self.rows],
            "n_header_rows": self.n_header_rows,
            "spans": [s.to_dict() for s in self.spans],
            "caption": self.caption,
            "label": self.label,
            "footnotes": list(self.footnotes),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Table:
        return cls(
            rows=tuple(tuple(str(c) for c in r) for r in d["rows"]),
            n_header_rows=int(d.get("n_header_rows", 0)),
            spans=tuple(CellSpan.from_dict(s) for s in d.get("spans", ())),
            caption=d.get("caption"),
            label=d.get("label"),
            footnotes=tuple(d.get("footnotes", ())),
        )


@dataclass(frozen=True, slots=True)
class Annotation:
    """A marker removed from the clean text but kept for provenance.

    ``kind`` is ``cite`` (a citation key or reference id), ``ref`` (a
    cross-reference target), ``label``, ``url`` or ``footnote``. ``target``
    is the key/id/address; ``text`` the visible text if any.

    Example record: ``{"kind": "cite", "target": "Miniutti2019", "text": ""}``
    """

    kind: AnnotationKind
    target: str
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "target": self.target, "text": self.text}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Annotation:
        return cls(cast(AnnotationKind, d["kind"]), str(d["target"]), str(d.get("text", "")))


@dataclass(frozen=True, slots=True)
class Reference:
    """An entry of the document's reference list (JATS, S2ORC).

    Example record: ``{"id": "B12", "title": "Lysis timing...", "authors":
    ["Wang IN"], "year": "2006", "doi": "10.1534/genetics.105.047977",
    "pmid": "16291652"}``
    """

    id: str
    title: str = ""
    authors: tuple[str, ...] = ()
    year: str | None = None
    doi: str | None = None
    pmid: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "authors": list(self.authors),
            "year": self.year,
            "doi": self.doi,
            "pmid": self.pmid,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Reference:
        return cls(
            id=str(d["id"]),
            title=str(d.get("title", "")),
            authors=tuple(d.get("authors", ())),
            year=d.get("year"),
            doi=d.get("doi"),
            pmid=d.get("pmid"),
        )


@dataclass(frozen=True, slots=True)
class SourceUnit:
    """One paragraph-level piece of a document: the unit QA sources are made of.

    ``text`` is clean plain text (no markup, NFC, whitespace collapsed);
    ``raw`` the source span it came from. ``word_start``/``word_end`` are
    offsets in the document's word sequence (units laid end to end, in
    ``order``); ``position = word_start / document words`` and
    ``position_bucket`` is the quartile (1-4) of that position. ``page`` and
    ``bbox`` are those of the first provenance item (PDF only).

    Furniture units (running headers, page numbers) are kept so the choice is
    visible but take no words: their ``word_start == word_end``.

    Example record::

        {"id": "3f2a9c1d0e4b5a6f:00012:9be1c2d3", "kind": "paragraph",
         "modality": "text", "text": "QPEs are X-ray bursts ...",
         "raw": "QPEs are X-ray bursts~\\\\citep{M19} ...",
         "section": ["Introduction"], "order": 12,
         "provenance": [{"page": 1, "bbox": {...}}], "word_start": 310,
         "word_end": 402, "n_tokens": 121, "position": 0.061,
         "position_bucket": 1, "table": null,
         "annotations": [{"kind": "cite", "target": "M19", "text": ""}],
         "related": []}
    """

    id: str
    kind: UnitKind
    modality: Modality
    text: str
    raw: str
    section: tuple[str, ...]
    order: int
    word_start: int
    word_end: int
    n_tokens: int
    position: float
    position_bucket: int
    provenance: tuple[Provenance, ...] = ()
    table: Table | None = None
    annotations: tuple[Annotation, ...] = ()
    related: tuple[str, ...] = field(default=())
    """Ids of linked units: a table's caption units and a caption's table."""

    @property
    def n_words(self) -> int:
        return self.word_end - self.word_start

    @property
    def page(self) -> int | None:
        return self.provenance[0].page if self.provenance else None

    @property
    def pages(self) -> tuple[int, ...]:
        return tuple(sorted({p.page for p in self.provenance}))

    @property
    def bbox(self) -> BBox | None:
        return self.provenance[0].bbox if self.provenance else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "modality": self.modality,
            "text": self.text,
            "raw": self.raw,
            "section": list(self.section),
            "order": self.order,
            # page/bbox/n_words are derived; written for readers of the JSON,
            # ignored on load.
            "page": self.page,
            "bbox": self.bbox.to_dict() if self.bbox else None,
            "provenance": [p.to_dict() for p in self.provenance],
            "word_start": self.word_start,
            "word_end": self.word_end,
            "n_words": self.n_words,
            "n_tokens": self.n_tokens,
            "position": self.position,
            "position_bucket": self.position_bucket,
            "table": self.table.to_dict() if self.table else None,
            "annotations": [a.to_dict() for a in self.annotations],
            "related": list(self.related),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SourceUnit:
        return cls(
            id=str(d["id"]),
            kind=cast(UnitKind, d["kind"]),
            modality=cast(Modality, d["modality"]),
            text=str(d["text"]),
            raw=str(d.get("raw", "")),
            section=tuple(d.get("section", ())),
            order=int(d["order"]),
            word_start=int(d["word_start"]),
            word_end=int(d["word_end"]),
            n_tokens=int(d["n_tokens"]),
            position=float(d["position"]),
            position_bucket=int(d["position_bucket"]),
            provenance=tuple(Provenance.from_dict(p) for p in d.get("provenance", ())),
            table=Table.from_dict(d["table"]) if d.get("table") else None,
            annotations=tuple(Annotation.from_dict(a) for a in d.get("annotations", ())),
            related=tuple(d.get("related", ())),
        )


@dataclass(frozen=True, slots=True)
class PageInfo:
    """Facts about one page of a PDF's text layer, as the backend read it.

    ``n_chars`` counts the non-space characters the page's text layer gave
    (unmapped glyphs included); ``n_unmapped`` the glyphs whose font maps
    them to no Unicode text (PyMuPDF's U+FFFD, pdfminer's ``(cid:N)``),
    which are left out of every unit's text. A page whose text layer is
    mostly unmapped (see :attr:`unmapped_fraction`) reads as garbage and is
    a candidate for OCR.
    """

    page: int
    n_chars: int = 0
    n_unmapped: int = 0

    @property
    def unmapped_fraction(self) -> float:
        """Share of the page's glyphs that map to no text (0.0 on an empty page)."""
        return self.n_unmapped / self.n_chars if self.n_chars else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"page": self.page, "n_chars": self.n_chars, "n_unmapped": self.n_unmapped}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PageInfo:
        return cls(int(d["page"]), int(d.get("n_chars", 0)), int(d.get("n_unmapped", 0)))


@dataclass(frozen=True, slots=True)
class Document:
    """A parsed document: metadata plus its units in reading order.

    ``doc_id`` is a hash of the file's bytes, so the same file gets the same
    id on every machine. ``backend`` names the parser that produced it
    (``pymupdf``, ``pdfplumber``, ``unstructured`` for PDFs; the format name
    for twins). ``flags`` records conditions a user should know about, such
    as ``no_text_layer``, or ``ocr:pages=1,4`` for the pages whose text was
    recognised by OCR (see :attr:`ocr_pages`). ``pages`` holds one
    :class:`PageInfo` per page read (PDFs only; empty for twins).

    Example record::

        {"schema_version": "1.1", "doc_id": "3f2a9c1d0e4b5a6f",
         "source_path": "research/arxiv-2510.22211v1/2510.22211v1.tex",
         "format": "tex", "backend": "tex", "title": "QPEs from ...",
         "n_pages": null, "n_words": 5012, "n_tokens": 7420,
         "units": [...], "references": [], "flags": []}
    """

    doc_id: str
    source_path: str
    format: Format
    backend: str
    title: str | None
    units: tuple[SourceUnit, ...]
    n_pages: int | None = None
    references: tuple[Reference, ...] = ()
    flags: tuple[str, ...] = ()
    pages: tuple[PageInfo, ...] = ()

    @property
    def n_words(self) -> int:
        return sum(u.n_words for u in self.units)

    @property
    def n_tokens(self) -> int:
        return sum(u.n_tokens for u in self.units if u.kind != "furniture")

    @property
    def ocr_pages(self) -> tuple[int, ...]:
        """1-based pages whose text was read by OCR (from the ``ocr:pages=`` flag)."""
        for flag in self.flags:
            if flag.startswith(OCR_FLAG + ":pages="):
                return tuple(int(p) for p in flag.split("=", 1)[1].split(",") if p)
        return ()

    def unit(self, unit_id: str) -> SourceUnit:
        """The unit with id ``unit_id`` (KeyError if absent)."""
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    def content_units(self) -> tuple[SourceUnit, ...]:
        """Units that carry document content (everything but furniture)."""
        return tuple(u for u in self.units if u.kind != "furniture")

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "doc_id": self.doc_id,
            "source_path": self.source_path,
            "format": self.format,
            "backend": self.backend,
            "title": self.title,
            "n_pages": self.n_pages,
            "n_words": self.n_words,
            "n_tokens": self.n_tokens,
            "units": [u.to_dict() for u in self.units],
            "references": [r.to_dict() for r in self.references],
            "flags": list(self.flags),
            **({"pages": [p.to_dict() for p in self.pages]} if self.pages else {}),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Document:
        version = str(d.get("schema_version", ""))
        if version.split(".")[0] != SCHEMA_VERSION.split(".")[0]:
            raise ValueError(
                f"document has schema_version {version!r}; this docparse reads {SCHEMA_VERSION}"
            )
        return cls(
            doc_id=str(d["doc_id"]),
            source_path=str(d["source_path"]),
            format=cast(Format, d["format"]),
            backend=str(d["backend"]),
            title=d.get("title"),
            units=tuple(SourceUnit.from_dict(u) for u in d["units"]),
            n_pages=d.get("n_pages"),
            references=tuple(Reference.from_dict(r) for r in d.get("references", ())),
            flags=tuple(d.get("flags", ())),
            pages=tuple(PageInfo.from_dict(p) for p in d.get("pages", ())),
        )

    def to_markdown(self, *, furniture: bool = False, page_markers: bool = False) -> str:
        """The document as Markdown (see :func:`docparse.export.to_markdown`)."""
        from docparse.export import to_markdown

        return to_markdown(self, furniture=furniture, page_markers=page_markers)

    def to_json(self) -> str:
        """One line of JSON (no trailing newline)."""
        import json

        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Document:
        import json

        return cls.from_dict(json.loads(text))
