"""docling's JSON (a ``DoclingDocument`` saved with ``export_to_dict()``), read by its schema.

docling is not imported: the JSON is read as the documented schema of
``docling_core.types.doc.DoclingDocument`` (``schema_name`` ``DoclingDocument``).
Items live in flat lists (``texts``, ``tables``, ``pictures``, ``groups``)
and the reading order is the tree under ``body`` (and ``furniture``), whose
``children`` are JSON pointers (``{"$ref": "#/texts/3"}``). Every item has
a ``label`` and ``prov`` records (``page_no`` and a ``bbox`` with ``l``, ``t``,
``r``, ``b`` and ``coord_origin``), which become each unit's pages and boxes in
top-left page coordinates.

Labels: ``title``; ``section_header`` (its ``level`` opens a section; the
heading's section ends with itself, as in the structured twins); ``text``,
``paragraph``, ``reference`` as paragraphs; ``list_item``; ``caption``
(linked to the table or picture that lists it in ``captions``); ``footnote``;
``formula`` as ``equation``; ``code``; ``page_header``/``page_footer`` and
anything in the furniture layer as ``furniture``. Tables are read from
``data.table_cells`` (row/column offsets, spans, ``column_header``) into a
rectangular grid with :class:`~docparse.model.CellSpan` records.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docparse.builder import UnitDraft, build_document
from docparse.config import ParserConfig, resolve_config
from docparse.errors import ParseError, cause_text
from docparse.formats._encoding import decode_text, read_source
from docparse.formats._grid import Placed, fill_grid
from docparse.model import BBox, Document, Format, Provenance, Table, UnitKind
from docparse.structure import SectionStack

#: docling item labels -> unit kinds (anything else: a paragraph).
LABEL_KINDS: dict[str, UnitKind] = {
    "title": "title",
    "section_header": "heading",
    "text": "paragraph",
    "paragraph": "paragraph",
    "reference": "paragraph",
    "list_item": "list_item",
    "caption": "caption",
    "footnote": "footnote",
    "formula": "equation",
    "code": "code",
    "page_header": "furniture",
    "page_footer": "furniture",
    "table": "table",
    "document_index": "table",
}


@dataclass(frozen=True, slots=True)
class DoclingConfig(ParserConfig):
    """Options of the docling JSON reader.

    ``furniture``: read the furniture tree (page headers and footers) as
    ``furniture`` units.
    """

    furniture: bool = True


def _bbox(box: dict[str, Any], page_height: float | None) -> BBox | None:
    try:
        left, top, right, bottom = (float(box[k]) for k in ("l", "t", "r", "b"))
    except (KeyError, TypeError, ValueError):
        return None
    if str(box.get("coord_origin", "TOPLEFT")).upper() == "BOTTOMLEFT":
        if page_height is None:
            return BBox(left, min(top, bottom), right, max(top, bottom), "bottom-left")
        top, bottom = page_height - top, page_height - bottom
    return BBox(left, min(top, bottom), right, max(top, bottom))


def table_of(data: dict[str, Any]) -> Table | None:
    """The table of a ``TableItem.data`` (``table_cells`` with offsets and spans)."""
    cells = data.get("table_cells") or []
    if not cells:
        return None
    n_rows = int(data.get("num_rows") or 0)
    n_cols = int(data.get("num_cols") or 0)
    placed: list[Placed[str]] = []
    header_rows: set[int] = set()
    body_rows: set[int] = set()
    for c in cells:
        r0 = int(c.get("start_row_offset_idx", 0))
        c0 = int(c.get("start_col_offset_idx", 0))
        r1 = max(int(c.get("end_row_offset_idx", r0 + 1)), r0 + 1)
        c1 = max(int(c.get("end_col_offset_idx", c0 + 1)), c0 + 1)
        n_rows, n_cols = max(n_rows, r1), max(n_cols, c1)
        text = " ".join(str(c.get("text") or "").split())
        placed.append(Placed(r0, c0, r1 - r0, c1 - c0, text))
        (header_rows if c.get("column_header") else body_rows).update(range(r0, r1))
    n_header = 0
    while n_header in header_rows and n_header not in body_rows:
        n_header += 1
    rows, spans = fill_grid(placed, n_rows, n_cols)
    return Table(rows, n_header, tuple(sorted(spans, key=lambda s: (s.row, s.col))))


class _Walker:
    """Walks a DoclingDocument's trees in reading order and emits drafts."""

    def __init__(self, doc: dict[str, Any], cfg: DoclingConfig) -> None:
        self.doc = doc
        self.cfg = cfg
        self.drafts: list[UnitDraft] = []
        self.sections = SectionStack()
        self.title: str | None = None
        self.seen: set[str] = set()
        self.heights: dict[int, float] = {}
        for key, page in (doc.get("pages") or {}).items():
            size = page.get("size") or {}
            if size.get("height") is not None:
                self.heights[int(page.get("page_no", key))] = float(size["height"])

    def resolve(self, ref: str) -> dict[str, Any] | None:
        parts = ref.lstrip("#/").split("/")
        node: Any = self.doc
        for part in parts:
            if isinstance(node, list):
                if not part.isdigit() or int(part) >= len(node):
                    return None
                node = node[int(part)]
            elif isinstance(node, dict):
                node = node.get(part)
            else:
                return None
        return node if isinstance(node, dict) else None

    def provenance(self, item: dict[str, Any]) -> tuple[Provenance, ...]:
        out = []
        for p in item.get("prov") or ():
            page = int(p.get("page_no", 0))
            if page < 1:
                continue
            bbox = p.get("bbox")
            out.append(Provenance(page, _bbox(bbox, self.heights.get(page)) if bbox else None))
        return tuple(out)

    def walk(self, node: dict[str, Any], furniture: bool) -> None:
        for child in node.get("children") or ():
            ref = child.get("$ref") if isinstance(child, dict) else None
            if not ref or ref in self.seen:
                continue
            self.seen.add(ref)
            item = self.resolve(ref)
            if item is not None:
                self.item(ref, item, furniture)

    def item(self, ref: str, item: dict[str, Any], furniture: bool) -> None:
        label = str(item.get("label", "text"))
        layer = str(item.get("content_layer", "body"))
        in_furniture = furniture or layer == "furniture"
        if ref.startswith("#/groups/"):
            self.walk(item, in_furniture)
            return
        if ref.startswith("#/pictures/"):
            self.captions(item, None)
            self.walk(item, in_furniture)
            return
        kind: UnitKind = LABEL_KINDS.get(label, "paragraph")
        if in_furniture:
            kind = "furniture"
        if ref.startswith("#/tables/"):
            table = table_of(item.get("data") or {})
            index = self.add("table", "", item, table=table)
            self.captions(item, index)
            self.walk(item, in_furniture)
            return
        text = str(item.get("text") or "")
        if kind == "heading":
            title = " ".join(text.split())
            if title:
                self.sections.push(int(item.get("level") or 1), title)
        elif kind == "title" and self.title is None:
            self.title = text
        self.add(kind, text, item)
        self.walk(item, in_furniture)

    def add(
        self, kind: UnitKind, text: str, item: dict[str, Any], *, table: Table | None = None
    ) -> int:
        raw = str(item.get("orig") or text)
        section = () if kind == "furniture" else self.sections.path
        self.drafts.append(UnitDraft(kind, text, raw, section, self.provenance(item), table))
        return len(self.drafts) - 1

    def captions(self, item: dict[str, Any], table_index: int | None) -> None:
        """The item's captions (and footnotes) as units, linked to its table."""
        for key, kind in (("captions", "caption"), ("footnotes", "footnote")):
            for ref_obj in item.get(key) or ():
                ref = ref_obj.get("$ref") if isinstance(ref_obj, dict) else None
                if not ref or ref in self.seen:
                    continue
                self.seen.add(ref)
                cap = self.resolve(ref)
                if cap is None:
                    continue
                text = str(cap.get("text") or "")
                index = self.add(kind, text, cap)  # type: ignore[arg-type]
                if table_index is not None and kind == "caption":
                    t = self.drafts[table_index]
                    if t.table is not None and not t.table.caption:
                        t.table = dataclasses.replace(t.table, caption=" ".join(text.split()))
                    t.related.append(index)
                    self.drafts[index].related.append(table_index)


