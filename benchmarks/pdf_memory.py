"""Peak memory of each PDF backend on the longest book against its first 20 pages.

Every run is a fresh subprocess (so peaks do not carry over) that imports
docparse, warms the backend up on one page (imports, spaCy model, tokenizer),
records its resident set size, resets the peak (``/proc/self/clear_refs``),
parses the book (all pages, or the first ``--head`` pages via the ``pages``
option), and reports the peak RSS (``VmHWM``, the parse's own: without the
reset it was the imports' and warm-up's whenever those peaked higher) and the
peak Python heap of the parse (tracemalloc). The RSS counts what C libraries
allocate (PDFium's, MuPDF's pages and fonts), which tracemalloc does not see;
pypdfium2 also holds the file's bytes (files up to 256 MB are parsed from
memory), in both runs alike.

Target: peak memory on the longest book within 1.5x of that on
its first 20 pages, because backends process a page at a time.

    python -m benchmarks.pdf_memory [--head 20] [--backend B ...] [BOOK.pdf]

Without a path, the PDF with the most pages under ../shared/corpus/books is used.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOOKS = ROOT.parent / "shared" / "corpus" / "books"
TARGET = 1.5

_CHILD = textwrap.dedent(
    """
    import json, sys, time, tracemalloc
    import docparse

    def status(key):
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
        return 0

    def reset_peak():
        # Linux: "5" resets VmHWM to the current RSS, so the peak read after
        # the parse is the parse's own, not the imports' or the warm-up's.
        try:
            with open("/proc/self/clear_refs", "w") as fh:
                fh.write("5")
            return True
        except OSError:
            return False

    path, backend, head = sys.argv[1], sys.argv[2], int(sys.argv[3])
    docparse.parse(path, backend=backend, config={"pages": [1, 1]})  # warm-up
    before = status("VmRSS")
    reset = reset_peak()
    config = {"pages": [1, head]} if head else None
    tracemalloc.start()
    start = time.perf_counter()
    doc = docparse.parse(path, backend=backend, config=config)
    seconds = time.perf_counter() - start
    _, heap_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    pages = head or doc.n_pages
    print(json.dumps({"rss_before": before, "rss_peak": status("VmHWM"), "peak_reset": reset,
                      "heap_peak": heap_peak, "pages": pages, "units": len(doc.units),
                      "seconds": seconds}))
    """
)


#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = [
    "{corpus}/research/arxiv-2510.22211v1/2510.22211v1.pdf",
    "--head",
    "3",
    "--backend",
    "pymupdf",
    "--backend",
    "pdfplumber",
]


def longest_book() -> Path:
    import pymupdf

    best: tuple[int, Path] | None = None
    for pdf in sorted(BOOKS.rglob("*.pdf")):
        with pymupdf.open(pdf) as doc:
            if best is None or doc.page_count > best[0]:
                best = (doc.page_count, pdf)
    if best is None:
        raise SystemExit(f"no PDF under {BOOKS}")
    return best[1]


def measure(path: Path, backend: str, head: int) -> dict[str, float]:
    env = dict(os.environ, DO_NOT_TRACK="1")
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path), backend, str(head)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr else "failed")
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def mib(n: float) -> str:
    return f"{n / 2**20:.0f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("book", nargs="?", type=Path)
    ap.add_argument("--head", type=int, default=20, help="pages of the short run")
    ap.add_argument(
        "--backend", action="append", choices=["pymupdf", "pdfplumber", "pypdfium2", "unstructured"]
    )
    args = ap.parse_args(argv)
    from docparse.registry import installed_pdf_backends

    book = args.book or longest_book()
    backends = args.backend or list(installed_pdf_backends())
    rows = []
    for backend in backends:
        short = measure(book, backend, args.head)
        full = measure(book, backend, 0)
        rows.append((backend, short, full))
        print(f"  {backend}: first {args.head} {short}  all {full}", file=sys.stderr, flush=True)

    print(f"\nPeak memory on {book.name}: first {args.head} pages vs all pages\n")
    if not all(run.get("peak_reset", False) for _, *runs in rows for run in runs):
        print("(VmHWM could not be reset: a peak may be the imports' or the warm-up's)\n")
    print(
        "| backend | pages | peak RSS MiB (head / all) | ratio | parse heap peak MiB "
        "(head / all) | heap ratio | seconds (head / all) | target | met |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for backend, short, full in rows:
        ratio = full["rss_peak"] / short["rss_peak"]
        heap_ratio = full["heap_peak"] / max(short["heap_peak"], 1)
        print(
            f"| {backend} | {short['pages']:.0f} / {full['pages']:.0f} | "
            f"{mib(short['rss_peak'])} / {mib(full['rss_peak'])} | {ratio:.2f}x | "
            f"{mib(short['heap_peak'])} / {mib(full['heap_peak'])} | {heap_ratio:.2f}x | "
            f"{short['seconds']:.1f} / {full['seconds']:.1f} | <= {TARGET}x | "
            f"{'yes' if ratio <= TARGET else 'no'} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
