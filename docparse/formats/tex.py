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
  ``\\textbackslash``) keeps it; :data:`LITERAL_BACKSLASH` lets a checker mark
  those to tell them from leaked markup (the tests do).
* The bibliography (``thebibliography``, ``\\bibliography``, ``biblatex``
  printing) is excluded.

:func:`latex_to_text` runs the very same code on a fragment, so a paragraph of
LaTeX taken from elsewhere (pdfQA evidence) becomes exactly the text the unit
built from it has.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pylatexenc import latexwalker as lw
from pylatexenc import macrospec as ms
from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latex2text import get_default_latex_context_db as _l2t_db

from docparse.builder import UnitDraft, build_document
from docparse.config import ParserConfig
from docparse.errors import ParseError, UnsafeInputError
from docparse.formats._encoding import read_source
from docparse.model import Annotation, CellSpan, Document, Format, Table, UnitKind
from docparse.text import clean_text

log = logging.getLogger(__name__)

__all__ = [
    "TABULAR_ENVIRONMENTS",
    "TexConfig",
    "TexParser",
    "latex_table_count",
    "latex_to_text",
]


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
    """

    on_unsafe_input: Literal["skip", "raise"] = "skip"
    authors: bool = True
    footnotes: bool = True
    max_input_depth: int = 16
    max_macro_depth: int = 32
    max_macro_expansions: int = 50_000


# ---------------------------------------------------------------------------
# Environment and macro tables

#: Environments counted (and parsed) as tables.
TABULAR_ENVIRONMENTS: frozenset[str] = frozenset(
    {
        "tabular",
        "tabular*",
        "tabularx",
        "tabulary",
        "longtable",
        "longtable*",
        "supertabular",
        "xtabular",
        "tblr",
        "longtblr",
        "talltblr",
        "deluxetable",
        "deluxetable*",
        "splitdeluxetable",
        "splitdeluxetable*",
    }
)
_DELUXE = frozenset({"deluxetable", "deluxetable*", "splitdeluxetable", "splitdeluxetable*"})
_FLOATS = frozenset(
    {
        "figure",
        "figure*",
        "table",
        "table*",
        "wrapfigure",
        "wraptable",
        "teaserfigure",
        "sidewaystable",
        "sidewaysfigure",
        "subfigure",
        "subtable",
        "longrotatetable",
        "rotatetable",
        "algorithm",
        "algorithm*",
        "marginfigure",
        "margintable",
    }
)
_LISTS = frozenset(
    {
        "itemize",
        "enumerate",
        "description",
        "itemize*",
        "enumerate*",
        "description*",
        "compactitem",
        "compactenum",
        "compactdesc",
        "inparaenum",
        "asparaenum",
        "altdescription",
        "list",
        "enumerate-compact",
    }
)
_MATH_DISPLAY = frozenset(
    {
        "equation",
        "equation*",
        "align",
        "align*",
        "alignat",
        "alignat*",
        "flalign",
        "flalign*",
        "gather",
        "gather*",
        "multline",
        "multline*",
        "eqnarray",
        "eqnarray*",
        "displaymath",
        "dmath",
        "dmath*",
        "subequations",
    }
)
_VERBATIM = frozenset({"verbatim", "verbatim*", "Verbatim", "lstlisting", "minted", "alltt"})
_DROP_ENVS = frozenset(
    {
        "thebibliography",
        "comment",
        "CCSXML",
        "filecontents",
        "filecontents*",
        "tikzpicture",
        "pspicture",
        "picture",
        "titlepage",
    }
)
_ABSTRACT_ENVS = frozenset({"abstract"})
_ACK_ENVS = frozenset({"acknowledgments", "acknowledgements", "acks", "acknowledgment"})
_QUOTE_ENVS = frozenset({"quote", "quotation", "verse"})
_CODE_TEXT_ENVS = frozenset({"algorithmic", "algorithmic*", "algorithm2e"})

_SECTION_LEVELS: dict[str, int] = {
    "part": 0,
    "chapter": 1,
    "section": 2,
    "subsection": 3,
    "subsubsection": 4,
    "paragraph": 5,
    "subparagraph": 6,
}

_CITE = re.compile(r"^(?:[Cc]ite\w*|[Pp]arencite|[Tt]extcite|[Aa]utocite|[Ff]ootcite|nocite)$")
_CITE_NAMES = frozenset(
    {
        "cite",
        "citep",
        "citet",
        "citealt",
        "citealp",
        "citeauthor",
        "citeyear",
        "citeyearpar",
        "citenum",
        "parencite",
        "textcite",
        "autocite",
        "footcite",
        "Cite",
        "Citep",
        "Citet",
        "Citealt",
        "Citealp",
        "Citeauthor",
        "nocite",
        "citeN",
        "shortcite",
    }
)
_REF_NAMES = frozenset(
    {
        "sectionref",
        "equationref",
        "tableref",
        "figureref",
        "algorithmref",
        "theoremref",
        "lemmaref",
        "remarkref",
        "corollaryref",
        "definitionref",
        "conjectureref",
        "axiomref",
        "exampleref",
        "appendixref",
        "subfigref",
        "subtabref",
        "propositionref",
        "partref",
        "chapterref",
        "ref",
        "eqref",
        "autoref",
        "cref",
        "Cref",
        "pageref",
        "vref",
        "nameref",
        "subref",
        "crefrange",
        "Crefrange",
        "labelcref",
    }
)
_INPUT_NAMES = frozenset({"input", "include", "subfile", "import", "subimport", "includefrom"})
_BIB_NAMES = frozenset(
    {"bibliography", "bibliographystyle", "printbibliography", "addbibresource", "nocite"}
)
_NEWCMD = frozenset(
    {"newcommand", "renewcommand", "providecommand", "DeclareRobustCommand", "newcommand*"}
)
#: Macros dropped with their arguments (no visible text).
_DROP_MACROS = frozenset(
    {
        "affiliation",
        "altaffiliation",
        "email",
        "orcid",
        "thanks",
        "authornote",
        "institution",
        "city",
        "state",
        "country",
        "postcode",
        "streetaddress",
        "department",
        "correspondingauthor",
        "shorttitle",
        "shortauthors",
        "received",
        "revised",
        "accepted",
        "published",
        "submitjournal",
        "includegraphics",
        "plotone",
        "plottwo",
        "epsscale",
        "epsfig",
        "epsfbox",
        "fig",
        "gridline",
        "figurenum",
        "tablenum",
        "tablewidth",
        "tabletypesize",
        "setlength",
        "addtolength",
        "setcounter",
        "addtocounter",
        "newlength",
        "vspace",
        "hspace",
        "vskip",
        "hskip",
        "color",
        "pagecolor",
        "definecolor",
        "hypersetup",
        "graphicspath",
        "usepackage",
        "RequirePackage",
        "documentclass",
        "newtheorem",
        "newcolumntype",
        "newenvironment",
        "renewenvironment",
        "DeclareMathOperator",
        "pagestyle",
        "thispagestyle",
        "captionsetup",
        "maketitle",
        "tableofcontents",
        "listoffigures",
        "listoftables",
        "clearpage",
        "newpage",
        "cleardoublepage",
        "pagebreak",
        "nopagebreak",
        "linebreak",
        "noindent",
        "indent",
        "centering",
        "raggedright",
        "raggedleft",
        "flushleft",
        "flushright",
        "hfill",
        "vfill",
        "hfil",
        "vfil",
        "medskip",
        "bigskip",
        "smallskip",
        "protect",
        "relax",
        "appendix",
        "today",
        "label",
        "ccsdesc",
        "setcopyright",
        "copyrightyear",
        "acmYear",
        "acmDOI",
        "acmConference",
        "acmBooktitle",
        "acmPrice",
        "acmISBN",
        "acmJournal",
        "acmVolume",
        "acmNumber",
        "acmArticle",
        "acmMonth",
        "editor",
        "jmlrvolume",
        "jmlryear",
        "jmlrworkshop",
        "jmlrproceedings",
        "firstpageno",
        "Email",
        "addr",
        "AND",
        "And",
        "AUTHORS",
        "nametag",
        "titlerunning",
        "authorrunning",
        "affil",
        "keywordsname",
        "settopmatter",
        "renewcommand",
        "newcommand",
        "providecommand",
        "def",
        "let",
        "linenumbers",
        "bibpunct",
        "setcitestyle",
        "citestyle",
        "frenchspacing",
        "sloppy",
        "fussy",
        "onecolumn",
        "twocolumn",
        "nolinenumbers",
        "leavevmode",
        "null",
        "strut",
        "phantom",
        "hphantom",
        "vphantom",
        "allowdisplaybreaks",
        "numberwithin",
        "Crefname",
        "crefname",
        "urlstyle",
        "restylefloat",
        "floatname",
        "caption",
        "tablecaption",
        "tablecomments",
        "tablenotetext",
        "tablerefs",
        "startdata",
        "enddata",
        "decimals",
        "colnumbers",
        "decimalcolnumbers",
        "movetabledown",
        "object",
        "facility",
        "facilities",
        "dataset",
        "doi",
        "arxiv",
        "ead",
        "address",
        "cortext",
        "fntext",
        "tnotetext",
        "balance",
        "printccsdesc",
        "ignorespaces",
        "unskip",
        "selectfont",
        "fontsize",
        "linespread",
        "baselineskip",
        "tabcolsep",
        "arraystretch",
        "textwidth",
        "linewidth",
        "columnwidth",
        "textheight",
        "hline",
        "toprule",
        "midrule",
        "bottomrule",
        "cline",
        "cmidrule",
        "hhline",
        "specialrule",
        "addlinespace",
        "morecmidrules",
        "endhead",
        "endfirsthead",
        "endfoot",
        "endlastfoot",
        "rowcolor",
        "cellcolor",
        "arrayrulecolor",
        "columncolor",
        "tnote",
        "mathversion",
        "selectlanguage",
        "hyphenation",
        "homepage",
        "urladdr",
        "curraddr",
        "subjclass",
        "translator",
        "includeteximage",
        "inst",
        "authornotemark",
        "figsetplot",
        "figsetnum",
        "figsetgrpnum",
        "figsetgrptitle",
        "figsetstart",
        "figsetend",
        "figsetgrpstart",
        "figsetgrpend",
        "Description",
        "abovestrut",
        "belowstrut",
        "epigraph",
        "index",
        "glossary",
        "markboth",
        "markright",
        "enlargethispage",
        "rule",
        "FloatBarrier",
        "suppressfloats",
        "addcontentsline",
        "pdfbookmark",
        "bibinfo",
        "submitted",
        "volume",
        "issue",
        "pubyear",
        "date",
        "preprint",
        "journal",
    }
)
#: Font switches and other argument-free declarations that print nothing.
_DECLARATIONS = frozenset(
    {
        "tt",
        "it",
        "bf",
        "rm",
        "sf",
        "sc",
        "em",
        "sl",
        "normalfont",
        "bfseries",
        "itshape",
        "ttfamily",
        "rmfamily",
        "sffamily",
        "scshape",
        "upshape",
        "mdseries",
        "slshape",
        "tiny",
        "scriptsize",
        "footnotesize",
        "small",
        "normalsize",
        "large",
        "Large",
        "LARGE",
        "huge",
        "Huge",
        "boldmath",
        "unboldmath",
        "displaystyle",
        "textstyle",
        "nonumber",
        "notag",
    }
)
#: Symbols LaTeX prints for argument-free macros, where pylatexenc has none
#: or a poor one.
_SYMBOLS: dict[str, str] = {
    "&": "&",
    "%": "%",
    "$": "$",
    "#": "#",
    "_": "_",
    "{": "{",
    "}": "}",
    " ": " ",
    ",": " ",
    ";": " ",
    ":": " ",
    "!": "",
    "@": "",
    "/": "",
    "-": "",
    "\\": " ",
    "newline": " ",
    "tabularnewline": " ",
    "quad": " ",
    "qquad": " ",
    "enspace": " ",
    "thinspace": " ",
    "nobreakspace": " ",
    "space": " ",
    "arcsec": "″",
    "arcmin": "′",
    "farcs": "″.",
    "farcm": "′.",
    "fdg": "°.",
    "degr": "°",
    "sun": "☉",
    "earth": "⊕",
    "micron": "μm",
    "AA": "Å",
    "ang": "Å",
    "TeX": "TeX",
    "LaTeX": "LaTeX",
    "LaTeXe": "LaTeX2e",
    "BibTeX": "BibTeX",
    "AmS": "AMS",
    "ldots": "…",
    "dots": "…",
    "textellipsis": "…",
    "etal": "et al.",
    "eg": "e.g.",
    "ie": "i.e.",
    "nodata": "…",
    "titlebreak": " ",
    "sep": ",",
    "textbackslash": "\\",
    "textasciitilde": "~",
    "textasciicircum": "^",
    "textbar": "|",
    "textless": "<",
    "textgreater": ">",
    "textbullet": "•",
    "textendash": "–",
    "textemdash": "—",
    "textquoteleft": "‘",
    "textquoteright": "’",
    "textquotedblleft": "“",
    "textquotedblright": "”",
    "textdegree": "°",
    "textregistered": "®",
    "texttrademark": "™",
    "copyright": "©",
    "textcopyright": "©",
    "S": "§",
    "P": "¶",
    "dag": "†",
    "ddag": "‡",
    "pounds": "£",
    "euro": "€",
    "checkmark": "✓",
    "cmark": "✓",
    "xmark": "✗",
}
_SPECIALS: dict[str, str] = {
    "~": " ",
    "--": "–",
    "---": "—",
    "``": "“",
    "''": "”",
    "&": " ",
    "!`": "¡",
    "?`": "¿",
}

# Display-math wrapper used in equation units (kept as LaTeX, so a reader
# sees the formula; the delimiters mark it as math for checkers).
_DISPLAY_OPEN, _DISPLAY_CLOSE = "\\[", "\\]"
_SENTINEL = "\x00"  # where a citation/reference marker was removed
_BULLET_LABEL = re.compile(
    r"\$|\\(?:bullet|circ|cdot|star|ast|diamond|triangleright|rightarrow|to|checkmark|"
    r"blacksquare|square|textbullet|textendash|textemdash|textasteriskcentered|"
    r"ding|bf|tiny|small|normalfont|textbf|ensuremath|item)\b|[{}\s*\-–—•·>]|\d+(?=\})"
)
_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")
_COMMENT = re.compile(r"(?<!\\)%[^\n]*")


def _macro_specs() -> list[ms.MacroSpec]:
    specs = {
        "multicolumn": "{{{",
        "multirow": "[{[{[{",
        "cline": "{",
        "cdashline": "{",
        "Xhline": "{",
        "arrayrulecolor": "[{",
        "addlinespace": "[",
        "bottomrule": "[",
        "midrule": "[",
        "toprule": "[",
        "hhline": "{",
        "specialrule": "{{{",
        "resizebox": "*{{{",
        "scalebox": "{[{",
        "rotatebox": "[{{",
        "adjustbox": "{{",
        "raisebox": "{[[{",
        "parbox": "[[[{{",
        "makebox": "[[{",
        "framebox": "[[{",
        "colorbox": "[{{",
        "fcolorbox": "[{{{",
        "href": "{{",
        "url": "{",
        "nolinkurl": "{",
        "author": "[{",
        "affiliation": "[{",
        "altaffiliation": "{",
        "title": "[{",
        "software": "{",
        "keywords": "{",
        "abstract": "{",
        "dataset": "[{",
        "caption": "*[{",
        "captionof": "*{[{",
        "subcaption": "[{",
        "tablecaption": "{",
        "tablehead": "{",
        "tablecomments": "{",
        "tablenotetext": "{{",
        "tablerefs": "{",
        "colhead": "{",
        "nocolhead": "{",
        "multicolhead": "{{{",
        "twocolhead": "{",
        "cutinhead": "{",
        "sidehead": "{",
        "tablewidth": "{",
        "tabletypesize": "{",
        "tablenum": "{",
        "plotone": "{",
        "plottwo": "{{",
        "epsscale": "{",
        "figurenum": "{",
        "fig": "{{{",
        "gridline": "{",
        "footnote": "[{",
        "footnotetext": "[{",
        "footnotemark": "[",
        "thanks": "{",
        "email": "{",
        "orcid": "{",
        "authornote": "{",
        "institution": "{",
        "city": "{",
        "state": "{",
        "country": "{",
        "postcode": "{",
        "streetaddress": "{",
        "department": "[{",
        "correspondingauthor": "{",
        "shorttitle": "{",
        "shortauthors": "{",
        "received": "[{",
        "revised": "[{",
        "accepted": "[{",
        "published": "[{",
        "submitjournal": "{",
        "ccsdesc": "[{",
        "setcopyright": "{",
        "copyrightyear": "{",
        "acmYear": "{",
        "acmDOI": "{",
        "acmConference": "[{{{",
        "acmBooktitle": "{",
        "acmPrice": "{",
        "acmISBN": "{",
        "acmJournal": "{",
        "acmVolume": "{",
        "acmNumber": "{",
        "acmArticle": "{",
        "acmMonth": "{",
        "editor": "{",
        "jmlrvolume": "{",
        "jmlryear": "{",
        "jmlrworkshop": "{",
        "jmlrproceedings": "{{",
        "firstpageno": "{",
        "Name": "[{",
        "Email": "{",
        "textcolor": "[{{",
        "color": "[{",
        "definecolor": "{{{",
        "colorlet": "{{",
        "rowcolor": "[{",
        "cellcolor": "[{",
        "columncolor": "[{",
        "setlength": "{{",
        "addtolength": "{{",
        "setcounter": "{{",
        "addtocounter": "{{",
        "newlength": "{",
        "captionsetup": "[{",
        "hypersetup": "{",
        "graphicspath": "{",
        "newtheorem": "*{[{[",
        "newcolumntype": "{[{",
        "newenvironment": "*{[[{{",
        "renewenvironment": "*{[[{{",
        "DeclareMathOperator": "*{{",
        "pagestyle": "{",
        "thispagestyle": "{",
        "import": "{{",
        "subimport": "*{{",
        "subfile": "{",
        "includefrom": "{{",
        "addbibresource": "[{",
        "bibliographystyle": "{",
        "printbibliography": "[",
        "tnote": "{",
        "mathversion": "{",
        "selectlanguage": "{",
        "foreignlanguage": "[{{",
        "hyphenation": "{",
        "pdfoutput": "",
        "homepage": "[{",
        "urladdr": "[{",
        "curraddr": "[{",
        "keywordname": "{",
        "subjclass": "[{",
        "translator": "{",
        "sectionref": "{",
        "equationref": "{",
        "tableref": "{",
        "figureref": "{",
        "algorithmref": "{",
        "theoremref": "{",
        "lemmaref": "{",
        "remarkref": "{",
        "corollaryref": "{",
        "definitionref": "{",
        "conjectureref": "{",
        "axiomref": "{",
        "exampleref": "{",
        "appendixref": "{",
        "subfigref": "{",
        "subtabref": "{",
        "propositionref": "{",
        "partref": "{",
        "chapterref": "{",
        "floatconts": "{{{",
        "includeteximage": "[{",
        "subfigure": "[[{",
        "subtable": "[[{",
        "IEEEauthorblockN": "{",
        "IEEEauthorblockA": "{",
        "IEEEPARstart": "{{",
        "institute": "{",
        "inst": "{",
        "collaboration": "{{",
        "authornotemark": "[",
        "figsetplot": "{",
        "figsetnum": "{",
        "figsetgrpnum": "{",
        "figsetgrptitle": "{",
        "Description": "[{",
        "abovestrut": "{",
        "belowstrut": "{",
        "epigraph": "{{",
        "index": "{",
        "markboth": "{{",
        "markright": "{",
        "enlargethispage": "*{",
        "addcontentsline": "{{{",
        "pdfbookmark": "[{{",
        "rule": "[{{",
        "textsuperscript": "{",
        "textsubscript": "{",
        "ensuremath": "{",
        "object": "{{",
        "facility": "{",
        "facilities": "{",
        "doi": "{",
        "arxiv": "{",
        "nocite": "{",
        "subref": "{",
        "autoref": "*{",
        "cref": "*{",
        "Cref": "*{",
        "eqref": "{",
        "pageref": "*{",
        "nameref": "*{",
        "vref": "*{",
        "citealt": "*[[{",
        "citealp": "*[[{",
        "citeauthor": "*[[{",
        "citeyear": "*[[{",
        "citeyearpar": "*[[{",
        "citenum": "{",
        "parencite": "*[[{",
        "textcite": "*[[{",
        "autocite": "*[[{",
        "footcite": "*[[{",
        "Citep": "*[[{",
        "Citet": "*[[{",
        "Citealt": "*[[{",
        "Citealp": "*[[{",
        "Citeauthor": "*[[{",
        "citeN": "[{",
        "shortcite": "[{",
        "fontsize": "{{",
        "linespread": "{",
        "hspace": "*{",
        "vspace": "*{",
        "item": "[",
        "date": "{",
        "journal": "{",
        "volume": "{",
        "issue": "{",
        "pubyear": "{",
        "submitted": "{",
        "ead": "[{",
        "address": "[{",
        "cortext": "[{",
        "fntext": "[{",
        "tnotetext": "[{",
        "paragraph": "*[{",
        "subparagraph": "*[{",
        "part": "*[{",
        "chapter": "*[{",
    }
    out = [ms.MacroSpec(name, spec) for name, spec in specs.items()]
    out.append(ms.MacroSpec("string", args_parser=_StringArgParser()))
    return out


def _env_specs() -> list[ms.EnvironmentSpec]:
    specs = {
        "tabular": "[{",
        "tabular*": "{[{",
        "tabularx": "{[{",
        "tabulary": "{[{",
        "longtable": "[{",
        "longtable*": "[{",
        "supertabular": "{",
        "xtabular": "[{",
        "tblr": "[{",
        "longtblr": "[[{",
        "talltblr": "[[{",
        "deluxetable": "{",
        "deluxetable*": "{",
        "splitdeluxetable": "{",
        "splitdeluxetable*": "{",
        "minipage": "[[[{",
        "wrapfigure": "[{[{",
        "wraptable": "[{[{",
        "subfigure": "[[[{",
        "subtable": "[[[{",
        "figure": "[",
        "figure*": "[",
        "table": "[",
        "table*": "[",
        "teaserfigure": "",
        "algorithm": "[",
        "algorithm*": "[",
        "algorithmic": "[",
        "adjustbox": "{",
        "tcolorbox": "[",
        "multicols": "{[",
        "multicols*": "{",
        "list": "{{",
        "thebibliography": "{",
        "alignat": "{",
        "alignat*": "{",
        "threeparttable": "[",
        "tablenotes": "[",
        "interactive": "{{",
        "otherlanguage": "{",
        "otherlanguage*": "{",
        "longrotatetable": "",
    }
    out = [ms.EnvironmentSpec(name, spec) for name, spec in specs.items()]
    for name in (
        "verbatim",
        "verbatim*",
        "lstlisting",
        "Verbatim",
        "minted",
        "alltt",
        "comment",
        "CCSXML",
        "filecontents",
        "filecontents*",
    ):
        out.append(ms.EnvironmentSpec(name, args_parser=_VerbatimEnvParser(name)))
    return out


class _StringArgParser(ms.VerbatimArgsParser):  # type: ignore[misc]
    """The one token after ``\\string``, verbatim (``\\begin`` must not open an
    environment there)."""

    def __init__(self) -> None:
        super().__init__(verbatim_arg_type="verb-macro")

    def parse_args(
        self, w: lw.LatexWalker, pos: int, parsing_state: object = None
    ) -> tuple[object, int, int]:
        s = w.s
        start = pos
        while start < len(s) and s[start] in " \t":
            start += 1
        end = start
        if end < len(s) and s[end] == "\\":
            end += 1
            while end < len(s) and s[end].isalpha():
                end += 1
            if end == start + 1 and end < len(s):
                end += 1
        elif end < len(s):
            end += 1
        node = w.make_node(
            lw.LatexCharsNode,
            parsing_state=parsing_state,
            chars=s[start:end],
            pos=start,
            len=end - start,
        )
        return (ms.ParsedVerbatimArgs(verbatim_chars_node=node), pos, end - pos)


class _VerbatimEnvParser(ms.VerbatimArgsParser):  # type: ignore[misc]
    """Body of a verbatim-like environment, read up to its own ``\\end``.

    pylatexenc's parser always looks for ``\\end{verbatim}``, which swallows
    the rest of the file after a ``lstlisting`` or ``comment``.
    """

    def __init__(self, environment: str) -> None:
        super().__init__(verbatim_arg_type="verbatim-environment")
        self.environment = environment

    def parse_args(
        self, w: lw.LatexWalker, pos: int, parsing_state: object = None
    ) -> tuple[object, int, int]:
        end = w.s.find("\\end{" + self.environment + "}", pos)
        if end == -1:
            end = len(w.s)
        node = w.make_node(
            lw.LatexCharsNode,
            parsing_state=parsing_state,
            chars=w.s[pos:end],
            pos=pos,
            len=end - pos,
        )
        return (ms.ParsedVerbatimArgs(verbatim_chars_node=node), pos, end - pos)


@lru_cache(maxsize=1)
def _context_db() -> ms.LatexContextDb:
    db = lw.get_default_latex_context_db()
    db.add_context_category(
        "docparse-tex",
        macros=_macro_specs(),
        environments=_env_specs(),
        prepend=True,
    )
    _speed_up_specials(db)
    return db


def _speed_up_specials(db: ms.LatexContextDb) -> None:
    """Index the specials by first character.

    pylatexenc tests every category's specials at every character of the
    input, which is most of its parse time; the index gives the same answer
    (longest match, earlier category first on ties) with one dict lookup.
    """
    index: dict[str, list[tuple[str, object]]] = {}
    for cat in db.category_list:
        for chars, spec in db.d[cat]["specials"].items():
            bucket = index.setdefault(chars[0], [])
            if all(c != chars for c, _ in bucket):
                bucket.append((chars, spec))
    for bucket in index.values():
        bucket.sort(key=lambda cs: -len(cs[0]))

    def test_for_specials(s: str, pos: int, parsing_state: object = None) -> object:
        if pos >= len(s):
            return None
        bucket = index.get(s[pos])
        if bucket is None:
            return None
        for chars, spec in bucket:
            if s.startswith(chars, pos):
                return spec
        return None

    setattr(db, "test_for_specials", test_for_specials)  # noqa: B010


@lru_cache(maxsize=1)
def _l2t() -> LatexNodes2Text:
    return LatexNodes2Text(math_mode="verbatim", keep_comments=False)


@lru_cache(maxsize=1)
def _l2t_symbols() -> ms.LatexContextDb:
    return _l2t_db()


_MATH_COLUMN = re.compile(r"([<>])\{(\s*)\$(\s*)\}")


#: Total characters of user-macro bodies expanded in one document (real papers
#: in the corpus expand under 1 000; a fuzzed 349-byte file reached millions).
_MAX_EXPANDED_CHARS = 250_000

#: A run of plain characters (no LaTeX specials) long enough to slow pylatexenc.
_LONG_RUN = re.compile(r"[^\\{}$%&~#^_]{4096,}")
_RUN_STEP = 2048


def _break_long_runs(text: str) -> str:
    """Replace one space every ~2 KB of a long plain run with ``~``.

    pylatexenc appends each character of a run to a growing string
    (``PosPointer.push_lastchars``), which is quadratic in the run length: a
    hostile 1 MB line without markup took minutes. A tie ``~`` is a node of
    its own that ends the run, renders as a space, and keeps every position.
    """

    def cut(m: re.Match[str]) -> str:
        run = list(m.group(0))
        for i in range(_RUN_STEP, len(run), _RUN_STEP):
            j = next((k for k in range(i, min(i + 256, len(run))) if run[k] == " "), None)
            if j is not None:
                run[j] = "~"
        return "".join(run)

    return _LONG_RUN.sub(cut, text)


def _walk_source(text: str) -> list[lw.LatexNode]:
    # array-package column types ">{$}c<{$}" put a lone "$" in a group, which
    # would open math to the end of the file; a blank of the same length keeps
    # every position.
    text = _MATH_COLUMN.sub(r"\1{\2 \3}", text)
    text = _break_long_runs(text)
    walker = lw.LatexWalker(text, latex_context=_context_db(), tolerant_parsing=True)
    try:
        nodes, _, _ = walker.get_latex_nodes()
    except IndexError as exc:
        # pylatexenc reads past the end on a truncated construct such as a
        # final bare ``\verb`` (found by fuzz_tex).
        raise ParseError(None, f"truncated LaTeX construct at the end: {exc}", cause=exc) from exc
    return list(nodes)


# ---------------------------------------------------------------------------
# Macros


@dataclass(frozen=True, slots=True)
class _Macro:
    name: str
    n_args: int
    default: str | None
    body: str


def _node_verbatim(node: lw.LatexNode | None) -> str:
    if node is None:
        return ""
    return str(node.latex_verbatim())


def _group_body(node: lw.LatexNode | None) -> str:
    """The source inside a ``{...}`` argument (or the single token)."""
    if node is None:
        return ""
    if isinstance(node, lw.LatexGroupNode):
        return "".join(_node_verbatim(n) for n in node.nodelist)
    return _node_verbatim(node)


def _args(node: lw.LatexNode) -> list[lw.LatexNode | None]:
    nodeargd = getattr(node, "nodeargd", None)
    if nodeargd is None or nodeargd.argnlist is None:
        return []
    return list(nodeargd.argnlist)


def _argspec(node: lw.LatexNode) -> str:
    nodeargd = getattr(node, "nodeargd", None)
    spec = getattr(nodeargd, "argspec", "") if nodeargd is not None else ""
    return spec if isinstance(spec, str) else ""


def _last_mandatory(node: lw.LatexNode) -> lw.LatexNode | None:
    """The last ``{}`` argument of a macro (its text argument, usually)."""
    spec = _argspec(node)
    args = _args(node)
    for i in range(len(args) - 1, -1, -1):
        if i < len(spec) and spec[i] == "{":
            return args[i]
    return None


def _mandatory(node: lw.LatexNode) -> list[lw.LatexNode | None]:
    spec = _argspec(node)
    return [a for i, a in enumerate(_args(node)) if i < len(spec) and spec[i] == "{"]


def _optional(node: lw.LatexNode) -> list[lw.LatexNode | None]:
    spec = _argspec(node)
    return [a for i, a in enumerate(_args(node)) if i < len(spec) and spec[i] == "["]


def _macro_name_of(node: lw.LatexNode | None) -> str | None:
    if isinstance(node, lw.LatexMacroNode):
        return str(node.macroname)
    if isinstance(node, lw.LatexGroupNode):
        inner = [n for n in node.nodelist if not _is_space(n)]
        if len(inner) == 1 and isinstance(inner[0], lw.LatexMacroNode):
            return str(inner[0].macroname)
    return None


def _is_space(node: lw.LatexNode) -> bool:
    if isinstance(node, lw.LatexCommentNode):
        return True
    return isinstance(node, lw.LatexCharsNode) and not str(node.chars).strip()


# ---------------------------------------------------------------------------
# Output buffers


@dataclass
class _Buf:
    kind: UnitKind
    parts: list[str] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    annotations: list[Annotation] = field(default_factory=list)


@dataclass
class _Float:
    env: str
    captions: list[UnitDraft] = field(default_factory=list)
    tables: list[UnitDraft] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    footnotes: list[str] = field(default_factory=list)


@dataclass
class _Cell:
    nodes: list[lw.LatexNode] = field(default_factory=list)


_PUNCT_AFTER = re.compile(r"[ \t]+\x00(?=[\x00 \t]*[.,;:!?)\]])")


def _finish_text(text: str) -> str:
    """Tidy the holes left by removed citations/references, then clean."""
    if _SENTINEL in text:
        # "(\citealt{a,b})" -> "", "(TDE, \citealt{x})" -> "(TDE)", "X \citep{y}." -> "X."
        text = re.sub(r"\(\s*\x00[\x00\s,;]*\)", _SENTINEL, text)
        text = re.sub(r"[,;]\s*\x00[\x00\s]*\)", ")", text)
        text = re.sub(r"\(\s*\x00[\x00\s,;]*", "(", text)
        text = _PUNCT_AFTER.sub("", text)
        text = text.replace(_SENTINEL, "")
    return clean_text(text)


# ---------------------------------------------------------------------------
# The converter


class _Converter:
    """Walks pylatexenc nodes and produces unit drafts (one run per document)."""

    def __init__(self, config: TexConfig, root: Path | None) -> None:
        self.config = config
        self.root = root.parent.resolve() if root is not None else None
        self.root_file = root.resolve() if root is not None else None
        self.macros: dict[str, _Macro] = {}
        self.drafts: list[UnitDraft] = []
        self.links: list[tuple[UnitDraft, UnitDraft]] = []
        self.flags: set[str] = set()
        self.section: list[tuple[int, str]] = []
        self.buf_stack: list[_Buf] = [_Buf("paragraph")]
        self.kind_stack: list[UnitKind] = ["paragraph"]
        self.split_paragraphs: list[bool] = [True]
        self.float_stack: list[_Float] = []
        self.deferred: list[UnitDraft] = []
        self.raw_on = True
        self.raw_stack: list[bool] = []
        self.title: str | None = None
        self.title_emitted = False
        self.footnote_count = 0
        self.input_stack: list[Path] = []
        self.file_cache: dict[Path, list[lw.LatexNode]] = {}
        self.macro_depth = 0
        self.expansions = 0
        self.expanded_chars = 0
        self.expansion_cache: dict[str, list[lw.LatexNode]] = {}
        self.prev_comment = False
        self.prescanned = False
        self.cell_depth = 0
        self.env_macros: dict[str, str] = {}

    # -- files -------------------------------------------------------------

    def _read(self, path: Path) -> str:
        data = path.read_bytes()
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return data.decode("latin-1")

    def _resolve_input(self, name: str, current: Path | None) -> Path | None:
        """The file an ``\\input{name}`` reads, or None (skipped, flagged)."""
        name = name.strip().strip('"')
        if not name:
            return None
        if self.root is None:
            # A fragment (latex_to_text) never reads files.
            return None
        candidate_dirs = []
        if current is not None:
            candidate_dirs.append(current.parent)
        candidate_dirs.append(self.root)
        raw_path = Path(name)
        unsafe = raw_path.is_absolute() or name.startswith("~")
        found: Path | None = None
        if not unsafe:
            for base in candidate_dirs:
                for cand in (base / name, base / f"{name}.tex"):
                    try:
                        resolved = cand.resolve()
                        if not resolved.is_relative_to(self.root):
                            unsafe = True
                            continue
                        is_file = resolved.is_file()
                    except (OSError, ValueError, RuntimeError):
                        # NUL byte, name too long, symlink loop: not a file to read.
                        continue
                    if is_file:
                        found = resolved
                        break
                if found is not None:
                    break
        if found is None and unsafe:
            message = f"\\input{{{name}}} points outside the document folder; not read"
            if self.config.on_unsafe_input == "raise":
                raise UnsafeInputError(self.root_file, message)
            log.warning("%s: %s", self.root_file, message)
            self.flags.add("unsafe_input_skipped")
            return None
        if found is None:
            log.warning("%s: \\input{%s} not found; skipped", self.root_file, name)
            self.flags.add("missing_input")
            return None
        if found in self.input_stack or found == self.root_file:
            log.warning("%s: \\input{%s} loops; skipped", self.root_file, name)
            self.flags.add("input_loop")
            return None
        if len(self.input_stack) >= self.config.max_input_depth:
            log.warning("%s: \\input nesting deeper than %d", self.root_file, len(self.input_stack))
            self.flags.add("input_too_deep")
            return None
        return found

    def _input_nodes(self, path: Path) -> list[lw.LatexNode]:
        if path not in self.file_cache:
            self.file_cache[path] = _walk_source(_prepare(self._read(path), self.env_macros))
        return self.file_cache[path]

    def _input_name(self, node: lw.LatexMacroNode) -> str:
        mand = _mandatory(node)
        if node.macroname in ("import", "subimport", "includefrom") and len(mand) >= 2:
            return _group_body(mand[0]).strip() + _group_body(mand[1]).strip()
        return _group_body(mand[-1]) if mand else ""

    def _current_file(self) -> Path | None:
        return self.input_stack[-1] if self.input_stack else self.root_file

    # -- pre-scan: macro definitions and title -----------------------------

    def prescan(self, nodes: Sequence[lw.LatexNode]) -> None:
        """Collect macro definitions, title and front matter from all nodes."""
        self.prescanned = True
        i = 0
        nodes = list(nodes)
        while i < len(nodes):
            node = nodes[i]
            if isinstance(node, lw.LatexMacroNode):
                name = str(node.macroname)
                if name in _NEWCMD:
                    self._define_newcommand(node)
                elif name in ("def", "gdef", "edef", "xdef"):
                    i = self._define_def(nodes, i)
                elif name == "title" and self.title is None:
                    arg = _last_mandatory(node)
                    if arg is not None:
                        self.title = self._render_nodes([arg])
                        self._title_raw = _node_verbatim(node)
                elif name in _INPUT_NAMES:
                    path = self._resolve_input(self._input_name(node), self._current_file())
                    if path is not None:
                        self.input_stack.append(path)
                        try:
                            self.prescan(self._input_nodes(path))
                        finally:
                            self.input_stack.pop()
            elif isinstance(node, lw.LatexEnvironmentNode):
                if node.environmentname not in _VERBATIM | _DROP_ENVS:
                    self.prescan(node.nodelist)
            elif isinstance(node, lw.LatexGroupNode):
                self.prescan(node.nodelist)
            i += 1

    def _define_newcommand(self, node: lw.LatexMacroNode) -> None:
        args = _args(node)
        # spec "*{[[{": star, name, n_args, default, body
        if len(args) < 5:
            return
        name = _macro_name_of(args[1])
        if not name or args[4] is None:
            return
        n_args = 0
        if args[2] is not None:
            digits = re.sub(r"\D", "", _group_body(args[2]))
            n_args = int(digits) if digits else 0
        default = _group_body(args[3]) if args[3] is not None else None
        self.macros[name] = _Macro(name, min(n_args, 9), default, _group_body(args[4]))

    def _define_def(self, nodes: list[lw.LatexNode], i: int) -> int:
        """``\\def\\name#1#2{body}``; returns the index of the last node used."""
        j = i + 1
        if j >= len(nodes) or not isinstance(nodes[j], lw.LatexMacroNode):
            return i
        target = nodes[j]
        name = str(target.macroname)
        own_args = [a for a in _args(target) if a is not None]
        if own_args and isinstance(own_args[-1], lw.LatexGroupNode):
            # pylatexenc knew a spec for the name and took the body as argument
            self.macros[name] = _Macro(name, 0, None, _group_body(own_args[-1]))
            return j
        n_args = 0
        k = j + 1
        while k < len(nodes) and isinstance(nodes[k], lw.LatexCharsNode):
            chars = str(nodes[k].chars)
            n_args += chars.count("#")
            k += 1
        if k < len(nodes) and isinstance(nodes[k], lw.LatexGroupNode):
            self.macros[name] = _Macro(name, min(n_args, 9), None, _group_body(nodes[k]))
            return k
        return i

    # -- output helpers ------------------------------------------------------

    @property
    def buf(self) -> _Buf:
        return self.buf_stack[-1]

    def _section_path(self) -> tuple[str, ...]:
        return tuple(title for _, title in self.section)

    def _emit(self, draft: UnitDraft) -> None:
        """Append a unit; while a paragraph is open, hold it until it ends."""
        if self.float_stack:
            # floats collect their parts; they are emitted when they close
            self.deferred.append(draft)
            return
        # Same as "".join(parts).strip() without joining a (possibly huge,
        # macro-expanded) open paragraph once per emitted unit: that was quadratic.
        if any(p and not p.isspace() for p in self.buf.parts):
            self.deferred.append(draft)
            return
        self.drafts.append(draft)

    def flush(self) -> None:
        """End the current text unit (paragraph, list item, ...)."""
        buf = self.buf
        text = _finish_text("".join(buf.parts))
        if text:
            draft = UnitDraft(
                kind=buf.kind,
                text=text,
                raw="".join(buf.raw).strip(),
                section=self._section_path(),
                annotations=tuple(buf.annotations),
            )
            if self.float_stack:
                self.deferred.append(draft)
            else:
                self.drafts.append(draft)
        self.buf_stack[-1] = _Buf(self.kind_stack[-1])
        if not self.float_stack and self.deferred and len(self.buf_stack) == 1:
            self.drafts.extend(self.deferred)
            self.deferred = []

    def _text(self, s: str) -> None:
        self.buf.parts.append(s)

    def _raw(self, s: str) -> None:
        if self.raw_on:
            self.buf.raw.append(s)

    def _render_nodes(self, nodes: Sequence[lw.LatexNode | None]) -> str:
        """Text of nodes as one inline string (annotations discarded)."""
        text, _ = self._render_with_annotations(nodes)
        return text

    def _render_with_annotations(
        self, nodes: Sequence[lw.LatexNode | None]
    ) -> tuple[str, list[Annotation]]:
        self.buf_stack.append(_Buf("paragraph"))
        self.kind_stack.append("paragraph")
        self.split_paragraphs.append(False)
        saved_raw, self.raw_on = self.raw_on, False
        saved_deferred, self.deferred = self.deferred, []
        try:
            self.walk([n for n in nodes if n is not None])
            buf = self.buf_stack[-1]
            text = _finish_text("".join(buf.parts))
            annotations = list(buf.annotations)
            inner = self.deferred
        finally:
            self.buf_stack.pop()
            self.kind_stack.pop()
            self.split_paragraphs.pop()
            self.raw_on = saved_raw
            self.deferred = saved_deferred
        # footnotes met inside (e.g. in a caption) still become units
        self.deferred.extend(inner)
        return text, annotations

    def _push_block(self, kind: UnitKind, split: bool) -> None:
        self.flush()
        self.buf_stack.append(_Buf(kind))
        self.kind_stack.append(kind)
        self.split_paragraphs.append(split)
        # a block's units record their own source, even inside an argument
        self.raw_stack.append(self.raw_on)
        self.raw_on = True

    def _pop_block(self) -> None:
        self.flush()
        self.raw_on = self.raw_stack.pop()
        self.buf_stack.pop()
        self.kind_stack.pop()
        self.split_paragraphs.pop()
        self.buf_stack[-1] = _Buf(self.kind_stack[-1])
        if not self.float_stack and self.deferred and len(self.buf_stack) == 1:
            self.drafts.extend(self.deferred)
            self.deferred = []

    # -- walking -------------------------------------------------------------

    def walk(self, nodes: Sequence[lw.LatexNode]) -> None:
        nodes = list(nodes)
        i = 0
        while i < len(nodes):
            node = nodes[i]
            i = self._node(nodes, i)
            self.prev_comment = isinstance(node, lw.LatexCommentNode)

    def _node(self, nodes: list[lw.LatexNode], i: int) -> int:
        """Handle ``nodes[i]``; return the index of the next node to handle."""
        node = nodes[i]
        if isinstance(node, lw.LatexCharsNode):
            self._chars(str(node.chars))
        elif isinstance(node, lw.LatexCommentNode):
            pass
        elif isinstance(node, lw.LatexMathNode):
            self._math(node)
        elif isinstance(node, lw.LatexGroupNode):
            # braces are recorded around the children so that a unit that
            # starts or ends inside a group still gets its exact source span
            delims = getattr(node, "delimiters", None) or ("{", "}")
            self._raw(delims[0])
            self.walk(node.nodelist)
            self._raw(delims[1])
        elif isinstance(node, lw.LatexSpecialsNode):
            self._raw(_node_verbatim(node))
            self._text(_SPECIALS.get(str(node.specials_chars), ""))
        elif isinstance(node, lw.LatexEnvironmentNode):
            self._environment(node)
        elif isinstance(node, lw.LatexMacroNode):
            return self._macro(nodes, i)
        return i + 1

    def _chars(self, chars: str) -> None:
        if not self.split_paragraphs[-1]:
            self._raw(chars)
            self._text(chars.replace("`", "‘"))
            return
        if self.prev_comment and re.match(r"[ \t]*\n", chars):
            self.flush()
        pieces = _BLANK_LINE.split(chars)
        for k, piece in enumerate(pieces):
            if k:
                self.flush()
            self._raw(piece)
            self._text(piece.replace("`", "‘"))

    def _math(self, node: lw.LatexMathNode) -> None:
        verbatim = _strip_comments(_node_verbatim(node))
        delims = getattr(node, "delimiters", None)
        body = verbatim.strip()[len(delims[0]) : -len(delims[1]) or None] if delims else ""
        unbalanced = len(re.findall(r"(?<!\\)\{", body)) != len(re.findall(r"(?<!\\)\}", body))
        if delims and (not verbatim.rstrip().endswith(delims[1]) or unbalanced):
            # Tolerant parsing ran an unclosed "$$" or "\[" to the end of the
            # input, or took a "$" inside an unclosed group for the closing one
            # ("${$\textbf{$"); what follows is not math, so it is read as text.
            self._raw(str(delims[0]))
            self.walk(node.nodelist)
            return
        if node.displaytype == "display":
            body = _strip_math_delims(verbatim)
            self._equation(body, verbatim)
        else:
            self._raw(verbatim)
            self._text(verbatim)

    def _equation(self, body: str, raw: str) -> None:
        labels = re.findall(r"\\label\s*\{([^{}]*)\}", body)
        body = re.sub(r"\\label\s*\{[^{}]*\}", "", body)
        body = clean_text(body)
        kind_saved = self.buf.kind
        self.flush()
        if body:
            draft = UnitDraft(
                kind="equation",
                text=f"{_DISPLAY_OPEN} {body} {_DISPLAY_CLOSE}",
                raw=raw.strip(),
                section=self._section_path(),
                annotations=tuple(Annotation("label", lab.strip()) for lab in labels),
            )
            if self.float_stack or (len(self.buf_stack) > 1 and not self.raw_on):
                self.deferred.append(draft)
            else:
                self.drafts.append(draft)
        # text after the display continues as the same kind (list item, ...)
        self.buf.kind = kind_saved

    # -- environments --------------------------------------------------------

    def _environment(self, node: lw.LatexEnvironmentNode) -> None:
        name = str(node.environmentname)
        verbatim = _node_verbatim(node)
        if name in _DROP_ENVS:
            return
        if name == "document":
            self.walk(node.nodelist)
            return
        if name in _MATH_DISPLAY:
            body = _strip_comments("".join(_node_verbatim(n) for n in node.nodelist))
            self._equation(body, verbatim)
            return
        if name == "math":
            body = _strip_comments("".join(_node_verbatim(n) for n in node.nodelist))
            self._raw(verbatim)
            self._text(f"$ {body.strip()} $")
            return
        if name in _VERBATIM:
            self._verbatim(node, name)
            return
        if name in TABULAR_ENVIRONMENTS:
            if self.cell_depth:
                # a tabular inside a cell stacks lines; it is cell text
                self.walk(node.nodelist)
            else:
                self._table(node, name)
            return
        if name in _FLOATS:
            self._float(node, name)
            return
        if name in _LISTS:
            self._list(node)
            return
        if name in _ABSTRACT_ENVS:
            self._push_block("abstract", split=False)
            saved_section = self.section
            self.section = []
            self.walk(node.nodelist)
            self.section = saved_section
            self._pop_block()
            return
        if name in _ACK_ENVS:
            self.flush()
            self._heading(2, "Acknowledgments", verbatim)
            self.walk(node.nodelist)
            self.flush()
            return
        if name in ("keywords", "IEEEkeywords", "keyword"):
            self._push_block("paragraph", split=False)
            self._raw(verbatim)
            self._text("Keywords: ")
            saved, self.raw_on = self.raw_on, False
            self.walk(node.nodelist)
            self.raw_on = saved
            self._pop_block()
            return
        if name in _QUOTE_ENVS:
            self._push_block("quote", split=True)
            self.walk(node.nodelist)
            self._pop_block()
            return
        if name in _CODE_TEXT_ENVS:
            self._push_block("code", split=False)
            self.walk(node.nodelist)
            self._pop_block()
            return
        # center, minipage, theorem-like, appendix, unknown: transparent
        self.walk(node.nodelist)

    def _verbatim(self, node: lw.LatexEnvironmentNode, name: str) -> None:
        args = _args(node)
        content = ""
        if args and args[0] is not None:
            content = _node_verbatim(args[0])
            if isinstance(args[0], lw.LatexCharsNode):
                content = str(args[0].chars)
        else:
            content = "".join(_node_verbatim(n) for n in node.nodelist)
        if name == "minted":
            content = re.sub(r"^\s*(\[[^\]]*\])?\s*\{[^{}]*\}", "", content, count=1)
        elif name in ("lstlisting", "Verbatim"):
            content = re.sub(r"^\s*\[[^\]]*\]", "", content, count=1)
        self.flush()
        self._emit(
            UnitDraft(
                kind="code",
                text=_literal(content),
                raw=_node_verbatim(node),
                section=self._section_path(),
            )
        )

    def _list(self, node: lw.LatexEnvironmentNode) -> None:
        self._push_block("list_item", split=True)
        self.walk(node.nodelist)
        self._pop_block()

    def _item(self, node: lw.LatexMacroNode) -> None:
        self.flush()
        if self.kind_stack[-1] != "list_item":
            # an \item outside a list (a fragment): it is still an item
            self.buf.kind = "list_item"
        self._raw(_node_verbatim(node))
        opt = _optional(node)
        if opt and opt[0] is not None:
            raw_label = _group_body(opt[0])
            if _BULLET_LABEL.sub("", raw_label).strip():
                saved, self.raw_on = self.raw_on, False
                self.walk(opt[0].nodelist if isinstance(opt[0], lw.LatexGroupNode) else [opt[0]])
                self.raw_on = saved
                self._text(" ")

    # -- floats, captions, tables ---------------------------------------------

    def _float(self, node: lw.LatexEnvironmentNode, name: str) -> None:
        fl = _Float(name)
        self.float_stack.append(fl)
        outer_deferred, self.deferred = self.deferred, []
        self.buf_stack.append(_Buf("paragraph"))
        self.kind_stack.append("paragraph")
        self.split_paragraphs.append(True)
        saved_raw, self.raw_on = self.raw_on, True
        try:
            self.walk(node.nodelist)
            self.flush()
        finally:
            self.buf_stack.pop()
            self.kind_stack.pop()
            self.split_paragraphs.pop()
            self.raw_on = saved_raw
            self.float_stack.pop()
        inner = self.deferred
        self.deferred = outer_deferred
        inner = self._link_float(fl, inner)
        for draft in inner:
            self._emit(draft)

    def _link_float(self, fl: _Float, inner: list[UnitDraft]) -> list[UnitDraft]:
        """Attach captions and labels to the float's tables; link both ways."""
        if not fl.tables:
            return inner
        caption = fl.captions[0].text if fl.captions else None
        label = fl.labels[0] if fl.labels else None
        replaced: dict[int, UnitDraft] = {}
        for tdraft in fl.tables:
            assert tdraft.table is not None
            table = tdraft.table
            table = replace(
                table,
                caption=table.caption or (clean_text(caption) if caption else None),
                label=table.label or label,
                footnotes=table.footnotes + tuple(fl.footnotes),
            )
            tdraft.table = table
            replaced[id(tdraft)] = tdraft
            for cdraft in fl.captions:
                self.links.append((tdraft, cdraft))
        return inner

    def _caption(self, node: lw.LatexMacroNode) -> None:
        arg = _last_mandatory(node)
        text, annotations = self._render_with_annotations([arg])
        labels = [a.target for a in annotations if a.kind == "label"]
        draft = UnitDraft(
            kind="caption",
            text=text,
            raw=_node_verbatim(node),
            section=self._section_path(),
            annotations=tuple(annotations),
        )
        if self.float_stack:
            fl = self.float_stack[-1]
            fl.captions.append(draft)
            fl.labels.extend(labels)
            self.deferred.append(draft)
        else:
            self._emit(draft)

    def _table(self, node: lw.LatexEnvironmentNode, name: str) -> None:
        parsed = _TableParser(self, name).parse(node)
        table, annotations, caption_draft = parsed
        draft = UnitDraft(
            kind="table",
            text="",
            raw=_node_verbatim(node),
            section=self._section_path(),
            table=table,
            annotations=tuple(annotations),
        )
        if self.float_stack:
            fl = self.float_stack[-1]
            fl.tables.append(draft)
            if caption_draft is not None:
                fl.captions.append(caption_draft)
                self.deferred.append(caption_draft)
            self.deferred.append(draft)
            return
        if caption_draft is not None:
            self.links.append((draft, caption_draft))
            self._emit(caption_draft)
        self._emit(draft)

    # -- headings and front matter --------------------------------------------

    def _heading(self, level: int, title: str, raw: str) -> None:
        self.flush()
        while self.section and self.section[-1][0] >= level:
            self.section.pop()
        if title:
            self.section.append((level, title))
        self._emit(
            UnitDraft(kind="heading", text=title, raw=raw.strip(), section=self._section_path())
        )

    def emit_title(self) -> None:
        if self.title and not self.title_emitted:
            self.title_emitted = True
            self.drafts.append(UnitDraft(kind="title", text=self.title, raw=self._title_raw))

    _title_raw = ""

    # -- macros --------------------------------------------------------------

    def _macro(self, nodes: list[lw.LatexNode], i: int) -> int:
        node = nodes[i]
        assert isinstance(node, lw.LatexMacroNode)
        name = str(node.macroname)
        verbatim = _node_verbatim(node)

        if name in _SECTION_LEVELS:
            arg = _last_mandatory(node)
            title = self._render_nodes([arg]) if arg is not None else ""
            labels = re.findall(r"\\label\s*\{([^{}]*)\}", _node_verbatim(arg))
            self._heading(_SECTION_LEVELS[name], title, verbatim)
            if labels and self.drafts and self.drafts[-1].kind == "heading":
                self.drafts[-1].annotations = tuple(Annotation("label", x) for x in labels)
            return i + 1
        if name in ("acknowledgments", "acknowledgements", "acknowledgment"):
            self._heading(2, "Acknowledgments", verbatim)
            return i + 1
        if name == "title":
            if not self.title_emitted:
                arg = _last_mandatory(node)
                self.title = self._render_nodes([arg]) if arg is not None else self.title
                self._title_raw = verbatim
                self.flush()
                self.emit_title()
            return i + 1
        if name == "author":
            if self.config.authors:
                arg = _last_mandatory(node)
                text = self._render_nodes([arg]) if arg is not None else ""
                self.flush()
                self._emit(
                    UnitDraft(
                        kind="paragraph",
                        text=text,
                        raw=verbatim,
                        section=self._section_path(),
                    )
                )
            return i + 1
        if name == "abstract":
            arg = _last_mandatory(node)
            if arg is not None:
                text = self._render_nodes([arg])
                self.flush()
                self._emit(UnitDraft(kind="abstract", text=text, raw=verbatim))
            return i + 1
        if name in ("keywords", "software"):
            arg = _last_mandatory(node)
            text = self._render_nodes([arg]) if arg is not None else ""
            self.flush()
            if text:
                prefix = "Keywords: " if name == "keywords" else "Software: "
                self._emit(
                    UnitDraft(
                        kind="paragraph",
                        text=prefix + text,
                        raw=verbatim,
                        section=self._section_path(),
                    )
                )
            return i + 1
        if name == "item":
            self._item(node)
            return i + 1
        if name == "par":
            if self.split_paragraphs[-1]:
                self.flush()
            else:
                self._text(" ")
            return i + 1
        if name in _CITE_NAMES or _CITE.match(name):
            self._raw(verbatim)
            arg = _last_mandatory(node)
            notes = " ".join(
                clean_text(_group_body(a)) for a in _optional(node) if a is not None
            ).strip()
            for key in _group_body(arg).split(","):
                if key.strip():
                    self.buf.annotations.append(Annotation("cite", key.strip(), notes))
            self._text(_SENTINEL)
            return i + 1
        if name in _REF_NAMES:
            self._raw(verbatim)
            for key in _group_body(_last_mandatory(node)).split(","):
                if key.strip():
                    self.buf.annotations.append(Annotation("ref", key.strip()))
            self._text(_SENTINEL)
            return i + 1
        if name == "label":
            self._raw(verbatim)
            target = _group_body(_last_mandatory(node)).strip()
            if target:
                label = Annotation("label", target)
                if self.float_stack:
                    self.float_stack[-1].labels.append(target)
                    self.buf.annotations.append(label)
                elif (
                    not "".join(self.buf.parts).strip()
                    and self.drafts
                    and self.drafts[-1].kind == "heading"
                ):
                    # \section{X}\label{sec:x}: the label names the heading
                    heading = self.drafts[-1]
                    heading.annotations = (*heading.annotations, label)
                else:
                    self.buf.annotations.append(label)
            return i + 1
        if name in ("url", "nolinkurl"):
            self._raw(verbatim)
            self.buf.annotations.append(
                Annotation("url", _group_body(_last_mandatory(node)).strip())
            )
            self._text(_SENTINEL)
            return i + 1
        if name == "href":
            self._raw(verbatim)
            mand = _mandatory(node)
            if len(mand) == 2:
                text = self._render_nodes([mand[1]])
                self.buf.annotations.append(Annotation("url", _group_body(mand[0]).strip(), text))
                self._text(text)
            return i + 1
        if name in ("footnote", "footnotetext"):
            self._raw(verbatim)
            self._footnote(node)
            return i + 1
        if name == "floatconts":
            # jmlr: \floatconts{label}{\caption{..}}{contents}
            self._raw(verbatim)
            mand = _mandatory(node)
            if mand:
                target = _group_body(mand[0]).strip()
                if target and self.float_stack:
                    self.float_stack[-1].labels.append(target)
                if target:
                    self.buf.annotations.append(Annotation("label", target))
            saved, self.raw_on = self.raw_on, False
            self.walk([a for a in mand[1:] if a is not None])
            self.raw_on = saved
            return i + 1
        if name in ("subfigure", "subtable", "subfloat"):
            # subfigure package: \subfigure[sub-caption][pos]{content}
            self._raw(verbatim)
            opt = _optional(node)
            if opt and opt[0] is not None:
                text, annotations = self._render_with_annotations([opt[0]])
                if text:
                    draft = UnitDraft(
                        kind="caption",
                        text=text,
                        raw=verbatim,
                        section=self._section_path(),
                        annotations=tuple(annotations),
                    )
                    if self.float_stack:
                        self.float_stack[-1].captions.append(draft)
                        self.deferred.append(draft)
                    else:
                        self._emit(draft)
            saved, self.raw_on = self.raw_on, False
            self.walk([a for a in [_last_mandatory(node)] if a is not None])
            self.raw_on = saved
            return i + 1
        if name in ("caption", "captionof", "subcaption"):
            self._raw(verbatim)
            self._caption(node)
            return i + 1
        if name == "tablecaption":
            return i + 1
        if name in _INPUT_NAMES:
            self._input(node)
            return i + 1
        if name in _BIB_NAMES:
            return i + 1
        if name == "string":
            # \string\foo prints "\foo" literally (LaTeX manuals use it); the
            # token was read verbatim by _StringArgParser
            self._raw(verbatim)
            args = _args(node)
            if args and isinstance(args[0], lw.LatexCharsNode):
                self._text(_literal(str(args[0].chars)))
            return i + 1
        if name == "char":
            return self._char(nodes, i)
        if name == "verb":
            self._raw(verbatim)
            args = _args(node)
            if args and args[0] is not None:
                arg = args[0]
                self._text(_literal(str(arg.chars)) if isinstance(arg, lw.LatexCharsNode) else "")
            return i + 1
        if name == "ensuremath":
            self._raw(verbatim)
            self._text(f"${_group_body(_last_mandatory(node))}$")
            return i + 1
        if name in ("resizebox", "scalebox", "rotatebox", "adjustbox", "raisebox", "parbox"):
            self._raw(verbatim)
            saved, self.raw_on = self.raw_on, False
            self.walk([a for a in [_last_mandatory(node)] if a is not None])
            self.raw_on = saved
            return i + 1
        if name in _BLOCK_MACROS:
            # author blocks and the like: their text stands apart from the next
            self._raw(verbatim)
            saved, self.raw_on = self.raw_on, False
            self._text(" ")
            self.walk([a for a in [_last_mandatory(node)] if a is not None])
            self._text(" ")
            self.raw_on = saved
            return i + 1
        if name == "IEEEPARstart":
            self._raw(verbatim)
            saved, self.raw_on = self.raw_on, False
            self.walk([a for a in _mandatory(node) if a is not None])
            self.raw_on = saved
            return i + 1
        if name in ("textcolor", "colorbox", "collaboration", "foreignlanguage"):
            self._raw(verbatim)
            saved, self.raw_on = self.raw_on, False
            self.walk([a for a in [_last_mandatory(node)] if a is not None])
            self.raw_on = saved
            return i + 1
        if name in self.macros and name not in _STRUCTURAL:
            return self._expand(nodes, i)
        if name in _DIMEN_MACROS:
            # TeX primitives with an unbraced dimension: \vskip12pt, \kern-1em
            self._raw(verbatim)
            if i + 1 < len(nodes) and isinstance(nodes[i + 1], lw.LatexCharsNode):
                chars = str(nodes[i + 1].chars)
                m = _DIMEN.match(chars)
                if m:
                    self._raw(chars)
                    self._chars(chars[m.end() :])
                    return i + 2
            return i + 1
        if name in _DROP_MACROS or name in _DECLARATIONS:
            self._raw(verbatim)
            return i + 1
        if name in _SYMBOLS:
            self._raw(verbatim)
            self._text(_literal(_SYMBOLS[name]))
            return i + 1
        self._raw(verbatim)
        spec = _l2t_symbols().get_macro_spec(name)
        simplify = getattr(spec, "simplify_repl", None) if spec is not None else None
        if (simplify is not None and not _args(node)) or callable(simplify):
            try:
                self._text(str(_l2t().nodelist_to_text([node])))
            except (AttributeError, IndexError, KeyError, TypeError, ValueError):
                # pylatexenc's accent callbacks and "%(2)s" templates assume
                # well-formed arguments (``\d\title`` gave AttributeError,
                # ``\d\footnote{f}`` KeyError): keep the argument's text.
                self._text(self._render_nodes(list(_args(node))))
            return i + 1
        if isinstance(simplify, str) and "%" not in simplify:
            self._text(simplify)
            return i + 1
        if (
            name.endswith("ref")
            and not _args(node)
            and i + 1 < len(nodes)
            and isinstance(nodes[i + 1], lw.LatexGroupNode)
            and re.fullmatch(r"[^\s{}\\]+", _group_body(nodes[i + 1]).strip() or " ")
        ):
            # an unknown cross-reference command (\figref{fig:x}): a marker
            self._raw(_node_verbatim(nodes[i + 1]))
            for key in _group_body(nodes[i + 1]).split(","):
                if key.strip():
                    self.buf.annotations.append(Annotation("ref", key.strip()))
            self._text(_SENTINEL)
            return i + 2
        # unknown or text-wrapping macro: its mandatory arguments are its text
        saved, self.raw_on = self.raw_on, False
        for k, arg in enumerate(a for a in _mandatory(node) if a is not None):
            if k:
                self._text(" ")
            self.walk([arg])
        self.raw_on = saved
        return i + 1

    def _char(self, nodes: list[lw.LatexNode], i: int) -> int:
        """``\\char'134``, ``\\char"5C``, ``\\char92``, ``\\char`\\x``: one character."""
        self._raw(_node_verbatim(nodes[i]))
        if i + 1 >= len(nodes) or not isinstance(nodes[i + 1], lw.LatexCharsNode):
            return i + 1
        chars = str(nodes[i + 1].chars)
        self._raw(chars)
        m = re.match(r"\s*(?:'([0-7]+)|\"([0-9A-Fa-f]+)|(\d+))", chars)
        if m:
            code = (
                int(m.group(1), 8)
                if m.group(1)
                else int(m.group(2) or m.group(3), 16 if m.group(2) else 10)
            )
            if 0 < code < 0x110000:
                self._text(_literal(chr(code)))
            self._chars(chars[m.end() :])
            return i + 2
        if chars.lstrip().startswith("`"):
            rest = chars.lstrip()[1:]
            if rest:
                self._text(rest[0])
                self._chars(rest[1:])
                return i + 2
            if i + 2 < len(nodes) and isinstance(nodes[i + 2], lw.LatexMacroNode):
                mac = str(nodes[i + 2].macroname)
                self._raw(_node_verbatim(nodes[i + 2]))
                self._text(_literal("\\") if mac == "\\" else mac[:1])
                return i + 3
        self._chars(chars)
        return i + 2

    def _footnote(self, node: lw.LatexMacroNode) -> None:
        arg = _last_mandatory(node)
        text, annotations = self._render_with_annotations([arg])
        self.footnote_count += 1
        target = f"fn{self.footnote_count}"
        self.buf.annotations.append(Annotation("footnote", target, text))
        self.buf.annotations.extend(a for a in annotations if a.kind != "footnote")
        if self.float_stack:
            self.float_stack[-1].footnotes.append(text)
        if self.config.footnotes and text:
            self.deferred.append(
                UnitDraft(
                    kind="footnote",
                    text=text,
                    raw=_node_verbatim(node),
                    section=self._section_path(),
                    annotations=tuple(annotations),
                )
            )
        self._text(_SENTINEL)

    def _input(self, node: lw.LatexMacroNode) -> None:
        path = self._resolve_input(self._input_name(node), self._current_file())
        if path is None:
            return
        self.input_stack.append(path)
        saved_prev = self.prev_comment
        try:
            self.walk(self._input_nodes(path))
        finally:
            self.input_stack.pop()
            self.prev_comment = saved_prev

    def _expand(self, nodes: list[lw.LatexNode], i: int) -> int:
        """Expand a user macro at ``nodes[i]``; return the next index."""
        node = nodes[i]
        assert isinstance(node, lw.LatexMacroNode)
        macro = self.macros[str(node.macroname)]
        self._raw(_node_verbatim(node))
        if (
            self.macro_depth >= self.config.max_macro_depth
            or self.expansions >= self.config.max_macro_expansions
        ):
            self.flags.add("macro_expansion_limit")
            return i + 1
        self.expansions += 1
        # pylatexenc may already have read arguments for a name it knows
        # (\bar, \vec...): use them first, then the following nodes
        spec = _argspec(node)
        own = [(spec[k] if k < len(spec) else "{", a) for k, a in enumerate(_args(node))]
        own = [(c, a) for c, a in own if a is not None and c in "[{"]
        args: list[str] = []
        j = i + 1
        rest = ""
        if macro.default is not None:
            if own and own[0][0] == "[":
                args.append(_group_body(own.pop(0)[1]).strip("[]"))
            else:
                k = j
                while k < len(nodes) and _is_space(nodes[k]):
                    k += 1
                m = None
                if k < len(nodes) and isinstance(nodes[k], lw.LatexCharsNode):
                    m = re.match(r"\s*\[([^\]]*)\]", str(nodes[k].chars))
                if m is not None:
                    chars = str(nodes[k].chars)
                    self._raw(chars)
                    args.append(m.group(1))
                    rest, j = chars[m.end() :], k + 1
                else:
                    args.append(macro.default)
        n_mand = macro.n_args - len(args)
        while n_mand > 0 and own and own[0][0] == "{":
            args.append(_group_body(own.pop(0)[1]))
            n_mand -= 1
        while n_mand > 0:
            if rest.strip():
                stripped = rest.lstrip()
                args.append(stripped[:1])
                rest = stripped[1:]
                n_mand -= 1
                continue
            k = j
            while k < len(nodes) and _is_space(nodes[k]):
                k += 1
            if k >= len(nodes):
                break
            arg = nodes[k]
            self._raw(_node_verbatim(arg))
            j = k + 1
            if isinstance(arg, lw.LatexCharsNode):
                rest = str(arg.chars)
                continue
            args.append(_group_body(arg))
            n_mand -= 1
        body = _substitute(macro.body, args)
        self.expanded_chars += len(body)
        if self.expanded_chars > _MAX_EXPANDED_CHARS:
            # A count of expansions does not bound the work when every body is
            # long and names several macros (a fuzzed \def took minutes).
            self.flags.add("macro_expansion_limit")
        else:
            self._expand_body(body)
        # arguments pylatexenc read that the user macro does not take are text
        saved, self.raw_on = self.raw_on, False
        for c, a in own:
            if c == "[":
                self._text("[")
            self.walk([a])
            if c == "[":
                self._text("]")
        self.raw_on = saved
        if rest:
            self._chars(rest)
        return j

    def _expand_body(self, body: str) -> None:
        cached = self.expansion_cache.get(body)
        if cached is None:
            cached = _walk_source(body)
            if len(self.expansion_cache) < 4096:
                self.expansion_cache[body] = cached
        self.macro_depth += 1
        saved, self.raw_on = self.raw_on, False
        try:
            self.walk(cached)
        finally:
            self.raw_on = saved
            self.macro_depth -= 1

    # -- drive ---------------------------------------------------------------

    def run(self, nodes: list[lw.LatexNode], *, fragment: bool) -> list[UnitDraft]:
        if not self.prescanned:
            self.prescan(nodes)
        self.prescanned = True
        body = None if fragment else _find_document(nodes)
        if body is None:
            body_nodes = nodes
            # in a preamble-less file front matter is wherever it is met
        else:
            body_nodes = list(body.nodelist)
            if not fragment:
                self.emit_title()
                if self.config.authors:
                    self._preamble_authors(nodes, body)
        self.walk(body_nodes)
        self.flush()
        if self.deferred:
            self.drafts.extend(self.deferred)
            self.deferred = []
        self._resolve_links()
        return self.drafts

    def _preamble_authors(self, nodes: list[lw.LatexNode], body: lw.LatexNode) -> None:
        for node in nodes:
            if node is body:
                break
            if isinstance(node, lw.LatexMacroNode) and node.macroname == "author":
                self._macro([node], 0)
        self.flush()

    def _resolve_links(self) -> None:
        index = {id(d): k for k, d in enumerate(self.drafts)}
        for a, b in self.links:
            ia, ib = index.get(id(a)), index.get(id(b))
            if ia is None or ib is None:
                continue
            if ib not in a.related:
                a.related.append(ib)
            if ia not in b.related:
                b.related.append(ia)


