"""Hangs, time limits and absurd geometry inside the PDF libraries.

* pdfminer (pdfplumber, unstructured's ``fast``) followed an indirect object
  that is a reference to itself, or a chain that comes back to itself, for
  ever; :func:`docparse.backends.pdfminer_guard.guard_reference_cycles` reads it
  as null.
* The ``timeout`` option raises :class:`~docparse.ParseTimeoutError` from a
  SIGALRM handler inside library code; pdfplumber wrapped it in its own
  exception (reported as a corrupt page) and unstructured catches
  ``Exception`` in places (the limit was lost). It must come out as
  ``ParseTimeoutError``.
* unstructured's reading-order sort sizes a histogram by the largest
  coordinate: text at x = 10^19 gave a raw ``ValueError: array is too big``
  (a 10-minute ``fuzz_unstructured`` finding), a 10^19 page box ``negative
  dimensions``, 10^10-10^12 a ``MemoryError``.
"""

from __future__ import annotations

import contextlib
import io
import logging
import time
import zlib
from pathlib import Path

import pytest

import docparse
from docparse.backends.timelimit import TimeLimitKept
from docparse.errors import CorruptDocumentError, ParseTimeoutError

from .corpus import _assemble_pdf, reference_cycle_pdf, two_lines_pdf
from .test_hostile_parse import skip_without

PDF_BACKENDS = ("pymupdf", "pdfplumber", "unstructured")


def _backend(name: str) -> object:
    marks = [pytest.mark.unstructured] if name == "unstructured" else []
    return pytest.param(name, marks=marks, id=name)


# ---------------------------------------------------------------- reference cycles


def _pdfminer_document(data: bytes) -> object:
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfparser import PDFParser

    from docparse.backends.pdfminer_guard import guard_reference_cycles

    guard_reference_cycles()
    return PDFDocument(PDFParser(io.BytesIO(data)))


@pytest.mark.timeout(30)
def test_pdfminer_reads_a_reference_cycle_as_null(caplog: pytest.LogCaptureFixture) -> None:
    from pdfminer.pdftypes import PDFObjRef, resolve1

    doc = _pdfminer_document(reference_cycle_pdf())
    with caplog.at_level(logging.WARNING, logger="docparse.backends.pdfminer_guard"):
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
    # CPU time, not wall time: the bound must hold on a loaded machine too.
    start = time.process_time()
    for objid in range(3, n + 1, 7):
        assert resolve1(PDFObjRef(doc, objid)) == 42
    # Each link is walked once per document, not once per look-up (2000^2 would be seconds).
    assert time.process_time() - start < 5


@pytest.mark.timeout(120)
@pytest.mark.parametrize("backend", [_backend(b) for b in PDF_BACKENDS])
def test_reference_cycle_between_content_streams_parses(tmp_path: Path, backend: str) -> None:
    skip_without(backend)
    path = tmp_path / "cycle.pdf"
    path.write_bytes(reference_cycle_pdf())
    doc = docparse.parse(path, backend=backend, config={"timeout": 60})
    assert [u.text for u in doc.units] == ["Text before the cycle.", "Text after the cycle."]


# ---------------------------------------------------------------- the time limit


def _slow_pdf(path: Path) -> Path:
    """One page that pdfminer needs several seconds for (200 000 empty text objects)."""
    stream = zlib.compress(b"BT /F1 8 Tf 10 50 Td (Slow page.) Tj ET\n" + b"BT ET " * 200_000)
    path.write_bytes(
        _assemble_pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Count 1 /Kids [4 0 R] >>",
                b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] "
                b"/Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
                b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream"
                % (len(stream), stream),
            ]
        )
    )
    return path


@pytest.mark.timeout(120)
@pytest.mark.parametrize("backend", [_backend(b) for b in ("pdfplumber", "unstructured")])
def test_time_limit_inside_pdfminer_is_a_timeout(tmp_path: Path, backend: str) -> None:
    skip_without(backend)
    path = _slow_pdf(tmp_path / "slow.pdf")
    if backend == "unstructured":
        docparse.parse(path, backend=backend)  # import unstructured and spaCy outside the limit
    start = time.monotonic()
    with pytest.raises(ParseTimeoutError) as info:
        docparse.parse(path, backend=backend, config={"timeout": 1})
    assert time.monotonic() - start < 10
    assert info.value.path == str(path)
    assert "longer than 1 s" in info.value.message


