"""Acceptance figures of evidence location on the shared corpus.

    python -m benchmarks.evidence_figures [--corpus ../shared/corpus] [--json out.json]

Prints, for each dataset, how much gold evidence is located (coverage >= 0.9)
in the parse of its document and how often on the annotated page:

* FinanceBench ``evidence_text`` in the pymupdf parse (page = evidence_page_num + 1);
* pdfQA 2510.22211v1 ``source_text`` in the ``.tex`` twin parse and the pymupdf parse;
* UDA QASPER ``raw_evidence`` (papers whose PDF is in the corpus) in the pymupdf
  parse, and ``FLOAT SELECTED`` evidence landing on a table or caption unit;
* ClimRetrieve ``Relevant`` text sentences for CT REIT and CostCo, with page.

With ``--cache DIR`` parses are kept as JSON (keyed by backend and file
hash, not by code version) so reruns only re-locate; without it every
document is parsed afresh with ``docparse.parse``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from align.evidence import QuestionReport, evidence_report, find_document
from align.locate import Locator
from align.readers import (
    Evidence,
    QARecord,
    read_climretrieve,
    read_financebench,
    read_pdfqa,
    read_qasper,
)
from docparse.api import parse
from docparse.builder import file_hash
from docparse.model import Document

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = Path(os.environ.get("DOCPARSE_CORPUS", ROOT.parent / "shared" / "corpus"))


#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--corpus", "{corpus}", "--only", "pdfqa"]


def cached_parser(backend: str, cache: Path | None) -> Callable[[Path], Document]:
    """``docparse.parse`` with ``backend``, each file once per run (kept in ``cache`` if given)."""
    seen: dict[Path, Document] = {}

    def run(path: Path) -> Document:
        if path in seen:
            return seen[path]
        seen[path] = doc = parse_once(path)
        return doc

    def parse_once(path: Path) -> Document:
        key = None
        if cache is not None:
            key = cache / f"{backend}-{file_hash(path)}.json"
            if key.is_file():
                return Document.from_json(key.read_text(encoding="utf-8"))
        t = time.perf_counter()
        if backend in ("tex", "htm", "jats", "s2orc", "txt", "csv"):
            doc = parse(path, format=backend)  # type: ignore[arg-type]
        else:
            doc = parse(path, backend=backend)
        print(f"  parsed {path.name} with {backend} in {time.perf_counter() - t:.1f} s")
        if key is not None:
            key.parent.mkdir(parents=True, exist_ok=True)
            key.write_text(doc.to_json(), encoding="utf-8")
        return doc

    return run


def rate(n: int, d: int) -> str:
    return f"{n}/{d} = {100 * n / d:.1f}%" if d else "n/a"


def flat(reports: list[QuestionReport]) -> list[Any]:
    return [r for rep in reports for r in rep.results]


def financebench(corpus: Path, parser: Callable[[Path], Document]) -> dict[str, Any]:
    records = read_financebench(corpus / "qa_evidence/financebench/financebench_open_source.jsonl")
    have = [r for r in records if find_document(corpus / "financial", r.doc) is not None]
    reports = evidence_report(have, corpus / "financial", "pymupdf", parser=parser)
    results = flat(reports)
    located = sum(r.match.found for r in results)
    on_page = sum(bool(r.page_ok) for r in results)
    blind = flat(
        evidence_report(have, corpus / "financial", "pymupdf", parser=parser, page_hint=False)
    )
    for r in results:
        if not r.match.found or not r.page_ok:
            print(
                f"    miss: {r.match.status} cov={r.match.coverage:.3f} gold page {r.evidence.page}"
                f" found {r.match.page} {r.match.pages[:6]} :: {r.evidence.text[:70]!r}"
            )
    return {
        "evidence": len(results),
        "located": located,
        "on_page": on_page,
        "located_rate": located / len(results),
        "page_rate": on_page / len(results),
        "on_page_without_page_hint": sum(bool(r.page_ok) for r in blind),
    }


def pdfqa(corpus: Path, cache: Path | None) -> dict[str, Any]:
    """Every ``qa_evidence/pdfqa-syn-<id>`` QA file against ``research/*<id>/`` (.tex and .pdf)."""
    out: dict[str, Any] = {"evidence": 0, "tex": {"located": 0}, "pymupdf": {"located": 0}}
    for qa in sorted(corpus.glob("qa_evidence/pdfqa-syn-*/*_cfQA_*.json")):
        paper = qa.parent.name.removeprefix("pdfqa-syn-")
        tex = find_document(corpus / "research", paper, "tex")
        pdf = find_document(corpus / "research", paper)
        if tex is None or pdf is None:
            print(f"  {paper}: no .tex/.pdf pair under research/, skipped")
            continue
        items = [e for r in read_pdfqa(qa) for e in r.evidence]
        out["evidence"] += len(items)
        per: dict[str, Any] = {"evidence": len(items)}
        for backend, path in (("tex", tex), ("pymupdf", pdf)):
            loc = Locator(cached_parser(backend, cache)(path))
            # The paper's own macros (\oiii, \hb) expand as in the twin parse.
            matches = [loc.locate(e.text, markup=e.markup, markup_source=tex) for e in items]
            located = sum(m.found for m in matches)
            for e, m in zip(items, matches, strict=True):
                if not m.found:
                    print(
                        f"    {paper} {backend} miss: cov={m.coverage:.3f} {e.id}"
                        f" :: {e.text[:60]!r}"
                    )
            per[backend] = located
            out[backend]["located"] += located
        out[paper] = per
    for backend in ("tex", "pymupdf"):
        n = out["evidence"]
        out[backend]["located_rate"] = out[backend]["located"] / n if n else None
    return out


