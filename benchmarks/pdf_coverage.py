"""Word coverage of a PDF backend against ``pdftotext`` and running-header leaks.

For each PDF: the multiset of words ``pdftotext`` (poppler-utils) extracts,
minus the words of the units the backend moved to furniture, is compared with
the multiset of words of the backend's content units. Coverage is
``sum(min(ours[w], ref[w])) / sum(ref[w])``. Words are normalised on both
sides the same way: NFKC (ligatures), line-end hyphenation joined in the
pdftotext text, hyphens removed inside words, punctuation stripped, lower case.

Leaks: from pdftotext's page layout (``-bbox-layout``), the running
headers/footers (:func:`running_lines`): lines of short blocks in the top and
bottom bands, from the page edge inward up to the first block that reaches
out of the band (a paragraph, a table), that repeat (digits normalised,
letters required, captions such as ``Table 3`` and a table's units or period
line left out: they are content) on at least three pages, sit at the same
place (height and row from the page edge) in the outermost block of a
third of the pages (running heads that name the chapter), or are lone page
numbers following the page index with one constant offset. A table's header
row repeated on every page the table runs over is no running line, nor is a
line that stands alone in the body of pages about as often as in the margin
(a label such as ``Experience:`` that opens some pages), nor a statement's
title in the running head's place right over the table's period line, nor a
page's title in that place with no running head above it. For each page,
such a line is a leak when the content units on that page contain it more
often than the rest of the page's text does.

    python -m benchmarks.pdf_coverage [--backend pymupdf] [--show-leaks] [PDF ...]

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
#: TeX Live's package manuals (Debian's texlive-doc): PDFs nobody here tuned for.
TEXLIVE_DOC = Path("/usr/share/doc/texlive-doc")
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
    x1: float = 0.0

    @property
    def size(self) -> float:
        return max(self.y1 - self.y0, 1.0)


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
                x0, x1 = float(line.get("xMin", 0)), float(line.get("xMax", 0))
                lines.append(PageLine(text, y0, y1, x0, x1))
        pages.append(LaidOutPage(float(page.get("height", 0)), tuple(lines)))
    return pages


#: Share of the page height that makes the top and bottom bands of running lines.
BAND = 0.12


def _beside(a: PageLine, b: PageLine) -> bool:
    """``a`` and ``b`` share a baseline: they overlap by half the smaller height.

    Lines of a tightly set paragraph overlap a little without sharing one.
    """
    overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
    return overlap > 0.5 * min(a.size, b.size)


def _rows(page: LaidOutPage, top: bool) -> list[list[PageLine]]:
    """The page's lines grouped by baseline, from the ``top`` (or bottom) edge inward."""
    order = sorted(page.lines, key=lambda ln: ln.y0 if top else -ln.y1)
    rows: list[list[PageLine]] = []
    for ln in order:
        if rows and any(_beside(ln, o) for o in rows[-1]):
            rows[-1].append(ln)
        else:
            rows.append([ln])
    return rows


def _blocks(rows: list[list[PageLine]]) -> list[list[list[PageLine]]]:
    """Rows grouped into blocks: a blank gap of 0.8 line heights ends a block."""
    blocks: list[list[list[PageLine]]] = []
    for row in rows:
        if blocks:
            last = blocks[-1][-1]
            size = max(ln.size for ln in last)
            gap = max(
                min(o.y0 for o in row) - max(ln.y1 for ln in last),
                min(ln.y0 for ln in last) - max(o.y1 for o in row),
            )
            if gap < 0.8 * size:
                blocks[-1].append(row)
                continue
        blocks.append([row])
    return blocks


def _column_head(row: list[PageLine], below: list[PageLine] | None) -> bool:
    """``row`` heads columns: two or more pieces, each with the next row's
    piece starting at its left edge right below it (a table's header row,
    repeated on every page a table runs over)."""
    if below is None or len(row) < 2:
        return False
    size = max(ln.size for ln in row)
    gap = min(o.y0 for o in below) - max(ln.y1 for ln in row)
    if gap > 1.5 * size:
        return False
    return all(any(abs(o.x0 - ln.x0) <= 3 for o in below) for ln in row)


#: Rows a block of running lines has at most (a journal banner of two lines and a date).
_BLOCK_ROWS = 3


@dataclass(frozen=True, slots=True)
class MarginLine:
    """A line of a page's top or bottom band, where it sits among the band's blocks."""

    line: PageLine
    top: bool
    #: The block's place from the page edge inward (0: the outermost block).
    block: int
    #: The line's row in its block, from the page edge inward.
    row: int
    #: The blank gap between its block and the next block inward, in line heights.
    gap: float


