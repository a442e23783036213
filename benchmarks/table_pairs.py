"""Generated table pairs: seeded HTML tables printed to PDF, scored against their own HTML.

Tables nobody tuned for, with exact gold. A seeded generator writes small HTML
documents, one style family each, varying what filings and papers vary:

* ``statement``: a balance sheet or cash-flow statement: section label rows,
  indented row labels, subtotal and total rows ruled above, ``$`` in its own
  cell or glued to the amount, negatives in parentheses, ``—`` for nil, an
  optional units line (``(In millions)``) and footnote markers;
* ``quarters``: an income statement under two-level spanning column heads
  (years over quarters, or periods over dates), percent columns;
* ``ruled``: a fully ruled grid of mixed text and numbers;
* ``zebra``: zebra-shaded rows, no rules, numbers right-aligned;
* ``wrapped``: a narrow label column whose labels wrap to two lines, empty cells;
* ``two``: two tables on one page with prose between them;
* ``long``: a table across a page break (Chromium repeats its head);
* ``pagepair``: two different tables of the same column count, the second
  starting the next page (they must stay two).

The generator is :mod:`benchmarks.table_pairs_html`; the LaTeX families
(``longtable`` over a page break among them) are in :mod:`benchmarks.table_pairs_tex`.

Each has a caption above, below or none, and prose paragraphs before and
after. The HTML is printed with headless Chromium
(:func:`benchmarks.edgar_tables.print_to_pdf`), the ``.htm`` read with
docparse's own reader is the gold twin, and each backend's parse of the PDF is
scored as :mod:`benchmarks.edgar_tables` scores (:func:`align.project.project`
pairs gold and parsed tables one to one on cell F1): table recall (cell F1 >=
0.5), mean cell F1 and adjacency F1 (a missed table counts 0), the matched
tables whose header row count equals the gold's, captions linked
(:func:`benchmarks.pdf_layout.caption_links`) and gold body rows of two or
more numbers found in a non-table unit (every gold table, matched or not).
One markdown table per family, a total, failure counts per class and the
worst tables (``--show N``).

    python -m benchmarks.table_pairs [--per-family N] [--seed S] [--family F ...]
        [--backend B ...] [--show N] [--out DIR] [--from DIR]

``--out DIR`` keeps the pairs (``FAMILY-SEED.htm`` and ``.pdf``; an existing
PDF is not printed again); ``--from DIR`` scores the pairs of a folder without
generating or printing (``fixtures/tables_generated`` holds a few).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("DO_NOT_TRACK", "1")

import docparse
from align.metrics.tables import cell_bag, normalize_cell
from align.project import project
from benchmarks import generated_pairs
from benchmarks.edgar_tables import number_rows, print_to_pdf
from benchmarks.generated_pairs import Pair, compile_tex
from benchmarks.pdf_layout import caption_links
from benchmarks.table_pairs_html import FAMILIES, generate
from benchmarks.table_pairs_html2 import HTML2_FAMILIES
from benchmarks.table_pairs_tex import TEX_FAMILIES, generate_tex

#: With the LaTeX families of :mod:`benchmarks.table_pairs_tex` (compiled with pdflatex)
#: and the HTML families of :mod:`benchmarks.table_pairs_html2`.
ALL_FAMILIES = (*FAMILIES, *TEX_FAMILIES, *HTML2_FAMILIES)

#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--per-family", "1", "--backend", "pymupdf"]

# ---------------------------------------------------------------------------
# Scoring


@dataclass
class TableScore:
    """One gold table against one backend's parse."""

    pair: str
    family: str
    backend: str
    found: bool
    cell_f1: float
    adjacency_f1: float
    header_equal: bool
    gold_shape: str
    got_shape: str
    leaked: int
    classes: tuple[str, ...]
    gold_text: str
    got_text: str


@dataclass
class PairScore:
    tables: list[TableScore] = field(default_factory=list)
    captions: int = 0
    linked: int = 0


def _short(table: docparse.Table | None, width: int = 50) -> str:
    if table is None:
        return "-"
    return " | ".join(c for c in table.cells() if c.strip())[:width]


