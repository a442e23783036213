"""The shared interface of the PDF backends.

Every backend turns its library's native output, one page at a time, into the
lightweight, library-independent :class:`PageContent` records defined here
(blocks of lines of styled spans, table regions, image boxes; all geometry in
PDF points with a top-left origin). :func:`assemble` (implemented in
:mod:`docparse.backends.layout`) turns a stream of pages into
:class:`~docparse.builder.UnitDraft` objects: reading order, headings and
sections, paragraph merging, de-hyphenation, running headers and page numbers
as furniture, tables and captions. Backends therefore differ only in how they
*see* a page, never in how units are made, which is what makes their outputs
comparable.

The helpers at the bottom handle bad PDFs the same way for every backend:
:func:`check_pdf_file` (not a PDF, truncated), :func:`preflight` (encryption,
zero pages, page range) and :func:`no_text_layer`.

A backend built on an element stream (such as ``unstructured``) fills
:attr:`Block.role` from the element category (see :data:`ELEMENT_ROLES`); the
assembly then trusts the role instead of guessing from fonts.
"""

from __future__ import annotations

import logging
import signal
import threading
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, TracebackType
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from docparse.config import ParserConfig
from docparse.errors import (
    ConfigError,
    CorruptDocumentError,
    EmptyDocumentError,
    EncryptedDocumentError,
    ParseError,
    ParseTimeoutError,
    cause_text,
)
from docparse.model import BBox, Document, Format

if TYPE_CHECKING:
    from docparse.builder import UnitDraft

log = logging.getLogger(__name__)

#: Flag set on :attr:`Document.flags` when pages have no extractable text.
NO_TEXT_LAYER = "no_text_layer"


@dataclass(frozen=True, slots=True)
class PdfConfig(ParserConfig):
    """Options every PDF backend accepts.

    ``tables``: detect tables and emit them as table units (their text is
    then not repeated as paragraphs). ``pages``: 1-based inclusive page
    range ``(first, last)``; a list of two ints is accepted from a dict;
    ``None`` for all pages. ``password``: for encrypted PDFs.
    ``remove_headers``: move running headers/footers and page numbers out of
    the text into ``furniture`` units. ``dehyphenate``: join words broken by
    an end-of-line hyphen when the joined word is a word.
    """

    tables: bool = True
    pages: tuple[int, int] | None = None
    password: str | None = None
    remove_headers: bool = True
    dehyphenate: bool = True

    def __post_init__(self) -> None:
        if self.pages is not None:
            if isinstance(self.pages, list):  # constructed directly with a list
                object.__setattr__(self, "pages", tuple(self.pages))
            first, last = self.pages
            if first < 1 or last < first:
                raise ConfigError(
                    None, f"pages={self.pages!r} must be (first, last) with 1 <= first <= last"
                )


# --------------------------------------------------------------------------- page model

#: What a block is, when the backend knows (element streams) or the assembly
#: decided. ``None`` means "text, to be classified by layout".
BlockRole = Literal[
    "title",
    "heading",
    "paragraph",
    "list_item",
    "caption",
    "table",
    "figure",
    "footnote",
    "equation",
    "header",
    "footer",
    "page_number",
]

#: unstructured element categories -> block roles (``None``: let layout decide).
ELEMENT_ROLES: dict[str, BlockRole | None] = {
    "Title": "heading",
    "NarrativeText": "paragraph",
    "ListItem": "list_item",
    "Table": "table",
    "FigureCaption": "caption",
    "Image": "figure",
    "Figure": "figure",
    "Formula": "equation",
    "Footnote": "footnote",
    "Header": "header",
    "Footer": "footer",
    "PageNumber": "page_number",
    "Text": None,
    "UncategorizedText": None,
    "Address": None,
    "EmailAddress": None,
}


@dataclass(frozen=True, slots=True)
class TextSpan:
    """A run of text in one font. ``size`` 0 means unknown (element streams)."""

    text: str
    bbox: BBox
    size: float = 0.0
    bold: bool = False
    font: str = ""


@dataclass(frozen=True, slots=True)
class Line:
    """One visual line: spans left to right."""

    spans: tuple[TextSpan, ...]
    bbox: BBox

    @property
    def text(self) -> str:
        """Span texts joined; a space is inserted where spans leave a gap."""
        out: list[str] = []
        prev: TextSpan | None = None
        for s in self.spans:
            if prev is not None and out:
                gap = s.bbox.x0 - prev.bbox.x1
                if (
                    gap > 0.15 * max(s.size, prev.size, 1.0)
                    and not out[-1].endswith(" ")
                    and not s.text.startswith(" ")
                ):
                    out.append(" ")
            out.append(s.text)
            prev = s
        return "".join(out)

    @property
    def size(self) -> float:
        """Font size of most characters in the line."""
        by: dict[float, int] = {}
        for s in self.spans:
            k = round(s.size, 1)
            by[k] = by.get(k, 0) + len(s.text.strip())
        return max(by, key=lambda k: by[k]) if by else 0.0

    @property
    def bold(self) -> bool:
        """True when every non-blank span is bold."""
        spans = [s for s in self.spans if s.text.strip()]
        return bool(spans) and all(s.bold for s in spans)