_BLOCK_MACROS = frozenset(
    {"IEEEauthorblockN", "IEEEauthorblockA", "Name", "institute", "orgname", "and"}
)
_DIMEN_MACROS = frozenset({"vskip", "hskip", "kern", "mskip", "mkern", "moveleft", "moveright"})
_UNIT = r"(?:pt|em|ex|mm|cm|in|bp|pc|sp|dd|cc|mu|fil+)"
_DIMEN = re.compile(
    rf"\s*[-+]?\s*(?:\d+\.?\d*|\.\d+)\s*{_UNIT}"
    rf"(?:\s*(?:plus|minus)\s*[-+]?\s*(?:\d+\.?\d*|\.\d+)\s*{_UNIT})*"
)

_STRUCTURAL = frozenset(
    set(_SECTION_LEVELS)
    | _CITE_NAMES
    | _REF_NAMES
    | {"label", "caption", "footnote", "item", "title", "author", "input", "include", "url"}
)


#: What a backslash printed as text (``\\verb``, ``\\string``, ``\\char``,
#: ``\\textbackslash``, verbatim blocks) becomes. A plain backslash, as in the
#: PDF; checkers may set another character to tell printed backslashes apart
#: from leaked markup.
LITERAL_BACKSLASH = "\\"


def _literal(text: str) -> str:
    return text.replace("\\", LITERAL_BACKSLASH) if LITERAL_BACKSLASH != "\\" else text