def _shape(table: docparse.Table | None) -> str:
    return f"{table.n_rows}x{table.n_cols}/{table.n_header_rows}" if table else "-"


def failure_classes(
    gold: docparse.Table, got: docparse.Table | None, found: bool, parts: Sequence[int | None]
) -> list[str]:
    """The named ways ``got`` differs from ``gold`` (none when it is right).

    ``parts``: the pages of the parsed tables holding a tenth or more of the
    gold table's cells (two at least) and made of them for half their cells
    or more; two or more make it split (on one page, or across pages
    as a table continued over a page break is, one table per page).
    """
    out = []
    if len(parts) >= 2:
        out.append("split across pages" if len(set(parts)) > 1 else "split on page")
    if got is None or not found:
        return [*out, "missed"]
    if gold.n_rows != got.n_rows:
        out.append("rows fewer" if got.n_rows < gold.n_rows else "rows more")
    if gold.n_cols != got.n_cols:
        out.append("cols fewer" if got.n_cols < gold.n_cols else "cols more")
    if gold.n_header_rows != got.n_header_rows:
        out.append("header rows")
    return out


def score_pair(
    name: str, family: str, twin: docparse.Document, parsed: docparse.Document, backend: str
) -> PairScore:
    """Every gold table of ``twin`` against ``parsed``."""
    proj = project(twin, parsed)
    units = {u.id: u for u in [*twin.units, *parsed.units]}
    texts = [normalize_cell(u.text) for u in parsed.units if u.table is None]
    bags = [(u.page, cell_bag(u.table)) for u in parsed.units if u.table is not None]
    out = PairScore()
    out.captions, out.linked, _ = caption_links(parsed, twin, proj)
    for t in proj.tables:
        gold = units[t.twin_id].table
        assert gold is not None
        found = t.found and t.parsed_id is not None
        unit = units.get(str(t.parsed_id)) if t.parsed_id is not None else None
        got = unit.table if unit is not None else None
        leaked = sum(any(row in text for text in texts) for row in number_rows(gold))
        want = cell_bag(gold)
        least = max(2.0, 0.1 * sum(want.values()))
        parts = [
            page
            for page, bag in bags
            if (share := sum((want & bag).values())) >= least and 2 * share >= sum(bag.values())
        ]
        classes = failure_classes(gold, got, found, parts)
        if leaked:
            classes.append("rows leaked")
        out.tables.append(
            TableScore(
                pair=name,
                family=family,
                backend=backend,
                found=found,
                cell_f1=t.cell_f1,
                adjacency_f1=t.adjacency_f1,
                header_equal=found and got is not None and got.n_header_rows == gold.n_header_rows,
                gold_shape=_shape(gold),
                got_shape=_shape(got),
                leaked=leaked,
                classes=tuple(classes),
                gold_text=_short(gold),
                got_text=_short(got),
            )
        )
    return out


def summary_row(label: str, scores: list[PairScore]) -> str:
    tables = [t for s in scores for t in s.tables]
    n = len(tables) or 1
    matched = sum(t.found for t in tables)
    caps = sum(s.captions for s in scores)
    linked = sum(s.linked for s in scores)
    cap = f"{linked}/{caps}" if caps else "-"
    return (
        f"| {label} | {len(tables)} | {matched / n:.3f} | "
        f"{statistics.fmean(t.cell_f1 for t in tables) if tables else 0:.3f} | "
        f"{statistics.fmean(t.adjacency_f1 for t in tables) if tables else 0:.3f} | "
        f"{sum(t.header_equal for t in tables) / (matched or 1):.1%} | {cap} | "
        f"{sum(t.leaked for t in tables)} |"
    )


_HEAD = (
    "| {0} | tables | recall | cell F1 | adjacency F1 | header rows | captions | leaked rows |\n"
    "|---|--:|--:|--:|--:|--:|--:|--:|"
)


