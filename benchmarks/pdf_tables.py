"""Table fidelity of the PDF backends on ``../shared/corpus/csv_tables``.

Expected tables: the tabula-java CSV of each folder (one table), or each
table region of the ICDAR-2013 ``*-str.xml`` ground truth (a table continued
on another page is one region per page, as a PDF backend sees it). For every
expected table, the backend's table unit with the best cell F1
(:func:`align.metrics.tables.cell_f1`: multisets of normalised non-empty cell
strings) is reported. Every table unit of the document is a candidate, so the
ICDAR page-base caveat of SCHEMAS.md does not matter.

    python -m benchmarks.pdf_tables [--backend pymupdf --backend pdfplumber] [--config JSON]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import docparse
from align.metrics.tables import cell_f1
from align.readers.tables import read_gold_tables

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "csv_tables"

Rows = list[list[str]]


#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--corpus", "{corpus}/csv_tables", "--backend", "pymupdf"]


def expected_tables(folder: Path) -> list[tuple[str, Rows]]:
    """(name, rows) of each expected table in a csv_tables folder."""
    return [(t.name, [list(r) for r in t.rows]) for t in read_gold_tables(folder)]


def best_f1(doc: docparse.Document, rows: Rows) -> tuple[float, int | None]:
    best, where = 0.0, None
    for u in doc.units:
        if u.table is not None:
            f = cell_f1(rows, u.table)
            if f > best:
                best, where = f, u.page
    return best, where


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", action="append")
    ap.add_argument("--config", default=None, help="JSON dict of backend options")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    args = ap.parse_args(argv)
    backends = args.backend or ["pymupdf", "pdfplumber"]
    config = json.loads(args.config) if args.config else None
    print(f"{'backend':11} {'expected table':52} {'tables':>6} {'page':>4} {'F1':>6} {'sec':>5}")
    for backend in backends:
        scores = []
        for folder in sorted(p for p in args.corpus.iterdir() if p.is_dir()):
            pdf = next(folder.glob("*.pdf"))
            t0 = time.perf_counter()
            doc = docparse.parse(pdf, backend=backend, config=config)
            sec = time.perf_counter() - t0
            n_tables = sum(1 for u in doc.units if u.table is not None)
            for name, rows in expected_tables(folder):
                f, page = best_f1(doc, rows)
                scores.append(f)
                label = f"{folder.name}/{name}"[-52:]
                print(f"{backend:11} {label:52} {n_tables:>6} {page!s:>4} {f:>6.3f} {sec:>5.1f}")
        mean = sum(scores) / len(scores) if scores else 0.0
        n_ok = sum(s >= 0.9 for s in scores)
        print(f"{backend:11} mean F1 {mean:.3f}; {n_ok}/{len(scores)} expected tables >= 0.9")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