def _substitute(body: str, args: list[str]) -> str:
    def repl(m: re.Match[str]) -> str:
        k = int(m.group(1)) - 1
        return args[k] if 0 <= k < len(args) else ""

    return re.sub(r"#([1-9])", repl, body)


def _strip_comments(text: str) -> str:
    return _COMMENT.sub("", text)


def _strip_math_delims(verbatim: str) -> str:
    s = verbatim.strip()
    for open_, close in (("$$", "$$"), ("\\[", "\\]"), ("$", "$"), ("\\(", "\\)")):
        if s.startswith(open_) and s.endswith(close) and len(s) >= len(open_) + len(close):
            return s[len(open_) : len(s) - len(close)]
    return s


def _find_document(nodes: Sequence[lw.LatexNode]) -> lw.LatexEnvironmentNode | None:
    for node in nodes:
        if isinstance(node, lw.LatexEnvironmentNode) and node.environmentname == "document":
            return node
    return None


# ---------------------------------------------------------------------------
# Tables


_RULES = frozenset(
    {
        "hline",
        "toprule",
        "midrule",
        "bottomrule",
        "cline",
        "cmidrule",
        "hhline",
        "specialrule",
        "addlinespace",
        "morecmidrules",
        "hdashline",
        "cdashline",
        "Xhline",
        "Hline",
    }
)
_HEADER_RULES = frozenset(
    {"hline", "midrule", "cline", "cmidrule", "hhline", "specialrule", "hdashline", "Xhline"}
)