def uda(corpus: Path, parser: Callable[[Path], Document]) -> dict[str, Any]:
    base = corpus / "qa_evidence"
    papers = {p.name.removeprefix("uda-paper-") for p in base.glob("uda-paper-*")}
    records: list[QARecord] = []
    for name in ("bench_paper_text_qa.json", "bench_paper_tab_qa.json"):
        records += read_qasper(base / "uda-benchmark" / name, docs=papers)
    reports = evidence_report(records, base, "pymupdf", parser=parser)
    text = [r for r in flat(reports) if not r.evidence.text.startswith("FLOAT SELECTED")]
    floats = [r for r in flat(reports) if r.evidence.text.startswith("FLOAT SELECTED")]
    on_table = 0
    docs = {rep.record.doc: parser(Path(rep.doc_path)) for rep in reports if rep.doc_path}
    for rep in reports:
        for r in rep.results:
            if not r.evidence.text.startswith("FLOAT SELECTED"):
                if not r.match.found:
                    print(f"    text miss: cov={r.match.coverage:.3f} :: {r.evidence.text[:70]!r}")
                continue
            kinds = {u.kind for u in docs[rep.record.doc].units if u.id in r.match.unit_ids}
            ok = r.match.found and bool(kinds & {"table", "caption"})
            on_table += ok
            if not ok:
                print(f"    float miss: {r.match.status} {kinds} :: {r.evidence.text[:70]!r}")
    located = sum(r.match.found for r in text)
    return {
        "papers": sorted(papers),
        "raw_evidence": len(text),
        "located": located,
        "located_rate": located / len(text) if text else None,
        "float_selected": len(floats),
        "float_on_table_or_caption": on_table,
        "float_rate": on_table / len(floats) if floats else None,
    }


#: Reports whose ``Page`` is the 1-based PDF page (for others it is a printed page number).
CLIMRETRIEVE_PDF_PAGES = ("CT REIT 2022 ESG Report.pdf", "CostCo Climate Action Plan.pdf")


