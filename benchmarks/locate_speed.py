"""Speed of evidence location: 1,000 evidence strings in 50-, 100- and 300-page parses.

    python -m benchmarks.locate_speed [--corpus ../shared/corpus] [--n 1000]

The long document is the pymupdf parse of the Debian Reference (261 pages)
followed by the Debian maintainer guide (debmake-doc) for the remaining
pages, cut at 50, 100 and 300 pages. Evidence strings are sentences sampled
from the cut document's units: 60% verbatim, 30% perturbed (characters
dropped or changed, words removed, case changed: the fuzzy path) and 10%
text that is not in the document (shuffled words: the missing path, the
most expensive one). Timing covers building the :class:`~align.Locator`
index plus all ``locate`` calls on one core; the script prints the time per
size and the cost per page, which should not grow with length.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import re
import sys
import time
from pathlib import Path

from align.locate import Locator
from benchmarks.evidence_figures import DEFAULT_CORPUS, cached_parser
from docparse.model import Document, Provenance, SourceUnit

BOOKS = ("debian-reference-en/debian-reference.en.pdf", "debmake-doc-en/debmake-doc.en.pdf")


#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--corpus", "{corpus}", "--n", "100", "--pages", "20", "60"]


def long_document(corpus: Path, cache: Path | None) -> Document:
    """The two books as one parse with continuous page numbers."""
    parser = cached_parser("pymupdf", cache)
    units: list[SourceUnit] = []
    offset = 0
    first: Document | None = None
    for rel in BOOKS:
        doc = parser(corpus / "books" / rel)
        first = first or doc
        for u in doc.units:
            prov = tuple(Provenance(p.page + offset, p.bbox) for p in u.provenance)
            units.append(dataclasses.replace(u, provenance=prov, order=len(units)))
        offset += doc.n_pages or 0
    assert first is not None
    return dataclasses.replace(first, units=tuple(units), n_pages=offset)


def cut(doc: Document, pages: int) -> Document:
    units = tuple(u for u in doc.units if u.page is not None and u.page <= pages)
    return dataclasses.replace(doc, units=units, n_pages=pages)


def perturb(sentence: str, rng: random.Random) -> str:
    chars = list(sentence)
    for _ in range(max(1, len(chars) // 25)):
        i = rng.randrange(len(chars))
        if rng.random() < 0.5:
            del chars[i]
        else:
            chars[i] = rng.choice("abcdefghijklmnopqrstuvwxyz ")
    out = "".join(chars).split()
    if len(out) > 8 and rng.random() < 0.5:
        del out[rng.randrange(len(out))]
    text = " ".join(out)
    return text.upper() if rng.random() < 0.2 else text


def sample_evidence(doc: Document, n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    sentences = [
        s.strip()
        for u in doc.content_units()
        if u.kind in ("paragraph", "list_item")
        for s in re.split(r"(?<=[.!?])\s+", u.text)
        if 40 <= len(s.strip()) <= 400
    ]
    out = []
    for _ in range(n):
        s = rng.choice(sentences)
        r = rng.random()
        if r < 0.6:
            out.append(s)
        elif r < 0.9:
            out.append(perturb(s, rng))
        else:
            words = s.split()
            rng.shuffle(words)
            out.append(" ".join(words))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--cache", type=Path, default=None, help="keep parses here as JSON")
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--pages", type=int, nargs="+", default=[50, 100, 300])
    args = ap.parse_args(argv)
    full = long_document(args.corpus, args.cache)
    print(f"long document: {full.n_pages} pages, {len(full.units)} units")
    rows = []
    for pages in args.pages:
        doc = cut(full, pages)
        evidence = sample_evidence(doc, args.n)
        t0 = time.perf_counter()
        loc = Locator(doc)
        t1 = time.perf_counter()
        statuses: dict[str, int] = {}
        for ev in evidence:
            m = loc.locate(ev)
            statuses[m.status] = statuses.get(m.status, 0) + 1
        t2 = time.perf_counter()
        chars = len(loc.concat)
        rows.append((pages, chars, t1 - t0, t2 - t1))
        print(
            f"{pages:4d} pages {chars:9,d} chars: index {t1 - t0:.2f} s, "
            f"{args.n} locates {t2 - t1:.2f} s, total {t2 - t0:.2f} s "
            f"({1000 * (t2 - t0) / pages:.1f} ms/page)  {dict(sorted(statuses.items()))}"
        )
    if len(rows) > 1:
        (p0, c0, i0, l0), (p1, c1, i1, l1) = rows[0], rows[-1]
        growth = (i1 + l1) / (i0 + l0)
        print(
            f"length x{c1 / c0:.1f} (pages x{p1 / p0:.0f}) -> time x{growth:.2f}"
            f" ({'no worse than linear' if growth <= c1 / c0 else 'WORSE than linear'})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
