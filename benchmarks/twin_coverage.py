"""Coverage of twin paragraphs located in the PDF parse of the research pairs.

    python -m benchmarks.twin_coverage [--corpus ../shared/corpus] [--backend pymupdf]
        [--paper NAME] [--worst 25] [--json out.json] [--bibtex]

For each ``research/<id>/`` pair the ``.tex`` twin is parsed and each of its
paragraph units is located (:meth:`align.locate.Locator.locate`) in the
parse of the ``.pdf``. Prints per paper the number of paragraphs, the mean
coverage of all paragraphs and of those whose LaTeX source holds a reference
(``\\ref``-family or ``\\cite``-family command), then the means over every
paragraph of every paper and the worst paragraphs with the PDF text they
matched. A twin is gold only if it prints what the PDF prints: a rendered
``\\ref`` or citation marker that differs from the PDF lowers coverage.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from align.locate import Locator
from align.project import project
from benchmarks.fidelity_research import DEFAULT_CORPUS, pairs
from docparse.api import parse
from docparse.model import Document, SourceUnit

#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--corpus", "{corpus}", "--paper", "quantum-template", "--worst", "5"]

#: LaTeX commands whose output is a reference marker (a number, label or citation).
_REFERENCE = re.compile(
    r"\\(?:[a-zA-Z]*ref|[a-zA-Z]*cite[a-zA-Z]*|citep?|citet|citealp|citeauthor|citeyear)\*?"
    r"\s*[\[{]"
)


@dataclass(frozen=True, slots=True)
class Row:
    """One twin paragraph and how much of it the PDF parse holds."""

    paper: str
    unit: SourceUnit
    coverage: float
    similarity: float
    matched: str

    @property
    def has_reference(self) -> bool:
        return bool(_REFERENCE.search(self.unit.raw))


def _matched_text(
    pdf: Document, unit_ids: tuple[str, ...], spans: tuple[tuple[int, int], ...]
) -> str:
    by_id = {u.id: u for u in pdf.units}
    return " | ".join(
        by_id[i].text[a:b] for i, (a, b) in zip(unit_ids, spans, strict=False) if i in by_id
    )


def measure(name: str, tex: Path, pdf_path: Path, backend: str, bibtex: bool = False) -> list[Row]:
    """Locate every paragraph of the twin of ``tex`` in the ``backend`` parse of ``pdf_path``."""
    twin = parse(tex, config={"bibtex": bibtex})
    pdf = parse(pdf_path, backend=backend)
    locator = Locator(pdf)
    projected = {p.twin_id: p.similarity for p in project(twin, pdf).units}
    rows = []
    for unit in twin.units:
        if unit.kind != "paragraph" or not unit.text.strip():
            continue
        m = locator.locate(unit.text, min_coverage=0.0)
        similarity = projected.get(unit.id, 0.0)
        rows.append(
            Row(name, unit, m.coverage, similarity, _matched_text(pdf, m.unit_ids, m.spans))
        )
    return rows


def _mean(rows: list[Row], field: str = "coverage") -> float:
    return statistics.fmean(getattr(r, field) for r in rows) if rows else float("nan")


def _line(label: str, rows: list[Row]) -> str:
    refs = [r for r in rows if r.has_reference]
    return (
        f"| {label} | {len(rows)} | {_mean(rows):.4f} | {len(refs)} | {_mean(refs):.4f} | "
        f"{_mean(rows, 'similarity'):.4f} | {_mean(refs, 'similarity'):.4f} |"
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--backend", default="pymupdf")
    ap.add_argument("--paper", action="append", help="only this research folder (repeatable)")
    ap.add_argument("--worst", type=int, default=25, help="list this many worst paragraphs")
    ap.add_argument("--json", type=Path, help="write every paragraph's coverage here")
    ap.add_argument(
        "--bibtex", action="store_true", help="twins as built with BibTeX (TexConfig(bibtex=True))"
    )
    args = ap.parse_args(argv)
    everything: list[Row] = []
    print(
        "| paper | paragraphs | coverage | with references | coverage (refs) "
        "| projected | projected (refs) |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, tex, pdf in pairs(args.corpus):
        if args.paper and name not in args.paper:
            continue
        rows = measure(name, tex, pdf, args.backend, args.bibtex)
        everything.extend(rows)
        print(_line(name, rows))
        sys.stdout.flush()
    print(_line("**all**", everything))
    print(
        f"\nmean coverage of twin paragraphs in the {args.backend} parse: {_mean(everything):.4f} "
        f"({len(everything)} paragraphs)"
    )
    if args.worst:
        print(f"\nworst {args.worst} paragraphs (located coverage)")
        for r in sorted(everything, key=lambda r: r.coverage)[: args.worst]:
            print(f"- {r.coverage:.3f} {r.paper}: {r.unit.text[:160]!r}")
            print(f"  PDF: {r.matched[:160]!r}")
    if args.json:
        records = [
            {
                "paper": r.paper,
                "unit": r.unit.id,
                "coverage": r.coverage,
                "similarity": r.similarity,
                "text": r.unit.text,
                "matched": r.matched,
                "has_reference": r.has_reference,
            }
            for r in everything
        ]
        args.json.write_text(json.dumps(records, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