def climretrieve(corpus: Path, parser: Callable[[Path], Document]) -> dict[str, Any]:
    """``Relevant`` text sentences of every report whose PDF is under ``qa_evidence``."""
    base = corpus / "qa_evidence"
    csv_path = base / "climretrieve/ClimRetrieve_base.csv"
    records = [
        QARecord(
            r.doc,
            r.question,
            r.answers,
            tuple(e for e in r.evidence if e.kind == "text"),
            r.annotator_evidence,
            r.source,
        )
        for r in read_climretrieve(csv_path)
    ]
    have = {r.doc for r in records if find_document(base, r.doc) is not None}
    records = [r for r in records if r.doc in have]
    reports = evidence_report(records, base, "pymupdf", parser=parser)
    results = flat(reports)
    located = sum(r.match.found for r in results)
    paged = [r for rep in reports for r in rep.results if rep.record.doc in CLIMRETRIEVE_PDF_PAGES]
    on_page = sum(bool(r.page_ok) for r in paged)
    for rep in reports:
        for r in rep.results:
            if not r.match.found or (rep.record.doc in CLIMRETRIEVE_PDF_PAGES and not r.page_ok):
                print(
                    f"    miss: {r.match.status} cov={r.match.coverage:.3f} gold page"
                    f" {r.evidence.page} found {r.match.page} :: {r.evidence.text[:60]!r}"
                )
    # The same figure over CSV rows (a sentence cited for two questions counts twice)
    # and over distinct sentences per document.
    status = {(rep.record.doc, r.evidence.text): r for rep in reports for r in rep.results}
    rows = [
        status[(r.doc, e.text)]
        for r in read_climretrieve_rows(csv_path, tuple(sorted(have)))
        for e in r.evidence
    ]
    blind = flat(
        evidence_report(
            [r for r in records if r.doc in CLIMRETRIEVE_PDF_PAGES],
            base,
            "pymupdf",
            parser=parser,
            page_hint=False,
        )
    )
    return {
        "documents": sorted(have),
        "evidence": len(results),
        "located": located,
        "located_rate": located / len(results) if results else None,
        "with_pdf_page": len(paged),
        "on_page": on_page,
        "page_rate": on_page / len(paged) if paged else None,
        "on_page_without_page_hint": sum(bool(r.page_ok) for r in blind),
        "csv_rows": len(rows),
        "csv_rows_located": sum(r.match.found for r in rows),
        "distinct_sentences": len(status),
        "distinct_sentences_located": sum(r.match.found for r in status.values()),
    }


def read_climretrieve_rows(path: Path, docs: tuple[str, ...]) -> list[QARecord]:
    """One record per CSV row with text evidence (no grouping, no de-duplication)."""
    import csv

    with path.open(encoding="utf-8", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["Document"] in docs]
    return [
        QARecord(r["Document"], r["Question"], (), (Evidence(r["Relevant"].strip()),))
        for r in rows
        if r["Source From"].strip() == "text" and r["Relevant"].strip()
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="keep parses here as JSON (keyed by backend and file hash, not by code version:"
        " clear it after a parser changes)",
    )
    ap.add_argument("--only", choices=("financebench", "pdfqa", "uda", "climretrieve"))
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = ap.parse_args(argv)
    cache = args.cache
    parser = cached_parser("pymupdf", cache)
    figures: dict[str, Any] = {}
    steps: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("financebench", lambda: financebench(args.corpus, parser)),
        ("pdfqa", lambda: pdfqa(args.corpus, cache)),
        ("uda", lambda: uda(args.corpus, parser)),
        ("climretrieve", lambda: climretrieve(args.corpus, parser)),
    ]
    for name, step in steps:
        if args.only and name != args.only:
            continue
        print(f"== {name}")
        t = time.perf_counter()
        figures[name] = step()
        print(json.dumps(figures[name], indent=1))
        print(f"  ({time.perf_counter() - t:.1f} s)")
    print("== summary")
    if "financebench" in figures:
        f = figures["financebench"]
        print(f"FinanceBench located {rate(f['located'], f['evidence'])} (target >= 97%),"
              f" on page {rate(f['on_page'], f['evidence'])} (target >= 95%)")  # fmt: skip
    if "pdfqa" in figures:
        f = figures["pdfqa"]
        tex, pdf = f["tex"]["located"], f["pymupdf"]["located"]
        print(f"pdfQA located in tex {rate(tex, f['evidence'])} (>= 98%),"
              f" in pymupdf {rate(pdf, f['evidence'])} (>= 90%)")  # fmt: skip
    if "uda" in figures:
        f = figures["uda"]
        print(f"UDA QASPER raw_evidence located {rate(f['located'], f['raw_evidence'])} (>= 90%),"
              f" FLOAT SELECTED on table/caption "
              f"{rate(f['float_on_table_or_caption'], f['float_selected'])} (>= 80%)")  # fmt: skip
    if "climretrieve" in figures:
        f = figures["climretrieve"]
        print(f"ClimRetrieve located {rate(f['located'], f['evidence'])} (>= 95%),"
              f" on page {rate(f['on_page'], f['with_pdf_page'])};"
              f" CSV rows {rate(f['csv_rows_located'], f['csv_rows'])}; distinct sentences"
              f" {rate(f['distinct_sentences_located'], f['distinct_sentences'])}")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