def read_docling(data: dict[str, Any], config: DoclingConfig | None = None) -> _Walker:
    """Walk a DoclingDocument dict (body, then furniture) into drafts."""
    cfg = config or DoclingConfig()
    walker = _Walker(data, cfg)
    walker.walk(data.get("body") or {}, furniture=False)
    if cfg.furniture:
        walker.walk(data.get("furniture") or {}, furniture=True)
    return walker


class DoclingParser:
    """Parser for docling's JSON (see the module docstring)."""

    name = "docling"
    format: Format = "docling"
    config_class = DoclingConfig

    def parse(self, path: Path, config: DoclingConfig | dict[str, Any] | None = None) -> Document:
        """Parse ``path`` into a :class:`~docparse.model.Document`."""
        cfg = resolve_config(DoclingConfig, config)
        path = Path(path)
        text = decode_text(read_source(path), path, "utf-8")
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise ParseError(path, f"not JSON: {cause_text(exc, path)}", cause=exc) from exc
        if not isinstance(data, dict) or data.get("schema_name") != "DoclingDocument":
            raise ParseError(path, "not a DoclingDocument (schema_name is not DoclingDocument)")
        walker = read_docling(data, cfg)
        pages = [p.page for d in walker.drafts for p in d.provenance]
        return build_document(
            path=path,
            format="docling",
            backend=self.name,
            drafts=walker.drafts,
            title=walker.title or (str(data.get("name")) if data.get("name") else None),
            n_pages=len(data.get("pages") or {}) or (max(pages) if pages else None),
        )
