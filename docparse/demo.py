"""The ``make demo`` job: a real PDF and its LaTeX twin, parsed and compared.

    python -m docparse.demo [--twin X.tex --pdf X.pdf] [--backend all]

By default it uses the bundled PMLR sample paper (TeX Live, LPPL) under
``fixtures/``: it parses the twin and the PDF, prints a summary of each, scores
the PDF parse against the twin (unit recall, NED, reading order, tables) and
locates one twin paragraph in the PDF parse.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
_TWIN = _ROOT / "fixtures" / "research" / "jmlr-pmlr-sample" / "pmlr-sample.tex"
_PDF = _ROOT / "fixtures" / "pdf" / "jmlr-pmlr-sample" / "pmlr-sample.pdf"


def main(argv: list[str] | None = None) -> None:
    os.environ.setdefault("DO_NOT_TRACK", "1")
    ap = argparse.ArgumentParser(prog="python -m docparse.demo", description=__doc__)
    ap.add_argument("--twin", type=Path, default=_TWIN)
    ap.add_argument("--pdf", type=Path, default=_PDF)
    ap.add_argument("--backend", default="pymupdf", help="PDF backend, or 'all'.")
    args = ap.parse_args(argv)

    from rich.console import Console

    import align
    from align.fidelity import fidelity
    from docparse import parse
    from docparse.cli.fidelity_cmds import print_fidelity
    from docparse.cli.parse_cmds import print_summary
    from docparse.registry import installed_pdf_backends

    console = Console()
    console.rule("structured twin")
    twin = parse(args.twin)
    print_summary(twin)
    console.rule(f"PDF ({args.backend})")
    backends = installed_pdf_backends() if args.backend == "all" else (args.backend,)
    pdf = parse(args.pdf, backend=backends[0])
    print_summary(pdf)

    console.rule("fidelity of the PDF parse against the twin")
    print_fidelity(fidelity(twin, str(args.pdf), backends).summary())

    paragraph = max(
        (u for u in twin.units if u.kind == "paragraph" and "$" not in u.text),
        key=lambda u: u.n_words,
        default=None,
    )
    if paragraph is not None:
        match = align.locate(paragraph.text, pdf)
        console.rule("one twin paragraph located in the PDF parse")
        console.print(f"[italic]{paragraph.text[:160]}...[/italic]")
        console.print(
            f"status={match.status} coverage={match.coverage:.3f} pages={list(match.pages)} "
            f"units={len(match.unit_ids)}"
        )


if __name__ == "__main__":
    main()