@dataclass(frozen=True, slots=True)
class Block:
    """A group of lines the backend saw as one block (or one element).

    ``role`` is set by element-stream backends (see :data:`ELEMENT_ROLES`);
    ``None`` lets the layout assembly classify the block.
    """

    lines: tuple[Line, ...]
    bbox: BBox
    role: BlockRole | None = None

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


@dataclass(frozen=True, slots=True)
class TableRegion:
    """A table the backend detected: its box and its cells as strings.

    ``rows`` is a rectangular grid (missing cells ``""``); ``spans`` lists
    merged cells as ``(row, col, row_span, col_span)``.
    """

    bbox: BBox
    rows: tuple[tuple[str, ...], ...]
    n_header_rows: int = 0
    spans: tuple[tuple[int, int, int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class PageContent:
    """Everything the assembly needs to know about one page.

    ``number`` is 1-based. ``width``/``height`` and all boxes are top-left
    origin points in the space the assembly should read the page in.
    ``rotation`` (0, 90, 180, 270) is what the assembly still has to apply to
    turn those boxes into the displayed page's (see :func:`display_bbox`).
    Both built-in backends report the displayed page already (a landscape
    page set sideways with ``/Rotate 90`` then reads left to right) and pass
    ``rotation=0``; a backend that only has unrotated coordinates passes the
    page's ``/Rotate``. ``images`` are boxes of raster images.
    """

    number: int
    width: float
    height: float
    rotation: int = 0
    blocks: tuple[Block, ...] = ()
    tables: tuple[TableRegion, ...] = ()
    images: tuple[BBox, ...] = ()

    @property
    def has_text(self) -> bool:
        return any(b.text.strip() for b in self.blocks) or any(
            c.strip() for t in self.tables for r in t.rows for c in r
        )


def display_bbox(b: BBox, rotation: int, width: float, height: float) -> BBox:
    """``b`` (unrotated page space, page ``width`` x ``height``) as seen on the
    page displayed with ``rotation`` degrees clockwise, top-left origin."""
    r = rotation % 360
    if r == 90:
        return BBox(height - b.y1, b.x0, height - b.y0, b.x1)
    if r == 180:
        return BBox(width - b.x1, height - b.y1, width - b.x0, height - b.y0)
    if r == 270:
        return BBox(b.y0, width - b.x1, b.y1, width - b.x0)
    return b


@dataclass(slots=True)
class Assembly:
    """What :func:`assemble` returns: drafts (furniture included) and facts."""

    drafts: list[UnitDraft]
    title: str | None = None
    n_pages: int = 0
    pages_without_text: list[int] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)


def assemble(pages: Iterable[PageContent], config: PdfConfig, *, path: str | Path) -> Assembly:
    """Turn a stream of pages into unit drafts (see :mod:`docparse.backends.layout`).

    Pages are consumed one at a time; only their lightweight text records
    are kept until the end, where running headers are detected across pages.
    """
    from docparse.backends.layout import assemble_pages

    return assemble_pages(pages, config, path=path)


# --------------------------------------------------------------------------- tables

#: Table strategies every backend understands. ``auto``: ruled tables first;
#: on pages where that finds no table of at least 4 rows and that look
#: numeric, ruled columns with text-aligned rows, then text alignment alone,
#: keeping the first result that looks like a table (see :func:`plausible_table`).
TableStrategy = Literal["auto", "lines", "text", "lines_then_text"]

# --------------------------------------------------------------------------- bad PDFs

_TAIL = 4096


def check_pdf_file(path: Path) -> None:
    """Reject files that are not PDFs or are cut short, before any library sees them.

    PDF libraries silently "repair" a truncated file and return whatever
    pages they can rebuild, so a cut-off download would look like a short
    document. A PDF must start with ``%PDF-`` (within the first KB, as the
    spec allows leading junk) and end with ``%%EOF`` (within the last 4 KB).
    """
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(1024)
            fh.seek(max(0, size - _TAIL))
            tail = fh.read()
    except OSError as exc:
        raise ParseError(
            path, f"{path} cannot be read: {cause_text(exc, path)}", cause=exc
        ) from exc
    if size == 0:
        raise EmptyDocumentError(path, f"{path} is empty (0 bytes)")
    if b"%PDF-" not in head:
        raise CorruptDocumentError(path, f"{path} is not a PDF (no %PDF- header)")
    if b"%%EOF" not in tail:
        raise CorruptDocumentError(
            path, f"{path} is truncated or damaged (no %%EOF marker at the end)"
        )


@dataclass(frozen=True, slots=True)
class PdfInfo:
    """Facts from :func:`preflight`: page count and the 0-based pages to read."""

    n_pages: int
    first: int
    last: int  # exclusive

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


def preflight(path: Path, config: PdfConfig) -> PdfInfo:
    """Check a PDF with PyMuPDF (a core dependency) before a backend parses it.

    Raises :class:`CorruptDocumentError` (not a PDF, truncated, unreadable,
    a page box larger than :data:`MAX_PAGE_SIDE`),
    :class:`EncryptedDocumentError` (no or wrong password),
    :class:`EmptyDocumentError` (zero pages). Returns the page window.
    """
    pymupdf = load_pymupdf()
    check_pdf_file(path)
    try:
        doc = pymupdf.open(path, filetype="pdf")
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
        return info
    finally:
        doc.close()


def no_text_layer(path: Path, pages: list[int], n_read: int) -> list[str]:
    """Warn about pages without a text layer; return the flags to set.

    No OCR is attempted and no text is invented: the pages simply produce no
    units. The document gets ``no_text_layer`` when no page read has text.
    """
    if not pages:
        return []
    if len(pages) >= n_read:
        warnings.warn(
            f"{path}: no text layer on any of the {n_read} page(s) read "
            "(scanned or image-only PDF; OCR is not done)",
            UserWarning,
            stacklevel=3,
        )
        return [NO_TEXT_LAYER]
    log.info("%s: pages without text: %s", path, pages)
    return [f"{NO_TEXT_LAYER}:pages={','.join(map(str, pages))}"]


#: Seconds between repeats of a time-limit alarm that a library caught.
_REFIRE = 0.05


class TimeLimitKept:
    """Keep the ``parse(config={"timeout": ...})`` alarm from being lost in a library.

    The limit is a SIGALRM handler (``docparse.api``) that raises
    :class:`ParseTimeoutError` in whatever Python code is running. PDF
    libraries catch or wrap it: pdfplumber re-raises every pdfminer exception
    as ``PdfminerException`` (which a backend would report as a corrupt page),
    and unstructured's pypdf complexity check ends in ``except Exception:
    return False``, after which the one-shot alarm is spent and the parse runs
    on without a limit. Inside this context the armed handler is wrapped: the
    first timeout it raises is kept, the alarm repeats every
    :data:`_REFIRE` seconds until it gets out of the library, and on exit the
    kept timeout is raised in place of whatever the body ended in (an error
    that hid it, or a late result). Does nothing when no Python handler is
    armed or outside the main thread.
    """

    def __init__(self) -> None:
        self.fired: ParseTimeoutError | None = None
        self._outer: Callable[[int, FrameType | None], Any] | None = None

    def __enter__(self) -> TimeLimitKept:
        handler = signal.getsignal(signal.SIGALRM)
        if callable(handler) and threading.current_thread() is threading.main_thread():
            self._outer = handler
            signal.signal(signal.SIGALRM, self._on_alarm)
        return self

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        assert self._outer is not None
        try:
            self._outer(signum, frame)
        except ParseTimeoutError as exc:
            if self.fired is None:
                self.fired = exc
            signal.setitimer(signal.ITIMER_REAL, _REFIRE)
            raise

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._outer is None:
            return
        if self.fired is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self._outer)
        self._outer = None
        if self.fired is not None and not isinstance(exc, ParseTimeoutError):
            raise self.fired


