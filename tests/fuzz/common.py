"""Shared body of the fuzz targets: bytes to a file, the file to ``docparse.parse``.

A target accepts a clean parse or any :class:`docparse.DocparseError`;
anything else escapes and libFuzzer reports it as a crash (with the input
saved as ``crash-*``). The parse timeout option is *not* used: it arms
SIGALRM, which libFuzzer owns for its own ``-timeout``.
"""

from __future__ import annotations

import logging
import os
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path

import atheris

PDF_BACKENDS = ("pymupdf", "pdfplumber", "unstructured")
#: Per-parser file suffix the bytes are written under.
SUFFIX = {
    "tex": ".tex",
    "htm": ".htm",
    "csv": ".csv",
    "txt": ".txt",
    "s2orc": ".json",
    "jats": ".nxml",
    "pymupdf": ".pdf",
    "pdfplumber": ".pdf",
    "unstructured": ".pdf",
}
#: Pure-Python modules worth coverage instrumentation, per parser.
INSTRUMENT = {
    "tex": ("docparse", "pylatexenc"),
    "pdfplumber": ("docparse", "pdfplumber", "pdfminer"),
    "unstructured": ("docparse",),
}


def instrument(parser: str) -> None:
    """Import docparse (and the parser's pure-Python library) with coverage hooks."""
    os.environ.setdefault("DO_NOT_TRACK", "1")
    names = INSTRUMENT.get(parser, ("docparse",))
    with atheris.instrument_imports(include=list(names)):
        import docparse  # noqa: F401
        from docparse.registry import get_parser

        get_parser(parser)  # import the parser module under instrumentation


def make_target(parser: str) -> Callable[[bytes], None]:
    """The ``TestOneInput`` for ``parser``."""
    import docparse

    folder = Path(tempfile.mkdtemp(prefix=f"fuzz-{parser}-"))
    path = folder / f"input{SUFFIX[parser]}"
    backend = parser if parser in PDF_BACKENDS else None
    fmt = "pdf" if backend else parser
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")

    def test_one_input(data: bytes) -> None:
        path.write_bytes(data)
        try:
            doc = docparse.parse(path, format=fmt, backend=backend)  # type: ignore[arg-type]
        except docparse.DocparseError as exc:
            if not str(exc):
                raise AssertionError("DocparseError without a message") from exc
            return
        doc.to_json()  # the output must serialise

    return test_one_input
