"""The format table: every input format docparse reads, declared once.

Each :class:`FormatSpec` says what a format is called, which file name
extensions it has, how its content is recognised, which parser reads it
(a ``module:Class`` path, imported only when the parser is asked for) and
whether it can be the structured twin of a PDF. Format detection
(:mod:`docparse.detect`), the parser registry (:mod:`docparse.registry`),
the twin pairing of ``docparse ingest`` and the CLI help all read this
table, so a format or an extension added here is known everywhere at once.

This module imports no parser: importing it costs a few small functions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import get_args

from docparse.model import Format

__all__ = [
    "FORMAT_TABLE",
    "HEAD_BYTES",
    "TWIN_EXTENSIONS",
    "FormatSpec",
    "candidates",
    "format_by_extension",
    "sniff",
    "twin_formats",
]

#: How many bytes from the start of a file content sniffing looks at.
HEAD_BYTES = 8192

Sniffer = Callable[[bytes], bool]


def _text_start(head: bytes) -> bytes:
    """``head`` without a UTF-8 byte-order mark and leading blank space."""
    return head.lstrip(b"\xef\xbb\xbf \t\r\n")[:HEAD_BYTES]


def _is_pdf(head: bytes) -> bool:
    # Some producers put junk before the header; PDF readers accept it in the first KB.
    return _text_start(head).startswith(b"%PDF-") or b"%PDF-" in head[:1024]


def _is_docling(head: bytes) -> bool:
    lower = _text_start(head).lower()
    return lower.startswith(b"{") and b'"doclingdocument"' in lower


def _is_s2orc(head: bytes) -> bool:
    lower = _text_start(head).lower()
    return lower.startswith(b"{") and (
        b'"body_text"' in lower or b'"pdf_parse"' in lower or b'"paper_id"' in lower
    )


def _is_jats(head: bytes) -> bool:
    lower = _text_start(head).lower()
    return b"<article" in lower and (
        b"jats" in lower or b"<front" in lower or b"dtd" in lower or b"article-type" in lower
    )


def _is_html(head: bytes) -> bool:
    lower = _text_start(head).lower()
    return lower.startswith(b"<document>") or b"<html" in lower or b"<!doctype html" in lower


_LATEX = re.compile(rb"\\(documentclass|begin\{document\}|section\*?\{)")


def _is_latex(head: bytes) -> bool:
    return _LATEX.search(_text_start(head)) is not None


#: Markdown as parsers write it: ATX headings, pipe-table delimiter rows,
#: marker's page separators, fenced code, images.
_MARKDOWN_LINE = re.compile(
    rb"^(?:#{1,6} \S|\|?\s*:?-{3,}:?\s*\||\{\d+\}-{8,}|```|!\[[^\]]*\]\()", re.MULTILINE
)


def _is_markdown(head: bytes) -> bool:
    return len(_MARKDOWN_LINE.findall(_text_start(head))) >= 2


@dataclass(frozen=True, slots=True)
class FormatSpec:
    """One input format.

    ``extensions`` are lower case with the dot, the usual one first.
    ``shared_extensions`` are those of them that other files use too
    (``.json``, ``.xml``): ``docparse ingest``, which walks whole folders,
    reads such a file only when its content is this format, while
    ``docparse parse``, given the file, tries. ``parser`` is the
    ``module:Class`` of the format's one parser (``None`` for PDF, read by
    the PDF backends of :mod:`docparse.registry`). ``twin_rank`` is set when
    the format can be a PDF's structured twin: a PDF with several twins is
    paired with the lowest rank first. ``sniff`` recognises the format from
    the first bytes of a file; ``sniff_rank`` orders the sniffers, the more
    specific content first (a PDF header wins over anything, a
    DoclingDocument over other JSON, JATS over other markup, HTML over
    LaTeX quoted in it, LaTeX over Markdown-like lines).
    """

    name: Format
    title: str
    extensions: tuple[str, ...]
    parser: str | None
    twin_rank: int | None = None
    shared_extensions: tuple[str, ...] = ()
    sniff: Sniffer | None = None
    sniff_rank: int = 0

    @property
    def twin(self) -> bool:
        """Whether a file of this format can be a PDF's structured twin."""
        return self.twin_rank is not None


