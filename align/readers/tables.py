"""Gold tables: the expected tables that PDF table extraction is scored against.

Two formats, both found in ``csv_tables/`` of the shared corpus:

* a tabula-style CSV: the whole file is one table, row by row;
* ICDAR-2013 table-competition structure XML (``*-str.xml``): ``<table>``
  elements holding one ``<region page=...>`` per page the table covers, and
  ``<cell start-row= start-col= [end-row= end-col=]>`` elements with the cell
  text in ``<content>``. Each region is one expected table, as a PDF backend
  sees one table per page; a spanning cell is placed at its start row and
  column, the cells it covers stay empty.

The XML is read with entity resolution, DTD loading and network access off.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from docparse.errors import ParseError

__all__ = ["GoldTable", "read_csv_table", "read_gold_tables", "read_icdar2013"]


@dataclass(frozen=True, slots=True)
class GoldTable:
    """One expected table.

    Example record: ``{"name": "us-001-str.xml#t1p1", "page": 1,
    "rows": [["Category", "2005", "", ...], ...]}`` (``page`` is 1-based; None
    for a CSV, which does not say).
    """

    name: str
    rows: tuple[tuple[str, ...], ...]
    page: int | None = None


def read_csv_table(path: Path) -> GoldTable:
    """A tabula-style CSV file as one table."""
    try:
        with path.open(encoding="utf-8", newline="") as fh:
            rows = tuple(tuple(r) for r in csv.reader(fh))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ParseError(path, f"cannot read table CSV: {exc}", cause=exc) from exc
    return GoldTable(path.name, rows)


def _int(value: str | None, default: int) -> int:
    return int(value) if value is not None and value.strip().lstrip("-").isdigit() else default


def read_icdar2013(path: Path) -> list[GoldTable]:
    """The table regions of an ICDAR-2013 ``*-str.xml`` file, one :class:`GoldTable` each.

    ICDAR's own page numbers are kept as they are (the competition's files are
    1-based for most documents, 0-based for some).
    """
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        root = etree.parse(str(path), parser).getroot()
    except (OSError, etree.XMLSyntaxError) as exc:
        raise ParseError(path, f"cannot read ICDAR-2013 XML: {exc}", cause=exc) from exc
    out: list[GoldTable] = []
    for table in root.iter("table"):
        for region in table.iter("region"):
            placed: dict[tuple[int, int], str] = {}
            for cell in region.iter("cell"):
                r = _int(cell.get("start-row"), 0)
                c = _int(cell.get("start-col"), 0)
                placed[(r, c)] = " ".join("".join(cell.findtext("content") or "").split())
            if not placed:
                continue
            n_rows = max(r for r, _ in placed) + 1
            n_cols = max(c for _, c in placed) + 1
            rows = tuple(
                tuple(placed.get((r, c), "") for c in range(n_cols)) for r in range(n_rows)
            )
            page = _int(region.get("page"), 0) or None
            name = f"{path.name}#t{table.get('id')}p{region.get('page')}"
            out.append(GoldTable(name, rows, page))
    return out


def read_gold_tables(folder: Path) -> list[GoldTable]:
    """Every expected table in a folder: its ``*.csv`` files, then its ``*-str.xml`` files."""
    out = [read_csv_table(p) for p in sorted(folder.glob("*.csv"))]
    for x in sorted(folder.glob("*-str.xml")):
        out.extend(read_icdar2013(x))
    return out
