"""One ingest task: what to parse and where to write it (:class:`Task`), what became of it
(:class:`ManifestRow`), and :func:`process_task`, which parses one file and writes its units.
"""

from __future__ import annotations

import contextlib
import glob
import json
import logging
import os
import tempfile
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Literal, cast

from docparse.errors import DocparseError, MissingDependencyError
from docparse.model import Document, Format

log = logging.getLogger(__name__)


OutputFormat = Literal["jsonl", "parquet"]


Engine = Literal["local", "dask"]


Status = Literal["ok", "error", "skipped"]


@dataclass(frozen=True, slots=True)
class Limits:
    """Per-file limits for worker processes.

    ``timeout``: wall-clock seconds per file. ``memory_mb``: private resident
    memory per worker (pages shared with the parent after fork are not
    counted); the parent polls it every ``poll`` seconds and stops the worker
    past the cap.
    """

    timeout: float = 600.0
    memory_mb: int = 4096
    poll: float = 0.1


@dataclass(frozen=True, slots=True)
class Task:
    """One file to parse with one backend (``None`` for twin formats)."""

    path: str
    rel: str
    format: str
    backend: str | None
    content_hash: str
    options: str
    out_dir: str
    output_format: OutputFormat = "jsonl"
    twins: tuple[str, ...] = ()
    config: Mapping[str, Any] | None = None
    twin_outputs: tuple[tuple[str, str], ...] = ()
    """Per twin, ``(JSON output of its own task in this run, its content hash)``; ``("", "")``
    where it has none. The fidelity projection reads the twin back from there instead of
    parsing it a second time (:func:`reuse_twin`)."""

    @property
    def key(self) -> str:
        return f"{self.rel}\t{self.backend or ''}"

    @property
    def label(self) -> str:
        return self.backend or self.format


@dataclass(frozen=True, slots=True)
class ManifestRow:
    """One line of ``manifest.jsonl``.

    Example record: ``{"path": "research/x/x.pdf", "backend": "pymupdf",
    "format": "pdf", "content_hash": "3f2a9c1d0e4b5a6f", "options": "9be1c2d3",
    "status": "ok", "error_class": null, "error_message": null, "pages": 12,
    "units": 143, "seconds": 0.84, "output": "docs/research/x/x.pdf.pymupdf.jsonl",
    "fidelity": "fidelity/research/x/x.pdf.pymupdf.json", "reason": null,
    "peak_rss_mb": 212.5}``
    """

    path: str
    backend: str | None
    format: str | None
    content_hash: str | None
    options: str | None
    status: Status
    error_class: str | None = None
    error_message: str | None = None
    pages: int | None = None
    units: int | None = None
    seconds: float = 0.0
    output: str | None = None
    fidelity: str | None = None
    reason: str | None = None
    peak_rss_mb: float | None = None
    """Peak resident memory of the worker process so far (its whole life)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ManifestRow:
        names = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in d.items() if k in names})

    @property
    def key(self) -> str:
        return f"{self.path}\t{self.backend or ''}"


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def remove_partial(path: Path) -> None:
    """Remove the temporary files :func:`atomic_write` leaves for ``path`` when killed."""
    with contextlib.suppress(OSError):
        for tmp in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
            tmp.unlink(missing_ok=True)


def unit_rows(doc: Document) -> list[dict[str, Any]]:
    """Flat rows (one per unit) for the Parquet output."""
    rows = []
    for u in doc.units:
        b = u.bbox
        rows.append(
            {
                "doc_id": doc.doc_id,
                "source_path": doc.source_path,
                "format": doc.format,
                "unit_id": u.id,
                "kind": u.kind,
                "modality": u.modality,
                "text": u.text,
                "raw": u.raw,
                "section": list(u.section),
                "order": u.order,
                "page": u.page,
                "x0": b.x0 if b else None,
                "y0": b.y0 if b else None,
                "x1": b.x1 if b else None,
                "y1": b.y1 if b else None,
                "word_start": u.word_start,
                "word_end": u.word_end,
                "n_words": u.n_words,
                "n_tokens": u.n_tokens,
                "position": u.position,
                "position_bucket": u.position_bucket,
                "table": json.dumps(u.table.to_dict(), ensure_ascii=False) if u.table else None,
            }
        )
    return rows


def _parquet_schema(pa: Any) -> Any:
    """One explicit schema, so documents without tables or pages concatenate."""
    s, i, f = pa.string(), pa.int64(), pa.float64()
    return pa.schema(
        [
            ("doc_id", s),
            ("source_path", s),
            ("format", s),
            ("unit_id", s),
            ("kind", s),
            ("modality", s),
            ("text", s),
            ("raw", s),
            ("section", pa.list_(s)),
            ("order", i),
            ("page", i),
            ("x0", f),
            ("y0", f),
            ("x1", f),
            ("y1", f),
            ("word_start", i),
            ("word_end", i),
            ("n_words", i),
            ("n_tokens", i),
            ("position", f),
            ("position_bucket", i),
            ("table", s),
        ]
    )


def _write_parquet(path: Path, doc: Document) -> None:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise MissingDependencyError(
            "Parquet output", "pip install 'docparse[parquet]'", cause=exc
        ) from exc
    import io

    buf = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(unit_rows(doc), schema=_parquet_schema(pa)), buf)
    atomic_write(path, buf.getvalue())


def output_path(task: Task) -> Path:
    """Where ``task`` writes its document."""
    out = Path(task.out_dir)
    if task.output_format == "parquet":
        return out / "parquet" / f"backend={task.label}" / f"{task.rel}.parquet"
    return out / "docs" / f"{task.rel}.{task.label}.jsonl"


def _fidelity_rel(task: Task) -> str:
    return f"fidelity/{task.rel}.{task.label}.json"


def remove_partials(task: Task) -> None:
    """A task's half-written outputs, from a worker that was stopped or killed."""
    remove_partial(output_path(task))
    remove_partial(Path(task.out_dir) / _fidelity_rel(task))


