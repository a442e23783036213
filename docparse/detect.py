"""Format detection from the file name and the first bytes of the file.

The extensions and content tests are those of the format table,
:mod:`docparse.formats.catalog`.
"""

from __future__ import annotations

from pathlib import Path

from docparse.errors import EmptyDocumentError, UnsupportedFormatError
from docparse.formats.catalog import FORMAT_TABLE, HEAD_BYTES, format_by_extension
from docparse.formats.catalog import sniff as sniff
from docparse.model import Format

__all__ = ["detect_format", "sniff"]


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
        head = fh.read(HEAD_BYTES)
    if not head:
        raise EmptyDocumentError(p, f"{p} is empty (0 bytes)")
    by_content = sniff(head)
    if p.suffix.lower() in FORMAT_TABLE["pdf"].extensions and by_content != "pdf":
        raise UnsupportedFormatError(
            p, f"{p} has a .pdf extension but is {_describe(head)}, not a PDF"
        )
    if by_content == "pdf":
        return "pdf"
    by_ext = format_by_extension(p.suffix, by_content, confirm_shared=False)
    if by_ext is not None:
        return by_ext
    if by_content is not None:
        return by_content
    raise UnsupportedFormatError(
        p,
        f"format not recognised ({_describe(head)}); pass format= one of "
        + ", ".join(FORMAT_TABLE),
    )