class _TableParser:
    """Cells of one tabular-family (or deluxetable) environment."""

    def __init__(self, conv: _Converter, env: str) -> None:
        self.conv = conv
        self.env = env
        self.rows: list[list[tuple[str, int, int]]] = []
        self.row: list[tuple[str, int, int]] = []
        self.cell: list[lw.LatexNode] = []
        self.rules_before: list[int] = []  # row index a full rule precedes
        self.partial_rules_before: list[int] = []  # \cline/\cmidrule
        self.annotations: list[Annotation] = []
        self.header_rows: int | None = None
        self.caption: str | None = None
        self.caption_draft: UnitDraft | None = None
        self.label: str | None = None
        self.footnotes: list[str] = []
        self.skip_from: int | None = None  # longtable: repeated head/foot rows
        self.drop_ranges: list[tuple[int, int]] = []

    def parse(
        self, node: lw.LatexEnvironmentNode
    ) -> tuple[Table, list[Annotation], UnitDraft | None]:
        if self.env in _DELUXE:
            self._deluxe(list(node.nodelist))
        else:
            self._cells(list(node.nodelist))
            self._end_row(force=False)
        rows = [r for k, r in enumerate(self.rows) if not self._dropped(k)]
        columns: list[str] | None = None
        if self.env in _DELUXE:
            spec = _args(node)[:1]
            columns = _aastex_columns(_group_body(spec[0]) if spec else "")
        grid, spans = _grid(rows, columns)
        n_header = self.header_rows
        if n_header is None:
            # the header ends at the first full rule under the first row(s);
            # a partial rule (\cmidrule under a spanning cell) only when
            # there is no full one
            n_header = 0
            for rules in (self.rules_before, self.partial_rules_before):
                inside = sorted(k for k in set(rules) if 0 < k < len(grid))
                if inside:
                    n_header = inside[0] if inside[0] <= 4 else 0
                    break
            for span in spans:
                if span.row < n_header:
                    n_header = max(n_header, min(span.row + span.row_span, len(grid)))
        table = Table(
            rows=grid,
            n_header_rows=min(n_header, len(grid)),
            spans=spans,
            caption=self.caption,
            label=self.label,
            footnotes=tuple(f for f in self.footnotes if f),
        )
        return table, self.annotations, self.caption_draft

    def _dropped(self, k: int) -> bool:
        return any(a <= k < b for a, b in self.drop_ranges)

    # cells ---------------------------------------------------------------

    def _end_cell(self) -> None:
        self.row.append(self._cell_value(self.cell))
        self.cell = []

    def _end_row(self, *, force: bool) -> None:
        has_content = any(not _is_space(n) for n in self.cell)
        if self.row or has_content or force:
            self._end_cell()
            if any(text for text, _, _ in self.row) or len(self.row) > 1:
                self.rows.append(self.row)
        self.row = []
        self.cell = []

    def _cells(self, nodes: list[lw.LatexNode]) -> None:
        k = 0
        while k < len(nodes):
            node = nodes[k]
            if isinstance(node, lw.LatexSpecialsNode) and node.specials_chars == "&":
                self._end_cell()
            elif isinstance(node, lw.LatexMacroNode):
                name = str(node.macroname)
                if name in ("\\", "tabularnewline", "cr", "crcr"):
                    self._end_row(force=True)
                elif name in _RULES:
                    if name in _HEADER_RULES and not self.row and _blank(self.cell):
                        if name in ("cline", "cmidrule"):
                            self.partial_rules_before.append(len(self.rows))
                        else:
                            self.rules_before.append(len(self.rows))
                    if name == "cmidrule":
                        # \cmidrule[w](lr){2-3}: pylatexenc has no spec for "(lr)"
                        while (
                            k + 1 < len(nodes)
                            and isinstance(nodes[k + 1], lw.LatexCharsNode)
                            and re.fullmatch(
                                r"\s*(?:\[[^\]]*\]|\([^)]*\))\s*", str(nodes[k + 1].chars)
                            )
                        ):
                            k += 1
                        if k + 1 < len(nodes) and isinstance(nodes[k + 1], lw.LatexGroupNode):
                            k += 1
                elif name in ("endfirsthead", "endhead", "endfoot", "endlastfoot"):
                    self._end_row(force=False)
                    self._longtable_mark(name)
                elif name == "caption":
                    text, annotations = self.conv._render_with_annotations([_last_mandatory(node)])
                    self._set_caption(text, annotations, node)
                elif name == "label":
                    self.label = _group_body(_last_mandatory(node)).strip() or self.label
                elif name in ("cutinhead", "sidehead"):
                    self._end_row(force=False)
                    text = self.conv._render_nodes([_last_mandatory(node)])
                    self.rows.append([(text, 1, 1)])
                elif name in ("tablenotetext",):
                    mand = _mandatory(node)
                    self.footnotes.append(self.conv._render_nodes(mand[-1:]))
                elif name in ("tablecomments", "tablerefs"):
                    self.footnotes.append(self.conv._render_nodes([_last_mandatory(node)]))
                else:
                    self.cell.append(node)
            elif isinstance(node, lw.LatexCommentNode):
                pass
            else:
                self.cell.append(node)
            k += 1

    def _longtable_mark(self, name: str) -> None:
        # rows since the previous mark belong to the block this mark closes
        start = getattr(self, "_last_mark", 0)
        end = len(self.rows)
        if name == "endfirsthead":
            self.header_rows = end
        elif name == "endhead":
            if self.header_rows is None:
                self.header_rows = end
            else:
                self.drop_ranges.append((start, end))
        else:  # endfoot / endlastfoot: continuation notes
            self.drop_ranges.append((start, end))
        self._last_mark = end

    def _set_caption(self, text: str, annotations: list[Annotation], node: lw.LatexNode) -> None:
        self.caption = clean_text(text) or None
        for a in annotations:
            if a.kind == "label":
                self.label = self.label or a.target
        self.caption_draft = UnitDraft(
            kind="caption",
            text=text,
            raw=_node_verbatim(node),
            section=self.conv._section_path(),
            annotations=tuple(annotations),
        )

    def _cell_value(self, nodes: list[lw.LatexNode]) -> tuple[str, int, int]:
        significant = [n for n in nodes if not _is_space(n)]
        col_span = row_span = 1
        while len(significant) == 1 and isinstance(significant[0], lw.LatexMacroNode):
            mac = significant[0]
            mname = str(mac.macroname)
            if mname in ("multicolumn", "multicolhead"):
                mand = _mandatory(mac)
                col_span = _int(_group_body(mand[0]) if mand else "1")
            elif mname == "multirow":
                mand = _mandatory(mac)
                row_span = abs(_int(_group_body(mand[0]) if mand else "1"))
            elif mname in ("colhead", "nocolhead", "twocolhead", "makecell", "thead"):
                if mname == "twocolhead":
                    col_span = 2
            else:
                break
            arg = _last_mandatory(mac)
            significant = (
                [n for n in arg.nodelist if not _is_space(n)]
                if isinstance(arg, lw.LatexGroupNode)
                else ([arg] if arg is not None else [])
            )
        self.conv.cell_depth += 1
        try:
            text, annotations = self.conv._render_with_annotations(significant)
        finally:
            self.conv.cell_depth -= 1
        self.annotations.extend(annotations)
        return text, max(col_span, 1), max(row_span, 1)

    # deluxetable ------------------------------------------------------------

    def _deluxe(self, nodes: list[lw.LatexNode]) -> None:
        data: list[lw.LatexNode] = []
        in_data = False
        for node in nodes:
            if isinstance(node, lw.LatexMacroNode):
                name = str(node.macroname)
                if name == "startdata":
                    in_data = True
                    continue
                if name == "enddata":
                    in_data = False
                    continue
                if not in_data:
                    if name == "tablecaption":
                        text, annotations = self.conv._render_with_annotations(
                            [_last_mandatory(node)]
                        )
                        self._set_caption(text, annotations, node)
                        continue
                    if name == "tablehead":
                        arg = _last_mandatory(node)
                        if isinstance(arg, lw.LatexGroupNode):
                            before = len(self.rows)
                            self._cells(list(arg.nodelist))
                            self._end_row(force=False)
                            self.header_rows = len(self.rows) - before
                        continue
                    if name in ("tablecomments", "tablerefs"):
                        self.footnotes.append(self.conv._render_nodes([_last_mandatory(node)]))
                        continue
                    if name == "tablenotetext":
                        mand = _mandatory(node)
                        self.footnotes.append(self.conv._render_nodes(mand[-1:]))
                        continue
                    if name == "label":
                        self.label = _group_body(_last_mandatory(node)).strip() or self.label
                        continue
            if in_data:
                data.append(node)
        self._cells(data)
        self._end_row(force=False)


