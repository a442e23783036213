"""PDF backend on pypdfium2 (PDFium): text runs with boxes, through the shared assembly.

PDFium's text page gives the rectangles its text runs occupy
(``FPDFText_CountRects``) and the text inside each; a run is a word or a
stretch of words set in one go, with the font size and name of its first
character. Runs become :class:`~docparse.backends.base.TextSpan` records
(:mod:`docparse.backends.pypdfium2_runs`), grouped into lines and blocks by
:mod:`docparse.backends.lines` and read by the shared layout assembly, so units
are made as for the other backends.

PDFium has no table finder. With tables on, runs holding spaces are cut into
words at them and the page's path objects give its rules and shading
(:mod:`docparse.backends.pypdfium2_tables`); the shared region finders read
those, as for pdfplumber's words.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from docparse.backends.base import (
    PageContent,
    PdfBackend,
    PdfConfig,
    PdfInfo,
    TableRegion,
    encrypted_error,
)
from docparse.backends.lines import blocks_from_lines, lines_from_spans
from docparse.backends.pypdfium2_calls import TextCalls, TextPage
from docparse.backends.pypdfium2_runs import page_runs
from docparse.backends.pypdfium2_tables import (
    page_drawings,
    page_tables,
    page_words,
    text_lines,
)
from docparse.backends.table_candidates import PageInputs, Word
from docparse.errors import (
    CorruptDocumentError,
    MissingDependencyError,
    ParseError,
    cause_text,
)

INSTALL = "pip install 'docparse[pypdfium2]'"


def load_pypdfium2() -> Any:
    """The ``pypdfium2`` module, or :class:`MissingDependencyError` with the pip line."""
    try:
        return importlib.import_module("pypdfium2")
    except ImportError as exc:
        raise MissingDependencyError("the pypdfium2 backend", INSTALL, cause=exc) from exc


@dataclass(frozen=True, slots=True)
class Pypdfium2Config(PdfConfig):
    """Options of the pypdfium2 backend.

    ``bold_weight``: a run whose font weight is at least this is bold (the
    font name is also read: TeX's bold fonts report no weight).
    """

    bold_weight: int = 600


#: Files up to this size are read into memory and PDFium parses them there:
#: its page loads then read no file (3-5% less CPU for page load and text page
#: over the corpus, measured alternating both ways PDF by PDF); larger ones
#: are read from the file, as PDFium reads a path, to keep memory to the pages.
IN_MEMORY_BYTES = 256 * 2**20


class Pypdfium2Backend(PdfBackend):
    """PDF backend on PDFium (Apache-2.0/BSD): fast text runs with boxes."""

    name: ClassVar[str] = "pypdfium2"
    config_class: ClassVar[type[Any]] = Pypdfium2Config
    in_memory_bytes: ClassVar[int] = IN_MEMORY_BYTES

    def __init__(self) -> None:
        self._pdfium = load_pypdfium2()
        self._raw = importlib.import_module("pypdfium2.raw")

    def iter_pages(self, path: Path, config: Any, info: PdfInfo) -> Iterator[PageContent]:
        pdfium = self._pdfium
        source: bytes | str
        if info.data is not None:
            source = info.data  # read once by the parse (PdfBackend.in_memory_bytes)
        else:
            try:
                small = path.stat().st_size <= IN_MEMORY_BYTES
                source = path.read_bytes() if small else str(path)
            except OSError as exc:
                raise ParseError(
                    path, f"{path} cannot be read: {cause_text(exc, path)}", cause=exc
                ) from exc
        try:
            pdf = pdfium.PdfDocument(source, password=config.password)
        except pdfium.PdfiumError as exc:
            if "password" in str(exc).lower():
                raise encrypted_error(path, wrong_password=config.password is not None) from exc
            raise CorruptDocumentError(
                path, f"{path} cannot be opened as a PDF: {cause_text(exc, path)}", cause=exc
            ) from exc
        # Characters found mapped to Unicode, per font, across the document's pages.
        mapped: dict[tuple[str, int], set[str]] = {}
        calls = TextCalls(self._raw)
        try:
            document = pdf.raw
            for index in info.page_indices:
                page = calls.load_page(document, index)
                if not page:
                    raise CorruptDocumentError(
                        path, f"page {index + 1} cannot be read: PDFium could not load it"
                    )
                # Closed before the page goes on to the assembly: PDFium frees
                # it while its memory is still in the CPU's caches (after the
                # assembly's work on the page, closing took half as long again).
                try:
                    content = self._page(path, page, index, config, mapped, calls)
                finally:
                    calls.close_page(page)
                yield content
        finally:
            pdf.close()

    def _page(
        self,
        path: Path,
        page: Any,
        index: int,
        config: Pypdfium2Config,
        mapped: dict[tuple[str, int], set[str]],
        calls: TextCalls,
    ) -> PageContent:
        """The record of page ``index``, read from its PDFium page handle ``page``."""
        left, bottom, right, top = calls.page_box(page)
        width, height = float(right - left), float(top - bottom)
        textpage = calls.load_textpage(page)
        if not textpage:
            raise CorruptDocumentError(
                path, f"page {index + 1} cannot be read: PDFium could not make its text page"
            )
        try:
            text = TextPage(textpage, self._raw)
            spans, unmapped = page_runs(
                text, self._raw, left, top, config.bold_weight, mapped, calls
            )
            words: list[Word] = []
            if config.tables:
                # Cut while the text page is open: the cuts read its characters.
                words = page_words(spans, textpage, self._raw, left, top)
        finally:
            calls.close_textpage(textpage)
        lines = lines_from_spans(spans)
        blocks = blocks_from_lines(lines)
        tables: tuple[TableRegion, ...] = ()
        if config.tables and blocks:
            segments, fills, rules, paths = page_drawings(page, self._raw, left, top)
            inputs = PageInputs(
                width=width,
                height=height,
                words=tuple(words),
                lines=text_lines(lines),
                segments=tuple(segments),
                fills=tuple(fills),
            )
            tables = page_tables(inputs, rules, paths)
        return PageContent(
            number=index + 1,
            width=width,
            height=height,
            # PDFium's text boxes are in the unrotated page: the assembly turns them.
            rotation=calls.rotation(page),
            blocks=blocks,
            tables=tables,
            unmapped_glyphs=unmapped,
        )