def _margin_lines(page: LaidOutPage) -> list[MarginLine]:
    """Lines of the top and bottom bands in short blocks that blank gaps set
    apart, from the page edge inward: running heads and footers are; a
    paragraph or a table reaching out of the band is not, nor is anything
    behind it (a table's ``% Change`` under a paragraph), nor a table's
    header row repeated on each page it runs over (:func:`_column_head`)."""
    out = []
    h = page.height
    for top in (True, False):
        blocks = _blocks(_rows(page, top))
        for i, block in enumerate(blocks):
            lines = [ln for row in block for ln in row]
            inside = all(ln.y1 <= BAND * h if top else ln.y0 >= (1 - BAND) * h for ln in lines)
            if not inside or len(block) > _BLOCK_ROWS:
                break
            below = blocks[i + 1][0] if top and i + 1 < len(blocks) else None
            if _column_head(block[-1], below):
                break
            # Behind the outermost block, only a block's row next to its gap
            # counts: a statement's title block ("AMAZON.COM, INC." over
            # "CONSOLIDATED STATEMENTS OF CASH FLOWS") opens the statement;
            # the outermost block is the running head, however many rows.
            gap = _gap_after(block, blocks, i, top)
            first = 0 if i == 0 else len(block) - 1
            out.extend(
                MarginLine(ln, top, i, r, gap)
                for r, row in enumerate(block[first:], first)
                for ln in row
            )
    return out


def _gap_after(
    block: list[list[PageLine]], blocks: list[list[list[PageLine]]], i: int, top: bool
) -> float:
    """The blank gap between ``block`` and the next block inward, in line heights."""
    if i + 1 >= len(blocks):
        return float("inf")
    last, nxt = block[-1], blocks[i + 1][0]
    size = max(ln.size for ln in last)
    if top:
        return (min(o.y0 for o in nxt) - max(ln.y1 for ln in last)) / size
    return (min(ln.y0 for ln in last) - max(o.y1 for o in nxt)) / size


#: The start of a caption, on the whole baseline a line sits on.
_CAPTION_START = re.compile(r"^(?:table|tab\.|figure|fig\.|exhibit|chart)\s*[0-9IVX]", re.I)

#: A table's units line or period header (``(In millions)``, ``Years ended
#: December 31``): it repeats on every statement page, and it is the table's.
_TABLE_HEAD = re.compile(
    r"\b(?:in|of)\s+(?:millions|thousands|billions)\b|\bexcept\s+(?:for\s+)?per[- ]share"
    r"|\b(?:years?|months|quarters?|weeks|periods?)\s+ended\b|^\(?as\s+of\b",
    re.IGNORECASE,
)


def _baseline(ln: PageLine, page: LaidOutPage) -> str:
    """``ln``'s text after the nearest line left of it on its baseline."""
    left = [o for o in page.lines if _beside(o, ln) and o.x0 < ln.x0]
    if not left:
        return ln.text
    return max(left, key=lambda o: o.x0).text + " " + ln.text


def _aligned(a: PageLine, b: PageLine) -> bool:
    """``a`` and ``b`` share a left edge, a right edge or a centre."""
    return abs(a.x0 - b.x0) <= 3 or abs(a.x1 - b.x1) <= 3 or abs((a.x0 + a.x1) - (b.x0 + b.x1)) <= 6


def _with_title(ln: PageLine, page: LaidOutPage) -> str:
    """``ln``'s text with the text right of it on its baseline when they are
    near (``Item 7.`` and its title, which pdftotext splits); a running
    head's left and right parts lie far apart."""
    right = [o for o in page.lines if _beside(o, ln) and o.x0 > ln.x1]
    if not right:
        return ln.text
    nxt = min(right, key=lambda o: o.x0)
    return ln.text + " " + nxt.text if nxt.x0 - ln.x1 < 6 * ln.size else ln.text


def _row_mates(lines: list[MarginLine], keep: list[str]) -> list[str]:
    """Pieces of the outermost rows beside a running line: a copyright notice
    in the first page's footer between the journal name and the page number."""
    out = []
    for m in lines:
        ln = m.line
        x = ln.text.strip()
        if m.block or x in keep or len(x) <= 3 or not any(c.isalpha() for c in x):
            continue
        if len(x.split()) > 12 or _CAPTION.match(x):
            continue
        if any(o.block == 0 and _beside(ln, o.line) and o.line.text.strip() in keep for o in lines):
            out.append(x)
    return out


#: The blank gap (in line heights) that sets a running head with changing text
#: apart from the body; a heading or a paragraph's last line that opens a
#: page is followed by an ordinary paragraph gap.
_HEAD_GAP = 1.0


