"""Layout checks of a PDF backend on every corpus PDF that has a twin.

For each PDF with a twin (``research`` ``.tex``, ``s2orc`` ``.json``,
``books`` ``.txt``, wiki ``.html``; the gold tables of ``csv_tables`` and
``tables_icdar2013``), prints:

* ``furn``: furniture units, and ``lost``: distinct furniture texts (of at
  least two comparison words, as :func:`align.project.comparison_words` makes
  them) that are a whole table row or cell, paragraph or line of a code block of the
  twin more often than the parse's content units hold them anywhere, so a
  furniture unit took content. A twin's running text that merely mentions a
  running head ("see Chapter 4 Simple Example") does not count. Lone page
  numbers are too short to be judged this way and are left out.
* ``leaks``: running headers, banners and page numbers that stayed in
  content units (:func:`benchmarks.pdf_coverage.leaks`, against pdftotext).
* ``fffd``/``cid``: U+FFFD and ``(cid:`` in unit texts and table cells.
* ``heads``: twin headings found as headings in the parse (same words, a
  section number left out), then how many of those sit at the twin's depth
  (the length of their section path; full twins only). A twin whose only
  top heading is its first, the document's title (a web page's ``h1``),
  is counted without it and with its other headings one level up, as a
  PDF parse makes that line the ``title``.
* ``notes``: twin footnotes found as footnote units of the parse (their
  footnote units hold 80% of the footnote's words), then ``+`` the parse's
  footnote units that hold no twin footnote (:func:`footnotes_found`).
* ``UR@0.9``: twin unit recall at similarity 0.9 (:func:`align.project.project`;
  full twins only), and ``caps``: twin tables with a caption, then how many of
  them the parse found with a caption that holds the twin caption's words
  (at least 80% of them); a twin table that one parsed table holds (80%
  of its cells, or any parsed table when the twin table has no cells) with
  that caption counts too: sub-tables of one float, and the parsed tables
  carrying that caption together hold it: a table split into parts or
  continued on the next page, its parts linked to one caption (:func:`caption_links`).

    python -m benchmarks.pdf_layout [--backend pymupdf] [--show-leaks] [--only NAME ...]
        [--pair PDF TWIN ...]

``--pair`` adds a PDF and its twin the corpus holds no PDF for: the EDGAR
``.htm`` of ``financial/`` printed to PDF with headless Chromium
(:func:`benchmarks.edgar_tables.print_to_pdf`), so furniture is checked
against every pair.

``--show-leaks`` lists the lost furniture texts, the running-line leaks and
the unlinked captions. Without the corpus, nothing is measured.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("DO_NOT_TRACK", "1")

import docparse
from align.metrics.tables import cell_bag, normalize_cell
from align.project import Projection, comparison_words, project
from align.readers.tables import read_gold_tables
from benchmarks.pdf_coverage import CORPUS, leaks, pdftotext_layout
from benchmarks.pdf_glyphs import unit_texts
from docparse.model import Document, SourceUnit

#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--corpus", "{corpus}", "--only", "acmart-sample-sigconf"]

_TWIN_SUFFIXES = {"research": (".tex",), "s2orc": (".json",), "books": (".txt",)}


@dataclass(frozen=True, slots=True)
class Pair:
    """A corpus PDF and its twin: a document to parse, or only gold tables (``twin`` None)."""

    name: str
    pdf: Path
    twin: Path | None


def _folders(parent: Path) -> list[Path]:
    return sorted(d for d in parent.iterdir() if d.is_dir()) if parent.is_dir() else []


def pairs(corpus: Path) -> Iterator[Pair]:
    """Every PDF of ``corpus`` with a twin, folder by folder."""
    for folder, suffixes in _TWIN_SUFFIXES.items():
        for d in _folders(corpus / folder):
            pdfs = sorted(d.glob("*.pdf"))
            twins = sorted(p for p in d.iterdir() if p.suffix in suffixes)
            if pdfs and twins:
                twin = next((t for t in twins if t.stem == pdfs[0].stem), twins[0])
                yield Pair(d.name, pdfs[0], twin)
    for d in _folders(corpus / "qa_evidence"):
        pdfs, htmls = sorted(d.glob("*.pdf")), sorted(d.glob("*.html"))
        if pdfs and htmls:
            yield Pair(d.name, pdfs[0], htmls[0])
    for folder in ("csv_tables", "tables_icdar2013"):
        for d in _folders(corpus / folder):
            pdfs = sorted(d.glob("*.pdf"))
            if pdfs and (any(d.glob("*.csv")) or any(d.glob("*-str.xml"))):
                yield Pair(f"{folder}/{d.name}", pdfs[0], None)


def _phrase(text: str) -> str:
    return " ".join(comparison_words(text)[0])


def _haystack(texts: list[str]) -> str:
    # Units apart, so a phrase is never counted across two of them.
    return " | ".join(f" {_phrase(t)} " for t in texts)


def _count(hay: str, phrase: str) -> int:
    return hay.count(f" {phrase} ")


#: Twin unit kinds that hold running text.
_TEXT_KINDS = ("paragraph", "list_item", "abstract", "code", "quote", "footnote")


def twin_texts(pair: Pair, twin: Document | None) -> list[str]:
    """The twin's table and paragraph pieces: each table row and cell, each
    paragraph, and each line of a code block."""
    tables = (
        [t.rows for t in read_gold_tables(pair.pdf.parent)]
        if twin is None
        else [u.table.rows for u in twin.units if u.table is not None]
    )
    out = [piece for rows in tables for r in rows for piece in (" ".join(r), *r)]
    if twin is not None:
        for u in twin.units:
            if u.kind in _TEXT_KINDS:
                out.append(u.text)
            # A code block's lines each stand alone; a prose paragraph's
            # source lines are only where the twin's text happened to wrap
            # ("... see" / "Chapter 5, Basics." is no piece of its own).
            if u.kind == "code":
                out.extend(u.raw.splitlines())
    return out


def lost_to_furniture(doc: Document, twin_text: list[str]) -> list[tuple[str, int, int]]:
    """(furniture text, twin count, parse count) for furniture whose whole text
    is a twin piece (:func:`twin_texts`) more often than the parse's content
    units and table rows hold it anywhere: text a furniture unit took from content."""
    furniture = {_phrase(u.text): u.text for u in doc.units if u.kind == "furniture"}
    pieces = Counter(_phrase(t) for t in twin_text)
    ours = [u.text for u in doc.content_units()]
    ours += [" ".join(r) for u in doc.units if u.table is not None for r in u.table.rows]
    our_hay = _haystack(ours)
    out = []
    for phrase, text in furniture.items():
        if len(phrase.split()) < 2 or not pieces[phrase]:
            continue
        have = _count(our_hay, phrase)
        if pieces[phrase] > have:
            out.append((" ".join(text.split()), pieces[phrase], have))
    return out


_NUMBER = re.compile(r"^(?:appendix\s+)?(?:[A-Z]|\d+|[IVXL]+)(?:\.\d+)*[.:]?\s+", re.IGNORECASE)


def _heading_key(text: str) -> str:
    return " ".join(comparison_words(_NUMBER.sub("", text.strip()))[0])


def _depth(u: SourceUnit) -> int:
    """A heading's depth: twins' paths end with the heading, PDF parses' with its parent."""
    own = bool(u.section) and u.section[-1] == u.text
    return len(u.section) if own else len(u.section) + 1