def pairs_in(folder: Path) -> list[Pair]:
    """(name, family, twin, pdf) of the printed pairs (``.htm`` or ``.tex`` twins) in ``folder``."""
    return generated_pairs.pairs_in(folder, (".htm", ".tex"))


def _source(fam: str, seed: int) -> tuple[str, str]:
    return (
        (".tex", generate_tex(fam, seed)) if fam in TEX_FAMILIES else (".htm", generate(fam, seed))
    )


def _build(twin: Path, pdf: Path) -> None:
    # ``longtable`` settles its column widths on the second run: after one, the
    # head stands over other columns than the body (``Column widths have changed``).
    compile_tex(twin, runs=2) if twin.suffix == ".tex" else print_to_pdf(twin, pdf)


def make_pairs(families: Sequence[str], per_family: int, seed: int, out: Path) -> list[Pair]:
    """Generate and print (or compile) ``per_family`` documents of each family into ``out``."""
    return generated_pairs.make_pairs(families, per_family, seed, out, _source, _build)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-family", type=int, default=8, help="documents per family")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first document")
    ap.add_argument("--family", action="append", choices=ALL_FAMILIES)
    ap.add_argument("--backend", action="append")
    ap.add_argument("--show", type=int, default=0, help="list the N worst tables per backend")
    ap.add_argument("--out", type=Path, help="keep the pairs here (reused when unchanged)")
    ap.add_argument("--from", dest="from_dir", type=Path, help="score the pairs of this folder")
    args = ap.parse_args(argv)
    backends = args.backend or ["pymupdf", "pdfplumber", "pypdfium2"]
    with tempfile.TemporaryDirectory() as tmp:
        if args.from_dir:
            pairs = pairs_in(args.from_dir)
        else:
            out = args.out or Path(tmp)
            out.mkdir(parents=True, exist_ok=True)
            pairs = make_pairs(args.family or ALL_FAMILIES, args.per_family, args.seed, out)
        if not pairs:
            print("no pairs", file=sys.stderr)
            return 2
        results: dict[str, dict[str, list[PairScore]]] = {b: {} for b in backends}
        for name, fam, source, pdf in pairs:
            twin = docparse.parse(source)
            for b in backends:
                s = score_pair(name, fam, twin, docparse.parse(pdf, backend=b), b)
                results[b].setdefault(fam, []).append(s)
    families = [f for f in ALL_FAMILIES if any(f in r for r in results.values())]
    for fam in families:
        print(f"\n### {fam} ({len(results[backends[0]].get(fam, []))} documents)\n")
        print(_HEAD.format("backend"))
        for b in backends:
            print(summary_row(b, results[b].get(fam, [])))
    print(f"\n### all families ({len(pairs)} documents)\n")
    print(_HEAD.format("backend"))
    for b in backends:
        print(summary_row(b, [s for ss in results[b].values() for s in ss]))
    print("\n### failure classes (tables)\n")
    counts = {
        b: Counter(c for ss in results[b].values() for s in ss for t in s.tables for c in t.classes)
        for b in backends
    }
    names = sorted(
        {c for cnt in counts.values() for c in cnt},
        key=lambda c: -sum(cnt[c] for cnt in counts.values()),
    )
    print("| class | " + " | ".join(backends) + " |")
    print("|---|" + "--:|" * len(backends))
    for c in names:
        print(f"| {c} | " + " | ".join(str(counts[b][c]) for b in backends) + " |")
    if args.show:
        for b in backends:
            tables = [t for ss in results[b].values() for s in ss for t in s.tables]
            tables.sort(key=lambda t: (t.adjacency_f1, t.cell_f1))
            print(
                f"\nworst tables, {b}: pair, cell F1, adjacency F1, "
                "gold and parsed rows x cols/header rows, classes"
            )
            for t in tables[: args.show]:
                print(
                    f"  {t.pair:14} {t.cell_f1:5.3f} {t.adjacency_f1:5.3f} {t.gold_shape:>8} "
                    f"{t.got_shape:>8} {','.join(t.classes) or '-':24} "
                    f"{t.gold_text!r} ~ {t.got_text!r}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
