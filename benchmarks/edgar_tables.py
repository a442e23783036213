"""Tables of an EDGAR filing printed to PDF, scored against the filing's own ``.htm`` (its twin).

The ``.htm`` is printed with headless Chromium (Debian package ``chromium``)
unless a printed PDF is given, then parsed with each PDF backend and with the
``.htm`` reader; :func:`align.project.project` pairs twin and parsed tables
one to one on cell F1. Over the twin tables of at least ``--min-rows`` rows it
prints table recall (cell F1 >= 0.5), mean cell F1 and mean ICDAR-2013
adjacency F1 (unmatched tables count 0), the share of matched tables whose
header row count equals the twin's, and the units whose text holds a number
row of a matched table's body (a table row leaked into the text).

    python -m benchmarks.edgar_tables [HTM ...] [--pdf PRINTED.pdf] [--backend B ...]

Without arguments: every ``.htm`` under ``../shared/corpus/financial``.
Targets: recall >= 0.95, cell F1 >= 0.9, adjacency F1 >= 0.9, header rows
>= 90%, no leaked number rows.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("DO_NOT_TRACK", "1")

import docparse
from align.metrics.tables import normalize_cell
from align.project import project

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "financial"
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--no-pdf-header-footer",
)
_VALUE = re.compile(r"\d")


#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = [
    "{corpus}/financial/AMD_2022_10K/2488_10K_2022_0000002488-23-000047.htm",
    "--backend",
    "pymupdf",
]


def print_to_pdf(htm: Path, out: Path) -> Path:
    """``htm`` printed to ``out`` with headless Chromium (raises if it is not installed)."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        raise RuntimeError("chromium is not installed (apt-get install chromium)")
    subprocess.run(
        [exe, *CHROMIUM_FLAGS, f"--print-to-pdf={out}", htm.resolve().as_uri()],
        check=True,
        capture_output=True,
        timeout=900,
    )
    return out


def number_rows(table: docparse.Table) -> list[str]:
    """The normalised text of each body row holding at least two numbers (the rows worth leaking).

    Header rows are left out: a row of dates (``December 31, 2022 | December
    25, 2021``) is no row of values, and the same dates stand in sentences
    (``ended on December 31, 2022, December 25, 2021 and ...``).
    """
    out = []
    for row in table.rows[table.n_header_rows :]:
        cells = [normalize_cell(c) for c in row if c.strip()]
        if sum(bool(_VALUE.search(c)) for c in cells) >= 2:
            out.append(" ".join(cells))
    return out


def _short(table: docparse.Table | None, width: int = 40) -> str:
    """The first non-empty cells of ``table``, cut to ``width`` characters (for the listing)."""
    if table is None:
        return "-"
    text = " | ".join(c for c in table.cells() if c.strip())
    return text[:width]


def table_lines(twin: docparse.Document, parsed: docparse.Document, min_rows: int) -> list[str]:
    """One line per twin table of at least ``min_rows`` rows: its match, scores and shapes.

    Columns: twin unit id, page of the parsed table, cell F1, adjacency F1,
    rows x columns and header rows of the twin and of the parsed table, then
    the first cells of each; the worst tables are the ones to draw.
    """
    proj = project(twin, parsed)
    units = {u.id: u for u in [*twin.units, *parsed.units]}
    out = []
    for t in proj.tables:
        gold = units[t.twin_id].table
        if gold is None or gold.n_rows < min_rows:
            continue
        unit = units.get(str(t.parsed_id)) if t.parsed_id is not None else None
        got = unit.table if unit is not None else None
        page = unit.page if unit is not None else None
        shape = f"{got.n_rows}x{got.n_cols}/{got.n_header_rows}" if got else "-"
        out.append(
            f"{t.twin_id:>8} p{page if page is not None else '-':<4} {t.cell_f1:5.3f} "
            f"{t.adjacency_f1:5.3f} {gold.n_rows}x{gold.n_cols}/{gold.n_header_rows:<3} "
            f"{shape:9} {_short(gold)!r} ~ {_short(got)!r}"
        )
    return out


def score(twin: docparse.Document, parsed: docparse.Document, min_rows: int) -> dict[str, float]:
    """The figures of one backend's parse against the twin (see the module docstring)."""
    proj = project(twin, parsed)
    units = {u.id: u for u in [*twin.units, *parsed.units]}
    big = [
        t
        for t in proj.tables
        if (tab := units[t.twin_id].table) is not None and tab.n_rows >= min_rows
    ]
    matched = [t for t in big if t.found and t.parsed_id is not None]
    headers = 0
    leaks = 0
    texts = [normalize_cell(u.text) for u in parsed.units if u.table is None]
    for t in matched:
        gold = units[t.twin_id].table
        got = units[str(t.parsed_id)].table
        assert gold is not None and got is not None
        headers += gold.n_header_rows == got.n_header_rows
        for row in number_rows(gold):
            leaks += any(row in text for text in texts)
    n = len(big) or 1
    return {
        "tables": len(big),
        "recall": len(matched) / n,
        "cell_f1": statistics.fmean(t.cell_f1 for t in big) if big else 0.0,
        "adjacency_f1": statistics.fmean(t.adjacency_f1 for t in big) if big else 0.0,
        "header_rows": headers / (len(matched) or 1),
        "leaked_rows": leaks,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("htm", nargs="*", type=Path)
    ap.add_argument("--pdf", type=Path, help="the printed PDF (one .htm only)")
    ap.add_argument("--backend", action="append")
    ap.add_argument("--min-rows", type=int, default=3)
    ap.add_argument(
        "--per-table",
        action="store_true",
        help="list every twin table: page, cell F1, adjacency F1, rows x cols/header rows",
    )
    args = ap.parse_args(argv)
    htms = args.htm or sorted(CORPUS.rglob("*.htm"))
    backends = args.backend or ["pymupdf", "pdfplumber"]
    if not htms:
        print("no .htm files", file=sys.stderr)
        return 2
    print(
        f"{'filing':28} {'backend':11} {'tables':>6} {'recall':>6} {'cellF1':>6} "
        f"{'adjF1':>6} {'header':>6} {'leaks':>5}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for htm in htms:
            pdf = args.pdf or print_to_pdf(htm, Path(tmp) / f"{htm.stem}.pdf")
            twin = docparse.parse(htm)
            for b in backends:
                parsed = docparse.parse(pdf, backend=b)
                if args.per_table:
                    print("\n".join(table_lines(twin, parsed, args.min_rows)))
                s = score(twin, parsed, args.min_rows)
                print(
                    f"{htm.stem[:28]:28} {b:11} {s['tables']:6.0f} {s['recall']:6.3f} "
                    f"{s['cell_f1']:6.3f} {s['adjacency_f1']:6.3f} {s['header_rows']:6.3f} "
                    f"{s['leaked_rows']:5.0f}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
