"""Unmapped glyphs per PDF backend: U+FFFD and ``(cid:N)`` in units, and per-page counts.

For every PDF and backend, prints how many units' texts (table cells
included) hold U+FFFD or ``(cid:`` (both must be 0: the backends leave
unmapped glyphs out), how many glyphs the backend counted as unmapped
(:attr:`docparse.PageInfo.n_unmapped`, summed over pages), the page with the
largest unmapped share, and the parse's CPU time.

    python -m benchmarks.pdf_glyphs [--backend pymupdf ...] [--max-pages N] [PDF ...]

Without PDFs, every PDF under ../shared/corpus is measured (ICDAR-2013's
included), with every PDF backend unless ``--backend`` names some. ``--max-pages``
reads only the first N pages of each (unstructured is slow on 300-page books).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("DO_NOT_TRACK", "1")

import docparse
from benchmarks.pdf_coverage import CORPUS, FOLDERS, corpus_pdfs
from docparse.model import Document
from docparse.registry import PDF_BACKENDS

#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["{corpus}/research/arxiv-2510.22211v1/2510.22211v1.pdf", "--max-pages", "2"]


def unit_texts(doc: Document) -> list[str]:
    """Every text a user reads from ``doc``: unit texts and table cells."""
    out = []
    for u in doc.units:
        out.append(u.text)
        if u.table is not None:
            out.extend(c for row in u.table.rows for c in row)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pdfs", nargs="*", type=Path)
    ap.add_argument("--backend", action="append", dest="backends")
    ap.add_argument("--max-pages", type=int, default=0)
    args = ap.parse_args(argv)
    backends = args.backends or list(PDF_BACKENDS)
    pdfs = args.pdfs or corpus_pdfs((*FOLDERS, "tables_icdar2013"))
    print(
        f"{'document':50} {'backend':12} {'pages':>5} {'fffd':>5} {'cid':>5} {'unmapped':>8}"
        f" {'worst page':>14} {'cpu s':>6}"
    )
    totals = {b: [0, 0, 0] for b in backends}
    for path in pdfs:
        name = str(path.relative_to(CORPUS)) if path.is_relative_to(CORPUS) else str(path)
        for backend in backends:
            config: dict[str, object] = {}
            if args.max_pages:
                config["pages"] = (1, args.max_pages)
            t0 = time.process_time()
            doc = docparse.parse(path, backend=backend, config=config)
            cpu = time.process_time() - t0
            texts = unit_texts(doc)
            fffd = sum(t.count("\ufffd") for t in texts)
            cid = sum(t.count("(cid:") for t in texts)
            unmapped = sum(p.n_unmapped for p in doc.pages)
            worst = max(doc.pages, key=lambda p: p.unmapped_fraction, default=None)
            where = f"p{worst.page} {worst.unmapped_fraction:.1%}" if worst else "-"
            print(
                f"{name[-50:]:50} {backend:12} {len(doc.pages):>5} {fffd:>5} {cid:>5}"
                f" {unmapped:>8} {where:>14} {cpu:>6.1f}"
            )
            sys.stdout.flush()
            t = totals[backend]
            t[0] += fffd
            t[1] += cid
            t[2] += unmapped
    for backend, (fffd, cid, unmapped) in totals.items():
        print(f"total {backend}: U+FFFD {fffd}, (cid: {cid}, unmapped glyphs counted {unmapped}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
