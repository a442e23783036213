"""Generated document pairs: seeded LaTeX documents, pdflatex-compiled, scored against their source.

Text structure nobody tuned for, with exact gold. :mod:`benchmarks.doc_pairs_tex`
writes seeded documents of five layout families (``article``, ``twocolumn``,
``report``, ``amsart``, ``lineno``), each drawing its font, size, margins,
running heads and content at random; pdflatex compiles them, the ``.tex`` read
by docparse's LaTeX reader is the twin, and each PDF backend's parse is
projected onto it (:func:`align.project.project`). Per family and backend:

* ``UR``: twin unit recall at similarity 0.9 over text units, then per kind:
  ``para`` (paragraph, abstract, quote), ``list`` (list items), ``head``
  (headings), ``cap`` (captions), ``note`` (footnotes), ``code``;
* ``heads``: twin headings found as headings of the parse, and of them at the
  twin's depth (:func:`benchmarks.pdf_layout.heading_levels`);
* ``cap whole``: twin captions read whole (:func:`caption_faults` names no fault): found
  at 0.9 as one parsed unit of the caption kind, a table's caption linked (``related``)
  to the parsed table its twin table was matched with;
* ``tau``: Kendall tau of the matched units' parsed positions (reading order);
* ``split``/``merged``: twin text units the parse cut into two or more units
  or joined with another;
* ``lost``: furniture units of the parse that hold a twin text piece
  (:func:`benchmarks.pdf_layout.lost_to_furniture`): content taken as furniture;
* ``leaked``: furniture taken as content: pages where a content unit holds the
  document's running head, plus bare numbers (page and line numbers) in the
  parse's content units beyond those of the twin, per page;
* ``spur``: share of parsed words that match nothing in the twin.

    python -m benchmarks.doc_pairs [--per-family N] [--seed S] [--family F ...]
        [--backend pymupdf|pdfplumber|pypdfium2|all ...] [--show N] [--out DIR] [--from DIR]
        [--check]

``--out DIR`` keeps the pairs (``FAMILY-SEED.tex`` and ``.pdf``; an unchanged
pair is not compiled again); ``--from DIR`` scores the pairs of a folder
without TeX (``fixtures/docs_generated`` holds a few). ``--check`` scores the
twins against ``pdftotext`` first, to show what the twin holds that the PDF
does not print (a generator or reader fault, not the parser's). ``--show N``
lists the N worst units per backend.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("DO_NOT_TRACK", "1")

import docparse
from align.project import Projection, UnitProjection, comparison_words, project
from benchmarks import generated_pairs
from benchmarks.doc_pairs_tex import DOC_FAMILIES, furniture_of, generate_doc
from benchmarks.generated_pairs import compile_tex
from benchmarks.pdf_layout import Pair, heading_levels, lost_to_furniture, twin_texts
from docparse.model import Document, SourceUnit
from docparse.registry import PDF_BACKENDS

#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--per-family", "1", "--backend", "pymupdf"]

#: Score groups of twin unit kinds.
GROUPS = {
    "para": ("paragraph", "abstract", "quote"),
    "list": ("list_item",),
    "head": ("heading",),
    "cap": ("caption",),
    "note": ("footnote",),
    "code": ("code",),
}
_TEXT = frozenset(k for kinds in GROUPS.values() for k in kinds)
_RUNNING = ("paragraph", "abstract", "quote", "list_item", "footnote", "caption")
_NUMBER = re.compile(r"^\d{1,4}$")


@dataclass
class DocScore:
    """One pair against one backend's parse."""

    name: str
    family: str
    backend: str
    pages: int
    kinds: dict[str, tuple[int, int]]  # group -> (twin units, recalled at 0.9)
    headings: tuple[int, int, int]  # twin headings, found, at the twin's depth
    tau: float | None
    split: int
    merged: int
    running: int  # twin running-text units (for split/merged shares)
    lost: int
    head_leaks: int
    number_leaks: int
    spurious: float
    captions: tuple[int, int] = (0, 0)  # twin captions, read whole
    worst: list[tuple[float, str, str, str]] = field(default_factory=list)


def bare_numbers(texts: Sequence[str]) -> int:
    """Bare numbers of ``texts``, but for the mark a unit opens with (a section or footnote
    number the twin does not write); a unit that is one number (a page number) counts."""
    n = 0
    for t in texts:
        words = t.split()
        n += sum(1 for w in words[len(words) > 1 :] if _NUMBER.match(w))
    return n


def _phrase(text: str) -> str:
    return " ".join(comparison_words(text)[0])


def head_leaks(doc: Document, heads: Sequence[str]) -> int:
    """Pages on which a content unit holds one of the running heads ``heads``."""
    phrases = [p for p in (_phrase(h) for h in heads) if p]
    pages = set()
    for u in doc.content_units():
        text = f" {_phrase(u.text)} "
        if any(f" {p} " in text for p in phrases):
            pages.add((u.page, u.text[:20]))
    return len(pages)


