"""Headings of PDF parses against the PDFs' own outlines (bookmarks): a gold nobody tuned for.

Many PDFs carry an outline (``hyperref``'s bookmarks, a word processor's
navigation pane) that names the true section titles, their levels and their
pages. For every PDF with one (the TeX Live package manuals under
``/usr/share/doc/texlive-doc`` and the corpus PDFs), each backend's parse is
scored against it. Entries that name no section are left out
(:func:`is_section_entry`: a macro's entry, as the ``doc`` package bookmarks
each command it describes; an index's letter group). Then:

* ``rec``: outline entries found as heading (or title) units: the same words
  once section numbers and ``Chapter 3`` / ``Part II`` labels are left out
  (:func:`heading_key`), on the entry's page or the next;
* ``prec``: heading units (and the title units that match) that match an
  entry. Outlines often stop above the deepest headings (``\\paragraph``,
  run-in heads), so this is a lower bound;
* ``lvl``: matched headings at the outline's level, up to one shift per file
  (the most common difference: an outline whose top entry is the document's
  title holds every section one level down);
* ``path``: content units (not headings, titles or furniture) whose section
  path, read as the outline entries its headings matched, is the outline's
  path where the unit stands (:func:`section_agreement`).

Totals are over entries, headings and units of all files; the worst files
(lowest F1 of ``rec`` and ``prec``) are listed with their first misses.

    python -m benchmarks.outline_headings [--backend pymupdf ...] [--source texlive|corpus|all]
        [--max-pages 40] [--only NAME ...] [--worst 12] [--show]

``--max-pages`` parses the first pages of each file only (entries on later
pages are left out): the manuals run to 600 pages. Tables are off unless
``--tables``: headings do not depend on them and they cost most of the time.
The outline is read with PyMuPDF; the parsers never see it.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("DO_NOT_TRACK", "1")

import pymupdf

import docparse
from benchmarks.pdf_coverage import CORPUS, TEXLIVE_DOC
from docparse.model import Document, SourceUnit

#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--source", "corpus", "--corpus", "{corpus}", "--only", "acmart-sample-sigconf"]

DEFAULT_BACKENDS = ("pymupdf", "pypdfium2", "pdfplumber")

# A section number or a label in front of a title, read off as often as it
# leads (``1 A Simple Example`` and the outline's ``A Simple Example`` both
# come to ``Simple Example``: the same rule on both sides, so a letter that is
# a word is taken off both).
_LEAD = re.compile(
    r"^\s*(?:(?:chapter|part|appendix|section|lecture)\s+)?"
    r"(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*|[IVXLC]+)(?:[.:)]\s*|\s+|$)",
    re.IGNORECASE,
)
_LABEL_ONLY = re.compile(r"^\s*(?:chapter|part|appendix)\s*$", re.IGNORECASE)
_NON_WORD = re.compile(r"[\W_]+")


def heading_key(text: str) -> str:
    """The words a heading and an outline entry are compared on.

    >>> heading_key("2.1 The \\\\foo Command")
    'the foo command'
    >>> heading_key("Chapter 3 Introduction") == heading_key("Introduction")
    True
    >>> heading_key("Účel")
    'ucel'
    """
    # Accents folded away: an outline is often written in plain ASCII
    # (``pro uzivatele`` for the printed ``pro uživatele``).
    t = unicodedata.normalize("NFKD", text.replace("\u00ad", ""))
    t = "".join(c for c in t if not unicodedata.combining(c))
    for _ in range(3):
        m = _LEAD.match(t)
        if not m or not t[m.end() :].strip():
            break
        t = t[m.end() :]
    if _LABEL_ONLY.match(t):
        return ""
    return " ".join(_NON_WORD.sub(" ", t.casefold()).split())


@dataclass(frozen=True, slots=True)
class Entry:
    """One outline entry: its level (1 the top), title, 1-based page and the top
    of its destination (points from the page top)."""

    level: int
    title: str
    page: int
    top: float


def is_section_entry(title: str) -> bool:
    """An outline entry that names a section: not a macro's entry (``\\pdfoutput``,
    as the ``doc`` package bookmarks each command it describes) and three letters
    or more (not an index's letter group ``A``, nor a year ``2008``)."""
    return not title.lstrip().startswith("\\") and sum(c.isalpha() for c in title) >= 3


def outline(pdf: Path, max_pages: int = 0) -> list[Entry]:
    """The outline entries of ``pdf`` that point into it and name a section
    (:func:`is_section_entry`), in order (on its first ``max_pages`` pages when
    that is not 0)."""
    out: list[Entry] = []
    with pymupdf.open(pdf) as doc:
        heights = [p.rect.height for p in doc]
        for level, title, page, dest in doc.get_toc(simple=False):
            if page < 1 or page > len(heights) or (max_pages and page > max_pages):
                continue
            if not is_section_entry(title) or not heading_key(title):
                continue
            to = dest.get("to") if isinstance(dest, dict) else None
            # A destination point is in PDF space (origin bottom left).
            top = heights[page - 1] - float(to.y) if to is not None and to.y > 0 else 0.0
            out.append(Entry(level, title, page, max(top, 0.0)))
    return out


@dataclass(slots=True)
class Score:
    """One file's counts under one backend."""

    name: str
    entries: int = 0
    headings: int = 0
    matched: int = 0
    level_ok: int = 0
    level_n: int = 0
    units: int = 0
    path_ok: int = 0
    cpu: float = 0.0
    missed: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.matched / self.entries if self.entries else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.headings if self.headings else 1.0

    @property
    def f1(self) -> float:
        r, p = self.recall, self.precision
        return 2 * r * p / (r + p) if r + p else 0.0


def _page(u: SourceUnit) -> int:
    return u.provenance[0].page if u.provenance else 0


def _top(u: SourceUnit) -> float:
    return u.provenance[0].bbox.y0 if u.provenance and u.provenance[0].bbox else 0.0


def match(entries: Sequence[Entry], units: Sequence[SourceUnit]) -> dict[int, int]:
    """Outline entry index -> unit index of the heading or title that matches it:
    the same :func:`heading_key`, on the entry's page or the next, each unit once,
    the first free one in reading order."""
    by_key: dict[str, list[int]] = {}
    for i, u in enumerate(units):
        if u.kind in ("heading", "title"):
            by_key.setdefault(heading_key(u.text), []).append(i)
    out: dict[int, int] = {}
    used: set[int] = set()
    for k, e in enumerate(entries):
        for i in by_key.get(heading_key(e.title), ()):
            if i not in used and e.page <= _page(units[i]) <= e.page + 1:
                out[k] = i
                used.add(i)
                break
    return out


def _depth(u: SourceUnit) -> int:
    """A PDF heading unit records its parents' path: its depth is one more."""
    return len(u.section) + 1


def level_agreement(
    entries: Sequence[Entry], units: Sequence[SourceUnit], matched: dict[int, int]
) -> tuple[int, int]:
    """(matched headings at the outline's level up to the file's most common shift, of them)."""
    diffs = [
        entries[k].level - _depth(units[i])
        for k, i in matched.items()
        if units[i].kind == "heading"
    ]
    if not diffs:
        return 0, 0
    shift = Counter(diffs).most_common(1)[0][0]
    return sum(d == shift for d in diffs), len(diffs)


def _ancestors(entries: Sequence[Entry]) -> list[tuple[int, ...]]:
    """Each entry's path in the outline: the indexes of its open parents and itself."""
    out: list[tuple[int, ...]] = []
    stack: list[int] = []
    for k, e in enumerate(entries):
        while stack and entries[stack[-1]].level >= e.level:
            stack.pop()
        stack.append(k)
        out.append(tuple(stack))
    return out


def section_agreement(
    entries: Sequence[Entry], units: Sequence[SourceUnit], matched: dict[int, int]
) -> tuple[int, int]:
    """(content units whose section path agrees with the outline's, content units).

    An entry takes effect at the heading it matched, else at the first unit at
    or below its destination (page, then top less a point), and never before
    the entry ahead of it. A unit's outline path is the path of the last entry
    in effect; its parse path is its open headings that matched entries (the
    others, deeper than the outline goes, are left out), as entry indexes.
    Entries matched to a title unit are left out of both (a title opens no
    section in a PDF parse).
    """
    at_unit = {i: k for k, i in matched.items()}
    titles = {k for k, i in matched.items() if units[i].kind == "title"}
    starts: list[int] = []
    pos = 0
    for k, e in enumerate(entries):
        if k in matched:
            start = matched[k]
        else:
            start = next(
                (
                    i
                    for i in range(pos, len(units))
                    if (_page(units[i]), _top(units[i])) >= (e.page, e.top - 1.0)
                    and _page(units[i]) > 0
                ),
                len(units),
            )
        pos = max(pos, start)
        starts.append(pos)
    paths = _ancestors(entries)
    ok = n = 0
    k = -1
    open_heads: list[int] = []  # unit indexes of the open headings
    for i, u in enumerate(units):
        while k + 1 < len(entries) and starts[k + 1] <= i:
            k += 1
        if u.kind == "heading":
            depth = len(u.section)
            open_heads = [*open_heads[:depth], i]
            continue
        if u.kind in ("title", "furniture") or _page(u) == 0:
            continue
        want = tuple(x for x in paths[k] if x not in titles) if k >= 0 else ()
        got = tuple(at_unit[h] for h in open_heads[: len(u.section)] if h in at_unit)
        n += 1
        ok += got == want
    return ok, n


def score(name: str, entries: Sequence[Entry], doc: Document, cpu: float = 0.0) -> Score:
    """One file's :class:`Score` of ``doc`` against its outline ``entries``."""
    units = doc.units
    matched = match(entries, units)
    s = Score(name, entries=len(entries), cpu=cpu)
    hit = set(matched.values())
    # A title unit no entry names is the document's title, not a false heading.
    s.headings = sum(
        u.kind == "heading" or (u.kind == "title" and i in hit) for i, u in enumerate(units)
    )
    s.matched = len(matched)
    s.level_ok, s.level_n = level_agreement(entries, units, matched)
    s.path_ok, s.units = section_agreement(entries, units, matched)
    s.missed = [
        f"p{e.page} L{e.level} {e.title[:60]!r}" for k, e in enumerate(entries) if k not in matched
    ]
    s.extra = [
        f"p{_page(u)} {u.text[:60]!r}"
        for i, u in enumerate(units)
        if u.kind == "heading" and i not in hit
    ]
    return s


def pdfs(source: str, corpus: Path) -> list[tuple[str, Path]]:
    """(name, path) of the PDFs of ``source``: ``texlive``, ``corpus`` or ``all``."""
    out: list[tuple[str, Path]] = []
    if source in ("texlive", "all"):
        out += [(str(p.relative_to(TEXLIVE_DOC)), p) for p in sorted(TEXLIVE_DOC.rglob("*.pdf"))]
    if source in ("corpus", "all"):
        out += [(str(p.relative_to(corpus)), p) for p in sorted(corpus.rglob("*.pdf"))]
    return out


def _share(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "    -"


def summary(backend: str, scores: Sequence[Score]) -> str:
    """One backend's totals over ``scores``: one line."""
    e = sum(s.entries for s in scores)
    h = sum(s.headings for s in scores)
    m = sum(s.matched for s in scores)
    lo, ln = sum(s.level_ok for s in scores), sum(s.level_n for s in scores)
    po, pn = sum(s.path_ok for s in scores), sum(s.units for s in scores)
    cpu = sum(s.cpu for s in scores)
    return (
        f"{backend:11} files {len(scores):>4}  entries {e:>5}  headings {h:>5}  matched {m:>5}"
        f"  rec {_share(m, e)}  prec {_share(m, h)}  lvl {_share(lo, ln)}  path {_share(po, pn)}"
        f"  cpu {cpu:7.1f}"
    )


def outlined(args: argparse.Namespace) -> list[tuple[str, Path, list[Entry]]]:
    """(name, path, section entries) of the PDFs the arguments select."""
    files = []
    for name, path in pdfs(args.source, args.corpus):
        if args.only and not any(o in name for o in args.only):
            continue
        try:
            entries = outline(path, args.max_pages)
        except (RuntimeError, ValueError) as exc:  # a PDF PyMuPDF cannot open
            print(f"skipped {name}: {exc}", file=sys.stderr)
            continue
        if len(entries) >= args.min_entries:
            files.append((name, path, entries))
    return files


def run_backend(
    backend: str, files: Sequence[tuple[str, Path, list[Entry]]], args: argparse.Namespace
) -> list[Score]:
    """Parse and score every file with ``backend`` (rows with misses under ``--show``)."""
    scores = []
    for name, path, entries in files:
        cfg: dict[str, object] = {"ocr": "off", "tables": args.tables}
        if args.max_pages:
            with pymupdf.open(path) as d:
                cfg["pages"] = [1, max(1, min(d.page_count, args.max_pages))]
        t0 = time.process_time()
        try:
            doc = docparse.parse(path, backend=backend, config=cfg)
        except docparse.DocparseError as exc:
            print(f"{backend} failed on {name}: {exc}", file=sys.stderr)
            continue
        s = score(name, entries, doc, time.process_time() - t0)
        scores.append(s)
        if args.show:
            print(
                f"{backend:11} {name[-60:]:60} rec {s.recall:.3f} prec {s.precision:.3f}"
                f" lvl {_share(s.level_ok, s.level_n)} path {_share(s.path_ok, s.units)}"
            )
            for line in s.missed[:15]:
                print(f"    missed {line}")
            for line in s.extra[:15]:
                print(f"    extra  {line}")
            sys.stdout.flush()
    return scores


def print_worst(scores: Sequence[Score], n: int) -> None:
    """The ``n`` files of lowest F1, with their first misses and extras."""
    for s in sorted(scores, key=lambda s: (s.f1, s.name))[:n]:
        print(
            f"    {s.name[-58:]:58} F1 {s.f1:.3f} rec {s.matched:>3}/{s.entries:<3}"
            f" prec {s.matched:>3}/{s.headings:<3} path {_share(s.path_ok, s.units)}"
        )
        for line in s.missed[:3]:
            print(f"        missed {line}")
        for line in s.extra[:2]:
            print(f"        extra  {line}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--source", choices=("texlive", "corpus", "all"), default="all")
    ap.add_argument("--backend", action="append", choices=DEFAULT_BACKENDS)
    ap.add_argument("--max-pages", type=int, default=40, help="0: every page")
    ap.add_argument("--min-entries", type=int, default=3, help="files with fewer are left out")
    ap.add_argument("--only", action="append", help="a file whose name holds this (repeatable)")
    ap.add_argument("--worst", type=int, default=12, help="list the N worst files per backend")
    ap.add_argument("--show", action="store_true", help="every file's row, misses and extras")
    ap.add_argument("--tables", action="store_true")
    args = ap.parse_args(argv)
    files = outlined(args)
    if not files:
        print("no PDF with an outline found")
        return 0
    rows = []
    for backend in args.backend or DEFAULT_BACKENDS:
        scores = run_backend(backend, files, args)
        rows.append(summary(backend, scores))
        print(rows[-1])
        print_worst(scores, args.worst)
        sys.stdout.flush()
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