@pytest.mark.timeout(60)
def test_pdfplumber_page_handler_passes_the_time_limit_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The alarm arriving inside pdfminer's interpreter, deterministically."""
    from pdfminer.pdfinterp import PDFPageInterpreter

    path = tmp_path / "cycle.pdf"
    path.write_bytes(reference_cycle_pdf())

    def alarm(self: object, page: object) -> None:
        raise ParseTimeoutError(path, "parsing took longer than 1 s")

    monkeypatch.setattr(PDFPageInterpreter, "process_page", alarm)
    with pytest.raises(ParseTimeoutError):
        docparse.parse(path, backend="pdfplumber")

    def broken(self: object, page: object) -> None:
        raise ValueError("a broken content stream")

    monkeypatch.setattr(PDFPageInterpreter, "process_page", broken)
    with pytest.raises(CorruptDocumentError, match="page 1 cannot be read by pdfminer"):
        docparse.parse(path, backend="pdfplumber")


def _busy(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


@pytest.mark.timeout(30)
def test_time_limit_kept_when_a_library_swallows_it(tmp_path: Path) -> None:
    from docparse.api import _time_limit

    path = tmp_path / "x.pdf"

    def swallowing_library() -> None:
        # What unstructured's pypdf complexity check does with any exception.
        with contextlib.suppress(Exception):
            _busy(2)
        _busy(20)  # without the repeat the parse would go on here, unlimited

    start = time.monotonic()
    with pytest.raises(ParseTimeoutError), _time_limit(path, 0.2), TimeLimitKept():
        swallowing_library()
    # Far below the 22 s the library would run unlimited, with room for a loaded machine.
    assert time.monotonic() - start < 10


@pytest.mark.timeout(30)
@pytest.mark.parametrize("ending", ["wrapped", "late_result"])
def test_time_limit_kept_replaces_what_hid_it(tmp_path: Path, ending: str) -> None:
    from docparse.api import _time_limit

    path = tmp_path / "x.pdf"

    def library() -> str:
        try:
            _busy(2)
        except Exception as exc:  # a library's catch-all
            if ending == "wrapped":
                raise RuntimeError("library failed") from exc
        return "a result after the deadline"

    with pytest.raises(ParseTimeoutError), _time_limit(path, 0.2), TimeLimitKept():
        library()


def test_time_limit_kept_does_nothing_without_a_limit() -> None:
    with TimeLimitKept() as kept:
        _busy(0.05)
    assert kept.fired is None


# ---------------------------------------------------------------- absurd geometry

_FAR = b"10000000000000000000"  # 10^19


@pytest.mark.timeout(120)
@pytest.mark.parametrize("backend", [_backend(b) for b in PDF_BACKENDS])
@pytest.mark.parametrize("first_x", [_FAR, b"10000000000"], ids=["x=1e19", "x=1e10"])
def test_text_far_off_the_page(tmp_path: Path, backend: str, first_x: bytes) -> None:
    skip_without(backend)
    path = tmp_path / "far.pdf"
    path.write_bytes(two_lines_pdf(first_x=first_x))
    texts = [u.text for u in docparse.parse(path, backend=backend).units]
    if backend == "pdfplumber":  # pdfminer keeps off-page text; nothing sizes arrays by it
        assert texts[-1] == "Second line of text."
    else:  # dropped, as MuPDF does
        assert texts == ["Second line of text."]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("backend", [_backend(b) for b in PDF_BACKENDS])
@pytest.mark.parametrize("side", [_FAR, b"1000000000000", b"144001"])
def test_page_box_beyond_any_page_is_corrupt(tmp_path: Path, backend: str, side: bytes) -> None:
    skip_without(backend)
    path = tmp_path / "box.pdf"
    path.write_bytes(two_lines_pdf(mediabox=b"0 0 %s %s" % (side, side)))
    with pytest.raises(CorruptDocumentError, match=r"page 1 is .* pt, larger than any page"):
        docparse.parse(path, backend=backend)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("backend", [_backend(b) for b in PDF_BACKENDS])
def test_largest_page_box_taken_as_a_page_parses(tmp_path: Path, backend: str) -> None:
    skip_without(backend)
    path = tmp_path / "box.pdf"
    path.write_bytes(two_lines_pdf(mediabox=b"0 0 144000 144000"))
    texts = [u.text for u in docparse.parse(path, backend=backend).units]
    assert "Second line of text." in texts


def test_drop_far_elements_keeps_elements_without_coordinates_and_drops_nan() -> None:
    from types import SimpleNamespace

    from docparse.backends.unstructured import _drop_far_elements

    def element(points: object) -> SimpleNamespace:
        coords = None if points is None else SimpleNamespace(points=points)
        return SimpleNamespace(metadata=SimpleNamespace(coordinates=coords, page_number=1))

    on_page = element(((10.0, 10.0), (10.0, 20.0), (50.0, 20.0), (50.0, 10.0)))
    no_box = element(None)
    nan = element(((float("nan"), 10.0), (10.0, 20.0), (50.0, 20.0), (50.0, 10.0)))
    far = element(((1e19, 10.0), (1e19, 20.0), (1e19, 20.0), (1e19, 10.0)))
    assert _drop_far_elements([[on_page, no_box, nan, far], []]) == [[on_page, no_box], []]