def _blank(nodes: list[lw.LatexNode]) -> bool:
    return all(_is_space(n) for n in nodes)


def _int(s: str) -> int:
    m = re.search(r"-?\d+", s)
    return int(m.group(0)) if m else 1


def _aastex_columns(spec: str) -> list[str]:
    """Column letters of an AASTeX deluxetable preamble, one per source column.

    ``D`` (decimal-aligned) is one source column but two typeset columns, so a
    header ``\\multicolumn2c`` over it spans one; ``h`` columns are hidden in
    the PDF; ``B`` only marks where a splitdeluxetable breaks.
    """
    out: list[str] = []
    k = 0
    while k < len(spec):
        ch = spec[k]
        k += 1
        if ch in "@!><":
            k = _skip_group(spec, k)
        elif ch.isalpha() and ch != "B":
            if k < len(spec) and spec[k] == "{":
                # p{width}, dcolumn's D{.}{.}{3}: one ordinary column
                while k < len(spec) and spec[k] == "{":
                    k = _skip_group(spec, k)
                out.append("l")
            else:
                out.append(ch)
    return out


def _skip_group(spec: str, k: int) -> int:
    while k < len(spec) and spec[k].isspace():
        k += 1
    if k >= len(spec) or spec[k] != "{":
        return k
    depth = 0
    while k < len(spec):
        if spec[k] == "{":
            depth += 1
        elif spec[k] == "}":
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    return k


