"""OCR fidelity and cost on scans made from PDFs whose gold text is known.

    python -m benchmarks.ocr_scans [--corpus ../shared/corpus] [--pages N]
        [--variant-pages N] [--paper NAME ...] [--jobs N]
        [--dpi 200] [--variants clean,skew,noise,jpeg] [--engine rapidocr] [--ocr-dpi 0]
        [--chinese-pages 20] [--skip-research] [--auto-check]
        [--memory-pages 300] [--rec-cost] [-o out.json]

Research pairs (``research/<id>/``: ``.tex`` twin and ``.pdf``): the first
``--pages`` pages of each PDF (all with ``--pages 0``) are rasterized into an
image-only PDF (:func:`docparse.ocr.scan.rasterize`) in each variant: clean at
``--dpi``, ``skew`` (1.5 degrees), ``noise`` (Gaussian, sigma 12) and ``jpeg``
(quality 40); the degraded variants on the first ``--variant-pages`` pages
when given (they cost as much OCR as the clean scan). ``--paper`` picks
papers; ``--jobs`` runs papers in parallel processes (CPU time is measured in
each). Each scan is parsed with OCR (pymupdf backend) and scored
against the twin with :func:`align.project.project`: word recall and unit
recall at 0.9. When only some pages are scanned, the twin is cut to the units
the same pages' text-layer parse finds (recall >= 0.5), so the figures
measure OCR, not the missing pages. The text-layer parse of the same pages
is scored and timed side by side.

The Chinese book (``books/debian-reference-zh-cn``): ``--chinese-pages``
pages from its middle, character recall of the OCR text against the PDF's own
text layer, page by page: the share of the text layer's non-space characters
found (as a multiset), and in reading order (longest common subsequence);
and of the whole window as one multiset (a paragraph that runs over a page
break is one unit on its first page, so page by page its text can count as
missing on one page and surplus on the next).

``--auto-check``: every PDF of the corpus read with the pymupdf backend, and
the pages ``ocr="auto"`` would OCR listed (none is the expected answer on text
PDFs); PDFs where it OCRs pages are parsed with ``auto`` and ``off`` and the
units of their text-layer pages compared (no difference expected).

``--rec-cost``: the rapidocr recogniser timed alone on line crops of
widths 16-1000 px (at its 48 px height), with the fit ``per crop + per
pixel of width`` (:func:`run_rec_cost`): what a page's recognition costs is
then about its pieces times the first plus its pixels of line times the second.

CPU seconds (``time.process_time``, one ONNX thread) per page for the text
layer and for OCR, and the peak resident memory of the process, are printed at
the end.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import resource
import statistics
import sys
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from align.project import project
from docparse.api import parse
from docparse.model import Document
from docparse.ocr.engine import load_engine
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


def _variant_row(
    gold: Document, doc: Document, secs: float, n: int, records: list[Any]
) -> dict[str, Any]:
    proj = project(gold, doc)
    return {
        "pages": n,
        "word_recall": proj.word_recall(),
        "unit_recall": proj.unit_recall(0.9),
        "seconds_per_page": secs / n,
        "ocr_pages": len(records),
        "confidence": statistics.fmean(r.confidence for r in records) if records else 0,
        "stages": _stages(records),
    }


def _stages(records: list[Any]) -> dict[str, float]:
    """CPU seconds per stage summed over the OCR'd pages (see ``OcrPageRecord.stages``)."""
    total: Counter[str] = Counter()
    for r in records:
        for stage, secs in r.stages:
            total[stage] += secs
    return dict(total)


#: Stages of an OCR'd page, in the order they run.
STAGES = ("render", "smooth", "detect", "crop", "recognise", "boxes", "assembly")


def print_stages(rows: dict[str, dict[str, Any]]) -> None:
    """Mean CPU seconds per OCR'd page and stage, one row per scan variant."""
    print("\nOCR CPU seconds per page by stage (mean over the pages of each scan variant)\n")
    print(f"| scan | pages | {' | '.join(STAGES)} | other | total |")
    print("|---|---|" + "---|" * (len(STAGES) + 2))
    for variant, rs in rows.items():
        pages = sum(r["ocr_pages"] for r in rs)
        if not pages:
            continue
        total: Counter[str] = Counter()
        for r in rs:
            total.update(r["stages"])
        secs = sum(r["seconds_per_page"] * r["pages"] for r in rs)
        known = sum(total[s] for s in STAGES)
        cells = " | ".join(f"{total[s] / pages:.2f}" for s in STAGES)
        print(
            f"| {variant} | {pages} | {cells} | {(secs - known) / pages:.2f} | {secs / pages:.2f} |"
        )


