"""Checks every PDF backend runs before its library reads a file.

Bad PDFs are handled the same way for every backend: :func:`check_pdf_file`
(not a PDF, truncated), :func:`preflight` (encryption, zero pages, page range,
absurd page boxes) and :func:`no_text_layer` (scanned pages: a warning and a
flag, never invented text).
"""

from __future__ import annotations

import functools
import logging
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from docparse.backends.pages import PdfConfig
from docparse.errors import (
    ConfigError,
    CorruptDocumentError,
    EmptyDocumentError,
    EncryptedDocumentError,
    ParseError,
    cause_text,
)

log = logging.getLogger(__name__)

#: Flag set on :attr:`Document.flags` when pages have no extractable text.
NO_TEXT_LAYER = "no_text_layer"


_TAIL = 4096


def check_pdf_file(path: Path, data: bytes | None = None) -> None:
    """Reject files that are not PDFs or are cut short, before any library sees them.

    PDF libraries silently "repair" a truncated file and return whatever
    pages they can rebuild, so a cut-off download would look like a short
    document. A PDF must start with ``%PDF-`` (within the first KB, as the
    spec allows leading junk) and end with ``%%EOF`` (within the last 4 KB).
    ``data``: the file's bytes, when they were read already (see :func:`read_pdf`).
    """
    if data is not None:
        size, head, tail = len(data), data[:1024], data[max(0, len(data) - _TAIL) :]
    else:
        try:
            size = path.stat().st_size
            with path.open("rb") as fh:
                head = fh.read(1024)
                fh.seek(max(0, size - _TAIL))
                tail = fh.read()
        except OSError as exc:
            raise _unreadable(path, exc) from exc
    if size == 0:
        raise EmptyDocumentError(path, f"{path} is empty (0 bytes)")
    if b"%PDF-" not in head:
        raise CorruptDocumentError(path, f"{path} is not a PDF (no %PDF- header)")
    if b"%%EOF" not in tail:
        raise CorruptDocumentError(
            path, f"{path} is truncated or damaged (no %%EOF marker at the end)"
        )


def _unreadable(path: Path, exc: OSError) -> ParseError:
    return ParseError(path, f"{path} cannot be read: {cause_text(exc, path)}", cause=exc)


def read_pdf(path: Path, limit: int) -> bytes | None:
    """The bytes of ``path`` when it holds at most ``limit`` bytes, else ``None``.

    Read once, they serve the checks (:func:`preflight`), a backend that
    parses from memory (:attr:`PdfInfo.data`) and the document hash, in place
    of a read each. :class:`ParseError` when the file cannot be read.
    """
    try:
        if path.stat().st_size > limit:
            return None
        return path.read_bytes()
    except OSError as exc:
        raise _unreadable(path, exc) from exc


@dataclass(frozen=True, slots=True)
class PdfInfo:
    """Facts from :func:`preflight`: page count and the 0-based pages to read.

    ``data``: the file's bytes when the parse read them once (:func:`read_pdf`).
    """

    n_pages: int
    first: int
    last: int  # exclusive
    data: bytes | None = field(default=None, repr=False, compare=False)

    @property
    def page_indices(self) -> range:
        return range(self.first, self.last)


def encrypted_error(path: Path, *, wrong_password: bool) -> EncryptedDocumentError:
    """The typed error for an encrypted PDF, with the fix in the message."""
    if wrong_password:
        return EncryptedDocumentError(path, f"{path} is encrypted and the password is wrong")
    return EncryptedDocumentError(path, f"{path} is encrypted; pass password=...")


def page_window(path: Path, n_pages: int, pages: tuple[int, int] | None) -> PdfInfo:
    """0-based [first, last) of the requested 1-based inclusive range."""
    if n_pages == 0:
        raise EmptyDocumentError(path, f"{path} has no pages")
    if pages is None:
        return PdfInfo(n_pages, 0, n_pages)
    first, last = pages
    if first > n_pages:
        raise ConfigError(path, f"pages={first}-{last} but the document has {n_pages} pages")
    return PdfInfo(n_pages, first - 1, min(last, n_pages))


def load_pymupdf() -> Any:
    """The ``pymupdf`` module, typed loosely (its stubs are incomplete)."""
    import importlib

    return importlib.import_module("pymupdf")


def open_pymupdf(path: Path, password: str | None) -> Any:
    """``path`` opened with PyMuPDF and unlocked with ``password`` when it is encrypted.

    Raises :class:`CorruptDocumentError` when PyMuPDF cannot open it and
    :class:`EncryptedDocumentError` when the password is missing or wrong.
    The caller closes the document.
    """
    pymupdf = load_pymupdf()
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except (RuntimeError, ValueError) as exc:
        raise CorruptDocumentError(
            path, f"{path} cannot be opened as a PDF: {cause_text(exc, path)}", cause=exc
        ) from exc
    if doc.needs_pass and not doc.authenticate(password or ""):
        doc.close()
        raise encrypted_error(path, wrong_password=password is not None)
    return doc


