"""LaTeX (``.tex``) twin parser.

A ``.tex`` file is the perfect parse of its PDF: this module cuts it into the
same source units a PDF parse has (title, abstract, headings, paragraphs,
list items, tables, captions, equations, footnotes) with clean plain text.

How the source is read
----------------------
* ``\\input``/``\\include``/``\\subfile``/``\\import`` are resolved relative to
  the including file (then the main file's folder). A path that is absolute or
  resolves outside the main file's folder is never read: it is skipped with a
  logged warning and the flag ``unsafe_input_skipped`` (or, with
  ``TexConfig(on_unsafe_input="raise")``, :class:`~docparse.errors.UnsafeInputError`
  is raised). Missing files are logged and flagged ``missing_input``; an input
  that is already being read (a loop) is skipped and flagged ``input_loop``.
* Comments and the preamble are dropped. ``\\newcommand``/``\\renewcommand``/
  ``\\providecommand``/``\\def`` macros (also with arguments and an optional
  first argument) are expanded where they are used in text; math is kept as
  written, so macros inside ``$...$`` stay unexpanded. Argument-free macros
  that open or close an environment (``\\be``/``\\ee`` for ``equation``) are
  expanded in the text before parsing. Expansion depth and count are bounded
  (flag ``macro_expansion_limit``).
* The ``\\part`` ... ``\\subparagraph`` family (starred too) gives heading units
  and the section path of every unit (heading titles, outermost first).

What the units are
------------------
* Paragraphs split at blank lines (and ``\\par``). Floats (figures, tables)
  and footnotes met inside a paragraph do not split it: their units follow the
  paragraph.
* Inline markup is rendered to text (``\\textbf{x}`` -> ``x``, accents and
  symbols to Unicode, ``--`` to an en dash); inline math stays as its LaTeX
  source with its delimiters (``$\\sim100$``).
* **Display math** (``\\[..\\]``, ``$$..$$``, ``equation``, ``align``, ...) is an
  ``equation`` unit of its own, written as ``\\[ body \\]`` (labels removed), and
  it splits the paragraph around it, like the display block it is on the page.
  pdfQA's source split does the same.
* ``\\cite``-family, ``\\ref``-family, ``\\label``, ``\\url`` and ``\\footnote``
  are removed from the text and kept as :class:`~docparse.model.Annotation`;
  a footnote's text becomes a ``footnote`` unit after its paragraph.
* ``\\title`` is the ``title`` unit (first) and ``Document.title``; each
  ``\\author`` is a ``paragraph`` unit with the author's name (affiliations,
  e-mails and ORCIDs are dropped; ``TexConfig(authors=False)`` drops authors).
* The abstract (environment, or ``\\abstract{..}`` command) is one ``abstract``
  unit; ``\\keywords`` and AASTeX ``\\software`` are paragraphs prefixed
  ``Keywords:`` / ``Software:``; ``\\acknowledgments`` (command or environment)
  opens an ``Acknowledgments`` section.
* ``itemize``/``enumerate``/``description`` items are ``list_item`` units
  (bullet-only labels such as ``\\item[$\\bullet$]`` are dropped; text labels
  are kept in front of the item).
* ``tabular``-family environments (``tabular``, ``tabular*``, ``tabularx``,
  ``tabulary``, ``longtable``, ``array`` outside math is not one) and AASTeX
  ``deluxetable``/``splitdeluxetable`` are ``table`` units with a cell grid
  (``\\multicolumn``/``\\multirow`` spans, rules dropped, header rows from the
  first rule under a header or from ``\\tablehead``). A tabular inside a
  table cell is that cell's text, not a table (:func:`latex_table_count`
  counts the same way). A table's caption is put on :attr:`Table.caption` and
  is also a ``caption`` unit linked both ways.
  Figure captions are ``caption`` units.
* Verbatim environments are ``code`` units holding their text as written;
  algorithms are ``code`` units of rendered text. Text that the PDF prints
  with a backslash (``\\verb|\\x|``, ``\\string\\x``, ``\\char`\\\\``,
  ``\\textbackslash``) keeps it; :data:`.nodes.LITERAL_BACKSLASH` lets a checker mark
  those to tell them from leaked markup (the tests do).
* The bibliography (``thebibliography``, ``\\bibliography``, ``biblatex``
  printing) is excluded.

:func:`latex_to_text` runs the very same code on a fragment, so a paragraph of
LaTeX taken from elsewhere (pdfQA evidence) becomes exactly the text the unit
built from it has.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from pylatexenc import latexwalker as lw

from docparse.builder import UnitDraft, build_document
from docparse.errors import ParseError
from docparse.formats._encoding import read_source
from docparse.formats.tex.config import TexConfig
from docparse.formats.tex.context import _prepare, _walk_source
from docparse.formats.tex.converter import Converter
from docparse.formats.tex.vocabulary import _COMMENT, TABULAR_ENVIRONMENTS
from docparse.model import Document, Format
from docparse.text import clean_text

__all__ = [
    "TABULAR_ENVIRONMENTS",
    "TexConfig",
    "TexParser",
    "latex_table_count",
    "latex_to_text",
]


def _convert(
    text: str, config: TexConfig, root: Path | None, *, fragment: bool
) -> tuple[list[UnitDraft], Converter]:
    conv = Converter(config, root)
    if not fragment:
        conv.number_references(text)
    try:
        nodes = _walk_source(_prepare(text, conv.env_macros))
        drafts = conv.run(nodes, fragment=fragment)
    except lw.LatexWalkerError as exc:
        raise ParseError(root, f"LaTeX could not be read: {exc}", cause=exc) from exc
    except RecursionError as exc:
        raise ParseError(root, "LaTeX nested too deeply", cause=exc) from exc
    return drafts, conv


@lru_cache(maxsize=32)
def _document_of(path: str, mtime: float) -> Converter:
    """A converter primed with a document's macros and label numbers."""
    p = Path(path)
    conv = Converter(TexConfig(), p)
    text = conv._read(p)
    conv.number_references(text)
    conv.prescan(_walk_source(_prepare(text, conv.env_macros)))
    return conv


