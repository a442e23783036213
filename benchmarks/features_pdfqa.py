"""docparse's source-set features against pdfQA's own values on 2510.22211v1.

Usage::

    python benchmarks/features_pdfqa.py [--corpus ../shared/corpus] [--json out.json]

For every syn-pdfQA QA record of the arXiv paper 2510.22211v1, each
``source_text`` (verbatim LaTeX) is located in docparse's parse of the ``.tex``
twin with ``align.locate(..., markup="latex")``; the located units form the
source set, and :func:`docparse.features.source_set` (``columns="pdfqa"``)
gives modality, spread, position and source count in pdfQA's conventions.

Printed: the share of records whose modality agrees with pdfQA's
``modalities_used`` (all ``text`` -> ``text``, all ``table`` -> ``table``,
otherwise ``multimodal``), and every record whose spread differs from pdfQA's
``source_spread``, with the reason:

``listed order``
    pdfQA measured from the first *listed* to the last *listed* source; the
    list is not in document order, so its value is not the document-order
    spread (its code gives 1 when the last listed source comes first).
``front matter``
    a source is the title or abstract: pdfQA's source table puts the front
    matter (title, authors, abstract) after the body, docparse keeps it where
    it is in the document, first.
``word count``
    the stretch from the first to the last source holds as many docparse
    units as pdfQA paragraphs, so the difference is how words are counted:
    pdfQA counts its ``text_only`` text (inline math and citations removed),
    docparse the clean unit text (math kept as text).
``segmentation``
    the stretch holds a different number of paragraphs: docparse and pdfQA
    cut paragraphs (or place floats such as figure captions) differently.

pdfQA's own per-record values are recomputed from its source table
(``2510.22211v1.csv``) in both listing order and document order, which is how
the reasons are told apart.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DOC_ID = "2510.22211v1"


#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--corpus", "{corpus}"]


def pdfqa_modality(used: list[str]) -> str:
    kinds = set(used)
    if kinds == {"text"}:
        return "text"
    if kinds == {"table"}:
        return "table"
    return "multimodal"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--json", type=Path, default=None, help="write per-record rows here")
    args = parser.parse_args()

    import docparse
    from align.locate import locate
    from docparse.features import source_set

    qa_dir = args.corpus / "qa_evidence" / f"pdfqa-syn-{DOC_ID}"
    records = json.loads(
        (qa_dir / f"{DOC_ID}_cfQA_gpt-4o-mini-2024-07-18.json").read_text(encoding="utf-8")
    )
    with (qa_dir / f"{DOC_ID}.csv").open(encoding="utf-8", newline="") as fh:
        table = list(csv.DictReader(fh))
    row_of = {r["source_identifier"]: i for i, r in enumerate(table)}
    cum = [0]
    for r in table:
        cum.append(cum[-1] + len(r["text_only"].split()))

    doc = docparse.parse(args.corpus / "research" / f"arxiv-{DOC_ID}" / f"{DOC_ID}.tex")
    print(
        f"{DOC_ID}.tex: {len(doc.units)} units, {doc.n_words} words; "
        f"pdfQA file_length {records[0]['file_length']}; {len(records)} QA records"
    )

    rows: list[dict[str, Any]] = []
    statuses: Counter[str] = Counter()
    for i, rec in enumerate(records):
        unit_ids: list[str] = []
        for text in rec["source_text"]:
            m = locate(text, doc, markup="latex")
            statuses[m.status] += 1
            if m.found:
                unit_ids.extend(m.unit_ids)
        theirs_mod = pdfqa_modality(rec["modalities_used"])
        if not unit_ids:
            rows.append({"record": i, "located": False, "pdfqa_modality": theirs_mod})
            continue
        ours = source_set(doc, unit_ids, columns="pdfqa")
        idx = [row_of[s] for s in rec["sources"]]
        units = sorted({doc.unit(u) for u in unit_ids}, key=lambda u: u.order)
        stretch = [
            u
            for u in doc.units
            if units[0].order <= u.order <= units[-1].order
            and u.kind not in ("heading", "title", "furniture")
        ]
        first, last = idx[0], idx[-1]
        listed = cum[last + 1] - cum[first] if last >= first else 1
        in_order = cum[max(idx) + 1] - cum[min(idx)]
        rows.append(
            {
                "record": i,
                "located": True,
                "sources": rec["sources"],
                "n_units": ours["num_sources"],
                "modality": ours["modalities"],
                "pdfqa_modality": theirs_mod,
                "spread": ours["source_spread"],
                "pdfqa_spread": rec["source_spread"],
                "pdfqa_csv_listed_order": listed,
                "pdfqa_csv_doc_order": in_order,
                "listed_out_of_order": idx != sorted(idx),
                "front_matter": any(u.kind in ("title", "abstract") for u in units),
                "same_paragraph_count": len(stretch) == max(idx) - min(idx) + 1,
                "position": ours["sources_position"],
                "pdfqa_position": rec["sources_position"],
            }
        )

    located = [r for r in rows if r["located"]]
    agree = sum(r["modality"] == r["pdfqa_modality"] for r in located)
    print(f"evidence located: {dict(statuses)}")
    print(f"records with all/any evidence located: {len(located)}/{len(rows)}")
    print(f"modality agrees with pdfQA: {agree}/{len(rows)} = {agree / len(rows):.1%}")

    print("\nspread differences (pdfQA convention: first to last source, both included):")
    print(
        f"{'rec':>3} {'ours':>6} {'pdfQA':>6} {'csv listed':>10} {'csv doc':>8} {'diff':>7}  reason"
    )
    reasons: Counter[str] = Counter()
    for r in located:
        if r["spread"] == r["pdfqa_spread"]:
            reasons["equal"] += 1
            continue
        if r["front_matter"]:
            reason = "front matter"
        elif r["listed_out_of_order"] and (r["pdfqa_csv_listed_order"] != r["pdfqa_csv_doc_order"]):
            reason = "listed order"
        elif r["same_paragraph_count"]:
            reason = "word count"
        else:
            reason = "segmentation"
        reasons[reason] += 1
        print(
            f"{r['record']:3d} {r['spread']:6d} {r['pdfqa_spread']:6d} "
            f"{r['pdfqa_csv_listed_order']:10d} {r['pdfqa_csv_doc_order']:8d} "
            f"{(r['spread'] - r['pdfqa_spread']) / max(r['pdfqa_spread'], 1):+7.1%}  {reason}"
            f"  {','.join(s.replace('Source_', '') for s in r['sources'])}"
        )
    print(f"spread: {dict(reasons)}")
    pos = sum(r["position"] == r["pdfqa_position"] for r in located)
    print(
        f"sources_position agrees: {pos}/{len(located)} (pdfQA defaults to 25 without a "
        f"majority; docparse breaks ties by the median source)"
    )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0 if agree / len(rows) >= 0.9 else 1


if __name__ == "__main__":
    raise SystemExit(main())