def heading_levels(doc: Document, twin: Document) -> tuple[int, int, int, list[str]]:
    """(twin headings, found as parse headings, found at the twin's depth, wrong depths)."""
    ours: dict[str, list[SourceUnit]] = {}
    for u in doc.units:
        if u.kind == "heading":
            ours.setdefault(_heading_key(u.text), []).append(u)
    total = found = right = 0
    wrong = []
    heads = [g for g in twin.units if g.kind == "heading" and _heading_key(g.text)]
    # A twin (HTML) that sets the document's title as its only top heading
    # holds the sections one level down; a PDF parse makes that line the
    # document's title, with the sections at the top.
    tops = [g for g in heads if _depth(g) == 1]
    shift = 0
    if (
        len(tops) == 1
        and heads[0] is tops[0]
        and len(heads) > 1
        and _heading_key(tops[0].text) == _heading_key(twin.title or "")
    ):
        heads, shift = heads[1:], 1
    for g in heads:
        total += 1
        cands = ours.get(_heading_key(g.text))
        if not cands:
            continue
        found += 1
        u = cands.pop(0)
        if _depth(u) == _depth(g) - shift:
            right += 1
        else:
            wrong.append(f"{u.text[:50]!r}: depth {_depth(u)}, twin {_depth(g) - shift}")
    return total, found, right, wrong


