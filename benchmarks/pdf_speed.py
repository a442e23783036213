"""Speed of each PDF backend against the library call it is built on, on the same pages.

For every PDF, its first ``--max-pages`` pages are copied into a temporary
PDF (so that every contender reads exactly the same pages, and unstructured's
``partition_pdf``, which has no page-range option, can be given them). Then,
interleaved, each pair is timed on that file:

=============  ==========================================  ===================================
backend        docparse call                               baseline (the library alone)
=============  ==========================================  ===================================
pymupdf        ``parse(backend="pymupdf", tables=False)``  ``page.get_text("dict")`` per page
pdfplumber     ``parse(backend="pdfplumber", tables=...)``  ``page.extract_words()`` per page
unstructured   ``parse(backend="unstructured")`` (fast)    ``partition_pdf(strategy="fast")``
pypdfium2      ``parse(backend="pypdfium2", tables=...)``    ``get_textpage().get_text_range()``
=============  ==========================================  ===================================

The docparse side includes everything (preflight, assembly, build, tokens);
the baseline only opens the file and runs the library. Imports and model
loading are warmed up before timing, and unstructured's text-keyed memo
caches are emptied before every run. Each timing is the minimum of
``--repeat`` runs, baseline and backend alternating, of process CPU time by
default (``--clock wall`` for elapsed time): the machine is shared, and CPU
time and the minimum are the least disturbed by other processes.
The ratio is the sum of backend times over the sum of baseline times.

Targets: pymupdf <= 3x, pdfplumber <= 1.5x, unstructured <= 1.2x, pypdfium2 <= 3x.

    python -m benchmarks.pdf_speed [--max-pages 20] [--repeat 2] [--backend B ...]
        [--ocr auto|off] [PDF ...]
    python -m benchmarks.pdf_speed --profile [--max-pages 0] [--layout-model]
        [--update-doc LABEL] [--corpus DIR] [--side-cache FILE]

With the default ``--ocr auto`` a page without a text layer (a scanned cover)
is OCR'd on the docparse side, seconds a page the baseline never spends;
``--ocr off`` compares text extraction with text extraction (OCR cost is
measured by ``benchmarks.ocr_scans``).

Without PDFs, every PDF under ../shared/corpus (or ``--corpus``) is measured. Prints a
markdown table (and per-document rows with ``--per-doc``).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("DO_NOT_TRACK", "1")

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
#: The page ``--profile --update-doc`` writes its table into.
DOC = ROOT / "docs" / "benchmarks" / "pdf-speed.md"
TARGETS = {"pymupdf": 3.0, "pdfplumber": 1.5, "unstructured": 1.2, "pypdfium2": 3.0}
BASELINES = {
    "pymupdf": 'pymupdf page.get_text("dict")',
    "pdfplumber": "pdfplumber page.extract_words()",
    "unstructured": 'partition_pdf(strategy="fast")',
    "pypdfium2": "pypdfium2 get_textpage().get_text_range()",
}


#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = [
    "{corpus}/research/arxiv-2510.22211v1/2510.22211v1.pdf",
    "--max-pages",
    "3",
    "--repeat",
    "1",
]


def baseline_pymupdf(path: Path) -> int:
    import pymupdf

    n = 0
    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text("dict")
            n += 1
    return n


def baseline_pdfplumber(path: Path) -> int:
    import pdfplumber

    n = 0
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            page.extract_words()
            page.close()  # release the page's cached objects, as the backend does
            n += 1
    return n


def baseline_unstructured(path: Path) -> int:
    from unstructured.partition.pdf import partition_pdf

    partition_pdf(filename=str(path), strategy="fast", languages=["eng"])
    return 0


def baseline_pypdfium2(path: Path) -> int:
    import pypdfium2

    n = 0
    pdf = pypdfium2.PdfDocument(str(path))
    try:
        for page in pdf:
            textpage = page.get_textpage()
            textpage.get_text_range()
            textpage.close()
            page.close()
            n += 1
    finally:
        pdf.close()
    return n


def backend_call(name: str, tables: bool, ocr: str = "auto") -> Callable[[Path], int]:
    import docparse

    config: dict[str, Any] = {} if name == "unstructured" else {"tables": tables, "ocr": ocr}

    def run(path: Path) -> int:
        doc = docparse.parse(path, backend=name, config=config or None)
        return doc.n_pages or 0

    return run


BASELINE_CALLS: dict[str, Callable[[Path], int]] = {
    "pymupdf": baseline_pymupdf,
    "pdfplumber": baseline_pdfplumber,
    "unstructured": baseline_unstructured,
    "pypdfium2": baseline_pypdfium2,
}


@dataclass
class Result:
    backend: str
    pages: int = 0
    docs: int = 0
    base_s: float = 0.0
    ours_s: float = 0.0
    per_doc: list[tuple[str, int, float, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return self.ours_s / self.base_s if self.base_s else float("nan")


def clear_unstructured_caches() -> None:
    """Empty unstructured's memo caches (spaCy docs, tokens, POS tags keyed on text).

    Otherwise whichever side runs second finds the first side's element texts
    already classified and looks faster than it is.
    """
    for name, module in list(sys.modules.items()):
        if not name.startswith("unstructured") or module is None:
            continue
        for attr in list(vars(module).values()):
            clear = getattr(attr, "cache_clear", None)
            if callable(clear):
                clear()


#: The clock of the timings: process CPU time by default (on a shared machine the
#: wall clock mostly measures the other processes); ``--clock wall`` for elapsed time.
CLOCK: Callable[[], float] = time.process_time


def timed(fn: Callable[[Path], int], path: Path) -> float:
    clear_unstructured_caches()
    gc.collect()
    start = CLOCK()
    fn(path)
    return CLOCK() - start


def best_pair(
    base: Callable[[Path], int], ours: Callable[[Path], int], path: Path, repeat: int
) -> tuple[float, float]:
    """Minimum times of baseline and backend, run alternately (order flipped each round)."""
    b_best = o_best = float("inf")
    for i in range(repeat):
        if i % 2 == 0:
            b_best = min(b_best, timed(base, path))
            o_best = min(o_best, timed(ours, path))
        else:
            o_best = min(o_best, timed(ours, path))
            b_best = min(b_best, timed(base, path))
    return b_best, o_best


def first_pages(src: Path, n: int, out_dir: Path) -> tuple[Path, int]:
    """A copy of ``src`` holding its first ``n`` pages (``src`` itself when it is that short)."""
    import pymupdf

    with pymupdf.open(src) as doc:
        if doc.page_count <= n:
            return src, doc.page_count
        part = pymupdf.open()
        part.insert_pdf(doc, from_page=0, to_page=n - 1)
        out = out_dir / f"{src.stem}-first{n}.pdf"
        part.save(out, garbage=3, deflate=True)
        part.close()
        return out, n


def corpus_pdfs() -> list[Path]:
    return sorted(CORPUS.rglob("*.pdf"))


def run_profile(pdfs: list[Path], args: argparse.Namespace, backends: list[str]) -> int:
    """``--profile``: per-stage times beside the library calls (``--max-pages 0``: all pages)."""
    from benchmarks import speed_profile

    speed_profile.CLOCK = CLOCK
    prof = speed_profile.Profile()
    cache = speed_profile.SideCache(args.side_cache)
    with tempfile.TemporaryDirectory() as tmp:
        warm, _ = first_pages(pdfs[0], 1, Path(tmp))
        for b in backends:  # imports and tokenizer: not part of the timing
            backend_call(b, tables=True)(warm)
        for pdf in pdfs:
            if args.max_pages > 0:
                part, n = first_pages(pdf, args.max_pages, Path(tmp))
            else:
                import pymupdf

                with pymupdf.open(pdf) as d:
                    part, n = pdf, d.page_count
            name = str(pdf.relative_to(CORPUS) if pdf.is_relative_to(CORPUS) else pdf)
            speed_profile.profile_doc(
                part,
                name,
                n,
                backends,
                prof,
                args.layout_model,
                not args.backends_only,
                markdown=not args.no_markdown,
                cache=cache,
                find_tables=not args.no_find_tables,
            )
    text = speed_profile.report(prof, backends, len(pdfs))
    print(text)
    if args.update_doc:
        speed_profile.update_doc(DOC, args.update_doc, text, " ".join(sys.argv[1:]))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pdfs", nargs="*", type=Path)
    ap.add_argument("--max-pages", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--backend", action="append", choices=sorted(TARGETS), default=None)
    ap.add_argument(
        "--pdfplumber-tables",
        action="store_true",
        help="Time the pdfplumber backend with table extraction on (off by default, like pymupdf).",
    )
    ap.add_argument(
        "--pypdfium2-tables",
        action="store_true",
        help="Time the pypdfium2 backend with table finding on (off by default).",
    )
    ap.add_argument("--per-doc", action="store_true", help="Also print one row per document.")
    ap.add_argument(
        "--ocr",
        choices=["auto", "off"],
        default="auto",
        help="OCR mode of the docparse side (auto: pages without a text layer are OCR'd, which "
        "the baseline never does; off: text extraction against text extraction).",
    )
    ap.add_argument(
        "--profile",
        action="store_true",
        help="Per-stage time (text, drawings, candidates, grids, assembly) of the pymupdf and "
        "pdfplumber backends with defaults (tables on), beside raw get_text+get_drawings, "
        "find_tables(use_layout=False), pymupdf4llm.to_markdown and extract_words().",
    )
    ap.add_argument(
        "--backends-only",
        action="store_true",
        help="With --profile: time the backends only, not the library calls beside them.",
    )
    ap.add_argument(
        "--no-markdown",
        action="store_true",
        help="With --profile: leave out pymupdf4llm.to_markdown, by far the slowest call beside.",
    )
    ap.add_argument(
        "--no-find-tables",
        action="store_true",
        help="With --profile: leave out find_tables(use_layout=False) on every page.",
    )
    ap.add_argument(
        "--side-cache",
        type=Path,
        default=None,
        metavar="FILE",
        help="With --profile: keep the CPU time of each library call beside the backends "
        "(per document, pages and call) in FILE and reuse it: those calls run no docparse "
        "code, and over every corpus page they cost far more than the backends. Written after "
        "each document, so an interrupted run resumes.",
    )
    ap.add_argument(
        "--layout-model",
        action="store_true",
        help="With --profile: also time the pymupdf backend with table_layout_model=True.",
    )
    ap.add_argument(
        "--clock",
        choices=["cpu", "wall"],
        default="cpu",
        help="cpu: process CPU time (default; robust on a shared machine); wall: elapsed time.",
    )
    ap.add_argument(
        "--corpus",
        type=Path,
        default=None,
        help="Folder whose PDFs are measured when none are named (default: ../shared/corpus).",
    )
    ap.add_argument(
        "--update-doc",
        metavar="LABEL",
        default=None,
        help="With --profile: also write the printed tables into docs/benchmarks/pdf-speed.md, "
        "between the '<!-- pdf_speed LABEL -->' markers (added at the end when missing).",
    )
    args = ap.parse_args(argv)
    global CLOCK, CORPUS
    if args.corpus is not None:
        CORPUS = args.corpus.resolve()
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter

    from docparse.registry import installed_pdf_backends

    backends = args.backend or [b for b in TARGETS if b in installed_pdf_backends()]
    pdfs = args.pdfs or corpus_pdfs()
    if not pdfs:
        print("no PDFs (pass paths, or put the shared corpus beside the project)", file=sys.stderr)
        return 2
    if args.profile:
        return run_profile(pdfs, args, [b for b in backends if b != "unstructured"])
    results = {b: Result(b) for b in backends}
    ours = {
        b: backend_call(
            b,
            tables=(b == "pdfplumber" and args.pdfplumber_tables)
            or (b == "pypdfium2" and args.pypdfium2_tables),
            ocr=args.ocr,
        )
        for b in backends
    }
    with tempfile.TemporaryDirectory() as tmp:
        warm, _ = first_pages(pdfs[0], 1, Path(tmp))
        from docparse.text import count_tokens

        count_tokens("warm up the cl100k encoding")  # in case the warm-up page has no text
        for b in backends:  # imports, spaCy model, tokenizer: not part of the timing
            BASELINE_CALLS[b](warm)
            ours[b](warm)
        for pdf in pdfs:
            part, n = first_pages(pdf, args.max_pages, Path(tmp))
            for b in backends:
                r = results[b]
                try:
                    base, mine = best_pair(BASELINE_CALLS[b], ours[b], part, args.repeat)
                except Exception as exc:  # noqa: BLE001 - a benchmark reports failures, goes on
                    r.errors.append(f"{pdf.name}: {type(exc).__name__}: {exc}")
                    continue
                r.pages += n
                r.docs += 1
                r.base_s += base
                r.ours_s += mine
                r.per_doc.append(
                    (
                        str(pdf.relative_to(CORPUS) if pdf.is_relative_to(CORPUS) else pdf),
                        n,
                        base,
                        mine,
                    )
                )
                print(
                    f"  {b:12s} {n:3d}p base {base:7.3f}s ours {mine:7.3f}s "
                    f"x{mine / base if base else float('nan'):5.2f}  {pdf.name}",
                    file=sys.stderr,
                    flush=True,
                )

    print(
        f"\nPDF backend speed, first {args.max_pages} pages of {len(pdfs)} PDFs, "
        f"best of {args.repeat}, {args.clock} time, OCR {args.ocr}\n"
    )
    print(
        "| backend | baseline | docs | pages | baseline s/page | backend s/page "
        "| ratio | target | met |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for b in backends:
        r = results[b]
        pages = max(r.pages, 1)
        met = "yes" if r.ratio <= TARGETS[b] else "no"
        print(
            f"| {b} | {BASELINES[b]} | {r.docs} | {r.pages} | {r.base_s / pages:.4f} | "
            f"{r.ours_s / pages:.4f} | {r.ratio:.2f}x | <= {TARGETS[b]}x | {met} |"
        )
    for b in backends:
        for err in results[b].errors:
            print(f"error ({b}): {err}")
    if args.per_doc:
        print("\n| backend | document | pages | baseline s | backend s | ratio |")
        print("|---|---|---|---|---|---|")
        for b in backends:
            for name, n, base, mine in results[b].per_doc:
                print(f"| {b} | {name} | {n} | {base:.3f} | {mine:.3f} | {mine / base:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