def latex_to_text(fragment: str, *, source: str | Path | None = None) -> str:
    """Clean text of a LaTeX fragment, exactly as :class:`TexParser` writes it.

    The fragment is run through the parser's own code: a paragraph gives its
    paragraph text, a figure environment its caption, ``\\item ...`` the list
    item's text, an equation environment ``\\[ ... \\]``, and pure markup
    (``\\end{enumerate}``, ``\\bibliography{x}``) the empty string. When the
    fragment contains several units their texts are joined by one space.
    ``source`` is the ``.tex`` file the fragment comes from: its
    ``\\newcommand``/``\\def`` macros are then expanded too.

    >>> latex_to_text(r"The \\textbf{peak} is $\\sim100$ times higher~\\citep{M19}.")
    'The peak is $\\\\sim100$ times higher.'
    """
    conv = Converter(TexConfig(footnotes=False), None)
    if source is not None:
        p = Path(source)
        if p.is_file():
            doc = _document_of(str(p.resolve()), p.stat().st_mtime)
            conv.macros.update(doc.macros)
            conv.env_macros.update(doc.env_macros)
            conv.ref_labels = doc.ref_labels
            conv.autonames, conv.crefnames = doc.autonames, doc.crefnames
            conv.bibliography = doc.bibliography
    try:
        nodes = _walk_source(_prepare(fragment, conv.env_macros))
        drafts = conv.run(nodes, fragment=True)
    except (lw.LatexWalkerError, RecursionError):  # pragma: no cover - tolerant parsing
        return ""
    texts = []
    for d in drafts:
        text = clean_text(d.text)
        if not text and d.table is not None:
            text = clean_text(" ".join(d.table.cells()))
        if text:
            texts.append(text)
    return " ".join(texts)


_VERBATIM_BLOCK = re.compile(
    r"\\begin\s*\{(verbatim\*?|Verbatim|lstlisting|minted|comment)\}.*?\\end\s*\{\1\}", re.S
)


def latex_table_count(source: str) -> int:
    """Number of outermost ``tabular``-family environments in LaTeX source.

    Comments and verbatim blocks are ignored; a tabular nested in another
    (used to stack lines in a cell) is part of its outer table, not a table.
    """
    text = _COMMENT.sub("", source)
    text = _VERBATIM_BLOCK.sub("", text)
    token = re.compile(
        r"\\(begin|end)\s*\{(" + "|".join(re.escape(e) for e in TABULAR_ENVIRONMENTS) + r")\}"
    )
    depth = 0
    count = 0
    for m in token.finditer(text):
        if m.group(1) == "begin":
            if depth == 0:
                count += 1
            depth += 1
        else:
            depth = max(0, depth - 1)
    return count


class TexParser:
    """Parser for LaTeX twins (``format="tex"``); see the module docstring."""

    name = "tex"
    format: Format = "tex"
    config_class = TexConfig

    def parse(self, path: Path, config: TexConfig | None = None) -> Document:
        """Parse ``path`` (a ``.tex`` file) into a :class:`Document`."""
        cfg = config if config is not None else TexConfig()
        path = Path(path)
        data = read_source(path)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
        drafts, conv = _convert(text, cfg, path, fragment=False)
        return build_document(
            path=path,
            format="tex",
            backend="tex",
            drafts=drafts,
            title=conv.title,
            flags=sorted(conv.flags),
        )