def _body_lines(pages: list[LaidOutPage]) -> Counter[str]:
    """How often each line's text (digits normalised) stands outside the margin bands."""
    c: Counter[str] = Counter()
    for p in pages:
        for ln in p.lines:
            if BAND * p.height < ln.y0 and ln.y1 < (1 - BAND) * p.height:
                c[_key(ln.text)] += 1
    return c


def _over_table(ln: PageLine, page: LaidOutPage, top: bool) -> bool:
    """A line at the top of a page whose next block inward opens with a
    table's units or period line: the title of a statement
    ("Consolidated Statements of Earnings" over "Year Ended December")."""
    if not top:
        return False
    below = [o for o in page.lines if o.y0 > ln.y1]
    if not below:
        return False
    first = min(o.y0 for o in below)
    return any(_TABLE_HEAD.search(o.text) for o in below if o.y0 - first < 0.5 * o.size)


def _slot(m: MarginLine) -> tuple[bool, int, int]:
    """Where a running head with changing text sits: its edge of the page, its
    height (2 pt steps) and its row in the outermost block."""
    return m.top, round((m.line.y0 if m.top else m.line.y1) / 2), m.row


def running_lines(pages: list[LaidOutPage]) -> dict[int, list[str]]:
    """Per 0-based page, its running header/footer lines.

    A running line sits in a short block of the top or bottom band, set
    apart by blank gaps from the page edge inward (see
    :func:`_margin_lines`), and either repeats there (digits normalised,
    letters required, captions such as ``Table 3`` and a table's units or
    period line left out, a label such as ``Item 7.`` read with the title
    beside it) on at least three pages, or is a lone page number: numbers
    that follow the page index with one constant offset on at least three
    pages (figure tick labels and table cells do not). Odd/even running
    heads whose text changes with the chapter repeat their place instead:
    lines of the outermost block at the same height, on the same row of it
    counted from the page edge, aligned the same way (left, right or
    centred), on at least a third of the pages (and three), unless the next
    lines down open with a table's units or period line (a statement's
    title). The row matters: where the other pages set the section's name
    under the company's name, a title that opens a page with no running
    head above it (an auditor's report, ``Report of Independent Registered
    Public`` wrapping onto a second line) is the page's title, not the
    second row of a running head. A repeated line that also stands alone in
    the body of pages at least twice and a third as often is content.
    """
    margin = {i: _margin_lines(p) for i, p in enumerate(pages)}
    in_body = _body_lines(pages)
    counts: Counter[tuple[bool, str]] = Counter()
    slots: dict[tuple[bool, int, int], list[tuple[int, PageLine]]] = {}
    offsets: Counter[int] = Counter()
    for i, lines in margin.items():
        counts.update({(m.top, _key(_with_title(m.line, pages[i]))) for m in lines})
        for m in lines:
            ln = m.line
            if m.block == 0 and m.gap >= _HEAD_GAP:
                slots.setdefault(_slot(m), []).append((i, ln))
            digits = re.fullmatch(r"(?:page\s+)?(\d{1,4})(?:\s+of\s+\d+)?", ln.text.strip(), re.I)
            if digits:
                offsets[int(digits.group(1)) - i] += 1
    offset, hits = offsets.most_common(1)[0] if offsets else (None, 0)
    n = len(pages)
    out: dict[int, list[str]] = {}
    for i, lines in margin.items():
        keep = []
        for m in lines:
            ln, top = m.line, m.top
            x = ln.text.strip()
            digits = re.fullmatch(r"(?:page\s+)?(\d{1,4})(?:\s+of\s+\d+)?", x, re.I)
            if digits:
                if hits >= 3 and int(digits.group(1)) - i == offset:
                    keep.append(x)
                continue
            if len(x) <= 3 or not any(c.isalpha() for c in x) or _CAPTION.match(x):
                continue
            if _CAPTION_START.match(_baseline(ln, pages[i])) or _TABLE_HEAD.search(x):
                continue  # a float's caption on top of the page, a table's units line
            seen = counts[(top, _key(_with_title(ln, pages[i])))]
            # A line that also stands alone in the body of pages about as
            # often is content that happens to open some pages (a label such
            # as "Experience:" over each director's text, "PROPOSAL 2" over
            # each proposal, listed on the contents page too).
            body = in_body[_key(x)]
            repeated = seen >= 3 and not (body >= 2 and 3 * body >= seen)
            placed = False
            if not repeated and m.block == 0 and m.gap >= _HEAD_GAP and len(x.split()) <= 12:
                slot = slots[_slot(m)]
                placed = len({j for j, o in slot if _aligned(o, ln)}) >= max(3, n // 3)
                placed = placed and not _over_table(ln, pages[i], top)
            if repeated or placed:
                keep.append(x)
        keep += _row_mates(lines, keep)
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
