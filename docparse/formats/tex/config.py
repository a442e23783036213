"""Options of the LaTeX parser."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from docparse.config import ParserConfig


@dataclass(frozen=True, slots=True)
class TexConfig(ParserConfig):
    """Options of the LaTeX parser.

    ``on_unsafe_input``: what an ``\\input`` of a path outside the document's
    folder (or an absolute path) does: ``"skip"`` it with a logged warning and
    the document flag ``unsafe_input_skipped`` (default), or ``"raise"``
    :class:`~docparse.errors.UnsafeInputError`.
    ``authors``: emit one paragraph unit per ``\\author`` (name only).
    ``footnotes``: emit footnote text as ``footnote`` units.
    ``max_input_depth``: nesting limit of ``\\input`` files.
    ``max_macro_depth``: nesting limit of user macro expansion (guards
    recursive definitions); ``max_macro_expansions`` bounds their total count.
    ``bibtex``: the PDF the twin stands for was built with BibTeX run on the
    ``.bib`` files ``\\bibliography`` names (``latexmk``); citation markers then
    come from them. By default only ``\\bibitem`` entries (in the source or the
    ``.bbl`` beside it) define a key, as for ``pdflatex`` alone or arXiv, and a key
    without one prints LaTeX's ``?``.
    """

    on_unsafe_input: Literal["skip", "raise"] = "skip"
    authors: bool = True
    footnotes: bool = True
    max_input_depth: int = 16
    max_macro_depth: int = 32
    max_macro_expansions: int = 50_000
    bibtex: bool = False