def caption_faults(
    unit: UnitProjection,
    twin_units: dict[str, SourceUnit],
    parsed_units: dict[str, SourceUnit],
    tables: dict[str, str | None],
) -> list[str]:
    """What keeps the twin caption ``unit`` (a projected unit) from being read whole:
    ``found`` (below 0.9), ``kind`` (a parsed unit of another kind holds it), ``one``
    (split or merged), ``link`` (a table's caption not linked to the parsed table its
    twin table was matched with, ``tables``: twin id -> parsed id), ``table`` (that
    table not found). ``twin_units`` and ``parsed_units`` are the documents' units by id.
    """
    faults = []
    if unit.similarity < 0.9:
        faults.append("found")
    held = [parsed_units[i] for i in unit.parsed_ids if i in parsed_units]
    if any(u.kind != "caption" for u in held):
        faults.append("kind")
    if unit.status != "matched":
        faults.append("one")
    own = [r for r in twin_units[unit.twin_id].related if twin_units[r].table is not None]
    if own:
        parsed = [tables.get(r) for r in own]
        if not any(p and any(p in u.related for u in held) for p in parsed):
            faults.append("link" if all(parsed) else "table")
    return faults


def score_doc(
    name: str, family: str, twin: Document, parsed: Document, backend: str, heads: Sequence[str]
) -> DocScore:
    """``parsed`` (one backend's parse of the PDF) against ``twin`` (its ``.tex``)."""
    proj: Projection = project(twin, parsed)
    units = [u for u in proj.units if u.kind in _TEXT]
    kinds = {}
    for group, members in GROUPS.items():
        us = [u for u in units if u.kind in members]
        kinds[group] = (len(us), sum(u.similarity >= 0.9 for u in us))
    running = [u for u in units if u.kind in _RUNNING]
    texts = {u.id: u.text for u in twin.units}
    worst = [
        (u.similarity, u.status, u.kind, texts[u.twin_id][:90])
        for u in units
        if u.status != "matched" or u.similarity < 0.9
    ]
    twin_units = {u.id: u for u in twin.units}
    parsed_units = {u.id: u for u in parsed.units}
    tables = {t.twin_id: t.parsed_id for t in proj.tables}
    whole = 0
    for u in units:
        if u.kind == "caption":
            faults = caption_faults(u, twin_units, parsed_units, tables)
            whole += not faults
            if faults and u.similarity >= 0.9 and u.status == "matched":
                worst.append((u.similarity, "+".join(faults), u.kind, texts[u.twin_id][:90]))
    worst.sort(key=lambda w: w[0])
    # Table cells count on both sides: a table read as paragraphs holds its numbers too.
    content = [u.text for u in parsed.content_units()]
    twin_numbers = bare_numbers([u.text for u in twin.units])
    total, found, right, _ = heading_levels(parsed, twin)
    return DocScore(
        name=name,
        family=family,
        backend=backend,
        pages=parsed.n_pages,
        kinds=kinds,
        headings=(total, found, right),
        tau=proj.kendall_tau(units),
        split=sum(u.status == "split" for u in running),
        merged=sum(u.status == "merged" for u in running),
        running=len(running),
        lost=len(lost_to_furniture(parsed, twin_texts(Pair(name, Path(), None), twin))),
        head_leaks=head_leaks(parsed, heads),
        number_leaks=max(0, bare_numbers(content) - twin_numbers),
        spurious=proj.spurious(),
        captions=(kinds["cap"][0], whole),
        worst=worst,
    )