def _grid(
    rows: list[list[tuple[str, int, int]]],
    columns: list[str] | None = None,
) -> tuple[tuple[tuple[str, ...], ...], tuple[CellSpan, ...]]:
    """Lay cells with spans onto a rectangular grid.

    With AASTeX ``columns``, spans counted in typeset columns are converted
    to source columns and hidden (``h``) columns are removed.
    """
    widths = [2 if c == "D" else 1 for c in columns] if columns else []
    out: list[list[str]] = []
    placed: list[tuple[int, int, int, int]] = []
    for r, row in enumerate(rows):
        cells: list[str] = []
        for text, col_span, row_span in row:
            c = len(cells)
            if widths and col_span > 1:
                covered = acc = 0
                while acc < col_span and c + covered < len(widths):
                    acc += widths[c + covered]
                    covered += 1
                col_span = max(1, covered)
            cells.append(text)
            cells.extend([""] * (col_span - 1))
            if col_span > 1 or row_span > 1:
                placed.append((r, c, min(row_span, len(rows) - r), col_span))
        out.append(cells)
    hidden = {k for k, c in enumerate(columns or []) if c == "h"}
    if hidden:
        out = [[cell for k, cell in enumerate(row) if k not in hidden] for row in out]
        moved = []
        for r, c, rs, cs in placed:
            if c in hidden:
                continue
            new_c = c - sum(1 for h in hidden if h < c)
            new_cs = cs - sum(1 for h in hidden if c <= h < c + cs)
            if rs > 1 or new_cs > 1:
                moved.append((r, new_c, rs, new_cs))
        placed = moved
    width = max((len(r) for r in out), default=0)
    grid = tuple(tuple(r + [""] * (width - len(r))) for r in out)
    spans = tuple(CellSpan(r, c, rs, cs) for r, c, rs, cs in placed)
    return grid, spans


