"""Ingest benchmark: 1 vs 2 workers, peak worker memory, Dask vs local manifest.

    python -m benchmarks.ingest_throughput [--corpus ../shared/corpus] [--full]

* throughput: the same PDFs (research, s2orc, financial, csv_tables, qa_evidence;
  PDFs of at most --max-pages pages; every PDF with ``--full``) ingested with
  1 and then 2 worker processes;
  target: 2 workers at least 1.7x one worker (files/s);
* peak memory: the corpus PDF with the most pages, in a fresh worker (``peak_rss_mb`` of its row);
* Dask: the same files on a 2-worker LocalCluster; statuses and unit counts
  must equal the local run's.
* ``--full`` also ingests the whole corpus folder with 2 workers and checks that
  every file has a manifest row.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

from docparse.ingest import Limits, ManifestRow, ingest

ROOT = Path(__file__).resolve().parent.parent


#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--corpus", "{corpus}", "--max-pages", "4", "--no-largest"]


def _pdfs(corpus: Path, full: bool, max_pages: int) -> list[Path]:
    import pymupdf

    pdfs = sorted(corpus.rglob("*.pdf"))
    if not full:
        pdfs = [p for p in pdfs if "books" not in p.parts]
        with_pages = []
        for p in pdfs:
            with pymupdf.open(p) as d:
                if d.page_count <= max_pages:
                    with_pages.append(p)
        pdfs = with_pages
    return pdfs


def _stage(files: list[Path], dest: Path) -> Path:
    for i, f in enumerate(files):
        target = dest / f"{i:03d}" / f.name
        target.parent.mkdir(parents=True)
        shutil.copy(f, target)
    return dest


def _timed(src: Path, out: Path, **kw: object) -> tuple[float, list[ManifestRow]]:
    t0 = time.perf_counter()
    rows = list(ingest(src, out, twins="off", progress=False, **kw))  # type: ignore[arg-type]
    return time.perf_counter() - t0, rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument(
        "--no-largest", action="store_true", help="skip the largest PDF's peak-memory run"
    )
    ap.add_argument(
        "--max-pages",
        type=int,
        default=40,
        help="without --full: only PDFs with at most this many pages",
    )
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="docparse-ingest-bench-"))
    try:
        pdfs = _pdfs(args.corpus, args.full, args.max_pages)
        src = _stage(pdfs, work / "src")
        pages = 0
        t1, rows1 = _timed(src, work / "w1", workers=1)
        pages = sum(r.pages or 0 for r in rows1)
        t2, rows2 = _timed(src, work / "w2", workers=2)
        print(f"files: {len(pdfs)}, pages: {pages}")
        print("| workers | seconds | files/s | pages/s |")
        print("|---|---|---|---|")
        for n, t in ((1, t1), (2, t2)):
            print(f"| {n} | {t:.1f} | {len(pdfs) / t:.2f} | {pages / t:.1f} |")
        print(f"speed-up 2 vs 1 workers: {t1 / t2:.2f}x (target >= 1.7x)")

        if not args.no_largest:
            import pymupdf

            def pages_of(p: Path) -> int:
                with pymupdf.open(p) as d:
                    return int(d.page_count)

            largest = max(args.corpus.rglob("*.pdf"), key=pages_of)
            lsrc = _stage([largest], work / "largest")
            _, lrow = _timed(lsrc, work / "wl", workers=1, limits=Limits(timeout=3600))
            print(
                f"largest PDF {largest.name}: {lrow[0].pages} pages, peak worker RSS "
                f"{lrow[0].peak_rss_mb} MB, {lrow[0].seconds:.1f} s"
            )

        if not args.no_dask:
            _, rowsd = _timed(src, work / "wd", workers=2, engine="dask")
            local = {r.key: (r.status, r.units) for r in rows2}
            dask = {r.key: (r.status, r.units) for r in rowsd}
            same = local == dask
            print(f"dask manifest equals local (statuses and unit counts): {same}")
            if not same:
                for k in sorted(set(local) | set(dask)):
                    if local.get(k) != dask.get(k):
                        print(f"  {k}: local={local.get(k)} dask={dask.get(k)}")

        if args.full:
            t, rows = _timed(args.corpus, work / "corpus", workers=2)
            files = [
                p
                for p in args.corpus.rglob("*")
                if p.is_file() and not any(part.startswith(".") for part in p.parts)
            ]
            status = Counter(r.status for r in rows)
            errors = Counter(r.error_class for r in rows if r.status == "error")
            print(
                f"whole corpus: {len(files)} files, {len(rows)} manifest rows, "
                f"{dict(status)}, errors by class {dict(errors)}, {t:.0f} s"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
