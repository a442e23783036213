"""The hostile-case record and its registry: :func:`case` registers a writer for a :class:`Case`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BASE_PDF = ROOT / "fixtures" / "pdf" / "us-020" / "us-020.pdf"

#: A string that exists only in the planted secret files.
MARKER = "SECRET-MARKER-7f3c9a1e-do-not-leak"

PDF_BACKENDS = ("pymupdf", "pdfplumber", "unstructured")
MB = 1 << 20


@dataclass(frozen=True)
class Case:
    """One hostile input.

    ``parsers``: registry names the case goes through (PDF backends, or the
    one twin parser of its format). ``expect``: acceptable outcomes, each
    ``"ok"`` or an error class name; a class also accepts its subclasses.
    ``config``: options passed with every parser. ``bomb``: run in a child
    process under a memory rlimit. ``note``: what the case is, for the table.
    ``cpu_limit``: CPU seconds the parse may take, for cases whose cost is real
    work (OCR of a page image). Their wall-clock ``timeout`` is then only a
    hang guard (:data:`~tests.hostile.outcome.HANG_TIMEOUT`): on a shared,
    loaded machine a page that takes 7 CPU seconds has taken 50 s of wall time.
    """

    name: str
    file: str
    parsers: tuple[str, ...]
    expect: tuple[str, ...]
    note: str
    config: Mapping[str, Any] = field(default_factory=dict)
    bomb: bool = False
    flags: tuple[str, ...] = ()
    """Document flags a clean parse must carry (e.g. ``unsafe_input_skipped``)."""
    cpu_limit: float | None = None

    def path(self, base: Path) -> Path:
        return base / "corpus" / self.name / self.file


Writer = Callable[[Path, Path], None]
"""``writer(case_dir, base)`` creates the case's file(s) in ``case_dir``."""

_WRITERS: dict[str, Writer] = {}
CASES: list[Case] = []


def case(
    name: str,
    file: str,
    parsers: tuple[str, ...],
    expect: tuple[str, ...],
    note: str,
    *,
    config: Mapping[str, Any] | None = None,
    bomb: bool = False,
    flags: tuple[str, ...] = (),
    cpu_limit: float | None = None,
) -> Callable[[Writer], Writer]:
    def register(fn: Writer) -> Writer:
        CASES.append(
            Case(name, file, parsers, expect, note, dict(config or {}), bomb, flags, cpu_limit)
        )
        _WRITERS[name] = fn
        return fn

    return register


def _file_of(d: Path) -> str:
    return next(c.file for c in CASES if c.name == d.name)


def _put(d: Path, data: bytes | str) -> None:
    target = d / _file_of(d)
    if isinstance(data, str):
        target.write_text(data, encoding="utf-8")
    else:
        target.write_bytes(data)
