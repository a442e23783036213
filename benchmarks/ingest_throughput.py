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
* ``--stages`` (alone): every task a default ``docparse ingest CORPUS`` runs, one after
  another in this process, in CPU time: the serial part (planning, warm-up), each stage
  (PDF and twin parsing, the fidelity projection, writing), the slowest files, and the
  wall time two workers would take on an idle machine (the serial part plus the tasks
  handed out in ingest's own order to whichever of two workers is free first).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from docparse.ingest import Limits, ManifestRow, Task, ingest

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


class _StageClock:
    """CPU seconds spent inside wrapped callables, by stage name."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.twin = False

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kw: Any) -> Any:
            stage = "parse twin (fidelity)" if name == "parse" and self.twin else name
            t0 = time.process_time()
            try:
                return fn(*args, **kw)
            finally:
                dt = time.process_time() - t0
                self.seconds[stage] = self.seconds.get(stage, 0.0) + dt

        return timed

    def fidelity(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kw: Any) -> Any:
            self.twin = True
            try:
                return self.wrap("fidelity (all)", fn)(*args, **kw)
            finally:
                self.twin = False

        return timed


def idle_wall(costs: list[float], workers: int = 2) -> float:
    """Makespan of ``costs`` handed out in order to whichever worker is free first."""
    free = [0.0] * workers
    for c in costs:
        free[free.index(min(free))] += c
    return max(free)


def stages(corpus: Path, top: int = 8) -> None:
    """Per-stage CPU of a default ``docparse ingest corpus`` run, one task after another."""
    from unittest import mock

    import align
    import docparse.api
    from docparse import ingest_task
    from docparse.ingest import _warm_up, ingest_order, plan
    from docparse.registry import DEFAULT_PDF_BACKEND

    work = Path(tempfile.mkdtemp(prefix="docparse-ingest-stages-"))
    try:
        t0 = time.process_time()
        tasks, _ = plan(
            corpus,
            work,
            backends=(DEFAULT_PDF_BACKEND,),
            twins=True,
            output_format="jsonl",
            config=None,
        )
        tasks = ingest_order(tasks)
        t_plan = time.process_time() - t0
        t0 = time.process_time()
        _warm_up(tasks)
        t_warm = time.process_time() - t0
        clock = _StageClock()
        costs: list[tuple[float, Task]] = []
        with (
            mock.patch.object(docparse.api, "parse", clock.wrap("parse", docparse.api.parse)),
            mock.patch.object(align, "project", clock.wrap("project", align.project)),
            mock.patch.object(ingest_task, "_fidelity", clock.fidelity(ingest_task._fidelity)),
        ):
            for task in tasks:
                t0 = time.process_time()
                ingest_task.process_task(task)
                costs.append((time.process_time() - t0, task))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    total = sum(c for c, _ in costs)
    fid = clock.seconds.get("fidelity (all)", 0.0)
    parts = {
        "parse documents": clock.seconds.get("parse", 0.0),
        "parse twin (fidelity)": clock.seconds.get("parse twin (fidelity)", 0.0),
        "align.project": clock.seconds.get("project", 0.0),
        "fidelity, rest": fid
        - clock.seconds.get("parse twin (fidelity)", 0.0)
        - clock.seconds.get("project", 0.0),
    }
    parts["write outputs, rest"] = total - sum(parts.values())
    serial = t_plan + t_warm
    print(f"tasks: {len(tasks)}; serial: plan {t_plan:.2f} s, warm-up {t_warm:.2f} s")
    print("| stage | CPU s |")
    print("|---|---|")
    for name, sec in parts.items():
        print(f"| {name} | {sec:.1f} |")
    print(f"| **all tasks** | **{total:.1f}** |")
    wall = serial + idle_wall([c for c, _ in costs])
    print(
        f"estimated idle wall, 2 workers: {wall:.1f} s (serial {serial:.1f} s + tasks in "
        f"ingest's order; total/2 = {total / 2:.1f} s, slowest file {max(costs)[0]:.1f} s)"
    )
    for c, t in sorted(costs, key=lambda ct: -ct[0])[:top]:
        print(f"  {c:6.2f} s  {t.rel}")


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
    ap.add_argument(
        "--stages",
        action="store_true",
        help="only the per-stage CPU of a default ingest of --corpus, in one process",
    )
    args = ap.parse_args()
    if args.stages:
        stages(args.corpus)
        return
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
