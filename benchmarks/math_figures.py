"""Math evidence on the research pairs: twin equations and inline-math paragraphs in a PDF parse.

    python -m benchmarks.math_figures [--corpus ../shared/corpus] [--backend pymupdf] [-v]

For each ``research/<id>/`` pair the ``.tex`` twin is parsed and projected
onto the PDF parse (:func:`align.project.project`): every twin ``equation``
unit is located as the glyphs the PDF prints (``equations`` in the
projection, coverage = share of its glyphs found). Paragraphs and list items
of the twin holding inline math are located with :func:`align.locate`.
Prints the share of each located at coverage >= 0.9 (targets: equations
>= 85%, inline-math paragraphs >= 95%); ``-v`` lists the ones that are not.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from align.locate import Locator
from align.math import has_math
from align.project import project
from benchmarks.evidence_figures import DEFAULT_CORPUS, cached_parser, rate
from benchmarks.fidelity_research import pairs

#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--corpus", "{corpus}"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--backend", default="pymupdf")
    ap.add_argument(
        "--cache", type=Path, default=None, help="keep parses here (see evidence_figures)"
    )
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    eq_ok = eq_n = inl_ok = inl_n = 0
    for name, tex, pdf in pairs(args.corpus):
        twin = cached_parser("tex", args.cache)(tex)
        parsed = cached_parser(args.backend, args.cache)(pdf)
        eqs = project(twin, parsed).equations
        ok = sum(e.similarity >= 0.9 for e in eqs)
        loc = Locator(parsed)
        inline = [
            u for u in twin.units if u.kind in ("paragraph", "list_item") and has_math(u.text)
        ]
        found = [loc.locate(u.text) for u in inline]
        print(
            f"{name:26} equations {rate(ok, len(eqs)):>18}   inline-math paragraphs "
            f"{rate(sum(m.found for m in found), len(found)):>18}"
        )
        if args.verbose:
            text = {u.id: u.text for u in twin.units}
            for e in eqs:
                if e.similarity < 0.9:
                    print(f"    equation {e.status} {e.similarity:.3f} {text[e.twin_id][:90]!r}")
            for u, m in zip(inline, found, strict=True):
                if not m.found:
                    print(f"    inline {m.status} {m.coverage:.3f} {u.text[:90]!r}")
        eq_ok += ok
        eq_n += len(eqs)
        inl_ok += sum(m.found for m in found)
        inl_n += len(found)
    print(f"equations located (coverage >= 0.9): {rate(eq_ok, eq_n)} (target >= 85%)")
    print(f"inline-math paragraphs located: {rate(inl_ok, inl_n)} (target >= 95%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