# --------------------------------------------------------------------------- backend base


class PdfBackend(ABC):
    """Base class of the PDF backends: preflight, page stream, assembly, build.

    Subclasses set ``name`` and ``config_class`` and implement
    :meth:`iter_pages`; a subclass without it cannot be instantiated.
    """

    name: ClassVar[str] = "pdf"
    format: ClassVar[Format] = "pdf"
    config_class: ClassVar[type[Any]] = PdfConfig

    @abstractmethod
    def iter_pages(self, path: Path, config: Any, info: PdfInfo) -> Iterator[PageContent]:
        """One :class:`PageContent` per page of ``info.page_indices``, in order,
        releasing the library's page objects as it goes."""

    def parse(self, path: Path, config: Any) -> Document:
        """Parse ``path`` into a document (see the module docstring)."""
        from docparse.builder import build_document

        path = Path(path)
        with TimeLimitKept():
            info = preflight(path, config)
            result = assemble(self.iter_pages(path, config, info), config, path=path)
            flags = list(result.flags)
            flags += no_text_layer(path, result.pages_without_text, info.last - info.first)
            return build_document(
                path=path,
                format="pdf",
                backend=self.name,
                drafts=result.drafts,
                title=result.title,
                n_pages=info.n_pages,
                flags=flags,
            )
