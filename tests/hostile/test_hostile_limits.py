"""Hangs inside the PDF libraries.

* pdfminer (pdfplumber, unstructured's ``fast``) followed an indirect object
  that is a reference to itself, or a chain that comes back to itself, for
  ever; :func:`docparse.backends.pdfplumber.guard_reference_cycles` reads it
  as null.
"""

from __future__ import annotations

import importlib.util
import io
import logging
import time
from pathlib import Path

import pytest

import docparse

from .corpus import _assemble_pdf, reference_cycle_pdf

PDF_BACKENDS = ("pymupdf", "pdfplumber", "unstructured")


def _backend(name: str) -> object:
    marks = [pytest.mark.unstructured] if name == "unstructured" else []
    return pytest.param(name, marks=marks, id=name)


def _skip_without(backend: str) -> None:
    if backend == "unstructured" and importlib.util.find_spec("unstructured") is None:
        pytest.skip("unstructured is not installed")


# ---------------------------------------------------------------- reference cycles


def _pdfminer_document(data: bytes) -> object:
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfparser import PDFParser

    from docparse.backends.pdfplumber import guard_reference_cycles

    guard_reference_cycles()
    return PDFDocument(PDFParser(io.BytesIO(data)))


@pytest.mark.timeout(30)
def test_pdfminer_reads_a_reference_cycle_as_null(caplog: pytest.LogCaptureFixture) -> None:
    from pdfminer.pdftypes import PDFObjRef, resolve1

    doc = _pdfminer_document(reference_cycle_pdf())
    with caplog.at_level(logging.WARNING, logger="docparse.backends.pdfplumber"):
        assert resolve1(PDFObjRef(doc, 6)) is None  # 6 -> 7 -> 6
        assert resolve1(PDFObjRef(doc, 7)) is None
        assert resolve1(PDFObjRef(doc, 8)) is None  # 8 -> 8
        assert resolve1(PDFObjRef(doc, 6)) is None  # again, from the per-document record
    assert "reference cycle 6 -> 7 -> 6" in caplog.text
    assert "reference cycle 8 -> 8" in caplog.text
    assert resolve1(PDFObjRef(doc, 5))["Length"] > 0  # a real stream is untouched


@pytest.mark.timeout(30)
def test_pdfminer_follows_a_long_reference_chain_that_ends() -> None:
    from pdfminer.pdftypes import PDFObjRef, resolve1

    # 1 catalog, 2 pages, then objects 3..n-1 each a reference to the next,
    # and the last one a number: a chain the guard must not cut.
    n = 2000
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Count 0 /Kids [] >>"]
    objs += [b"%d 0 R" % (i + 1) for i in range(3, n)]
    objs.append(b"42")
    doc = _pdfminer_document(_assemble_pdf(objs))
    start = time.monotonic()
    for objid in range(3, n + 1, 7):
        assert resolve1(PDFObjRef(doc, objid)) == 42
    # Each link is walked once per document, not once per look-up (2000^2 would be seconds).
    assert time.monotonic() - start < 5


@pytest.mark.timeout(120)
@pytest.mark.parametrize("backend", [_backend(b) for b in PDF_BACKENDS])
def test_reference_cycle_between_content_streams_parses(tmp_path: Path, backend: str) -> None:
    _skip_without(backend)
    path = tmp_path / "cycle.pdf"
    path.write_bytes(reference_cycle_pdf())
    doc = docparse.parse(path, backend=backend, config={"timeout": 60})
    assert [u.text for u in doc.units] == ["Text before the cycle.", "Text after the cycle."]
