"""Running a twin against one PDF through several backends (and other systems' parses).

:func:`fidelity` parses the PDF with each backend, projects the twin onto
each parse with :func:`align.project.project` and keeps the per-backend
timing and OCR figures beside the projection; :class:`FidelityRun` turns
that into the JSON summary the CLI, the HTML report and the benchmarks print.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from align.project import Projection, ProjectionConfig, project
from docparse.model import Document


@dataclass(frozen=True, slots=True)
class BackendRun:
    """One PDF backend's parse of the document, projected against the twin.

    ``seconds`` is the parse time of the PDF (not the projection); ``error``
    is set instead of ``projection`` when the backend failed on this file.
    ``ocr_pages`` are the pages read by OCR and ``ocr_seconds`` the CPU
    seconds spent on them; when there are any, ``ocr_off`` is the projection
    of the same backend's parse with OCR off, for the figures side by side.
    """

    backend: str
    seconds: float
    projection: Projection | None = None
    error: str | None = None
    ocr_pages: tuple[int, ...] = ()
    ocr_seconds: float = 0.0
    ocr_off: Projection | None = None


@dataclass(frozen=True, slots=True)
class FidelityRun:
    """A twin and one PDF, parsed by several backends and scored."""

    twin: Document
    pdf: str
    runs: tuple[BackendRun, ...]
    threshold: float = 0.9

    def summary(self, lost_units: int = 25, units: bool = False) -> dict[str, Any]:
        """Per-backend summaries (with ``seconds`` and the worst-hit units), JSON-ready.

        ``units=True`` adds every twin unit's projection and every table match.
        """
        texts = {u.id: u for u in self.twin.units}
        backends: dict[str, Any] = {}
        for run in self.runs:
            if run.projection is None:
                backends[run.backend] = {"error": run.error, "seconds": run.seconds}
                continue
            s = run.projection.summary(self.threshold)
            s["seconds"] = run.seconds
            s["ocr_pages"] = list(run.ocr_pages)
            s["ocr_seconds"] = run.ocr_seconds
            if run.ocr_off is not None:
                s["ocr_off"] = {
                    "unit_recall": run.ocr_off.unit_recall(self.threshold),
                    "word_recall": run.ocr_off.word_recall(),
                    "parsed_units": run.ocr_off.n_parsed_units,
                }
            worst = sorted(
                (u for u in run.projection.units if u.status in ("missing", "partial")),
                key=lambda u: (u.similarity, -u.n_words),
            )[:lost_units]
            s["lost_units"] = [
                {
                    "status": u.status,
                    "similarity": u.similarity,
                    "kind": u.kind,
                    "section": u.section,
                    "words": u.n_words,
                    "pages": list(u.pages),
                    "text": texts[u.twin_id].text[:300],
                }
                for u in worst
            ]
            if units:
                s["units"] = [u.to_dict() for u in run.projection.units]
                s["table_matches"] = [t.to_dict() for t in run.projection.tables]
            backends[run.backend] = s
        return {
            "twin": self.twin.source_path,
            "pdf": self.pdf,
            "threshold": self.threshold,
            "backends": backends,
        }


def fidelity(
    twin: str | Document,
    pdf: str,
    backends: Sequence[str] = ("pymupdf",),
    *,
    parsed: Sequence[str | Path] = (),
    config: ProjectionConfig | None = None,
    threshold: float = 0.9,
    parse_options: Mapping[str, Any] | None = None,
) -> FidelityRun:
    """Parse ``pdf`` with each backend and project ``twin`` (a path or a parsed twin) onto it.

    ``parsed`` are other systems' parses of the same PDF (marker's or
    pymupdf4llm's Markdown, docling's JSON, any format docparse reads): each
    is one more system, named after its file, scored the same way. A backend
    or file that fails (a :class:`~docparse.errors.DocparseError`) is
    reported with its error instead of stopping the others.
    ``parse_options`` are the PDF backends' options (``pages``, ``tables``, ...).
    """
    import time

    from docparse.api import parse
    from docparse.errors import DocparseError
    from docparse.ocr.pages import ocr_records

    twin_doc = parse(twin) if isinstance(twin, str) else twin
    runs: list[BackendRun] = []
    jobs: list[tuple[str, str, str | None]] = [(name, pdf, name) for name in backends]
    jobs += [(Path(p).name, str(p), None) for p in parsed]
    for name, path, backend in jobs:
        start = time.perf_counter()
        try:
            options = parse_options if backend else None
            with ocr_records() as records:
                doc = parse(path, backend=backend, config=options)
            seconds = time.perf_counter() - start
            off = (
                parse(path, backend=backend, config={**(options or {}), "ocr": "off"})
                if doc.ocr_pages
                else None
            )
        except DocparseError as exc:
            runs.append(BackendRun(name, time.perf_counter() - start, error=str(exc)))
            continue
        runs.append(
            BackendRun(
                name,
                seconds,
                project(twin_doc, doc, config),
                ocr_pages=doc.ocr_pages,
                ocr_seconds=sum(r.seconds for r in records),
                ocr_off=project(twin_doc, off, config) if off is not None else None,
            )
        )
    return FidelityRun(twin_doc, str(pdf), tuple(runs), threshold)
