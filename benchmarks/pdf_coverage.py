"""Word coverage of a PDF backend against ``pdftotext`` and running-header leaks.

For each PDF: the multiset of words ``pdftotext`` (poppler-utils) extracts,
minus the words of the units the backend moved to furniture, is compared with
the multiset of words of the backend's content units. Coverage is
``sum(min(ours[w], ref[w])) / sum(ref[w])``. Words are normalised on both
sides the same way: NFKC (ligatures), line-end hyphenation joined in the
pdftotext text, hyphens removed inside words, punctuation stripped, lower case.

Leaks: from pdftotext's page layout (``-bbox-layout``), the lines of the top
and bottom bands that a blank gap sets apart from the text and that repeat
(digits normalised, letters required, captions such as ``Table 3`` left out:
they are content) on at least three pages, sit at the same height on a third
of the pages (running heads that name the chapter), or are lone page numbers
following the page index with one constant offset, are running
headers/footers (:func:`running_lines`). For each page, such a line is a leak
when the content units on that page contain it more often than the rest of
the page's text does. The first and last lines of pdftotext's reading order
were taken before: a statement title opening every page of a 10-K and a
``Note`` box opening a book page counted as running heads.

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
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

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


@dataclass(frozen=True, slots=True)
class PageLine:
    """A line of a page as pdftotext lays it out (points, top-left origin)."""

    text: str
    y0: float
    y1: float
    x0: float = 0.0


@dataclass(frozen=True, slots=True)
class LaidOutPage:
    height: float
    lines: tuple[PageLine, ...]

    @property
    def text(self) -> str:
        return " ".join(ln.text for ln in self.lines)


def pdftotext_layout(path: Path) -> list[LaidOutPage]:
    """Each page's lines with their heights on the page (``pdftotext -bbox-layout``)."""
    res = subprocess.run(
        ["pdftotext", "-bbox-layout", "-enc", "UTF-8", str(path), "-"],
        capture_output=True,
        check=True,
    )
    # pdftotext writes stray control characters into words: read leniently.
    parser = etree.XMLParser(recover=True, huge_tree=True)
    root = etree.fromstring(re.sub(rb"<!DOCTYPE[^>]*>", b"", res.stdout), parser)
    ns = {"h": "http://www.w3.org/1999/xhtml"}
    pages = []
    for page in root.iterfind(".//h:page", ns):
        lines = []
        for line in page.iterfind(".//h:line", ns):
            words = [str(w.text or "") for w in line.iterfind("h:word", ns)]
            text = " ".join(w for w in words if w)
            if text.strip():
                y0, y1 = float(line.get("yMin", 0)), float(line.get("yMax", 0))
                lines.append(PageLine(text, y0, y1, float(line.get("xMin", 0))))
        pages.append(LaidOutPage(float(page.get("height", 0)), tuple(lines)))
    return pages


#: Share of the page height that makes the top and bottom bands of running lines.
BAND = 0.12


def _margin_lines(page: LaidOutPage) -> list[tuple[PageLine, bool]]:
    """Lines of the top and bottom bands that a blank gap sets apart from
    the text on the body side of them (``top`` with each): running heads and
    footers are; the first line of a statement title or of a paragraph is
    not."""
    out = []
    h = page.height
    for ln in page.lines:
        top = ln.y1 <= BAND * h
        if not top and ln.y0 < (1 - BAND) * h:
            continue
        size = max(ln.y1 - ln.y0, 1.0)
        apart = True
        for o in page.lines:
            if o is ln or (o.y0 < ln.y1 and ln.y0 < o.y1):
                continue  # itself, or beside it on its baseline
            gap = o.y0 - ln.y1 if top else ln.y0 - o.y1
            if 0 <= gap < 0.8 * size:
                apart = False
                break
        if apart:
            out.append((ln, top))
    return out


#: The start of a caption, on the whole baseline a line sits on.
_CAPTION_START = re.compile(r"^(?:table|tab\.|figure|fig\.|exhibit|chart)\s*[0-9IVX]", re.I)


def _baseline(ln: PageLine, page: LaidOutPage) -> str:
    """``ln``'s text after the nearest line left of it on its baseline."""
    left = [o for o in page.lines if o.y0 < ln.y1 and ln.y0 < o.y1 and o.x0 < ln.x0]
    if not left:
        return ln.text
    return max(left, key=lambda o: o.x0).text + " " + ln.text


