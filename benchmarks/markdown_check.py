"""Markdown in and out on the corpus: round trip of every twin, and other parsers' Markdown read.

1. Round trip: every structured twin under ``../shared/corpus`` (LaTeX, JATS, S2ORC, books,
   EDGAR HTML, CSV) is parsed, written with ``Document.to_markdown()`` and read back with the
   Markdown reader; the units must be equal in kind, text, section and table cells.
2. Other parsers' Markdown: every corpus PDF is converted with pymupdf4llm's own
   ``to_markdown`` (its first ``--max-pages`` pages, page separators on) and read with the
   Markdown reader: no error, pages known, and every table unit has cells.

    python -m benchmarks.markdown_check [--max-pages 40] [--skip-pdfs] [--skip-twins]
        [--out DIR] [--corpus DIR]

``--out DIR`` keeps pymupdf4llm's Markdown there and reuses it on the next run
(pymupdf4llm takes about a second a page), e.g. ``--out /work/cache/md``.
``--max-pages 0`` converts every page.

Prints one line per file and a summary table.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("DO_NOT_TRACK", "1")

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("DOCPARSE_CORPUS", ROOT.parent / "shared" / "corpus"))
TWIN_SUFFIXES = {".tex", ".nxml", ".json", ".txt", ".htm", ".csv"}
#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--corpus", "{corpus}", "--max-pages", "1"]


def twins() -> list[Path]:
    out = []
    for p in sorted(CORPUS.rglob("*")):
        if p.suffix not in TWIN_SUFFIXES or p.parent == CORPUS or "qa_evidence" in p.parts:
            continue
        if p.name in ("README.md", "MANIFEST.tsv") or (
            p.suffix == ".json" and "s2orc" not in p.parts
        ):
            continue
        out.append(p)
    return out


def round_trip(paths: list[Path]) -> tuple[int, int, list[str]]:
    import docparse
    from docparse.builder import build_document
    from docparse.export import comparable_units
    from docparse.formats.markdown import parse_markdown_text

    ok = 0
    problems = []
    for p in paths:
        try:
            doc = docparse.parse(p)
        except docparse.DocparseError as exc:
            print(f"  skip {p.relative_to(CORPUS)}: {exc}", file=sys.stderr)
            continue
        reader = parse_markdown_text(doc.to_markdown())
        back = build_document(
            path=p, format="markdown", backend="markdown", drafts=reader.drafts, doc_id="x"
        )
        a, b = comparable_units(doc), comparable_units(back)
        same = a == b
        ok += same
        if not same:
            at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
            problems.append(f"{p.relative_to(CORPUS)}: {len(a)} vs {len(b)} units, first at {at}")
        print(f"  {'ok ' if same else 'DIFF'} {len(a):5d} units  {p.relative_to(CORPUS)}")
    return ok, len(paths), problems


def pymupdf4llm_markdown(pdf: Path, max_pages: int, out: Path) -> Path:
    """pymupdf4llm's Markdown of ``pdf`` in ``out``, made once: an existing file is reused."""
    import pymupdf
    import pymupdf4llm

    part = f"first{max_pages}" if max_pages > 0 else "all"
    rel = pdf.relative_to(CORPUS) if pdf.is_relative_to(CORPUS) else Path(pdf.name)
    target = out / f"{'__'.join(rel.with_suffix('').parts)}.{part}.pymupdf4llm.md"
    if target.is_file():
        return target
    with pymupdf.open(pdf) as doc:
        n = doc.page_count if max_pages <= 0 else min(max_pages, doc.page_count)
    with contextlib.redirect_stdout(io.StringIO()):
        md = pymupdf4llm.to_markdown(
            str(pdf), pages=list(range(n)), page_separators=True, use_ocr=False
        )
    partial = target.with_suffix(".tmp")
    partial.write_text(md, encoding="utf-8")
    partial.replace(target)  # a run cut short leaves no half-written Markdown to reuse
    return target


def read_markdown(pdfs: list[Path], max_pages: int, out: Path) -> list[tuple[str, str]]:
    import docparse

    rows = []
    for pdf in pdfs:
        name = str(pdf.relative_to(CORPUS))
        try:
            md = pymupdf4llm_markdown(pdf, max_pages, out)
        except Exception as exc:  # noqa: BLE001 - pymupdf4llm's own failure, reported
            rows.append((name, f"pymupdf4llm failed: {type(exc).__name__}"))
            print(f"  pymupdf4llm failed {name}: {exc}", file=sys.stderr)
            continue
        try:
            doc = docparse.parse(md)
        except docparse.DocparseError as exc:
            rows.append((name, f"ERROR {exc}"))
            continue
        tables = [u for u in doc.units if u.kind == "table"]
        empty = sum(1 for u in tables if u.table is None or not u.table.cells())
        status = (
            f"units {len(doc.units)} pages {doc.n_pages} tables {len(tables)} without cells {empty}"
        )
        rows.append((name, status))
        print(f"  {status}  {name}", file=sys.stderr, flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-pages", type=int, default=40)
    ap.add_argument("--skip-pdfs", action="store_true")
    ap.add_argument("--skip-twins", action="store_true", help="Leave out the round trip.")
    ap.add_argument("--out", type=Path, default=None, help="Keep pymupdf4llm's Markdown here.")
    ap.add_argument("--corpus", type=Path, default=None, help="The shared corpus folder.")
    args = ap.parse_args(argv)
    global CORPUS
    CORPUS = args.corpus or CORPUS
    if not CORPUS.is_dir():
        print(f"no corpus at {CORPUS}", file=sys.stderr)
        return 2
    ok, n, problems = (0, 0, []) if args.skip_twins else round_trip(twins())
    if not args.skip_twins:
        print(f"\nround trip to_markdown -> Markdown reader: {ok} of {n} twins equal")
    for p in problems:
        print(f"  {p}")
    if args.skip_pdfs:
        return 0 if ok == n else 1
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        rows = read_markdown(sorted(CORPUS.rglob("*.pdf")), args.max_pages, out)
    errors = [r for r in rows if not r[1].endswith("without cells 0")]
    span = f"first {args.max_pages} pages" if args.max_pages > 0 else "all pages"
    print(f"\npymupdf4llm Markdown of {len(rows)} corpus PDFs ({span}):")
    print("| PDF | result |\n|---|---|")
    for name, status in rows:
        print(f"| {name} | {status} |")
    print(
        f"\nread with no error and every table with cells: {len(rows) - len(errors)} of {len(rows)}"
    )
    return 0 if ok == n and not errors else 1


if __name__ == "__main__":
    raise SystemExit(main())
