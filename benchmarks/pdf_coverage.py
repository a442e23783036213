"""Word coverage of a PDF backend against ``pdftotext`` and running-header leaks.

For each PDF: the multiset of words ``pdftotext`` (poppler-utils) extracts,
minus the words of the units the backend moved to furniture, is compared with
the multiset of words of the backend's content units. Coverage is
``sum(min(ours[w], ref[w])) / sum(ref[w])``. Words are normalised on both
sides the same way: NFKC (ligatures), line-end hyphenation joined in the
pdftotext text, hyphens removed inside words, punctuation stripped, lower case.

Leaks: from pdftotext's pages, the first and last non-empty lines that repeat
(digits normalised, letters required, captions such as ``Table 3`` left out:
they are content) on at least three pages, or are lone
numbers following the page index with one constant offset, are
running headers/footers. For each page, such a line is a leak when the
content units on that page contain it more often than the rest of the page's
pdftotext text does.

    python -m benchmarks.pdf_coverage [--backend pymupdf] [PDF ...]

Without PDFs, every PDF under ../shared/corpus is measured.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
import unicodedata
from collections import Counter
from pathlib import Path

import docparse
from docparse.model import Document

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
FOLDERS = ("research", "s2orc", "financial", "csv_tables", "books", "qa_evidence")

_PUNCT = re.compile(r"[^\w]+", re.UNICODE)
_HYPH = re.compile(r"[-\u2010\u2011\u00ad]\s*\n\s*")


#: A caption that opens a page ("Table 3") repeats with its number but is content.
_CAPTION = re.compile(r"^(?:table|tab\.|figure|fig\.|exhibit|chart)\s*\S{1,6}\s*[.:]?$", re.I)

#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["{corpus}/research/arxiv-2510.22211v1/2510.22211v1.pdf"]


def norm_words(text: str) -> list[str]:
    """Normalised words of ``text`` (see the module docstring)."""
    text = unicodedata.normalize("NFKC", text)
    out = []
    for tok in text.split():
        w = _PUNCT.sub("", tok.replace("-", "")).lower()
        if w:
            out.append(w)
    return out


def pdftotext_pages(path: Path) -> list[str]:
    """Text of each page as pdftotext (reading order mode) gives it."""
    res = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"],
        capture_output=True,
        check=True,
    )
    pages = res.stdout.decode("utf-8", "replace").split("\f")
    if pages and not pages[-1].strip():
        pages = pages[:-1]
    return pages


def ref_words(pages: list[str]) -> Counter[str]:
    c: Counter[str] = Counter()
    for p in pages:
        c.update(norm_words(_HYPH.sub("", p)))
    return c


def coverage(doc: Document, pages: list[str]) -> tuple[float, int, int]:
    """(coverage, reference words, furniture words)."""
    ref = ref_words(pages)
    furn: Counter[str] = Counter()
    ours: Counter[str] = Counter()
    for u in doc.units:
        (furn if u.kind == "furniture" else ours).update(norm_words(u.text))
    ref_kept = ref - furn
    total = sum(ref_kept.values())
    hit = sum((ref_kept & ours).values())
    return (hit / total if total else 1.0), total, sum(furn.values())


def _key(line: str) -> str:
    return re.sub(r"\d+", "#", re.sub(r"\s+", " ", line.strip().lower()))


def running_lines(pages: list[str]) -> dict[int, list[str]]:
    """Per 0-based page, its running header/footer lines per pdftotext."""
    per_page: dict[int, list[str]] = {}
    counts: Counter[str] = Counter()
    for i, p in enumerate(pages):
        lines = [ln.strip() for ln in p.splitlines() if ln.strip()]
        edge = lines[:2] + lines[-2:] if len(lines) > 4 else lines
        per_page[i] = edge
        counts.update({_key(x) for x in edge})
    # Lone numbers are page numbers only when they follow the page index with
    # one constant offset (figure tick labels and table cells do not).
    offsets: Counter[int] = Counter()
    for i, edge in per_page.items():
        for x in edge:
            if x.isdigit():
                offsets[int(x) - i] += 1
    offset = offsets.most_common(1)[0][0] if offsets else None

    def page_number(i: int, x: str) -> bool:
        return x.isdigit() and int(x) - i == offset and offsets[offset] >= 3

    out: dict[int, list[str]] = {}
    for i, edge in per_page.items():
        keep = [
            x
            for x in edge
            if page_number(i, x)
            or (
                counts[_key(x)] >= 3
                and len(x) > 3
                and any(c.isalpha() for c in x)
                and not _CAPTION.match(x)
            )
        ]
        if keep:
            out[i] = keep
    return out


def _count(hay: str, needle: str) -> int:
    pat = r"(?<![\w.,])" + re.escape(needle) + r"(?![\w.,])"
    return len(re.findall(pat, hay))


def leaks(doc: Document, pages: list[str]) -> list[tuple[int, str]]:
    """(1-based page, line) of running lines that survive into content units."""
    by_page: dict[int, list[str]] = {}
    for u in doc.content_units():
        for p in u.pages:
            by_page.setdefault(p, []).append(" ".join(u.text.split()))
    found = []
    for i, lines in running_lines(pages).items():
        units = " \n ".join(by_page.get(i + 1, []))
        page_text = " ".join(pages[i].split())
        for line in set(lines):
            needle = " ".join(line.split())
            # The running line itself is one occurrence; any other is content.
            expected = _count(page_text, needle) - 1
            if _count(units, needle) > max(expected, 0):
                found.append((i + 1, line))
    return found


def corpus_pdfs(folders: tuple[str, ...] = FOLDERS) -> list[Path]:
    """The corpus PDFs of ``folders``, sorted within each."""
    out: list[Path] = []
    for folder in folders:
        out.extend(sorted((CORPUS / folder).rglob("*.pdf")))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pdfs", nargs="*", type=Path)
    ap.add_argument("--backend", default="pymupdf")
    ap.add_argument("--show-leaks", action="store_true")
    args = ap.parse_args(argv)
    pdfs = args.pdfs or corpus_pdfs()
    print(f"{'document':60} {'pages':>5} {'sec':>6} {'refwords':>8} {'furn':>6} {'cover':>7} leaks")
    worst = 1.0
    for path in pdfs:
        t0 = time.perf_counter()
        doc = docparse.parse(path, backend=args.backend)
        sec = time.perf_counter() - t0
        pages = pdftotext_pages(path)
        cov, total, furn = coverage(doc, pages)
        lk = leaks(doc, pages)
        worst = min(worst, cov)
        name = str(path.relative_to(CORPUS)) if path.is_relative_to(CORPUS) else str(path)
        print(
            f"{name[-60:]:60} {doc.n_pages:>5} {sec:>6.1f} {total:>8} {furn:>6} {cov:>7.2%}"
            f" {len(lk)}"
        )
        if args.show_leaks:
            for p, line in lk[:10]:
                print(f"    leak p{p}: {line!r}")
        sys.stdout.flush()
    print(f"minimum coverage: {worst:.2%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