# ---------------------------------------------------------------------------
# Public API


_ENV_MACRO_DEF = re.compile(
    r"\\(?:(?:re|provide)?newcommand\*?\s*(?:\{\s*\\([A-Za-z@]+)\s*\}|\\([A-Za-z@]+))"
    r"|\\[gex]?def\s*\\([A-Za-z@]+))\s*\{"
)


def _env_macro_defs(text: str) -> tuple[str, dict[str, str]]:
    """Take out argument-free macros that open or close an environment.

    ``\\newcommand{\\be}{\\begin{equation}}`` cannot be left to the parser:
    it pairs ``\\begin`` with ``\\end`` while reading, so the definition (and
    every ``\\be ... \\ee``) would swallow the text after it. Such
    definitions are removed from the text and returned as name -> body.
    """
    found: dict[str, str] = {}
    spans: list[tuple[int, int]] = []
    for m in _ENV_MACRO_DEF.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if _COMMENT.search(text, line_start, m.start()):
            continue
        end = _skip_group(text, m.end() - 1)
        body = text[m.end() : end - 1]
        if re.search(r"\\(?:begin|end)\s*\{", body) and "#" not in body:
            found[m.group(1) or m.group(2) or m.group(3)] = " ".join(body.split())
            spans.append((m.start(), end))
    if not found:
        return text, {}
    pieces = []
    last = 0
    for start, end in spans:
        pieces.append(text[last:start])
        last = end
    pieces.append(text[last:])
    return "".join(pieces), found