_SPECS = (
    FormatSpec("pdf", "PDF", (".pdf",), None, sniff=_is_pdf, sniff_rank=0),
    FormatSpec(
        "tex",
        "LaTeX",
        (".tex", ".ltx"),
        "docparse.formats.tex:TexParser",
        twin_rank=0,
        sniff=_is_latex,
        sniff_rank=5,
    ),
    FormatSpec(
        "htm",
        "HTML (SEC EDGAR)",
        (".htm", ".html"),
        "docparse.formats.htm:HtmParser",
        twin_rank=2,
        sniff=_is_html,
        sniff_rank=4,
    ),
    FormatSpec("csv", "CSV/TSV", (".csv", ".tsv"), "docparse.formats.csv:CsvParser", twin_rank=4),
    FormatSpec(
        "txt", "plain text", (".txt", ".text"), "docparse.formats.txt:TxtParser", twin_rank=5
    ),
    FormatSpec(
        "s2orc",
        "S2ORC JSON",
        (".json",),
        "docparse.formats.s2orc:S2orcParser",
        twin_rank=3,
        shared_extensions=(".json",),
        sniff=_is_s2orc,
        sniff_rank=2,
    ),
    FormatSpec(
        "jats",
        "PMC JATS XML",
        (".nxml", ".xml"),
        "docparse.formats.jats:JatsParser",
        twin_rank=1,
        shared_extensions=(".xml",),
        sniff=_is_jats,
        sniff_rank=3,
    ),
    FormatSpec(
        "markdown",
        "Markdown",
        (".md", ".markdown"),
        "docparse.formats.markdown:MarkdownParser",
        sniff=_is_markdown,
        sniff_rank=6,
    ),
    FormatSpec(
        "docling",
        "docling JSON",
        (".json",),
        "docparse.formats.docling:DoclingParser",
        shared_extensions=(".json",),
        sniff=_is_docling,
        sniff_rank=1,
    ),
)

#: Every format by name, in the order of :data:`docparse.model.FORMATS`.
FORMAT_TABLE: dict[str, FormatSpec] = {s.name: s for s in _SPECS}

if tuple(FORMAT_TABLE) != get_args(Format):  # pragma: no cover - a table edit without the type
    raise RuntimeError("the format table and the Format literal in docparse.model disagree")

_SNIFFERS = tuple(
    (s.name, s.sniff) for s in sorted(_SPECS, key=lambda s: s.sniff_rank) if s.sniff is not None
)


def sniff(head: bytes) -> Format | None:
    """The format the first bytes of a file show, or ``None``."""
    if head.startswith(b"PK\x03\x04"):
        # A ZIP that stores a PDF uncompressed has "%PDF-" in its first KB;
        # PDF readers would "repair" their way to the inner file.
        return None
    for name, looks_like in _SNIFFERS:
        if looks_like(head):
            return name
    return None


def candidates(extension: str) -> tuple[FormatSpec, ...]:
    """The formats with ``extension`` (``".json"``; any case), in table order."""
    ext = extension.lower()
    return tuple(s for s in _SPECS if ext in s.extensions)


def format_by_extension(
    extension: str, content: Format | None, *, confirm_shared: bool
) -> Format | None:
    """The format of a file with ``extension`` whose content :func:`sniff` shows as ``content``.

    Among the formats with that extension the content decides (``.json``:
    S2ORC or docling); when it names none of them, the first one is taken,
    except that with ``confirm_shared`` a shared extension (``.json``,
    ``.xml``) needs content of its format. ``None`` when no format has the
    extension or the content was not confirmed.
    """
    specs = candidates(extension)
    for spec in specs:
        if spec.name == content:
            return spec.name
    ext = extension.lower()
    for spec in specs:
        if not (confirm_shared and ext in spec.shared_extensions):
            return spec.name
    return None


def twin_formats() -> tuple[FormatSpec, ...]:
    """The formats that can be a PDF's twin, the preferred one first."""
    twins = [s for s in _SPECS if s.twin_rank is not None]
    return tuple(sorted(twins, key=lambda s: s.twin_rank or 0))


#: Twin file extensions, the preferred one first (``x.pdf`` pairs with ``x.tex``, ...).
TWIN_EXTENSIONS: tuple[str, ...] = tuple(e for s in twin_formats() for e in s.extensions)
