"""Run every installed PDF backend on one PDF and put the figures side by side.

:func:`compare_backends` returns one row (a plain dict) per backend;
``docparse compare`` prints them as a rich table with one column per
backend. A backend that fails gets a row with ``error`` set and the others
still run, so a broken backend is visible rather than fatal.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from docparse.errors import DocparseError
from docparse.model import UNIT_KINDS
from docparse.text import count_words


def compare_backends(
    path: str | Path,
    backends: Sequence[str] | None = None,
    *,
    config: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Parse ``path`` with each backend and summarise what each produced.

    ``backends`` defaults to the installed PDF backends
    (:func:`docparse.registry.installed_pdf_backends`). ``config`` maps a
    backend name to its options (a dict). Each row has ``backend``,
    ``error`` (``None`` or ``"ErrorType: message"``), and, when the parse
    worked: ``pages``, ``seconds``, ``seconds_per_page``, ``units``,
    ``kinds`` (units per kind), ``tables``, ``table_cells``, ``words``
    (content words, furniture excluded), ``furniture`` (units removed as
    running headers/footers/page numbers), ``furniture_words``, ``flags``,
    ``ocr_pages`` (pages read by OCR) and ``ocr_seconds`` (CPU seconds spent
    rendering and reading them).

    >>> rows = compare_backends("paper.pdf", ["pymupdf"])  # doctest: +SKIP
    >>> rows[0]["units"] > 0  # doctest: +SKIP
    True
    """
    from docparse.api import parse
    from docparse.ocr.pages import ocr_records
    from docparse.registry import installed_pdf_backends

    names = list(backends) if backends is not None else list(installed_pdf_backends())
    rows: list[dict[str, Any]] = []
    for name in names:
        options = dict((config or {}).get(name, {})) or None
        start = time.perf_counter()
        try:
            with ocr_records() as records:
                doc = parse(path, format="pdf", backend=name, config=options)
        except (DocparseError, ImportError) as exc:
            # ImportError: a backend module that cannot be imported at all.
            message = exc.message if isinstance(exc, DocparseError) else str(exc)
            rows.append(
                {
                    "backend": name,
                    "error": f"{type(exc).__name__}: {message}",
                    "seconds": round(time.perf_counter() - start, 3),
                }
            )
            continue
        seconds = time.perf_counter() - start
        kinds: Counter[str] = Counter(u.kind for u in doc.units)
        tables = [u.table for u in doc.units if u.table is not None]
        furniture = [u for u in doc.units if u.kind == "furniture"]
        pages = _pages_read(doc.n_pages, options)
        rows.append(
            {
                "backend": name,
                "error": None,
                "pages": pages,
                "seconds": round(seconds, 3),
                "seconds_per_page": round(seconds / pages, 4) if pages else None,
                "units": len(doc.units),
                "kinds": {k: kinds[k] for k in UNIT_KINDS if kinds.get(k)},
                "tables": len(tables),
                "table_cells": sum(len(t.cells()) for t in tables),
                "words": doc.n_words,
                "furniture": len(furniture),
                "furniture_words": sum(count_words(u.text) for u in furniture),
                "flags": list(doc.flags),
                "ocr_pages": list(doc.ocr_pages),
                "ocr_seconds": round(sum(r.seconds for r in records), 3),
            }
        )
    return rows


def _pages_read(n_pages: int | None, options: Mapping[str, Any] | None) -> int:
    """Pages the backend actually read (the ``pages`` option narrows the document)."""
    total = n_pages or 0
    window = (options or {}).get("pages")
    if window and total:
        first, last = int(window[0]), int(window[1])
        return max(0, min(last, total) - first + 1)
    return total


def render_table(rows: Sequence[Mapping[str, Any]], title: str = "") -> Any:
    """A rich ``Table`` with one column per backend and one row per figure."""
    from rich.table import Table

    table = Table(title=title or None)
    table.add_column("")
    for row in rows:
        table.add_column(str(row["backend"]), justify="right")

    def cells(get: Any) -> list[str]:
        return [("-" if row.get("error") else get(row)) for row in rows]

    errors = [str(row["error"]) if row.get("error") else "" for row in rows]
    if any(errors):
        table.add_row("error", *errors, style="red")
    table.add_row("pages", *cells(lambda r: str(r["pages"])))
    table.add_row("seconds", *cells(lambda r: f"{r['seconds']:.2f}"))
    table.add_row(
        "seconds / page",
        *cells(lambda r: f"{r['seconds_per_page']:.3f}" if r["seconds_per_page"] else "-"),
    )
    table.add_row("units", *cells(lambda r: str(r["units"])))
    kinds = [k for k in UNIT_KINDS if any(k in r.get("kinds", {}) for r in rows)]
    for kind in kinds:
        table.add_row(f"  {kind}", *cells(lambda r, k=kind: str(r["kinds"].get(k, 0))))
    table.add_row("tables", *cells(lambda r: str(r["tables"])))
    table.add_row("table cells", *cells(lambda r: str(r["table_cells"])))
    table.add_row("words", *cells(lambda r: str(r["words"])))
    table.add_row(
        "furniture removed",
        *cells(lambda r: f"{r['furniture']} ({r['furniture_words']} words)"),
    )
    if any(r.get("ocr_pages") for r in rows):
        table.add_row("OCR pages", *cells(lambda r: _page_list(r["ocr_pages"])))
        table.add_row("OCR CPU seconds", *cells(lambda r: f"{r['ocr_seconds']:.2f}"))
    if any(r.get("flags") for r in rows):
        table.add_row("flags", *cells(lambda r: ", ".join(r["flags"]) or "-"))
    return table


def _page_list(pages: Sequence[int]) -> str:
    """``1-3, 7`` for ``[1, 2, 3, 7]``; ``-`` for none."""
    if not pages:
        return "-"
    runs: list[list[int]] = []
    for p in pages:
        if runs and p == runs[-1][-1] + 1:
            runs[-1].append(p)
        else:
            runs.append([p])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)
