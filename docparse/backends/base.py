"""The base class of the PDF backends: preflight, page stream, assembly, build.

A backend implements :meth:`PdfBackend.iter_pages` (its library's pages as
:class:`~docparse.backends.pages.PageContent` records); everything else is
shared: the checks in :mod:`docparse.backends.preflight`, the layout assembly in
:mod:`docparse.backends.layout` and the time limit in
:mod:`docparse.backends.timelimit`. The names of those modules are re-exported
here, where backends have always imported them from.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, ClassVar

from docparse.backends.layout import assemble_pages
from docparse.backends.pages import (
    ELEMENT_ROLES,
    Assembly,
    Block,
    BlockRole,
    Line,
    PageContent,
    PdfConfig,
    TableRegion,
    TableStrategy,
    TextSpan,
    display_bbox,
)
from docparse.backends.preflight import (
    MAX_PAGE_SIDE,
    NO_TEXT_LAYER,
    PdfInfo,
    check_page_sizes,
    check_pdf_file,
    encrypted_error,
    load_pymupdf,
    no_text_layer,
    open_pymupdf,
    page_window,
    preflight,
    read_pdf,
)
from docparse.backends.timelimit import TimeLimitKept
from docparse.builder import build_document, content_hash
from docparse.model import Document, Format

__all__ = [
    "ELEMENT_ROLES",
    "MAX_PAGE_SIDE",
    "NO_TEXT_LAYER",
    "Assembly",
    "Block",
    "BlockRole",
    "Line",
    "PageContent",
    "PdfBackend",
    "PdfConfig",
    "PdfInfo",
    "TableRegion",
    "TableStrategy",
    "TextSpan",
    "TimeLimitKept",
    "assemble",
    "check_page_sizes",
    "check_pdf_file",
    "display_bbox",
    "encrypted_error",
    "load_pymupdf",
    "no_text_layer",
    "open_pymupdf",
    "page_window",
    "preflight",
    "read_pdf",
]


def assemble(pages: Iterable[PageContent], config: PdfConfig, *, path: str | Path) -> Assembly:
    """Turn a stream of pages into unit drafts (see :mod:`docparse.backends.layout`).

    Pages are consumed one at a time; only their lightweight text records
    are kept until the end, where running headers are detected across pages.
    """
    return assemble_pages(pages, config, path=path)


class PdfBackend(ABC):
    """Base class of the PDF backends: preflight, page stream, assembly, build.

    Subclasses set ``name`` and ``config_class`` and implement
    :meth:`iter_pages`; a subclass without it cannot be instantiated.
    ``in_memory_bytes``: a file up to this size is read once, into memory,
    for the checks, the backend (:attr:`PdfInfo.data`) and the document hash;
    0 (the default) for a backend that reads the file itself.
    """

    name: ClassVar[str] = "pdf"
    format: ClassVar[Format] = "pdf"
    config_class: ClassVar[type[Any]] = PdfConfig
    in_memory_bytes: ClassVar[int] = 0

    @abstractmethod
    def iter_pages(self, path: Path, config: Any, info: PdfInfo) -> Iterator[PageContent]:
        """One :class:`PageContent` per page of ``info.page_indices``, in order,
        releasing the library's page objects as it goes."""

    def document_title(self, path: Path, config: Any, info: PdfInfo) -> str | None:
        """The title on page 1, for a parse of a page range that starts later.

        The title describes the document, not the pages read, so page 1 is
        read (text only) as a full parse would read it.
        """
        first = dataclasses.replace(config, pages=(1, 1), tables=False)
        one = PdfInfo(info.n_pages, 0, 1)
        return assemble(self.iter_pages(path, first, one), first, path=path).title

    def parse(self, path: Path, config: Any) -> Document:
        """Parse ``path`` into a document (see the module docstring)."""
        from docparse.ocr.pages import OcrPass

        path = Path(path)
        with TimeLimitKept():
            data = read_pdf(path, self.in_memory_bytes) if self.in_memory_bytes else None
            info = preflight(path, config, data)
            doc_id = None if data is None else content_hash(data)
            del data
            ocr = OcrPass(path, config)
            result = assemble(ocr.pages(self.iter_pages(path, config, info)), config, path=path)
            # The file's bytes go before the build (document_title reads the file itself).
            info = dataclasses.replace(info, data=None)
            ocr.mark(result.drafts)
            title = result.title if info.first == 0 else self.document_title(path, config, info)
            flags = list(result.flags) + ocr.flags()
            flags += no_text_layer(path, result.pages_without_text, info.last - info.first)
            return build_document(
                path=path,
                format="pdf",
                backend=self.name,
                drafts=result.drafts,
                title=title,
                n_pages=info.n_pages,
                flags=flags,
                pages=result.pages,
                doc_id=doc_id,
            )
