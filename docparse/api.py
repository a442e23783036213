"""``docparse.parse``: one call from a path to a :class:`~docparse.model.Document`."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from docparse.config import resolve_config
from docparse.detect import detect_format
from docparse.errors import (
    DocparseError,
    ParseError,
    ParseTimeoutError,
    UnknownParserError,
    UnsupportedFormatError,
    cause_text,
)
from docparse.model import FORMATS, Document, Format
from docparse.registry import DEFAULT_PDF_BACKEND, PDF_BACKENDS, get_parser


@contextmanager
def _time_limit(path: Path, seconds: float | None) -> Iterator[None]:
    """Raise ParseTimeoutError after ``seconds`` (main thread only).

    SIGALRM interrupts Python code between bytecodes; a long call inside a C
    library returns first. Hard limits for hostile files belong to the
    process-isolated batch runner (``docparse ingest``).
    """
    usable = (
        seconds is not None
        and seconds > 0
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def on_alarm(signum: int, frame: object) -> None:
        raise ParseTimeoutError(path, f"parsing took longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, float(seconds))  # type: ignore[arg-type]
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def resolve_parser_name(fmt: Format, backend: str | None) -> str:
    """The registry name that parses ``fmt`` with the requested backend."""
    if fmt == "pdf":
        name = backend or DEFAULT_PDF_BACKEND
        if name not in PDF_BACKENDS:
            raise UnknownParserError(name, PDF_BACKENDS, kind="PDF backend")
        return name
    if backend not in (None, fmt):
        raise UnsupportedFormatError(
            None, f"backend {backend!r} does not read {fmt} files; {fmt} has one parser: {fmt}"
        )
    return fmt


def parse(
    path: str | Path,
    *,
    format: Format | None = None,
    backend: str | None = None,
    config: Any | Mapping[str, Any] | None = None,
) -> Document:
    """Parse one file into a :class:`~docparse.model.Document`.

    ``format`` is detected from the extension and content when not given.
    For PDFs ``backend`` picks ``pymupdf`` (default), ``pdfplumber`` or
    ``unstructured``; other formats have one parser each. ``config`` is the
    parser's frozen options object or a dict of its fields.

    Every failure caused by the input is a :class:`~docparse.DocparseError`
    naming the file.

    >>> doc = parse("fixtures/research/pmlr-sample/pmlr-sample.tex")  # doctest: +SKIP
    >>> doc.units[0].kind  # doctest: +SKIP
    'title'
    """
    p = Path(path)
    if not p.is_file():
        raise DocparseError(p, "no such file")
    if format is not None and format not in FORMATS:
        raise UnknownParserError(format, FORMATS, kind="format")
    fmt: Format = format or detect_format(p)
    parser = get_parser(resolve_parser_name(fmt, backend))
    cfg = resolve_config(parser.config_class, config)
    timeout = getattr(cfg, "timeout", None)
    try:
        with _time_limit(p, timeout):
            return parser.parse(p, cfg)
    except DocparseError as exc:
        if exc.path is None:
            exc.path = str(p)
        raise
    except (RecursionError, MemoryError) as exc:
        raise ParseError(
            p, f"input too deeply nested or too large ({type(exc).__name__})", cause=exc
        ) from exc
    except Exception as exc:
        # A library failing on malformed input must not escape as a raw
        # IndexError or KeyError: batch callers rely on DocparseError.
        raise ParseError(
            p,
            f"{parser.name} parser failed: {type(exc).__name__}: {cause_text(exc, p)}",
            cause=exc,
        ) from exc
