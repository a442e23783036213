"""Shared body of the fuzz targets: bytes to a file, the file to ``docparse.parse``.

A target accepts a clean parse or a :class:`docparse.DocparseError` that a
parser raised on purpose. Anything else escapes and libFuzzer reports it as
a crash (with the input saved as ``crash-*``), including a raw library
exception that only ``docparse.parse``'s last-resort wrapper caught (a
``ParseError`` reading "<parser> parser failed: IndexError: ..."). The parse
timeout option is *not* used: it arms SIGALRM, which libFuzzer owns for its
own ``-timeout``.
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
            cause = exc.cause
            if (
                type(exc) is docparse.ParseError
                and "parser failed:" in exc.message
                and cause is not None
                and not isinstance(cause, docparse.DocparseError)
            ):
                # The API's last-resort wrapper around a raw library exception
                # ("pdfplumber parser failed: IndexError: ..."): a finding, since
                # the parser should have explained the problem itself.
                raise cause from None
            return
        doc.to_json()  # the output must serialise

    return test_one_input


def warm_up(test_one_input: Callable[[bytes], None], parser: str) -> None:
    """Run the target once on the parser's first seed, before libFuzzer times inputs.

    The first ``unstructured`` parse imports unstructured and spaCy and has
    numba compile unstructured's XY-cut sort: 13-16 s here, so libFuzzer
    reported whichever input came first as a ``slow-unit`` (it parses in
    0.02 s once warm).
    """
    from tests.fuzz.seeds import write_seeds

    with tempfile.TemporaryDirectory() as d:
        write_seeds(parser, Path(d))
        test_one_input(min(Path(d).iterdir()).read_bytes())
