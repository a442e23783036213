"""Table fidelity of the PDF backends on ICDAR-2013 (or any folder of PDFs with gold tables).

Expected tables: each table region of the ICDAR-2013 ``*-str.xml`` ground truth
(a table continued on another page is one region per page), or the
tabula-java CSV of a ``csv_tables`` folder (of one page: ``schools`` is page 1
of a five-page table). A docparse table joined over a page break
(:mod:`docparse.backends.table_pages`) is a candidate whole and, parsed with
that page alone, page by page, so a gold table of one page is scored against
that page's part and a gold table of several against the whole. For every
expected table, the contender's table with the best cell F1
(:func:`align.metrics.tables.cell_f1`: multisets of normalised non-empty cell
strings) is scored, with its ICDAR-2013 adjacency-relation F1
(:func:`align.metrics.tables.adjacency_f1`: each non-empty cell with its next
non-empty neighbour to the right and below) beside it. A table counts as
detected when that best cell F1 is at least 0.5 (half of its cells in one
found table). Every table of the document is a candidate, so ICDAR's mixed
0/1-based page numbers do not matter. Cells are compared with their spaces
removed, as the ICDAR-2013 competition compares them (its ground truth often
lacks the spaces a PDF shows only by position: ``Yearofdata``); the summary
also gives the figures with spaces kept.

Contenders: the docparse backends (``--backend``, default pymupdf and
pdfplumber) and ``pymupdf4llm`` (its ``to_markdown`` pipe tables, OCR off),
all in the same run. CPU seconds per document are shown.

    python -m benchmarks.pdf_tables [--backend pymupdf ...] [--no-pymupdf4llm] [--config JSON]
        [--corpus DIR] [--only eu-001 ...]

Targets: >= 98% detected, mean cell F1 >= 0.95, mean adjacency F1 >= 0.9,
>= 90% of tables at adjacency F1 >= 0.9.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("DO_NOT_TRACK", "1")

from align.metrics.tables import adjacency_f1, cell_f1
from align.readers.tables import read_gold_tables

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "tables_icdar2013"
DETECTED = 0.5

Rows = list[list[str]]

_SEPARATOR = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_MARKUP = re.compile(r"<br\s*/?>|\*\*|__|(?<!\w)_(?=\w)|(?<=\w)_(?!\w)")


#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--corpus", "{corpus}/csv_tables", "--backend", "pymupdf"]


def expected_tables(folder: Path) -> list[tuple[str, Rows]]:
    """(name, rows) of each expected table in a folder."""
    return [(t.name, [list(r) for r in t.rows]) for t in read_gold_tables(folder)]


def markdown_tables(text: str) -> list[Rows]:
    """The pipe tables of a Markdown text as rows of cell strings (separator rows dropped)."""
    tables: list[Rows] = []
    current: Rows = []
    for line in [*text.splitlines(), ""]:
        s = line.strip()
        if s.startswith("|"):
            if not _SEPARATOR.match(s):
                body = s[1:-1] if s.endswith("|") and len(s) > 1 else s[1:]
                cells = [_MARKUP.sub(" ", c).replace("\\|", "|") for c in _CELL_SPLIT.split(body)]
                current.append([" ".join(c.split()) for c in cells])
            continue
        if current:
            tables.append(current)
            current = []
    return tables


def docparse_tables(backend: str, config: dict[str, object] | None) -> Callable[[Path], list]:
    import docparse

    def run(pdf: Path) -> list:
        doc = docparse.parse(pdf, backend=backend, config=config)
        found = [u.table for u in doc.units if u.table is not None]
        # A table joined over a page break is also a candidate page by page:
        # a gold table of one page (an ICDAR region, a tabula CSV of page 1)
        # is that page's part, as the page alone reads it.
        pages = sorted(
            {
                p.page
                for u in doc.units
                if u.table is not None
                for p in u.provenance
                if len({q.page for q in u.provenance}) > 1
            }
        )
        for page in pages:
            alone = docparse.parse(
                pdf, backend=backend, config={**(config or {}), "pages": (page, page)}
            )
            found += [u.table for u in alone.units if u.table is not None]
        return found

    return run


def pymupdf4llm_tables(pdf: Path) -> list:
    import pymupdf4llm

    text = pymupdf4llm.to_markdown(str(pdf), show_progress=False, use_ocr=False)
    return markdown_tables(text)


@dataclass
class Score:
    """Per contender: (table, tables found in doc, cell F1, adjacency F1) and CPU seconds.

    ``rows`` compare cells without spaces (the competition's way), ``spaced`` with them.
    """

    rows: list[tuple[str, int, float, float]] = field(default_factory=list)
    spaced: list[tuple[str, int, float, float]] = field(default_factory=list)
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)


def best(gold: Rows, found: list, *, spaces: bool = False) -> tuple[float, float]:
    """Cell F1 of the best candidate (by cell F1, then adjacency F1) and its adjacency F1.

    ``spaces=False`` (the default) compares cells with their spaces removed.
    """
    top = (0.0, 0.0)
    for t in found:
        f = cell_f1(gold, t, spaces=spaces)
        if f >= top[0] and f > 0:
            a = adjacency_f1(gold, t, spaces=spaces)
            if f > top[0] or a > top[1]:
                top = (f, a)
    return top


def summary(label: str, s: Score, spaced: bool = False) -> str:
    rows = s.spaced if spaced else s.rows
    n = len(rows)
    if not n:
        return f"{label:12} no tables scored"
    det = sum(r[2] >= DETECTED for r in rows)
    cf = statistics.fmean(r[2] for r in rows)
    af = statistics.fmean(r[3] for r in rows)
    a9 = sum(r[3] >= 0.9 for r in rows)
    c9 = sum(r[2] >= 0.9 for r in rows)
    if spaced:
        return (
            f"{'':12} with spaces kept: detected {det}/{n}; cell F1 {cf:.3f}; "
            f"adjacency F1 {af:.3f}; adjacency F1 >= 0.9: {a9}/{n} ({100 * a9 / n:.1f}%)"
        )
    return (
        f"{label:12} detected {det}/{n} ({100 * det / n:.1f}%, target >= 98%); "
        f"mean cell F1 {cf:.3f} (>= 0.95); mean adjacency F1 {af:.3f} (>= 0.9); "
        f"adjacency F1 >= 0.9: {a9}/{n} ({100 * a9 / n:.1f}%, >= 90%); "
        f"cell F1 >= 0.9: {c9}/{n}; CPU {s.seconds:.1f} s"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", action="append")
    ap.add_argument("--config", default=None, help="JSON dict of backend options")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--only", action="append", help="folder names to run (default: all)")
    ap.add_argument("--no-pymupdf4llm", action="store_true", help="leave pymupdf4llm out")
    args = ap.parse_args(argv)
    config = json.loads(args.config) if args.config else None
    contenders: dict[str, Callable[[Path], list]] = {
        b: docparse_tables(b, config) for b in (args.backend or ["pymupdf", "pdfplumber"])
    }
    if not args.no_pymupdf4llm:
        contenders["pymupdf4llm"] = pymupdf4llm_tables
    scores = {name: Score() for name in contenders}
    folders = sorted(p for p in args.corpus.iterdir() if p.is_dir())
    if args.only:
        folders = [f for f in folders if f.name in args.only]
    names = list(contenders)
    print(f"{'expected table':44} " + " ".join(f"{n[:11]:>11} tab cF1  adjF1" for n in names))
    for folder in folders:
        pdf = next(folder.glob("*.pdf"), None)
        gold = expected_tables(folder)
        if pdf is None or not gold:
            continue
        found: dict[str, list] = {}
        for name, fn in contenders.items():
            t0 = time.process_time()
            try:
                found[name] = fn(pdf)
            except Exception as exc:  # noqa: BLE001 - a benchmark reports failures, goes on
                scores[name].errors.append(f"{folder.name}: {type(exc).__name__}: {exc}")
                found[name] = []
            scores[name].seconds += time.process_time() - t0
        for gname, rows in gold:
            cells = []
            for name in names:
                f, a = best(rows, found[name])
                scores[name].rows.append((f"{folder.name}/{gname}", len(found[name]), f, a))
                fs, as_ = best(rows, found[name], spaces=True)
                scores[name].spaced.append((f"{folder.name}/{gname}", len(found[name]), fs, as_))
                cells.append(f"{'':>11} {len(found[name]):>3} {f:.2f} {a:6.2f}")
            label = gname.replace("-str.xml", "")[-44:]
            print(f"{label:44} " + " ".join(cells), flush=True)
    print()
    for name in names:
        print(summary(name, scores[name]))
        print(summary(name, scores[name], spaced=True))
        for err in scores[name].errors:
            print(f"  error: {err}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
