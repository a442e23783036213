"""OCR fidelity and cost on scans made from PDFs whose gold text is known.

    python -m benchmarks.ocr_scans [--corpus ../shared/corpus] [--pages N]
        [--dpi 200] [--variants clean,skew,noise,jpeg] [--engine rapidocr]
        [--chinese-pages 20] [--skip-research] [--auto-check] [-o out.json]

Research pairs (``research/<id>/``: ``.tex`` twin and ``.pdf``): the first
``--pages`` pages of each PDF (all with ``--pages 0``) are rasterized into an
image-only PDF (:func:`docparse.ocr.scan.rasterize`) in each variant: clean at
``--dpi``, ``skew`` (1.5 degrees), ``noise`` (Gaussian, sigma 12) and ``jpeg``
(quality 40). Each scan is parsed with OCR (pymupdf backend) and scored
against the twin with :func:`align.project.project`: word recall and unit
recall at 0.9. When only some pages are scanned, the twin is cut to the units
the same pages' text-layer parse finds (recall >= 0.5), so the figures
measure OCR, not the missing pages. The text-layer parse of the same pages
is scored and timed side by side.

The Chinese book (``books/debian-reference-zh-cn``): ``--chinese-pages``
pages from its middle, character recall of the OCR text against the PDF's own
text layer, page by page (longest common subsequence of the non-space
characters).

``--auto-check``: every PDF of the corpus read with the pymupdf backend, and
the pages ``ocr="auto"`` would OCR listed (none is the expected answer on text
PDFs).

CPU seconds (``time.process_time``, one ONNX thread) per page for the text
layer and for OCR, and the peak resident memory of the process, are printed at
the end.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from align.project import project
from docparse.api import parse
from docparse.model import Document
from docparse.ocr.pages import cpu_seconds, ocr_records
from docparse.ocr.scan import ScanStyle, rasterize

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
VARIANTS = {
    "clean": {},
    "skew": {"skew": 1.5},
    "noise": {"noise": 12.0},
    "jpeg": {"jpeg": 40},
}


#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--corpus", "{corpus}", "--pages", "1", "--variants", "clean", "--chinese-pages", "0"]


def _pairs(corpus: Path) -> list[tuple[str, Path, Path]]:
    from benchmarks.fidelity_research import pairs

    return pairs(corpus)


def _cut_twin(twin: Document, text_layer: Document) -> Document:
    """The twin's units that the text-layer parse of the same pages finds."""
    proj = project(twin, text_layer)
    keep = {u.twin_id for u in proj.units if u.n_words and u.n_matched >= 0.5 * u.n_words}
    return replace(twin, units=tuple(u for u in twin.units if u.id in keep))


def _timed(path: Path, config: dict[str, Any]) -> tuple[Document, float, list[Any]]:
    start = cpu_seconds()
    with ocr_records() as records:
        doc = parse(path, backend="pymupdf", config=config)
    return doc, cpu_seconds() - start, list(records)


def run_research(
    corpus: Path, pages: int, dpi: int, variants: list[str], engine: str, tmp: Path
) -> dict[str, Any]:
    results: dict[str, Any] = {}
    print(f"{'paper':26} {'variant':8} {'pages':>5} {'WR':>6} {'UR@0.9':>6} {'s/page':>7}")
    for name, tex, pdf in _pairs(corpus):
        twin = parse(tex)
        window = {"pages": (1, pages)} if pages else {}
        text, text_secs, _ = _timed(pdf, {**window, "ocr": "off"})
        n = text.n_pages if not pages else min(pages, text.n_pages or pages)
        gold = _cut_twin(twin, text) if pages else twin
        proj = project(gold, text)
        row: dict[str, Any] = {
            "text_layer": {
                "word_recall": proj.word_recall(),
                "unit_recall": proj.unit_recall(0.9),
                "seconds_per_page": text_secs / n,
            }
        }
        print(
            f"{name[:26]:26} {'text':8} {n:5d} {proj.word_recall():6.3f} "
            f"{proj.unit_recall(0.9):6.3f} {text_secs / n:7.2f}"
        )
        for variant in variants:
            style = ScanStyle(dpi=dpi, **VARIANTS[variant])  # type: ignore[arg-type]
            scan = rasterize(pdf, tmp / f"{name}-{variant}.pdf", style, pages=(1, n))
            doc, secs, records = _timed(scan, {"ocr": "auto", "ocr_engine": engine})
            proj = project(gold, doc)
            row[variant] = {
                "word_recall": proj.word_recall(),
                "unit_recall": proj.unit_recall(0.9),
                "seconds_per_page": secs / n,
                "ocr_pages": len(records),
                "confidence": statistics.fmean(r.confidence for r in records) if records else 0,
            }
            print(
                f"{name[:26]:26} {variant:8} {n:5d} {proj.word_recall():6.3f} "
                f"{proj.unit_recall(0.9):6.3f} {secs / n:7.2f}"
            )
            sys.stdout.flush()
        results[name] = row
    print("\nmean over papers")
    for variant in ["text_layer", *variants]:
        rows = [r[variant] for r in results.values()]
        print(
            f"  {variant:10} WR={statistics.fmean(r['word_recall'] for r in rows):.3f} "
            f"UR@0.9={statistics.fmean(r['unit_recall'] for r in rows):.3f} "
            f"cpu_s/page={statistics.fmean(r['seconds_per_page'] for r in rows):.2f}"
        )
    return results


