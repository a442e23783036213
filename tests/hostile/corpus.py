"""A generated corpus of hostile and broken inputs for every format.

``build(base)`` writes one folder per case under ``base/corpus/`` and plants
secret files carrying :data:`MARKER` *outside* each case's folder
(``base/secret.*`` and ``base/corpus/secret.*``). A parser that follows an
``\\input``, an XML external entity or an XInclude out of the document's
folder would copy the marker into its output; the tests assert it never does.
Remote references point at 203.0.113.1 (TEST-NET-3, never routed): pytest-socket
blocks a Python-level connection to it (a raw error the tests catch) and a
C-level fetch would hang into the time limit.

Nothing binary is committed: damaged PDFs are derived at test time from a
real fixture PDF (page 1 of ``fixtures/pdf/us-020/us-020.pdf``, re-saved with
a classic xref table) and the rest is generated with PyMuPDF.

Each :class:`Case` states which parsers apply and what every one of them must
end in: ``"ok"`` (a clean :class:`~docparse.model.Document`) or the name of a
:class:`~docparse.DocparseError` subclass. The README's "Hostile input" section is the table
of these expectations.
"""

from __future__ import annotations

from pathlib import Path

# The case modules register their cases on import, PDF cases first.
from . import pdf_cases as pdf_cases
from . import twin_cases as twin_cases
from .cases import _WRITERS, CASES, MARKER, PDF_BACKENDS, Case
from .pdf_cases import _assemble_pdf, reference_cycle_pdf, two_lines_pdf

__all__ = [
    "CASES",
    "MARKER",
    "PDF_BACKENDS",
    "Case",
    "_assemble_pdf",
    "build",
    "by_name",
    "plant_secrets",
    "reference_cycle_pdf",
    "two_lines_pdf",
]

# ---------------------------------------------------------------- building


def plant_secrets(base: Path) -> None:
    """Secret files outside every case folder, each holding :data:`MARKER`."""
    for where in (base, base / "corpus"):
        where.mkdir(parents=True, exist_ok=True)
        for ext in (".tex", ".txt", ""):
            (where / f"secret{ext}").write_text(
                f"{MARKER}\n\nThis paragraph must never appear in any output.\n",
                encoding="utf-8",
            )


def build(base: Path, names: list[str] | None = None) -> Path:
    """Write the corpus (or the named cases) under ``base``; return ``base``."""
    plant_secrets(base)
    for c in CASES:
        if names is not None and c.name not in names:
            continue
        d = base / "corpus" / c.name
        if c.path(base).exists():
            continue
        d.mkdir(parents=True, exist_ok=True)
        _WRITERS[c.name](d, base)
    return base


def by_name(name: str) -> Case:
    return next(c for c in CASES if c.name == name)
