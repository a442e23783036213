"""Readers for real QA data with gold evidence; each returns a list of :class:`QARecord`.

:func:`read_qa` picks the reader from ``format`` or from the file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from align.readers.base import EmptyQAError, Evidence, QARecord
from align.readers.climretrieve import read_climretrieve
from align.readers.financebench import read_financebench
from align.readers.generic import read_generic
from align.readers.pdfqa import read_pdfqa
from align.readers.qasper import read_qasper
from docparse.errors import ConfigError

__all__ = [
    "QA_FORMATS",
    "EmptyQAError",
    "Evidence",
    "QARecord",
    "detect_qa_format",
    "read_climretrieve",
    "read_financebench",
    "read_generic",
    "read_pdfqa",
    "read_qa",
    "read_qasper",
]

#: Names accepted by :func:`read_qa` (and ``--qa-format`` of the CLI).
QA_FORMATS: dict[str, Callable[[Path], list[QARecord]]] = {
    "financebench": read_financebench,
    "qasper": read_qasper,
    # UDA-Benchmark bench files (QASPER, FinQA, TAT-QA records) share one reader.
    "uda": read_qasper,
    "finqa": read_qasper,
    "tatqa": read_qasper,
    "pdfqa": read_pdfqa,
    "climretrieve": read_climretrieve,
    "generic": read_generic,
}


def detect_qa_format(path: str | Path) -> str:
    """Guess the QA format of a file from its extension and first record."""
    p = Path(path)
    if p.suffix.lower() == ".csv":
        return "climretrieve"
    with p.open(encoding="utf-8") as fh:
        head = fh.read(4096)
    if p.suffix.lower() == ".jsonl":
        first = head.splitlines()[0] if head else ""
        try:
            row = json.loads(first)
        except json.JSONDecodeError:
            row = {}
        if "financebench_id" in row or "evidence_text" in first:
            return "financebench"
        if "source_text" in row and "doc" not in row:
            return "pdfqa"
        return "generic"
    stripped = head.lstrip()
    if stripped.startswith("["):
        return "pdfqa"
    if stripped.startswith("{"):
        return "qasper"
    raise ConfigError(p, "cannot tell the QA format; pass it explicitly")


def read_qa(path: str | Path, format: str | None = None) -> list[QARecord]:
    """Read QA records from ``path`` with the reader named ``format`` (detected if None)."""
    name = format or detect_qa_format(path)
    if name not in QA_FORMATS:
        raise ConfigError(path, f"unknown QA format {name!r}; known: {', '.join(QA_FORMATS)}")
    return QA_FORMATS[name](Path(path))
