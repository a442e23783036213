"""Format detection from the file name and the first bytes of the file."""

from __future__ import annotations

import re
from pathlib import Path

from docparse.errors import EmptyDocumentError, UnsupportedFormatError
from docparse.model import Format

_EXTENSIONS: dict[str, Format] = {
    ".pdf": "pdf",
    ".tex": "tex",
    ".ltx": "tex",
    ".htm": "htm",
    ".html": "htm",
    ".csv": "csv",
    ".tsv": "csv",
    ".txt": "txt",
    ".text": "txt",
    ".json": "s2orc",
    ".nxml": "jats",
    ".xml": "jats",
    ".md": "markdown",
    ".markdown": "markdown",
}

#: Markdown as parsers write it: ATX headings, pipe-table delimiter rows,
#: marker's page separators, fenced code, images.
_MARKDOWN_LINE = re.compile(
    rb"^(?:#{1,6} \S|\|?\s*:?-{3,}:?\s*\||\{\d+\}-{8,}|```|!\[[^\]]*\]\()", re.MULTILINE
)

_HEAD_BYTES = 8192


def sniff(head: bytes) -> Format | None:
    """Guess a format from the first bytes of a file, or ``None``."""
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"PK\x03\x04"):
        # A ZIP that stores a PDF uncompressed has "%PDF-" in its first KB;
        # PDF readers would "repair" their way to the inner file.
        return None
    if stripped.startswith(b"%PDF-") or b"%PDF-" in head[:1024]:
        return "pdf"
    lower = stripped[:_HEAD_BYTES].lower()
    if lower.startswith(b"{") and b'"doclingdocument"' in lower:
        return "docling"
    if lower.startswith(b"{") and (
        b'"body_text"' in lower or b'"pdf_parse"' in lower or b'"paper_id"' in lower
    ):
        return "s2orc"
    if b"<article" in lower and (
        b"jats" in lower or b"<front" in lower or b"dtd" in lower or b"article-type" in lower
    ):
        return "jats"
    if lower.startswith(b"<document>") or b"<html" in lower or b"<!doctype html" in lower:
        return "htm"
    if re.search(rb"\\(documentclass|begin\{document\}|section\*?\{)", stripped[:_HEAD_BYTES]):
        return "tex"
    if len(_MARKDOWN_LINE.findall(stripped[:_HEAD_BYTES])) >= 2:
        return "markdown"
    return None


def _describe(head: bytes) -> str:
    lower = head.lstrip()[:512].lower()
    if head.startswith(b"PK\x03\x04"):
        return "a ZIP archive"
    if b"<html" in lower or b"<!doctype" in lower:
        return "HTML"
    if lower.startswith(b"<?xml") or lower.startswith(b"<"):
        return "XML/markup"
    if not head:
        return "empty"
    return "unrecognised content"


def detect_format(path: str | Path) -> Format:
    """The format of ``path`` by extension, checked against its content.

    A file whose extension says PDF but whose bytes are not a PDF (an HTML
    error page saved as ``.pdf``, a ZIP) raises
    :class:`~docparse.errors.UnsupportedFormatError` rather than being
    handed to a PDF library.
    """
    p = Path(path)
    with open(p, "rb") as fh:
        head = fh.read(_HEAD_BYTES)
    if not head:
        raise EmptyDocumentError(p, f"{p} is empty (0 bytes)")
    by_ext = _EXTENSIONS.get(p.suffix.lower())
    by_content = sniff(head)
    if by_ext == "pdf":
        if by_content != "pdf":
            raise UnsupportedFormatError(
                p, f"{p} has a .pdf extension but is {_describe(head)}, not a PDF"
            )
        return "pdf"
    if by_ext is not None:
        if by_content == "pdf":
            return "pdf"
        if by_ext == "s2orc" and by_content == "docling":
            return "docling"  # both are .json: the content tells them apart
        return by_ext
    if by_content is not None:
        return by_content
    raise UnsupportedFormatError(
        p,
        f"format not recognised ({_describe(head)}); pass format= one of "
        "pdf, tex, htm, csv, txt, s2orc, jats, markdown, docling",
    )