def _expand_env_macros(text: str, env_macros: dict[str, str]) -> str:
    if not env_macros:
        return text
    names = sorted(env_macros, key=len, reverse=True)
    pattern = re.compile(r"\\(" + "|".join(re.escape(n) for n in names) + r")(?![A-Za-z@])")
    return pattern.sub(lambda m: " " + env_macros[m.group(1)] + " ", text)


def _prepare(text: str, env_macros: dict[str, str]) -> str:
    """Source text as it is parsed: environment macros expanded (see above)."""
    text, own = _env_macro_defs(text)
    env_macros.update(own)
    return _expand_env_macros(text, env_macros)


def _convert(
    text: str, config: TexConfig, root: Path | None, *, fragment: bool
) -> tuple[list[UnitDraft], _Converter]:
    conv = _Converter(config, root)
    try:
        nodes = _walk_source(_prepare(text, conv.env_macros))
        drafts = conv.run(nodes, fragment=fragment)
    except lw.LatexWalkerError as exc:
        raise ParseError(root, f"LaTeX could not be read: {exc}", cause=exc) from exc
    except RecursionError as exc:
        raise ParseError(root, "LaTeX nested too deeply", cause=exc) from exc
    return drafts, conv


@lru_cache(maxsize=32)
def _macros_of(path: str, mtime: float) -> tuple[dict[str, _Macro], dict[str, str]]:
    p = Path(path)
    conv = _Converter(TexConfig(), p)
    conv.prescan(_walk_source(_prepare(conv._read(p), conv.env_macros)))
    return dict(conv.macros), dict(conv.env_macros)


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
    conv = _Converter(TexConfig(footnotes=False), None)
    if source is not None:
        p = Path(source)
        if p.is_file():
            macros, env_macros = _macros_of(str(p.resolve()), p.stat().st_mtime)
            conv.macros.update(macros)
            conv.env_macros.update(env_macros)
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