#: The longest page side (points) read as a page: ten times the 14 400 units
#: (200 in) that PDF allows (ISO 32000-1 Annex C; larger drawings use /UserUnit).
#: A /MediaBox beyond it is damage: unstructured sizes a histogram by the page's
#: coordinates (a 10^19-point box: "negative dimensions", 10^12: MemoryError),
#: and float precision at that scale garbles pdfminer's words.
MAX_PAGE_SIDE = 144_000.0


def check_page_sizes(path: Path, doc: Any, info: PdfInfo) -> None:
    """:class:`CorruptDocumentError` for a page in the window larger than :data:`MAX_PAGE_SIDE`."""
    pymupdf = load_pymupdf()
    for index in info.page_indices:
        try:
            box = doc.page_cropbox(index)
        except (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase):
            continue  # a broken page dictionary: the backend names the page when it reads it
        width, height = abs(float(box.width)), abs(float(box.height))
        if not (width <= MAX_PAGE_SIDE and height <= MAX_PAGE_SIDE):
            limit = f"{MAX_PAGE_SIDE:,.0f}".replace(",", " ")
            raise CorruptDocumentError(
                path,
                f"page {index + 1} is {width:.4g} x {height:.4g} pt, larger than any page "
                f"(PDF allows 14 400 pt a side; over {limit} pt is taken as a damaged page box)",
            )


@functools.cache
def _checked_document() -> Any:
    """``pymupdf.Document`` that leaves the outline unread.

    PyMuPDF reads a document's outline as it opens it (about a third of the
    preflight's CPU time over the corpus's PDFs), and the checks never look
    at it; an outline it cannot read is dropped there anyway (no error).
    """
    pymupdf = load_pymupdf()
    return type("CheckedDocument", (pymupdf.Document,), {"_loadOutline": lambda self: None})


def _open_checked(path: Path, data: bytes | None) -> Any:
    """``path`` opened for the checks, from ``data`` when given."""
    if data is not None:
        try:
            return _checked_document()(stream=data, filetype="pdf")
        except (RuntimeError, ValueError):
            # Opened again from the path, for the error PyMuPDF gives a file
            # (from memory it says only "Failed to open stream").
            pass
    return _checked_document()(path, filetype="pdf")


def preflight(path: Path, config: PdfConfig, data: bytes | None = None) -> PdfInfo:
    """Check a PDF with PyMuPDF (a core dependency) before a backend parses it.

    Raises :class:`CorruptDocumentError` (not a PDF, truncated, unreadable,
    a page box larger than :data:`MAX_PAGE_SIDE`),
    :class:`EncryptedDocumentError` (no or wrong password),
    :class:`EmptyDocumentError` (zero pages). Returns the page window, with
    ``data`` (the file's bytes, when read already: :func:`read_pdf`) in it.
    """
    check_pdf_file(path, data)
    try:
        doc = _open_checked(path, data)
    except (RuntimeError, ValueError) as exc:  # pymupdf.FileDataError is a RuntimeError
        raise CorruptDocumentError(
            path, f"{path} cannot be opened as a PDF: {cause_text(exc, path)}", cause=exc
        ) from exc
    try:
        if doc.needs_pass:
            if config.password is None:
                raise encrypted_error(path, wrong_password=False)
            if not doc.authenticate(config.password):
                raise encrypted_error(path, wrong_password=True)
        try:
            n_pages = doc.page_count
        except (RuntimeError, ValueError) as exc:
            # The page tree is read lazily: "Invalid number of pages" shows here.
            raise CorruptDocumentError(
                path, f"the page tree cannot be read: {exc}", cause=exc
            ) from exc
        info = page_window(path, n_pages, config.pages)
        check_page_sizes(path, doc, info)
        return info if data is None else replace(info, data=data)
    finally:
        doc.close()


def no_text_layer(path: Path, pages: list[int], n_read: int) -> list[str]:
    """Warn about pages without a text layer; return the flags to set.

    ``pages`` are those still without text after OCR (off, no engine, or
    nothing readable on the image): they produce no units. The document gets
    ``no_text_layer`` when no page read has text.
    """
    if not pages:
        return []
    if len(pages) >= n_read:
        warnings.warn(
            f"{path}: no text layer on any of the {n_read} page(s) read "
            "(scanned or image-only PDF; OCR was off or found no text)",
            UserWarning,
            stacklevel=3,
        )
        return [NO_TEXT_LAYER]
    log.info("%s: pages without text: %s", path, pages)
    return [f"{NO_TEXT_LAYER}:pages={','.join(map(str, pages))}"]