def _share(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "-"


def summary_row(label: str, scores: Sequence[DocScore]) -> str:
    """One markdown row of the figures of ``scores``."""
    kinds = {g: [sum(s.kinds[g][i] for s in scores) for i in (0, 1)] for g in GROUPS}
    n = sum(v[0] for v in kinds.values())
    ok = sum(v[1] for v in kinds.values())
    heads = [sum(s.headings[i] for s in scores) for i in range(3)]
    taus = [s.tau for s in scores if s.tau is not None]
    running = sum(s.running for s in scores)
    pages = sum(s.pages for s in scores) or 1
    return (
        f"| {label} | {len(scores)} | {n} | {_share(ok, n)} | "
        + " | ".join(_share(kinds[g][1], kinds[g][0]) for g in GROUPS)
        + f" | {_share(sum(s.captions[1] for s in scores), sum(s.captions[0] for s in scores))}"
        + f" | {heads[2]}/{heads[1]}/{heads[0]}"
        + f" | {statistics.fmean(taus) if taus else 0:.3f}"
        + f" | {_share(sum(s.split for s in scores), running)}"
        + f" | {_share(sum(s.merged for s in scores), running)}"
        + f" | {sum(s.lost for s in scores)}"
        + f" | {sum(s.head_leaks for s in scores)}"
        + f" | {sum(s.number_leaks for s in scores) / pages:.1f}"
        + f" | {statistics.fmean(s.spurious for s in scores) if scores else 0:.3f} |"
    )


_HEAD = (
    "| {0} | docs | units | UR | "
    + " | ".join(GROUPS)
    + " | cap whole | heads depth/found/all | tau | split | merged | lost | head leaks"
    + " | numbers/page | spur |\n"
    + "|---|--:|--:|--:|"
    + "--:|" * len(GROUPS)
    + "--:|--:|--:|--:|--:|--:|--:|--:|--:|"
)


def pairs_in(folder: Path) -> list[generated_pairs.Pair]:
    """(name, family, twin, pdf) of the compiled pairs in ``folder``."""
    return generated_pairs.pairs_in(folder)


def make_pairs(
    families: Sequence[str], per_family: int, seed: int, out: Path
) -> list[generated_pairs.Pair]:
    """Generate and compile ``per_family`` documents of each family into ``out`` (pdflatex
    twice: references settle on the second run)."""
    return generated_pairs.make_pairs(
        families,
        per_family,
        seed,
        out,
        lambda fam, seed: (".tex", generate_doc(fam, seed)),
        lambda twin, _pdf: compile_tex(twin, runs=2),
    )


def check_twin(twin: Document, pdf: Path, tmp: Path) -> list[str]:
    """Twin text units that ``pdftotext`` does not hold at similarity 0.9."""
    txt = tmp / f"{pdf.stem}.txt"
    subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), str(txt)], check=True)
    proj = project(twin, docparse.parse(txt))
    texts = {u.id: u.text for u in twin.units}
    return [
        f"{u.kind} {u.similarity:.2f} {texts[u.twin_id][:70]!r}"
        for u in proj.units
        if u.kind in _TEXT and u.similarity < 0.9
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-family", type=int, default=6, help="documents per family")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first document")
    ap.add_argument("--family", action="append", choices=DOC_FAMILIES)
    ap.add_argument("--backend", action="append", choices=("all", *PDF_BACKENDS))
    ap.add_argument("--show", type=int, default=0, help="list the N worst units per backend")
    ap.add_argument("--out", type=Path, help="keep the pairs here (reused when unchanged)")
    ap.add_argument("--from", dest="from_dir", type=Path, help="score the pairs of this folder")
    ap.add_argument("--check", action="store_true", help="check the twins against pdftotext")
    args = ap.parse_args(argv)
    chosen = args.backend or ["pymupdf", "pdfplumber", "pypdfium2"]
    backends = ["pymupdf", "pdfplumber", "pypdfium2"] if "all" in chosen else chosen
    results: dict[str, dict[str, list[DocScore]]] = {b: {} for b in backends}
    with tempfile.TemporaryDirectory() as tmp:
        if args.from_dir:
            pairs = [p for p in pairs_in(args.from_dir) if p[1] in (args.family or DOC_FAMILIES)]
        else:
            out = args.out or Path(tmp)
            out.mkdir(parents=True, exist_ok=True)
            pairs = make_pairs(args.family or DOC_FAMILIES, args.per_family, args.seed, out)
        if not pairs:
            print("no pairs", file=sys.stderr)
            return 2
        for name, fam, source, pdf in pairs:
            twin = docparse.parse(source)
            heads = furniture_of(source.read_text(encoding="utf-8"))
            if args.check:
                for line in check_twin(twin, pdf, Path(tmp)):
                    print(f"twin check {name}: {line}")
            for b in backends:
                s = score_doc(name, fam, twin, docparse.parse(pdf, backend=b), b, heads)
                results[b].setdefault(fam, []).append(s)
            sys.stdout.flush()
    families = [f for f in DOC_FAMILIES if any(f in r for r in results.values())]
    for fam in families:
        print(f"\n### {fam} ({len(results[backends[0]].get(fam, []))} documents)\n")
        print(_HEAD.format("backend"))
        for b in backends:
            print(summary_row(b, results[b].get(fam, [])))
    print(f"\n### all families ({len(pairs)} documents)\n")
    print(_HEAD.format("backend"))
    for b in backends:
        print(summary_row(b, [s for ss in results[b].values() for s in ss]))
    if args.show:
        for b in backends:
            worst = [(w, s.name) for ss in results[b].values() for s in ss for w in s.worst]
            worst.sort(key=lambda x: x[0][0])
            print(f"\nworst units, {b}: pair, similarity, status, kind, twin text")
            for (sim, status, kind, text), name in worst[: args.show]:
                print(f"  {name:14} {sim:5.2f} {status:8} {kind:10} {text!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