def run_paper(
    name: str,
    tex: Path,
    pdf: Path,
    windows: dict[str, int],
    dpi: int,
    engine: str,
    tmp: Path,
    ocr_dpi: int = 0,
) -> dict[str, Any]:
    """One paper: the text layer and each variant's scan of its first
    ``windows[variant]`` pages (0: all), scored against the twin."""
    twin = parse(tex)
    # Imports, the engine's model and the tokenizer load once per process: not a page's cost.
    parse(pdf, backend="pymupdf", config={"pages": (1, 1), "ocr": "off"})
    load_engine(engine)  # type: ignore[arg-type]
    row: dict[str, Any] = {}
    golds: dict[int, tuple[Document, Document, float, int]] = {}
    for variant, pages in windows.items():
        if pages not in golds:
            window = {"pages": (1, pages)} if pages else {}
            text, text_secs, _ = _timed(pdf, {**window, "ocr": "off"})
            n = text.n_pages if not pages else min(pages, text.n_pages or pages)
            golds[pages] = (_cut_twin(twin, text) if pages else twin, text, text_secs, n)
        gold, text, text_secs, n = golds[pages]
        if variant == "text_layer":
            row[variant] = _variant_row(gold, text, text_secs, n, [])
        else:
            style = ScanStyle(dpi=dpi, **VARIANTS[variant])  # type: ignore[arg-type]
            scan = rasterize(pdf, tmp / f"{name}-{variant}.pdf", style, pages=(1, n))
            config = {"ocr": "auto", "ocr_engine": engine, "ocr_dpi": ocr_dpi}
            doc, secs, records = _timed(scan, config)
            row[variant] = _variant_row(gold, doc, secs, n, records)
            row[variant]["text_seconds_per_page"] = text_secs / n
        r = row[variant]
        print(
            f"  {name[:26]:26} {variant:10} {n:3d} pages WR {r['word_recall']:.3f} "
            f"UR@0.9 {r['unit_recall']:.3f} cpu s/page {r['seconds_per_page']:.2f}",
            file=sys.stderr,
            flush=True,
        )
    return row