def footnotes_found(doc: Document, twin: Document) -> tuple[int, int, int, list[str]]:
    """(twin footnotes, of them found as footnote units of the parse, parse
    footnote units holding no twin footnote, missed footnotes).

    A twin footnote is found when the parse's footnote units hold at least
    80% of its comparison words (S2ORC twins join a page's footnotes into
    one); a parse footnote unit is spurious when no twin footnote has half
    of its words.
    """
    ours = [Counter(comparison_words(u.text)[0]) for u in doc.units if u.kind == "footnote"]
    every: Counter[str] = sum(ours, Counter())
    gold = [u.text for u in twin.units if u.kind == "footnote"]
    gold_words = [Counter(comparison_words(t)[0]) for t in gold]
    found, missed = 0, []
    for text, want in zip(gold, gold_words, strict=True):
        n = sum(want.values())
        if n and sum((want & every).values()) >= 0.8 * n:
            found += 1
        elif n:
            missed.append(text[:70])
    spurious = sum(
        1
        for have in ours
        if not any(sum((have & w).values()) >= 0.5 * sum(have.values()) for w in gold_words)
    )
    return sum(1 for w in gold_words if w), found, spurious, missed


def _holds_caption(got: str | None, want: Counter[str]) -> bool:
    have = Counter(comparison_words(got or "")[0])
    return bool(want) and sum((want & have).values()) >= 0.8 * sum(want.values())


def _plain_rows(rows: tuple[tuple[str, ...], ...]) -> list[list[str]]:
    """A LaTeX twin's cells as printed: its cells keep their source math
    (``9117$\\pm 38$``), which no PDF cell (``9117±38``) equals."""
    from pylatexenc.latex2text import LatexNodes2Text

    conv = LatexNodes2Text(math_mode="text")

    def plain(cell: str) -> str:
        # A macro it cannot print (``\\varlimsup``) stays as written: a cell
        # must not vanish from what the parse has to hold.
        if "$" not in cell and "\\" not in cell:
            return cell
        try:
            text = conv.latex_to_text(cell)
        except AttributeError:  # pylatexenc on some unbalanced macro arguments
            return cell
        return text if normalize_cell(text) else cell

    return [[plain(c) for c in r] for r in rows]


