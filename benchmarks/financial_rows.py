"""Table rows leaked into text and misshapen tables in filing PDFs, without a twin.

For every filing PDF (10-K/10-Q/annual and company reports) and each PDF
backend, the parse is checked for what a reader of a financial statement
would see as wrong, with no gold needed:

* ``leaks``: paragraph, heading and list units whose text is a table row
  (:func:`row_text`): a short label with a run of two or more amounts
  (``1,234``, ``$ 56``, ``(7.8)``, ``12%``, ``—``) or a bare run of numbers
  (a year header ``2023 2022 2021`` is one); ``runs`` counts the amount runs
  in them, so a paragraph holding five statement rows weighs five;
* ``ragged``: table units whose rows differ in length;
* ``shifted``: table units with a body row whose amounts sit one column off
  the columns most rows with as many amounts use (:func:`shifted_rows`),
  the sign of a ``$`` or ``%`` cell taking a value's place;
* ``symbols``: table units with a body cell that is only ``$``, ``%``,
  ``(`` or ``)`` (the sign split from its amount).

The pages with most leaks are listed to look at with ``docparse draw``;
``--show N`` prints up to N leaked texts per document.

    python -m benchmarks.financial_rows [PDF ...] [--backend B ...] [--show N] [--max-pages N]

Without PDFs: the PDFs under ``../shared/corpus/financial`` and the company
reports among the QA sources (``qa_evidence/uda-finqa-*``,
``uda-tatdqa-*``, ``climretrieve-*``). Lower is better on every column.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("DO_NOT_TRACK", "1")

import docparse

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
#: QA source folders holding company reports (the rest are papers and wiki pages).
REPORT_FOLDERS = ("uda-finqa-*", "uda-tatdqa-*", "climretrieve-*")
TEXT_KINDS = frozenset({"paragraph", "heading", "list_item", "title", "abstract"})

#: An amount as a statement prints it: sign or currency, digits, a decimal or
#: thousands separator, closing parenthesis or percent; a dash stands for nil.
_AMOUNT = re.compile(
    r"^(?:[(\-–—+]?[$€£¥]?\(?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\)?%?\)?|[—–-]{1,2})$"
)
#: A note marker (``(2)``), not a parenthesised amount.
_MARKER = re.compile(r"^\(\d\)$")
#: Signs a statement sets apart from their amounts.
_SIGN = re.compile(r"^(?:[$€£¥]|%|\(|\)|\)%|%\))$")
#: A sentence break inside the label: the unit is prose, not a row.
_SENTENCE = re.compile(r"[a-z]{2}[.;]\s+[A-Z]")
_MAX_LABEL_WORDS = 15

#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = [
    "{corpus}/financial/AMAZON_2017_10K/AMAZON_2017_10K.pdf",
    "--backend",
    "pymupdf",
    "--max-pages",
    "30",
]


def filing_pdfs(corpus: Path) -> list[Path]:
    """The filing and company-report PDFs of ``corpus`` (see the module docstring)."""
    found = set((corpus / "financial").rglob("*.pdf"))
    for pattern in REPORT_FOLDERS:
        for folder in (corpus / "qa_evidence").glob(pattern):
            found.update(folder.rglob("*.pdf"))
    return sorted(found)


def _is_amount(token: str) -> bool:
    return bool(_AMOUNT.match(token)) and not _MARKER.match(token)


def amount_runs(text: str) -> list[int]:
    """Lengths of the runs of two or more consecutive amounts in ``text``.

    A sign standing alone (``$ 2,632``) belongs to the amount next to it, so
    it neither breaks nor lengthens a run; a number ending a clause
    (``2021,``) and a note marker (``(2)``) are no amounts, and a run needs
    two amounts with digits (a dash alone stands for nil).
    """
    runs: list[int] = []
    run = digits = 0
    for tok in [*text.split(), ""]:
        if _SIGN.match(tok):
            continue
        if _is_amount(tok):
            run += 1
            digits += any(c.isdigit() for c in tok)
            continue
        if run >= 2 and digits >= 2:
            runs.append(run)
        run = digits = 0
    return runs


def row_text(text: str) -> int:
    """How many table rows ``text`` reads as (0: none), by :func:`amount_runs`.

    A row is a label of at most 15 words per run with no sentence break,
    with two or more amounts, or a bare run of numbers.
    """
    runs = amount_runs(text)
    if not runs:
        return 0
    words = [t for t in text.split() if not _is_amount(t) and not _SIGN.match(t)]
    if len(words) > _MAX_LABEL_WORDS * len(runs) or _SENTENCE.search(text):
        return 0
    return len(runs)


def _numeric(cell: str) -> bool:
    toks = [t for t in cell.split() if not _SIGN.match(t)]
    return bool(toks) and all(_is_amount(t) for t in toks) and any(c.isdigit() for c in cell)


def shifted_rows(table: docparse.Table) -> int:
    """Body rows whose amounts sit one column off the usual columns.

    Among body rows with two or more amounts, the most common count ``k`` of
    amounts and, among rows with ``k``, the most common set of columns
    holding them, set the table's value columns. A row with ``k`` amounts in
    other columns, each within one column of the usual one, is shifted.
    """
    sets = []
    for row in table.rows[table.n_header_rows :]:
        cols = tuple(i for i, c in enumerate(row) if i > 0 and _numeric(c))
        if len(cols) >= 2:
            sets.append(cols)
    if len(sets) < 3:
        return 0
    k = Counter(len(s) for s in sets).most_common(1)[0][0]
    usual = Counter(s for s in sets if len(s) == k).most_common(1)[0][0]
    return sum(
        1
        for s in sets
        if len(s) == k
        and s != usual
        and all(abs(a - b) <= 1 for a, b in zip(s, usual, strict=True))
    )


def check(doc: docparse.Document) -> dict[str, object]:
    """The counts of one parse (see the module docstring) and the leaks per page."""
    leaks = runs = ragged = shifted = symbols = tables = 0
    pages: Counter[int] = Counter()
    texts: list[str] = []
    for u in doc.units:
        if u.kind in TEXT_KINDS:
            n = row_text(u.text)
            if n:
                leaks += 1
                runs += n
                pages[u.page if u.page is not None else -1] += n
                texts.append(f"p{u.page} {u.kind}: {u.text[:110]!r}")
        elif u.table is not None:
            t = u.table
            tables += 1
            ragged += len({len(r) for r in t.rows}) > 1
            shifted += shifted_rows(t) > 0
            body = t.rows[t.n_header_rows :]
            symbols += any(_SIGN.match(c.strip()) for r in body for c in r if c.strip())
    return {
        "tables": tables,
        "leaks": leaks,
        "runs": runs,
        "ragged": ragged,
        "shifted": shifted,
        "symbols": symbols,
        "pages": pages,
        "texts": texts,
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pdf", nargs="*", type=Path)
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--backend", action="append")
    ap.add_argument(
        "--max-pages", type=int, default=0, help="parse only the first N pages (0: all)"
    )
    ap.add_argument("--show", type=int, default=0, help="print up to N leaked texts per document")
    args = ap.parse_args(argv)
    pdfs = args.pdf or filing_pdfs(args.corpus)
    backends = args.backend or ["pymupdf", "pdfplumber"]
    if not pdfs:
        print(f"no filing PDFs under {args.corpus}", file=sys.stderr)
        return 2
    print(
        f"| {'pdf':32} | {'backend':10} | tables | leaks | runs | ragged | shifted | symbols "
        "| worst pages (runs) | CPU s |"
    )
    print("|---|---|--:|--:|--:|--:|--:|--:|---|--:|")
    totals: dict[str, Counter[str]] = {b: Counter() for b in backends}
    for pdf in pdfs:
        for b in backends:
            t0 = time.process_time()
            config = {"pages": (1, args.max_pages)} if args.max_pages else None
            doc = docparse.parse(pdf, backend=b, config=config)
            cpu = time.process_time() - t0
            r = check(doc)
            worst = r["pages"]
            assert isinstance(worst, Counter)
            top = " ".join(f"{p}({n})" for p, n in worst.most_common(3))
            keys = ("tables", "leaks", "runs", "ragged", "shifted", "symbols")
            for k in keys:
                v = r[k]
                assert isinstance(v, int)
                totals[b][k] += v
            print(
                f"| {pdf.stem[:32]:32} | {b:10} | "
                + " | ".join(f"{r[k]:>{max(len(k), 5)}}" for k in keys)
                + f" | {top} | {cpu:.1f} |",
                flush=True,
            )
            texts = r["texts"]
            assert isinstance(texts, list)
            for line in texts[: args.show]:
                print(f"    {line}")
    for b in backends:
        t = totals[b]
        print(
            f"| {'TOTAL':32} | {b:10} | "
            + " | ".join(
                f"{t[k]:>{max(len(k), 5)}}"
                for k in ("tables", "leaks", "runs", "ragged", "shifted", "symbols")
            )
            + " | | |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
