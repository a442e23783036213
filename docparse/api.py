"""``docparse.parse``: one call from a path to a :class:`~docparse.model.Document`."""

from __future__ import annotations

import gc
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


#: CPython's collector threshold for new objects while a parse runs (its default is 700).
PARSE_GC_THRESHOLD = 20_000


class _GcScope:
    """The state :func:`fewer_collections` shares between threads and nested calls."""

    lock = threading.Lock()
    depth = 0
    saved: tuple[int, int, int] | None = None  # the caller's thresholds, while raised
    raised: tuple[int, int, int] | None = None  # what they were raised to


@contextmanager
def fewer_collections(threshold: int = PARSE_GC_THRESHOLD) -> Iterator[None]:
    """Run the body with CPython's cyclic collector passing over new objects
    less often: its first threshold at least ``threshold`` (see
    ``gc.set_threshold``), then the caller's thresholds back.

    A parse allocates millions of short-lived objects (runs, boxes, lines)
    and keeps a few hundred thousand (the pages' items) to the end; at the
    default threshold (700) the collector runs every few hundred allocations
    and, as kept objects pile up, passes over all of them again and again
    (about 7% of a pypdfium2 parse's CPU time). Nothing is switched off:
    cycles are still collected, some thousands of allocations later.

    The thresholds are the process's, so the scope is counted: nested and
    concurrent scopes (threads) raise them once, on the first entry, and the
    last exit puts the caller's values back, unless something changed them
    meanwhile (that change is kept). A threshold already higher than
    ``threshold``, or 0 (automatic collection off), is left alone.
    """
    scope = _GcScope
    with scope.lock:
        if scope.depth == 0:
            current = gc.get_threshold()
            if 0 < current[0] < threshold:
                scope.saved = current
                scope.raised = (threshold, current[1], current[2])
                gc.set_threshold(*scope.raised)
        scope.depth += 1
    try:
        yield
    finally:
        with scope.lock:
            scope.depth -= 1
            if scope.depth == 0 and scope.saved is not None:
                if gc.get_threshold() == scope.raised:
                    gc.set_threshold(*scope.saved)
                scope.saved = scope.raised = None


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
        # The time limit inside: its alarm is off before the scope's exit runs.
        with fewer_collections(), _time_limit(p, timeout):
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
