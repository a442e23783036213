"""``.csv`` / ``.tsv`` twin parser: one table unit per table.

Rules:

* **Encoding** by :func:`~docparse.formats._encoding.decode_bytes`: BOM,
  strict UTF-8, then charset-normalizer (cp1252, latin-1, ...).
* **Delimiter**: tab for ``.tsv``; otherwise the candidate of ``, ; \\t |``
  whose records (first 64 KB) most consistently share one field count,
  a wider table breaking ties; :class:`csv.Sniffer` when none is consistent,
  then ``,`` (see :func:`sniff_delimiter`). An Excel ``sep=;`` first line
  sets the delimiter and is dropped.
* **Tables**: a file may hold several tables separated by blank lines (the
  edgar-crawler table dumps do); each block is one table unit. A blank line
  inside a quoted cell does not split (the split follows the csv reader's
  records, not raw lines). A record whose cells are all empty (``,,,``) also
  separates tables only when :attr:`CsvConfig.split_on_empty_records` is set.
* **Ragged rows** are padded with ``""`` to the widest row.
* **Header rows**: if the first row has no numeric cell while some later row
  has one, the leading non-numeric rows (at most
  :attr:`CsvConfig.max_header_rows`) are header rows. In a table without
  numbers the first row is a header when all its cells are filled and none of
  them reappears below in its column (``AFIRMATIVO`` repeated down a column
  marks the first row as data); otherwise 0.
* Cells are cleaned (whitespace collapsed, NFC); quoted multi-line cells keep
  their content on one line.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docparse.builder import UnitDraft, build_document
from docparse.config import ParserConfig, resolve_config
from docparse.errors import EmptyDocumentError, ParseError
from docparse.formats._encoding import decode_text, read_source
from docparse.model import Document, Format, Table
from docparse.text import clean_text

__all__ = ["CsvConfig", "CsvParser", "read_tables"]

_CANDIDATES = ",;\t|"
_EXCEL_SEP = re.compile(r"^sep=(.)\r?\n")
_NUMERIC = re.compile(r"^[\s$€£¥(+\-\u2212\u2014\u2013]*\d[\d.,\s]*\s*[)%]?\s*$")


@dataclass(frozen=True, slots=True)
class CsvConfig(ParserConfig):
    """Options of :class:`CsvParser`.

    ``delimiter``: force a delimiter (``None``: sniff). ``encoding``: force an
    encoding (``None``: detect). ``split_on_blank_lines``: blank lines separate
    tables. ``split_on_empty_records``: records of only empty cells also
    separate tables. ``max_header_rows``: cap of the header-row heuristic.
    """

    delimiter: str | None = None
    encoding: str | None = None
    split_on_blank_lines: bool = True
    split_on_empty_records: bool = False
    max_header_rows: int = 5


def _is_numeric(cell: str) -> bool:
    return bool(_NUMERIC.match(cell))


def sniff_delimiter(sample: str, suffix: str = "") -> str:
    """The delimiter of CSV text ``sample``.

    Each candidate (``, ; \\t |``) splits the first records with the csv
    module (so quoted delimiters do not count); the candidate whose records
    most consistently share one field count wins, a wider table breaking
    ties (``Doe, John;Sales;Rome`` is three ``;`` fields, not two ``,``
    fields). :class:`csv.Sniffer` decides when no candidate is consistent.
    """
    if suffix.lower() == ".tsv":
        return "\t"
    sample = sample[:65536]
    scored: list[tuple[bool, int, float, int, str]] = []
    for priority, cand in enumerate(reversed(_CANDIDATES)):
        try:
            rows = [r for r in csv.reader(io.StringIO(sample), delimiter=cand) if r][:300]
        except csv.Error:
            continue
        if len(rows) > 1:
            rows = rows[:-1]  # the sample may cut the last record
        widths = [len(r) for r in rows]
        if not widths:
            continue
        mode = max(set(widths), key=lambda w: (widths.count(w), w))
        consistency = widths.count(mode) / len(widths)
        good = mode > 1 and consistency >= 0.8
        scored.append((good, mode if good else 0, consistency, priority, cand))
    best = max(scored, default=None)
    if best is not None and best[0]:
        return best[4]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=_CANDIDATES)
        if dialect.delimiter in _CANDIDATES:
            return dialect.delimiter
    except csv.Error:
        pass
    return ","


def _records(text: str, delimiter: str) -> list[tuple[list[str] | None, int, int]]:
    """CSV records as ``(cells, first line, end line)``; ``cells`` is ``None``
    for a blank line (the csv reader yields ``[]`` for one)."""
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=False)
    out: list[tuple[list[str] | None, int, int]] = []
    start = 0
    for row in reader:
        blank = not row or (len(row) == 1 and not row[0].strip())
        out.append((None if blank else row, start, reader.line_num))
        start = reader.line_num
    return out


def _header_rows(rows: list[list[str]], cap: int) -> int:
    numeric_rows = [i for i, r in enumerate(rows) if any(_is_numeric(c) for c in r if c)]
    if numeric_rows:
        first = numeric_rows[0]
        return first if 0 < first <= cap else 0
    # No numbers to go by: a header names its column, so its cells are all
    # filled and none of them reappears below in the same column.
    if len(rows) > 2 and all(rows[0]):
        below = [{r[c] for r in rows[1:]} for c in range(len(rows[0]))]
        if all(cell not in below[c] for c, cell in enumerate(rows[0])):
            return 1
    return 0


def read_tables(
    text: str, delimiter: str, config: CsvConfig | None = None
) -> list[tuple[Table, str]]:
    """Split CSV ``text`` into tables, each with its source lines (raw)."""
    cfg = config or CsvConfig()
    lines = text.splitlines(keepends=True)
    blocks: list[tuple[list[list[str]], list[int]]] = [([], [])]
    for rec, first, end in _records(text, delimiter):
        cells = None if rec is None else [clean_text(c) for c in rec]
        blank = cells is None and cfg.split_on_blank_lines
        if cells is not None and not any(cells) and cfg.split_on_empty_records:
            blank = True
        if blank:
            if blocks[-1][0]:
                blocks.append(([], []))
            continue
        if cells is None:
            continue
        blocks[-1][0].append(cells)
        blocks[-1][1].extend((first, end))
    tables: list[tuple[Table, str]] = []
    for block, span in blocks:
        if not block or not any(c for r in block for c in r):
            continue
        # Trailing all-empty records add nothing.
        while not any(block[-1]):
            block.pop()
        width = max(len(r) for r in block)
        rows = [r + [""] * (width - len(r)) for r in block]
        table = Table(
            rows=tuple(tuple(r) for r in rows),
            n_header_rows=_header_rows(rows, cfg.max_header_rows),
        )
        tables.append((table, "".join(lines[min(span) : max(span)])))
    return tables


class CsvParser:
    """Parser for ``.csv``/``.tsv`` files: one table unit per table."""

    name = "csv"
    format: Format = "csv"
    config_class = CsvConfig

    def parse(self, path: Path, config: CsvConfig | dict[str, Any] | None = None) -> Document:
        """Parse ``path`` into a :class:`~docparse.model.Document`."""
        cfg = resolve_config(CsvConfig, config)
        path = Path(path)
        text = decode_text(read_source(path), path, cfg.encoding)
        delimiter = cfg.delimiter
        sep = _EXCEL_SEP.match(text)
        if sep:
            # Excel's "sep=;" first line names the delimiter and is not data.
            delimiter = delimiter or sep.group(1)
            text = text[sep.end() :]
        delimiter = delimiter or sniff_delimiter(text, path.suffix)
        try:
            tables = read_tables(text, delimiter, cfg)
        except csv.Error as exc:
            raise ParseError(path, f"malformed CSV: {exc}", cause=exc) from exc
        if not tables:
            raise EmptyDocumentError(path, "no cells in the file")
        drafts = [UnitDraft(kind="table", text="", raw=raw, table=t) for t, raw in tables]
        return build_document(path=path, format="csv", backend=self.name, drafts=drafts)