def _outermost(ln: PageLine, page: LaidOutPage, top: bool) -> bool:
    """No line lies between ``ln`` and the page edge (lines beside it aside)."""
    for o in page.lines:
        if o is ln or (o.y0 < ln.y1 and ln.y0 < o.y1):
            continue
        if (o.y1 <= ln.y0) if top else (o.y0 >= ln.y1):
            return False
    return True


def running_lines(pages: list[LaidOutPage]) -> dict[int, list[str]]:
    """Per 0-based page, its running header/footer lines.

    A running line sits in the top or bottom band, set apart by a blank gap
    (see :func:`_margin_lines`), and either repeats there (digits
    normalised, letters required, captions such as ``Table 3`` left out) on
    at least three pages, or is a lone page number: numbers that follow the
    page index with one constant offset on at least three pages (figure
    tick labels and table cells do not). Odd/even running heads whose text
    changes with the chapter repeat their place instead: lines at the same
    height on at least a third of the pages (and three).
    """
    margin = {i: _margin_lines(p) for i, p in enumerate(pages)}
    counts: Counter[tuple[bool, str]] = Counter()
    slots: Counter[tuple[bool, int]] = Counter()
    offsets: Counter[int] = Counter()
    for i, lines in margin.items():
        counts.update({(top, _key(ln.text)) for ln, top in lines})
        slots.update({(top, round(ln.y0 if top else ln.y1)) for ln, top in lines})
        for ln, _ in lines:
            digits = re.fullmatch(r"(?:page\s+)?(\d{1,4})(?:\s+of\s+\d+)?", ln.text.strip(), re.I)
            if digits:
                offsets[int(digits.group(1)) - i] += 1
    offset, hits = offsets.most_common(1)[0] if offsets else (None, 0)
    n = len(pages)
    out: dict[int, list[str]] = {}
    for i, lines in margin.items():
        keep = []
        for ln, top in lines:
            x = ln.text.strip()
            digits = re.fullmatch(r"(?:page\s+)?(\d{1,4})(?:\s+of\s+\d+)?", x, re.I)
            if digits:
                if hits >= 3 and int(digits.group(1)) - i == offset:
                    keep.append(x)
                continue
            if len(x) <= 3 or not any(c.isalpha() for c in x) or _CAPTION.match(x):
                continue
            if _CAPTION_START.match(_baseline(ln, pages[i])):
                continue  # a float's caption on top of the page ("Table 1" | "A simple table")
            repeated = counts[(top, _key(x))] >= 3
            # Same height, changing text: only the outermost line of the
            # page (a top float's caption has the float's title above it).
            placed = slots[(top, round(ln.y0 if top else ln.y1))] >= max(3, n // 3)
            placed = placed and _outermost(ln, pages[i], top)
            if repeated or (placed and len(x.split()) <= 12):
                keep.append(x)
        if keep:
            out[i] = keep
    return out


def _count(hay: str, needle: str) -> int:
    pat = r"(?<![\w.,])" + re.escape(needle) + r"(?![\w.,])"
    return len(re.findall(pat, hay))


def leaks(doc: Document, pages: list[LaidOutPage]) -> list[tuple[int, str]]:
    """(1-based page, line) of running lines that survive into content units."""
    by_page: dict[int, list[str]] = {}
    for u in doc.content_units():
        for p in u.pages:
            by_page.setdefault(p, []).append(" ".join(u.text.split()))
    found = []
    for i, lines in running_lines(pages).items():
        units = " \n ".join(by_page.get(i + 1, []))
        page_text = " ".join(pages[i].text.split())
        for line in set(lines):
            needle = " ".join(line.split())
            # The running line itself is one occurrence; any other is content.
            expected = _count(page_text, needle) - 1
            if _count(units, needle) <= max(expected, 0):
                continue
            # A page number counts where a unit is the number alone: "Figure
            # 3" or a figure's tick label "10" on page 3 or 10 is no leak (a
            # page number glued to a paragraph is then not seen).
            if needle.isdigit() and needle not in by_page.get(i + 1, []):
                continue
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
        lk = leaks(doc, pdftotext_layout(path))
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
