"""Twin vs PDF fidelity on the research pairs, for every PDF backend.

    python -m benchmarks.fidelity_research [--corpus ../shared/corpus]
        [--backend all|pymupdf|pdfplumber|unstructured] [-o out.json] [--html report.html]
        [--books]

For each ``research/<id>/`` folder the ``.tex`` twin is parsed with
``docparse.parse`` and projected onto each backend's parse of the ``.pdf``
(:func:`align.fidelity.fidelity`). Prints one row per (paper, backend) and the
mean per backend; the acceptance figure is the mean unit recall at 0.9 with
pymupdf (at least 0.9). ``--books`` adds the books' ``.txt`` twins against
their PDFs (100-300 pages) and reports projection time, which should stay
in seconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from align.fidelity import fidelity
from align.project import project
from docparse.api import parse
from docparse.errors import DocparseError
from docparse.registry import PDF_BACKENDS

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
COLUMNS = ("unit_recall", "word_recall", "ned", "kendall_tau", "spurious")


#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--corpus", "{corpus}", "--backend", "pymupdf", "--paper", "acmart-sample-sigconf"]


def pairs(corpus: Path) -> list[tuple[str, Path, Path]]:
    out = []
    for d in sorted((corpus / "research").iterdir()):
        texs = sorted(d.glob("*.tex"))
        pdfs = sorted(d.glob("*.pdf"))
        if texs and pdfs:
            # The main .tex is the one whose stem matches the PDF, else the first.
            pdf = pdfs[0]
            tex = next((t for t in texs if t.stem == pdf.stem), texs[0])
            out.append((d.name, tex, pdf))
    return out


def _f(v: Any) -> str:
    return "    -" if v is None else f"{v:5.3f}"


def run_research(
    corpus: Path, backends: tuple[str, ...], only: list[str] | None = None
) -> dict[str, Any]:
    results: dict[str, Any] = {}
    print(
        f"{'paper':26} {'backend':13} {'units':>5} {'UR@0.9':>6} {'WR':>5} {'NED':>5} "
        f"{'tau':>5} {'spur':>5} {'tabs':>4} {'T-rec':>5} {'cF1':>5} {'adjF1':>5} {'TEDS':>5} "
        f"{'sec':>6}"
    )
    for name, tex, pdf in pairs(corpus):
        if only and name not in only:
            continue
        try:
            twin = parse(tex)
        except DocparseError as exc:
            print(f"{name:26} twin failed: {exc}")
            continue
        summary = fidelity(twin, str(pdf), backends).summary(lost_units=10)
        results[name] = summary
        for backend, s in summary["backends"].items():
            if "error" in s:
                print(f"{name:26} {backend:13} failed: {s['error'][:60]}")
                continue
            t = s["tables"]
            print(
                f"{name[:26]:26} {backend:13} {s['twin_units']:5d} {_f(s['unit_recall']):>6} "
                f"{_f(s['word_recall'])} {_f(s['ned'])} {_f(s['kendall_tau'])} "
                f"{_f(s['spurious'])} {t['count']:4d} {_f(t['recall'])} {_f(t['cell_f1'])} "
                f"{_f(t.get('adjacency_f1'))} "
                f"{_f(t['teds'])} {s['seconds']:6.1f}"
            )
        sys.stdout.flush()
    print("\nmean over papers")
    for backend in backends:
        rows = [
            r["backends"][backend]
            for r in results.values()
            if "error" not in r["backends"].get(backend, {"error": 1})
        ]
        if not rows:
            continue
        means = {c: statistics.fmean(x[c] for x in rows if x[c] is not None) for c in COLUMNS}
        secs = sum(x["seconds"] for x in rows)
        print(
            f"  {backend:13} papers={len(rows)} "
            + " ".join(f"{c}={means[c]:.3f}" for c in COLUMNS)
            + f" parse_seconds={secs:.1f}"
        )
    return results


def run_books(corpus: Path) -> None:
    print("\nbooks: .txt twin vs pymupdf parse")
    for d in sorted((corpus / "books").iterdir()):
        txt = next(iter(sorted(d.glob("*.txt"))), None)
        pdf = next(iter(sorted(d.glob("*.pdf"))), None)
        if not txt or not pdf:
            continue
        twin = parse(txt)
        parsed = parse(pdf, backend="pymupdf")
        start = time.perf_counter()
        proj = project(twin, parsed)
        secs = time.perf_counter() - start
        print(
            f"  {d.name:26} pages={parsed.n_pages} twin_words={twin.n_words} "
            f"UR@0.9={proj.unit_recall(0.9):.3f} WR={proj.word_recall():.3f} "
            f"NED={proj.ned():.3f} projection_seconds={secs:.2f}"
        )
        sys.stdout.flush()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--backend", default="all", choices=("all", *PDF_BACKENDS))
    ap.add_argument("-o", "--output", type=Path)
    ap.add_argument("--html", type=Path, help="HTML report of the arXiv paper's run")
    ap.add_argument("--books", action="store_true")
    ap.add_argument("--paper", action="append", help="only this research folder (repeatable)")
    args = ap.parse_args(argv)
    backends = PDF_BACKENDS if args.backend == "all" else (args.backend,)
    results = run_research(args.corpus, tuple(backends), args.paper)
    if args.output:
        args.output.write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    if args.html and results:
        from align.report import write_report

        name = next((n for n in results if n.startswith("arxiv")), next(iter(results)))
        write_report(args.html, fidelity=results[name], title=f"docparse fidelity: {name}")
    if args.books:
        run_books(args.corpus)


if __name__ == "__main__":
    main()