def reuse_twin(output: str, content_hash: str) -> Document | None:
    """The twin's document as its own ingest task wrote it, when that output is there and
    is of the twin's current bytes and schema; else ``None`` (the caller parses the twin).

    The twin's task runs before the PDF's (:func:`docparse.ingest.ingest_order`), and reading
    its JSON back costs a tenth of parsing the twin again; the documents are equal.
    """
    from docparse.model import SCHEMA_VERSION

    if not output:
        return None
    try:
        data = json.loads(Path(output).read_text(encoding="utf-8"))
        # Of another run: other bytes, or a schema this docparse writes differently.
        if data.get("doc_id") != content_hash or data.get("schema_version") != SCHEMA_VERSION:
            return None
        return Document.from_dict(data)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        # Not written yet (the twin's task is still running in another worker).
        log.debug("twin output %s not reused: %s", output, exc)
        return None


def _fidelity(task: Task, parsed: Document) -> str | None:
    """Project the PDF parse onto its first twin that parses; write the summary."""
    from docparse.api import parse

    reuse = task.twin_outputs or (("", ""),) * len(task.twins)
    for twin_path, (output, digest) in zip(task.twins, reuse, strict=True):
        twin = reuse_twin(output, digest)
        if twin is None:
            try:
                twin = parse(twin_path)
            except DocparseError as exc:
                log.warning("twin %s of %s does not parse: %s", twin_path, task.rel, exc)
                continue
        from align import project

        summary = project(twin, parsed).summary()
        summary["twin"] = os.path.relpath(twin_path, Path(task.path).parent)
        rel = _fidelity_rel(task)
        atomic_write(Path(task.out_dir) / rel, json.dumps(summary, indent=1, default=str).encode())
        return rel
    return None


def process_task(task: Task) -> ManifestRow:
    """Parse one file and write its outputs; never raises for bad input."""
    from docparse.api import parse

    start = time.perf_counter()
    base = ManifestRow(task.rel, task.backend, task.format, task.content_hash, task.options, "ok")
    try:
        doc = parse(
            task.path, format=cast(Format, task.format), backend=task.backend, config=task.config
        )
        target = output_path(task)
        if task.output_format == "parquet":
            _write_parquet(target, doc)
        else:
            atomic_write(target, (doc.to_json() + "\n").encode("utf-8"))
        fidelity = _fidelity(task, doc) if task.twins else None
    except DocparseError as exc:
        return replace(
            base,
            status="error",
            error_class=type(exc).__name__,
            error_message=str(exc),
            seconds=time.perf_counter() - start,
        )
    except Exception as exc:  # noqa: BLE001 - one broken file must not end a corpus run
        return replace(
            base,
            status="error",
            error_class=type(exc).__name__,
            error_message=f"{task.rel}: {exc}",
            seconds=time.perf_counter() - start,
        )
    return replace(
        base,
        peak_rss_mb=_peak_rss_mb(),
        pages=doc.n_pages,
        units=len(doc.units),
        seconds=round(time.perf_counter() - start, 4),
        output=target.relative_to(task.out_dir).as_posix(),
        fidelity=fidelity,
    )


def _peak_rss_mb() -> float | None:
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return None
    # ru_maxrss is in KiB on Linux.
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