def _chars(doc: Document, page: int) -> str:
    return "".join(
        c for u in doc.units if u.page == page and u.kind != "furniture" for c in u.text
    ).replace(" ", "")


def run_chinese(corpus: Path, n_pages: int, dpi: int, engine: str, tmp: Path) -> dict[str, Any]:
    from rapidfuzz.distance import LCSseq

    pdf = next((corpus / "books" / "debian-reference-zh-cn").glob("*.pdf"))
    import pymupdf

    with pymupdf.open(pdf) as d:
        total = d.page_count
    first = max(1, total // 2 - n_pages // 2)
    window = (first, first + n_pages - 1)
    text, text_secs, _ = _timed(pdf, {"pages": window, "ocr": "off"})
    scan = rasterize(pdf, tmp / "zh.pdf", ScanStyle(dpi=dpi), pages=window)
    doc, secs, _ = _timed(scan, {"ocr": "auto", "ocr_engine": engine})
    found = gold = 0
    for i in range(n_pages):
        want = _chars(text, first + i)
        got = _chars(doc, i + 1)
        gold += len(want)
        found += LCSseq.similarity(want, got)
    recall = found / gold if gold else 0.0
    print(
        f"\nChinese book pages {window[0]}-{window[1]}: character recall {recall:.3f} "
        f"({found}/{gold}); cpu s/page text layer {text_secs / n_pages:.2f}, "
        f"OCR {secs / n_pages:.2f}"
    )
    return {"pages": window, "char_recall": recall, "ocr_seconds_per_page": secs / n_pages}


def run_auto_check(corpus: Path) -> dict[str, list[int]]:
    """Pages ``ocr="auto"`` would OCR in every PDF of the corpus (text PDFs: none expected).

    Reads each page's text layer with the pymupdf backend and applies
    :func:`docparse.ocr.pages.needs_ocr`, without running an engine.
    """
    from docparse.backends.preflight import preflight
    from docparse.backends.pymupdf import PyMuPDFBackend, PyMuPDFConfig
    from docparse.errors import DocparseError
    from docparse.ocr.pages import needs_ocr

    backend, config = PyMuPDFBackend(), PyMuPDFConfig(tables=False)
    found: dict[str, list[int]] = {}
    n_pdfs = n_pages = 0
    for pdf in sorted(corpus.rglob("*.pdf")):
        try:
            info = preflight(pdf, config)
            pages = [
                p.number for p in backend.iter_pages(pdf, config, info) if needs_ocr(p, "auto")
            ]
        except DocparseError as exc:
            print(f"  {pdf.relative_to(corpus)}: {exc.message[:80]}")
            continue
        n_pdfs += 1
        n_pages += info.last - info.first
        if pages:
            found[str(pdf.relative_to(corpus))] = pages
    print(f"\nauto mode over {n_pdfs} corpus PDFs ({n_pages} pages): pages it would OCR: {found}")
    return found


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--pages", type=int, default=2, help="pages per paper; 0 for all")
    ap.add_argument("--dpi", type=int, default=200)
    ap.add_argument("--variants", default="clean,skew,noise,jpeg")
    ap.add_argument("--engine", default="rapidocr", choices=("rapidocr", "tesseract"))
    ap.add_argument("--chinese-pages", type=int, default=20, help="0 to leave the book out")
    ap.add_argument("--skip-research", action="store_true")
    ap.add_argument(
        "--auto-check", action="store_true", help="count pages auto mode OCRs in the corpus PDFs"
    )
    ap.add_argument("-o", "--output", type=Path)
    args = ap.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    out: dict[str, Any] = {}
    if args.auto_check:
        out["auto_check"] = run_auto_check(args.corpus)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if not args.skip_research:
            out["research"] = run_research(
                args.corpus, args.pages, args.dpi, variants, args.engine, tmp
            )
        if args.chinese_pages:
            out["chinese"] = run_chinese(
                args.corpus, args.chinese_pages, args.dpi, args.engine, tmp
            )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["peak_rss_mb"] = peak
    print(f"peak resident memory {peak:.0f} MB")
    if args.output:
        args.output.write_text(json.dumps(out, indent=1, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()