def caption_links(doc: Document, twin: Document, proj: Projection) -> tuple[int, int, list[str]]:
    """(twin tables with a caption, of them found with their caption, unlinked captions).

    A twin table is found as the projection matched it (one twin table to
    one parsed table). One float holding several tabulars under one caption
    (sub-tables, a table continued in a second tabular) is several twin
    tables but one table on the page: a twin table the one-to-one matching
    left out counts as found when the parsed tables that carry its caption
    hold at least 80% of its cells: one table holding several tabulars, or
    the parts of a table split into parts or continued on the next page,
    each linked to the one caption. A twin table with no cells (S2ORC keeps
    only the caption of some) is found when a parsed table carries its caption.
    For that holding, a LaTeX twin's cells are compared as printed (their
    math turned into text).
    """
    by_id = {u.id: u for u in doc.units}
    twin_by_id = {u.id: u for u in twin.units}
    parsed = [u.table for u in doc.units if u.table is not None]
    total, linked, missing = 0, 0, []
    for tp in proj.tables:
        gold = twin_by_id[tp.twin_id].table
        if gold is None or not gold.caption:
            continue
        total += 1
        found = by_id.get(tp.parsed_id) if tp.parsed_id and tp.found else None
        got = found.table.caption if found is not None and found.table is not None else None
        want = Counter(comparison_words(gold.caption)[0])
        if _holds_caption(got, want):
            linked += 1
            continue
        if found is None:
            cells = cell_bag(_plain_rows(gold.rows) if twin.format == "tex" else gold)
            n = sum(cells.values())
            # The parsed tables that carry the caption: one float's table, or
            # the parts of a table split or continued under one caption.
            parts = [cell_bag(t) for t in parsed if _holds_caption(t.caption, want)]
            if parts and (not n or sum((cells & sum(parts, Counter())).values()) >= 0.8 * n):
                linked += 1
                continue
        state = "no table" if found is None else f"caption {got!r}"
        missing.append(f"{gold.caption[:60]!r}: {state}")
    return total, linked, missing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--backend", default="pymupdf")
    ap.add_argument("--only", action="append", help="a pair whose name holds this (repeatable)")
    ap.add_argument("--show-leaks", action="store_true")
    ap.add_argument(
        "--pair",
        nargs=2,
        action="append",
        type=Path,
        metavar=("PDF", "TWIN"),
        help="also measure this PDF against its twin (a printed EDGAR .htm; repeatable)",
    )
    args = ap.parse_args(argv)
    extra = [Pair(pdf.stem, pdf, twin) for pdf, twin in args.pair or []]
    print(
        f"{'pair':44} {'pages':>5} {'furn':>5} {'lost':>4} {'leaks':>5} {'fffd':>4} {'cid':>4}"
        f" {'heads':>9} {'UR@0.9':>6} {'caps':>7} {'cpu s':>6}"
    )
    totals: Counter[str] = Counter()
    recalls: list[float] = []
    for pair in [*pairs(args.corpus), *extra]:
        if args.only and not any(o in pair.name for o in args.only):
            continue
        t0 = time.process_time()
        doc = docparse.parse(pair.pdf, backend=args.backend)
        cpu = time.process_time() - t0
        twin = docparse.parse(pair.twin) if pair.twin is not None else None
        lost = lost_to_furniture(doc, twin_texts(pair, twin))
        lk = leaks(doc, pdftotext_layout(pair.pdf))
        texts = unit_texts(doc)
        fffd = sum(t.count("\ufffd") for t in texts)
        cid = sum(t.count("(cid:") for t in texts)
        ur, caps, heads, unlinked, wrong = "     -", "      -", "        -", [], []
        notes, missed_fn = "       -", []
        if twin is not None:
            proj = project(twin, doc)
            recall = proj.unit_recall(0.9)
            recalls.append(recall)
            ur = f"{recall:6.3f}"
            n, ok, unlinked = caption_links(doc, twin, proj)
            caps = f"{ok:>3}/{n:<3}"
            totals["captions"] += n
            totals["linked"] += ok
            nf, ff, sf, missed_fn = footnotes_found(doc, twin)
            totals.update({"footnotes": nf, "fn_found": ff, "fn_spurious": sf})
            notes = f"{ff:>2}/{nf:<2}+{sf:<2}"
            nh, fh, rh, wrong = heading_levels(doc, twin)
            heads = f"{rh:>3}/{fh:>2}/{nh:<2}"
            totals.update({"headings": nh, "found": fh, "depth": rh})
        furn = sum(u.kind == "furniture" for u in doc.units)
        totals.update({"furniture": furn, "lost": len(lost), "leaks": len(lk)})
        totals.update({"fffd": fffd, "cid": cid})
        print(
            f"{pair.name[-44:]:44} {doc.n_pages:>5} {furn:>5} {len(lost):>4} {len(lk):>5}"
            f" {fffd:>4} {cid:>4} {heads} {notes} {ur} {caps} {cpu:>6.1f}"
        )
        if args.show_leaks:
            for text, want, have in lost[:10]:
                print(f"    furniture holds content: {text[:80]!r} (twin {want}, parse {have})")
            for page, line in lk[:10]:
                print(f"    leak p{page}: {line[:80]!r}")
            for line in unlinked:
                print(f"    caption not linked: {line}")
            for line in wrong[:10]:
                print(f"    heading depth: {line}")
            for text in missed_fn:
                print(f"    footnote not found: {text!r}")
        sys.stdout.flush()
    mean = statistics.fmean(recalls) if recalls else float("nan")
    print(
        f"total: furniture {totals['furniture']}, lost to furniture {totals['lost']},"
        f" running-line leaks {totals['leaks']}, U+FFFD {totals['fffd']}, (cid: {totals['cid']},"
        f" captions linked {totals['linked']}/{totals['captions']},"
        f" headings found {totals['found']}/{totals['headings']}"
        f" ({totals['depth']} at the twin's depth),"
        f" twin footnotes found as footnotes {totals['fn_found']}/{totals['footnotes']}"
        f" ({totals['fn_spurious']} parse footnotes hold no twin footnote),"
        f" mean UR@0.9 {mean:.3f} over {len(recalls)} twins"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