def run_research(
    corpus: Path,
    pages: int,
    dpi: int,
    variants: list[str],
    engine: str,
    tmp: Path,
    *,
    variant_pages: int | None = None,
    papers: list[str] | None = None,
    jobs: int = 1,
    ocr_dpi: int = 0,
) -> dict[str, Any]:
    chosen = [p for p in _pairs(corpus) if not papers or p[0] in papers]
    windows = {"text_layer": pages}
    for v in variants:
        windows[v] = pages if v == "clean" or variant_pages is None else variant_pages
    results: dict[str, Any] = {}
    with concurrent.futures.ProcessPoolExecutor(max(1, jobs)) as pool:
        futures = {
            name: pool.submit(run_paper, name, tex, pdf, windows, dpi, engine, tmp, ocr_dpi)
            for name, tex, pdf in chosen
        }
        for name, future in futures.items():
            results[name] = future.result()
    read_at = f", read at {ocr_dpi} dpi" if ocr_dpi else ""
    print(f"\nOCR of research scans at {dpi} dpi ({engine}{read_at}) against the twin\n")
    print(
        "| paper | scan | pages | word recall | unit recall@0.9 | OCR CPU s/page "
        "| text layer CPU s/page |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, row in results.items():
        for variant, r in row.items():
            ocr_s = "-" if variant == "text_layer" else f"{r['seconds_per_page']:.2f}"
            text_s = r.get("text_seconds_per_page", r["seconds_per_page"])
            print(
                f"| {name} | {variant} | {r['pages']} | {r['word_recall']:.3f} | "
                f"{r['unit_recall']:.3f} | {ocr_s} | {text_s:.3f} |"
            )
    for variant in ["text_layer", *variants]:
        rows = [r[variant] for r in results.values()]
        n = sum(r["pages"] for r in rows)
        ocr_s = (
            "-"
            if variant == "text_layer"
            else f"{sum(r['seconds_per_page'] * r['pages'] for r in rows) / n:.2f}"
        )
        print(
            f"| **mean** | {variant} | {n} | "
            f"{statistics.fmean(r['word_recall'] for r in rows):.3f} | "
            f"{statistics.fmean(r['unit_recall'] for r in rows):.3f} | {ocr_s} | |"
        )
    print_stages({v: [row[v] for row in results.values()] for v in variants})
    return results


#: Peak memory allowed for a 300-page scan (bytes).
MEMORY_TARGET = 1.5 * 2**30


def synthetic_scan(dst: Path, n_pages: int, dpi: int) -> Path:
    """An ``n_pages`` image-only scan of a few lines of English a page."""
    import pymupdf

    text = dst.with_suffix(".text.pdf")
    doc = pymupdf.open()
    for i in range(n_pages):
        page = doc.new_page()
        page.insert_text((72, 90), f"Section {i + 1}: scanned pages", fontsize=16)
        for j in range(4):
            page.insert_text(
                (72, 130 + 16 * j),
                f"Line {j + 1} of page {i + 1}: the quick brown fox jumps over the lazy dog.",
                fontsize=11,
            )
    doc.save(text)
    doc.close()
    return rasterize(text, dst, ScanStyle(dpi=dpi))


def run_memory(n_pages: int, dpi: int, tmp: Path) -> dict[str, Any]:
    """Peak RSS of parsing an ``n_pages`` scan with OCR against its first 10 pages."""
    from benchmarks.pdf_memory import measure

    scan = synthetic_scan(tmp / f"scan-{n_pages}.pdf", n_pages, dpi)
    head = measure(scan, "pymupdf", 10)
    full = measure(scan, "pymupdf", 0)
    mib = 2**20
    print(f"\nPeak memory of an OCR parse ({dpi} dpi scan, pymupdf, rapidocr, fresh process)\n")
    print("| pages | peak RSS MiB | target | met |")
    print("|---|---|---|---|")
    for r in (head, full):
        met = "yes" if r["rss_peak"] <= MEMORY_TARGET else "no"
        print(f"| {r['pages']:.0f} | {r['rss_peak'] / mib:.0f} | <= 1536 | {met} |")
    return {"head": head, "all": full}


#: Crop widths (pixels at the recogniser's 48 px height) timed by :func:`run_rec_cost`.
REC_WIDTHS = (16, 64, 128, 256, 384, 512, 640, 800, 1000)


def run_rec_cost(repeat: int = 5) -> dict[str, Any]:
    """CPU seconds of the rapidocr recogniser per line crop against its width,
    and the least-squares fit ``per crop + per pixel * width`` over
    :data:`REC_WIDTHS` (the best of ``repeat`` runs of each): which of the two
    a page's recognition cost is made of."""
    import numpy as np

    from docparse.ocr.rapidocr import RapidOcrEngine

    engine = load_engine("rapidocr")
    assert isinstance(engine, RapidOcrEngine)
    rng = np.random.default_rng(0)
    rows: list[tuple[int, float]] = []
    for width in REC_WIDTHS:
        crop = rng.integers(0, 256, (48, width, 3), dtype=np.uint8)
        engine.read_crops([crop])  # one warm-up per width
        best = float("inf")
        for _ in range(repeat):
            start = cpu_seconds()
            engine.read_crops([crop])
            best = min(best, cpu_seconds() - start)
        rows.append((width, best))
    widths = np.array([w for w, _ in rows], dtype=float)
    secs = np.array([s for _, s in rows])
    per_px, per_crop = np.polyfit(widths, secs, 1)
    print("\nrapidocr recogniser: CPU ms per line crop by width (48 px high, one thread)\n")
    print("| width px | ms | ms per 100 px |")
    print("|---|---|---|")
    for width, s in rows:
        print(f"| {width} | {s * 1000:.1f} | {s * 1e5 / width:.2f} |")
    print(f"\nfit: {per_crop * 1000:.2f} ms per crop + {per_px * 1e5:.2f} ms per 100 px of width")
    return {"widths": rows, "ms_per_crop": per_crop * 1000, "ms_per_100px": per_px * 1e5}


def _chars(doc: Document, page: int) -> str:
    return "".join(
        c for u in doc.units if u.page == page and u.kind != "furniture" for c in u.text
    ).replace(" ", "")


_FOLD = str.maketrans(
    "\u201c\u201d\u201e\u201f\u2018\u2019\u201a\u201b\u2022\u2027\u2219",
    "\"\"\"\"''''\u00b7\u00b7\u00b7",
)


def _fold(text: str) -> str:
    """Glyphs a scan cannot tell apart: full-width forms (NFKC), curly quotes, bullet dots."""
    import unicodedata

    return unicodedata.normalize("NFKC", text).translate(_FOLD)


def run_chinese(corpus: Path, n_pages: int, dpi: int, engine: str, tmp: Path) -> dict[str, Any]:
    from rapidfuzz.distance import LCSseq

    pdf = next((corpus / "books" / "debian-reference-zh-cn").glob("*.pdf"))
    import pymupdf

    with pymupdf.open(pdf) as d:
        total = d.page_count
    first = max(1, total // 2 - n_pages // 2)
    window = (first, first + n_pages - 1)
    parse(pdf, backend="pymupdf", config={"pages": (1, 1), "ocr": "off"})  # warm-up
    load_engine(engine)  # type: ignore[arg-type]
    text, text_secs, _ = _timed(pdf, {"pages": window, "ocr": "off"})
    scan = rasterize(pdf, tmp / "zh.pdf", ScanStyle(dpi=dpi), pages=window)
    doc, secs, records = _timed(scan, {"ocr": "auto", "ocr_engine": engine})
    found = gold = folded = bag = 0
    per_page: list[tuple[int, float, float, float, int, int]] = []
    all_want: Counter[str] = Counter()
    all_got: Counter[str] = Counter()
    for i in range(n_pages):
        want = _chars(text, first + i)
        got = _chars(doc, i + 1)
        all_want.update(want)
        all_got.update(got)
        hit = LCSseq.similarity(want, got)
        hit_folded = LCSseq.similarity(_fold(want), _fold(got))
        # Order aside: tables are read column by column by OCR and row by row
        # (cells interleaved) by the text layer, which the LCS counts as misses.
        hit_bag = sum((Counter(want) & Counter(got)).values())
        gold += len(want)
        found += hit
        folded += hit_folded
        bag += hit_bag
        if want:
            n = len(want)
            per_page.append((first + i, hit_bag / n, hit / n, hit_folded / n, n, len(got)))
    recall = found / gold if gold else 0.0
    recall_folded = folded / gold if gold else 0.0
    recall_bag = bag / gold if gold else 0.0
    # A paragraph that runs on over a page break is one unit on the page it
    # starts on, in the text layer's parse and the scan's alike, and the two
    # need not break at the same place (a running header OCR glued to the
    # first line): page by page, such text counts as missing on one page and
    # surplus on the other. The whole window as one multiset does not care.
    total = sum(all_want.values())
    recall_window = sum((all_want & all_got).values()) / total if total else 0.0
    print(f"\nChinese book, pages {window[0]}-{window[1]} scanned at {dpi} dpi ({engine})\n")
    print(
        "| page | character recall | in reading order (LCS) "
        "| in order, quotes, bullets and full-width forms folded | characters (text layer / OCR) |"
    )
    print("|---|---|---|---|---|")
    for page, rb, r, rf, n_want, n_got in per_page:
        print(f"| {page} | {rb:.3f} | {r:.3f} | {rf:.3f} | {n_want} / {n_got} |")
    print(
        f"| **all** ({gold} characters) | {recall_bag:.3f} | {recall:.3f} | {recall_folded:.3f} "
        f"| {gold} / {sum(all_got.values())} |"
    )
    print(f"\nCharacter recall of the window as one multiset: {recall_window:.3f}")
    print(f"\nCPU s/page: text layer {text_secs / n_pages:.2f}, OCR {secs / n_pages:.2f}")
    row = {"pages": n_pages, "ocr_pages": len(records), "seconds_per_page": secs / n_pages}
    print_stages({"chinese": [{**row, "stages": _stages(records)}]})
    return {
        "pages": window,
        "char_recall": recall_bag,
        "char_recall_window": recall_window,
        "char_recall_in_order": recall,
        "char_recall_folded": recall_folded,
        "ocr_seconds_per_page": secs / n_pages,
    }


def _unit_key(u: Any) -> tuple[Any, ...]:
    return (u.kind, u.text, u.section, tuple(p.page for p in u.provenance))


def run_auto_check(corpus: Path) -> dict[str, Any]:
    """Pages ``ocr="auto"`` OCRs in every PDF of the corpus (text PDFs: none expected),
    and, where it OCRs any, whether the units of the other pages stay as with ``ocr="off"``.

    Reads each page's text layer with the pymupdf backend and applies
    :func:`docparse.ocr.pages.needs_ocr`. A PDF with such pages is then
    parsed twice (``auto`` and ``off``, tables on): units on the text-layer
    pages must be the same (kind, text, section path, pages), so a page read
    by OCR must not change the structure of the pages around it.
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
    print("\n| PDF | OCR'd pages | units (off) | text-page units (auto) | differ |")
    print("|---|---|---|---|---|")
    compared: dict[str, Any] = {}
    for name in found:
        off = parse(corpus / name, backend="pymupdf", config={"ocr": "off"})
        auto = parse(corpus / name, backend="pymupdf", config={"ocr": "auto"})
        read = set(auto.ocr_pages)
        text_units = [u for u in auto.units if not read & {p.page for p in u.provenance}]
        want = Counter(_unit_key(u) for u in off.units)
        got = Counter(_unit_key(u) for u in text_units)
        differ = sum((want - got).values()) + sum((got - want).values())
        compared[name] = {
            "ocr_pages": sorted(read),
            "units_off": len(off.units),
            "text_units_auto": len(text_units),
            "differ": differ,
        }
        print(f"| {name} | {sorted(read)} | {len(off.units)} | {len(text_units)} | {differ} |")
    return {"pages": found, "units": compared}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--pages", type=int, default=2, help="pages per paper; 0 for all")
    ap.add_argument(
        "--variant-pages",
        type=int,
        help="pages per paper of the degraded variants (default --pages)",
    )
    ap.add_argument("--paper", action="append", help="only this research pair (repeatable)")
    ap.add_argument("--jobs", type=int, default=1, help="papers run in parallel processes")
    ap.add_argument("--memory-pages", type=int, default=0, help="peak RSS on a scan this long")
    ap.add_argument("--dpi", type=int, default=200)
    ap.add_argument("--variants", default="clean,skew,noise,jpeg")
    ap.add_argument("--engine", default="rapidocr", choices=("rapidocr", "tesseract"))
    ap.add_argument(
        "--ocr-dpi", type=int, default=0, help="resolution the engine reads at (0: its own)"
    )
    ap.add_argument("--chinese-pages", type=int, default=20, help="0 to leave the book out")
    ap.add_argument("--skip-research", action="store_true")
    ap.add_argument(
        "--auto-check", action="store_true", help="count pages auto mode OCRs in the corpus PDFs"
    )
    ap.add_argument(
        "--rec-cost",
        action="store_true",
        help="time the rapidocr recogniser per crop and per pixel of width",
    )
    ap.add_argument("-o", "--output", type=Path)
    args = ap.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    out: dict[str, Any] = {}
    if args.auto_check:
        out["auto_check"] = run_auto_check(args.corpus)
    if args.rec_cost:
        out["rec_cost"] = run_rec_cost()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if not args.skip_research:
            out["research"] = run_research(
                args.corpus,
                args.pages,
                args.dpi,
                variants,
                args.engine,
                tmp,
                variant_pages=args.variant_pages,
                papers=args.paper,
                jobs=args.jobs,
                ocr_dpi=args.ocr_dpi,
            )
        if args.chinese_pages:
            out["chinese"] = run_chinese(
                args.corpus, args.chinese_pages, args.dpi, args.engine, tmp
            )
        if args.memory_pages:
            out["memory"] = run_memory(args.memory_pages, args.dpi, tmp)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["peak_rss_mb"] = peak
    print(f"peak resident memory {peak:.0f} MB")
    if args.output:
        args.output.write_text(json.dumps(out, indent=1, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()
